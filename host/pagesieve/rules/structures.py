"""Tables, lists, figures and quotes kept whole or dropped whole (:func:`complete_structures`)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from pagesieve.blocks.segment import Block, subtree_ends
from pagesieve.removal import Removal, RemovalLog

STRUCTURE_PARTS = {
    "table": frozenset({"thead", "tbody", "tfoot", "tr", "td", "th", "caption"}),
    "ul": frozenset({"li", "ul", "ol"}),
    "ol": frozenset({"li", "ul", "ol"}),
    "dl": frozenset({"dt", "dd"}),
    "figure": frozenset({"figcaption", "p"}),
    "blockquote": frozenset({"p"}),
}
"""Structures kept whole once they are mostly content (a data table missing a header cell, a
figure without its caption), and the only blocks they may hold to count as one: a layout table
with divs, paragraphs or nested tables in its cells is a page grid, not a data table, and was
wrongly kept whole on old l3s_gn1 pages until this restriction (F1 0.940 -> 0.884 -> 0.940)."""

STRUCTURE_KEEP_SHARE = 0.5
"""Share of a structure's text that must be content for the whole structure to be kept."""

STRUCTURE_DROP_SHARE = 0.25
"""Share of a data table's or a list's text under which the blocks kept in it are dropped: a
reader is better served by no table than by two rows of forty (the infobox of readability's
``wikipedia-2`` showed as "Currency" with an empty cell and a date format). Held-out macro F1
(``pagesieve-dev eval``): cleaneval, dragnet and l3s_gn1 +0.0001, the others unchanged; 51
structures, 1,425 characters. Tables alone at 0.5 lost zh_cwced 0.0006."""

STRUCTURE_DROP_TAGS = frozenset({"table", "ul", "ol", "dl"})
"""The structures :data:`STRUCTURE_DROP_SHARE` applies to (a figure or a quote with one part
kept is still whole enough to read)."""


def complete_structures(blocks: list[Block], keep: list[bool], log: RemovalLog | None = None) -> None:
    """Keep data tables, lists, figures and quotes whole when they are mostly content, and drop
    the scraps kept of tables and lists that are mostly noise, in place; then keep the rows with a
    header cell whole (:func:`complete_labelled_rows`).

    A structure is kept whole when at least :data:`STRUCTURE_KEEP_SHARE` of its text is in kept
    blocks, or (for text-less or caption-only structures such as figures) when it is kept itself
    or the candidate blocks just before and after it are both kept. Mozilla Readability keeps a
    figure's caption with its image for the same reason (``_cleanConditionally`` spares figures).
    A table or list (:data:`STRUCTURE_DROP_TAGS`) with less than :data:`STRUCTURE_DROP_SHARE` of
    its text kept is dropped whole, and so is a table of facts with less than
    :data:`FACTS_TABLE_DROP_SHARE` (:func:`_drop_scraps_of_facts_table`). Each kept block so
    dropped is logged in ``log`` as post-rule ``"structure-scraps"`` (or ``"facts-table-scraps"``)
    with the share of the structure's text that was kept.

    Dev gate (``--cv-ablate structures``, 2026-11-25 model): wcxb_dev CV 0.8489 without,
    0.8488 with; it serves the tables and lists of reference pages (the infobox scraps below).
    """
    n = len(blocks)
    last = subtree_ends(blocks)
    with_text = [i for i in range(n) if blocks[i].chars > 0 or blocks[i].images > 0]
    for b in blocks:
        parts = STRUCTURE_PARTS.get(b.element.tag)
        if parts is None:
            continue
        inside = range(b.index, last[b.index] + 1)
        if any(blocks[i].element.tag not in parts for i in inside[1:]):
            if b.element.tag == "table":
                _drop_scraps_of_facts_table(blocks, keep, inside, log)
            continue
        total = sum(blocks[i].chars for i in inside)
        kept = sum(blocks[i].chars for i in inside if keep[i])
        whole = total > 0 and kept >= STRUCTURE_KEEP_SHARE * total
        if not whole and (total == 0 or b.element.tag == "figure"):
            k_before = bisect_left(with_text, b.index) - 1
            k_after = bisect_right(with_text, last[b.index])
            neighbours_kept = k_before >= 0 and k_after < len(with_text) and keep[with_text[k_before]] and keep[with_text[k_after]]
            whole = keep[b.index] or neighbours_kept
        if whole:
            for i in inside:
                if blocks[i].chars > 0 or blocks[i].images > 0:
                    keep[i] = True
        elif 0 < kept < STRUCTURE_DROP_SHARE * total and b.element.tag in STRUCTURE_DROP_TAGS:
            if log is not None:
                _log_scraps(log, keep, inside, "structure-scraps", b.tag, kept / total, STRUCTURE_DROP_SHARE)
            for i in inside:
                keep[i] = False
    complete_labelled_rows(blocks, keep, last)


