"""The block classifier: an RBF-kernel SVM over :mod:`pagesieve.features`, then a context stage.

Stage 1, as in Yan & Wang 2020 (seed 000 §6): an SVM with a radial basis kernel, classes
balanced, C and gamma chosen by 10-fold cross-validation (see :mod:`pagesieve.training.train`).
The estimator is a scikit-learn ``Pipeline(StandardScaler, SVC)``; label 1 is main content.

Stage 2 (ours, optional in the file): a gradient-boosted tree model over
:mod:`pagesieve.context` features, i.e. each block's SVM decision seen together with its
neighbours' and its region's. On held-out pages it raised macro token F1 over the SVM alone
by 0.014 to 0.046 on five datasets and lowered it by under 0.01 on cleaneval and wcxb_dev
(``models/README.md`` has the table).

Model files are skops archives: loading checks every type in the file against an allow-list
and never unpickles arbitrary code. The feature list is stored beside the estimator, and a
model whose features differ from this version's :data:`~pagesieve.features.FEATURE_NAMES` is
refused with :class:`~pagesieve.errors.ModelError` instead of silently mis-classifying.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from pagesieve.errors import ModelError
from pagesieve.context import CONTEXT_FEATURE_NAMES, context_features
from pagesieve.features import FEATURE_NAMES

MODEL_FORMAT = 2
"""Version of the model file layout (estimator + ``meta`` dict)."""

SHIPPED_MODEL = Path(__file__).resolve().parent / "models" / "blocks.skops"
"""The default model, shipped inside the package (copied from ``models/`` at the repo root)."""

SURE_NOISE_DECISION = -2.0
"""SVM decision below which a block is noise without asking the context stage. On 300 held-out
pages (dragnet, wcxb_dev, l3s_gn1, daniel, big9) 44 % of the blocks fall below it, and the
context stage kept 274 of their characters out of 1.35 million kept in all: skipping them saves
almost half of the context stage's time for no measurable change in F1."""

DECISION_CHUNK = 256
"""Rows of the kernel matrix computed at once (256 x ~3,000 support vectors x 4 bytes = 3 MB)."""

FALLBACK_MARGIN = 0.15
"""Score distance from the best block within which blocks are kept when none passes the cut
(on wcxb_dev, pages whose best block scored just under the cut otherwise got an empty article)."""

_TRUSTED_PREFIXES = ("sklearn.", "numpy.", "scipy.", "builtins.")


