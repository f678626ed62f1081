"""A paragraph written loose in a story's container, kept with the story (:func:`keep_loose_prose`)."""

from __future__ import annotations

import re

from pagesieve.blocks.segment import Block
from pagesieve.removal import RemovalLog

LOOSE_MIN_CHARS = 80
"""Own characters from which a container's loose text counts as a paragraph: a sentence or two.
Shorter loose text between a story's paragraphs is more often a label, a date or a separator."""

LOOSE_MAX_LINK_SHARE = 0.2
"""Largest share of the loose text's characters inside links: above it the text is a run of
links (a "More on ..." line), not prose."""

LOOSE_KEPT_SHARE = 0.5
"""Share of the text of the container's child blocks (with their subtrees) that must be kept:
then the container is the story's body, and its loose paragraph is part of the story. The same
share as :data:`pagesieve.rules.structures.STRUCTURE_KEEP_SHARE`."""

CAPTION_TAGS = frozenset({"figcaption", "caption"})
"""Elements whose text describes a picture or a table: a caption, never a loose paragraph."""

SENTENCE_END = re.compile(r"[.!?…][\"'”’»)\]]*\s*$")
"""Text that ends as a sentence ends (a full stop, question or exclamation mark, or an
ellipsis, before closing quotes or brackets)."""


def keep_loose_prose(blocks: list[Block], keep: list[bool], log: RemovalLog | None = None) -> list[int]:
    """Keep, in place, the own text of a container whose child blocks are mostly kept, when that
    text is a paragraph and only the classifier dropped it; returns the blocks kept so.

    Older templates write a story's first paragraph as bare text in the story's ``<div>``, before
    its ``<p>`` elements (Yahoo! News' AP stories of 2005: ``<div id="storybody"><div
    class="storyhdr">byline</div> HOUSTON - Hurricane Rita closed in on ... <p>The storm's march
    ...</p>``). That text belongs to the container block, which holds no paragraph of its own
    markup and scores low in the context stage (0.13 on big9 ``2005_rita``, SVM 0.70), so the
    reader opened with the second paragraph: the lead, the story's most important sentence,
    was lost on nine of yahoo.com's 40 pages in big9.

    A block is kept when it is not kept, has a parent and child blocks, is no caption
    (:data:`CAPTION_TAGS`), holds at least :data:`LOOSE_MIN_CHARS` characters of its own text
    with at most :data:`LOOSE_MAX_LINK_SHARE` of them in links, that text ends as a sentence
    (:data:`SENTENCE_END`), at least :data:`LOOSE_KEPT_SHARE` of its child blocks' text
    (``chars + sub_chars`` of each) is kept, and no page rule dropped it (``log.reasons`` holds
    nothing for it: what a rule removed stays removed). Kept blocks are marked ``"loose"`` in
    ``log.kept_by``.

    Class of pages: stories whose body container holds text outside any paragraph element.
    Measured on every page of the eight shared datasets with the shipped model (a throwaway
    count against the truths, 2026-12-07): 36 blocks qualify; the truth holds the text of 32
    (1,567 tokens: big9 11, cleaneval 10, wcxb_dev 4, l3s_gn1 3, readability 2, daniel 1,
    dragnet 1) and leaves out 4 (113 tokens: a copyright line, a "published at" note, a hero's
    description, a publisher's blurb). As a settling rule, over every page (``pagesieve-dev eval
    --split all``): 36 pages changed, summed F1 +0.575 (big9 11 pages +0.273, l3s_gn1 3 +0.137,
    cleaneval 11 +0.109, readability 2 +0.069, dragnet 1 +0.008, wcxb_dev 6 +0.004, daniel 2
    -0.025); held-out gate mean 0.940171 -> 0.940386 (big9 +0.00098, readability +0.00053,
    cleaneval +0.00017, l3s_gn1 +0.00014, daniel -0.00007, wcxb_dev -0.00002); dev gate
    (``--cv-ablate loose``) 0.8612 without, 0.8613 with.
    """
    reasons = log.reasons if log is not None else {}
    kept_now = []
    for b in blocks:
        i = b.index
        if keep[i] or b.parent < 0 or not b.children or b.chars < LOOSE_MIN_CHARS or i in reasons:
            continue
        if b.tag in CAPTION_TAGS or b.link_chars > LOOSE_MAX_LINK_SHARE * b.chars:
            continue
        if SENTENCE_END.search(b.text) is None:
            continue
        total = kept = 0
        for j in b.children:
            child = blocks[j]
            size = child.chars + child.sub_chars
            total += size
            if keep[j]:
                kept += size
        if total and kept >= LOOSE_KEPT_SHARE * total:
            keep[i] = True
            kept_now.append(i)
            if log is not None:
                log.kept_by[i] = "loose"
    return kept_now
