"""Token-level precision, recall and F1 of an extracted text against the ground truth.

This is the bag-of-tokens measure of the article-extraction benchmarks (see
``../shared/datasets/README.md``, "How to score"):

* :func:`~pagesieve.tokens.tokens` splits a text into tokens (every CJK character a token of
  its own, any other maximal run of Unicode letters and digits another; lower-cased; see
  :mod:`pagesieve.tokens`, which the user package shares with this metric).
* :func:`prf` compares the token *multisets* (a token repeated three times in the truth and
  twice in the prediction matches twice).
* A dataset's figure is the macro mean over its pages of the per-page P, R and F1
  (:func:`macro`), not one pooled count. Pages whose truth has no token at all (cleaneval has
  7 empty gold files) are left out of that mean: there is nothing to score them against.
  This is how the reference figures in the issues were computed (including them, with the
  conventions of :func:`prf`, moves cleaneval by about 0.007).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pagesieve.tokens import tokens


def prf(predicted: str, truth: str) -> tuple[float, float, float]:
    """Precision, recall and F1 (each in [0, 1]) of ``predicted``'s tokens against ``truth``'s.

    With ``tp`` the size of the multiset intersection, ``P = tp / |predicted|``,
    ``R = tp / |truth|`` and ``F1 = 2PR / (P + R)`` (0 when ``P + R`` is 0).

    Conventions when one side has no tokens (so a ratio would be 0/0):

    ===========  ==========  ===============  ========================================
    truth        prediction  (P, R, F1)       why
    ===========  ==========  ===============  ========================================
    empty        empty       (1, 1, 1)        nothing to find, nothing wrongly output
    empty        some        (0, 1, 0)        all output is noise; nothing was missed
    some         empty       (0, 0, 0)        an empty answer earns no precision, so a
                                              failing extractor never looks precise
    ===========  ==========  ===============  ========================================

    (The first two rows only matter for single-page use: dataset figures skip pages with
    an empty truth, see the module docstring.)
    """
    return prf_counts(Counter(tokens(predicted)), Counter(tokens(truth)))


def prf_counts(pred: Counter[str], true: Counter[str]) -> tuple[float, float, float]:
    """:func:`prf` on token multisets already counted (``Counter(tokens(text))``)."""
    n_pred = sum(pred.values())
    n_true = sum(true.values())
    if n_true == 0:
        return (1.0, 1.0, 1.0) if n_pred == 0 else (0.0, 1.0, 0.0)
    if n_pred == 0:
        return (0.0, 0.0, 0.0)
    tp = sum((pred & true).values())
    if tp == 0:
        return (0.0, 0.0, 0.0)
    p = tp / n_pred
    r = tp / n_true
    return (p, r, 2 * p * r / (p + r))


def macro(scores: Iterable[tuple[float, float, float]]) -> tuple[float, float, float]:
    """Mean over pages of per-page (P, R, F1) triples; ``(0, 0, 0)`` for no pages."""
    n = 0
    sp = sr = sf = 0.0
    for p, r, f in scores:
        n += 1
        sp += p
        sr += r
        sf += f
    if n == 0:
        return (0.0, 0.0, 0.0)
    return (sp / n, sr / n, sf / n)
