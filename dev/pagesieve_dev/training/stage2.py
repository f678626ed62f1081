"""Stage 2 of the block classifier: the context model over stage 1's cross-fitted decisions
(step 5 of ``pagesieve-dev train``, :mod:`pagesieve.classify.context`).

The training sites are cut in two halves; an SVM with the chosen C and gamma is fitted on each
half and gives the decisions of the other half's pages (cross-fitting, so stage 2 learns from
decisions on unseen pages, as at run time). Its rows also hold the card columns
(:mod:`pagesieve.blocks.signals`) and the page-type probabilities
(:mod:`pagesieve_dev.training.page_types`) unless ``--no-cards`` / ``--no-page-type``;
``--balance-datasets`` weighs every dataset alike. A ``HistGradientBoostingClassifier`` is fitted
on the context features of every labelled block, each weighted by the square root of its
length; its cuts are chosen out of fold (:mod:`pagesieve_dev.training.cuts`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pagesieve.blocks.features import N_FEATURES
from pagesieve.classify.context import tree_arrays
from pagesieve_dev.training.cuts import THRESHOLD_GRID, choose_cut, oof_page_f1, peer_scores, type_cuts
from pagesieve_dev.training.labels import IGNORE
from pagesieve_dev.training.page_types import fit_page_type_stage
from pagesieve_dev.training.pages import PageData, stack_rows
from pagesieve_dev.training.split import SEED, fold_of
from pagesieve_dev.training.stage1 import balanced_sample, svm_pipeline


def context_model(seed: int = SEED):
    """The stage-2 estimator: 200 trees of at most 31 leaves (about 2 ms for a page of 300
    blocks; on held-out pages 200 trees beat 100 by up to 0.005 F1 on dragnet and wcxb_dev)."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    return HistGradientBoostingClassifier(max_iter=200, max_leaf_nodes=31, learning_rate=0.1, random_state=seed)


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


def cross_fitted_context_rows(pages: list[PageData], folds: np.ndarray, c: float, gamma: float, max_samples: int,
                              seed: int = SEED, stage_rows: list[np.ndarray] | None = None) -> list[np.ndarray]:
    """Per page, its stage-2 context features over the decisions of a stage-1 SVM (``c``,
    ``gamma``) fitted on a balanced sample of the other fold's pages.

    Args:
        folds: ``(len(pages),)`` each page's cross-fitting fold (:func:`fold_of`); stage_rows: per
            page, the rows stage 2 reads (:func:`stage_two_rows`; default the first-pass features).

    Returns:
        Per page, a ``(candidates, context features)`` array
        (:func:`pagesieve.classify.context.context_features`).
    """
    from pagesieve.classify.classifier import BlockClassifier
    from pagesieve.classify.context import context_features
    from pagesieve.classify.model_store import compile_svm

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
    return z_pages


def out_of_fold(z: np.ndarray, y: np.ndarray, w: np.ndarray, row_fold: np.ndarray, folds: np.ndarray,
                z_pages: list[np.ndarray], seed: int = SEED) -> tuple[list[float], list[np.ndarray]]:
    """Stage 2 fitted on each fold's rows and judged on the other's.

    Args:
        z, y, w: ``(rows, features)``, ``(rows,)``, ``(rows,)`` the labelled rows, labels and
            weights (:func:`stack_context`); row_fold: ``(rows,)`` each row's fold; folds:
            ``(len(z_pages),)`` each page's fold; z_pages: per page, its context features.

    Returns:
        ``(scores, oof)``: the weighted F1 of each fold's held-out rows, and per page the
        out-of-fold probability of content of each candidate (empty for a page without any).
    """
    from sklearn.metrics import f1_score

    scores = []
    oof: list[np.ndarray] = [np.zeros(0)] * len(z_pages)
    for f in (0, 1):
        model = context_model(seed).fit(z[row_fold != f], y[row_fold != f], sample_weight=w[row_fold != f])
        scores.append(float(f1_score(y[row_fold == f], model.predict(z[row_fold == f]), sample_weight=w[row_fold == f])))
        for k in np.flatnonzero(folds == f):
            if len(z_pages[k]):
                oof[k] = model.predict_proba(z_pages[k])[:, 1]
    return scores, oof


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
    folds = np.array([fold_of(pd.group, seed) for pd in pages])
    z_pages = cross_fitted_context_rows(pages, folds, c, gamma, max_samples, seed, stage_rows)
    z, y, w, _groups, owner = stack_context(pages, z_pages)
    if balance_datasets:
        w = balanced_by_dataset(np.array([pages[k].dataset for k in owner]), w)
    scores, oof = out_of_fold(z, y, w, folds[owner], folds, z_pages, seed)
    by_cut = {str(cut): oof_page_f1(pages, oof, cut) for cut in THRESHOLD_GRID}
    best_cut = choose_cut(by_cut, peer_f1) if given_cut is None else float(given_cut)
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


@dataclass(slots=True)
class StageTwo:
    """What ``train``'s context stage adds to the model; the defaults are a model without one
    (``--no-context``).

    Attributes:
        context: the fitted stage-2 estimator; threshold: its main cut (probability in (0, 1));
        info: :func:`fit_two_stage`'s record; page_type: the page-type model
        (:func:`~pagesieve_dev.training.page_types.fit_page_type_stage`) and type_info its
        record; type_thresholds: ``{page type: cut}`` (:func:`type_cuts`); cards, typed: whether
        stage 2 reads the card columns and the page-type probabilities.
    """

    context: object = None
    threshold: float = 0.5
    info: dict | None = None
    page_type: object = None
    type_info: dict | None = None
    type_thresholds: dict[str, float] = field(default_factory=dict)
    cards: bool = False
    typed: bool = False


def fit_context_stage(pages: list[PageData], datasets_dir: Path, split: dict, c: float, gamma: float, *,
                      max_samples: int, seed: int = SEED, cards: bool = True, typed: bool = True,
                      peers: str | None = None, limit: int | None = None, balance_datasets: bool = False,
                      one_cut: bool = False, given_cut: float | None = None) -> StageTwo:
    """``train``'s step 5: the page-type model (when ``typed`` and the pages hold two labelled
    types or more), the rows stage 2 reads, the peers' scores (``peers``: comma-separated names),
    then :func:`fit_two_stage` with the stage-1 SVM's ``c`` and ``gamma``; progress on stderr.

    Raises:
        DatasetError: as :func:`~pagesieve_dev.training.page_types.fit_page_types`.
        MissingPeerError: a peer is not installed.
    """
    out = StageTwo(cards=cards, typed=typed)
    type_probabilities = None
    if typed:
        out.page_type, type_probabilities, out.type_info = fit_page_type_stage(pages, datasets_dir, seed)
        out.typed = out.page_type is not None
    rows_2 = stage_two_rows(pages, cards, type_probabilities) if (cards or out.typed) else None
    print("fitting the context stage", file=sys.stderr)
    peer_f1 = peer_scores(datasets_dir, split, peers.split(","), limit) if peers else None
    predicted = None
    if out.typed and not one_cut:
        from pagesieve.classify.page_type import PAGE_TYPES

        predicted = [PAGE_TYPES[int(np.argmax(p))] for p in type_probabilities]
    out.context, out.threshold, out.info = fit_two_stage(
        pages, c, gamma, max_samples, seed, peer_f1, rows_2, balance_datasets, predicted, given_cut)
    out.type_thresholds = out.info.get("type_thresholds", {})
    return out
