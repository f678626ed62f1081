"""The library index: one SQLite file in the library folder (:data:`INDEX_FILE`) listing the
saved articles, with an FTS5 full-text table over their title, tags and text.

The index is a cache of the Markdown files: every column comes from a file's front matter and
body (:mod:`pagesieve.library.markdown_file`), so a missing or corrupt index is rebuilt from
them (:meth:`pagesieve.library.catalog.Library.rebuild`) and loses nothing.

Safety, as in :mod:`pagesieve.templates.store`: WAL journal; every change one ``BEGIN
IMMEDIATE`` transaction (two processes saving at once are serialised; each waits up to
:data:`BUSY_TIMEOUT_S`); the schema is versioned (``PRAGMA user_version``, :data:`MIGRATIONS`),
and a file from a newer pagesieve is refused with :class:`~pagesieve.errors.LibraryError`.

Search: user text never reaches FTS5 as syntax. :func:`fts_query` quotes every word, so ``"``,
``*``, ``-``, ``(``, ``AND``, ``NEAR`` are searched as text; a word ending in ``*`` is a prefix
search. CJK text has no spaces between words: every CJK character is indexed (and searched) as
a word of its own, so a run of characters is found as a phrase.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pagesieve.errors import LibraryError
from pagesieve.tokens import CJK_RANGES, tokens
from pagesieve.library.entry import Entry, EntryMeta, SearchHit
from pagesieve.storage.sqlite_schema import enable_wal, migrate, write_transaction
from pagesieve.templates.urls import url_key

INDEX_FILE = ".pagesieve-index.sqlite"
"""Name of the index file in the library folder (a dot file: notes apps and file managers hide it)."""

BUSY_TIMEOUT_S = 10.0
"""How long a writer waits for another process's transaction before giving up."""

SNIPPET_TOKENS = 16
"""Words in a search snippet (FTS5 ``snippet()`` allows at most 64)."""

MIGRATIONS: tuple[str, ...] = (
    # version 1
    """
    CREATE TABLE entries (
        id INTEGER PRIMARY KEY,
        url TEXT,
        url_key TEXT UNIQUE,
        title TEXT NOT NULL,
        byline TEXT,
        published TEXT,
        site TEXT,
        language TEXT,
        saved TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '[]',
        md_file TEXT NOT NULL UNIQUE,
        html_file TEXT,
        words INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX entries_by_saved ON entries (saved DESC, id DESC);
    CREATE VIRTUAL TABLE entries_fts USING fts5 (title, tags, body, tokenize = 'unicode61 remove_diacritics 2');
    """,
)
"""Schema scripts; script ``k`` takes an index from version ``k`` to ``k + 1``. ``url_key`` is
:func:`pagesieve.templates.store.url_key` in hex (the URL without fragment and tracking
parameters), so one article reached by two links is one entry; ``tags`` is a JSON list;
``entries_fts.rowid`` is ``entries.id``."""

SCHEMA_VERSION = len(MIGRATIONS)

_CJK = re.compile(f"([{CJK_RANGES}])")
_SEPARATOR = "\u200b"  # ZERO WIDTH SPACE: a separator to FTS5's unicode61, removed from snippets
_MARK_START, _MARK_END = "\ue000", "\ue001"  # private-use characters, swapped for the caller's marks

_COLUMNS = "id, url, title, byline, published, site, language, saved, tags, md_file, html_file, words"


@dataclass(frozen=True, slots=True)
class IndexRecord:
    """What the index stores of one article (file names are relative to the library folder).

    Attributes:
        meta: the front matter fields. md_file, html_file: file names (``html_file`` may be
        ``None``). text: the plain text searched (:func:`~pagesieve.library.markdown_file.body_text`).
    """

    meta: EntryMeta
    md_file: str
    html_file: str | None
    text: str

    @property
    def words(self) -> int:
        """Words of :attr:`text` (a CJK character is one)."""
        return len(tokens(self.text))


def search_text(text: str) -> str:
    """``text`` as it is given to FTS5: a zero-width space on each side of every CJK character,
    so that each is a word of its own (snippets drop them again)."""
    text = text.replace("\0", " ")
    return _CJK.sub(f"{_SEPARATOR}\\1{_SEPARATOR}", text) if _CJK.search(text) else text


def fts_query(text: str) -> str | None:
    """An FTS5 query matching entries holding every word of the user's ``text`` (AND), each
    word quoted so no character of it is FTS5 syntax; ``word*`` is a prefix search. ``None``
    when ``text`` has no letter or digit (nothing to search for)."""
    terms = []
    for chunk in text.replace("\0", " ").split():  # FTS5 reads a query as a C string: NUL ends it
        prefix = chunk.endswith("*")
        chunk = chunk.rstrip("*")
        if not tokens(chunk):
            continue
        quoted = '"' + search_text(chunk).replace('"', '""') + '"'
        terms.append(quoted + ("*" if prefix else ""))
    return " ".join(terms) if terms else None


