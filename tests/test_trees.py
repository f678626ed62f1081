"""The compiled walk of the context stage's trees (pagesieve.classify._trees) gives the numpy
walk's leaves, so the same probabilities to the bit, on real pages, with missing values and in two
threads; it refuses buffers it cannot read safely; PAGESIEVE_PURE_PYTHON turns it off."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from pagesieve.classify import classifier
from pagesieve.classify.classifier import FOREST_SPLIT_ROWS, PURE_PYTHON_ENV
from pagesieve.classify.context import context_features, tree_arrays
from pagesieve.classify.model_store import default_model
from pagesieve.extract import analyse, model_rows
from pagesieve.page.html import parse_html

trees = pytest.importorskip("pagesieve.classify._trees", reason="the compiled walk is not built here "
                            "(no C compiler when the package was installed; build it with `pip install -e .`)")

#: Pages a dataset gives to the comparison (the first ones of each of the eight shared datasets).
PAGES_PER_DATASET = 6


@pytest.fixture(scope="module")
def forest():
    model = default_model()
    assert model.context is not None
    return model


def _context_rows(model, html: bytes) -> np.ndarray:
    """The context stage's rows of every block of a page, ``(n, width)`` float64."""
    a = analyse(parse_html(html))
    return context_features(tree_arrays(a.blocks), a.candidates, model_rows(a, model), model.decision(a.features))


