"""Tables in the article: which lay a page out and which hold data (:func:`is_layout_table`), and
layout tables turned into plain containers (:func:`unwrap_layout_tables`) for the reader's HTML
(:func:`pagesieve.article.render.finish_html`) and the Markdown
(:func:`pagesieve.article.markdown.html_to_markdown`)."""

from __future__ import annotations

from lxml import etree


LAYOUT_CELL_TAGS = frozenset({"p", "div", "table", "ul", "ol", "dl", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "figure"})
"""Block elements that make a table a layout table when a cell holds one: a data table's cells
hold words and numbers, a page grid's cells hold paragraphs (the same test Mozilla Readability
applies in ``_markDataTables``: a table with nested tables or block content is layout)."""


def unwrap_layout_tables(root: etree._Element) -> int:
    """Turn layout tables under ``root`` into plain containers, in place; returns how many.

    A table is a layout table when one of its cells holds a block element
    (:data:`LAYOUT_CELL_TAGS`) or when no row has two cells (a one-column grid). Its table,
    section and row elements become ``div``, its cells ``p`` (``div`` when they hold blocks), so
    that Markdown shows the text as paragraphs, not as one giant table cell; data tables are
    left alone. Innermost tables first.
    """
    count = 0
    for table in reversed(list(root.iter("table"))):
        if not is_layout_table(table):
            continue
        parts = [e for e in table.iter("thead", "tbody", "tfoot", "tr", "td", "th", "caption") if _nearest_table(e) is table]
        for element in [table, *parts]:
            # a cell of words becomes a paragraph (so cells do not run together), the rest div
            inline_cell = element.tag in ("td", "th", "caption") and not any(
                isinstance(d.tag, str) and d.tag in LAYOUT_CELL_TAGS for d in element.iterdescendants()
            )
            element.tag = "p" if inline_cell else "div"
            element.attrib.clear()
        count += 1
    return count


DATA_TABLE_TAGS = ("th", "thead", "tfoot", "col", "colgroup")
"""Elements only a data table needs: header cells, header and footer row groups, column
definitions. Mozilla Readability's ``_markDataTables`` takes a table holding one of them for a
data table before it looks at nested tables or sizes."""


def is_layout_table(table: etree._Element) -> bool:
    """True if ``table`` lays out a page rather than holding data: its ``role`` is
    ``presentation`` (WAI-ARIA), or no row of its own has two cells, or, when it has none of the
    parts of a data table (:data:`DATA_TABLE_TAGS`) of its own, one of its own cells holds a
    block element (:data:`LAYOUT_CELL_TAGS`).

    A table with header cells is data whatever its cells hold, as Readability has it: a product
    comparison whose cells are lists and paragraphs (wcxb_dev/4835, 13 toothbrushes by price,
    pros, cons, battery life, weight), a Wikipedia infobox whose values are ``<div>`` lists
    (readability's wikipedia-2). Read as a layout table, the reader and the Markdown showed
    their cells one paragraph after another, the row names apart from their values. Of the 355
    pages of readability, wcxb_dev, big9 and cleaneval whose source has a ``<th>``, the
    Markdown of 48 changes; the text of none."""
    if (table.get("role") or "").strip().lower() == "presentation":
        return True
    rows = [tr for tr in table.iter("tr") if _nearest_table(tr) is table]
    cells = [c for tr in rows for c in tr if isinstance(c.tag, str) and c.tag in ("td", "th")]
    single_column = all(sum(1 for c in tr if isinstance(c.tag, str) and c.tag in ("td", "th")) <= 1 for tr in rows)
    if single_column:
        return True
    if any(_nearest_table(e) is table for e in table.iter(*DATA_TABLE_TAGS)):
        return False
    return any(
        isinstance(d.tag, str) and d.tag in LAYOUT_CELL_TAGS for cell in cells for d in cell.iterdescendants()
    )


def _nearest_table(element: etree._Element) -> etree._Element | None:
    return next(element.iterancestors("table"), None)
