"""The page-type model that stage 2 reads (:mod:`pagesieve.classify.page_type`), fitted on the
labelled wcxb_dev pages and cross-fitted on the training sites' two halves.

Part of step 5 of ``pagesieve-dev train`` (``--no-page-type`` leaves it out): each training page
gets its page-type probabilities from a model that did not see its site, as at run time.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from pagesieve.errors import DatasetError
from pagesieve_dev.evaluation.datasets import load_dataset
from pagesieve_dev.training.pages import PageData
from pagesieve_dev.training.split import SEED, fold_of


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


def fit_page_type_stage(pages: list[PageData], datasets_dir: Path, seed: int = SEED):
    """The page-type model of ``train`` with its cross-fitted probabilities and its record for
    ``training.json``; left out (a line on stderr) when the training pages hold fewer than two
    labelled page types.

    Returns:
        ``(estimator, probabilities, info)`` as :func:`fit_page_types` gives the first two
        (``(len(pages), 7)`` probabilities), ``info`` with the labelled pages and the share of them
        whose most probable cross-fitted type is right; ``(None, None, None)`` when left out.

    Raises:
        DatasetError: as :func:`fit_page_types`.
    """
    kinds = page_types_of(pages, datasets_dir)
    if len({k for k in kinds if k is not None}) < 2:
        print("page type: fewer than two labelled page types among the training pages; left out", file=sys.stderr)
        return None, None, None
    page_type, type_probabilities = fit_page_types(pages, kinds, seed)
    from pagesieve.blocks.signals import PAGE_SIGNALS
    from pagesieve.classify.page_type import PAGE_TYPE_C, PAGE_TYPES

    labelled = [(k, p) for k, p in zip(kinds, type_probabilities) if k is not None]
    right = sum(PAGE_TYPES[int(np.argmax(p))] == k for k, p in labelled)
    type_info = {"pages": len(labelled), "cross_fitted_accuracy": round(right / len(labelled), 4),
                 "model": f"Pipeline(StandardScaler, LogisticRegression(C={PAGE_TYPE_C}, class_weight='balanced'))",
                 "signals": len(PAGE_SIGNALS)}
    print(f"page type: {right} of {len(labelled)} labelled pages right (cross-fitted)", file=sys.stderr)
    return page_type, type_probabilities, type_info
