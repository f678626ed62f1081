"""A page the page rules left thin keeps the blocks scored near its best (:func:`widen_thin_page`)."""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from pagesieve.blocks.segment import Block
from pagesieve.classify.classifier import FALLBACK_MARGIN

THIN_PAGE_CHARS = 250
"""Characters of kept text under which a page is thin after the page rules
(:func:`widen_thin_page`): about 40 English words, a caption's worth, or 250 CJK characters."""


def widen_thin_page(blocks: list[Block], candidates: list[int], keep: list[bool], score: np.ndarray,
                    dropped: Collection[int] = ()) -> None:
    """When the blocks kept after :func:`pagesieve.extract.settle` hold fewer than
    :data:`THIN_PAGE_CHARS` characters, also keep, in place, the ``candidates`` (block indices,
    document order) scored within :data:`~pagesieve.classify.classifier.FALLBACK_MARGIN` of the
    page's best score (``score``: stage 2's, ``(len(candidates),)``), except the blocks in
    ``dropped`` (those a page rule dropped: the keys of ``analysis.removals.reasons``).

    The classifier's own fallback (:meth:`~pagesieve.classify.classifier.BlockClassifier.verdict`)
    does this when no block passes the cut; a page where one heading passed, or whose one kept
    block a rule then dropped as a table's scrap, was as empty to its reader. On wcxb_dev's
    product lists (bhphotovideo.com's camera category: nothing, now 907 words) and daniel's
    video pages (a caption of six words, now the story's nineteen). Dev gate, 2026-12-05, over
    the 8 datasets (site-grouped folds of held-out pages): daniel 0.9508 -> 0.9530, wcxb_dev
    0.8590 -> 0.8601, the others unchanged; mean 0.9358 -> 0.9362. The same at 500
    characters. Re-adding the blocks the comment rule dropped lost dragnet 0.0065 (blogs
    whose comments outweigh a short post); a wider margin (0.2) lost zh_cwced 0.0031, and half
    the best score instead of the margin lost dragnet 0.0032.
    """
    if not len(score) or sum(blocks[i].chars for i in range(len(keep)) if keep[i]) >= THIN_PAGE_CHARS:
        return
    cut = float(score.max()) - FALLBACK_MARGIN
    for i, value in zip(candidates, score.tolist()):
        if value >= cut and blocks[i].chars and i not in dropped:
            keep[i] = True
