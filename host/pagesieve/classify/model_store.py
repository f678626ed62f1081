"""Model files: the skops archive of record, and the compiled arrays the host runs on.

A model is stored twice, side by side, always written together by :func:`save_model`:

- ``NAME.skops``: the fitted scikit-learn estimators (:class:`FittedModel`) in a skops archive.
  Loading checks every type in it against an allow-list; no pickle, no code runs. Training,
  tests and inspection use it.
- ``NAME.npz``: the same model compiled to plain numpy arrays (:func:`compile_model`), read with
  ``allow_pickle=False`` (so no code can run either), with the SHA-256 of the ``.skops`` file it
  came from. The host loads only this file: it needs neither scikit-learn nor skops, which
  together cost about 100 MB of memory and over a second of start-up.

:func:`load_model` falls back to compiling the ``.skops`` archive in memory when the ``.npz`` is
missing or belongs to another archive (a model copied without its twin, or an archive replaced
by hand), so a stale compiled file is never used.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from pagesieve.classify.classifier import BlockClassifier, ForestArrays, SvmArrays
from pagesieve.classify.context import context_feature_names
from pagesieve.errors import ModelError
from pagesieve.blocks.features import FEATURE_NAMES
from pagesieve.blocks.layout import BOX_FEATURE_NAMES
from pagesieve.classify.page_type import PAGE_TYPE_COLUMNS, PAGE_TYPES, PageTypeArrays, compile_page_type
from pagesieve.blocks.signals import CARD_COLUMNS, PAGE_SIGNALS

MODEL_FORMAT = 2
"""Version of the skops archive layout (estimator + ``meta`` dict)."""

COMPILED_FORMAT = 1
"""Version of the compiled ``.npz`` layout."""

SHIPPED_MODEL = Path(__file__).resolve().parents[1] / "models" / "blocks.skops"
"""The default model, shipped inside the package (``models/`` at the repo root)."""

BOX_MODEL = SHIPPED_MODEL.with_name("blocks-boxes.skops")
"""The box-aware model (:mod:`pagesieve.blocks.layout` features added), for pages with a rendered
layout (browser snapshots); trained on rendered dataset pages (``pagesieve-dev train --snapshots``).
Pages without layout always use :data:`SHIPPED_MODEL`."""

FEATURE_SETS = tuple(
    FEATURE_NAMES + boxes + cards + types
    for boxes in ((), BOX_FEATURE_NAMES) for cards in ((), CARD_COLUMNS) for types in ((), PAGE_TYPE_COLUMNS)
)
"""The columns a model may be trained on: the first-pass features, then optionally the box
features (box-aware), the card columns and the page-type probabilities, in that order (the SVM
reads the first-pass features only; the context stage reads them all)."""

FEATURE_SET_VERSION = hashlib.sha256(json.dumps([FEATURE_SETS[-1], PAGE_SIGNALS]).encode("utf-8")).hexdigest()[:12]
"""The version of the features this code makes: the first 12 hex digits of the SHA-256 of the
names of every model column (:data:`FEATURE_SETS`, the widest) and of the page signals
(:data:`~pagesieve.blocks.signals.PAGE_SIGNALS`), so that any column added, removed or renamed
changes it. A personal model is stamped with it (``meta["feature_set"]``,
:mod:`pagesieve.corrections.personal`) and rebuilt from the user's labels when it differs."""

_TRUSTED_PREFIXES = ("sklearn.", "numpy.", "scipy.", "builtins.")


@dataclass(slots=True)
class FittedModel:
    """The scikit-learn form of a model, as trained and as kept in the skops archive.

    Attributes:
        estimator: fitted ``Pipeline(StandardScaler, SVC(kernel="rbf"))`` with steps named
            ``scale`` and ``svm``. meta: training facts (JSON-able). threshold: SVM cut without a
            context stage. context: fitted binary ``HistGradientBoostingClassifier`` or ``None``.
        context_threshold: its probability cut. page_type: fitted page-type pipeline
        (:func:`pagesieve.classify.page_type.fit_page_type`) or ``None``.
        reduced: the SVM's reduced set or ``None``: ``{"centres": (m, n_features) scaled-space
            centres, "beta": (m,) weights, "intercept": ()}`` (float64 arrays), fitted by
            ``pagesieve-dev reduce`` (:mod:`pagesieve_dev.training.reduce`) to give the SVM's
            decisions from fewer kernel centres. With one, the host runs on it (same gamma);
            ``estimator`` stays the model of record.
        type_thresholds: stage 2's cut per predicted page type
            (:attr:`pagesieve.classify.classifier.BlockClassifier.type_thresholds`); empty: one cut.
    """

    estimator: object
    meta: dict
    threshold: float = 0.0
    context: object | None = None
    context_threshold: float = 0.5
    page_type: object | None = None
    reduced: dict | None = None
    type_thresholds: dict[str, float] = field(default_factory=dict)

    def decision_function(self, x: np.ndarray) -> np.ndarray:
        """Stage 1's decision of record for each row of ``x`` (``(n, n_features)`` -> ``(n,)``),
        in float64: the reduced set's when there is one (what :class:`SvmArrays` computes in
        single precision), else ``SVC.decision_function`` of :attr:`estimator`."""
        if self.reduced is None:
            return self.estimator.decision_function(x)
        return reduced_decision(self.estimator, self.reduced, x)


