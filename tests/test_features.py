"""Block features on a small hand-built page, each checked against a value computed by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pagesieve.blocks.segment import segment
from pagesieve.blocks.features import FEATURE_NAMES, block_features, composite_text_densities
from pagesieve.page.html import parse_html
from pagesieve.page.preprocess import preprocess

PAGE = b"""<html><head><title>Bread at altitude</title></head><body>
<div id="nav"><a href="/">Home</a> <a href="/about">About us</a></div>
<div class="story"><p>Bread at altitude, slowly.</p><p>It rises faster up there.</p></div>
<div class="comments">
  <div class="comment-1"><p>Ann wrote at 10:30 nice</p></div>
  <div class="comment-2"><p>Bob agrees</p></div>
</div>
</body></html>"""
# Blocks: 0 body, 1 div#nav (12 chars, all link text), 2 div.story, 3 p (26), 4 p (25),
# 5 div.comments, 6 div.comment-1, 7 p (23), 8 div.comment-2, 9 p (10). Candidates: 1 3 4 7 9.
TOTAL = 12 + 26 + 25 + 23 + 10


@pytest.fixture(scope="module")
def features():
    page = parse_html(PAGE)
    preprocess(page)
    blocks = segment(page.root)
    idx, x = block_features(blocks, "Bread at altitude")
    return blocks, idx, x


def column(x, name):
    return x[:, FEATURE_NAMES.index(name)]


def test_candidates_and_counts(features):
    blocks, idx, x = features
    assert idx == [1, 3, 4, 7, 9]
    assert [blocks[i].chars for i in idx] == [12, 26, 25, 23, 10]
    assert x.shape == (5, len(FEATURE_NAMES))
    assert blocks[0].sub_chars == TOTAL


def test_seed000_ratios_and_densities(features):
    _blocks, _idx, x = features
    assert column(x, "r1") == pytest.approx([12 / 97, 26 / 97, 25 / 97, 23 / 97, 10 / 97])
    assert column(x, "r2") == pytest.approx([12 / 13, 0, 0, 0, 0])  # all link text is the menu's
    assert column(x, "r5") == pytest.approx([12 / 13, 0, 0, 0, 0])
    assert column(x, "log_chars") == pytest.approx(np.log1p([12, 26, 25, 23, 10]))
    assert column(x, "sub_link_density") == pytest.approx([12 / 13, 0, 0, 0, 0])


def test_text_columns(features):
    _blocks, _idx, x = features
    # "Bread at altitude, slowly.": 4 tokens, "at" a stop word, 2 punctuation marks
    assert column(x, "log_tokens")[1] == pytest.approx(math.log1p(4))
    assert column(x, "stopword_ratio")[1] == pytest.approx(1 / 5)
    assert column(x, "punct_density")[1] == pytest.approx(2 / 27)
    assert list(column(x, "ends_sentence")) == [0, 1, 1, 0, 0]
    # title tokens without stop words: bread, altitude
    assert list(column(x, "title_overlap")) == [0, 1, 0, 0, 0]
    assert list(column(x, "title_like")) == [0, 1, 0, 0, 0]


def test_position_and_neighbour_columns(features):
    _blocks, _idx, x = features
    assert column(x, "rel_position") == pytest.approx([0, 0.2, 0.4, 0.6, 0.8])
    assert column(x, "text_before") == pytest.approx([0, 12 / TOTAL, 38 / TOTAL, 63 / TOTAL, 86 / TOTAL])
    assert column(x, "prev_log_chars") == pytest.approx([0, *np.log1p([12, 26, 25, 23])])
    assert column(x, "next_log_chars") == pytest.approx([*np.log1p([26, 25, 23, 10]), 0])
    assert column(x, "prev_link_density") == pytest.approx([0, 12 / 13, 0, 0, 0])
    assert column(x, "next_link_density") == pytest.approx([0, 0, 0, 0, 0])
    # parent and grandparent block's share of the page's text (the body stands for a missing one)
    assert column(x, "parent_share") == pytest.approx([1, 51 / TOTAL, 51 / TOTAL, 23 / TOTAL, 10 / TOTAL])
    assert column(x, "grandparent_share") == pytest.approx([1, 1, 1, 33 / TOTAL, 33 / TOTAL])


def test_longest_block_columns(features):
    _blocks, _idx, x = features
    # the longest block (own text minus link text) is the first paragraph, block 3
    assert column(x, "log_ratio_longest") == pytest.approx(np.log(np.array([13, 27, 26, 24, 11]) / 26))
    assert list(column(x, "shares_parent_longest")) == [0, 1, 1, 0, 0]
    # levels up to the common ancestor with block 3: the menu 1 (body), the second paragraph 1
    # (div.story), a comment 3 (div.comment-N, div.comments, body)
    assert list(column(x, "lca_depth_longest")) == [1, 0, 1, 3, 3]
    assert column(x, "dist_longest") == pytest.approx(np.array([1 - 3, 0, 4 - 3, 7 - 3, 9 - 3]) / 10)


def test_class_and_repetition_columns(features):
    _blocks, _idx, x = features
    assert list(column(x, "neg_self")) == [1, 0, 0, 0, 0]  # id="nav"
    assert list(column(x, "pos_ancestors")) == [0, 1, 1, 0, 0]  # class="story"
    assert list(column(x, "comment_ancestor")) == [0, 0, 0, 1, 1]
    # each comment paragraph sits in a run of two look-alike containers (comment-1, comment-2)
    assert column(x, "repeated_container") == pytest.approx([0, 0, 0, math.log(2), math.log(2)])
    # only the first comment carries a comment mark (a clock time)
    assert list(column(x, "repeated_with_comment_marks")) == [0, 0, 0, 1, 0]
    assert list(column(x, "tag_p")) == [0, 1, 1, 1, 1]
    assert list(column(x, "tag_div")) == [1, 0, 0, 0, 0]


def test_composite_text_density_by_hand():
    """CETD eq. 4 on four subtrees, worked by hand (body: 900 characters, 120 of link text)."""
    c = np.array([0.0, 40.0, 40.0, 40.0])
    t = np.array([3.0, 4.0, 4.0, 4.0])
    lc = np.array([0.0, 0.0, 10.0, 40.0])
    lt = np.array([1.0, 0.0, 1.0, 2.0])
    got = composite_text_densities(c, t, lc, lt, 120, 900)
    ratio = 120 / 900
    # no text: C/T = 0
    assert got[0] == 0.0
    # no links: base = ln(40 * 0 + ratio * 40 + e), argument (40 / 1) * (4 / 1)
    assert got[1] == pytest.approx(10 * math.log(160) / math.log(math.log(ratio * 40 + math.e)))
    # 10 link characters in one link: base = ln((40 / 30) * 10 + ratio * 40 + e), argument 4 * 4
    assert got[2] == pytest.approx(10 * math.log(16) / math.log(math.log(40 / 30 * 10 + ratio * 40 + math.e)))
    # all link text: nonLC taken as 1, argument (40 / 40) * (4 / 2) = 2
    assert got[3] == pytest.approx(10 * math.log(2) / math.log(math.log(40 * 40 + ratio * 40 + math.e)))
    # no links in a body without links: base = ln(e) = 1, no logarithm to that base: C/T
    alone = composite_text_densities(np.array([40.0]), np.array([4.0]), np.array([0.0]), np.array([0.0]), 0, 0)
    assert alone[0] == 10.0


def test_a_semantic_noise_element_that_wraps_the_page_does_not_mark_it():
    def marked(html):
        page = parse_html(html)
        preprocess(page)
        blocks = segment(page.root)
        idx, x = block_features(blocks, "Bread")
        return {blocks[i].text[:4]: flag for i, flag in zip(idx, column(x, "in_semantic_noise"))}

    story = "<p>" + "Bread rises faster at altitude, so the dough needs less yeast. " * 3 + "</p>"
    nav = '<nav><p>Home, recipes and the about page of this site</p></nav>'
    # a <header> that libxml2 left open holds the whole page: its article is not header text
    assert marked(f"<html><body><header><div>{nav}<div>{story}</div></div></header></body></html>") == {
        "Home": True, "Brea": False,
    }
    # a header that holds a small share of the page still marks what is in it
    assert marked(f"<html><body><header><p>Site name and slogan</p></header>{story}</body></html>") == {
        "Site": True, "Brea": False,
    }
