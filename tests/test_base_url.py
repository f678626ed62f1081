"""Relative links and images are resolved against the document base URL, a page's ``<base href>``
(host/pagesieve/page/base.py), as the browser resolves them."""

from __future__ import annotations

import re

from pagesieve.extract import extract, extract_page
from pagesieve.page.base import document_base_url
from pagesieve.page.html import parse_html
from pagesieve.page.snapshot import parse_snapshot
from pagesieve.page.to_snapshot import page_to_snapshot

URL = "https://mill.example/news/2026/reopening.html"
STORY = ("<p>The council met on Tuesday and voted to reopen the mill after forty years; the wheel "
         "turned again on Saturday before a crowd of two hundred, and the miller sold out of flour by noon.</p>")


def _page(head: str, body: str = "") -> str:
    return f"<html><head>{head}<title>The mill</title></head><body><article>{body}</article></body></html>"


def _base(head: str, url: str | None = URL) -> str | None:
    return document_base_url(parse_html(_page(head, STORY)).root, url)


def test_the_first_base_with_an_href_resolved_against_the_page_address():
    assert _base("") == URL
    assert _base('<base href="/">') == "https://mill.example/"
    assert _base('<base href="../media/">') == "https://mill.example/news/media/"
    assert _base('<base target="_blank"><base href="https://cdn.example/mill/"><base href="/other/">') == "https://cdn.example/mill/"
    # a relative base of a page whose address is unknown makes none; an absolute one does
    assert _base('<base href="/">', url=None) is None
    assert _base('<base href="https://cdn.example/">', url=None) == "https://cdn.example/"


def test_a_base_that_no_page_loads_from_is_ignored():
    assert _base('<base href="javascript:void(0)">') == URL
    assert _base('<base href="data:text/html,x">') == URL
    assert _base('<base href="http://[::1">') == URL  # not a URL


def _addresses(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="([^"]+)"', html)


def test_the_reader_resolves_against_the_base_from_html_and_from_a_snapshot():
    body = (f'{STORY}<p><img src="img/wheel.jpg" alt="The wheel"></p><p>The mill last turned in 1986, as '
            '<a href="archive/1926.html">the report of its centenary</a> had feared it would, when the '
            'river was dammed upstream and the last miller retired to the coast with his family.</p>')
    html = _page('<base href="https://mill.example/">', body)
    expected = ["https://mill.example/img/wheel.jpg", "https://mill.example/archive/1926.html"]
    assert _addresses(extract(html, url=URL).html) == expected
    # the live page: the extension sends <base> with the head, its href as written
    snapshot = page_to_snapshot(parse_html(html, url=URL))
    assert _addresses(extract_page(parse_snapshot(snapshot)).html) == expected
    # without a base, the page's own address
    plain = _page("", body)
    assert _addresses(extract(plain, url=URL).html) == ["https://mill.example/news/2026/img/wheel.jpg",
                                                         "https://mill.example/news/2026/archive/1926.html"]


def test_a_real_page_whose_base_is_the_site_root(datasets_dir):
    """wcxb_dev/4611 (recyclebycity.com, a guide under /chicago/notebook/) names the site's root
    as its base and links to "chicago/guide": the reader's links led to
    /chicago/notebook/chicago/guide, an address the site does not have."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    ds = load_dataset(datasets_dir / "wcxb_dev")
    links = re.findall(r'<a[^>]* href="([^"]+)"', extract(read_page(ds, "4611"), ds.record("4611").url).html)
    assert "https://www.recyclebycity.com/chicago/guide" in links
    assert not [link for link in links if "/notebook/chicago/" in link]


def test_the_next_page_of_an_article_is_found_against_the_base():
    """A pager whose links are written for the base (``2026/reopening.html?page=2`` under
    ``<base href="/news/">``) names this article's second page, not /news/2026/2026/..."""
    from pagesieve.extract import judge_page, next_page

    paragraphs = "".join(f"<p>{i}. {STORY[3:-4]}</p>" for i in range(8))
    pager = '<nav class="pagination"><a href="2026/reopening.html?page=2">2</a> <a href="2026/reopening.html?page=2">Next</a></nav>'
    html = _page('<base href="/news/">', paragraphs + pager)
    analysis, keep = judge_page(parse_html(html, url=URL))
    assert analysis.base_url == "https://mill.example/news/"
    assert next_page(analysis, keep, seen=[URL]).url == URL + "?page=2"


def test_a_relative_lead_image_is_resolved_against_the_base():
    html = _page('<base href="https://cdn.example/mill/"><meta property="og:image" content="img/lead.jpg">', STORY)
    assert extract(html, url=URL).metadata.lead_image == "https://cdn.example/mill/img/lead.jpg"
    html = _page('<base href="https://cdn.example/mill/"><meta property="og:image" content="https://mill.example/lead.jpg">', STORY)
    assert extract(html, url=URL).metadata.lead_image == "https://mill.example/lead.jpg"
