"""The block classifier: compiled arrays = scikit-learn's estimators, safe loading, no
scikit-learn at run time, reproducible training."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
import shutil
import subprocess
import sys

import numpy as np
import pytest

from pagesieve.classify.model_store import default_model
from pagesieve.classify.context import context_features, tree_arrays
from pagesieve.errors import ModelError
from pagesieve.extract import analyse, model_rows
from pagesieve.classify.model_store import (
    SHIPPED_MODEL, FittedModel, compiled_path, load_fitted, load_model, save_model,
)
from pagesieve.page.html import parse_html


@pytest.fixture(scope="module")
def model():
    return default_model()


@pytest.fixture(scope="module")
def fitted():
    return load_fitted(SHIPPED_MODEL)


@pytest.fixture(scope="module")
def example_analysis(example_page):
    return analyse(parse_html(example_page.read_bytes()))


@pytest.fixture(scope="module")
def example_rows(example_analysis):
    return example_analysis.features


def test_shipped_twin_was_compiled_from_the_shipped_archive(model, fitted, example_rows):
    """The .npz beside blocks.skops matches it: same hash (else load_model would have compiled
    the archive itself) and the same decisions."""
    import hashlib

    with np.load(compiled_path(SHIPPED_MODEL), allow_pickle=False) as data:
        assert str(data["source_sha256"]) == hashlib.sha256(SHIPPED_MODEL.read_bytes()).hexdigest()
    np.testing.assert_allclose(model.decision(example_rows), fitted.decision_function(example_rows), atol=1e-2)


def test_fast_decision_equals_scikit_learn(model, fitted, example_rows):
    """The compiled stage 1 (single precision) gives the decision of record: the reduced set's in
    float64 when the model has one (FittedModel.decision_function), else SVC.decision_function."""
    ours = model.decision(example_rows)
    theirs = fitted.decision_function(example_rows)
    np.testing.assert_allclose(ours, theirs, atol=1e-2)  # single precision, see SvmArrays.decision
    assert ((ours > 0) == (theirs > 0)).mean() > 0.98


def test_reduced_set_gives_the_full_svms_decisions(model, fitted, example_rows):
    """The shipped SVM runs on its reduced set (``pagesieve-dev reduce``): a quarter of the
    support vectors or fewer as centres, and on the example page's rows the full SVC's
    decisions to within 0.1, the same sign wherever the SVC is not within 0.05 of the cut."""
    from pagesieve.classify.model_store import compile_svm

    assert fitted.reduced is not None and "svm_reduced" in model.meta
    svm = fitted.estimator.named_steps["svm"]
    assert len(model.svm.support) == len(fitted.reduced["centres"]) <= len(svm.support_vectors_) // 4
    full = fitted.estimator.decision_function(example_rows)
    ours = model.decision(example_rows)
    np.testing.assert_allclose(ours, full, atol=0.1)
    clear = np.abs(full) > 0.05
    assert ((ours > 0) == (full > 0))[clear].all()
    whole = compile_svm(fitted.estimator)  # the full SVM still compiles, as before
    assert len(whole.support) == len(svm.support_vectors_)
    np.testing.assert_allclose(whole.decision(example_rows), full, atol=1e-2)


def test_reduce_svm_on_a_small_problem_round_trips(tmp_path, fitted):
    """reduce_svm on a synthetic two-class problem: far fewer centres, the same decisions to
    within a few hundredths, stored in the archive and in its twin."""
    from pagesieve_dev.training.reduce import reduce_svm
    from pagesieve_dev.training.train import svm_pipeline

    rng = np.random.default_rng(5)
    width = len(fitted.meta["svm_features"])
    x = rng.normal(size=(6000, width))
    y = (x[:, 0] + 0.5 * x[:, 1] ** 2 + rng.normal(scale=0.7, size=len(x)) > 0.5).astype(int)
    svm = svm_pipeline(10.0, 0.003).fit(x[:1500], y[:1500])
    n_sv = len(svm.named_steps["svm"].support_vectors_)
    reduced, info = reduce_svm(svm, x[1500:], centres=n_sv // 4, seed=1, fit_rows=3000, iterations=30)
    assert reduced["centres"].shape == (n_sv // 4, width) and info["check"]["rows"] == 1500
    assert info["check"]["mean_abs"] < 0.03  # k-means centres alone: 0.18; 10 iterations: 0.05
    made = FittedModel(svm, fitted.meta, fitted.threshold, fitted.context, fitted.context_threshold, fitted.page_type,
                       reduced)
    path = tmp_path / "m.skops"
    save_model(made, path)
    again = load_fitted(path)
    np.testing.assert_array_equal(again.reduced["beta"], reduced["beta"])
    rows = x[1500:1700]
    np.testing.assert_allclose(load_model(compiled_path(path)).decision(rows), made.decision_function(rows), atol=1e-3)
    np.testing.assert_allclose(made.decision_function(rows), svm.decision_function(rows), atol=0.1)
    with pytest.raises(ValueError):
        reduce_svm(svm, x[1500:], centres=n_sv)


def test_compiled_forest_equals_scikit_learn(model, fitted, example_analysis):
    a = example_analysis
    z = context_features(tree_arrays(a.blocks), a.candidates, model_rows(a, model), model.decision(a.features))
    assert len(z) > 20 and z.shape[1] == len(model.meta["context_features"])
    theirs = fitted.context.predict_proba(z)[:, 1]
    np.testing.assert_allclose(model.context.probability(z), theirs, rtol=1e-9, atol=1e-12)
    # missing values follow each node's learned direction, as in scikit-learn
    holes = z.copy()
    holes[::3, ::2] = np.nan
    np.testing.assert_allclose(model.context.probability(holes), fitted.context.predict_proba(holes)[:, 1], rtol=1e-9, atol=1e-12)


def test_compiled_forest_on_real_pages(model, fitted, datasets_dir):
    """Equal to predict_proba on every block of real pages (the sure-noise ones too), and on
    all their blocks at once (enough rows for the two-thread walk)."""
    from pagesieve.classify.classifier import FOREST_SPLIT_ROWS
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    dataset = load_dataset(datasets_dir / "dragnet")
    rows = []
    for page_id in dataset.ids[:5]:
        a = analyse(parse_html(read_page(dataset, page_id)))
        z = context_features(tree_arrays(a.blocks), a.candidates, model_rows(a, model), model.decision(a.features))
        np.testing.assert_allclose(model.context.probability(z), fitted.context.predict_proba(z)[:, 1], rtol=1e-9, atol=1e-12)
        rows.append(z)
    z = np.vstack(rows)
    assert len(z) >= FOREST_SPLIT_ROWS
    np.testing.assert_allclose(model.context.probability(z), fitted.context.predict_proba(z)[:, 1], rtol=1e-9, atol=1e-12)


def test_shipped_model_is_rbf_svm_with_context_stage(model, fitted):
    svm = fitted.estimator.named_steps["svm"]
    assert svm.kernel == "rbf" and svm.class_weight == "balanced"
    assert model.context is not None and fitted.context is not None
    cv = model.meta["cv"]
    # C and gamma from the 10-fold grouped grid search, or given with --svm (the grid's earlier choice)
    assert cv["folds"] == 10 or cv["scoring"].startswith("none: C and gamma given")
    assert {"C", "gamma"} <= set(cv["best"])


def test_extraction_does_not_import_scikit_learn(example_page):
    """The host runs on the compiled arrays: scikit-learn and skops stay out of the process."""
    code = (
        "import sys; from pagesieve.extract import extract; "
        f"a = extract(open({str(example_page)!r}, 'rb').read()); assert a.text; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'sklearn', 'skops', 'scipy'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_save_and_load_round_trip(tmp_path, model, fitted, example_rows):
    path = tmp_path / "m.skops"
    save_model(fitted, path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.npz", "m.skops"]  # no temp file left
    assert path.stat().st_mode & 0o777 == 0o644
    again = load_model(path)
    np.testing.assert_allclose(again.decision(example_rows), model.decision(example_rows))
    assert again.context_threshold == model.context_threshold
    assert again.type_thresholds == model.type_thresholds
    alone = load_model(compiled_path(path))  # the compiled file on its own
    np.testing.assert_allclose(alone.decision(example_rows), model.decision(example_rows))


def test_cut_per_page_type_round_trips_and_decides(tmp_path, fitted, example_analysis):
    """Cuts per predicted page type are stored in the archive and its twin, and a page is cut
    at its most probable type's cut: on the example page, a cut under every block's score keeps
    all the context stage judged, one above every score keeps only the sure blocks."""
    import dataclasses

    from pagesieve.classify.classifier import SURE_CONTENT_DECISION
    from pagesieve.classify.page_type import PAGE_TYPES

    made = dataclasses.replace(fitted, type_thresholds={"listing": 0.01, "product": 0.95})
    path = tmp_path / "m.skops"
    save_model(made, path)
    assert load_fitted(path).type_thresholds == {"listing": 0.01, "product": 0.95}
    for again in (load_model(path), load_model(compiled_path(path))):
        assert again.type_thresholds == {"listing": 0.01, "product": 0.95}
        listing, product, article = (np.eye(len(PAGE_TYPES))[PAGE_TYPES.index(t)] for t in ("listing", "product", "article"))
        assert again.cut_for(listing) == 0.01 and again.cut_for(product) == 0.95
        assert again.cut_for(article) == again.cut_for(None) == again.context_threshold
        a = example_analysis
        tree, rows = tree_arrays(a.blocks), model_rows(a, again)
        d, score = again.scores(tree, a.candidates, rows)
        low = again.verdict(tree, a.candidates, rows, listing)[0]
        high = again.verdict(tree, a.candidates, rows, product)[0]
        plain = again.verdict(tree, a.candidates, rows, article)[0]
        np.testing.assert_array_equal(low, (score > 0.01) | (d >= SURE_CONTENT_DECISION))
        np.testing.assert_array_equal(high, (score > 0.95) | (d >= SURE_CONTENT_DECISION))
        assert high.sum() <= plain.sum() < low.sum()  # the listing cut keeps blocks the article cut drops
    with pytest.raises(ModelError, match="page type"):
        save_model(dataclasses.replace(fitted, type_thresholds={"blog": 0.3}), tmp_path / "bad.skops")
    with pytest.raises(ModelError, match="page type"):
        save_model(dataclasses.replace(fitted, type_thresholds={"listing": 1.5}), tmp_path / "bad.skops")
    assert not (tmp_path / "bad.skops").exists()


def test_stale_or_broken_twin_is_not_used(tmp_path, fitted, example_rows):
    """A twin from another archive, or a damaged one, is ignored: the archive is compiled."""
    path = tmp_path / "m.skops"
    save_model(fitted, path)
    other = FittedModel(estimator=fitted.estimator, meta=fitted.meta, threshold=1.5, context=None)
    save_model(other, tmp_path / "other.skops")
    shutil.copy(tmp_path / "other.npz", compiled_path(path))  # twin of another archive
    assert load_model(path).context is not None and load_model(path).threshold == fitted.threshold
    compiled_path(path).write_bytes(b"garbage")
    assert load_model(path).context is not None
    with pytest.raises(ModelError, match="not a compiled"):
        load_model(compiled_path(path))


def test_model_trained_on_other_features_is_refused(tmp_path, fitted):
    meta = dict(fitted.meta, features=["r1", "r2"])
    path = tmp_path / "old.skops"
    save_model(FittedModel(estimator=fitted.estimator, meta=meta, context=fitted.context), path)
    with pytest.raises(ModelError, match="other features"):
        load_model(path)
    with pytest.raises(ModelError, match="other features"):
        load_fitted(path)


def test_unsupported_estimator_is_refused_before_writing(tmp_path, fitted):
    with pytest.raises(ModelError, match="Pipeline"):
        save_model(FittedModel(estimator=fitted.context, meta=fitted.meta), tmp_path / "x.skops")
    assert list(tmp_path.iterdir()) == []


def test_missing_and_corrupt_model_files(tmp_path):
    with pytest.raises(ModelError, match="not found"):
        load_model(tmp_path / "none.skops")
    bad = tmp_path / "bad.skops"
    bad.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(ModelError, match="could not be read"):
        load_model(bad)


def test_training_is_reproducible(tmp_path, datasets_dir):
    """`pagesieve-dev train` on a small slice twice gives the same model and the same split."""
    from pagesieve_dev.training import train

    def run(out, **given):
        args = argparse.Namespace(
            datasets=datasets_dir, out=out, new_split=True, max_samples=600, cv_samples=300,
            folds=3, limit=4, seed=7, no_context=False, peers=None, snapshots=None, **given,
        )
        assert train.main(args) == 0
        return load_model(out / "blocks.skops"), json.loads((out / "split.json").read_text())

    (m1, s1), (m2, s2) = run(tmp_path / "a"), run(tmp_path / "b")
    assert s1 == s2
    rows = np.random.default_rng(0).normal(size=(20, len(m1.meta["features"])))
    np.testing.assert_array_equal(m1.decision(rows), m2.decision(rows))
    assert m1.meta["cv"]["best"] == m2.meta["cv"]["best"]
    # --cut gives stage 2's main cut instead of choosing it; the figures of every cut stay
    chosen = m1.context_threshold
    given = 0.55 if chosen != 0.55 else 0.45
    m3, _ = run(tmp_path / "c", cut=given, svm=tuple(m1.meta["cv"]["best"].values()))
    assert m3.context_threshold == given and m3.meta["context"]["threshold_rule"] == "given (--cut)"
    assert m3.meta["context"]["oof_page_f1_by_threshold"] == m1.meta["context"]["oof_page_f1_by_threshold"]


def test_decision_of_a_large_page_in_two_threads_equals_one_thread(model, fitted, example_rows, monkeypatch):
    """From DECISION_SPLIT_ROWS rows half of the chunks run in a second thread: the same
    numbers as one thread, and scikit-learn's to within single precision. Rows: the example
    page's feature rows, repeated and jittered to the size of a large page."""
    import pagesieve.classify.classifier as classifier

    rng = np.random.default_rng(3)
    rows = np.repeat(example_rows, -(-1500 // len(example_rows)), axis=0)[:1500]
    rows = rows + rng.normal(scale=0.05, size=rows.shape) * rows.std(axis=0)
    assert len(rows) >= classifier.DECISION_SPLIT_ROWS
    split = model.decision(rows)
    monkeypatch.setattr(classifier, "DECISION_SPLIT_ROWS", 10**9)
    single = model.decision(rows)
    np.testing.assert_array_equal(split, single)
    np.testing.assert_allclose(split, fitted.decision_function(rows), atol=1e-2)


def test_fast_decision_on_extreme_rows_takes_the_safe_path(model, fitted):
    """Rows far outside the training range would overflow exp(2 g z.s) in float32."""
    rows = np.random.default_rng(1).normal(size=(300, len(model.meta.get("svm_features", model.meta["features"])))) * 50
    ours = model.decision(rows)
    assert np.isfinite(ours).all()
    np.testing.assert_allclose(ours, fitted.decision_function(rows), atol=1e-2)


def test_box_aware_model_trains_on_rendered_pages_and_reads_box_features(tmp_path, datasets_dir):
    """`pagesieve-dev render` then `pagesieve-dev train --snapshots`: a model whose rows carry the box
    features, used by extract_page for a page with layout."""
    import shutil

    import pytest

    from pagesieve_dev.evaluation.browser import CHROMIUM

    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed")
    pytest.importorskip("playwright.async_api")
    from pagesieve_dev.evaluation.render import load_rendered, render_dataset
    from pagesieve.extract import extract_page
    from pagesieve.blocks.layout import BOX_FEATURE_NAMES
    from pagesieve.page.snapshot import parse_snapshot
    from pagesieve_dev.training import train

    out = tmp_path / "model"
    out.mkdir()
    shutil.copy(Path(__file__).resolve().parents[1] / "models" / "split.json", out / "split.json")
    split = json.loads((out / "split.json").read_text())
    # a small dataset folder of the first training pages of dragnet, rendered
    source = datasets_dir / "dragnet"
    ids = split["datasets"]["dragnet"]["train"][:6]
    rows = [line for line in (source / "index.jsonl").read_text().splitlines() if json.loads(line)["id"] in ids]
    small = tmp_path / "datasets" / "dragnet"
    (small / "pages").mkdir(parents=True)
    (small / "truth").mkdir()
    (small / "index.jsonl").write_text("\n".join(rows) + "\n")
    for page_id in ids:
        shutil.copy(source / "pages" / f"{page_id}.html.gz", small / "pages")
        shutil.copy(source / "truth" / f"{page_id}.txt", small / "truth")
    assert render_dataset(small, tmp_path / "rendered" / "dragnet").rendered == len(ids)
    args = argparse.Namespace(
        datasets=tmp_path / "datasets", out=out, new_split=False, max_samples=600, cv_samples=300,
        folds=3, limit=6, seed=7, no_context=False, peers=None, snapshots=tmp_path / "rendered",
    )
    assert train.main(args) == 0
    model = load_model(out / "blocks-boxes.skops")
    from pagesieve.blocks.features import N_FEATURES

    # the box features follow the first-pass features (then any card or page-type columns)
    assert model.uses_boxes and model.meta["features"][N_FEATURES:N_FEATURES + len(BOX_FEATURE_NAMES)] == list(BOX_FEATURE_NAMES)
    assert model.meta["datasets"]["dragnet"]["pages"] == 6
    page = parse_snapshot(load_rendered(tmp_path / "rendered" / "dragnet", ids[0]))
    assert page.boxes and extract_page(page, model).text
    # eval-layout's table on these pages (scored as if held out): each column a real score,
    # box-free on the snapshot as extract_page gives it
    from pagesieve_dev.evaluation.layout_eval import COLUMNS, evaluate_layout
    from pagesieve_dev.evaluation.datasets import load_dataset, read_truth
    from pagesieve_dev.evaluation.metric import prf

    box_free = load_model()
    table = evaluate_layout(tmp_path / "rendered", small, {"dragnet": {"train": [], "test": ids}}, box_free, model)
    assert table["pages"] == 6 and table["not_rendered"] == 0
    assert table["lines"] is None and all(0 < table[c] <= 1 for c in COLUMNS if c != "lines")
    dataset = load_dataset(small)
    from pagesieve.article.text import blocks_text
    from pagesieve.extract import analyse, classify

    def judged_text(i):  # the kept blocks as the classifier judged them, header lines in place (as eval-layout scores)
        analysis = analyse(parse_snapshot(load_rendered(tmp_path / "rendered" / "dragnet", i)))
        return blocks_text(analysis.blocks, classify(analysis, box_free))

    expected = [prf(judged_text(i), read_truth(dataset, i))[2] for i in ids]
    assert table["box-free"] == pytest.approx(sum(expected) / len(expected), abs=1e-4)


def test_a_model_with_cards_and_page_type_round_trips_and_judges_a_page(tmp_path, fitted, example_page):
    """A model whose context stage reads the card columns and the page-type probabilities: the
    archive, its numpy twin and the in-memory compile agree, model_rows gives its columns, and
    extraction reads the raw page signals only for such a model."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    from pagesieve.classify.context import context_feature_names
    from pagesieve.extract import extract_page, model_rows
    from pagesieve.blocks.features import FEATURE_NAMES
    from pagesieve.classify.model_store import compile_model
    from pagesieve.classify.page_type import PAGE_TYPE_COLUMNS, PAGE_TYPES, fit_page_type
    from pagesieve.blocks.signals import CARD_COLUMNS, PAGE_SIGNALS

    features = FEATURE_NAMES + CARD_COLUMNS + PAGE_TYPE_COLUMNS
    rng = np.random.default_rng(3)
    width = len(context_feature_names(features))
    z = rng.normal(size=(400, width))
    context = HistGradientBoostingClassifier(max_iter=20, random_state=0).fit(z, (z[:, -3] > 0).astype(int))
    page_type = fit_page_type(rng.normal(size=(70, len(PAGE_SIGNALS))), [PAGE_TYPES[k % 7] for k in range(70)])
    meta = {**fitted.meta, "features": list(features), "context_features": list(context_feature_names(features))}
    made = FittedModel(fitted.estimator, meta, fitted.threshold, context, 0.5, page_type)
    path = tmp_path / "m.skops"
    save_model(made, path)
    twin, memory = load_model(compiled_path(path)), compile_model(load_fitted(path))
    assert twin.uses_cards and twin.page_type is not None
    page = parse_html(example_page.read_bytes())
    analysis = analyse(page)
    rows = model_rows(analysis, twin)
    assert rows.shape == (len(analysis.candidates), len(features))
    np.testing.assert_allclose(twin.page_type.probabilities(np.ones(len(PAGE_SIGNALS))),
                               memory.page_type.probabilities(np.ones(len(PAGE_SIGNALS))))
    tree = tree_arrays(analysis.blocks)
    np.testing.assert_allclose(twin.scores(tree, analysis.candidates, rows)[1], memory.scores(tree, analysis.candidates, rows)[1])
    article = extract_page(parse_html(example_page.read_bytes()), twin)
    assert article.text  # judged end to end with the new columns
    # a model without a page-type stage reads no raw signals; one with it does
    from pagesieve.extract import judge_page

    plain = compile_model(FittedModel(fitted.estimator, {**fitted.meta, "features": list(FEATURE_NAMES)}, fitted.threshold))
    assert judge_page(parse_html(example_page.read_bytes()), plain)[0].raw_signals is None
    assert judge_page(parse_html(example_page.read_bytes()), twin)[0].raw_signals is not None
    # a page-type model read on another number of page signals (an older version's) is refused,
    # from the archive and from its twin, rather than failing on the first page
    narrow = fit_page_type(rng.normal(size=(70, len(PAGE_SIGNALS) - 15)), [PAGE_TYPES[k % 7] for k in range(70)])
    old = tmp_path / "old.skops"
    save_model(FittedModel(fitted.estimator, meta, fitted.threshold, context, 0.5, narrow), old)
    with pytest.raises(ModelError, match="page signals"):
        load_fitted(old)
    with pytest.raises(ModelError, match="page signals"):
        load_model(compiled_path(old))


def test_type_cut_command_sets_and_removes_the_second_cut(tmp_path, example_analysis):
    """`pagesieve-dev type-cut` rewrites a model's archive, twin and training.json with the cut of
    the pages not taken for articles; the model's other arrays and its main cut stay; 0 removes it."""
    from pagesieve_dev.cli import main as dev_main

    for name in ("blocks.skops", "training.json"):
        shutil.copy(SHIPPED_MODEL.with_name(name), tmp_path / name)
    path = tmp_path / "blocks.skops"
    before = load_model(path)
    assert dev_main(["type-cut", "--model", str(path), "--others", "0.2", "--why", "a test"]) == 0
    for after in (load_model(path), load_model(compiled_path(path))):
        assert after.type_thresholds == {k: 0.2 for k in ("collection", "documentation", "forum", "listing", "product", "service")}
        assert after.context_threshold == before.context_threshold
        np.testing.assert_array_equal(after.context.value, before.context.value)
        np.testing.assert_array_equal(after.decision(model_rows(example_analysis, after)), before.decision(model_rows(example_analysis, before)))
    record = json.loads((tmp_path / "training.json").read_text())
    assert record["context"]["type_cut_given"]["why"] == "a test" and record["context"]["type_thresholds"]["listing"] == 0.2
    assert dev_main(["type-cut", "--model", str(path), "--others", "0.3", "--types", "collection,listing"]) == 0
    assert load_model(path).type_thresholds == {"collection": 0.3, "listing": 0.3}
    record = json.loads((tmp_path / "training.json").read_text())
    assert record["context"]["type_cut_given"]["types"] == ["collection", "listing"]
    assert "forum" in record["context"]["type_cut_given"]["own_cut_types"]
    # a third cut, for the pages taken for articles, over the second
    assert dev_main(["type-cut", "--model", str(path), "--others", "0.3", "--types", "collection,listing",
                     "--cut", "article=0.45"]) == 0
    assert load_model(path).type_thresholds == load_model(compiled_path(path)).type_thresholds == {
        "article": 0.45, "collection": 0.3, "listing": 0.3}
    given = json.loads((tmp_path / "training.json").read_text())["context"]["type_cut_given"]
    assert given["cuts"] == {"article": 0.45} and "article" not in given["own_cut_types"] and "forum" in given["own_cut_types"]
    for bad in ("article", "article=1.5", "blog=0.3", "article=x"):
        with pytest.raises(SystemExit):
            dev_main(["type-cut", "--model", str(path), "--others", "0.3", "--cut", bad])
    assert dev_main(["type-cut", "--model", str(path), "--others", "0"]) == 0
    assert load_model(path).type_thresholds == {}
    assert dev_main(["type-cut", "--model", str(path), "--others", "1.5"]) != 0
    with pytest.raises(SystemExit):  # argparse refuses a page type it does not know
        dev_main(["type-cut", "--model", str(path), "--others", "0.3", "--types", "blog"])
