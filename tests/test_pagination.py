"""Articles over several pages (issue 53): the next page found by address and place, the traps
not followed (each with its rule), the pages joined, and ``pagesieve extract URL --all-pages``
against our own fixtures served on 127.0.0.1 (tests/pagination_fixtures.py)."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile

import pytest

from pagesieve.article.pagination import page_step
from pagesieve.fetch import FetchError, fetch_page
from pagesieve.multipage import read_pages

from pagination_fixtures import STANDFIRST, Server, paragraph  # tests/ is on sys.path (pytest rootdir-relative imports)


@pytest.fixture(scope="module")
def site():
    with Server() as server:
        yield server


def _fetch(url):
    fetched = fetch_page(url)
    return fetched.body, fetched.final_url


def _read(site, path):
    body, final = _fetch(site.base + path)
    return read_pages(body, final, _fetch)


def _paragraphs(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.startswith("Paragraph ")]


def test_page_steps_by_address():
    base = "https://news.example"
    assert page_step(f"{base}/story", f"{base}/story?page=2") == {"pattern": "?page=", "from": 1, "to": 2}
    assert page_step(f"{base}/story?id=7&pg=2", f"{base}/story?id=7&pg=3")["to"] == 3  # any name, one higher
    assert page_step(f"{base}/2024/05/story/", f"{base}/2024/05/story/2/")["pattern"] == "segment"
    assert page_step(f"{base}/story/page/2", f"{base}/story/page/3")["to"] == 3
    assert page_step(f"{base}/story.html", f"{base}/story-2.html")["pattern"] == "suffix"
    # not a next page: another story, another number, another host, a page back, an id one higher
    assert page_step(f"{base}/story", f"{base}/other?page=2") is None
    assert page_step(f"{base}/story?page=2", f"{base}/story?page=4") is None
    assert page_step(f"{base}/story", "https://other.example/story?page=2") is None
    assert page_step(f"{base}/story?page=3", f"{base}/story?page=2") is None
    assert page_step(f"{base}/story?id=124", f"{base}/story?id=125") is not None  # a number one higher, by address alone
    assert page_step(f"{base}/story", f"{base}/story?id=2") is None  # not a page parameter where this page has none


def test_three_pages_by_query_and_rel_next_are_read_in_order_each_once(site):
    read = _read(site, "/storm-series")
    article = read.article
    assert [p.removeprefix(site.base) for p in article.pages] == ["/storm-series", "/storm-series?page=2", "/storm-series?page=3"]
    assert _paragraphs(article.text) == [paragraph("the ferry story", k) for k in range(18)]
    assert article.text.count("The ferry service from the old harbour ends") == 1  # the standfirst of every page, once
    assert article.header[0] == "The last ferry of the old harbour"
    assert "Previous" not in article.text and "Next" not in article.text  # no pager
    assert article.html.count("Page 2 of 3") == 1 and article.html.count("Page 3 of 3") == 1  # a quiet page mark each
    assert article.html.count("The ferry service from the old harbour ends") == 1
    assert [d["rule"] for d in read.decisions] == ["rel-next", "rel-next", "no-next-page"] and read.stopped == "last-page"


def test_three_pages_by_path_with_a_german_pager_and_no_rel_next(site):
    read = _read(site, "/features/lantern-keepers/")
    assert len(read.article.pages) == 3
    assert _paragraphs(read.article.text) == [paragraph("the lantern story", k) for k in range(18)]
    assert [d["rule"] for d in read.decisions] == ["pager", "pager", "no-next-page"]
    assert "Weiter" not in read.article.text and "Seite" not in read.article.text


@pytest.mark.parametrize("path, rule, page_rule", [
    ("/news/harbour-master-retires", "another-address", "no-next-page"),  # the next article (link and rel=next)
    ("/pier-memories", "comments", "no-next-page"),  # older comments
    ("/blog/", "listing", "listing"),  # a listing's older posts
    ("/gallery/boats/1", "gallery", "too-little-text"),  # a gallery's next slide
])
def test_traps_are_not_followed_and_say_why(site, path, rule, page_rule):
    asked = len(site.requests)
    read = _read(site, path)
    assert read.article.pages == [] and len(read.decisions) == 1
    decision = read.decisions[0]
    assert decision["url"] is None and decision["rule"] == page_rule
    assert rule in {n["rule"] for n in decision["not_followed"]}
    assert len(site.requests) == asked + 1  # nothing but the page itself was fetched


def test_a_page_already_read_ends_the_article(site):
    read = _read(site, "/tides/")  # its next page redirects back to it
    assert read.stopped == "loop" and read.article.pages == []
    assert _paragraphs(read.article.text) == [paragraph("the tide story", k) for k in range(6)]
    assert read.decisions[-1]["rule"] == "seen"


def test_a_single_page_version_is_read_instead_of_the_pages(site):
    read = _read(site, "/salt/")
    assert read.stopped == "single-page-version" and read.article.pages == [site.base + "/salt/?view=all"]
    assert _paragraphs(read.article.text) == [paragraph("the salt story", k) for k in range(12)]


def test_a_page_that_fails_is_named_and_the_pages_before_it_stay(site):
    site.fail.add("/storm-series?page=3")
    try:
        read = _read(site, "/storm-series")
    finally:
        site.fail.discard("/storm-series?page=3")
    assert read.stopped == "failed" and len(read.article.pages) == 2
    assert _paragraphs(read.article.text) == [paragraph("the ferry story", k) for k in range(12)]
    assert any("storm-series?page=3 could not be read" in w and "503" in w for w in read.article.warnings)


def test_extract_url_all_pages_on_the_command_line(site, tmp_path):
    env_run = [sys.executable, "-m", "pagesieve", "extract"]
    whole = subprocess.run([*env_run, site.base + "/storm-series", "--all-pages", "--format", "json"],
                           capture_output=True, text=True, timeout=300)
    assert whole.returncode == 0, whole.stderr
    data = json.loads(whole.stdout)
    assert len(data["pages"]) == 3 and len(_paragraphs(data["text"])) == 18 and data["stopped"] == "last-page"
    assert [d["rule"] for d in data["pages_read"]] == ["rel-next", "rel-next", "no-next-page"]
    assert "page 2: " in whole.stderr and "3 page(s) read" in whole.stderr
    one = subprocess.run([*env_run, site.base + "/storm-series"], capture_output=True, text=True, timeout=300)
    assert one.returncode == 0 and len(_paragraphs(one.stdout)) == 6  # without --all-pages: the page alone
    site.fail.add("/storm-series?page=2")
    try:
        broken = subprocess.run([*env_run, site.base + "/storm-series", "--all-pages"], capture_output=True, text=True, timeout=300)
    finally:
        site.fail.discard("/storm-series?page=2")
    assert broken.returncode == 0 and len(_paragraphs(broken.stdout)) == 6
    assert "could not be read" in broken.stderr and "storm-series?page=2" in broken.stderr and "failed" in broken.stderr
    # a file with --all-pages needs the page's address
    page = tmp_path / "p.html"
    page.write_bytes(_fetch(site.base + "/storm-series")[0])
    no_url = subprocess.run([*env_run, str(page), "--all-pages"], capture_output=True, text=True, timeout=300)
    assert no_url.returncode == 2 and "--all-pages" in no_url.stderr


def test_fetch_errors_are_clear(site):
    with pytest.raises(FetchError, match="connection refused|cannot be reached"):
        fetch_page("http://127.0.0.1:9/nothing")
    with pytest.raises(FetchError, match="404"):
        fetch_page(site.base + "/no-such-page")
    with pytest.raises(FetchError, match="only http and https"):
        fetch_page("ftp://127.0.0.1/x")
    with pytest.raises(FetchError, match="too large"):
        fetch_page(site.base + "/storm-series", max_bytes=1000)


def test_save_all_pages_keeps_the_whole_article_in_every_format_and_the_index(site, tmp_path):
    from pagesieve.cli import main
    from pagesieve.library.catalog import Library
    from pagesieve.library.export import export_entry

    folder = tmp_path / "library"
    assert main(["save", site.base + "/storm-series", "--all-pages", "--dir", str(folder)]) == 0
    with Library(folder) as library:
        entry = library.find(site.base + "/storm-series")
        assert entry is not None and entry.title == "The last ferry of the old harbour"
        hits = library.search("eighteen 18")  # words of the last paragraph, on page 3 only
        assert [h.entry.id for h in hits] == [entry.id]
        markdown = entry.md_path.read_text(encoding="utf-8")
        html = entry.html_path.read_text(encoding="utf-8")
        epub = export_entry(entry, "epub", tmp_path)
    with zipfile.ZipFile(epub) as book:
        chapters = " ".join(book.read(n).decode("utf-8") for n in book.namelist() if n.endswith((".xhtml", ".html")))
    for text in (markdown, html, chapters):
        assert [k for k in range(1, 19) if f"Paragraph {k} of the ferry story" in text] == list(range(1, 19))
        assert text.count(STANDFIRST) == 1
    # without --all-pages, the page alone
    alone = tmp_path / "alone"
    assert main(["save", site.base + "/storm-series", "--dir", str(alone)]) == 0
    with Library(alone) as library:
        markdown = library.find(site.base + "/storm-series").md_path.read_text(encoding="utf-8")
    assert "Paragraph 6 of" in markdown and "Paragraph 7 of" not in markdown


def test_listing_and_collection_pages_of_wcxb_are_not_read_on(datasets_dir):
    """A listing's next page is its next items, not an article's next page: wcxb_dev's category
    and topic pages with rel=next or a pager (ikea.com, ifixit.com, ciodive.com; their index
    ``page_type`` is collection or listing) are read as one page, for the reason "listing"."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page
    from pagesieve.extract import judge_page, next_page
    from pagesieve.page.html import parse_html

    ds = load_dataset(datasets_dir / "wcxb_dev")
    for page_id in ("0647", "0651", "0956"):
        record = ds.record(page_id)
        assert record.row.get("page_type") in ("collection", "listing")
        analysis, keep = judge_page(parse_html(read_page(ds, page_id), url=record.url))
        decision = next_page(analysis, keep, seen=[record.url])
        assert decision.url is None and decision.rule == "listing", (page_id, decision.to_json())