@dataclass(slots=True)
class BlockClassifier:
    """A fitted block classifier and what it was trained on.

    Attributes:
        estimator: a fitted scikit-learn estimator with ``decision_function``.
        meta: training facts (feature names, data, CV scores, library versions).
        threshold: decision value from which a block is content (0 for the SVM margin), used
            when there is no context stage.
        context: the fitted stage-2 estimator (``predict_proba``) or ``None``.
        context_threshold: stage-2 probability above which a block is content.
    """

    estimator: object
    meta: dict
    threshold: float = 0.0
    context: object | None = None
    context_threshold: float = 0.5
    _rbf: tuple | None = None
    _hgb: tuple | None = None

    def __post_init__(self) -> None:
        self._rbf = _rbf_parts(self.estimator)
        self._hgb = _hgb_parts(self.context)

    def decision(self, x: np.ndarray) -> np.ndarray:
        """Signed distance to the SVM margin for each row of ``x`` (shape ``(n,)``); > 0 is content.

        For a ``Pipeline(StandardScaler, SVC(kernel="rbf"))`` the kernel expansion is computed
        here from one single-precision matrix product, as
        ``exp(-g|z|^2) * sum_i (alpha_i exp(-g|s_i|^2)) exp(2g z.s_i)`` (the factors of
        ``exp(-g|z - s|^2)``; the difference form is used where ``exp(2g z.s)`` would overflow):
        ``SVC.decision_function`` to within 0.01 on margins of a few units (the tests compare
        them), an order of magnitude faster than libsvm's per-pair loop on a page of a few
        hundred blocks (float64 was 3.6x slower than float32 here).
        """
        if len(x) == 0:
            return np.zeros(0)
        if self._rbf is None:
            return self.estimator.decision_function(x)
        mean, scale, sv_scaled_t, sv_weight, sv_t, sv_sq, dual, intercept, gamma = self._rbf
        z = (x - mean) / scale
        row_factor = np.exp(-gamma * (z * z).sum(axis=1))
        z32 = z.astype(np.float32)
        out = np.empty(len(z))
        # One BLAS thread: a page's product is small, and OpenBLAS threads spinning against
        # each other on a busy 2-core machine made it 4x slower (measured with the bench).
        # Rows go in chunks so that a page of 10,000 blocks needs a few MB, not a few hundred.
        with _blas_controller().limit(limits=1, user_api="blas"):
            for start in range(0, len(z), DECISION_CHUNK):
                part = z32[start:start + DECISION_CHUNK]
                g = part @ sv_scaled_t  # 2 gamma z.s
                if g.max(initial=0.0) < 80.0:
                    # exp(-gamma |z - s|^2) = exp(-gamma |z|^2) exp(-gamma |s|^2) exp(2 gamma z.s)
                    np.exp(g, out=g)
                    out[start:start + DECISION_CHUNK] = row_factor[start:start + DECISION_CHUNK] * (g @ sv_weight)
                else:  # exp(2 gamma z.s) would overflow float32: the difference form
                    d2 = (part * part).sum(axis=1)[:, None] + sv_sq[None, :] - 2.0 * (part @ sv_t)
                    np.maximum(d2, 0.0, out=d2)
                    np.multiply(d2, -gamma, out=d2)
                    np.exp(d2, out=d2)
                    out[start:start + DECISION_CHUNK] = d2 @ dual
        return out + intercept

    def _context_probability(self, z: np.ndarray) -> np.ndarray:
        """Stage-2 probability of content for each row of ``z``.

        For a binary ``HistGradientBoostingClassifier`` without categorical features, the trees
        are summed here through scikit-learn's compiled per-tree predictor, skipping the Python
        wrapper around each of the 200 calls (a third of the time on a typical page); the result
        equals ``predict_proba`` (the tests compare them). Any other estimator, or a
        scikit-learn without that function, goes through ``predict_proba``.
        """
        fast = self._hgb
        if fast is None:
            return self.context.predict_proba(z)[:, 1]
        predict_tree, trees, known, index_map, baseline = fast
        z = np.ascontiguousarray(z, dtype=np.float64)
        raw = np.full(len(z), baseline)
        part = np.empty(len(z))
        for nodes, left_bitsets in trees:
            predict_tree(nodes, z, left_bitsets, known, index_map, 1, part)
            raw += part
        return 1.0 / (1.0 + np.exp(-raw))

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Stage 1 alone: boolean array, True where a row of ``x`` is main content."""
        return self.decision(x) > self.threshold

    def classify(self, tree: tuple, candidates: list[int], x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Both stages for one page.

        Args:
            tree: ``(parent, chars, sub_chars)`` from :func:`pagesieve.context.tree_arrays`;
            candidates: the classified blocks; x: their feature rows ``(n, N_FEATURES)``.

        Returns:
            ``(keep, score)``: boolean ``(n,)``, and the score it was cut from (stage-2
            probability, 0 for blocks under :data:`SURE_NOISE_DECISION`; or the SVM decision
            without a context stage). When no block passes
            the cut, the blocks within :data:`FALLBACK_MARGIN` of the best score are kept: a
            reader asked for an article, and an empty one is never the better answer.
        """
        d = self.decision(x)
        if self.context is None or len(d) == 0:
            keep, score = d > self.threshold, d
        else:
            z = context_features(tree, candidates, x, d)
            score = np.zeros(len(d))
            judged = d >= SURE_NOISE_DECISION
            if judged.any():
                with _blas_controller().limit(limits=1):
                    score[judged] = self._context_probability(z[judged])
            keep = score > self.context_threshold
        if len(score) and not keep.any():
            keep = score >= score.max() - FALLBACK_MARGIN
        return keep, score


