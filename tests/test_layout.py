"""VL_PS zones (seed 003) and box features of blocks, on hand-made snapshots with known boxes."""

from __future__ import annotations

import numpy as np
import pytest

from pagesieve.blocks.segment import segment
from pagesieve.blocks.features import block_features
from pagesieve.blocks.layout import BOX_FEATURE_NAMES, box_features, median_font_size, zone_of, zone_verdict
from pagesieve.page.snapshot import parse_snapshot

W, H = 1000.0, 3000.0


@pytest.mark.parametrize(
    ("box", "zone"),
    [
        ((0, 0, 1000, 200), "header"),        # ends exactly at H1 = 200
        ((0, 0, 1000, 201), "center"),        # one px lower: not header; full width is neither left nor right
        ((0, 2840, 1000, 160), "footer"),     # starts at H2 = 3000 - 160
        ((0, 500, 300, 100), "left"),         # ends at W1 = 30 % of 1000
        ((700, 500, 300, 100), "right"),      # starts at W2 = 70 %
        ((250, 500, 500, 100), "center"),
        ((0, 500, 1000, 100), "center"),      # full width: neither left nor right
    ],
)
def test_zones_follow_the_seed_thresholds(box, zone):
    assert zone_of(*box, W, H) == zone


def _page():
    nodes = [
        {"i": 0, "p": None, "t": "html", "b": [0, 0, 1000, 3000]},
        {"i": 1, "p": 0, "t": "body", "b": [0, 0, 1000, 3000]},
        {"i": 2, "p": 1, "t": "div", "a": {"id": "top"}, "b": [0, 0, 1000, 120], "fs": 14, "fw": 400},
        {"p": 2, "x": "Home News Sport Weather"},
        {"i": 3, "p": 1, "t": "div", "a": {"id": "side"}, "b": [0, 300, 250, 900], "fs": 14, "fw": 400},
        {"p": 3, "x": "Most read: one, two, three and more links"},
        {"i": 4, "p": 1, "t": "div", "a": {"id": "main"}, "b": [250, 300, 500, 2000], "fs": 21, "fw": 700},
        {"p": 4, "x": "The article body is here, with enough words to be a block of its own."},
        {"i": 5, "p": 1, "t": "div", "a": {"id": "foot"}, "b": [0, 2900, 1000, 100], "fs": 14, "fw": 400},
        {"p": 5, "x": "Copyright 2026, all rights reserved."},
    ]
    return parse_snapshot({"version": 1, "url": "https://example.org/a", "viewport": {"width": 1000, "height": 800},
                           "document": {"width": 1000, "height": 3000}, "nodes": nodes})


def test_box_features_and_zone_verdict_of_blocks():
    page = _page()
    blocks = segment(page.root)
    candidates, _features = block_features(blocks, "")
    by_id = {blocks[i].element.get("id"): row for row, i in enumerate(candidates) if blocks[i].element.get("id")}
    x = box_features(page, blocks, candidates)
    assert x.shape == (len(candidates), len(BOX_FEATURE_NAMES))
    col = {n: k for k, n in enumerate(BOX_FEATURE_NAMES)}
    main = x[by_id["main"]]
    assert main[col["has_box"]] == 1
    assert main[col["box_left"]] == pytest.approx(0.25) and main[col["box_top"]] == pytest.approx(0.1)
    assert main[col["box_width"]] == pytest.approx(0.5) and main[col["box_height"]] == pytest.approx(2000 / 3000)
    assert main[col["box_area_share"]] == pytest.approx(500 * 2000 / (1000 * 3000))
    assert main[col["box_centre_offset"]] == pytest.approx(0.0)
    assert main[col["box_top_screens"]] == pytest.approx(300 / 800)
    assert median_font_size(page) == 14
    assert main[col["font_size_ratio"]] == pytest.approx(21 / 14) and main[col["font_weight"]] == pytest.approx(700 / 400)
    zones = {name: [z for z in ("header", "footer", "left", "right", "center") if x[by_id[name], col[f"zone_{z}"]]] for name in by_id}
    assert zones == {"top": ["header"], "side": ["left"], "main": ["center"], "foot": ["footer"]}
    verdict = dict(zip([blocks[i].element.get("id") for i in candidates], zone_verdict(page, blocks, candidates)))
    assert {k: v for k, v in verdict.items() if k} == {"top": False, "side": False, "main": True, "foot": False}


def test_pages_without_layout_get_zero_box_features_and_the_box_free_model():
    from pagesieve.classify.model_store import default_model, model_for
    from pagesieve.page.html import parse_html

    page = parse_html(b"<html><body><div><p>Some text of a page read from HTML, not rendered.</p></div></body></html>")
    blocks = segment(page.root)
    candidates, _ = block_features(blocks, "")
    assert not box_features(page, blocks, candidates).any()
    assert zone_verdict(page, blocks, candidates) == [True] * len(candidates)
    assert model_for(page) is default_model()


def test_model_rows_add_box_columns_only_for_a_box_aware_model():
    from pagesieve.classify.context import CONTEXT_FEATURE_NAMES, context_feature_names
    from pagesieve.extract import analyse, model_rows
    from pagesieve.blocks.features import FEATURE_NAMES

    analysis = analyse(_page())

    class BoxAware:
        uses_boxes = True

    class BoxFree:
        uses_boxes = False

    assert model_rows(analysis, BoxFree()) is analysis.features
    assert analysis.box_features is None  # not computed until a box-aware model asks
    rows = model_rows(analysis, BoxAware())
    assert rows.shape == (len(analysis.candidates), len(FEATURE_NAMES) + len(BOX_FEATURE_NAMES))
    assert np.array_equal(rows[:, len(FEATURE_NAMES):], analysis.box_features)
    names = context_feature_names(FEATURE_NAMES + BOX_FEATURE_NAMES)
    assert len(names) == len(CONTEXT_FEATURE_NAMES) + len(BOX_FEATURE_NAMES) and names[-3] == "x_zone_center"
