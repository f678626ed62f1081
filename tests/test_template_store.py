"""Template store (SQLite): learning, persistence, privacy, bounds, concurrency, crash safety;
URL similarity (seed 004 §2.2 d); the layout diff and the evidence it gives."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3

import pytest

from pagesieve.blocks.segment import segment
from pagesieve.corrections.store import LabelStore
from pagesieve.errors import TemplateStoreError
from pagesieve.extract import extract_page, judge_page
from pagesieve.page.html import parse_html
from pagesieve.page.preprocess import preprocess
from pagesieve.templates import store as store_module
from pagesieve.templates.diff import block_fingerprints, identical_blocks, pack_fingerprints, unpack_fingerprints
from pagesieve.templates.evidence import CONFIDENT_CONTENT, apply_evidence, page_evidence
from pagesieve.templates.learn import summarise
from pagesieve.templates.store import SCHEMA_VERSION, TemplateStore
from pagesieve.templates.urls import site_of, url_similarity

NAV = "".join(f'<li><a href="/{k}">{k}</a></li>' for k in ("World", "Business", "Sport", "Culture", "Weather", "Letters"))
STORIES = [
    "Rain fell on the harbour all night and the ferries stayed in port until the wind dropped.",
    "The council voted to close the old bridge to lorries after engineers found cracks in it.",
    "A new bakery opened on Mill Street, and by nine the queue reached the corner shop.",
    "Tickets for the summer festival sold out in an hour, a record for the small town.",
    "The river rose two metres by noon, and volunteers filled sandbags along the quay.",
    "Schools reopen on Monday after the long strike ended with a pay deal on Friday night.",
    "A lost dog walked home forty miles across the moor, its owners said with some surprise.",
    "The mayor resigned over the budget after a stormy meeting that ran past midnight.",
    "Farmers expect a record apple harvest after a warm spring and a wet, mild summer.",
    "The old cinema will become a library, with a reading room where the screen once was.",
    "Fishermen landed the largest catch of herring in a decade on the north pier today.",
]


ABOUT = ("Harbour News is written every weekday by the reporters of the Quay Road Press, who cover "
         "the whole coast, from the north pier to the lighthouse, and answer every letter.")


def site_page(n: int, story: str | None = None) -> str:
    story = story or STORIES[n % len(STORIES)]
    return (
        f'<html><head><title>Story {n} - Harbour News</title></head><body>'
        f'<div id="top"><ul class="nav">{NAV}</ul></div>'
        f'<div class="story"><h1>Story {n}</h1><p>{story} {story}</p><p>{story}</p><p>{ABOUT}</p></div>'
        f'<div class="foot"><p>Harbour News, 1 Quay Road. All rights reserved.</p>'
        f'<p>Follow us on the radio every morning at seven.</p></div></body></html>'
    )


def learn_pages(store: TemplateStore, pages: range, site: str = "harbour.example") -> None:
    for n in pages:
        assert store.learn(summarise(parse_html(site_page(n), url=f"https://{site}/news/{n}")))


@pytest.fixture
def store(tmp_path):
    with TemplateStore(tmp_path / "t.sqlite3") as s:
        yield s


def test_sites_and_url_similarity():
    assert site_of("https://www.Example.com/a") == "example.com"
    assert site_of("file:///tmp/x.html") is None and site_of(None) is None
    # seed 004 (d): equal leading segments over the larger number of segments
    assert url_similarity("https://a.com/news/2024/x", "https://a.com/news/2024/y") == pytest.approx(2 / 3)
    assert url_similarity("https://a.com/news/x", "https://a.com/sport/x") == 0.0
    assert url_similarity("https://a.com/view?id=1&s=2", "https://a.com/view?id=3&s=2") == 0.5
    assert url_similarity("https://a.com/x", "https://b.com/x") == 0.0
    assert url_similarity("https://a.com/x", "http://a.com/x") == 0.0


def test_batch_of_ten_pages_persists_common_leaves_only(store, tmp_path):
    learn_pages(store, range(9))
    [info] = store.sites()
    assert (info.pages, info.entries, info.references) == (9, 0, store_module.MAX_REFERENCES)
    learn_pages(store, range(9, 10))
    [info] = store.sites()
    assert info.entries > 0 and info.batch_leaves == 0
    # persisted: a new process (a new connection) sees the same library
    with TemplateStore(tmp_path / "t.sqlite3") as again:
        library = again.templates_for("harbour.example", "https://harbour.example/news/99").library
    entries = {text for _tag, text in library.entries}
    assert "Culture" in entries and "Harbour News, 1 Quay Road. All rights reserved." in entries
    assert not any(s[:20] in text for s in STORIES for text in entries)
    # no story text is left in the file once the batch has closed (privacy)
    with sqlite3.connect(tmp_path / "t.sqlite3") as db:
        texts = [t for (t,) in db.execute("SELECT text FROM leaves")]
    assert texts and not any(s[:30] in t for s in STORIES for t in texts)


def test_evidence_names_site_boilerplate_on_a_new_page_but_does_not_overrule_a_confident_classifier(store):
    learn_pages(store, range(10))
    url = "https://harbour.example/news/10"
    templates = store.templates_for("harbour.example", url)
    assert templates.reference_url is not None and templates.reference_url != url
    baseline = extract_page(parse_html(site_page(10), url=url))
    assert ABOUT in baseline.text  # the classifier alone takes the site's blurb for content
    analysis, keep = judge_page(parse_html(site_page(10), url=url), templates=templates)
    [about] = [b.index for b in analysis.blocks if b.text == ABOUT]
    evidence = page_evidence(analysis.blocks, templates)
    assert evidence.template_share[about] == 1.0  # the site's template names it
    # the classifier is as sure of it as of the story: the template does not overrule it
    assert analysis.content_scores[about] >= CONFIDENT_CONTENT and keep[about]
    assert STORIES[10][:40] in extract_page(parse_html(site_page(10), url=url), templates=templates).text
    unguarded = list(keep)  # without the classifier's scores (a model with no context stage) it goes
    assert apply_evidence(analysis.blocks, unguarded, evidence) == 1 and not unguarded[about]


def test_a_repeated_line_with_a_link_in_it_is_learned_as_template(store):
    # seed 000's leaves never hold it (it has a child element), so its block's own text is counted
    notice = ('<p>&copy; 2005 The Harbour Press. All rights reserved. This material may not be '
              'published or redistributed. Read our <a href="/privacy">Privacy Policy</a>.</p>')
    byline = '<p>By <a href="/staff/{n}">Reporter {n}</a> on May {n}, 2012</p>'  # short: not counted

    def page_html(n):
        story = STORIES[n % len(STORIES)]
        return (f'<html><head><title>Story {n} - Harbour News</title></head><body><div class="story">'
                f'<h1>Story {n}</h1>{byline.format(n=n)}<p>{story} {story}</p><p>{story}</p>{notice}</div></body></html>')

    for n in range(3):
        assert store.learn(summarise(parse_html(page_html(n), url=f"https://harbour.example/news/{n}")))
    url = "https://harbour.example/news/3"
    page = parse_html(page_html(3), url=url)
    preprocess(page)
    blocks = segment(page.root)
    evidence = page_evidence(blocks, store.templates_for("harbour.example", url))
    share = {b.text[:20]: evidence.template_share[b.index] for b in blocks if b.chars}
    assert share["© 2005 The Harbour P"] == 1.0
    assert share["By Reporter 3 on May"] < 0.99
    assert share[STORIES[3][:20]] == 0.0
    keep = [True] * len(blocks)  # whatever the classifier made of it, the library removes the notice alone
    assert apply_evidence(blocks, keep, evidence) >= 1
    kept = " ".join(b.text for b in blocks if keep[b.index])
    assert "All rights reserved" not in kept and STORIES[3][:40] in kept and "Reporter 3" in kept
    article = extract_page(parse_html(page_html(3), url=url), templates=store.templates_for("harbour.example", url))
    assert "All rights reserved" not in article.text
    assert STORIES[3][:40] in article.text


def test_identical_blocks_and_duplicate_guard():
    def blocks_of(html):
        page = parse_html(html)
        preprocess(page)
        return segment(page.root)

    a, b = blocks_of(site_page(1)), blocks_of(site_page(2))
    ref = unpack_fingerprints(pack_fingerprints(block_fingerprints(a)))
    same = identical_blocks(block_fingerprints(b), ref)
    text_of = {blk.index: blk.text for blk in b}
    assert any(same[i] for i, t in text_of.items() if t.startswith("Harbour News"))
    assert not any(same[i] for i, t in text_of.items() if STORIES[2][:20] in t)
    # the same article under another URL: the diff must not erase it
    again = blocks_of(site_page(1))
    keep = [blk.chars > 0 for blk in again]
    templates = store_module.SiteTemplates("x", store_module.TemplateLibrary(), "u", ref, 1)
    assert apply_evidence(again, keep, page_evidence(again, templates), ["diff"]) == 0


def test_private_pages_and_pages_without_site_are_not_learned(store):
    summary = summarise(parse_html(site_page(1), url="https://harbour.example/news/1"))
    assert store.learn(summary, private=True) is False
    assert store.learn(summarise(parse_html(site_page(1)))) is False
    assert store.sites() == []


def test_forget_one_site_and_all(store):
    learn_pages(store, range(3))
    learn_pages(store, range(3), site="other.example")
    assert {s.site for s in store.sites()} == {"harbour.example", "other.example"}
    assert store.forget("harbour.example") and not store.forget("harbour.example")
    assert [s.site for s in store.sites()] == ["other.example"]
    assert store.templates_for("harbour.example", None) is None
    assert store.forget_all() == 1 and store.sites() == []


def test_total_size_cap_evicts_least_recently_used(tmp_path, monkeypatch):
    with TemplateStore(tmp_path / "t.sqlite3") as store:
        learn_pages(store, range(2), site="old.example")
        learn_pages(store, range(2), site="new.example")
        size = sum(s.bytes for s in store.sites())
        monkeypatch.setattr(store_module, "MAX_TOTAL_BYTES", size - 1)
        learn_pages(store, range(2, 3), site="new.example")
        assert [s.site for s in store.sites()] == ["new.example"]


def test_newer_schema_is_refused_and_old_file_migrates(tmp_path):
    path = tmp_path / "t.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(TemplateStoreError, match="schema version"):
        TemplateStore(path)
    fresh = tmp_path / "fresh.sqlite3"
    sqlite3.connect(fresh).close()  # an empty file: version 0
    with TemplateStore(fresh) as store:
        assert store.schema_version == SCHEMA_VERSION


def test_a_failed_write_leaves_the_store_as_it_was(store, monkeypatch):
    learn_pages(store, range(2))
    before = store.sites()

    def boom(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(store_module.TemplateStore, "_site_bytes", staticmethod(boom))
    with pytest.raises(RuntimeError):
        learn_pages(store, range(2, 3))
    monkeypatch.undo()
    assert store.sites() == before
    learn_pages(store, range(2, 3))  # and the store goes on working
    assert store.sites()[0].pages == 3


def _learn_in_process(path: str, first: int, count: int, kill_mid_write: bool) -> None:
    store = TemplateStore(path)
    if kill_mid_write:
        original = TemplateStore._site_bytes

        def die(db, site):
            original(db, site)
            os._exit(3)  # the process dies inside the write transaction

        TemplateStore._site_bytes = staticmethod(die)
    learn_pages(store, range(first, first + count))


def test_two_processes_write_at_once(tmp_path):
    path = str(tmp_path / "t.sqlite3")
    TemplateStore(path).close()
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_learn_in_process, args=(path, k * 12, 12, False)) for k in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    with TemplateStore(path) as store:
        [info] = store.sites()
        assert info.pages == 24 and info.entries > 0


@pytest.mark.parametrize("store_class", [TemplateStore, LabelStore], ids=["templates", "labels"])
def test_opening_waits_for_another_process_switching_a_new_file(tmp_path, store_class, held_write_lock):
    # Both SQLite stores open through sqlite_schema.open_database. A new file still in
    # rollback mode whose write lock another connection holds: SQLite refuses the switch to
    # WAL at once (no busy handler), so opening must wait for the lock, not fail.
    import time

    path = tmp_path / "store.sqlite3"
    held_write_lock(path, 0.3)
    started = time.monotonic()
    store_class(path).close()
    assert time.monotonic() - started >= 0.25
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_process_killed_mid_write_loses_only_that_page(tmp_path):
    path = str(tmp_path / "t.sqlite3")
    with TemplateStore(path) as store:
        learn_pages(store, range(3))
    ctx = multiprocessing.get_context("spawn")
    p = ctx.Process(target=_learn_in_process, args=(path, 3, 1, True))
    p.start()
    p.join(60)
    assert p.exitcode == 3
    with TemplateStore(path) as store:
        assert store._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert store.sites()[0].pages == 3
        learn_pages(store, range(3, 4))
        assert store.sites()[0].pages == 4


def test_learn_sites_forget_commands(tmp_path, capsys):
    from pagesieve.cli import main

    store = str(tmp_path / "t.sqlite3")
    for n in range(3):
        page = tmp_path / f"p{n}.html"
        page.write_text(site_page(n), encoding="utf-8")
        assert main(["learn", str(page), "--url", f"https://harbour.example/news/{n}", "--store", store]) == 0
    assert main(["sites", "--store", store, "--json"]) == 0
    out = capsys.readouterr().out
    assert '"site": "harbour.example"' in out and '"pages": 3' in out
    page = tmp_path / "p9.html"
    page.write_text(site_page(9), encoding="utf-8")
    assert main(["extract", str(page), "--url", "https://harbour.example/news/9", "--site-templates", "--store", store]) == 0
    assert STORIES[9][:30] in capsys.readouterr().out
    assert main(["learn", str(page), "--url", "file:///x.html", "--store", store]) == 3  # no site
    assert main(["forget", "harbour.example", "--store", store]) == 0
    assert main(["sites", "--store", store]) == 0
    assert "nothing learned yet" in capsys.readouterr().out


def test_a_page_seen_again_is_not_learned_again(store):
    from pagesieve.templates.urls import url_key

    url = "https://harbour.example/news/1?utm_source=x#top"
    assert store.learn(summarise(parse_html(site_page(1), url=url)))
    for again in (url, "https://harbour.example/news/1", "https://Harbour.example/news/1?fbclid=9"):
        assert store.learn(summarise(parse_html(site_page(1), url=again))) is False
    assert store.sites()[0].pages == 1
    assert url_key("https://a.example/x?id=1") != url_key("https://a.example/x?id=2")
    # reloading one article many times never makes it the site's template
    url2 = "https://harbour.example/news/2"
    for _ in range(12):
        store.learn(summarise(parse_html(site_page(2), url=url2)))
    templates = store.templates_for("harbour.example", "https://harbour.example/news/3")
    assert not templates.library.is_template("p", f"{STORIES[2]} {STORIES[2]}")


def test_version_1_store_is_migrated(tmp_path):
    from pagesieve.templates.store import MIGRATIONS

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0])
    db.execute("PRAGMA user_version = 1")
    db.execute("INSERT INTO sites (site, pages, last_used) VALUES ('old.example', 4, 0)")
    db.commit()
    db.close()
    with TemplateStore(path) as store:
        assert store.schema_version == SCHEMA_VERSION == 4
        assert store.sites()[0].pages == 4  # kept
        assert store.learn(summarise(parse_html(site_page(1), url="https://old.example/a")))


def test_evidence_is_computed_for_the_kinds_asked_only(store):
    """A page judged with the library alone (the default) does not pay for the layout diff's
    fingerprints; asked for, the diff still finds the site's navigation in the reference page."""
    learn_pages(store, range(3))
    url = "https://harbour.example/news/3"
    page = parse_html(site_page(3), url=url)
    preprocess(page)
    blocks = segment(page.root)
    templates = store.templates_for("harbour.example", url)
    assert len(templates.reference)
    nav = next(b.index for b in blocks if b.text.startswith("Harbour News"))
    both = page_evidence(blocks, templates, ("library", "diff"))
    library_only = page_evidence(blocks, templates, ("library",))
    assert both.in_reference[nav] and not any(library_only.in_reference)
    assert library_only.template_share == both.template_share and max(both.template_share) == 1.0
    assert not any(page_evidence(blocks, templates, ("diff",)).template_share)