def compiled_path(path: Path) -> Path:
    """Where the compiled twin of the archive ``path`` lives (``NAME.skops`` -> ``NAME.npz``)."""
    return path.with_suffix(".npz")


def reduced_decision(estimator, reduced: dict, x: np.ndarray) -> np.ndarray:
    """The decision of the reduced set ``reduced`` (:attr:`FittedModel.reduced`) of the fitted
    ``Pipeline(StandardScaler, SVC(rbf))`` ``estimator``, in float64, for each row of ``x``
    (``(n, n_features)`` -> ``(n,)``): ``sum_j beta_j exp(-gamma |z - c_j|^2) + intercept`` with
    ``z`` the scaled row (Burges 1996, eq. 2)."""
    z = estimator.named_steps["scale"].transform(np.asarray(x, dtype=np.float64))
    centres, beta = np.asarray(reduced["centres"], dtype=np.float64), np.asarray(reduced["beta"], dtype=np.float64)
    gamma = float(estimator.named_steps["svm"]._gamma)
    out = np.empty(len(z))
    for start in range(0, len(z), 4096):
        part = z[start:start + 4096]
        d2 = (part * part).sum(axis=1)[:, None] + (centres * centres).sum(axis=1)[None, :] - 2.0 * part @ centres.T
        out[start:start + 4096] = np.exp(-gamma * np.maximum(d2, 0.0)) @ beta
    return out + float(reduced["intercept"])


def compile_svm(estimator, reduced: dict | None = None) -> SvmArrays:
    """:class:`SvmArrays` of a fitted ``Pipeline(scale=StandardScaler, svm=SVC(rbf))`` with two
    classes; with ``reduced`` (:attr:`FittedModel.reduced`), its centres take the place of the
    support vectors and its weights and intercept those of the dual coefficients and bias.

    Raises:
        ModelError: any other estimator, or a reduced set whose shapes do not fit it.
    """
    steps = getattr(estimator, "named_steps", None)
    if not steps or set(steps) != {"scale", "svm"}:
        raise ModelError("stage 1 must be a Pipeline of steps 'scale' (StandardScaler) and 'svm' (SVC)")
    scaler, svm = steps["scale"], steps["svm"]
    if getattr(svm, "kernel", None) != "rbf" or len(getattr(svm, "classes_", ())) != 2:
        raise ModelError("stage 1 must be a two-class SVC with the RBF kernel")
    n = svm.support_vectors_.shape[1]
    if reduced is not None:
        centres = np.ascontiguousarray(reduced["centres"], dtype=np.float64)
        beta = np.asarray(reduced["beta"], dtype=np.float64)
        if centres.ndim != 2 or centres.shape[1] != n or beta.shape != (len(centres),):
            raise ModelError(f"the SVM's reduced set must be (m, {n}) centres and (m,) weights")
        return SvmArrays(
            mean=np.asarray(scaler.mean_ if scaler.with_mean else np.zeros(n), dtype=np.float64),
            scale=np.asarray(scaler.scale_ if scaler.with_std else np.ones(n), dtype=np.float64),
            support=centres, dual=beta, intercept=float(reduced["intercept"]), gamma=float(svm._gamma),
        )
    return SvmArrays(
        mean=np.asarray(scaler.mean_ if scaler.with_mean else np.zeros(n), dtype=np.float64),
        scale=np.asarray(scaler.scale_ if scaler.with_std else np.ones(n), dtype=np.float64),
        support=np.ascontiguousarray(svm.support_vectors_, dtype=np.float64),
        dual=np.asarray(svm.dual_coef_[0], dtype=np.float64),
        intercept=float(svm.intercept_[0]),
        gamma=float(svm._gamma),
    )


