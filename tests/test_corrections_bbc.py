"""Issue 64, the BBC case: a correction on a list of links must not hide the story's bullet points.

bbc.co.uk (2017 layout) writes every list of a story body as ``ul.story-body__unordered-list >
li.story-body__list-item``: the "related stories" lists inside the story (all link text) and the
story's own bullet points (no link). The simulated user of ``pagesieve-dev eval --corrections 3``
hides the related-stories list on big9's ``2017_russia_1``, where it is the only such list, so
the label is not anchored on its text: a rule on the tag path. With the tag path alone the rule
also hid the five bullet points of ``2017_storm_1`` ("In other key developments: ..."), all of
them in the truth (F1 0.956 -> 0.938 with --history all). The label now keeps the kind of text
of its block (a list of links or sentences, :func:`pagesieve.corrections.signature.text_kind`)
and matches only that kind.

The pages are read at run time from ``../shared/datasets/big9`` (skipped without it).
"""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest

from pagesieve.blocks.features import N_FEATURES
from pagesieve.corrections.rules import apply_rules, block_kind, make_label, match_rules
from pagesieve.corrections.signature import (
    LINK_LIST_SHARE, PathIndex, Signature, link_share, picture_count, picture_kind, text_kind,
)
from pagesieve.corrections.store import MIGRATIONS, Label, LabelStore, SiteRules, read_jsonl
from pagesieve.extract import extract_page, judge_page
from pagesieve.page.html import parse_html

SITE = "bbc.co.uk"
LIST_CLASS = "story-body__unordered-list"


def _pages(datasets_dir):
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page, read_truth

    ds = load_dataset(datasets_dir / "big9")
    ids = [r.id for r in ds.rows if r.site == SITE]
    assert len(ids) == 40, "big9 holds 40 bbc.co.uk pages (../shared/datasets/README.md)"

    def read(page_id):
        return parse_html(read_page(ds, page_id), url=ds.record(page_id).url), read_truth(ds, page_id)

    return ids, read


def _f1(text, truth):
    from pagesieve_dev.evaluation.metric import prf_counts
    from pagesieve.tokens import tokens

    return prf_counts(Counter(tokens(text)), Counter(tokens(truth)))[2]


def _story_lists(analysis):
    return [b for b in analysis.blocks if b.tag == "ul" and LIST_CLASS in (b.element.get("class") or "").split()]


def _related_links_rule(read):
    """The oracle's first BBC correction, made as the picker makes it: "noise" on the story-body
    list of links the classifier keeps on 2017_russia_1."""
    page, _truth = read("2017_russia_1")
    analysis, keep = judge_page(page)
    paths = PathIndex(analysis.page)
    lists = [b for b in _story_lists(analysis) if any(keep[b.index:b.index + len(b.children) + 1])]
    assert len(lists) == 1, "2017_russia_1 has one story-body list, the related stories, and the classifier keeps it"
    made = make_label(analysis.page, analysis.blocks, analysis.candidates, analysis.features, lists[0].index, 0,
                      keep=keep, paths=paths)
    made.id = 1
    return made, paths.signature(lists[0].element)


