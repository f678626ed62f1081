"""Plain-text tables for the command line's reports."""

from __future__ import annotations

from collections.abc import Sequence


def format_table(rows: Sequence[Sequence[str]]) -> str:
    """``rows`` (the first is the header) as aligned columns: the first column left-aligned,
    the others right-aligned (numbers), two spaces apart, a rule of dashes under the header,
    no trailing spaces. Every row must have as many cells as the header."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)