@pytest.fixture(scope="module")
def page_rows(forest, datasets_dir):
    """The context rows of the first :data:`PAGES_PER_DATASET` pages of every shared dataset."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    out = []
    for folder in sorted(datasets_dir.iterdir()):
        if not (folder / "index.jsonl").is_file():
            continue
        dataset = load_dataset(folder)
        for record in dataset.rows[:PAGES_PER_DATASET]:
            z = _context_rows(forest, read_page(dataset, record.id))
            if len(z):
                out.append((f"{dataset.name}/{record.id}", z))
    assert len(out) >= 20
    return out


def _compiled(f, z: np.ndarray) -> np.ndarray:
    out = np.empty((len(z), len(f.roots)), dtype=np.intp)
    trees.leaves(np.ascontiguousarray(z, dtype=np.float64), f.feature, f.threshold, f.missing_left, f.children,
                 f.roots, f.active, out)
    return out


def _both(f, z: np.ndarray, monkeypatch, method: str = "_probability") -> tuple[np.ndarray, np.ndarray]:
    """``f.<method>(z)`` with the compiled walk, then with the numpy walk."""
    assert classifier._compiled_leaves is not None
    with_c = getattr(f, method)(z)
    monkeypatch.setattr(classifier, "_compiled_leaves", None)
    with_numpy = getattr(f, method)(z)
    monkeypatch.undo()
    return with_c, with_numpy


def _with_holes(z: np.ndarray, seed: int) -> np.ndarray:
    """``z`` with about a fifth of its values missing (NaN), and one row missing them all."""
    rng = np.random.default_rng(seed)
    holes = z.copy()
    holes[rng.random(z.shape) < 0.2] = np.nan
    holes[len(z) // 2] = np.nan
    return holes


def test_the_compiled_leaves_are_numpys_on_real_pages(forest, page_rows, monkeypatch):
    f = forest.context
    for name, z in page_rows:
        for rows in (z, _with_holes(z, len(z))):
            assert np.array_equal(_compiled(f, rows), f._leaves_numpy(np.ascontiguousarray(rows))), name
            with_c, with_numpy = _both(f, rows, monkeypatch)
            assert with_c.dtype == with_numpy.dtype and with_c.tobytes() == with_numpy.tobytes(), name


def test_the_two_thread_walk_gives_the_same_bytes(forest, page_rows, monkeypatch):
    """From FOREST_SPLIT_ROWS rows both halves walk at once (the compiled walk without the GIL)."""
    f = forest.context
    z = np.vstack([z for _name, z in page_rows])
    assert len(z) >= 2 * FOREST_SPLIT_ROWS
    for rows in (z, _with_holes(z, 7)):
        with_c, with_numpy = _both(f, rows, monkeypatch, "probability")
        assert with_c.tobytes() == with_numpy.tobytes()
        assert with_c.tobytes() == f._probability(rows).tobytes()  # the halves, as one walk


def test_the_example_page_without_the_datasets(forest, example_page, monkeypatch):
    f = forest.context
    z = _context_rows(forest, example_page.read_bytes())
    assert len(z) > 20
    for rows in (z, _with_holes(z, 1), z[:1], z[:0]):
        with_c, with_numpy = _both(f, rows, monkeypatch)
        assert with_c.tobytes() == with_numpy.tobytes()
        if len(rows):
            assert np.array_equal(_compiled(f, rows), f._leaves_numpy(np.ascontiguousarray(rows)))


def _random_forest(rng, n_trees: int, width: int) -> classifier.ForestArrays:
    """A forest of random trees (up to 7 levels), laid out as compile_forest lays scikit-learn's:
    thresholds from a few values, +-inf and 0 among them, so ties and infinities are met."""
    feature, threshold, missing_left, children, value, roots, depths = [], [], [], [], [], [], []
    for _ in range(n_trees):
        root = len(feature)
        pending, deepest = [(root, 0)], 0
        feature.append(0), threshold.append(0.0), missing_left.append(False), children.extend([0, 0]), value.append(0.0)
        while pending:
            node, depth = pending.pop()
            deepest = max(deepest, depth)
            if depth >= 7 or (depth > 0 and rng.random() < 0.3):  # a leaf: its own children, +inf
                feature[node], threshold[node], value[node] = 0, np.inf, float(rng.normal())
                children[2 * node: 2 * node + 2] = [node, node]
                missing_left[node] = bool(rng.random() < 0.5)
                continue
            feature[node] = int(rng.integers(width))
            threshold[node] = float(rng.choice([-np.inf, -1.0, -0.0, 0.0, 0.5, 1.0, np.inf]))
            missing_left[node] = bool(rng.random() < 0.5)
            for side in (0, 1):
                child = len(feature)
                feature.append(0), threshold.append(0.0), missing_left.append(False), children.extend([0, 0]), value.append(0.0)
                children[2 * node + side] = child
                pending.append((child, depth + 1))
        roots.append(root), depths.append(deepest)
    order = np.argsort(-np.array(depths), kind="stable")
    depth = np.array(depths)
    return classifier.ForestArrays(
        feature=np.array(feature), threshold=np.array(threshold), missing_left=np.array(missing_left),
        children=np.array(children), value=np.array(value), roots=np.array(roots)[order],
        active=np.array([int((depth > s).sum()) for s in range(max(int(depth.max()), 1))]), baseline=0.25)


@pytest.mark.parametrize("seed", range(20))
def test_random_forests_with_ties_infinities_and_holes(seed, monkeypatch):
    """Values on a threshold go left, NaN goes where the node says, +-inf compare as numbers."""
    rng = np.random.default_rng(seed)
    width = int(rng.integers(1, 6))
    f = _random_forest(rng, int(rng.integers(1, 12)), width)
    z = rng.choice([-np.inf, -1.0, -0.0, 0.0, 0.25, 0.5, 1.0, 2.0, np.inf, np.nan], size=(int(rng.integers(1, 60)), width))
    assert np.array_equal(_compiled(f, z), f._leaves_numpy(z))
    with_c, with_numpy = _both(f, z, monkeypatch)
    assert with_c.tobytes() == with_numpy.tobytes()


def _arrays(f, z):
    """The arguments of ``leaves`` for ``z``, as a dict (the order of the call)."""
    return {"z": np.ascontiguousarray(z, dtype=np.float64), "feature": f.feature, "threshold": f.threshold,
            "missing_left": f.missing_left, "children": f.children, "roots": f.roots, "active": f.active,
            "out": np.empty((len(z), len(f.roots)), dtype=np.intp)}


@pytest.mark.parametrize("change, message", [
    (lambda a: {"z": a["z"].astype(np.float32)}, "z: expected 2 dimension"),
    (lambda a: {"z": np.asfortranarray(a["z"])}, "z: not a C-contiguous"),
    (lambda a: {"z": a["z"][:, ::2]}, "z: not a C-contiguous"),
    (lambda a: {"z": a["z"].ravel()}, "z: expected 2 dimension"),
    (lambda a: {"z": [[0.0] * 96]}, "z: not a C-contiguous"),
    (lambda a: {"feature": a["feature"].astype(np.int32)}, "feature: expected 1 dimension"),
    (lambda a: {"feature": a["feature"][:-1]}, "differ in length"),
    (lambda a: {"children": a["children"][:-2]}, "differ in length"),
    (lambda a: {"missing_left": a["missing_left"].astype(np.int64)}, "missing_left: expected"),
    (lambda a: {"missing_left": a["missing_left"].astype(np.uint8)}, "missing_left: expected"),
    (lambda a: {"threshold": a["threshold"].astype(np.float32)}, "threshold: expected"),
    (lambda a: {"out": a["out"][:-1]}, "out: expected shape"),
    (lambda a: {"out": a["out"][:, :-1]}, "out: not a C-contiguous"),
    (lambda a: {"out": a["out"].astype(np.int32)}, "out: expected 2 dimension"),
    (lambda a: {"out": np.frombuffer(bytes(a["out"].nbytes), dtype=np.intp).reshape(a["out"].shape)}, "out: not a C-contiguous writable"),
    (lambda a: {"roots": a["roots"] + len(a["feature"])}, "node number"),
    (lambda a: {"roots": a["roots"] - 10**6}, "node number"),
    (lambda a: {"children": np.where(np.arange(len(a["children"])) == 1, -5, a["children"])}, "node number -5"),
    (lambda a: {"children": a["children"] * 1000 + 1000}, "node number"),
    (lambda a: {"feature": a["feature"] + 96}, "feature number"),
    (lambda a: {"z": a["z"][:, :10].copy()}, "feature number"),
])
def test_bad_buffers_raise_value_error(forest, example_page, change, message):
    """Every array is checked (kind, dimensions, lengths) and every node and feature number the
    walk follows, so no call reads or writes out of bounds."""
    z = _context_rows(forest, example_page.read_bytes())
    assert z.shape[1] == 96
    a = _arrays(forest.context, z)
    a.update(change(a))
    with pytest.raises(ValueError, match=message):
        trees.leaves(*a.values())


def test_the_environment_variable_chooses_the_numpy_walk():
    """PAGESIEVE_PURE_PYTHON set (not empty, not 0) when the classifier is imported: numpy walks."""
    probe = "import pagesieve.classify.classifier as c; print(c._compiled_leaves is None)"
    env = {k: v for k, v in os.environ.items() if k != PURE_PYTHON_ENV}
    for value, numpy_walk in ((None, "False"), ("", "False"), ("0", "False"), ("1", "True"), ("yes", "True")):
        run_env = env if value is None else {**env, PURE_PYTHON_ENV: value}
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=run_env, timeout=120)
        assert done.stdout.strip() == numpy_walk, (value, done.stderr)
