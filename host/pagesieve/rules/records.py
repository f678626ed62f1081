"""The posts of a thread read alike: the part of a post most of the thread keeps is kept in
every post (:func:`complete_records`).

A forum thread is a run of look-alike records (XenForo's ``article.message``, Discourse's
``div.topic-post``, phpBB's ``div.post``), each with the same parts: the poster's name, the
date, the body, a signature, buttons. The classifier judges each body on its own, and a short
reply ("In-house movements.", "This") has the features of a label, so it went while the long
posts around it stayed: on wcxb_dev/0529 (watchuseek.com) 2 of 11 replies were kept, recall
0.37. The page's own records say better than any one block's features which part is the post:
the part kept in most of the thread, by its characters.

This is Yi, Liu and Li's site style tree (seed 003, ``../shared/design/ALGORITHMS.md``) turned
inward: the presentation style a part has in every record of the page marks it as the same
part, and the part's verdict is the one most of its text has.
"""

from __future__ import annotations

import numpy as np

from pagesieve.blocks.segment import Block, subtree_ends
from pagesieve.classify.page_type import PAGE_TYPES
from pagesieve.removal import RemovalLog

RECORD_MIN_RUN = 3
"""Records a run of look-alike siblings needs (an opening post and two replies), and records a
part must appear in."""

RECORD_MIN_KEPT = 2
"""Records whose part the classifier kept before the part is kept in the others."""

RECORD_KEEP_SHARE = 0.5
"""Share of a part's characters, over the run, that must be in records where the classifier kept
it: most of what the thread says in that part."""

FORUM_SURE = 0.9
"""Probability of ``forum`` (:mod:`pagesieve.classify.page_type`) a page needs for its records
to be completed. On the article pages of the older news sets a comment list is a run of records
too, and there the truth leaves the comments out: at the argmax alone (about 0.4-0.5 on those
pages) 87 pages of cleaneval, dragnet and l3s_gn1 changed, 64 of them down (sum of F1 -0.64);
at 0.9, 6 pages (-0.08), while wcxb_dev's forum threads gained +0.98 over 52 pages (all pages of
the eight datasets, ``pagesieve-dev eval --split all``). Dev gate (``--cv 5 wcxb_dev
--cv-ablate records``, page types cross-fitted): forum 0.7398 -> 0.7448, all 0.8594 -> 0.8598
at 0.9; at 0.5, forum 0.7470, all 0.8600, the price of the news sets above. Held-out gate:
wcxb_dev 0.860892 -> 0.861324, cleaneval and l3s_gn1 -0.00002, mean 0.937244 -> 0.937293."""


def forum_sure(page_type: np.ndarray | None) -> bool:
    """Whether the page-type stage gives ``forum`` at least :data:`FORUM_SURE` for a page
    (``page_type``: ``(len(PAGE_TYPES),)`` probabilities, or ``None`` for a model without the
    stage, which never completes records)."""
    return page_type is not None and float(page_type[PAGE_TYPES.index("forum")]) >= FORUM_SURE


def _parts(blocks: list[Block], root: int, end: int) -> dict[tuple, list[int]]:
    """Per part of the record ``root`` (its subtree ``root .. end``), the blocks with own text
    that are that part. A part is named by the signatures (:attr:`Block.signature`) from the
    record down to the block, the record's own text being part ``()``."""
    path: dict[int, tuple] = {root: ()}
    out: dict[tuple, list[int]] = {}
    for i in range(root, end + 1):
        b = blocks[i]
        if i != root:
            path[i] = path[b.parent] + (b._signature or b.signature,)
        if b.chars > 0:
            out.setdefault(path[i], []).append(i)
    return out


def _body_part(blocks: list[Block], keep: list[bool], found: dict[tuple, list[list[int]]]) -> list[list[int]] | None:
    """Of a run's parts (per part, its blocks in each record that has it), the one to keep
    whole: kept in at least :data:`RECORD_MIN_KEPT` records but not all, in
    :data:`RECORD_MIN_RUN` records or more, with at least :data:`RECORD_KEEP_SHARE` of its
    characters kept; of several, the one with the most characters kept (the post's body,
    not a quote or a signature some posts keep)."""
    best, best_chars = None, 0
    for per_record in found.values():
        if len(per_record) < RECORD_MIN_RUN:
            continue
        kept = [idx for idx in per_record if all(keep[i] for i in idx)]
        if len(kept) < RECORD_MIN_KEPT or len(kept) == len(per_record):
            continue
        kept_chars = sum(blocks[i].chars for idx in kept for i in idx)
        total = sum(blocks[i].chars for idx in per_record for i in idx)
        if kept_chars >= RECORD_KEEP_SHARE * total and kept_chars > best_chars:
            best, best_chars = per_record, kept_chars
    return best


def complete_records(blocks: list[Block], keep: list[bool], groups: list[list[int]],
                     log: RemovalLog | None = None) -> int:
    """Keep, in every record of each run of look-alike siblings (``groups``: the page's
    :func:`pagesieve.blocks.segment.sibling_groups`, at least :data:`RECORD_MIN_RUN` members),
    the part most of the run keeps (:func:`_body_part`), in place. Call it on forum threads
    only (:func:`forum_sure`). Returns how many blocks it kept; ``log`` (a
    :class:`~pagesieve.removal.RemovalLog`) notes them as kept by ``"records"``."""
    last = subtree_ends(blocks)
    added = 0
    for members in groups:
        if len(members) < RECORD_MIN_RUN:
            continue
        found: dict[tuple, list[list[int]]] = {}
        for r in members:
            for part, idx in _parts(blocks, r, last[r]).items():
                found.setdefault(part, []).append(idx)
        body = _body_part(blocks, keep, found)
        for idx in body or ():
            for i in idx:
                if not keep[i]:
                    keep[i] = True
                    added += 1
                    if log is not None:
                        log.kept_by[i] = "records"
    return added
