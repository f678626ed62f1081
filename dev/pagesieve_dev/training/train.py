"""``pagesieve-dev train``: build the block classifier from ``../shared/datasets``, reproducibly.

Steps:

1. **Split** (:func:`make_split`): for each training dataset, its *sites* are shuffled with a
   fixed seed and half of them go to ``train``; every page of a site lands on one side, so no
   site is both trained on and evaluated on. Datasets kept whole for evaluation (big9,
   zh_cwced, readability) are listed with every page in ``test``. Written to
   ``models/split.json``; ``pagesieve-dev eval`` evaluates only the ``test`` pages.
2. **Labels** (:mod:`pagesieve_dev.training.labels`): l3s_gn1 from its block labels, the others by
   aligning the truth text to the blocks.
3. **Sample**: noise blocks are down-sampled to the number of content blocks (seed 000 §6 (2)),
   then at most ``--max-samples`` rows are drawn, stratified, with the same seed.
4. **Fit stage 1**: ``Pipeline(StandardScaler, SVC(kernel="rbf", class_weight="balanced"))``; C
   and gamma by grid search with 10-fold cross-validation grouped by site (seed 000 §6 (4)); the
   best pair is refitted on the whole sample.
5. **Fit stage 2** (:mod:`pagesieve.classify.context`): the training sites are cut in two halves; an SVM
   with the chosen C and gamma is fitted on each half and gives the decisions of the other
   half's pages (cross-fitting, so stage 2 learns from decisions on unseen pages, as at run
   time). Its rows also hold the card columns (:mod:`pagesieve.blocks.signals`) and the page-type
   probabilities (:mod:`pagesieve.classify.page_type`: a logistic regression fitted on the labelled
   wcxb_dev pages, cross-fitted on the same halves) unless ``--no-cards`` / ``--no-page-type``;
   ``--balance-datasets`` weighs every dataset alike (models/README.md measures all three).
   A ``HistGradientBoostingClassifier`` is fitted on the context features of every
   labelled block, each weighted by the square root of its length (page F1 counts tokens, not
   blocks). Its 2-fold grouped CV score is recorded, and its probability cut is the one of
   :data:`THRESHOLD_GRID` with the best out-of-fold mean page F1 over the training datasets;
   pages predicted as another page type than an article get a second cut, chosen the same way
   on those pages alone (:func:`type_cuts`; ``--one-cut`` leaves it out).
6. **Reduce** (with ``--reduce-svm M``, :mod:`pagesieve_dev.training.reduce`): M kernel centres
   whose decisions match the SVM's on the training pages' blocks, which the host runs on.
7. **Store**: ``models/blocks.skops`` (skops, no pickle), its compiled twin ``models/blocks.npz``
   (:mod:`pagesieve.classify.model_store`) and ``models/training.json`` (data, split counts, CV scores,
   library versions), which ``models/README.md`` reports.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pagesieve.errors import DatasetError
from pagesieve_dev.evaluation.datasets import Dataset, default_datasets_dir, load_dataset, read_page, read_truth
from pagesieve.classify.context import context_feature_names, tree_arrays
from pagesieve.blocks.features import FEATURE_NAMES, N_FEATURES
from pagesieve.blocks.layout import BOX_FEATURE_NAMES
from pagesieve_dev.training.labels import IGNORE, l3s_reference, label_blocks, truth_reference

TRAIN_DATASETS = ("l3s_gn1", "dragnet", "cleaneval", "wcxb_dev", "daniel")
"""Datasets half of whose sites are trained on."""

EVAL_ONLY_DATASETS = ("big9", "zh_cwced", "readability")
"""Datasets never trained on (big9 is kept whole for the per-site template experiments)."""

SEED = 20261121
TRAIN_SHARE = 0.5
REPO_ROOT = Path(__file__).resolve().parents[3]
MODELS_DIR = REPO_ROOT / "models"


def site_key(record) -> str:
    """Grouping key of a page: its site, or its own id when the site is unknown."""
    return record.site or f"page:{record.id}"


def make_split(datasets_dir: Path, seed: int = SEED) -> dict:
    """The site-grouped train/test split of every dataset under ``datasets_dir``.

    Returns:
        ``{"version": 1, "seed": seed, "datasets": {name: {"train": [ids], "test": [ids]}}}``.
    """
    out: dict = {"version": 1, "seed": seed, "train_share": TRAIN_SHARE, "datasets": {}}
    for name in TRAIN_DATASETS + EVAL_ONLY_DATASETS:
        path = datasets_dir / name
        if not path.is_dir():
            continue
        dataset = load_dataset(path)
        if name in EVAL_ONLY_DATASETS:
            out["datasets"][name] = {"train": [], "test": list(dataset.ids)}
            continue
        sites = sorted({site_key(r) for r in dataset})
        # Order sites by a keyed hash, not by Python's salted hash(): same split everywhere.
        sites.sort(key=lambda s: hashlib.sha256(f"{seed}:{s}".encode()).hexdigest())
        train_sites = set(sites[: round(len(sites) * TRAIN_SHARE)])
        train = [r.id for r in dataset if site_key(r) in train_sites]
        test = [r.id for r in dataset if site_key(r) not in train_sites]
        out["datasets"][name] = {"train": train, "test": test}
    return out


@dataclass(slots=True)
class PageData:
    """One training page: its analysis (blocks, candidates, features), labels and truth text."""

    dataset: str
    page_id: str
    group: str
    analysis: object
    y: np.ndarray
    truth: str


class NotRendered(Exception):
    """A page has no rendered snapshot (``pagesieve-dev render``) where one was asked for."""


def page_rows(dataset: Dataset, page_id: str, snapshots: Path | None = None):
    """Analysis and labels of the candidate blocks of one page.

    Args:
        snapshots: a folder of rendered datasets (``<snapshots>/<dataset name>/``, written by
            ``pagesieve-dev render``): the page is read from its snapshot, and its feature rows get
            the box features of :mod:`pagesieve.blocks.layout` (the box-aware model's rows).

    Returns:
        ``(analysis, y, truth)`` with ``y`` in {1, 0, IGNORE} per candidate block.

    Raises:
        NotRendered: ``snapshots`` is given and the page has no snapshot there.
    """
    from pagesieve.extract import analyse, model_rows
    from pagesieve.page.html import parse_html

    record = dataset.record(page_id)
    if snapshots is None:
        page = parse_html(read_page(dataset, page_id), url=record.url)
    else:
        from pagesieve_dev.evaluation.render import load_rendered
        from pagesieve.page.snapshot import parse_snapshot

        snapshot = load_rendered(snapshots / dataset.name, page_id)
        if snapshot is None:
            raise NotRendered(f"{dataset.name}/{page_id} has no snapshot under {snapshots}")
        page = parse_snapshot(snapshot)
    analysis = analyse(page)
    if snapshots is not None:
        analysis.features = model_rows(analysis, _BOX_AWARE)
    truth = read_truth(dataset, page_id)
    if dataset.name == "l3s_gn1":
        ref_tokens, ref_content = l3s_reference(dataset.path / "labels" / f"{page_id}.json")
    else:
        ref_tokens, ref_content = truth_reference(truth)
    y = label_blocks(analysis.blocks, analysis.candidates, ref_tokens, ref_content)
    return analysis, y, truth


class _BoxAware:
    """Stands for a box-aware model where :func:`pagesieve.extract.model_rows` asks."""

    uses_boxes = True
    uses_cards = False
    page_type = None


_BOX_AWARE = _BoxAware()


def collect(datasets_dir: Path, split: dict, side: str = "train", limit: int | None = None,
            snapshots: Path | None = None):
    """Every page on ``side`` of the split, analysed and labelled (from its rendered snapshot
    with box features when ``snapshots`` is given; pages not rendered are counted and left out).

    Returns:
        ``(pages, sources)``: a list of :class:`PageData` and per-dataset counts.
    """
    pages: list[PageData] = []
    sources: dict[str, dict] = {}
    for name in TRAIN_DATASETS:
        ids = split["datasets"].get(name, {}).get(side, [])
        if not ids:
            continue
        if snapshots is not None and not (snapshots / name).is_dir():
            print(f"  {name}: not rendered under {snapshots}; left out", file=sys.stderr)
            continue
        dataset = load_dataset(datasets_dir / name)
        if limit:
            ids = ids[:limit]
        counts = {"pages": 0, "content": 0, "noise": 0, "ignored": 0, "failed": 0, "not_rendered": 0}
        for page_id in ids:
            try:
                analysis, y, truth = page_rows(dataset, page_id, snapshots)
            except NotRendered:
                counts["not_rendered"] += 1
                continue
            except Exception as exc:  # a broken page must not stop training; it is counted
                counts["failed"] += 1
                print(f"  {name}/{page_id}: skipped ({exc})", file=sys.stderr)
                continue
            counts["pages"] += 1
            mask = y != IGNORE
            counts["ignored"] += int((~mask).sum())
            counts["content"] += int((y == 1).sum())
            counts["noise"] += int((y == 0).sum())
            group = f"{name}:{site_key(dataset.record(page_id))}"
            pages.append(PageData(name, page_id, group, analysis, y, truth))
        sources[name] = counts
        print(f"  {name}: {counts}", file=sys.stderr)
    if not pages:
        raise DatasetError("no training pages: are the datasets under " + str(datasets_dir) + "?")
    return pages, sources


def stack_rows(pages: list[PageData], columns=None):
    """Labelled rows of ``pages``: ``(X, y, groups, page_index)``; ``columns`` picks per-page
    matrices (default: the first-pass features)."""
    xs, ys, groups, owner = [], [], [], []
    for k, pd in enumerate(pages):
        mask = pd.y != IGNORE
        if not mask.any():
            continue
        x = pd.analysis.features if columns is None else columns[k]
        xs.append(x[mask])
        ys.append(pd.y[mask])
        groups.extend([pd.group] * int(mask.sum()))
        owner.extend([k] * int(mask.sum()))
    return np.vstack(xs), np.concatenate(ys).astype(np.int8), np.array(groups), np.array(owner)


def fold_of(group: str, seed: int = SEED) -> int:
    """Cross-fitting fold (0 or 1) of a site, from a keyed hash."""
    return int(hashlib.sha256(f"fold:{seed}:{group}".encode()).hexdigest(), 16) % 2


def svm_pipeline(c: float, gamma: float):
    """The stage-1 estimator: scaling then an RBF SVM with balanced class weights."""
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    return Pipeline([("scale", StandardScaler()), ("svm", SVC(kernel="rbf", C=c, gamma=gamma, class_weight="balanced", cache_size=1000))])


def context_model(seed: int = SEED):
    """The stage-2 estimator: 200 trees of at most 31 leaves (about 2 ms for a page of 300
    blocks; on held-out pages 200 trees beat 100 by up to 0.005 F1 on dragnet and wcxb_dev)."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(max_iter=200, max_leaf_nodes=31, learning_rate=0.1, random_state=seed)


THRESHOLD_GRID = (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)
"""Stage-2 probability cuts tried on the training pages (out-of-fold). With peer scores (``train
--peers``), the cut kept is the one whose worst margin over the best peer, across the training
datasets, is largest: the product's promise is to beat them on every kind of page. Without,
the cut with the best mean page F1 over the datasets."""

TYPE_CUT_GRID = (0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)
"""Stage-2 cuts tried, on the same out-of-fold probabilities, for the pages whose predicted page
type is not one of :data:`OWN_CUT_TYPES` (see :func:`type_cuts`)."""

OWN_CUT_TYPES = ("article",)
"""Predicted page types cut at the model's main cut (:data:`THRESHOLD_GRID`'s choice); every other
predicted type shares a second cut (:func:`type_cuts`). Why two cuts: on an article, a block
that the context stage half believes in is a teaser, a related link or a comment more often
than not; on a listing, a product page, a collection or a forum, the repeated items are the
content. On the dev gate (``pagesieve-dev eval --cv 5 wcxb_dev``, 2026-11-27) one cut for all
(0.4) gave 0.8488; a second cut for the pages not taken for articles 0.8536 at 0.2 and at 0.25,
0.8527 at 0.3 (``--cv-variants all+balanced@0.4/0.3``). The page-type model calls most pages
of the older news datasets something else than an article (out of fold, 400 of daniel's 450
training pages), so their held-out F1 falls as the second cut does: at 0.25 daniel -0.0053,
at 0.3 no dataset below -0.0023 (``models/README.md``). The shipped model has 0.3, given with
``pagesieve-dev type-cut``; training's own choice (:func:`type_cuts`, the mean over the training
datasets) favours those older pages."""


def type_cuts(pages: list, oof: list[np.ndarray], predicted: list[str], main_cut: float) -> tuple[dict[str, float], dict]:
    """Stage 2's cut per predicted page type: :data:`OWN_CUT_TYPES` keep ``main_cut``, every
    other type gets the cut of :data:`TYPE_CUT_GRID` with the best out-of-fold mean page F1 over
    the training datasets, on their pages of those types (a dataset without such pages has no
    say).

    Args:
        pages: the training pages (``.analysis``, ``.truth``, ``.dataset``); oof: per page, the
            out-of-fold stage-2 probabilities of its candidates; predicted: per page, its
            cross-fitted most probable page type; main_cut: the model's main cut.

    Returns:
        ``({page type: cut}, info)``: the cut of every type but :data:`OWN_CUT_TYPES` (all the
        same), and the page F1 per dataset for every cut tried (``info["oof_page_f1_by_cut"]``)
        with the pages counted (``info["pages"]``).
    """
    from pagesieve.classify.page_type import PAGE_TYPES
    from pagesieve_dev.evaluation.metric import prf

    chosen = [k for k, kind in enumerate(predicted) if kind not in OWN_CUT_TYPES]
    counts: dict[str, int] = {}
    for k in chosen:
        counts[pages[k].dataset] = counts.get(pages[k].dataset, 0) + 1
    by_cut: dict[str, dict[str, float]] = {}
    for cut in TYPE_CUT_GRID:
        per_dataset: dict[str, list[float]] = {}
        for k in chosen:
            pd, q = pages[k], oof[k]
            texts = [pd.analysis.blocks[i].text for i, keep in zip(pd.analysis.candidates, q > cut) if keep]
            per_dataset.setdefault(pd.dataset, []).append(prf("\n".join(texts), pd.truth)[2])
        by_cut[str(cut)] = {name: round(float(np.mean(v)), 4) for name, v in per_dataset.items()}
    if not chosen:
        return {}, {"pages": counts, "oof_page_f1_by_cut": by_cut}
    best = max(TYPE_CUT_GRID, key=lambda cut: (float(np.mean(list(by_cut[str(cut)].values()))), -abs(cut - main_cut)))
    cuts = {kind: float(best) for kind in PAGE_TYPES if kind not in OWN_CUT_TYPES}
    return cuts, {"pages": counts, "oof_page_f1_by_cut": by_cut, "cut": best, "own_cut_types": list(OWN_CUT_TYPES)}


def page_types_of(pages: list[PageData], datasets_dir: Path, target: str = "wcxb_dev") -> list[str | None]:
    """The labelled page type of each page (``page_type`` of ``target``'s index), else ``None``."""
    dataset = load_dataset(datasets_dir / target) if (datasets_dir / target).is_dir() else None
    return [dataset.record(pd.page_id).row.get("page_type") if dataset is not None and pd.dataset == target else None
            for pd in pages]


def fit_page_types(pages: list[PageData], kinds: list[str | None], seed: int = SEED):
    """The page-type model and every page's cross-fitted page-type probabilities.

    The model of each cross-fitting fold (:func:`fold_of`) is fitted on the labelled pages of
    the other fold and judges the pages of its own, so stage 2 learns from probabilities on
    unseen pages, as at run time. The returned model is fitted on every labelled page.

    Returns:
        ``(estimator, probabilities)``: the fitted pipeline of
        :func:`pagesieve.classify.page_type.fit_page_type` and ``(len(pages), 7)`` probabilities.

    Raises:
        DatasetError: no page has a page type (wcxb_dev is missing).
    """
    from pagesieve.classify.page_type import cross_fitted, fit_page_type
    from pagesieve.blocks.signals import page_signals

    signals = np.vstack([page_signals(pd.analysis.raw_signals or {}, pd.analysis.blocks) for pd in pages])
    labelled = np.array([k is not None for k in kinds])
    if not labelled.any():
        raise DatasetError("no training page has a page type: wcxb_dev (page_type in its index) is needed")
    probabilities = cross_fitted(signals, kinds, np.array([fold_of(pd.group, seed) for pd in pages]))
    final = fit_page_type(signals[labelled], [kinds[i] for i in np.flatnonzero(labelled)])
    return final, probabilities


def stage_two_rows(pages: list[PageData], cards: bool, type_probabilities: np.ndarray | None) -> list[np.ndarray]:
    """Per page, the rows stage 2 reads: the first-pass features, then the card columns
    (:func:`pagesieve.blocks.signals.card_columns`) when ``cards``, then the page's page-type
    probabilities when given (the order of :func:`pagesieve.extract.model_rows`)."""
    from pagesieve.blocks.signals import card_columns

    out = []
    for k, pd in enumerate(pages):
        a = pd.analysis
        parts = [a.features.reshape(len(a.candidates), -1) if len(a.candidates) else np.zeros((0, N_FEATURES))]
        if cards:
            parts.append(card_columns(a.blocks, a.candidates, a.page.url))
        if type_probabilities is not None:
            parts.append(np.tile(type_probabilities[k], (len(a.candidates), 1)))
        out.append(np.hstack(parts) if len(parts) > 1 else parts[0])
    return out


def balanced_by_dataset(names: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Row weights rescaled so that every dataset's rows weigh the same in total, their sum kept.

    Args:
        names: ``(rows,)`` the dataset of each row; weights: ``(rows,)`` non-negative weights
            (stage 2's square root of the block's characters).
    Returns:
        A new ``(rows,)`` array. Used by ``pagesieve-dev train --balance-datasets`` and the dev
        gate's ``+balanced`` variants: wcxb_dev's 761 training pages hold half of all labelled
        blocks and would otherwise set stage 2's decisions for every kind of page.
    """
    out = np.asarray(weights, dtype=np.float64).copy()
    kinds = np.unique(names)
    total = out.sum()
    for name in kinds:
        mask = names == name
        out[mask] *= total / (len(kinds) * out[mask].sum())
    return out


def fit_two_stage(pages: list[PageData], c: float, gamma: float, max_samples: int, seed: int = SEED,
                  peer_f1: dict[str, float] | None = None, stage_rows: list[np.ndarray] | None = None,
                  balance_datasets: bool = False, predicted_types: list[str] | None = None,
                  given_cut: float | None = None):
    """Cross-fitted stage-1 decisions, the stage-2 model and its cut; see the module docstring.

    Returns:
        ``(context_estimator, threshold, info)``; ``info`` holds the 2-fold grouped CV F1 of
        stage 2 and the out-of-fold page F1 per dataset for every cut of :data:`THRESHOLD_GRID`.
        With ``predicted_types`` (per page, its cross-fitted most probable page type), also the
        cut per page type (:func:`type_cuts`) in ``info["type_thresholds"]`` and its figures in
        ``info["type_cut"]``.
        ``peer_f1`` (dataset -> best peer's macro F1 on the same training pages) switches the
        choice of cut to the worst-margin rule. ``stage_rows``: per page, the rows stage 2 reads
        (:func:`stage_two_rows`; default the first-pass features). ``balance_datasets``: the
        rows' weights are scaled so that every training dataset weighs the same in stage 2
        (wcxb_dev's 761 pages hold half of all labelled blocks and would otherwise set its cuts).
        ``given_cut``: stage 2's main cut given (``pagesieve-dev train --cut``), not chosen; the
        out-of-fold figures of every cut are still reported.
    """
    from sklearn.metrics import f1_score

    from pagesieve.classify.classifier import BlockClassifier
    from pagesieve.classify.context import context_features
    from pagesieve.classify.model_store import compile_svm
    from pagesieve_dev.evaluation.metric import prf

    folds = np.array([fold_of(pd.group, seed) for pd in pages])
    z_pages: list[np.ndarray] = [np.zeros(0)] * len(pages)
    for f in (0, 1):
        other = [pd for pd, k in zip(pages, folds) if k != f]
        x, y, _g, _o = stack_rows(other)
        rows = balanced_sample(y, max_samples, seed)
        # the SVM reads the first-pass features only (box columns, if any, go to stage 2)
        half = BlockClassifier(svm=compile_svm(svm_pipeline(c, gamma).fit(x[rows][:, :N_FEATURES], y[rows])), meta={})
        for k, pd in enumerate(pages):
            if folds[k] == f:
                a = pd.analysis
                x_k = a.features if stage_rows is None else stage_rows[k]
                z_pages[k] = context_features(tree_arrays(a.blocks), a.candidates, x_k, half.decision(a.features))
    z, y, w, _groups, owner = stack_context(pages, z_pages)
    if balance_datasets:
        w = balanced_by_dataset(np.array([pages[k].dataset for k in owner]), w)
    row_fold = folds[owner]
    scores = []
    oof: list[np.ndarray] = [np.zeros(0)] * len(pages)
    for f in (0, 1):
        model = context_model(seed).fit(z[row_fold != f], y[row_fold != f], sample_weight=w[row_fold != f])
        scores.append(float(f1_score(y[row_fold == f], model.predict(z[row_fold == f]), sample_weight=w[row_fold == f])))
        for k in np.flatnonzero(folds == f):
            if len(z_pages[k]):
                oof[k] = model.predict_proba(z_pages[k])[:, 1]
    by_cut: dict[str, dict[str, float]] = {}
    for cut in THRESHOLD_GRID:
        per_dataset: dict[str, list[float]] = {}
        for pd, q in zip(pages, oof):
            texts = [pd.analysis.blocks[i].text for i, keep in zip(pd.analysis.candidates, q > cut) if keep]
            per_dataset.setdefault(pd.dataset, []).append(prf("\n".join(texts), pd.truth)[2])
        by_cut[str(cut)] = {name: round(float(np.mean(v)), 4) for name, v in per_dataset.items()}
    if peer_f1:
        def objective(cut):
            return min(f1 - peer_f1[name] for name, f1 in by_cut[str(cut)].items() if name in peer_f1)
    else:
        def objective(cut):
            return float(np.mean(list(by_cut[str(cut)].values())))
    best_cut = max(THRESHOLD_GRID, key=objective) if given_cut is None else float(given_cut)
    type_thresholds, type_info = type_cuts(pages, oof, predicted_types, best_cut) if predicted_types else ({}, None)
    final = context_model(seed).fit(z, y, sample_weight=w)
    info = {
        "rows": int(len(y)),
        "features": len(z[0]),
        "cv_folds": 2,
        "cv_weighted_f1": [round(s_, 4) for s_ in scores],
        "model": "HistGradientBoostingClassifier(max_iter=200, max_leaf_nodes=31, learning_rate=0.1)",
        "threshold": best_cut,
        "threshold_rule": ("given (--cut)" if given_cut is not None
                           else "worst margin over the best peer" if peer_f1 else "mean page F1"),
        "peer_f1_train_pages": peer_f1,
        "oof_page_f1_by_threshold": by_cut,
        **({"type_thresholds": type_thresholds, "type_cut": type_info} if type_info is not None else {}),
    }
    return final, best_cut, info


def stack_context(pages: list[PageData], z_pages: list[np.ndarray]):
    """Stage-2 rows of the labelled blocks: ``(Z, y, weight, groups, page_index)``; each row is
    weighted by the square root of its block's length (page F1 counts tokens, not blocks)."""
    zs, ys, ws, gs, owner = [], [], [], [], []
    for k, (pd, z) in enumerate(zip(pages, z_pages)):
        mask = pd.y != IGNORE
        if not mask.any():
            continue
        chars = np.array([pd.analysis.blocks[i].chars for i in pd.analysis.candidates], dtype=np.float64)
        zs.append(z[mask])
        ys.append(pd.y[mask])
        ws.append(np.sqrt(chars[mask] + 1.0))
        gs.extend([pd.group] * int(mask.sum()))
        owner.extend([k] * int(mask.sum()))
    return np.vstack(zs), np.concatenate(ys).astype(np.int8), np.concatenate(ws), np.array(gs), np.array(owner)


def balanced_sample(y: np.ndarray, max_samples: int, seed: int = SEED) -> np.ndarray:
    """Row indices: noise down-sampled to the content count (seed 000 §6 (2)), capped in total."""
    rng = np.random.default_rng(seed)
    pos = np.flatnonzero(y == 1)
    neg = np.flatnonzero(y == 0)
    k = min(len(pos), len(neg), max_samples // 2)
    chosen = np.concatenate([rng.choice(pos, k, replace=False), rng.choice(neg, k, replace=False)])
    chosen.sort()
    return chosen


def fit(x: np.ndarray, y: np.ndarray, groups: np.ndarray, folds: int = 10, seed: int = SEED,
        c_grid=(1.0, 3.0, 10.0), gamma_grid=(0.001, 0.003, 0.01), n_jobs: int = 2):
    """Grid search of C and gamma by grouped k-fold CV, refit on all rows.

    Returns:
        ``(estimator, cv)``: the fitted pipeline and a dict of CV results (best params, mean
        and std F1 of the content class per grid point).
    """
    from sklearn.model_selection import GridSearchCV, GroupKFold

    pipe = svm_pipeline(c_grid[0], gamma_grid[0])  # C and gamma are set by the grid
    n_groups = len(set(groups.tolist()))
    cv = GroupKFold(n_splits=min(folds, n_groups))
    search = GridSearchCV(
        pipe,
        {"svm__C": list(c_grid), "svm__gamma": list(gamma_grid)},
        scoring="f1",
        cv=cv,
        n_jobs=n_jobs,
        refit=True,
    )
    search.fit(x, y, groups=groups)
    results = search.cv_results_
    grid = [
        {"C": p["svm__C"], "gamma": p["svm__gamma"], "f1_mean": round(float(m), 4), "f1_std": round(float(s), 4)}
        for p, m, s in zip(results["params"], results["mean_test_score"], results["std_test_score"])
    ]
    cv_info = {
        "folds": cv.get_n_splits(),
        "grouped_by": "site",
        "scoring": "F1 of the content class",
        "best": {"C": search.best_params_["svm__C"], "gamma": search.best_params_["svm__gamma"]},
        "best_f1": round(float(search.best_score_), 4),
        "grid": grid,
    }
    return search.best_estimator_, cv_info


def peer_scores(datasets_dir: Path, split: dict, peers: list[str], limit: int | None = None) -> dict[str, float]:
    """Best peer's macro token F1 per training dataset, on the training pages of the split.

    Raises:
        MissingPeerError: a peer is not installed.
    """
    from pagesieve_dev.evaluation.peers import get_peer
    from pagesieve_dev.evaluation.results import evaluate

    extractors = {name: get_peer(name.strip()) for name in peers}
    out: dict[str, float] = {}
    for name in TRAIN_DATASETS:
        ids = split["datasets"].get(name, {}).get("train", [])
        if not ids:
            continue
        dataset = load_dataset(datasets_dir / name)
        ids = ids[:limit] if limit else ids
        scores = [evaluate(dataset, extractor, ids, name=peer).macro[2] for peer, extractor in extractors.items()]
        out[name] = round(max(scores), 4)
        print(f"  peers on {name} training pages: best F1 {out[name]}", file=sys.stderr)
    return out


def library_versions() -> dict:
    """Versions of the libraries the model depends on."""
    import lxml.etree
    import scipy
    import skops
    import sklearn

    return {
        "python": platform.python_version(),
        "scikit-learn": sklearn.__version__,
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "skops": skops.__version__,
        "lxml": ".".join(map(str, lxml.etree.LXML_VERSION)),
    }


def _svm_params(value: str) -> tuple[float, float]:
    try:
        c, gamma = (float(v) for v in value.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected C,GAMMA (two numbers), got {value!r}") from None
    if c <= 0 or gamma <= 0:
        raise argparse.ArgumentTypeError("C and gamma must be positive")
    return c, gamma


def _cut(value: str) -> float:
    try:
        cut = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {value!r}") from None
    if not 0.0 < cut < 1.0:
        raise argparse.ArgumentTypeError(f"a cut lies in (0, 1), not {cut}")
    return cut


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``train`` options."""
    parser.add_argument("--datasets", type=Path, default=None, help="datasets folder (default: ../shared/datasets)")
    parser.add_argument("--out", type=Path, default=MODELS_DIR, help="where to write blocks.skops, training.json, split.json")
    parser.add_argument("--new-split", action="store_true", help="recompute models/split.json instead of reading it")
    parser.add_argument("--max-samples", type=int, default=20000, help="rows in the balanced SVM training sample (default 20000)")
    parser.add_argument("--cv-samples", type=int, default=6000, help="rows used for the C/gamma search (default 6000)")
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--limit", type=int, default=None, help="pages per dataset (quick runs)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--no-context", action="store_true", help="stage 1 (the SVM) only")
    parser.add_argument("--svm", type=_svm_params, default=None, metavar="C,GAMMA",
                        help="fix the SVM's C and gamma instead of searching them (e.g. the box-free model's, "
                        "so that a box-aware model differs from it in its second stage only)")
    parser.add_argument("--snapshots", type=Path, default=None, help="train the box-aware model (blocks-boxes.skops) on the "
                        "pages rendered by `pagesieve-dev render` into SNAPSHOTS/<dataset>/")
    parser.add_argument("--balance-datasets", action="store_true",
                        help="weigh every training dataset the same in the context stage")
    parser.add_argument("--no-cards", action="store_true", help="leave the card columns (pagesieve.blocks.signals) out of stage 2")
    parser.add_argument("--no-page-type", action="store_true", help="leave the page-type probabilities (pagesieve.classify.page_type) out of stage 2")
    parser.add_argument("--cut", type=_cut, metavar="CUT",
                        help="stage 2's main cut, given instead of chosen by the mean out-of-fold page F1 "
                             "(the shipped model: 0.4, the dev gate's configuration)")
    parser.add_argument("--one-cut", action="store_true",
                        help="cut every page type's stage-2 probabilities at one cut (default: pages predicted as another "
                             "type than article get a second cut, chosen out of fold; see type_cuts)")
    parser.add_argument("--reduce-svm", type=int, default=None, metavar="M",
                        help="store a reduced set of M kernel centres for the SVM (pagesieve_dev.training.reduce; "
                        "the shipped model: 1000); the same as `pagesieve-dev reduce --centres M` afterwards")
    parser.add_argument("--peers", default=None, help="comma-separated peers (trafilatura,readability) whose F1 on the "
                        "training pages sets the stage-2 cut (needs pip install -e '.[peers]')")


def main(args: argparse.Namespace) -> int:
    """Run ``pagesieve-dev train``; prints progress to stderr and a summary to stdout."""
    from pagesieve.classify.model_store import FittedModel, save_model

    datasets_dir = args.datasets or default_datasets_dir()
    if datasets_dir is None or not Path(datasets_dir).is_dir():
        raise DatasetError("datasets folder not found: pass --datasets or set PAGESIEVE_DATASETS")
    datasets_dir = Path(datasets_dir)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    split_path = out / "split.json"
    if args.new_split or not split_path.exists():
        split = make_split(datasets_dir, args.seed)
        split_path.write_text(json.dumps(split, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {split_path}", file=sys.stderr)
    else:
        split = json.loads(split_path.read_text(encoding="utf-8"))
    t0 = time.perf_counter()
    pages, sources = collect(datasets_dir, split, "train", args.limit, args.snapshots)
    x, y, groups, _owner = stack_rows(pages)
    t_collect = time.perf_counter() - t0
    rows = balanced_sample(y, args.max_samples, args.seed)
    x_s, y_s, g_s = x[rows][:, :N_FEATURES], y[rows], groups[rows]  # the SVM: first-pass features only
    cv_rows = balanced_sample(y_s, args.cv_samples, args.seed + 1)
    t1 = time.perf_counter()
    if getattr(args, "svm", None):
        best = svm_pipeline(*args.svm)
        cv_info = {"folds": 0, "grouped_by": "site", "scoring": "none: C and gamma given (--svm)",
                   "best": {"C": args.svm[0], "gamma": args.svm[1]}, "best_f1": None, "grid": []}
    else:
        best, cv_info = fit(x_s[cv_rows], y_s[cv_rows], g_s[cv_rows], folds=args.folds, seed=args.seed)
    # Refit the chosen C/gamma on the whole balanced sample.
    best.fit(x_s, y_s)
    context_info = None
    context = None
    context_threshold = 0.5
    page_type = None
    cards = not args.no_context and not getattr(args, "no_cards", False)
    typed = not args.no_context and not getattr(args, "no_page_type", False)
    type_info = None
    type_thresholds: dict[str, float] = {}
    if not args.no_context:
        type_probabilities = None
        kinds = page_types_of(pages, datasets_dir) if typed else []
        if typed and len({k for k in kinds if k is not None}) < 2:
            print("page type: fewer than two labelled page types among the training pages; left out", file=sys.stderr)
            typed = False
        if typed:
            page_type, type_probabilities = fit_page_types(pages, kinds, args.seed)
            from pagesieve.blocks.signals import PAGE_SIGNALS
            from pagesieve.classify.page_type import PAGE_TYPE_C, PAGE_TYPES

            labelled = [(k, p) for k, p in zip(kinds, type_probabilities) if k is not None]
            right = sum(PAGE_TYPES[int(np.argmax(p))] == k for k, p in labelled)
            type_info = {"pages": len(labelled), "cross_fitted_accuracy": round(right / len(labelled), 4),
                         "model": f"Pipeline(StandardScaler, LogisticRegression(C={PAGE_TYPE_C}, class_weight='balanced'))",
                         "signals": len(PAGE_SIGNALS)}
            print(f"page type: {right} of {len(labelled)} labelled pages right (cross-fitted)", file=sys.stderr)
        rows_2 = stage_two_rows(pages, cards, type_probabilities) if (cards or typed) else None
        print("fitting the context stage", file=sys.stderr)
        peer_f1 = peer_scores(datasets_dir, split, args.peers.split(","), args.limit) if args.peers else None
        predicted = None
        if typed and not getattr(args, "one_cut", False):
            predicted = [PAGE_TYPES[int(np.argmax(p))] for p in type_probabilities]
        context, context_threshold, context_info = fit_two_stage(
            pages, cv_info["best"]["C"], cv_info["best"]["gamma"], args.max_samples, args.seed, peer_f1, rows_2,
            getattr(args, "balance_datasets", False), predicted, getattr(args, "cut", None))
        type_thresholds = context_info.get("type_thresholds", {})
    reduced = reduced_info = None
    if getattr(args, "reduce_svm", None):
        from pagesieve_dev.training.reduce import candidate_rows, reduce_svm

        print(f"reducing the SVM to {args.reduce_svm} centres", file=sys.stderr)
        reduced, reduced_info = reduce_svm(best, candidate_rows(pages), args.reduce_svm, args.seed)
    t_fit = time.perf_counter() - t1
    from pagesieve.classify.page_type import PAGE_TYPE_COLUMNS
    from pagesieve.blocks.signals import CARD_COLUMNS

    features = (FEATURE_NAMES + (BOX_FEATURE_NAMES if args.snapshots else ()) + (CARD_COLUMNS if cards else ())
                + (PAGE_TYPE_COLUMNS if typed else ()))
    meta = {
        "features": list(features),
        "context_features": list(context_feature_names(features)),
        "rendered": args.snapshots is not None,
        "svm_features": list(FEATURE_NAMES),
        "datasets": sources,
        "rows_labelled": int(len(y)),
        "rows_content": int((y == 1).sum()),
        "rows_sample": int(len(rows)),
        "rows_cv": int(len(cv_rows)),
        "seed": args.seed,
        "cv": cv_info,
        "support_vectors": int(best.named_steps["svm"].n_support_.sum()),
        "context": context_info,
        "page_type": type_info,
        **({"svm_reduced": reduced_info} if reduced_info else {}),
        "seconds": {"collect": round(t_collect, 1), "fit": round(t_fit, 1)},
        "versions": library_versions(),
    }
    model_path = out / ("blocks-boxes.skops" if args.snapshots else "blocks.skops")
    save_model(FittedModel(estimator=best, meta=meta, context=context, context_threshold=context_threshold,
                           type_thresholds=type_thresholds,
                           page_type=page_type, reduced=reduced), model_path)
    (out / ("training-boxes.json" if args.snapshots else "training.json")).write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {model_path}: CV F1 {cv_info['best_f1']} with {cv_info['best']}, {meta['support_vectors']} support vectors")
    return 0