def test_a_rule_on_related_links_keeps_the_storys_bullet_points(datasets_dir):
    ids, read = _pages(datasets_dir)
    label, signature = _related_links_rule(read)
    # the cause: no text anchor (no look-alike held content on that page), so the rule is the tag path
    assert label.anchor is None and label.signature == signature
    assert label.link_share == 1.0 and text_kind(label.link_share) == "links"
    rules = SiteRules(SITE, [label])

    page, truth = read("2017_storm_1")
    analysis, keep = judge_page(page)
    paths = PathIndex(analysis.page)
    lists = _story_lists(analysis)
    assert all(paths.signature(b.element).key == signature.key for b in lists), \
        "every story-body list of the site has the same tag path: the signature alone cannot tell them apart"
    bullets = [b for b in lists if block_kind(b) == "text" and "150-500mm of rain" in " ".join(
        analysis.blocks[c].text for c in b.children)]
    links = [b for b in lists if block_kind(b) == "links"]
    assert len(bullets) == 1 and links, "2017_storm_1 has a list of bullet points and a related-stories list"
    items = bullets[0].children
    assert all(keep[i] for i in items), "the classifier keeps the bullet points"
    assert all(analysis.blocks[i].text[:40] in truth for i in items), "the bullet points are in the truth"

    matched = {s for m in match_rules(analysis.page, analysis.blocks, rules) for s in m.blocks}
    assert bullets[0].index not in matched, "a rule made on a list of links must not match a list of sentences"
    assert {b.index for b in links} <= matched, "the related-stories lists are still hidden"
    after = list(keep)
    apply_rules(analysis.page, analysis.blocks, after, rules)
    assert all(after[i] for i in items)
    assert not any(after[c] for b in links for c in b.children)

    plain = _f1(extract_page(read("2017_storm_1")[0]).text, truth)
    corrected = _f1(extract_page(read("2017_storm_1")[0], corrections=rules).text, truth)
    assert corrected >= plain, (plain, corrected)


def test_the_related_links_rule_makes_no_bbc_page_worse(datasets_dir):
    """Over all 40 BBC pages of big9 (single page, no history): the rule never lowers a page's F1
    and raises it on every page where the classifier keeps a related-stories list. (Since the
    article cut of 0.45 the classifier drops most of those lists itself: two pages keep one,
    2017_russia_1, where the label is made, and 2017_nigeria_1; at 0.4 it raised at least three.)"""
    ids, read = _pages(datasets_dir)
    label, _signature = _related_links_rule(read)
    rules = SiteRules(SITE, [label])
    gains, kept_lists = {}, set()
    for page_id in ids:
        page, truth = read(page_id)
        analysis, keep = judge_page(page)
        if any(block_kind(b) == "links" and any(keep[b.index:b.index + len(b.children) + 1]) for b in _story_lists(analysis)):
            kept_lists.add(page_id)
        gains[page_id] = _f1(extract_page(read(page_id)[0], corrections=rules).text, truth) - \
            _f1(extract_page(read(page_id)[0]).text, truth)
    worst = min(gains, key=gains.get)
    assert gains[worst] >= -1e-9, f"{worst}: F1 {gains[worst]:+.4f} with the correction"
    assert len(kept_lists - {"2017_russia_1"}) >= 1, "another page keeps a related-stories list"
    assert all(gains[p] > 0.001 for p in kept_lists), {p: gains[p] for p in kept_lists}


# ------------------------------------------------------------------ the kind of text, without datasets


HTML = """<html><body><div class="story">
<p>The opening paragraph of the story with enough words to be a paragraph.</p>
<ul class="list"><li><a href="/a">Related story one</a></li><li><a href="/b">Related story two</a></li></ul>
<p>Another paragraph of the story, long enough to be kept as main content.</p>
<ul class="list"><li>A first bullet point of the story itself, with plain words.</li>
<li>A second bullet point, also plain text without any link.</li></ul>
</div></body></html>"""


def _lists(page):
    analysis, keep = judge_page(page)
    lists = [b for b in analysis.blocks if b.tag == "ul"]
    assert len(lists) == 2
    return analysis, keep, lists


