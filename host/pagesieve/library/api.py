"""The JavaScript API of the library window: :class:`LibraryApi`.

pywebview exposes every public method of the object given as ``js_api`` to the window's
JavaScript as ``window.pywebview.api.NAME(...)`` (a promise), and calls it on a thread of its
own; arguments and results travel as JSON. Every method here returns a JSON-ready dict with
``"ok": true`` and its result, or ``{"ok": false, "error": MESSAGE}`` when pagesieve refuses
(a :class:`~pagesieve.errors.PagesieveError`: no such article, a file that cannot be written, a
bad tag ...), so the window shows the message and goes on. Nothing here imports Qt or pywebview:
the class is tested on its own.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pagesieve.errors import InputError, PagesieveError
from pagesieve.library.catalog import Library
from pagesieve.library.entry import Entry
from pagesieve.library.export import export_entry
from pagesieve.library.formats import export_name
from pagesieve.library.reader import THEME_MARKER, reader_document

MARKS = ("\ue000", "\ue001")
"""Private-use characters around each matched word of a search snippet, split into parts by
:func:`snippet_parts` (never sent as HTML)."""

MAX_PAGE = 500
"""Most articles one ``list`` or ``search`` call returns."""

PathChooser = Callable[[str, str], "str | os.PathLike[str] | None"]
"""``(suggested file name, format) -> path`` picked by the user, or ``None`` when cancelled."""


def snippet_parts(snippet: str, marks: tuple[str, str] = MARKS) -> list[list]:
    """``snippet`` with ``marks`` around the matched words, as ``[[text, matched], ...]`` (plain
    text pieces in order; ``matched`` is a bool). Empty pieces are dropped."""
    parts: list[list] = []
    matched = False
    rest = snippet
    while rest:
        mark = marks[1] if matched else marks[0]
        head, found, rest = rest.partition(mark)
        if head:
            parts.append([head.replace(marks[0], "").replace(marks[1], ""), matched])
        if not found:
            break
        matched = not matched
    return [p for p in parts if p[0]]


MAX_LISTED_LABELS = 500
"""Personal labels listed in the window (the newest); ``pagesieve labels list`` shows all."""


def _guarded(method: Callable[..., dict]) -> Callable[..., dict]:
    """``method``, answering ``{"ok": false, "error": ...}`` instead of raising a PagesieveError."""

    @functools.wraps(method)
    def call(self: LibraryApi, *args: Any) -> dict:
        try:
            return {"ok": True, **method(self, *args)}
        except PagesieveError as exc:
            return {"ok": False, "error": str(exc)}

    return call


def _whole(value: object, what: str = "an article id") -> int:
    """``value`` as a whole number (JavaScript sends numbers; ``3.0`` is 3).

    Raises:
        InputError: not a finite whole number.
    """
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or (isinstance(value, float) and not value.is_integer())):
        raise InputError(f"not {what}: {value!r}")
    return int(value)


def _page_size(limit: object) -> int:
    """How many articles to answer: ``limit``, at most :data:`MAX_PAGE` (its default)."""
    return MAX_PAGE if limit is None else min(MAX_PAGE, _whole(limit, "a number of articles"))


def entry_dict(entry: Entry) -> dict:
    """What the window lists of an entry: :meth:`Entry.to_dict` (``id``, ``title``, ``byline``,
    ``published``, ``site``, ``url``, ``language``, ``saved``, ``tags``, ``md_path``,
    ``html_path``, ``words``)."""
    return entry.to_dict()


class LibraryApi:
    """The methods the library window's JavaScript calls (see the module docstring).

    Args:
        library: the open library (shared by pywebview's threads; :class:`Library` allows it).
        store_path: the template store file for the learned-sites page (default: the user's,
            :func:`pagesieve.templates.store.default_store_path`). It is opened per call: a
            store's SQLite connection belongs to one thread.
        choose_path: asks the user where to export (the window's save dialog); ``None``: every
            export answers that there is nowhere to save it.
        system_trash: deleted articles go to the system trash when it can take them (no undo in
            the window: they are restored from there); False: always to the library's
            ``.trash`` folder, with undo.

    Every public method returns ``{"ok": true, ...}`` or ``{"ok": false, "error": str}``.
    """

    def __init__(
        self,
        library: Library,
        store_path: str | os.PathLike[str] | None = None,
        choose_path: PathChooser | None = None,
        *,
        system_trash: bool = True,
        labels_path: str | os.PathLike[str] | None = None,
    ) -> None:
        # private attributes: pywebview exposes public attributes' methods to JavaScript too
        self._library = library
        self._store_path = Path(store_path) if store_path is not None else None
        # the label store lives beside the template store (both in the user's data folder)
        if labels_path is None and self._store_path is not None:
            labels_path = self._store_path.with_name("labels.sqlite3")
        self._labels_path = Path(labels_path) if labels_path is not None else None
        self._choose_path = choose_path
        self._system_trash = system_trash

    def _entry(self, entry_id: object) -> Entry:
        entry = self._library.get(_whole(entry_id))
        if entry is None:
            raise InputError(f"no saved article with id {entry_id} (it may have been deleted)")
        return entry

    def _store(self):
        from pagesieve.templates.store import TemplateStore

        return TemplateStore(self._store_path)

    # ------------------------------------------------------------------ articles

    @_guarded
    def info(self) -> dict:
        """``{"folder", "total"}``: the library folder and how many articles it holds."""
        return {"folder": str(self._library.folder), "total": self._library.count()}

    @_guarded
    def list(self, limit: int | None = None, offset: int | None = None) -> dict:
        """``{"total", "articles": [entry_dict ...]}``: the newest ``limit`` (default and at most
        :data:`MAX_PAGE`) articles after ``offset``."""
        offset = 0 if offset is None else _whole(offset, "a number of articles")
        entries = self._library.list(_page_size(limit), offset)
        return {"total": self._library.count(), "articles": [entry_dict(e) for e in entries]}

    @_guarded
    def search(self, query: str, limit: int | None = None) -> dict:
        """``{"query", "articles": [entry_dict + "snippet": [[text, matched] ...]]}``: the
        articles holding every word of ``query``, best first (:meth:`Library.search`); the
        snippet's matched words are flagged, never marked up (:func:`snippet_parts`)."""
        if not isinstance(query, str):
            raise InputError(f"a search is text, got {type(query).__name__}")
        hits = self._library.search(query, _page_size(limit), 0, mark=MARKS)
        return {"query": query, "articles": [{**entry_dict(h.entry), "snippet": snippet_parts(h.snippet)} for h in hits]}

    @_guarded
    def article(self, entry_id: int) -> dict:
        """``{"article": entry_dict, "document", "theme_marker"}``: the reading view of one
        article (:func:`pagesieve.library.reader.reader_document`) and the marker in it that
        the window replaces with the theme's CSS."""
        entry = self._entry(entry_id)
        return {"article": entry_dict(entry), "document": reader_document(entry), "theme_marker": THEME_MARKER}

    @_guarded
    def set_tags(self, entry_id: int, tags: list[str]) -> dict:
        """``{"article": entry_dict}`` after replacing the tags of an article (a list of
        strings; :func:`pagesieve.library.catalog.clean_tags` tidies them)."""
        if not isinstance(tags, (list, tuple)):
            raise InputError(f"tags are a list of text, got {type(tags).__name__}")
        return {"article": entry_dict(self._library.set_tags(_whole(entry_id), tags))}

    @_guarded
    def delete(self, entry_id: int) -> dict:
        """``{"article": entry_dict, "system_trash": bool, "token": str | None}``: the article's
        files went to the system trash, or (``token`` set) to the library's trash, from where
        :meth:`undo_delete` brings them back."""
        gone = self._library.delete(_whole(entry_id), system_trash=self._system_trash)
        return {"article": entry_dict(gone.entry), "system_trash": gone.system_trash, "token": gone.token}

    @_guarded
    def undo_delete(self, token: str) -> dict:
        """``{"article": entry_dict}``: the article deleted with ``token``, back in the library."""
        if not isinstance(token, str):
            raise InputError(f"not an undo token: {token!r}")
        return {"article": entry_dict(self._library.undo_delete(token))}

    @_guarded
    def export(self, entry_id: int, fmt: str) -> dict:
        """``{"path": str}`` after writing the article's ``"md"``, ``"html"`` or ``"epub"``
        export where the user chose (:func:`pagesieve.library.export.export_entry`);
        ``{"path": None, "cancelled": true}`` when the user cancelled the dialog."""
        entry = self._entry(entry_id)
        name = export_name(entry, fmt)
        if self._choose_path is None:
            raise InputError("this window cannot ask where to export")
        dest = self._choose_path(name, fmt)
        if not dest:
            return {"path": None, "cancelled": True}
        return {"path": str(export_entry(entry, fmt, dest))}

    # ------------------------------------------------------------------ learned sites

    @_guarded
    def sites(self) -> dict:
        """``{"store", "sites": [{"site", "pages", "entries", "bytes", "last_used"}], "labels"}``:
        what the site templates learned, most recently used first (``last_used`` in Unix
        seconds), the number of personal labels (the user's active right-click corrections,
        :mod:`pagesieve.corrections.store`; 0 when the label store cannot be read) and
        ``label_list``: the newest :data:`MAX_LISTED_LABELS` of them (id, site, label, signature,
        snippet, created)."""
        from pagesieve.corrections.store import LabelStore
        from pagesieve.errors import LabelStoreError

        with self._store() as store:
            sites = store.sites()
            path = store.path
        try:
            with LabelStore(self._labels_path) as labels:
                label_list = [lab.summary() for lab in reversed(labels.labels())]
        except LabelStoreError:
            label_list = []
        return {
            "store": str(path),
            "sites": [
                {"site": s.site, "pages": s.pages, "entries": s.entries, "bytes": s.bytes, "last_used": s.last_used}
                for s in sites
            ],
            "labels": len(label_list),
            "label_list": label_list[:MAX_LISTED_LABELS],
        }

    @_guarded
    def delete_label(self, label_id: int) -> dict:
        """``{"deleted": int}``: erase one personal label (a correction) by its id. The host's
        personal model is retrained the next time a correction changes; the label's rule stops
        applying at once."""
        from pagesieve.corrections.store import LabelStore

        if not isinstance(label_id, int) or isinstance(label_id, bool) or label_id < 1:
            raise InputError(f"not a label id: {label_id!r}")
        with LabelStore(self._labels_path) as labels:
            return {"deleted": labels.delete(label_id=label_id)}

    @_guarded
    def forget_site(self, site: str) -> dict:
        """``{"site", "forgotten": bool}``: erase what was learned of ``site`` (False: nothing was)."""
        if not isinstance(site, str) or not site:
            raise InputError(f"not a site: {site!r}")
        with self._store() as store:
            return {"site": site, "forgotten": store.forget(site)}

    @_guarded
    def forget_all(self) -> dict:
        """``{"forgotten": int}``: erase every learned site; how many there were."""
        with self._store() as store:
            return {"forgotten": store.forget_all()}
