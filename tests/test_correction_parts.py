"""A correction names what the user pointed at (issue 54, the tracker's 64): "Hide this" on an
element inside a kept block (a photo credit ``span`` in a caption paragraph, a "More…" link at
the end of a paragraph) hides that element, not its paragraph, on this page and on the site's
other pages; the paragraph's own words stay. Over the real host process, on pages of our own
fixture site (no dataset page is copied); the store keeps the label's steps across a restart."""

from __future__ import annotations

import sqlite3

from pagesieve.corrections.parts import is_part, own_text_without
from pagesieve.corrections.store import MIGRATIONS, LabelStore
from pagesieve.page.html import parse_html

from test_correction_reach import fixture_snapshot, node_of  # tests/ is on sys.path (pytest rootdir-relative imports)
from test_native_host import HostProcess

SITE = "https://saltmarsh.example"
TOPICS = ("oyster beds", "sea wall", "tide mill", "ferry slip")


def story_page(k: int) -> str:
    """Page ``k`` of the fixture site: a story of five paragraphs, the last with a "Read more"
    link to another story; a picture whose caption paragraph ends in a photo credit ``span``
    (different names on every page); a paragraph with a link in its words (the story's own)."""
    topic = TOPICS[k]
    paras = "".join(
        f"<p>Part {i + 1} of the {topic} story: the parish council walked the marsh at low water and "
        f"agreed that the {topic} works would start in the spring, after a long winter of talks.</p>" for i in range(4))
    linked = (f"<p>The council's <a href='/plans/{k}'>published plans</a> show the {topic} in detail, with the "
              f"cost shared between the parish and the county. <a href='/news/{k + 10}/'>Read more: "
              f"harbour news</a></p>")
    figure = (f"<div class='picture'><img src='/img/{k}.jpg' width='600' height='400' alt=''>"
              f"<p class='caption'>The {topic} at low water on a grey morning in March. "
              f"<span class='credit'>Photo: Saltmarsh Herald / photographer {k + 1}</span></p></div>")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>The {topic} | Saltmarsh Herald</title></head>"
            f"<body><header><a href='/'>Saltmarsh Herald</a></header><main><article><h1>The {topic}</h1>"
            f"{figure}{paras}{linked}</article></main><footer><p>Saltmarsh Herald, Marsh Lane.</p></footer></body></html>")


def snapshot_of(k: int) -> dict:
    return fixture_snapshot(story_page(k), f"{SITE}/news/{k}/")


def test_an_inline_element_is_a_part_and_a_paragraph_is_not():
    page = parse_html(story_page(0), url=f"{SITE}/news/0/")
    credit = next(page.root.iter("span"))
    caption = credit.getparent()
    assert is_part(credit) and not is_part(caption)
    assert not is_part(page.root.find(".//img"))  # no text


def test_a_credit_hidden_on_one_page_is_gone_on_the_next_and_its_caption_stays(tmp_path):
    host = HostProcess(tmp_path)
    try:
        snaps = [snapshot_of(k) for k in range(3)]
        for i, snap in enumerate(snaps):
            assert host.request({"v": 1, "id": i, "type": "learn", "snapshot": snap})["learned"]
        credit = node_of(snaps[0], "span", "Photo: Saltmarsh Herald")
        saved = host.request({"v": 1, "id": 10, "type": "label", "snapshot": snaps[0], "node": credit, "label": "noise"})
        assert saved["ok"], saved
        assert saved["label"]["part"] is True and saved["label"]["signature"].endswith("p.caption > span.credit"), saved
        assert saved["label"]["snippet"].startswith("Photo: Saltmarsh Herald")
        assert saved["reach"] == {"pages": 3, "site_pages": 3, "anchored": False, "stays_off": 0}  # every caption paragraph seen
        # the next page, never seen: in the reader, the caption's words stay, the credit goes
        nxt = snapshot_of(3)
        reader = host.request({"v": 1, "id": 11, "type": "clean", "mode": "reader", "snapshot": nxt})
        html, text = reader["article"]["html"], reader["article"]["text"]
        assert "ferry slip at low water on a grey morning" in html and "Photo: Saltmarsh Herald" not in html
        assert "Part 4 of the ferry slip story" in text and "Photo: Saltmarsh" not in text
        # in place: the credit's own node is hidden, with the correction as its reason; its paragraph is content
        shown = host.request({"v": 1, "id": 12, "type": "clean", "mode": "hide", "snapshot": nxt})
        span, caption = node_of(nxt, "span", "Photo: Saltmarsh"), node_of(nxt, "p", "on a grey morning")
        assert span in shown["hide"] and caption not in shown["hide"] and caption in shown["content"]
        assert shown["why"][shown["hide"].index(span)][:2] == ["correction", "hide-this-part"]
        # pages not cleaned ("corrections" mode) hide it too
        only = host.request({"v": 1, "id": 13, "type": "clean", "mode": "corrections", "snapshot": nxt})
        assert only["hide"] == [span], only
    finally:
        assert host.close() == 0
    # the label keeps its steps in the store, across a restart of the host
    with LabelStore(tmp_path / "labels.sqlite3") as store:
        (label,) = store.labels("saltmarsh.example")
        assert label.part == 1 and label.block_key.endswith("div.picture > p.caption")