def compile_forest(estimator) -> ForestArrays:
    """:class:`ForestArrays` of a fitted binary ``HistGradientBoostingClassifier`` without
    categorical features (read from its ``_predictors`` node records).

    Raises:
        ModelError: another estimator, more than two classes, or categorical features.
    """
    predictors = getattr(estimator, "_predictors", None)
    if predictors is None or len(getattr(estimator, "classes_", ())) != 2:
        raise ModelError("stage 2 must be a fitted two-class HistGradientBoostingClassifier")
    if getattr(estimator, "is_categorical_", None) is not None:
        raise ModelError("stage 2 must not use categorical features")
    trees = [p[0].nodes for p in predictors]
    sizes = np.array([len(t) for t in trees])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    nodes = np.concatenate(trees)
    leaf = nodes["is_leaf"].astype(bool)
    own = np.arange(len(nodes))
    offset = np.repeat(starts, sizes)
    left = np.where(leaf, own, nodes["left"].astype(np.int64) + offset)
    right = np.where(leaf, own, nodes["right"].astype(np.int64) + offset)
    depth = np.array([int(t["depth"].max()) for t in trees])
    order = np.argsort(-depth, kind="stable")
    return ForestArrays(
        feature=np.where(leaf, 0, nodes["feature_idx"]).astype(np.intp),
        threshold=np.where(leaf, np.inf, nodes["num_threshold"]).astype(np.float64),
        missing_left=nodes["missing_go_to_left"].astype(bool),
        children=np.stack([left, right], axis=1).ravel().astype(np.intp),
        value=nodes["value"].astype(np.float64),
        roots=starts[order].astype(np.intp),
        active=np.array([int((depth > s).sum()) for s in range(int(depth.max()))], dtype=np.intp),
        baseline=float(np.ravel(estimator._baseline_prediction)[0]),
    )


def compile_model(fitted: FittedModel) -> BlockClassifier:
    """The run-time :class:`BlockClassifier` of ``fitted`` (no scikit-learn needed to run it)."""
    return BlockClassifier(
        svm=compile_svm(fitted.estimator, fitted.reduced),
        meta=fitted.meta,
        threshold=float(fitted.threshold),
        context=compile_forest(fitted.context) if fitted.context is not None else None,
        context_threshold=float(fitted.context_threshold),
        page_type=compile_page_type(fitted.page_type) if fitted.page_type is not None else None,
        type_thresholds=_type_thresholds(fitted.type_thresholds),
    )


def _type_thresholds(value) -> dict[str, float]:
    """``{page type: cut}`` checked: names of :data:`~pagesieve.classify.page_type.PAGE_TYPES`,
    cuts in (0, 1).

    Raises:
        ModelError: another name or a cut outside (0, 1).
    """
    out = {str(k): float(v) for k, v in dict(value or {}).items()}
    bad = [k for k, v in out.items() if k not in PAGE_TYPES or not 0.0 < v < 1.0]
    if bad:
        raise ModelError(f"per-page-type cuts must name a page type ({', '.join(PAGE_TYPES)}) and lie in (0, 1): {bad[:3]}")
    return out