def test_labels_match_their_own_kind_of_text_only():
    analysis, keep, (links, bullets) = _lists(parse_html(HTML, url="https://news.example/1"))
    assert link_share(links) == 1.0 and link_share(bullets) == 0.0
    assert (block_kind(links), block_kind(bullets)) == ("links", "text")
    assert text_kind(None) is None and text_kind(LINK_LIST_SHARE) == "text"
    keep = [True] * len(keep)
    hide = make_label(analysis.page, analysis.blocks, analysis.candidates, analysis.features, links.index, 0, keep=keep)
    assert hide.anchor is None, "the other list is of another kind: no look-alike holds content"
    hide.id = 1
    assert [m.blocks for m in match_rules(analysis.page, analysis.blocks, SiteRules("news.example", [hide]))] == [[links.index]]
    show = make_label(analysis.page, analysis.blocks, analysis.candidates, analysis.features, bullets.index, 1, keep=keep)
    show.id = 2
    assert [m.blocks for m in match_rules(analysis.page, analysis.blocks, SiteRules("news.example", [show]))] == [[bullets.index]]
    # a label of unknown kind (stored before the kind was kept) matches both, as before
    old = Label("news.example", None, 0, hide.signature, np.zeros((0, N_FEATURES), np.float32), id=3)
    assert [m.blocks for m in match_rules(analysis.page, analysis.blocks, SiteRules("news.example", [old]))] == \
        [[links.index, bullets.index]]


def test_the_store_keeps_the_kind_and_labels_of_two_kinds_do_not_replace_each_other(tmp_path):
    import sqlite3

    path = tmp_path / "l.sqlite3"
    # a store of schema version 1 (before the kind was kept), with one label
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0] + ";")
    db.execute("INSERT INTO labels (site, url, created, label, path, path_key, zone, anchor, snippet, features, rows,"
               " feature_count, replaced, active) VALUES ('a.example', NULL, 1.0, 0, '[\"nav\"]', 'nav', NULL, NULL, NULL,"
               " x'', 0, ?, NULL, 1)", (N_FEATURES,))
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()

    def label(share, value=0, created=0.0):
        return Label("a.example", None, value, Signature(("ul.list",)), np.zeros((1, N_FEATURES), np.float32),
                     link_share=share, created=created)

    with LabelStore(path) as store:
        assert [lab.link_share for lab in store.labels()] == [None]
        links, _ = store.add(label(1.0, 0, 2.0))
        text, replaced = store.add(label(0.0, 1, 3.0))
        assert replaced is None, "a rule on sentences does not replace a rule on links with the same tag path"
        again, replaced = store.add(label(0.9, 0, 4.0))
        assert replaced is not None and replaced.id == links.id
        active = store.labels("a.example")
        assert [(lab.signature.key, lab.link_share) for lab in active] == [("nav", None), ("ul.list", 0.0), ("ul.list", 0.9)]
        lines = [json.dumps(lab.to_json()) for lab in active]
    with LabelStore(tmp_path / "b.sqlite3") as store:
        assert store.import_labels(read_jsonl(lines)) == 3
        assert [lab.link_share for lab in store.labels()] == [None, 0.0, 0.9]
    bad = json.dumps({"site": "a.example", "label": "noise", "path": ["div"], "link_share": 2})
    with pytest.raises(Exception, match="link_share"):
        list(read_jsonl([bad]))


# ------------------------------------------------------------------ a captioned photo and a fact box


def _story_table(analysis, needle):
    """The block of the story-body ``<table>`` (``td.storybody > table``, the 2009 layout) whose text holds ``needle``."""
    found = [b for b in analysis.blocks if b.tag == "table" and "storybody" in (b.element.getparent().get("class") or "")
             and needle in "".join(b.element.itertext())]
    assert len(found) == 1, needle
    return found[0]


