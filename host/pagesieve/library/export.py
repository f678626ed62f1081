"""Export one saved article wherever the user picks: a copy of its Markdown or its HTML file, or
an EPUB e-book made from the HTML file.

The files of the library already are the Markdown and HTML exports (plain Markdown with front
matter, one self-contained web page), so those copy the bytes; the EPUB is built by
:func:`pagesieve.library.epub.epub_bytes`. Either is written atomically
(:func:`pagesieve.library.atomic.write_files`).
"""

from __future__ import annotations

import os
from pathlib import Path

from pagesieve.errors import InputError, LibraryError
from pagesieve.library.atomic import write_files
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


def export_entry(entry: Entry, fmt: str, dest: str | os.PathLike[str]) -> Path:
    """Write the ``fmt`` export of ``entry`` (``"md"``, ``"html"`` or ``"epub"``) to ``dest``
    and return the path written. ``dest`` may be a folder (the name of :func:`export_name` is
    used there) or a file path; a file path without a suffix gets the format's. An existing file
    is replaced.

    Raises:
        InputError: unknown ``fmt``.
        LibraryError: the library file cannot be read, or ``dest`` cannot be written (its folder
            is missing or read-only, the disk is full).
    """
    source = export_source(entry, fmt)
    target = Path(dest).expanduser()
    if target.is_dir():
        target = target / export_name(entry, fmt)
    elif not target.suffix:
        target = target.with_name(target.name + EXPORT_FORMATS[fmt][1])
    if fmt == "epub":
        from pagesieve.library.epub import epub_bytes

        data = epub_bytes(entry)
    else:
        try:
            data = source.read_bytes()
        except OSError as exc:
            raise LibraryError(f"cannot read {source}: {exc.strerror or exc}") from None
    if not target.parent.is_dir():
        raise LibraryError(f"cannot write {target}: the folder {target.parent} does not exist")
    write_files([(target, data)])
    return target