def test_a_link_among_the_storys_links_is_hidden_by_its_text_only(tmp_path):
    """The "Read more" link shares its tag path (``p > a``) with the story's own link in the same
    paragraph: the correction is anchored on its text, and the story's link stays."""
    host = HostProcess(tmp_path)
    try:
        first = snapshot_of(0)
        more = node_of(first, "a", "Read more")
        saved = host.request({"v": 1, "id": 1, "type": "label", "snapshot": first, "node": more, "label": "noise"})
        assert saved["ok"] and saved["label"]["part"] is True and saved["reach"]["anchored"] is True, saved
        reader = host.request({"v": 1, "id": 2, "type": "clean", "mode": "reader", "snapshot": snapshot_of(2)})
        text = reader["article"]["text"]
        assert "Read more: harbour news" not in text
        assert "The council's published plans show the tide mill in detail" in text
    finally:
        assert host.close() == 0


def test_keep_this_on_an_element_names_its_block(tmp_path):
    host = HostProcess(tmp_path)
    try:
        first = snapshot_of(0)
        saved = host.request({"v": 1, "id": 1, "type": "label", "snapshot": first,
                              "node": node_of(first, "span", "Photo: Saltmarsh"), "label": "content"})
        assert saved["ok"] and saved["label"]["part"] is False and saved["label"]["signature"].endswith("p.caption"), saved
    finally:
        assert host.close() == 0


def test_own_text_without_keeps_the_tail_of_what_it_leaves_out():
    from pagesieve.blocks.segment import segment

    page = parse_html("<html><body><p>Before <b>bold</b> <span class='c'>credit</span> after.</p></body></html>")
    blocks = segment(page.root)
    (p,) = [b for b in blocks if b.tag == "p"]
    span = page.root.find(".//span")
    assert p.text == "Before bold credit after."
    assert own_text_without(p, {span}) == "Before bold after."


def test_a_label_store_of_version_2_gains_parts_and_keeps_its_labels(tmp_path):
    path = tmp_path / "labels.sqlite3"
    with sqlite3.connect(path) as db:  # a store as version 2 wrote it, with one label
        db.executescript(";".join(MIGRATIONS[:2]) + ";PRAGMA user_version = 2;"
                         "INSERT INTO labels (site, url, created, label, path, path_key, features, rows, feature_count)"
                         " VALUES ('saltmarsh.example', NULL, 1, 0, '[\"main\", \"aside\"]', 'main > aside', x'', 0, 34);")
    db.close()
    with LabelStore(path) as store:
        (label,) = store.labels("saltmarsh.example")
        assert label.part == 0 and label.block_key == "main > aside"


def test_a_breadcrumb_hidden_on_one_real_page_goes_from_the_sites_other_pages_and_nothing_else_does(datasets_dir):
    """daniel's www.express.gr (84 pages, 2011): every story opens with a breadcrumb trail
    (``span.pathway > a.pathway`` links: home, section, subject) followed by the headline, in one
    table cell the classifier keeps. "Hide this" on one of its links, on the first page, names the
    kind (its class, the others of its kind in the same block): on each other page the trail's
    link words leave the text, and the only other words to go are the headline's, which the
    cell then holds alone and which the reader already shows in its header (the body does not
    repeat the header, issue 52). Nothing is gained, and the header is unchanged. On some pages
    the header rules have taken the trail out already, as the lines above the headline
    (``article.header.above_title_blocks``); there the correction takes nothing, and the trail is
    gone from the reader all the same."""
    from collections import Counter

    from pagesieve.extract import extract_page, judge_page
    from pagesieve.corrections.parts import make_part_label
    from pagesieve.corrections.store import SiteRules
    from pagesieve.tokens import tokens
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    ds = load_dataset(datasets_dir / "daniel")
    ids = sorted(r.id for r in ds.rows if r.site == "www.express.gr")
    assert len(ids) > 50
    first = ds.record(ids[0])
    page = parse_html(read_page(ds, ids[0]), url=first.url)
    analysis, keep = judge_page(page, title_only=False)
    link = [a for a in page.root.iter("a") if a.get("class") == "pathway"][-1]
    label = make_part_label(page, analysis.blocks, link, keep=keep)
    assert label.part == 2 and label.anchor is None and label.signature.key.endswith("span.pathway > a.pathway")
    label.id = 1
    rules = SiteRules("www.express.gr", [label])
    gone = 0
    for page_id in ids[1:]:
        html, url = read_page(ds, page_id), ds.record(page_id).url
        crumbs = Counter(t for a in parse_html(html, url=url).root.iter("a") if a.get("class") == "pathway"
                         for t in tokens("".join(a.itertext())))
        before = extract_page(parse_html(html, url=url))
        after = extract_page(parse_html(html, url=url), corrections=rules)
        assert after.header == before.header
        lost = Counter(tokens(before.text)) - Counter(tokens(after.text))
        assert not Counter(tokens(after.text)) - Counter(tokens(before.text)), page_id
        headline = Counter(tokens(before.header[0])) if before.header else Counter()
        shown = not crumbs - Counter(tokens(before.text))  # the trail was in the text (its cell kept)
        assert lost - headline == (crumbs if shown else Counter()), page_id
        gone += bool(crumbs) and bool(crumbs - Counter(tokens(after.text)))  # the trail is not in the reader
    assert gone >= 0.9 * (len(ids) - 1)
