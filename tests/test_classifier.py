"""The block classifier: fast decision = scikit-learn's, safe loading, reproducible training."""

from __future__ import annotations

import argparse
import json

import numpy as np
import pytest

from pagesieve.classifier import BlockClassifier, default_model, load_model, save_model
from pagesieve.errors import ModelError
from pagesieve.extract import analyse
from pagesieve.page.html import parse_html


@pytest.fixture(scope="module")
def model():
    return default_model()


@pytest.fixture(scope="module")
def example_rows(example_page):
    return analyse(parse_html(example_page.read_bytes())).features


def test_fast_decision_equals_scikit_learn(model, example_rows):
    ours = model.decision(example_rows)
    theirs = model.estimator.decision_function(example_rows)
    np.testing.assert_allclose(ours, theirs, atol=1e-2)  # single precision, see decision()
    assert ((ours > 0) == (theirs > 0)).mean() > 0.98


def test_fast_context_probability_equals_scikit_learn(model, example_page):
    from pagesieve.context import context_features, tree_arrays

    analysis = analyse(parse_html(example_page.read_bytes()))
    z = context_features(tree_arrays(analysis.blocks), analysis.candidates, analysis.features, model.decision(analysis.features))
    assert model._hgb is not None  # the fast path is in use for the shipped model
    np.testing.assert_allclose(model._context_probability(z), model.context.predict_proba(z)[:, 1], rtol=1e-9, atol=1e-12)


def test_shipped_model_is_rbf_svm_with_context_stage(model):
    svm = model.estimator.named_steps["svm"]
    assert svm.kernel == "rbf" and svm.class_weight == "balanced"
    assert model.context is not None
    cv = model.meta["cv"]
    assert cv["folds"] == 10 and {"C", "gamma"} <= set(cv["best"])


def test_save_and_load_round_trip(tmp_path, model, example_rows):
    path = tmp_path / "m.skops"
    save_model(model, path)
    again = load_model(path)
    np.testing.assert_allclose(again.decision(example_rows), model.decision(example_rows))
    assert again.context_threshold == model.context_threshold
    assert [p.name for p in tmp_path.iterdir()] == ["m.skops"]  # no temp file left behind
    assert path.stat().st_mode & 0o777 == 0o644


def test_model_trained_on_other_features_is_refused(tmp_path, model):
    meta = dict(model.meta, features=["r1", "r2"])
    path = tmp_path / "old.skops"
    save_model(BlockClassifier(estimator=model.estimator, meta=meta, context=model.context), path)
    with pytest.raises(ModelError, match="other features"):
        load_model(path)


def test_missing_and_corrupt_model_files(tmp_path):
    with pytest.raises(ModelError, match="not found"):
        load_model(tmp_path / "none.skops")
    bad = tmp_path / "bad.skops"
    bad.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(ModelError, match="could not be read"):
        load_model(bad)


def test_training_is_reproducible(tmp_path, datasets_dir):
    """`pagesieve train` on a small slice twice gives the same model and the same split."""
    from pagesieve.training import train

    def run(out):
        args = argparse.Namespace(
            datasets=datasets_dir, out=out, new_split=True, max_samples=600, cv_samples=300,
            folds=3, limit=4, seed=7, no_context=False, peers=None,
        )
        assert train.main(args) == 0
        return load_model(out / "blocks.skops"), json.loads((out / "split.json").read_text())

    (m1, s1), (m2, s2) = run(tmp_path / "a"), run(tmp_path / "b")
    assert s1 == s2
    rows = np.random.default_rng(0).normal(size=(20, len(m1.meta["features"])))
    np.testing.assert_array_equal(m1.decision(rows), m2.decision(rows))
    assert m1.meta["cv"]["best"] == m2.meta["cv"]["best"]


def test_fast_decision_on_extreme_rows_takes_the_safe_path(model):
    """Rows far outside the training range would overflow exp(2 g z.s) in float32."""
    rows = np.random.default_rng(1).normal(size=(300, len(model.meta["features"]))) * 50
    ours = model.decision(rows)
    assert np.isfinite(ours).all()
    np.testing.assert_allclose(ours, model.estimator.decision_function(rows), atol=1e-2)
