"""The export formats of a saved article, and the library file each is made from.

Shared by :mod:`pagesieve.library.export` (which writes the exports) and
:mod:`pagesieve.library.epub` (which builds the EPUB from the HTML file), so neither imports the
other's caller.
"""

from __future__ import annotations

from pathlib import Path

from pagesieve.errors import InputError, LibraryError
from pagesieve.library.entry import Entry

EXPORT_FORMATS: dict[str, tuple[str, str]] = {
    "md": ("Markdown", ".md"), "html": ("Web page", ".html"), "epub": ("EPUB e-book", ".epub"),
}
"""Export format -> (name shown in the save dialog, file suffix)."""


def export_source(entry: Entry, fmt: str) -> Path:
    """The library file that the ``fmt`` export of ``entry`` copies (``md``, ``html``) or is
    made from (``epub``: the HTML file).

    Raises:
        InputError: ``fmt`` is not a key of :data:`EXPORT_FORMATS`.
        LibraryError: the entry has no HTML file (asked for ``html`` or ``epub``).
    """
    if fmt not in EXPORT_FORMATS:
        raise InputError(f"unknown export format {fmt!r}; one of: {', '.join(EXPORT_FORMATS)}")
    source = entry.md_path if fmt == "md" else entry.html_path
    if source is None:
        raise LibraryError(f"the HTML file of {entry.title or '(untitled)'} is missing; export the Markdown file instead")
    return source


def export_name(entry: Entry, fmt: str) -> str:
    """The file name offered for the ``fmt`` export of ``entry``: the library file's name, with
    the format's suffix. Raises as :func:`export_source`."""
    return export_source(entry, fmt).with_suffix(EXPORT_FORMATS[fmt][1]).name