def complete_labelled_rows(blocks: list[Block], keep: list[bool], last: list[int] | None = None) -> int:
    """Keep, in place, every cell with text of a table row that has a header cell (``<th>``)
    and a data cell (``<td>``) when any block with text inside one of its cells is kept; returns
    how many blocks it kept. ``last``: :func:`~pagesieve.blocks.segment.subtree_ends` of
    ``blocks``, when the caller has it.

    A header cell labels the data cells of its row (HTML Living Standard §4.9.12.1, "forming
    relationships between data cells and header cells"): "Capital" and "Wellington" are one fact,
    and either alone is a scrap. The classifier judges the cells one by one, so the infobox of
    readability's ``wikipedia-2`` showed "Largest city" over no city, and "Jacinda Ardern" with no
    "Prime Minister" (issue 62: what the reader shows). The row is kept rather than its kept
    label dropped: over every page of the eight datasets (``pagesieve-dev eval --split all``,
    2026-12-07) 11 pages change, summed F1 +0.008 (wcxb_dev 4869 +0.028, its key-value rows kept
    by its truth; zh_cwced +0.017; wcxb_dev's comparison tables 4072 and 4835 -0.018 and
    -0.015, whose truths leave them out); dropping the kept label instead changed the same pages by -0.080 (4869 -0.084).
    Held-out gate mean 0.939284 -> 0.939313 (zh_cwced +0.00025, readability +0.00001, wcxb_dev
    -0.00002 against a standard error of 0.0116).
    """
    if last is None:
        last = subtree_ends(blocks)
    rows: dict[object, list[Block]] = {}
    for b in blocks:
        if b.tag in ("th", "td"):
            row = b.element.getparent()
            if row is not None and row.tag == "tr":
                rows.setdefault(row, []).append(b)
    added = 0
    for cells in rows.values():
        with_text = [[i for i in range(c.index, last[c.index] + 1) if blocks[i].chars] for c in cells]
        tags = {c.tag for c, inside in zip(cells, with_text) if inside}
        if tags != {"th", "td"} or not any(keep[i] for inside in with_text for i in inside):
            continue
        for inside in with_text:
            for i in inside:
                if not keep[i]:
                    keep[i] = True
                    added += 1
    return added


def _log_scraps(log: RemovalLog, keep: list[bool], inside: range, rule: str, tag: str, share: float, cut: float) -> None:
    """Log the kept blocks of ``inside`` (a structure about to be dropped whole) as ``rule``."""
    removal = Removal("post-rule", rule, {"structure": tag, "kept_share": round(share, 3), "cut": cut})
    for i in inside:
        if keep[i]:
            log.drop(i, removal)


FACTS_TABLE_DROP_SHARE = 0.1
"""Share of a facts table's text under which the blocks kept in it are dropped
(:func:`_drop_scraps_of_facts_table`). At :data:`STRUCTURE_DROP_SHARE` (0.25) cleaneval lost
0.0009; at 0.1 no dataset moves, and 7 held-out tables (108 characters) go."""


def _drop_scraps_of_facts_table(blocks: list[Block], keep: list[bool], inside: range, log: RemovalLog | None = None) -> None:
    """Drop, in place, what was kept of a table of facts with less than
    :data:`FACTS_TABLE_DROP_SHARE` of its text kept.

    A table of facts holds lists and divisions in its cells (Wikipedia's infobox and navboxes),
    so it is no data table for :func:`complete_structures`; a table with paragraphs or tables
    inside is a page grid, where the article may be a small share of the whole, and is left
    alone. The infobox of readability's ``wikipedia-2`` showed as two rows of forty ("Currency"
    with an empty cell, and the date format) at the top of the reader view.
    """
    if any(blocks[i].element.tag in ("table", "p") for i in inside[1:]):
        return
    total = sum(blocks[i].chars for i in inside)
    kept = sum(blocks[i].chars for i in inside if keep[i])
    if 0 < kept < FACTS_TABLE_DROP_SHARE * total:
        if log is not None:
            _log_scraps(log, keep, inside, "facts-table-scraps", "table", kept / total, FACTS_TABLE_DROP_SHARE)
        for i in inside:
            keep[i] = False
