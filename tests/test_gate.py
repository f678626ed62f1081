"""pagesieve-dev gate: site-grouped folds of each dataset's per-page results, F1 with its
standard error, the mean over datasets, the worst, and the verdict against an earlier run
(dev/pagesieve_dev/evaluation/gate.py)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from pagesieve.errors import DatasetError
from pagesieve_dev.evaluation.datasets import Dataset, PageRecord
from pagesieve_dev.evaluation.gate import FoldedScore, folded_score, site_folds, summary, verdict
from pagesieve_dev.evaluation.results import EvalResult, PageResult


def _dataset(sites: list[str | None]) -> Dataset:
    rows = [PageRecord(f"p{i}", site, None, None, {}) for i, site in enumerate(sites)]
    return Dataset("made", Path("/nonexistent"), rows)


def test_folds_keep_each_site_whole_and_balance_pages():
    ds = _dataset(["a"] * 6 + ["b"] * 4 + ["c"] * 3 + ["d"] * 2 + [None] * 3)
    folds = site_folds(ds, ds.ids, 3)
    assert sorted(len(f) for f in folds) == [6, 6, 6]
    for site in "abcd":
        holding = [n for n, f in enumerate(folds) if any(ds.record(i).site == site for i in f)]
        assert len(holding) == 1
    assert site_folds(ds, ds.ids, 3) == folds  # the same on every run
    assert len(site_folds(_dataset(["a", "a", "b"]), ["p0", "p1", "p2"], 5)) == 2  # fewer groups than K
    with pytest.raises(DatasetError):
        site_folds(ds, ds.ids, 1)


def test_the_standard_error_is_the_sd_of_fold_means_over_root_k():
    ds = _dataset(["a", "a", "b", "b"])
    result = EvalResult("made", "pagesieve", [PageResult(f"p{i}", None, 0, 0, f1, 1.0) for i, f1 in enumerate([1.0, 0.8, 0.5, 0.3])])
    score = folded_score(result, ds, 2)
    assert sorted(score.folds) == pytest.approx([0.4, 0.9])
    assert score.f1 == pytest.approx(0.65)
    assert score.se == pytest.approx(math.sqrt(0.125) / math.sqrt(2))  # sd of (0.9, 0.4) is 0.354
    assert (score.pages, score.groups) == (4, 2)


def test_a_dataset_falling_by_more_than_its_se_refuses_a_change_that_lifts_the_mean():
    before = {"datasets": [{"name": "x", "extractors": {"pagesieve": {"f1": 0.90}}},
                           {"name": "y", "extractors": {"pagesieve": {"f1": 0.80}}}]}
    now = {"x": FoldedScore(0.95, 0.01, (), 10, 5), "y": FoldedScore(0.78, 0.01, (), 10, 5)}
    _rows, kept, why = verdict(now, before)
    assert not kept and "y fell" in why
    now["y"] = FoldedScore(0.795, 0.01, (), 10, 5)
    assert verdict(now, before)[1]
    assert summary(now) == {"mean": pytest.approx(0.8725), "mean_se": pytest.approx(math.sqrt(2e-4) / 2, abs=1e-6),
                            "worst": "y", "worst_f1": 0.795}
    with pytest.raises(DatasetError):
        verdict(now, {"rows": []})


def test_big9_folds_on_real_pages(datasets_dir):
    from pagesieve_dev.evaluation.datasets import load_dataset

    if not (datasets_dir / "big9").is_dir():
        pytest.skip("dataset big9 not found")
    ds = load_dataset(datasets_dir / "big9")
    folds = site_folds(ds, ds.ids, 5)
    assert sorted(len(f) for f in folds) == [40, 40, 40, 80, 80]  # 7 sites of 40 pages
    assert sorted(len({ds.record(i).site for i in f}) for f in folds) == [1, 1, 1, 2, 2]


def test_the_command_refuses_a_change_that_moves_nothing(datasets_dir, tmp_path, capsys):
    """The same code against its own report: the mean did not rise, so the verdict is no."""
    import json

    from pagesieve_dev.cli import main

    if not (datasets_dir / "big9").is_dir():
        pytest.skip("dataset big9 not found")
    assert main(["gate", str(datasets_dir / "big9"), "--limit", "6", "--folds", "3", "--json"]) == 0
    report = capsys.readouterr().out
    data = json.loads(report)
    assert data["datasets"][0]["extractors"]["pagesieve"]["pages"] == 6
    assert data["summary"]["pagesieve"]["worst"] == "big9"
    (tmp_path / "before.json").write_text(report)
    assert main(["gate", str(datasets_dir / "big9"), "--limit", "6", "--folds", "3", "--against", str(tmp_path / "before.json")]) == 1
    out = capsys.readouterr().out
    assert "big9" in out and "refused: the mean over datasets did not rise" in out