def _clean_snippet(snippet: str, mark: tuple[str, str]) -> str:
    snippet = snippet.replace(_SEPARATOR, "").replace(_MARK_END + _MARK_START, "")
    return " ".join(snippet.split()).replace(_MARK_START, mark[0]).replace(_MARK_END, mark[1])


def is_corruption(exc: BaseException | None) -> bool:
    """True if ``exc`` (or the SQLite error behind a :class:`LibraryError`) says the file is not
    a sound database ("file is not a database", "database disk image is malformed"), as opposed
    to a lock, a read-only file or a full disk (:class:`sqlite3.OperationalError`)."""
    if isinstance(exc, LibraryError):
        exc = exc.__cause__
    return isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError)


class LibraryIndex:
    """The SQLite index of one library folder (see the module docstring).

    Args:
        folder: the library folder (must exist).

    One object may be used from several threads (they take turns); each process opens its own.

    Attributes:
        path: the index file. fresh: True when the file was just created, because it was
            missing or corrupt (a corrupt file is deleted: it holds nothing the Markdown files do
            not); the caller then rebuilds it.

    Raises:
        LibraryError: the file cannot be opened or created, SQLite lacks FTS5, or the index was
            written by a newer pagesieve.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / INDEX_FILE
        self._lock = threading.RLock()
        self.fresh = not self.path.exists()
        try:
            self._open()
        except (sqlite3.DatabaseError, LibraryError) as exc:
            if not is_corruption(exc):
                self._close_quietly()
                if isinstance(exc, LibraryError):
                    raise
                raise self._error(str(exc)) from exc  # locked, read-only, disk I/O: not corruption
            self.reset()

    def reset(self) -> None:
        """Delete the index file (with its WAL) and create an empty one; :attr:`fresh` becomes
        True. For a corrupt index: it is a cache of the Markdown files, rebuilt from them.

        Raises:
            LibraryError: the new file cannot be created.
        """
        self._close_quietly()
        try:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
            self._open()
        except (OSError, sqlite3.Error) as exc:
            raise self._error(str(exc)) from exc
        self.fresh = True

    def _close_quietly(self) -> None:
        db = getattr(self, "_db", None)
        if db is not None:
            try:
                db.close()
            except sqlite3.Error:
                pass
            self._db = None

    def _open(self) -> None:
        # one connection shared by the threads of a process (pywebview calls the API from
        # threads of its own); _lock lets one of them use it at a time
        self._db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
        enable_wal(self._db, BUSY_TIMEOUT_S)
        self._db.execute("PRAGMA synchronous=NORMAL")
        migrate(self._db, MIGRATIONS, self._error)

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._close_quietly()

    @contextmanager
    def transaction(self) -> Iterator[LibraryIndex]:
        """One write transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``; rolled back on error).
        Other processes wait until it ends, so what is decided inside it (file names, the entry
        of a URL) stays true until the commit.

        Raises:
            LibraryError: the index is locked for longer than :data:`BUSY_TIMEOUT_S`, a
                statement inside fails, or the commit fails.
        """
        with self._lock, write_transaction(self._db, self._error):
            try:
                yield self
            except sqlite3.Error as exc:
                raise self._error(f"{exc} (run `pagesieve saved --rebuild`)") from exc

    def _error(self, message: str) -> LibraryError:
        return LibraryError(f"library index {self.path}: {message}")

    @property
    def schema_version(self) -> int:
        """The schema version of the open file."""
        return self._db.execute("PRAGMA user_version").fetchone()[0]

    # ------------------------------------------------------------------ reading

    def _entry(self, row: tuple) -> Entry:
        eid, url, title, byline, published, site, language, saved, tags, md_file, html_file, words = row
        return Entry(
            title=title, byline=byline, published=published, site=site, url=url, language=language,
            saved=saved, tags=tuple(json.loads(tags)), id=eid, md_path=self.folder / md_file,
            html_path=self.folder / html_file if html_file else None, words=words,
        )

    def _query(self, sql: str, params: Iterable = ()) -> list[tuple]:
        try:
            with self._lock:
                return self._db.execute(sql, tuple(params)).fetchall()
        except sqlite3.Error as exc:
            raise LibraryError(f"library index {self.path}: {exc} (run `pagesieve saved --rebuild`)") from exc

    def get(self, entry_id: int) -> Entry | None:
        """The entry with id ``entry_id``, or ``None``."""
        rows = self._query(f"SELECT {_COLUMNS} FROM entries WHERE id = ?", (entry_id,))
        return self._entry(rows[0]) if rows else None

    def find_url(self, url: str | None) -> Entry | None:
        """The entry saved from ``url`` (compared as :func:`~pagesieve.templates.store.url_key`:
        fragment and tracking parameters ignored), or ``None``."""
        if not url:
            return None
        rows = self._query(f"SELECT {_COLUMNS} FROM entries WHERE url_key = ?", (url_key(url).hex(),))
        return self._entry(rows[0]) if rows else None

    def list(self, limit: int = 50, offset: int = 0) -> list[Entry]:
        """Entries newest first (by saved time, then id), ``limit`` of them after ``offset``."""
        rows = self._query(
            f"SELECT {_COLUMNS} FROM entries ORDER BY saved DESC, id DESC LIMIT ? OFFSET ?",
            (max(0, limit), max(0, offset)),
        )
        return [self._entry(r) for r in rows]

    def count(self) -> int:
        """How many entries there are."""
        return self._query("SELECT COUNT(*) FROM entries")[0][0]

    def file_names(self) -> set[str]:
        """Every file name an entry uses (Markdown and HTML)."""
        names = set()
        for md_file, html_file in self._query("SELECT md_file, html_file FROM entries"):
            names.add(md_file)
            if html_file:
                names.add(html_file)
        return names

    def search(self, text: str, limit: int = 50, offset: int = 0, mark: tuple[str, str] = ("[", "]")) -> list[SearchHit]:
        """Entries holding every word of ``text`` (title, tags or text; see :func:`fts_query`),
        best first (bm25, title words weigh 10, tags 5, text 1), each with a snippet whose
        matched words stand between ``mark[0]`` and ``mark[1]``. Text with no letter or digit
        finds nothing."""
        query = fts_query(text)
        if query is None:
            return []
        rows = self._query(
            f"SELECT {', '.join('e.' + c.strip() for c in _COLUMNS.split(','))}, "
            f"snippet(entries_fts, -1, ?, ?, '…', {SNIPPET_TOKENS}), bm25(entries_fts, 10.0, 5.0, 1.0) AS rank "
            "FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid "
            "WHERE entries_fts MATCH ? ORDER BY rank, e.id DESC LIMIT ? OFFSET ?",
            (_MARK_START, _MARK_END, query, max(0, limit), max(0, offset)),
        )
        return [SearchHit(self._entry(r[:12]), _clean_snippet(r[12], mark), r[13]) for r in rows]

    # ------------------------------------------------------------------ writing (inside transaction())

    def put(self, record: IndexRecord, entry_id: int | None = None) -> int:
        """Insert ``record``, or replace entry ``entry_id`` with it; returns the entry id.
        Call inside :meth:`transaction`."""
        m = record.meta
        values = (
            m.url, url_key(m.url).hex() if m.url else None, m.title, m.byline, m.published, m.site, m.language,
            m.saved, json.dumps(list(m.tags), ensure_ascii=False), record.md_file, record.html_file, record.words,
        )
        cols = "url, url_key, title, byline, published, site, language, saved, tags, md_file, html_file, words"
        if entry_id is None:
            cur = self._db.execute(f"INSERT INTO entries ({cols}) VALUES ({', '.join('?' * 12)})", values)
            entry_id = int(cur.lastrowid)
        else:
            sets = ", ".join(f"{c.strip()} = ?" for c in cols.split(","))
            self._db.execute(f"UPDATE entries SET {sets} WHERE id = ?", values + (entry_id,))
            self._db.execute("DELETE FROM entries_fts WHERE rowid = ?", (entry_id,))
        self._db.execute(
            "INSERT INTO entries_fts (rowid, title, tags, body) VALUES (?, ?, ?, ?)",
            (entry_id, search_text(m.title), search_text(" ".join(m.tags)), search_text(record.text)),
        )
        return entry_id

    def set_tags(self, entry_id: int, tags: tuple[str, ...]) -> None:
        """Set the tags of entry ``entry_id`` (index only; call inside :meth:`transaction`)."""
        self._db.execute("UPDATE entries SET tags = ? WHERE id = ?", (json.dumps(list(tags), ensure_ascii=False), entry_id))
        self._db.execute("UPDATE entries_fts SET tags = ? WHERE rowid = ?", (search_text(" ".join(tags)), entry_id))

    def remove(self, entry_id: int) -> bool:
        """Remove entry ``entry_id``; False if there was none (call inside :meth:`transaction`)."""
        gone = self._db.execute("DELETE FROM entries WHERE id = ?", (entry_id,)).rowcount
        self._db.execute("DELETE FROM entries_fts WHERE rowid = ?", (entry_id,))
        return gone > 0

    def clear(self) -> None:
        """Remove every entry (call inside :meth:`transaction`, before putting them back)."""
        self._db.execute("DELETE FROM entries")
        self._db.execute("DELETE FROM entries_fts")
