"""The legal small print a page names a disclaimer (:func:`drop_disclaimers`)."""

from __future__ import annotations

import re

from pagesieve.blocks.segment import Block, subtree_ends
from pagesieve.removal import Removal, RemovalLog

DISCLAIMER_CLASS = re.compile(r"disclaimer", re.IGNORECASE)
"""The class or id word of a page's legal small print, matched anywhere in the attribute:
Forbes's ``<p class="short legal-disclaimer">`` "Opinions expressed by Forbes Contributors are
their own" under every contributor's story (big9), Famous Footwear's ``text--disclaimer`` terms
under its promotions (wcxb_dev/4190), Vanguard's ``cmp-richtext--disclaimer`` fund notes
(wcxb_dev/4506). Two more words were measured on every page of the eight datasets (2026-12-07)
and left out: ``fine-?print`` names nothing there; ``disclosure`` cost 0.25 summed F1 over all
pages (calculators' truths keep their disclosures, wcxb_dev/4654, 4657) while it gained wcxb_dev's
held-out gate 0.00016, well inside its standard error (0.011), and it is also the name of a
show-and-hide widget (Shopify's ``disclosure__content`` holds a product's description,
wcxb_dev/4017)."""

MAX_SHARE = 0.5
"""The largest share of the page's kept characters that a named subtree may hold and still be
dropped: a wrapper so named that holds the article itself (wcxb_dev/4431's post) is over it.
Summed F1 over every page of the eight datasets against this value (2026-12-07): 0.3 -0.58
(4190's promotion terms are 30-50 % of what its listing keeps), 0.7 -0.003, 1.0 -1.11 (4431's
whole story goes)."""


def _named(block: Block, parent: Block | None) -> bool:
    """True when the element of ``block``, or an ancestor below the element of its parent
    block, has a class or id matching :data:`DISCLAIMER_CLASS` (the wrapper of a block's small print is
    often a ``<div>`` that is no block of its own)."""
    stop = parent.element if parent is not None else None
    element = block.element
    while element is not None and element is not stop and element.tag not in ("body", "html"):
        names = " ".join(filter(None, (element.get("class"), element.get("id"))))
        if names and DISCLAIMER_CLASS.search(names):
            return True
        element = element.getparent()
    return False


def drop_disclaimers(blocks: list[Block], keep: list[bool], log: RemovalLog | None = None) -> int:
    """Judge noise, in place, every kept block inside a block the page names a disclaimer
    (:func:`_named`, :data:`DISCLAIMER_CLASS`) when that block holds at most :data:`MAX_SHARE` of
    the page's kept characters; returns how many blocks were dropped. Each drop is logged in
    ``log`` as post-rule ``"disclaimer"``.

    The classifier keeps these lines: they are sentences of prose set in the article's column
    (the Forbes contributor's disclaimer, a shop's "valid 03/12/26 through 03/16/26" terms),
    where only the page's own name for them says what they are. On every page of the eight
    datasets (2026-12-07) it changes 49, summed F1 +1.68: big9 10 up (+0.174, all Forbes),
    l3s_gn1 3 up (+0.094), cleaneval 1 up 3 down (-0.022: an investment firm's and a
    conference's notes its truths keep), wcxb_dev 28 up 4 down (+1.431; the largest fall,
    0112 -0.058, a page whose headline sits inside its ``disclaimer`` wrapper); the other four
    sets do not change. Held-out gate (site-grouped folds): big9 +0.0006, wcxb_dev +0.0016
    (standard error 0.011), cleaneval +0.00006, the others unchanged; mean 0.939313 -> 0.939593.
    """
    total = sum(b.chars for b in blocks if keep[b.index])
    if not total:
        return 0
    ends = subtree_ends(blocks)
    dropped = 0
    i = 0
    while i < len(blocks):
        block = blocks[i]
        parent = blocks[block.parent] if block.parent >= 0 else None
        if not _named(block, parent):
            i += 1
            continue
        inside = range(i, ends[i] + 1)
        kept = sum(blocks[j].chars for j in inside if keep[j])
        if 0 < kept <= MAX_SHARE * total:
            for j in inside:
                if keep[j] and blocks[j].chars:
                    keep[j] = False
                    dropped += 1
                    if log is not None:
                        log.drop(j, Removal("post-rule", "disclaimer", {"chars": blocks[j].chars}))
        i = ends[i] + 1
    return dropped
