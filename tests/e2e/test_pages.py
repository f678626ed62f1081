"""Articles over several pages in the reader view, in Chromium (issue 53): the extension follows
the article's pages, the host cleans each, and the reader shows them all under one header. Our
own fixtures (tests/pagination_fixtures.py), served on 127.0.0.1."""

from __future__ import annotations

import pytest
from pagination_fixtures import STANDFIRST, Server

from pagesieve.library.catalog import Library

SHOWN = """() => {
    const root = document.querySelector('pagesieve-reader');
    const article = root && root.shadowRoot.querySelector('article');
    if (!article) return null;
    const text = [...article.querySelectorAll('.content')].map((c) => c.innerText).join('\\n');
    return {
        stopped: article.dataset.stopped || null, pages: article.dataset.pages || null,
        headings: [...article.querySelectorAll('h1')].map((h) => h.textContent),
        meta: article.querySelector('.meta').textContent,
        marks: [...article.querySelectorAll('.page-mark')].map((m) => m.textContent),
        failed: [...article.querySelectorAll('[data-failed]')].map((n) => n.textContent),
        paragraphs: [...text.matchAll(/Paragraph (\\d+) of/g)].map((m) => Number(m[1])),
        standfirsts: text.split(%r).length - 1,
        pager: /Previous|Weiter|Zurück/.test(text),
    };
}""" % STANDFIRST

DONE = "() => { const a = document.querySelector('pagesieve-reader')?.shadowRoot.querySelector('article'); return a && a.dataset.stopped; }"


@pytest.fixture(scope="module")
def fixtures():
    with Server() as server:
        yield server


def reader_of(context, run_mode, url: str) -> tuple[object, dict]:
    page = context.new_page()
    page.goto(url)
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)  # the content script runs at document_idle
    answer = run_mode(page, "reader")
    assert answer["ok"], answer
    page.wait_for_function(DONE, timeout=60000)
    return page, page.evaluate(SHOWN)


@pytest.mark.parametrize("path", ["/storm-series", "/features/lantern-keepers/"])
def test_the_reader_shows_all_three_pages_in_order_once_under_one_headline(chromium_context, run_mode, fixtures, path,
                                                                            artifacts):
    fixtures.requests.clear()
    page, shown = reader_of(chromium_context, run_mode, fixtures.base + path)
    assert shown["stopped"] == "last-page" and shown["pages"] == "3", shown
    assert shown["paragraphs"] == list(range(1, 19)), shown
    assert len(shown["headings"]) == 1 and not shown["pager"], shown
    assert shown["marks"] == ["Page 2", "Page 3"] and shown["meta"].endswith("3 pages"), shown
    if path == "/storm-series":
        assert shown["standfirsts"] == 1, shown  # repeated on every page, shown once
        assert sorted(fixtures.requests[1:]) == ["/storm-series?page=2", "/storm-series?page=3"]  # each page once
        page.screenshot(path=str(artifacts / "chromium-pages-top.png"), caret="initial", animations="allow")
        page.evaluate("""() => document.querySelector('pagesieve-reader').shadowRoot
            .querySelector('.page-mark[data-page="2"]').scrollIntoView({block: 'center'})""")
        page.screenshot(path=str(artifacts / "chromium-pages-mark.png"), caret="initial", animations="allow")
        page.evaluate("() => { const p = document.querySelector('pagesieve-reader').shadowRoot.querySelector('.page'); p.scrollTop = p.scrollHeight; }")
        page.screenshot(path=str(artifacts / "chromium-pages-end.png"), caret="initial", animations="allow")
    page.close()


@pytest.mark.parametrize("path", ["/news/harbour-master-retires", "/pier-memories", "/tides/"])
def test_a_next_article_paged_comments_and_a_loop_leave_the_page_alone(chromium_context, run_mode, fixtures, path):
    page, shown = reader_of(chromium_context, run_mode, fixtures.base + path)
    assert shown["pages"] == "1" and shown["marks"] == [] and shown["paragraphs"] == list(range(1, 7)), shown
    assert "pages" not in shown["meta"], shown
    page.close()


def test_a_single_page_version_is_read_instead_of_the_pages(chromium_context, run_mode, fixtures):
    fixtures.requests.clear()
    page, shown = reader_of(chromium_context, run_mode, fixtures.base + "/salt/")
    assert shown["stopped"] == "single-page-version" and shown["marks"] == [], shown
    assert shown["paragraphs"] == list(range(1, 13)) and not shown["pager"], shown
    assert "/salt/2/" not in fixtures.requests and "/salt/?view=all" in fixtures.requests, fixtures.requests
    page.close()


def test_a_page_that_fails_is_named_and_the_pages_before_it_still_show(chromium_context, run_mode, fixtures):
    fixtures.fail.add("/storm-series?page=3")
    try:
        page, shown = reader_of(chromium_context, run_mode, fixtures.base + "/storm-series")
    finally:
        fixtures.fail.clear()
    assert shown["stopped"] == "failed" and shown["paragraphs"] == list(range(1, 13)), shown
    assert shown["failed"] == ["Page 3 could not be read (the server answered 503)."], shown
    page.close()


def test_save_in_the_reader_keeps_the_whole_article(chromium_context, run_mode, fixtures):
    page, shown = reader_of(chromium_context, run_mode, fixtures.base + "/storm-series")
    assert shown["pages"] == "3"
    page.get_by_role("button", name="save the article to your library").click()
    toast = "() => { const ui = [...document.querySelectorAll('pagesieve-ui')].pop(); const t = ui && ui.shadowRoot.querySelector('.toast'); return t && t.textContent; }"
    page.wait_for_function(f"({toast})()", timeout=15000)
    with Library(chromium_context.pagesieve_library) as library:
        entry = library.find(page.url)
        assert entry is not None
        markdown = entry.md_path.read_text(encoding="utf-8")
        library.delete(entry.id, system_trash=False)  # the library as it was, for the other tests
    assert [n for n in range(1, 19) if f"Paragraph {n} of" in markdown] == list(range(1, 19))
    assert markdown.count(STANDFIRST) == 1
    page.close()


def test_the_reader_shows_all_three_pages_in_firefox(server, serve_page, fixtures, tmp_path, artifacts):
    """The same article over three pages (``?page=N`` and ``rel=next``, then ``/2/`` paths and a
    German pager) in Firefox ESR, driven over WebDriver BiDi (tests/e2e/firefox/drive.mjs,
    PLAN.pages): the extension's fetch there is the page's own (``content.fetch``)."""
    from .test_firefox import drive_firefox

    answer = drive_firefox(server, serve_page, tmp_path, artifacts, pages={
        "urls": [fixtures.base + "/storm-series", fixtures.base + "/features/lantern-keepers/"], "js": SHOWN,
        "shots": "firefox-pages"})
    for r in answer["pages_followed"]:
        shown = r["shown"]
        assert r["answer"]["ok"], r
        assert shown["stopped"] == "last-page" and shown["pages"] == "3", r
        assert shown["paragraphs"] == list(range(1, 19)) and len(shown["headings"]) == 1 and not shown["pager"], r
        assert shown["marks"] == ["Page 2", "Page 3"] and shown["meta"].endswith("3 pages"), r
    assert (artifacts / "firefox-pages-mark.png").is_file()
