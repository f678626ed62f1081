"""The article's headline when the classifier left it out (:func:`headline_block`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pagesieve.blocks.features import FEATURE_NAMES

HEADLINE_LOOKBACK = 12
"""How many candidate blocks before the first content block are searched for the headline."""


def headline_block(candidates: Sequence[int], features: np.ndarray, keep: list[bool]) -> int | None:
    """The block holding the article's headline, if the classifier left it out: a block index,
    or ``None``. ``candidates``: the classified blocks; ``features``: their first-pass rows
    ``(len(candidates), N_FEATURES)`` (:func:`pagesieve.blocks.features.block_features`); ``keep``: per
    block, the verdicts so far.

    The headline is part of the main content (l3s_gn1 labels it "headline"; big9, dragnet and
    wcxb_dev truths start with it), but it is short and often sits among navigation, so the
    block classifier misses it on about a third of held-out dragnet pages. We take the block
    whose text matches the title (``title_like``: title-token overlap >= 0.8 and not much longer
    than the title; seed 001 §2.2.2's title relevance) closest before the first content block,
    within :data:`HEADLINE_LOOKBACK` candidates.

    Dev gate (``--cv-ablate headline``, 2026-11-25 model): wcxb_dev CV 0.8494 without,
    0.8488 with (-0.0006, on article pages); held out, daniel
    0.950 -> 0.952, wcxb_dev 0.850 -> 0.849, the others unchanged to three decimals.
    """
    cand = candidates
    first = next((row for row, i in enumerate(cand) if keep[i]), None)
    if first is None:
        return None
    col = FEATURE_NAMES.index("title_like")
    for row in range(first - 1, max(first - 1 - HEADLINE_LOOKBACK, -1), -1):
        if features[row, col] > 0:
            return cand[row]
    return None
