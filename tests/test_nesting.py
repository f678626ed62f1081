"""Links around blocks in the article's HTML (issue 62, "look, not only count";
host/pagesieve/article/nesting.py): a teaser card written as one link around a heading and a
paragraph comes out as a heading with its link and a paragraph with its link, with no empty
paragraphs or links beside them, and its Markdown heading is a heading."""

from __future__ import annotations

import re

from lxml import etree, html as lxml_html

from pagesieve.article.markdown import html_to_markdown
from pagesieve.article.nesting import block_holders, holds_block, push_links_into_blocks
from pagesieve.article.render import finish_html
from pagesieve.extract import extract

from conftest import shared_dataset


def _body(markup: str) -> etree._Element:
    return lxml_html.fromstring(f"<html><body>{markup}</body></html>").find("body")


def _inner(body: etree._Element) -> str:
    return (body.text or "") + "".join(etree.tostring(c, encoding="unicode") for c in body)


def test_a_link_around_a_heading_and_a_line_goes_inside_each():
    body = _body('<div><a href="/x" class="card" id="c1"><h4>Title</h4><p>Line <b>bold</b></p></a>after</div>')
    assert push_links_into_blocks(body) == 1
    assert _inner(body) == ('<div><h4><a href="/x" id="c1">Title</a></h4>'
                            '<p><a href="/x">Line <b>bold</b></a></p>after</div>')


def test_a_block_with_a_link_of_its_own_keeps_it_and_loose_text_stays():
    body = _body('<a href="/x">lead <h3>Head</h3><p>See <a href="/y">y</a></p> end</a>')
    push_links_into_blocks(body)
    assert _inner(body) == 'lead <h3><a href="/x">Head</a></h3><p>See <a href="/y">y</a></p> end'


def test_a_link_with_no_block_is_left_alone():
    body = _body('<p>Read <a href="/x">this <b>now</b></a>.</p>')
    assert push_links_into_blocks(body) == 0
    assert _inner(body) == '<p>Read <a href="/x">this <b>now</b></a>.</p>'
    holders = block_holders(body)
    assert holds_block(body.find("p"), holders) and not holds_block(body.find(".//a"), holders)
    strong = _body("<strong><hr></strong>").find("strong")
    assert holds_block(strong, block_holders(strong.getparent()))


def test_an_inline_element_around_blocks_has_its_text_runs_wrapped_as_a_container_s():
    """A rich-text editor's ``<span>`` around a whole article (wcxb_dev/0072, HubSpot): its
    loose text becomes paragraphs around the heading, as a ``<div>``'s would."""
    body = _body('<div><span class="rich">Lead line <a href="/p">link</a><br><h2>Head</h2>Body text.</span></div>')
    span = body.find(".//span")
    assert holds_block(span, block_holders(body)) and not holds_block(span[0], block_holders(body))
    assert finish_html(body, None) == '<div><p>Lead line <a href="/p" rel="noopener noreferrer">link</a><br></p><h2>Head</h2><p>Body text.</p></div>'


def test_the_reader_shows_a_teaser_grid_s_headings_with_their_links(datasets_dir):
    """wcxb_dev/0203 (interiordesign.net's Best of Year winners): each winner is a card whose
    title is ``<a href><h4>...</h4></a>``. The container wrapper put the link in a ``<p>``,
    which the sanitiser's HTML5 parser split: the reader's HTML held 346 ``<p><a
    href=...></a></p>`` and 346 empty ``<p></p>``, and had the link been kept whole, the
    Markdown would have read ``[#### Boa Viagem Apartment](...)``."""
    from pagesieve_dev.evaluation.datasets import read_page

    ds = shared_dataset(datasets_dir, "wcxb_dev")
    article = extract(read_page(ds, "0203"), ds.record("0203").url)
    link = "https://interiordesign.net/awards/best-of-year/2025/architects-office-apartment/"
    assert re.search(r'<h4><a href="%s"[^>]*>Boa Viagem Apartment</a></h4>' % re.escape(link), article.html)
    assert not re.search(r"<p>\s*<a [^>]*>\s*</a>\s*</p>", article.html)
    assert "<p></p>" not in article.html
    markdown = html_to_markdown(article.html)
    assert f"#### [Boa Viagem Apartment]({link})" in markdown
    assert "[####" not in markdown
    assert "Boa Viagem Apartment" in article.text
