"""Second-pass features: each block seen with its neighbours' first-pass SVM decisions.

The SVM of seed 000 judges every block on its own features. Main content is one region of the
page, though: a short paragraph between two long ones is content, a long comment under the
article is not. This module turns the first-pass decisions into features of a block's
surroundings, in document order and in the block tree, for a second classifier (see
:class:`pagesieve.classify.classifier.BlockClassifier`). Stacking a context model on a local one is the
structure of Web2Text (Vogels, Ganea & Eickhoff, ECIR 2018) and of boilerpipe's rule
cascade (Kohlschütter et al., WSDM 2010 §4), here with a learned second stage.

Measured (``pagesieve-dev eval``, held-out pages): see ``models/README.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

import numpy as np

from pagesieve.blocks.segment import Block
from pagesieve.blocks.features import FEATURE_NAMES

def context_feature_names(first_pass: Sequence[str] = FEATURE_NAMES) -> tuple[str, ...]:
    """Column names of :func:`context_features` for first-pass rows with columns
    ``first_pass`` (:data:`~pagesieve.blocks.features.FEATURE_NAMES`, or those plus the box features
    of :mod:`pagesieve.blocks.layout` for the box-aware model): every first-pass column is copied."""
    return (
        "d", "d_prev1", "d_prev2", "d_next1", "d_next2", "d_window_mean",
        "d_minus_max", "d_page_mean",
        "parent_pos_share", "grand_pos_share", "great_pos_share",
        "parent_purity", "grand_purity", "great_purity",
        "before_first_strong", "after_last_strong", "dist_strong",
        "in_best_container", "best_container_purity",
        "log_chars", "r5", "comment_ancestor", "neg_ancestors", "tag_h1", "title_overlap",
        "rel_position",
        *(f"x_{name}" for name in first_pass),
        "pos_outside_comments", "comment_with_content_elsewhere",
    )


CONTEXT_FEATURE_NAMES: tuple[str, ...] = context_feature_names()
"""Column names of :func:`context_features` for the box-free model, in order."""

STRONG = 0.5
"""First-pass decision from which a block counts as surely content (for the region features)."""

_COMMENT = FEATURE_NAMES.index("comment_ancestor")
_COPIED = np.array([FEATURE_NAMES.index(n) for n in ("log_chars", "r5", "comment_ancestor", "neg_ancestors", "tag_h1", "title_overlap", "rel_position")])
_WINDOW = np.array([2, 1, 0, 3, 4])
"""Offsets in the decisions padded with two -2.0 on each side of a row's own (2), previous two
(1, 0) and next two (3, 4): the first five columns of :func:`context_features`, gathered in one
call where they were five copies. With the ancestor columns divided as two ``(n, 3)`` blocks
instead of six columns, the function took 0.967 of its time on 104 dataset pages of 3-25 ms (ten
rounds, new and old alternating in one process, 2026-11-27; ``models/README.md``, "Fixed cost
per page")."""
_MEAN_OF_FIVE = np.ones(5) / 5.0


def tree_arrays(blocks: Sequence[Block]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(parent, chars, sub_chars)`` of every block as arrays (what :func:`context_features` reads).
    Read with ``attrgetter`` rather than generator expressions: 0.966 of the time (104 dataset
    pages, ten rounds in one process, 2026-11-27)."""
    parent = np.fromiter(map(_PARENT, blocks), dtype=np.int64, count=len(blocks))
    chars = np.fromiter(map(_CHARS, blocks), dtype=np.float64, count=len(blocks))
    sub_chars = np.fromiter(map(_SUB_CHARS, blocks), dtype=np.float64, count=len(blocks))
    return parent, chars, sub_chars


_PARENT = attrgetter("parent")
_CHARS = attrgetter("chars")
_SUB_CHARS = attrgetter("sub_chars")


def context_features(tree: tuple[np.ndarray, np.ndarray, np.ndarray], candidates: Sequence[int], features: np.ndarray, decision: np.ndarray) -> np.ndarray:
    """Second-pass feature rows, one per candidate block.

    Args:
        tree: ``(parent, chars, sub_chars)`` from :func:`tree_arrays`; candidates: indices of the
            classified blocks (document order); features: their first-pass rows
            ``(n, N_FEATURES)``; decision: the first-pass SVM decision values, shape ``(n,)``.

    Returns:
        ``float64`` array ``(n, len(context_feature_names(columns of features)))``.
    """
    n = len(candidates)
    out = np.zeros((n, len(CONTEXT_FEATURE_NAMES) - len(FEATURE_NAMES) + features.shape[1]))
    if n == 0:
        return out
    d = np.asarray(decision, dtype=np.float64)
    pad = np.full(n + 4, -2.0)
    pad[2:n + 2] = d
    rows = np.arange(n)
    out[:, :5] = pad[rows[:, None] + _WINDOW]  # d, d_prev1, d_prev2, d_next1, d_next2
    out[:, 5] = np.convolve(pad, _MEAN_OF_FIVE, mode="valid")
    np.subtract(d, d.max(), out=out[:, 6])
    out[:, 7] = d.mean()

    # Positive mass (characters of blocks judged content) per subtree of the block tree.
    parent, chars, sub_chars = tree
    nb = len(parent)
    cand = np.asarray(candidates, dtype=np.int64)
    pos = np.zeros(nb)
    pos[cand] = np.where(d > 0, chars[cand], 0.0)
    sub_pos = pos.tolist()
    parent_list = parent.tolist()
    for i in range(nb - 1, 0, -1):
        p = parent_list[i]
        if p >= 0:
            sub_pos[p] += sub_pos[i]
    sub_pos = np.asarray(sub_pos)
    sub_chars = np.maximum(sub_chars, 1.0)
    total_pos = max(sub_pos[0], 1.0)
    # The best container: the block maximising positive mass x purity (a "main" region).
    score = sub_pos * (sub_pos / sub_chars)
    best = int(score.argmax())
    in_best = [False] * nb
    in_best[best] = True
    for i in range(best + 1, nb):
        if in_best[parent_list[i]]:
            in_best[i] = True
    # Ancestors one, two and three levels up (the outermost block stands for its own parent).
    up = np.where(parent >= 0, parent, np.arange(nb))
    a1 = up[cand]
    a2 = up[a1]
    a3 = up[a2]
    ancestors = np.array((a1, a2, a3))  # (3, n): the three levels, divided at once
    mass = sub_pos[ancestors]
    np.divide(mass.T, total_pos, out=out[:, 8:11])
    np.divide(mass.T, sub_chars[ancestors].T, out=out[:, 11:14])
    strong = np.flatnonzero(d > STRONG)
    if len(strong):
        out[:, 14] = rows < strong[0]
        out[:, 15] = rows > strong[-1]
        k = np.searchsorted(strong, rows)
        after = strong[np.minimum(k, len(strong) - 1)]
        before = strong[np.maximum(k - 1, 0)]
        near = np.minimum(np.abs(rows - after), np.abs(rows - before))
        out[:, 16] = np.minimum(near, 20) / 20.0
    else:
        out[:, 14] = 1.0
        out[:, 15] = 0.0
        out[:, 16] = 1.0
    out[:, 17] = np.asarray(in_best)[cand]
    out[:, 18] = sub_pos[best] / sub_chars[best]
    out[:, 19:19 + len(_COPIED)] = features[:, _COPIED]
    out[:, 19 + len(_COPIED):-2] = features
    # Comments under an article read like paragraphs; on a forum page the posts are the
    # content. What tells them apart is whether content was found outside comment regions.
    in_comments = features[:, _COMMENT] > 0
    cand_chars = chars[cand]
    positive = d > 0
    total = cand_chars[positive].sum()
    outside = cand_chars[positive & ~in_comments].sum() / total if total > 0 else 0.0
    out[:, -2] = outside
    out[:, -1] = np.where(in_comments, outside, 0.0)
    return out