def test_a_rule_on_a_captioned_photo_keeps_the_fact_boxes(datasets_dir):
    """The 2009 layout lays out a photo with its caption and a fact box with the same markup,
    ``td.storybody > table``. With the article cut at 0.45 the simulated user's third correction
    was "hide" on 2009_climate_1's caption table (one picture, 62 characters); as a tag path it
    also hid 2009_mexico_1's fact boxes ("CONFIRMED CASES", "SYMPTOMS - WHAT TO DO": two
    pictures each, the quotation marks and bullets), which the truth keeps, and bbc.co.uk came
    out lower with corrections than without. A "hide" label now keeps how many pictures its block
    holds and matches only blocks with as many (one or several), or none."""
    _ids, read = _pages(datasets_dir)
    page, _truth = read("2009_climate_1")
    analysis, keep = judge_page(page)
    caption = _story_table(analysis, "Scientists will present the most recent data on sea level rise")
    made = make_label(analysis.page, analysis.blocks, analysis.candidates, analysis.features, caption.index, 0, keep=keep)
    assert made.pictures == 1 and picture_kind(made.pictures) == "one" and made.anchor is None
    made.id = 1
    rules = SiteRules(SITE, [made])

    page, truth = read("2009_mexico_1")
    analysis, keep = judge_page(page)
    photo = _story_table(analysis, "Mexico's ambassador to Beijing helped deliver food")
    boxes = [_story_table(analysis, "CONFIRMED CASES"), _story_table(analysis, "SYMPTOMS - WHAT TO DO")]
    assert all(picture_count(b.element) >= 2 for b in boxes) and picture_count(photo.element) == 1
    assert "Canada: 140 confirmed cases" in truth, "the truth keeps the fact box"
    matched = {s for m in match_rules(analysis.page, analysis.blocks, rules) for s in m.blocks}
    assert photo.index in matched, "another captioned photo is hidden"
    assert not matched & {b.index for b in boxes}, "the fact boxes are not"
    corrected = extract_page(read("2009_mexico_1")[0], corrections=rules).text
    assert "Canada: 140 confirmed cases" in corrected and "Mexico's ambassador to Beijing" not in corrected
    assert _f1(corrected, truth) >= _f1(extract_page(read("2009_mexico_1")[0]).text, truth)
    # a label stored before the pictures were kept matches every table, as before
    old = Label(SITE, None, 0, made.signature, np.zeros((0, N_FEATURES), np.float32), link_share=made.link_share, id=2)
    assert {b.index for b in boxes} <= {s for m in match_rules(analysis.page, analysis.blocks, SiteRules(SITE, [old])) for s in m.blocks}


def test_the_store_keeps_the_pictures_and_an_older_store_is_upgraded(tmp_path):
    import sqlite3

    path = tmp_path / "l.sqlite3"
    db = sqlite3.connect(path)  # a store of schema version 3 (before the pictures were kept), with one label
    for step in MIGRATIONS[:3]:
        db.executescript(step + ";")
    db.execute("INSERT INTO labels (site, url, created, label, path, path_key, zone, anchor, snippet, features, rows,"
               " feature_count, replaced, active, link_share, part) VALUES ('a.example', NULL, 1.0, 0, '[\"table\"]', 'table',"
               " NULL, NULL, NULL, x'', 0, ?, NULL, 1, 0.0, 0)", (N_FEATURES,))
    db.execute("PRAGMA user_version = 3")
    db.commit()
    db.close()

    def label(pictures, created):
        return Label("a.example", None, 0, Signature(("td.storybody", "table")), np.zeros((1, N_FEATURES), np.float32),
                     link_share=0.0, created=created, pictures=pictures)

    with LabelStore(path) as store:
        assert [lab.pictures for lab in store.labels()] == [None]  # what the user taught before survives
        photo, _ = store.add(label(1, 2.0))
        box, replaced = store.add(label(3, 3.0))
        assert replaced is None, "a rule on a fact box does not replace a rule on a captioned photo"
        _again, replaced = store.add(label(1, 4.0))
        assert replaced is not None and replaced.id == photo.id
        lines = [json.dumps(lab.to_json()) for lab in store.labels("a.example")]
    with LabelStore(tmp_path / "b.sqlite3") as store:
        assert store.import_labels(read_jsonl(lines)) == 3
        assert [lab.pictures for lab in store.labels()] == [None, 3, 1]
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(Exception, match="pictures"):
            list(read_jsonl([json.dumps({"site": "a.example", "label": "noise", "path": ["div"], "pictures": bad})]))
