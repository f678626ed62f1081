"""A product's specification table is part of the product (:func:`keep_spec_tables`).

A product page lists its attributes as name and value pairs: a ``<table>`` whose rows hold a
``<th>`` and a ``<td>`` ("Dimensions | 10" x 8" x 0.105""), or a ``<dl>`` of ``<dt>`` and
``<dd>``. Each cell is a short line, often a link, and the classifier judges it as it would a
menu item or a label. So the specifications went while the description stayed: iFixit's toolkits
(wcxb_dev 0621, 2982) lost their specification tables, and a Wayfair product page (0620) kept
450 characters, none of them its dimensions. The WCXB truths keep these tables on most product
pages: of the 40 two-column tables of 3 rows or more on wcxb_dev's product pages, the truth holds
25 (a throwaway count, 2026-12-08); the extractor held 17.
"""

from __future__ import annotations

from lxml import etree

from pagesieve.blocks.segment import Block, subtree_ends
from pagesieve.removal import RemovalLog
from pagesieve.rules.listing import CHROME_TAGS

SPEC_MIN_ROWS = 3
"""Name and value pairs a table or a definition list needs: fewer is a price box or a
two-line caption, not a list of attributes."""

SPEC_PAIR_SHARE = 0.8
"""Share of a table's rows that must hold exactly two cells: a table with more columns compares
products or sizes, and its verdict is the classifier's."""

SPEC_MIN_CHARS = 20
"""Characters of text a specification table must hold (an empty grid of icons is none)."""

SPEC_MAX_CHARS = 3000
"""Characters of text above which a two-column table is a page laid out in a table (an older
site's body and sidebar), not a list of attributes. A guard, not a measured optimum: the
product tables of wcxb_dev hold 40 to 1,500 characters."""

_OUTER = etree.XPath(" | ".join(f"ancestor::{tag}" for tag in ("table", *sorted(CHROME_TAGS))))
"""Another table or the page's chrome (:data:`pagesieve.rules.listing.CHROME_TAGS`) around an element."""


def is_spec_table(element: etree._Element) -> bool:
    """Whether ``element`` is a list of name and value pairs: a ``<table>`` of at least
    :data:`SPEC_MIN_ROWS` rows, :data:`SPEC_PAIR_SHARE` of them with exactly two cells
    (``<th>`` or ``<td>``), or a ``<dl>`` with at least :data:`SPEC_MIN_ROWS` ``<dt>``
    children; neither inside another table nor in the page's chrome
    (:data:`~pagesieve.rules.listing.CHROME_TAGS`)."""
    tag = element.tag
    if tag == "table":
        rows = list(element.iter("tr"))
        if len(rows) < SPEC_MIN_ROWS:
            return False
        pairs = sum(1 for row in rows if sum(1 for cell in row if cell.tag in ("td", "th")) == 2)
        if pairs < SPEC_MIN_ROWS or pairs < SPEC_PAIR_SHARE * len(rows):
            return False
    elif tag == "dl":
        if sum(1 for child in element if child.tag == "dt") < SPEC_MIN_ROWS:
            return False
    else:
        return False
    return not _OUTER(element)


def keep_spec_tables(blocks: list[Block], keep: list[bool], log: RemovalLog | None = None) -> int:
    """Keep, in place, every block with text or an image inside the page's specification tables
    (:func:`is_spec_table`) that hold :data:`SPEC_MIN_CHARS` to :data:`SPEC_MAX_CHARS`
    characters, unless a page rule judged one of its blocks noise (``log.reasons``: a consent
    manager's table of cookies stays out); returns how many blocks it kept, each marked
    ``"specs"`` in ``log.kept_by``. The caller runs it on the pages the page-type stage names
    product pages (:func:`pagesieve.extract.settle`).

    Class of pages: product pages. Measured as a settling rule on every page of the eight
    datasets (``pagesieve-dev eval --split all``, 2026-12-08): wcxb_dev 16 pages changed, summed
    F1 +0.88, 10 up (Wayfair 0620 0.07 -> 0.86, 0627 0.79 -> 0.88, iFixit 2982 0.63 -> 0.71 and
    0621 0.50 -> 0.58; down: 0626 0.85 -> 0.74 and 0380 0.99 -> 0.93, whose truths leave their
    tables out); cleaneval one page +0.08; no other dataset changed. Held-out gate wcxb_dev
    0.871600 -> 0.871788, mean 0.941099 -> 0.941122. Dev gate (``eval wcxb_dev --cv 5
    --cv-variants 'all+balanced@0.4/0.3:collection+listing/0.45:article' --cv-ablate specs``):
    0.8652 without, 0.8659 with (product pages 0.6418 -> 0.6519; articles 0.9540 -> 0.9539).
    """
    reasons = log.reasons if log is not None else {}
    last = None
    added = 0
    for b in blocks:
        if b.element.tag not in ("table", "dl") or not is_spec_table(b.element):
            continue
        if last is None:
            last = subtree_ends(blocks)
        span = range(b.index, last[b.index] + 1)
        if any(i in reasons for i in span):
            continue
        chars = sum(blocks[i].chars for i in span)
        if not SPEC_MIN_CHARS <= chars <= SPEC_MAX_CHARS:
            continue
        for i in span:
            if not keep[i] and (blocks[i].chars or blocks[i].images):
                keep[i] = True
                added += 1
                if log is not None:
                    log.kept_by[i] = "specs"
    return added