@lru_cache(maxsize=1)
def _blas_controller():
    """threadpoolctl's controller of the BLAS libraries loaded in this process (made once)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def _rbf_parts(estimator) -> tuple | None:
    """The arrays of a fitted ``Pipeline(StandardScaler, SVC(rbf))`` for :meth:`BlockClassifier.decision`,
    or ``None`` for any other estimator (then scikit-learn's own ``decision_function`` is used)."""
    steps = getattr(estimator, "named_steps", None)
    if not steps or set(steps) != {"scale", "svm"}:
        return None
    scaler, svm = steps["scale"], steps["svm"]
    if getattr(svm, "kernel", None) != "rbf" or len(getattr(svm, "classes_", ())) != 2:
        return None
    sv = np.asarray(svm.support_vectors_, dtype=np.float64)
    gamma = float(svm._gamma)
    dual = svm.dual_coef_[0]
    sv_sq = (sv * sv).sum(axis=1)
    mean = scaler.mean_ if scaler.with_mean else 0.0
    scale = scaler.scale_ if scaler.with_std else 1.0
    return (
        mean, scale,
        np.ascontiguousarray((2.0 * gamma * sv.T).astype(np.float32)),
        (np.exp(-gamma * sv_sq) * dual).astype(np.float32),
        np.ascontiguousarray(sv.T.astype(np.float32)), sv_sq.astype(np.float32), dual.astype(np.float32),
        float(svm.intercept_[0]), np.float32(gamma),
    )


def _hgb_parts(estimator) -> tuple | None:
    """What :meth:`BlockClassifier._context_probability` needs from a fitted binary
    ``HistGradientBoostingClassifier`` with no categorical features, or ``None``."""
    try:
        from sklearn.ensemble import HistGradientBoostingClassifier
        from sklearn.ensemble._hist_gradient_boosting._predictor import _predict_from_raw_data
    except ImportError:  # a scikit-learn that moved its private predictor
        return None
    if not isinstance(estimator, HistGradientBoostingClassifier) or len(estimator.classes_) != 2:
        return None
    if getattr(estimator, "is_categorical_", None) is not None:
        return None
    known, index_map = estimator._bin_mapper.make_known_categories_bitsets()
    trees = [(p[0].nodes, p[0].raw_left_cat_bitsets) for p in estimator._predictors]
    return (_predict_from_raw_data, trees, known, index_map, float(np.ravel(estimator._baseline_prediction)[0]))


def save_model(classifier: BlockClassifier, path: Path) -> None:
    """Write ``classifier`` to ``path`` as a skops archive, atomically (temp file + rename)."""
    import skops.io as sio

    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "format": MODEL_FORMAT,
        "estimator": classifier.estimator,
        "meta_json": json.dumps(classifier.meta, sort_keys=True),
        "threshold": float(classifier.threshold),
        "context": classifier.context,
        "context_threshold": float(classifier.context_threshold),
    }
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    os.close(fd)
    try:
        sio.dump(payload, tmp)
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; a model file is not a secret
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def load_model(path: Path | str | None = None) -> BlockClassifier:
    """Load a model written by :func:`save_model` (default: the shipped model).

    Raises:
        ModelError: the file is missing, is not a skops archive, holds a type outside
            scikit-learn/numpy/scipy, or was trained on other features.
    """
    import skops.io as sio

    path = Path(path) if path is not None else SHIPPED_MODEL
    if not path.is_file():
        raise ModelError(f"model file not found: {path} (run `pagesieve train` to build one)")
    try:
        untrusted = sio.get_untrusted_types(file=path)
        bad = [t for t in untrusted if not t.startswith(_TRUSTED_PREFIXES)]
        if bad:
            raise ModelError(f"model file {path} holds types outside scikit-learn/numpy/scipy: {bad[:3]}")
        payload = sio.load(path, trusted=untrusted)
    except ModelError:
        raise
    except Exception as exc:  # skops raises many types for a corrupt archive
        raise ModelError(f"model file {path} could not be read: {exc}") from exc
    if not isinstance(payload, dict) or payload.get("format") != MODEL_FORMAT:
        raise ModelError(f"model file {path} is not a pagesieve model of format {MODEL_FORMAT}")
    meta = json.loads(payload["meta_json"])
    if tuple(meta.get("features", ())) != FEATURE_NAMES or (
        payload.get("context") is not None and tuple(meta.get("context_features", ())) != CONTEXT_FEATURE_NAMES
    ):
        raise ModelError(f"model file {path} was trained on other features; retrain with `pagesieve train`")
    return BlockClassifier(
        estimator=payload["estimator"],
        meta=meta,
        threshold=float(payload.get("threshold", 0.0)),
        context=payload.get("context"),
        context_threshold=float(payload.get("context_threshold", 0.5)),
    )


@lru_cache(maxsize=1)
def default_model() -> BlockClassifier:
    """The shipped model, loaded once per process."""
    return load_model(SHIPPED_MODEL)
