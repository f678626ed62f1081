"""A listing page left with its heading alone keeps its grid of items (:func:`widen_thin_listing`).

A shop's category page or a best-seller list is a heading, a line of introduction, and a grid
of items: a title, an author or a brand, a price, a rating each. Each item's parts are short
and half links, the features of a teaser card, and the classifier dropped them all: Amazon's
books best-sellers (wcxb_dev/2922) kept "Amazon Best Sellers", "Our most popular products
based on sales. Updated frequently." and "Best Sellers in Books", recall 0.01 of 1,253 words;
giro.com's lights (4410) the filter labels. The reader showed a heading over nothing.

On a page the page-type stage calls a collection or a listing, whose kept text is that thin
and holds no sentence, the page's largest run of look-alike items (seed 004's quasi-identical
siblings, Yang, Li & Geng 2015, §2.2) outside the page's navigation, header, footer and
asides is its content.
"""

from __future__ import annotations

import numpy as np

from pagesieve.blocks.segment import Block, subtree_ends
from pagesieve.classify.page_type import likeliest_type
from pagesieve.removal import RemovalLog

LISTING_TYPES = ("collection", "listing")
"""The WCXB page types (:data:`~pagesieve.classify.page_type.PAGE_TYPES`) whose content is a
grid of items: the page-type stage must name one of them the likeliest."""

THIN_LISTING_CHARS = 250
"""Characters of kept text under which a listing page is left with its heading alone: the
thin page of :data:`pagesieve.rules.thin.THIN_PAGE_CHARS`, the same measure. At 500, daniel's
taiwannews.com.tw story of 440 characters, a listing to the page-type stage, took its
"related news" run (F1 1.00 -> 0.37)."""

SENTENCE_CHARS = 80
"""Characters of the longest kept block from which the kept text is a short story, not a
heading: a sentence of about 13 English words. Without it, seven short stories of daniel,
dragnet and cleaneval that the page-type stage called listings took a run of related links
(chinanews.com, rizospastis.gr, we-dwoje.pl: F1 -0.6 to -0.9 each); their longest kept blocks
hold 83 to 140 characters, the listings' headings and introductions 50 to 71 (wcxb_dev 2922,
4410, 0659; cleaneval final_212, final_668; zh_cwced 386d70f8). Chosen on those pages: 7 pages
in all, not a measured optimum."""

ITEM_MIN_RUN = 4
"""Items a run needs: a grid's first row."""

ITEM_MIN_PARTS = 2
"""Blocks with text the median item of a run must hold (a title and a price): a menu's items
hold one, a link each."""

ITEM_MAX_LINK_SHARE = 0.9
"""Share of a run's text in links above which it is a menu of links, not a grid of items."""

CHROME_TAGS = frozenset({"nav", "header", "footer", "aside"})
"""The elements whose runs are the site's chrome (menus, footer columns, a mega-menu's
cards), never the listing."""


def _thin_heading(blocks: list[Block], keep: list[bool]) -> bool:
    """Whether the kept blocks hold fewer than :data:`THIN_LISTING_CHARS` characters and none
    holds :data:`SENTENCE_CHARS`."""
    kept = [b.chars for b in blocks if keep[b.index]]
    return sum(kept) < THIN_LISTING_CHARS and max(kept, default=0) < SENTENCE_CHARS


def _in_chrome(blocks: list[Block], index: int) -> bool:
    """Whether block ``index`` lies inside one of :data:`CHROME_TAGS`."""
    p = blocks[index].parent
    while p >= 0:
        if blocks[p].element.tag in CHROME_TAGS:
            return True
        p = blocks[p].parent
    return False


def item_grid(blocks: list[Block], groups: list[list[int]], last: list[int]) -> list[int] | None:
    """The page's grid of items: of its runs of look-alike siblings (``groups``:
    :func:`pagesieve.blocks.segment.sibling_groups`), the one with the most text among those of
    :data:`ITEM_MIN_RUN` members or more, at most :data:`ITEM_MAX_LINK_SHARE` of it in links,
    whose median member holds :data:`ITEM_MIN_PARTS` blocks with text, outside the page's
    chrome (:data:`CHROME_TAGS`); its members' block indices, or ``None``. ``last``: the
    page's :func:`~pagesieve.blocks.segment.subtree_ends`."""
    best, best_chars = None, 0
    for members in groups:
        if len(members) < ITEM_MIN_RUN:
            continue
        chars = sum(blocks[r].sub_chars for r in members)
        if chars <= best_chars or sum(blocks[r].sub_link_chars for r in members) > ITEM_MAX_LINK_SHARE * chars:
            continue
        parts = sorted(sum(1 for i in range(r, last[r] + 1) if blocks[i].chars) for r in members)
        if parts[len(parts) // 2] < ITEM_MIN_PARTS or _in_chrome(blocks, members[0]):
            continue
        best, best_chars = members, chars
    return best


def widen_thin_listing(blocks: list[Block], keep: list[bool], groups: list[list[int]],
                       page_type: np.ndarray | None, log: RemovalLog | None = None) -> int:
    """Keep, in place, every block with text or an image of the page's :func:`item_grid` when
    the page-type stage (``page_type``: ``(len(PAGE_TYPES),)`` probabilities, or ``None``:
    never) names one of :data:`LISTING_TYPES` the likeliest and the kept text is a heading
    alone (:func:`_thin_heading`), except the blocks an earlier page rule judged noise (those
    ``log`` holds a reason for, as :func:`pagesieve.rules.thin.widen_thin_page` leaves them: a
    consent manager's list of purposes is a grid too). Returns how many blocks it kept; ``log``
    notes them as kept by ``"listing"``.

    All pages of the eight datasets (``pagesieve-dev eval --split all``, word F1): 7 change,
    6 up (wcxb_dev 2922 0.03 -> 0.76, 4410 0.25 -> 0.86, 0659 0.02 -> 0.08; cleaneval
    final_212 0.12 -> 0.69, final_668 0.11 -> 0.76; zh_cwced 386d70f8 0.43 -> 0.85) and
    dragnet/273 0.07 -> 0.07 (-0.004). Dev gate (``--cv 5 wcxb_dev --cv-ablate listing``, page
    types cross-fitted): collection 0.6462 -> 0.6503, all 0.8598 -> 0.8601. Held-out gate:
    cleaneval 0.929093 -> 0.932447, zh_cwced 0.932477 -> 0.938505, wcxb_dev 0.861324 ->
    0.863270, dragnet -0.00001, the rest equal; mean 0.937293 -> 0.938708.
    """
    if likeliest_type(page_type) not in LISTING_TYPES:
        return 0
    if not _thin_heading(blocks, keep):
        return 0
    last = subtree_ends(blocks)
    grid = item_grid(blocks, groups, last)
    if grid is None:
        return 0
    dropped = log.reasons if log is not None else {}
    added = 0
    for r in grid:
        for i in range(r, last[r] + 1):
            if (blocks[i].chars or blocks[i].images) and not keep[i] and i not in dropped:
                keep[i] = True
                added += 1
                if log is not None:
                    log.kept_by[i] = "listing"
    return added