def atomic_write(path: Path, write) -> None:
    """Call ``write(file)`` on a temporary binary file beside ``path``, then rename it over
    ``path`` (mode 0644): a reader sees the old file or the new one, never half of one. Used for
    the model files and ``pagesieve-dev type-cut``'s ``training.json``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; a model file is not a secret
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def save_model(fitted: FittedModel, path: Path) -> None:
    """Write ``fitted`` to ``path`` (skops archive) and its compiled twin (:func:`compiled_path`),
    each atomically (temporary file + rename); the archive first, so a crash in between leaves a
    twin whose hash does not match, which :func:`load_model` ignores.

    Raises:
        ModelError: the estimators cannot be compiled (see :func:`compile_model`).
    """
    import skops.io as sio

    compiled = compile_model(fitted)  # fail before writing anything
    payload = {
        "format": MODEL_FORMAT,
        "estimator": fitted.estimator,
        "meta_json": json.dumps(fitted.meta, sort_keys=True),
        "threshold": float(fitted.threshold),
        "context": fitted.context,
        "context_threshold": float(fitted.context_threshold),
        "page_type": fitted.page_type,
        "reduced": fitted.reduced,
        "type_thresholds_json": json.dumps(compiled.type_thresholds, sort_keys=True),
    }
    atomic_write(path, lambda handle: handle.write(sio.dumps(payload)))
    atomic_write(compiled_path(path), lambda handle: _write_compiled(handle, compiled, _sha256(path)))


def write_compiled(path: Path) -> Path:
    """Compile the skops archive ``path`` and write its twin (atomically); returns the twin's path.

    Raises:
        ModelError: as :func:`load_fitted` and :func:`compile_model`.
    """
    path = Path(path)
    compiled = compile_model(load_fitted(path))
    twin = compiled_path(path)
    atomic_write(twin, lambda handle: _write_compiled(handle, compiled, _sha256(path)))
    return twin


def _write_compiled(handle, model: BlockClassifier, source_sha256: str) -> None:
    arrays = {
        "format": np.array(COMPILED_FORMAT),
        "source_sha256": np.array(source_sha256),
        "meta_json": np.array(json.dumps(model.meta, sort_keys=True)),
        "threshold": np.array(model.threshold),
        "context_threshold": np.array(model.context_threshold),
        "type_thresholds_json": np.array(json.dumps(model.type_thresholds, sort_keys=True)),
        "svm_mean": model.svm.mean, "svm_scale": model.svm.scale, "svm_support": model.svm.support,
        "svm_dual": model.svm.dual, "svm_intercept": np.array(model.svm.intercept),
        "svm_gamma": np.array(model.svm.gamma),
    }
    if model.context is not None:
        forest = model.context
        for name in ("feature", "threshold", "missing_left", "children", "value", "roots", "active"):
            arrays[f"forest_{name}"] = getattr(forest, name)
        arrays["forest_baseline"] = np.array(forest.baseline)
    if model.page_type is not None:
        kind = model.page_type
        arrays.update(type_mean=kind.mean, type_scale=kind.scale, type_coef=kind.coef, type_intercept=kind.intercept,
                      type_classes=np.array(kind.classes))
    np.savez(handle, **arrays)


def _check_features(meta: dict, has_context: bool, path: Path, has_page_type: bool = False,
                    page_signals: int | None = None) -> None:
    """Raise :class:`ModelError` unless the model's features are this code's: a known first-pass
    set, the context stage's columns, and a page-type model read on ``page_signals`` signals
    (the width of its standardisation) equal to :data:`~pagesieve.blocks.signals.PAGE_SIGNALS`."""
    features = tuple(meta.get("features", ()))
    if features not in FEATURE_SETS or (
        has_context and tuple(meta.get("context_features", ())) != context_feature_names(features)
    ) or has_page_type != (PAGE_TYPE_COLUMNS[0] in features):
        raise ModelError(f"model file {path} was trained on other features; retrain with `pagesieve-dev train`")
    if has_page_type and page_signals != len(PAGE_SIGNALS):
        raise ModelError(f"model file {path} reads {page_signals} page signals where this version makes "
                         f"{len(PAGE_SIGNALS)}; retrain with `pagesieve-dev train`")


def _page_type_width(estimator) -> int | None:
    """The number of signals a fitted page-type pipeline reads (its scaler's), ``None`` if unknown."""
    try:
        return len(estimator.named_steps["scale"].mean_)
    except (AttributeError, KeyError, TypeError):
        return None


def load_fitted(path: Path | str) -> FittedModel:
    """Read a skops archive written by :func:`save_model` (imports scikit-learn and skops).

    Raises:
        ModelError: the file is missing, is not a skops archive, holds a type outside
            scikit-learn/numpy/scipy, is of another format, or was trained on other features.
    """
    import skops.io as sio

    path = Path(path)
    if not path.is_file():
        raise ModelError(f"model file not found: {path} (run `pagesieve-dev train` to build one)")
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
    kind = payload.get("page_type")
    _check_features(meta, payload.get("context") is not None, path, kind is not None,
                    _page_type_width(kind) if kind is not None else None)
    return FittedModel(
        estimator=payload["estimator"],
        meta=meta,
        threshold=float(payload.get("threshold", 0.0)),
        context=payload.get("context"),
        context_threshold=float(payload.get("context_threshold", 0.5)),
        page_type=payload.get("page_type"),
        reduced=payload.get("reduced"),
        type_thresholds=_type_thresholds(json.loads(payload.get("type_thresholds_json") or "{}")),
    )


def _read_compiled(path: Path, source_sha256: str | None) -> BlockClassifier | None:
    """The compiled model at ``path``, or ``None`` when it is absent, unreadable, of another
    format, or (with ``source_sha256``) compiled from another archive."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError, KeyError, EOFError):
        return None
    try:
        if int(arrays["format"]) != COMPILED_FORMAT:
            return None
        if source_sha256 is not None and str(arrays["source_sha256"]) != source_sha256:
            return None
        svm = SvmArrays(
            mean=arrays["svm_mean"], scale=arrays["svm_scale"], support=arrays["svm_support"],
            dual=arrays["svm_dual"], intercept=float(arrays["svm_intercept"]), gamma=float(arrays["svm_gamma"]),
        )
        forest = None
        if "forest_roots" in arrays:
            forest = ForestArrays(
                **{name: arrays[f"forest_{name}"] for name in
                   ("feature", "threshold", "missing_left", "children", "value", "roots", "active")},
                baseline=float(arrays["forest_baseline"]),
            )
        page_type = None
        if "type_coef" in arrays:
            page_type = PageTypeArrays(
                mean=arrays["type_mean"], scale=arrays["type_scale"], coef=arrays["type_coef"],
                intercept=arrays["type_intercept"], classes=tuple(str(c) for c in arrays["type_classes"]),
            )
        meta = json.loads(str(arrays["meta_json"]))
        type_thresholds = _type_thresholds(json.loads(str(arrays["type_thresholds_json"])) if "type_thresholds_json" in arrays else {})
    except (KeyError, ValueError, TypeError, ModelError):
        return None
    _check_features(meta, forest is not None, path, page_type is not None,
                    len(page_type.mean) if page_type is not None else None)
    return BlockClassifier(
        svm=svm, meta=meta, threshold=float(arrays["threshold"]), context=forest,
        context_threshold=float(arrays["context_threshold"]), page_type=page_type, type_thresholds=type_thresholds,
    )


def stored_feature_set(path: Path) -> str | None:
    """The feature-set version stamped in the compiled model ``path`` (its ``meta["feature_set"]``,
    :data:`FEATURE_SET_VERSION` when it was written), read without checking the model's features;
    ``None`` when the model has no stamp (written before stamps were kept) or cannot be read."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta_json"]))
    except (OSError, ValueError, KeyError, EOFError):
        return None
    stamp = meta.get("feature_set") if isinstance(meta, dict) else None
    return stamp if isinstance(stamp, str) else None


