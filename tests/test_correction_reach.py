"""How far a correction reaches (issue 54): the host counts, per kind of block, the learned pages
of a site that held it, and a ``label`` reply says it: a caption hidden on one page of a site
whose pages all carry captions reaches every page seen, and is gone on the site's next page; an
element found on one page only reaches that page. Over the real host process, on pages of our
own fixture site (no dataset page is copied)."""

from __future__ import annotations

import sqlite3

from pagesieve.page.html import parse_html
from pagesieve.page.to_snapshot import page_to_snapshot
from pagesieve.templates.learn import shape_key, summarise
from pagesieve.templates.store import TemplateStore

from test_native_host import HostProcess  # tests/ is on sys.path (pytest rootdir-relative imports)

SITE = "https://tidewater.example"
STORIES = (
    ("Harbour dredging to start in spring", "dredging"),
    ("Lifeboat crew marks fifty years", "lifeboat"),
    ("Fish market to move to the old quay", "market"),
    ("New ferry timetable for the islands", "ferry"),
)


def story_page(k: int, oneoff: bool = False) -> str:
    """Page ``k`` of the fixture site: navigation, an article of six paragraphs with a figure and
    its caption and photo credit (different on every page), a footer; ``oneoff`` adds a notice
    found on no other page."""
    title, word = STORIES[k]
    paras = "".join(
        f"<p>The {word} story, part {i + 1}: the council met on the quay and agreed that the {word} plan would go ahead "
        f"after a long winter of talks with the harbour board, the fishermen and the people who live along the front.</p>"
        for i in range(6))
    figure = (f"<figure class='story-figure'><img src='/img/{word}.jpg' width='600' height='400' alt=''>"
              f"<figcaption class='caption'>The {word} works seen from the sea wall on a grey morning. "
              f"Photo: Tidewater Gazette staff {k + 1}</figcaption></figure>")
    notice = ("<div class='oneoff-notice'><p>This article was corrected on Tuesday: an earlier version "
              "gave the wrong date for the council meeting on the quay.</p></div>") if oneoff else ""
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{title} | Tidewater Gazette</title></head><body>"
            f"<header><a href='/'>Tidewater Gazette</a><nav><a href='/news/'>News</a> <a href='/sport/'>Sport</a></nav></header>"
            f"<main><article><h1>{title}</h1>{figure}{paras}{notice}</article></main>"
            f"<footer><p>Tidewater Gazette, 3 Quay Street.</p></footer></body></html>")


def fixture_snapshot(html: str, url: str) -> dict:
    """The snapshot the extension would send of the fixture page ``html`` at ``url``."""
    snap = page_to_snapshot(parse_html(html, url=url))
    snap["url"] = url
    return snap


def snapshot_of(k: int, oneoff: bool = False) -> dict:
    return fixture_snapshot(story_page(k, oneoff), f"{SITE}/news/{STORIES[k][1]}/")


def node_of(snap: dict, tag: str, text: str) -> int:
    from pagesieve.page.snapshot import parse_snapshot

    page = parse_snapshot(snap)
    for el in page.root.iter(tag):
        if text in "".join(el.itertext()):
            return page.node_id(el)
    raise AssertionError(f"no {tag} with {text!r}")


