"""Eval gate: token F1 floors per dataset on a fixed sample of held-out pages.

A change that makes extraction worse on any dataset fails here. The sample is the first
:data:`SAMPLE` pages of each dataset's ``test`` list in ``models/split.json`` (pages the shipped
model never saw). Each floor is the figure measured when it was pinned, less a margin of
:data:`MARGIN` for harmless changes; raise a floor when extraction gets better. The full figures
come from ``pagesieve-dev eval`` (README), not from here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pagesieve_dev.evaluation.datasets import load_dataset
from pagesieve_dev.evaluation.results import evaluate
from pagesieve_dev.evaluation.runner import pagesieve_extractor

SPLIT = Path(__file__).resolve().parents[1] / "models" / "split.json"
SAMPLE = 40
MARGIN = 0.02

# Macro token F1 on the sample when pinned (pagesieve-dev eval, same pages), less MARGIN.
FLOORS = {
    # re-pinned 2026-11-25 for the model trained with the whole wcxb_dev split (models/README.md)
    "big9": 0.961,  # measured 0.9815 (0.982 with the previous model)
    "cleaneval": 0.831,  # measured 0.851 (0.884 with the previous model; all 363 held-out pages: 0.925 against 0.924)
    "daniel": 0.941,  # measured 0.961 (0.960)
    "dragnet": 0.916,  # measured 0.937 (0.951; all 366 held-out pages: 0.930 against 0.934)
    "l3s_gn1": 0.953,  # measured 0.973 (0.964)
    "wcxb_dev": 0.922,  # measured 0.943 on the new split's first 40 held-out pages
    "zh_cwced": 0.882,  # measured 0.902 (0.899)
}


def sample_ids(name: str) -> list[str]:
    """The fixed held-out sample of dataset ``name``."""
    split = json.loads(SPLIT.read_text(encoding="utf-8"))
    return split["datasets"][name]["test"][:SAMPLE]


@pytest.fixture(scope="module")
def extractor():
    return pagesieve_extractor()


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_f1_floor(datasets_dir, extractor, name):
    folder = datasets_dir / name
    if not folder.is_dir():
        pytest.skip(f"dataset {name} not found under {datasets_dir}")
    result = evaluate(load_dataset(folder), extractor, sample_ids(name))
    assert result.failures == 0, f"{name}: {result.failures} page(s) failed: {result.first_error}"
    f1 = result.macro[2]
    assert f1 >= FLOORS[name], f"{name}: macro F1 {f1:.3f} fell below the floor {FLOORS[name]:.3f}"


# ``pagesieve-dev eval NAME --min-site-pages 5 --corrections 3`` (no history): macro F1 on the sites'
# pages the simulated user did not correct, when pinned, less MARGIN; and the median per-site F1.
CORRECTION_FLOORS = {
    "daniel": 0.945,  # measured 0.965 (0.941 with --corrections 0 on the same pages)
    "dragnet": 0.926,  # measured 0.946 (0.926 with --corrections 0)
}
SITE_MEDIAN_FLOOR = 0.97  # the bar: median per-site F1 >= 0.97 with 3 corrections per site


@pytest.mark.parametrize("name", sorted(CORRECTION_FLOORS))
def test_corrections_floor(datasets_dir, name):
    import argparse

    from pagesieve_dev.evaluation.selection import select_ids
    from pagesieve_dev.evaluation.sites import evaluate_corrections, site_f1_median

    folder = datasets_dir / name
    if not folder.is_dir():
        pytest.skip(f"dataset {name} not found under {datasets_dir}")
    ds = load_dataset(folder)
    split = json.loads(SPLIT.read_text(encoding="utf-8"))["datasets"]
    ids = select_ids(ds, split, min_site_pages=5)
    args = argparse.Namespace(corrections=3, correction_pages=None, templates=None, history=None, history_where=None)
    result, _scored = evaluate_corrections(ds, ids, args, None)
    assert result.failures == 0, result.first_error
    assert result.f1 >= CORRECTION_FLOORS[name], f"{name}: F1 {result.f1:.3f} with corrections fell below {CORRECTION_FLOORS[name]}"
    median, _sites = site_f1_median(result)
    assert median >= SITE_MEDIAN_FLOOR, f"{name}: median per-site F1 {median:.3f} < {SITE_MEDIAN_FLOOR}"


# ``pagesieve-dev eval NAME --min-site-pages 5 --history all``: macro F1 with each page's site learned
# from the site's other pages (issue 3's template library), when pinned, less MARGIN; and the
# least gain over the single-page answer on the same pages (half the gain measured when pinned).
# A change that breaks learning or the library's matching leaves single-page F1 as it was and
# fails here.
HISTORY_FLOORS = {
    "daniel": (0.937, 0.0025),  # measured 0.957 against 0.952 single page (2026-11-25, 260 pages; the
    # previous model: 0.957 against 0.941, its single-page answer weaker, so templates gained more)
}


@pytest.mark.parametrize("name", sorted(HISTORY_FLOORS))
def test_history_floor(datasets_dir, capsys, name):
    from pagesieve_dev.cli import main

    folder = datasets_dir / name
    if not folder.is_dir():
        pytest.skip(f"dataset {name} not found under {datasets_dir}")
    f1 = {}
    for history in ("all", None):
        extra = ["--history", history] if history else []
        assert main(["eval", str(folder), "--min-site-pages", "5", "--json", *extra]) == 0
        (row,) = json.loads(capsys.readouterr().out)["datasets"]
        assert row["failures"] == 0 and row["pages"] > 100, row
        f1[history] = row["f1"]
    floor, gain = HISTORY_FLOORS[name]
    assert f1["all"] >= floor, f"{name}: macro F1 {f1['all']:.3f} with history fell below the floor {floor:.3f}"
    assert f1["all"] - f1[None] >= gain, f"{name}: templates gained {f1['all'] - f1[None]:+.3f} over single page, less than {gain}"
