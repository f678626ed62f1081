"""Export one saved article wherever the user picks: a copy of its Markdown or its HTML file, or
an EPUB e-book made from the HTML file.

The files of the library already are the Markdown and HTML exports (plain Markdown with front
matter, one self-contained web page), so those copy the bytes; the EPUB is built by
:func:`pagesieve.library.epub.epub_bytes`. Either is written atomically
(:func:`pagesieve.storage.atomic.write_files`).
"""

from __future__ import annotations

import os
from pathlib import Path

from pagesieve.errors import LibraryError
from pagesieve.storage.atomic import write_files
from pagesieve.library.entry import Entry
from pagesieve.library.epub import epub_bytes
from pagesieve.library.formats import EXPORT_FORMATS, export_name, export_source


def export_entry(entry: Entry, fmt: str, dest: str | os.PathLike[str]) -> Path:
    """Write the ``fmt`` export of ``entry`` (``"md"``, ``"html"`` or ``"epub"``) to ``dest``
    and return the path written. ``dest`` may be a folder (the name of
    :func:`~pagesieve.library.formats.export_name` is used there) or a file path; a file path
    without a suffix gets the format's. An existing file is replaced.

    Raises:
        InputError: unknown ``fmt`` (:data:`~pagesieve.library.formats.EXPORT_FORMATS`).
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
