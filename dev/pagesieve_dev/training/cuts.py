"""Stage 2's probability cuts, chosen on the out-of-fold probabilities of the training pages.

The main cut is the one of :data:`THRESHOLD_GRID` with the best out-of-fold mean page F1 over the
training datasets, or (with peer scores, ``train --peers``, :func:`peer_scores`) the best worst
margin over the best peer (:func:`choose_cut`); pages predicted as another page type than an
article get a second cut, chosen the same way on those pages alone (:func:`type_cuts`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from pagesieve_dev.evaluation.datasets import load_dataset
from pagesieve_dev.training.split import TRAIN_DATASETS

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


def oof_page_f1(pages: list, oof: list[np.ndarray], cut: float, chosen: list[int] | None = None) -> dict[str, float]:
    """Mean page F1 per dataset when stage 2's out-of-fold probabilities are cut at ``cut``.

    Args:
        pages: the training pages (``.analysis``, ``.truth``, ``.dataset``); oof: per page, the
            out-of-fold stage-2 probabilities of its candidates; chosen: the indices of the pages
            counted, in order (default: all).

    Returns:
        ``{dataset: token F1 of the kept blocks' text against the truth, mean over its pages,
        rounded to 4 places}``, datasets in the order of their first page.
    """
    from pagesieve_dev.evaluation.metric import prf

    per_dataset: dict[str, list[float]] = {}
    for k in range(len(pages)) if chosen is None else chosen:
        pd, q = pages[k], oof[k]
        texts = [pd.analysis.blocks[i].text for i, keep in zip(pd.analysis.candidates, q > cut) if keep]
        per_dataset.setdefault(pd.dataset, []).append(prf("\n".join(texts), pd.truth)[2])
    return {name: round(float(np.mean(v)), 4) for name, v in per_dataset.items()}


def choose_cut(by_cut: dict[str, dict[str, float]], peer_f1: dict[str, float] | None = None) -> float:
    """The main cut of :data:`THRESHOLD_GRID`: the best mean page F1 over the datasets, or with
    ``peer_f1`` (dataset -> best peer's macro F1) the largest worst margin over the best peer.

    Args:
        by_cut: ``{str(cut): {dataset: page F1}}`` for every cut of :data:`THRESHOLD_GRID`
            (:func:`oof_page_f1`).
    """
    if peer_f1:
        def objective(cut):
            return min(f1 - peer_f1[name] for name, f1 in by_cut[str(cut)].items() if name in peer_f1)
    else:
        def objective(cut):
            return float(np.mean(list(by_cut[str(cut)].values())))
    return max(THRESHOLD_GRID, key=objective)


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

    chosen = [k for k, kind in enumerate(predicted) if kind not in OWN_CUT_TYPES]
    counts: dict[str, int] = {}
    for k in chosen:
        counts[pages[k].dataset] = counts.get(pages[k].dataset, 0) + 1
    by_cut = {str(cut): oof_page_f1(pages, oof, cut, chosen) for cut in TYPE_CUT_GRID}
    if not chosen:
        return {}, {"pages": counts, "oof_page_f1_by_cut": by_cut}
    best = max(TYPE_CUT_GRID, key=lambda cut: (float(np.mean(list(by_cut[str(cut)].values()))), -abs(cut - main_cut)))
    cuts = {kind: float(best) for kind in PAGE_TYPES if kind not in OWN_CUT_TYPES}
    return cuts, {"pages": counts, "oof_page_f1_by_cut": by_cut, "cut": best, "own_cut_types": list(OWN_CUT_TYPES)}


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