def load_model(path: Path | str | None = None) -> BlockClassifier:
    """The run-time classifier of the model at ``path`` (default: the shipped model).

    ``path`` is a ``.skops`` archive (its compiled twin is used when it matches the archive's
    SHA-256, else the archive is compiled in memory) or a compiled ``.npz`` on its own.

    Raises:
        ModelError: missing, unreadable or foreign file, or a model trained on other features.
    """
    path = Path(path) if path is not None else SHIPPED_MODEL
    if not path.is_file():
        raise ModelError(f"model file not found: {path} (run `pagesieve-dev train` to build one)")
    if path.suffix == ".npz":
        model = _read_compiled(path, None)
        if model is None:
            raise ModelError(f"model file {path} is not a compiled pagesieve model of format {COMPILED_FORMAT}")
        return model
    twin = compiled_path(path)
    if twin.is_file():
        model = _read_compiled(twin, _sha256(path))
        if model is not None:
            return model
    return compile_model(load_fitted(path))


@lru_cache(maxsize=1)
def shipped_model() -> BlockClassifier:
    """The shipped model, loaded once per process."""
    return load_model(SHIPPED_MODEL)


@lru_cache(maxsize=1)
def shipped_box_model() -> BlockClassifier | None:
    """The shipped box-aware model (:data:`BOX_MODEL`), loaded once per process, or ``None``
    when there is none or it cannot be used (then pages with layout use the box-free model)."""
    if not BOX_MODEL.is_file() and not compiled_path(BOX_MODEL).is_file():
        return None
    try:
        return load_model(BOX_MODEL if BOX_MODEL.is_file() else compiled_path(BOX_MODEL))
    except ModelError:
        return None


def default_model() -> BlockClassifier:
    """The shipped model, loaded once per process (see :func:`load_model`)."""
    return shipped_model()


def model_for(page) -> BlockClassifier:
    """The shipped model that suits ``page``: the box-aware one for a page with a rendered
    layout (a browser snapshot) when it is shipped, else the box-free :func:`default_model`."""
    if page.boxes:
        boxed = shipped_box_model()
        if boxed is not None:
            return boxed
    return default_model()
