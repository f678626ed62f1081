"""The article library: clean articles saved as files the user owns, and a search index.

A saved article is two files in the library folder (:mod:`pagesieve.library.folder`): a
Markdown file with YAML front matter (:mod:`pagesieve.library.markdown_file`) and a
self-contained HTML file (:mod:`pagesieve.library.html_file`), named after the title
(:mod:`pagesieve.library.names`) and written atomically (:mod:`pagesieve.storage.atomic`).
An SQLite full-text index beside them (:mod:`pagesieve.library.index`) lists and searches them;
it holds nothing the Markdown files do not, so it can always be rebuilt from them.
:class:`~pagesieve.library.catalog.Library` ties the two together (save, list, search, tags,
delete to the trash and undo); :mod:`pagesieve.library.save` is the one-call API and
:mod:`pagesieve.library.cli` the ``pagesieve save`` and ``pagesieve saved`` commands.
:mod:`pagesieve.library.window` is the library window (``pagesieve library``): its JavaScript API
(:mod:`pagesieve.library.api`), the reading view (:mod:`pagesieve.library.reader`) and export
(:mod:`pagesieve.library.export`); only the window itself needs pywebview and Qt.

The host never fetches anything: images are inlined only from bytes the caller hands over.
"""

from __future__ import annotations

from pagesieve.library.catalog import Library
from pagesieve.library.entry import Deletion, Entry, EntryMeta, SavedEntry, SearchHit
from pagesieve.library.save import save_article, save_page

__all__ = ["Library", "Entry", "EntryMeta", "SavedEntry", "SearchHit", "Deletion", "save_article", "save_page"]
