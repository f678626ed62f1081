"""A thread's prose between its kept posts is the thread's (:func:`keep_posts_between`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pagesieve.blocks.segment import Block, inside_tag
from pagesieve.removal import RemovalLog
from pagesieve.rules.loose import LOOSE_MAX_LINK_SHARE, SENTENCE_END

BETWEEN_MIN_CHARS = 80
"""Own characters from which a block counts as prose here, and from which a kept block bounds
the thread: a sentence or two (:data:`pagesieve.rules.loose.LOOSE_MIN_CHARS`). 40 changed the
same pages and three more (wcxb_dev +0.02, l3s_gn1 -0.01, zh_cwced -0.01); 120 gave less.
Without the test that the text ends as a sentence, 31 more pages changed, wcxb_dev -0.41
(gamefaqs' and the Student Room's one-line replies and signatures, 17 pages), cleaneval -0.04."""

BETWEEN_MIN_DECISION = 0.0
"""The first stage's (SVM) decision from which a block the context stage dropped comes back: 0,
the SVM's own boundary between content and noise (seed 000 §3.1). Every page of the eight
datasets (``pagesieve-dev eval --split all``, 2026-12-07), summed F1 over the pages that
changed: with 0.5, wcxb_dev +0.60 (27 pages), l3s_gn1 -0.14; with 0, wcxb_dev +1.10 (38 pages,
21 up), cleaneval +0.08, dragnet +0.01, l3s_gn1 -0.14; with -0.5, wcxb_dev +1.05, cleaneval
-0.07, dragnet -0.11; with 1.0, wcxb_dev +0.24."""


def keep_posts_between(blocks: list[Block], candidates: Sequence[int], decision: np.ndarray, keep: list[bool],
                       log: RemovalLog | None = None) -> list[int]:
    """On a page the page-type stage names a forum thread, keep, in place, the prose blocks that
    lie between the thread's kept blocks and that only the context stage dropped; returns the
    blocks kept so.

    A thread's replies are prose of one kind, each a block on its own; the context stage reads
    each in its neighbourhood, and a reply among short lines (a poster's name, a date, a quote
    header, buttons) scores like them: on flyertalk.com's trip report (wcxb_dev/0527) it kept
    27 % of the truth's words, the opening post and a few replies, while the first stage (the
    SVM, which reads the block alone) called the other replies content. Between the first and
    the last kept block of the thread, a block that reads as prose to the first stage is the
    thread's.

    A block is kept when: it is a candidate (``candidates``, document order, with ``decision``
    its SVM decision ``(len(candidates),)``) that is not kept; no page rule dropped it
    (``log.reasons`` holds nothing for it); its decision is at least
    :data:`BETWEEN_MIN_DECISION`; it holds at least :data:`BETWEEN_MIN_CHARS` characters of its
    own text, at most :data:`~pagesieve.rules.loose.LOOSE_MAX_LINK_SHARE` of them in links,
    ending as a sentence ends (:data:`~pagesieve.rules.loose.SENTENCE_END`); it is in no
    ``<blockquote>`` (a reply's quote of another post, which the classifier may drop and
    :func:`pagesieve.rules.quotes.drop_quoted_copies` drops when kept: brought back, a post
    quoted twice below read three times on australianfrequentflyer.com.au, wcxb_dev/1674; left
    out, every page: 20 changed, +0.16, held-out gate wcxb_dev 0.870375 -> 0.870344, within its
    standard error, the text read as the page shows it); and
    a kept candidate of at least :data:`BETWEEN_MIN_CHARS` characters comes before it and
    another after it. Kept blocks are marked ``"between"`` in ``log.kept_by``. The caller runs it on forum
    pages only (:func:`pagesieve.extract.settle`).

    Class of pages: forum threads, where the truth is the thread's posts. On articles the same
    rule lost (every page of the eight datasets: dragnet -0.47 over 11 pages, wcxb_dev's
    articles -0.07): there the prose the context stage drops between kept paragraphs is more
    often a teaser's summary, a product box or a note.

    Measured as a settling rule on forum pages, every page of the eight datasets
    (``pagesieve-dev eval --split all``, 2026-12-07): wcxb_dev 38 pages changed, summed F1 +1.10
    (0527 flyertalk 0.43 -> 0.81, 0548 prestashop 0.59 -> 0.85, 0526 warriorforum 0.60 ->
    0.85; down: 0547 affinity.serif.com 0.76 -> 0.55 and 0578 mumsnet 0.59 -> 0.50, whose
    truths hold the thread's first posts only), cleaneval +0.08 (6 pages), dragnet +0.01 (4),
    l3s_gn1 -0.14 (2: a Washington Post story's comment policy). Held-out gate (``pagesieve-dev
    gate``, 5 site-grouped folds): wcxb_dev 0.867245 -> 0.868148, cleaneval +0.0003, dragnet
    -0.0001, l3s_gn1 -0.0003 (each within its standard error), mean 0.940574 -> 0.940666. Dev
    gate (``eval wcxb_dev --cv 5 --cv-variants 'all+balanced@0.4/0.3:collection+listing/0.45:article'
    --cv-ablate between``): 0.8620 without, 0.8626 with (forum 0.7559 -> 0.7640, no other type
    changed).
    """
    reasons = log.reasons if log is not None else {}
    rows = [r for r, i in enumerate(candidates) if keep[i] and blocks[i].chars >= BETWEEN_MIN_CHARS]
    if len(rows) < 2:
        return []
    kept_now = []
    quoted = None
    for r in range(rows[0] + 1, rows[-1]):
        i = candidates[r]
        b = blocks[i]
        if keep[i] or i in reasons or decision[r] < BETWEEN_MIN_DECISION or b.chars < BETWEEN_MIN_CHARS:
            continue
        if quoted is None:
            quoted = inside_tag(blocks, "blockquote")
        if quoted[i]:
            continue
        if b.link_chars > LOOSE_MAX_LINK_SHARE * b.chars or SENTENCE_END.search(b.text) is None:
            continue
        keep[i] = True
        kept_now.append(i)
        if log is not None:
            log.kept_by[i] = "between"
    return kept_now