def test_a_caption_hidden_on_one_page_reaches_the_sites_pages_and_a_one_off_stays_on_its_page(tmp_path):
    host = HostProcess(tmp_path)
    try:
        snaps = [snapshot_of(0), snapshot_of(1, oneoff=True), snapshot_of(2)]
        for i, snap in enumerate(snaps):
            learned = host.request({"v": 1, "id": i, "type": "learn", "snapshot": snap})
            assert learned["ok"] and learned["learned"] and learned["pages"] == i + 1, learned
        # the caption, hidden on page 1: its kind of block is on all three pages seen
        caption = node_of(snaps[0], "figcaption", "Photo: Tidewater Gazette")
        saved = host.request({"v": 1, "id": 10, "type": "label", "snapshot": snaps[0], "node": caption, "label": "noise"})
        assert saved["ok"] and saved["label"]["signature"].endswith("figcaption.caption"), saved
        assert saved["reach"] == {"pages": 3, "site_pages": 3, "anchored": False, "stays_off": 0}
        # the one-off notice of page 2 is on that page only
        notice = node_of(snaps[1], "p", "This article was corrected")
        once = host.request({"v": 1, "id": 11, "type": "label", "snapshot": snaps[1], "node": notice, "label": "noise"})
        assert once["ok"] and once["reach"]["pages"] == 1 and once["reach"]["site_pages"] == 3, once
        # the site's next page, never seen: its caption is hidden, its story is not
        nxt = snapshot_of(3)
        shown = host.request({"v": 1, "id": 12, "type": "clean", "mode": "hide", "snapshot": nxt})
        assert shown["ok"], shown
        assert node_of(nxt, "figcaption", "Photo: Tidewater Gazette") in shown["hide"]
        story = node_of(nxt, "p", "The ferry story, part 3")
        assert story in shown["content"] and story not in shown["hide"]
        reader = host.request({"v": 1, "id": 13, "type": "clean", "mode": "reader", "snapshot": nxt})
        assert "ferry story, part 6" in reader["article"]["text"] and "Photo: Tidewater Gazette" not in reader["article"]["text"]
        # a page learned after the correction counts too
        assert host.request({"v": 1, "id": 14, "type": "learn", "snapshot": nxt})["pages"] == 4
        again = host.request({"v": 1, "id": 15, "type": "label", "snapshot": snaps[2], "node": node_of(snaps[2], "figcaption", "Photo"),
                              "label": "noise"})
        assert again["reach"]["pages"] == 4 and again["replaced"] is not None
    finally:
        assert host.close() == 0


def test_a_store_of_version_2_is_migrated_and_counts_shapes_from_then_on(tmp_path):
    """What a user's host learned before the store counted shapes survives the upgrade; pages
    learned after it are counted."""
    from pagesieve.templates.store import MIGRATIONS, SCHEMA_VERSION

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:  # a store as version 2 wrote it, with one site learned
        db.executescript("".join(MIGRATIONS[:2]) + "PRAGMA user_version = 2;"
                         "INSERT INTO sites (site, pages, last_used) VALUES ('tidewater.example', 7, 0);")
    db.close()
    with TemplateStore(path) as store:
        assert store.schema_version == SCHEMA_VERSION == 4
        assert store.site_pages("tidewater.example") == 7
        summary = summarise(parse_html(story_page(0), url=f"{SITE}/news/dredging/"))
        assert summary.shapes and len(set(summary.shapes)) == len(summary.shapes)
        assert store.learn(summary)
        key = "main > article > figure.story-figure > figcaption.caption"
        assert shape_key(key) in summary.shapes
        assert store.shape_pages("tidewater.example", key) == 1
        assert store.shape_pages("tidewater.example", "main > aside") == 0
        assert store.has_learned("tidewater.example", f"{SITE}/news/dredging/")


def test_a_hide_on_the_article_is_checked_against_the_pages_seen_and_stays_off_them(tmp_path):
    """Issue 54: "before a rule is applied widely, it is checked against the pages of the site
    that the host has already seen". Pages learned with their verdict (``clean`` with
    ``learn``) count, per kind of block, the pages on which it held the article. A "hide" on the
    article's wrapper says it stays off those pages, and the next page keeps its story; a hide
    on the caption stays off none."""
    host = HostProcess(tmp_path)
    try:
        snaps = [snapshot_of(k) for k in range(3)]
        for i, snap in enumerate(snaps):
            cleaned = host.request({"v": 1, "id": i, "type": "clean", "mode": "hide", "snapshot": snap, "learn": True})
            assert cleaned["ok"] and cleaned["learned"], cleaned
        story = node_of(snaps[0], "article", "The dredging story, part 1")
        wrapper = host.request({"v": 1, "id": 10, "type": "label", "snapshot": snaps[0], "node": story, "label": "noise"})
        assert wrapper["ok"] and wrapper["label"]["signature"].endswith("main > article"), wrapper
        # seen on the 3 pages; on the 2 others it held the article, so the rule stays off them
        assert wrapper["reach"] == {"pages": 3, "site_pages": 3, "anchored": False, "stays_off": 2}, wrapper["reach"]
        nxt = snapshot_of(3)
        shown = host.request({"v": 1, "id": 11, "type": "clean", "mode": "reader", "snapshot": nxt})
        assert "The ferry story, part 6" in shown["article"]["text"]
        caption = node_of(snaps[1], "figcaption", "Photo: Tidewater Gazette")
        hid = host.request({"v": 1, "id": 12, "type": "label", "snapshot": snaps[1], "node": caption, "label": "noise"})
        assert hid["reach"] == {"pages": 3, "site_pages": 3, "anchored": False, "stays_off": 0}, hid["reach"]
    finally:
        assert host.close() == 0


