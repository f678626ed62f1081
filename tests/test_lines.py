"""The BP line model of seed 001: its 12 inputs, and a network that learns from real pages."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pagesieve.extract import analyse
from pagesieve.page.html import parse_html


def test_line_inputs_are_the_seed_quantities_with_neighbours():
    from pagesieve_dev.lines import line_inputs

    html = (b"<html><head><title>Rain in Spain</title></head><body>"
            b"<div><a href=\"/x\">Home</a></div>"
            b"<p>Rain in Spain falls <b>mainly</b> on the plain, the office says.</p>"
            b"<p>Second paragraph of the article with more words.</p></body></html>")
    analysis = analyse(parse_html(html))
    x = line_inputs(analysis)
    assert x.shape == (len(analysis.candidates), 12)
    texts = [analysis.blocks[i].text for i in analysis.candidates]
    row = next(k for k, t in enumerate(texts) if t.startswith("Rain in Spain"))
    y = analysis.blocks[analysis.candidates[row]].chars  # own text (blocks.py counts it)
    z = y + len("<b>") + len("</b>")
    assert x[row, 0] == pytest.approx(math.log1p(y)) and x[row, 1] == pytest.approx(math.log1p(z))
    assert x[row, 2] == pytest.approx(y / z) and x[row, 3] > 0  # shares words with the title
    link = next(k for k, t in enumerate(texts) if t == "Home")
    assert x[link, 1] > x[link, 0]  # the anchor's tags count as markup
    # the previous and next lines' inputs follow
    assert np.array_equal(x[row, 4:8], x[row - 1, :4]) and np.array_equal(x[row, 8:], x[row + 1, :4])
    assert not x[0, 4:8].any() and not x[-1, 8:].any()


def test_line_network_learns_from_real_pages(datasets_dir):
    from pagesieve_dev.evaluation.datasets import load_dataset
    from pagesieve_dev.lines import fit_line_model
    from pagesieve_dev.training.labels import IGNORE
    from pagesieve_dev.training.train import page_rows

    dataset = load_dataset(datasets_dir / "big9")
    rows = [page_rows(dataset, page_id) for page_id in dataset.ids[:12]]
    model = fit_line_model([a for a, _y, _t in rows[:8]], [y for _a, y, _t in rows[:8]])
    hits = total = 0
    for analysis, y, _truth in rows[8:]:
        keep = np.array(model.keep(analysis))
        mask = y != IGNORE
        hits += int((keep[mask] == (y[mask] == 1)).sum())
        total += int(mask.sum())
    assert model.pipeline.named_steps["net"].hidden_layer_sizes == (5,)
    assert hits / total > 0.7, hits / total  # far better than chance on pages it never saw
