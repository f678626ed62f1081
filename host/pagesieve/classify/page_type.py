"""The page type of a page: which of the seven WCXB page types it is, as probabilities.

The seven types are WCXB's (Foley 2026; ``page_type`` in ``../shared/datasets/wcxb_dev``):
article, collection, documentation, forum, listing, product, service. They need different
decisions: a forum's posts and a listing's cards are its content, an article's cards are noise.
The classifier's context stage reads the probabilities as seven columns
(:mod:`pagesieve_dev.evaluation.cv` measures what they add).

The model is a multinomial logistic regression over the page signals of
:func:`pagesieve.blocks.signals.page_signals`, standardised: small (50 x 7 weights), fitted with
scikit-learn at training time and run here as numpy arrays (:class:`PageTypeArrays`), so the
host needs no scikit-learn.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PAGE_TYPES: tuple[str, ...] = ("article", "collection", "documentation", "forum", "listing", "product", "service")
"""The WCXB page types, in the order of the probability columns."""

PAGE_TYPE_COLUMNS: tuple[str, ...] = tuple(f"type_{t}" for t in PAGE_TYPES)
"""Column names of the page-type probabilities in the context stage's rows."""


def likeliest_type(page_type: np.ndarray | None) -> str | None:
    """The page type of :data:`PAGE_TYPES` the page-type stage gives the highest probability,
    from its probabilities ``page_type`` (``(len(PAGE_TYPES),)``, in that order); ``None`` for a
    model without the stage (``page_type`` ``None``)."""
    return None if page_type is None else PAGE_TYPES[int(np.argmax(page_type))]


@dataclass(slots=True)
class PageTypeArrays:
    """A fitted page-type model as arrays: ``softmax(((v - mean) / scale) @ coef.T + intercept)``.

    Attributes:
        mean, scale: ``(d,)`` standardisation of the page signals; coef: ``(7, d)``;
        intercept: ``(7,)``; classes: the page types of the rows of ``coef``.
    """

    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: np.ndarray
    classes: tuple[str, ...] = PAGE_TYPES

    def probabilities(self, signals: np.ndarray) -> np.ndarray:
        """``(7,)`` probabilities, in :data:`PAGE_TYPES` order, of one page's signal vector
        ``(d,)`` (or ``(n, 7)`` for ``(n, d)``)."""
        v = (np.asarray(signals, dtype=np.float64) - self.mean) / self.scale
        logits = v @ self.coef.T + self.intercept
        logits = logits - logits.max(axis=-1, keepdims=True)
        e = np.exp(logits)
        p = e / e.sum(axis=-1, keepdims=True)
        out = np.zeros(p.shape[:-1] + (len(PAGE_TYPES),))
        out[..., [PAGE_TYPES.index(t) for t in self.classes]] = p  # a type the model never saw keeps probability 0
        return out


PAGE_TYPE_C = 0.1
"""Inverse regularisation strength of the page-type logistic regression: of 0.1, 0.3 and 1.0,
0.1 gave the best site-grouped 5-fold accuracy and log loss on wcxb_dev's 1,497 labelled pages
with the 50 signals of :data:`pagesieve.blocks.signals.PAGE_SIGNALS` (0.790 / 0.667 against
0.776 / 0.767 at 1.0; models/README.md, "Page-type signals")."""


def fit_page_type(signals: np.ndarray, labels, c: float = PAGE_TYPE_C):
    """Fit the page-type model (training only: imports scikit-learn).

    Args:
        signals: ``(n, d)`` page signals; labels: ``n`` page types from :data:`PAGE_TYPES`;
        c: inverse regularisation strength of the logistic regression (:data:`PAGE_TYPE_C`).

    Returns:
        the fitted ``Pipeline(StandardScaler, LogisticRegression)``.
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    model = Pipeline([("scale", StandardScaler()), ("lr", LogisticRegression(C=c, max_iter=2000, class_weight="balanced"))])
    return model.fit(signals, list(labels))


def compile_page_type(estimator) -> PageTypeArrays:
    """The numpy twin of a pipeline from :func:`fit_page_type`."""
    scale = estimator.named_steps["scale"]
    lr = estimator.named_steps["lr"]
    coef = np.asarray(lr.coef_, dtype=np.float64)
    intercept = np.asarray(lr.intercept_, dtype=np.float64)
    if len(lr.classes_) == 2:  # a binary fit keeps one row: sigmoid(z) = softmax([0, z])
        coef = np.vstack([np.zeros_like(coef), coef])
        intercept = np.concatenate([[0.0], intercept])
    return PageTypeArrays(
        mean=np.asarray(scale.mean_, dtype=np.float64),
        scale=np.where(scale.scale_ > 0, scale.scale_, 1.0).astype(np.float64),
        coef=coef,
        intercept=intercept,
        classes=tuple(str(c) for c in lr.classes_),
    )


def cross_fitted(signals: np.ndarray, labels, folds: np.ndarray) -> np.ndarray:
    """Out-of-fold page-type probabilities (training only: imports scikit-learn).

    Args:
        signals: ``(n, d)`` page signals; labels: ``n`` page types or ``None`` (unlabelled);
        folds: ``(n,)`` fold of each page.

    Returns:
        ``(n, 7)``: each page's probabilities from a model fitted on the labelled pages of the
        other folds. Where those hold fewer than two types (a tiny run), the one type seen gets
        probability 1 (none seen: all 0).
    """
    labels = list(labels)
    labelled = np.array([t is not None for t in labels])
    out = np.zeros((len(labels), len(PAGE_TYPES)))
    for f in np.unique(folds):
        train = labelled & (folds != f)
        seen = sorted({labels[i] for i in np.flatnonzero(train)})
        if len(seen) < 2:
            for t in seen:
                out[folds == f, PAGE_TYPES.index(t)] = 1.0
            continue
        model = compile_page_type(fit_page_type(signals[train], [labels[i] for i in np.flatnonzero(train)]))
        out[folds == f] = model.probabilities(signals[folds == f])
    return out
