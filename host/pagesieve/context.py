"""Second-pass features: each block seen with its neighbours' first-pass SVM decisions.

The SVM of seed 000 judges every block on its own features. Main content is one region of the
page, though: a short paragraph between two long ones is content, a long comment under the
article is not. This module turns the first-pass decisions into features of a block's
surroundings, in document order and in the block tree, for a second classifier (see
:class:`pagesieve.classifier.BlockClassifier`). Stacking a context model on a local one is the
structure of Web2Text (Vogels, Ganea & Eickhoff, ECIR 2018) and of boilerpipe's rule
cascade (Kohlschütter et al., WSDM 2010 §4), here with a learned second stage.

Measured (``pagesieve eval``, held-out pages): see ``models/README.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pagesieve.blocks import Block
from pagesieve.features import FEATURE_NAMES

CONTEXT_FEATURE_NAMES: tuple[str, ...] = (
    "d", "d_prev1", "d_prev2", "d_next1", "d_next2", "d_window_mean",
    "d_minus_max", "d_page_mean",
    "parent_pos_share", "grand_pos_share", "great_pos_share",
    "parent_purity", "grand_purity", "great_purity",
    "before_first_strong", "after_last_strong", "dist_strong",
    "in_best_container", "best_container_purity",
    "log_chars", "r5", "comment_ancestor", "neg_ancestors", "tag_h1", "title_overlap",
    "rel_position",
)
"""Column names of :func:`context_features`, in order."""

STRONG = 0.5
"""First-pass decision from which a block counts as surely content (for the region features)."""

_COPIED = tuple(FEATURE_NAMES.index(n) for n in ("log_chars", "r5", "comment_ancestor", "neg_ancestors", "tag_h1", "title_overlap", "rel_position"))


def tree_arrays(blocks: Sequence[Block]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(parent, chars, sub_chars)`` of every block as arrays (what :func:`context_features` reads)."""
    parent = np.fromiter((b.parent for b in blocks), dtype=np.int64, count=len(blocks))
    chars = np.fromiter((b.chars for b in blocks), dtype=np.float64, count=len(blocks))
    sub_chars = np.fromiter((b.sub_chars for b in blocks), dtype=np.float64, count=len(blocks))
    return parent, chars, sub_chars


def context_features(tree: tuple[np.ndarray, np.ndarray, np.ndarray], candidates: Sequence[int], features: np.ndarray, decision: np.ndarray) -> np.ndarray:
    """Second-pass feature rows, one per candidate block.

    Args:
        tree: ``(parent, chars, sub_chars)`` from :func:`tree_arrays`; candidates: indices of the
            classified blocks (document order); features: their first-pass rows
            ``(n, N_FEATURES)``; decision: the first-pass SVM decision values, shape ``(n,)``.

    Returns:
        ``float64`` array ``(n, len(CONTEXT_FEATURE_NAMES))``.
    """
    n = len(candidates)
    out = np.zeros((n, len(CONTEXT_FEATURE_NAMES)))
    if n == 0:
        return out
    d = np.asarray(decision, dtype=np.float64)
    pad = np.concatenate([[-2.0, -2.0], d, [-2.0, -2.0]])
    out[:, 0] = d
    out[:, 1] = pad[1:n + 1]
    out[:, 2] = pad[0:n]
    out[:, 3] = pad[3:n + 3]
    out[:, 4] = pad[4:n + 4]
    out[:, 5] = np.convolve(pad, np.ones(5) / 5.0, mode="valid")
    out[:, 6] = d - d.max()
    out[:, 7] = d.mean()

    # Positive mass (characters of blocks judged content) per subtree of the block tree.
    parent, chars, sub_chars = tree
    nb = len(parent)
    cand = np.asarray(candidates, dtype=np.int64)
    pos = np.zeros(nb)
    pos[cand] = np.where(d > 0, chars[cand], 0.0)
    sub_pos = pos.copy()
    for i in range(nb - 1, 0, -1):
        p = parent[i]
        if p >= 0:
            sub_pos[p] += sub_pos[i]
    sub_chars = np.maximum(sub_chars, 1.0)
    total_pos = max(sub_pos[0], 1.0)
    # The best container: the block maximising positive mass x purity (a "main" region).
    score = sub_pos * (sub_pos / sub_chars)
    best = int(score.argmax())
    in_best = np.zeros(nb, dtype=bool)
    in_best[best] = True
    for i in range(best + 1, nb):
        if in_best[parent[i]]:
            in_best[i] = True
    strong = np.flatnonzero(d > STRONG)
    first_strong = strong[0] if len(strong) else n
    last_strong = strong[-1] if len(strong) else -1
    for row, i in enumerate(candidates):
        a1 = parent[i] if parent[i] >= 0 else i
        a2 = parent[a1] if parent[a1] >= 0 else a1
        a3 = parent[a2] if parent[a2] >= 0 else a2
        out[row, 8] = sub_pos[a1] / total_pos
        out[row, 9] = sub_pos[a2] / total_pos
        out[row, 10] = sub_pos[a3] / total_pos
        out[row, 11] = sub_pos[a1] / sub_chars[a1]
        out[row, 12] = sub_pos[a2] / sub_chars[a2]
        out[row, 13] = sub_pos[a3] / sub_chars[a3]
        out[row, 14] = 1.0 if row < first_strong else 0.0
        out[row, 15] = 1.0 if row > last_strong else 0.0
        if len(strong):
            k = np.searchsorted(strong, row)
            near = min(abs(row - strong[min(k, len(strong) - 1)]), abs(row - strong[max(k - 1, 0)]))
            out[row, 16] = min(near, 20) / 20.0
        else:
            out[row, 16] = 1.0
        out[row, 17] = 1.0 if in_best[i] else 0.0
    out[:, 18] = sub_pos[best] / sub_chars[best]
    out[:, 19:] = features[:, _COPIED]
    return out
