"""Export one saved article: a copy of its Markdown or its HTML file wherever the user picks.

The files of the library already are the exports (plain Markdown with front matter, one
self-contained web page), so exporting copies the bytes, written atomically
(:func:`pagesieve.library.atomic.write_files`). EPUB is not offered.
"""

from __future__ import annotations

import os
from pathlib import Path

from pagesieve.errors import InputError, LibraryError
from pagesieve.library.atomic import write_files
from pagesieve.library.entry import Entry

EXPORT_FORMATS: dict[str, tuple[str, str]] = {"md": ("Markdown", ".md"), "html": ("Web page", ".html")}
"""Export format -> (name shown in the save dialog, file suffix)."""


def export_source(entry: Entry, fmt: str) -> Path:
    """The library file that the ``fmt`` export of ``entry`` copies.

    Raises:
        InputError: ``fmt`` is not a key of :data:`EXPORT_FORMATS`.
        LibraryError: the entry has no HTML file (asked for ``html``).
    """
    if fmt not in EXPORT_FORMATS:
        raise InputError(f"unknown export format {fmt!r}; one of: {', '.join(EXPORT_FORMATS)}")
    source = entry.md_path if fmt == "md" else entry.html_path
    if source is None:
        raise LibraryError(f"the HTML file of {entry.title or '(untitled)'} is missing; export the Markdown file instead")
    return source


def export_entry(entry: Entry, fmt: str, dest: str | os.PathLike[str]) -> Path:
    """Copy the ``fmt`` file of ``entry`` (``"md"`` or ``"html"``) to ``dest`` and return the
    path written. ``dest`` may be a folder (the library's file name is kept there) or a file
    path; a file path without a suffix gets the format's. An existing file is replaced.

    Raises:
        InputError: unknown ``fmt``.
        LibraryError: the library file cannot be read, or ``dest`` cannot be written (its folder
            is missing or read-only, the disk is full).
    """
    source = export_source(entry, fmt)
    target = Path(dest).expanduser()
    if target.is_dir():
        target = target / source.name
    elif not target.suffix:
        target = target.with_name(target.name + EXPORT_FORMATS[fmt][1])
    try:
        data = source.read_bytes()
    except OSError as exc:
        raise LibraryError(f"cannot read {source}: {exc.strerror or exc}") from None
    if not target.parent.is_dir():
        raise LibraryError(f"cannot write {target}: the folder {target.parent} does not exist")
    write_files([(target, data)])
    return target