def test_on_a_corrected_site_a_plain_learn_counts_the_article_too(tmp_path):
    """A page load learns the page with a ``learn`` request, which reads no verdict; on a site
    the user has corrected, the host judges the page as it learns it, so the pages seen after
    the first correction count where the article was."""
    host = HostProcess(tmp_path)
    try:
        first = snapshot_of(0)
        assert host.request({"v": 1, "id": 0, "type": "learn", "snapshot": first})["learned"]
        caption = node_of(first, "figcaption", "Photo: Tidewater Gazette")
        assert host.request({"v": 1, "id": 1, "type": "label", "snapshot": first, "node": caption, "label": "noise"})["ok"]
        for k in (1, 2):  # page loads after the correction
            assert host.request({"v": 1, "id": 1 + k, "type": "learn", "snapshot": snapshot_of(k)})["learned"]
        nxt = snapshot_of(3)  # a page not learned yet: the rule applies there whatever it holds
        story = node_of(nxt, "article", "The ferry story, part 1")
        wrapper = host.request({"v": 1, "id": 10, "type": "label", "snapshot": nxt, "node": story, "label": "noise"})
        # page 1 was learned before any correction (no verdict); pages 2 and 3 after it
        assert wrapper["reach"] == {"pages": 4, "site_pages": 4, "anchored": False, "stays_off": 2}, wrapper["reach"]
    finally:
        assert host.close() == 0


def test_a_store_of_version_3_keeps_its_shape_counts_and_counts_articles_from_then_on(tmp_path):
    """The reach counts a user's host learned before the store counted articles survive the
    upgrade to version 4 (their article count is 0); a page learned with its verdict counts."""
    from pagesieve.blocks.segment import segment
    from pagesieve.page.preprocess import preprocess
    from pagesieve.templates.store import MIGRATIONS

    key = "main > article"
    path = tmp_path / "v3.sqlite3"
    with sqlite3.connect(path) as db:  # a store as version 3 wrote it: one site, one kind seen on 5 pages
        db.executescript("".join(MIGRATIONS[:3]) + "PRAGMA user_version = 3;"
                         "INSERT INTO sites (site, pages, last_used) VALUES ('tidewater.example', 5, 0);")
        db.execute("INSERT INTO shapes (site, shape, pages) VALUES (?, ?, 5)", ("tidewater.example", shape_key(key)))
    db.close()
    with TemplateStore(path) as store:
        assert store.schema_version == 4
        assert store.shape_pages("tidewater.example", key) == 5
        assert store.shape_article_pages("tidewater.example", key) == 0
        page = parse_html(story_page(0), url=f"{SITE}/news/dredging/")
        preprocess(page)
        blocks = segment(page.root, positions=page.positions())
        keep = [any(w in b.text for w in ("dredging story",)) for b in blocks]
        summary = summarise(page, blocks, keep=keep)
        assert shape_key(key) in summary.article_shapes
        assert shape_key("main > article > figure.story-figure > figcaption.caption") not in summary.article_shapes
        assert set(summary.article_shapes) <= set(summary.shapes)
        assert store.learn(summary)
        assert store.shape_pages("tidewater.example", key) == 6
        assert store.shape_article_pages("tidewater.example", key) == 1
