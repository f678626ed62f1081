"""The template store: what pagesieve has learned of each site, in one SQLite file.

Default place: ``platformdirs.user_data_dir("pagesieve") / "templates.sqlite3"``.

What is kept per site (and nothing else):

- the template library of seed 000 §4 (:mod:`pagesieve.templates.library`): the leaves
  ``(tag, text)`` of the current batch of at most :data:`~pagesieve.templates.library.BATCH_PAGES`
  pages with their page frequency, and the entries persisted at the end of each batch. The batch
  holds the leaf texts of at most ten pages and is emptied when the batch closes; only leaves
  seen on three or more of those pages stay;
- the last :data:`MAX_REFERENCES` pages as reference pages for the layout diff (seed 004): their
  URL and the fingerprints of their block subtrees (:mod:`pagesieve.templates.diff`), never
  their text;
- counters: pages learned, bytes used, when the site was last used;
- a 16-byte hash of each learned page's URL (:func:`url_key`), so that a page visited again
  is not learned again (reloading one article must not turn it into the site's template);
- per kind of block (an 8-byte hash of its tag path, :func:`~pagesieve.templates.learn.shape_key`),
  the number of learned pages that held it: how far a correction on that kind of block reaches
  (:meth:`TemplateStore.shape_pages`, issue 54); and of those, the pages on which it held the
  article, where a "hide" of that kind stays off (:meth:`TemplateStore.shape_article_pages`).
  At most :data:`MAX_SITE_SHAPES` per site.

Safety:

- WAL journal; every change is one ``BEGIN IMMEDIATE`` transaction, so a crash leaves the
  store as it was before or after a learned page, never half-way, and two host processes (two
  browser profiles or windows) writing at once are serialised by SQLite's lock (each waits up to
  :data:`BUSY_TIMEOUT_S`).
- Each process keeps the libraries it used in memory with the site's ``version``; a version
  changed by another process is noticed inside the write transaction and the library reloaded.
- The schema is versioned (``PRAGMA user_version``); :data:`MIGRATIONS`
  (:mod:`pagesieve.templates.store_schema`) bring an older file up to
  date; a file from a newer pagesieve is refused with :class:`TemplateStoreError`.

Bounds: a site keeps at most :data:`MAX_SITE_ENTRIES` template entries and
:data:`MAX_REFERENCES` reference pages; when the whole store exceeds :data:`MAX_TOTAL_BYTES`,
the least recently used sites are forgotten first.
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pagesieve.errors import TemplateStoreError
from pagesieve.storage.sqlite_schema import migrate, open_database, write_transaction
from pagesieve.templates.diff import pack_fingerprints, unpack_fingerprints
from pagesieve.templates.library import LeafEntry, TemplateLibrary
from pagesieve.templates.learn import PageSummary, shape_key
from pagesieve.templates.sst import SiteStyleTree
from pagesieve.templates.store_schema import MIGRATIONS  # the schema scripts, re-exported for upgrades and tests
from pagesieve.templates.urls import best_reference, url_key

STORE_FILE = "templates.sqlite3"

MAX_REFERENCES = 5
"""Reference pages kept per site (the newest; seed 004 needs one per layout of the site)."""

MAX_SITE_ENTRIES = 5000
"""Template entries kept per site; past it the oldest entries are dropped."""

MAX_TOTAL_BYTES = 64 * 1024 * 1024
"""Size of all sites together (text and fingerprints) past which least recently used sites go."""

BUSY_TIMEOUT_S = 10.0
"""How long a writer waits for another process's transaction before giving up."""

_KIND_BATCH = 0
_KIND_ENTRY = 1

MAX_VISITS = 10000
"""URL hashes of learned pages kept per site (the newest), so that a page seen again is skipped."""

SCHEMA_VERSION = len(MIGRATIONS)

MAX_SITE_SHAPES = 20000
"""Kinds of block counted per site; past it those seen on the fewest pages are dropped (a
site's pages share a few hundred tag paths; thousands come only from generated markup)."""


@dataclass(frozen=True, slots=True)
class SiteInfo:
    """What ``pagesieve sites`` shows of one site.

    Attributes:
        site: host name. pages: pages learned. entries: template entries. batch_leaves: leaves
        waiting in the open batch. references: reference pages kept. bytes: storage used (text
        and fingerprints). last_used: Unix time of the last learned page.
    """

    site: str
    pages: int
    entries: int
    batch_leaves: int
    references: int
    bytes: int
    last_used: float


@dataclass(slots=True)
class SiteTemplates:
    """A site's templates as extraction uses them.

    Attributes:
        site: host name. library: its template library (entries and open batch).
        reference_url: URL of the chosen reference page, or ``None``.
        reference: sorted ``uint64`` fingerprints of the reference page's blocks (may be empty).
        pages: pages learned for the site.
        sst: the site style tree (seed 002) when one was built, else ``None``.
        fetched: the reference page was fetched for this extraction (cold start,
            :mod:`pagesieve.templates.cold_start`), not learned from the user's visits.
    """

    site: str
    library: TemplateLibrary
    reference_url: str | None
    reference: np.ndarray
    pages: int
    sst: SiteStyleTree | None = None
    fetched: bool = False


def default_store_path() -> Path:
    """``platformdirs.user_data_dir("pagesieve") / templates.sqlite3``."""
    import platformdirs

    return Path(platformdirs.user_data_dir("pagesieve", appauthor=False)) / STORE_FILE


class TemplateStore:
    """The SQLite template store (see the module docstring).

    Args:
        path: the database file (created with its folder if missing); default
            :func:`default_store_path`.

    Raises:
        TemplateStoreError: the file cannot be opened, is not a template store, or was written
            by a newer pagesieve.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_store_path()
        self._libraries: dict[str, tuple[int, TemplateLibrary]] = {}
        try:
            self._db = open_database(self.path, timeout=BUSY_TIMEOUT_S)  # erased text is overwritten (secure_delete)
            self._migrate()
        except sqlite3.Error as exc:
            raise TemplateStoreError(f"template store {self.path}: {exc}") from exc

    # ------------------------------------------------------------------ plumbing

    def close(self) -> None:
        """Close the database connection."""
        self._db.close()

    def __enter__(self) -> TemplateStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``; rolled back on error)."""
        return write_transaction(self._db, self._error)

    def _error(self, message: str) -> TemplateStoreError:
        return TemplateStoreError(f"template store {self.path}: {message}")

    def _migrate(self) -> None:
        migrate(self._db, MIGRATIONS, self._error)

    @property
    def schema_version(self) -> int:
        """The schema version of the open file."""
        return self._db.execute("PRAGMA user_version").fetchone()[0]

    def _library(self, db: sqlite3.Connection, site: str, version: int) -> TemplateLibrary:
        cached = self._libraries.get(site)
        if cached is not None and cached[0] == version:
            return cached[1]
        library = TemplateLibrary()
        for kind, tag, text, frequency in db.execute(
            "SELECT kind, tag, text, frequency FROM leaves WHERE site = ? ORDER BY kind, seq", (site,)
        ):
            if kind == _KIND_BATCH:
                library.cache.append(LeafEntry(tag, text, frequency))
            else:
                library.entries.append((tag, text))
        row = db.execute("SELECT batch_pages FROM sites WHERE site = ?", (site,)).fetchone()
        library.pages_in_batch = row[0] if row else 0
        library.__post_init__()  # build the lookup indexes
        self._libraries[site] = (version, library)
        return library

    # ------------------------------------------------------------------ learning

    def learn(self, summary: PageSummary, *, private: bool = False, now: float | None = None) -> bool:
        """Count one visited page into its site's templates.

        Args:
            summary: from :func:`pagesieve.templates.learn.summarise`.
            private: True for a page of a private (incognito) window: nothing is stored.
            now: the time to record (Unix seconds; default the current time).

        Returns:
            True if something was learned (False for a private page, a page without a site, or
            a URL already learned for the site: see :func:`url_key`).

        Raises:
            TemplateStoreError: the store cannot be written.
        """
        if private or not summary.site:
            return False
        site = summary.site
        now = time.time() if now is None else now
        try:
            with self._write() as db:
                row = db.execute("SELECT version FROM sites WHERE site = ?", (site,)).fetchone()
                if row is None:
                    db.execute("INSERT INTO sites (site, last_used) VALUES (?, ?)", (site, now))
                    version = 0
                else:
                    version = row[0]
                if summary.url:
                    key = url_key(summary.url)
                    if db.execute("SELECT 1 FROM visits WHERE site = ? AND url_hash = ?", (site, key)).fetchone():
                        db.execute("UPDATE visits SET seen = ? WHERE site = ? AND url_hash = ?", (now, site, key))
                        db.execute("UPDATE sites SET last_used = ? WHERE site = ?", (now, site))
                        return False
                    db.execute("INSERT INTO visits (site, url_hash, seen) VALUES (?, ?, ?)", (site, key, now))
                    db.execute(
                        "DELETE FROM visits WHERE site = ? AND url_hash NOT IN "
                        "(SELECT url_hash FROM visits WHERE site = ? ORDER BY seen DESC LIMIT ?)",
                        (site, site, MAX_VISITS),
                    )
                library = self._library(db, site, version)
                self._libraries.pop(site, None)  # re-cached below once the write has committed
                before = [e.frequency for e in library.cache]
                entries_before = len(library.entries)
                closed = library.learn(summary.leaves)
                if closed:
                    db.execute("DELETE FROM leaves WHERE site = ? AND kind = ?", (site, _KIND_BATCH))
                    db.executemany(
                        "INSERT INTO leaves (site, kind, seq, tag, text, frequency) VALUES (?, ?, ?, ?, ?, 0)",
                        [(site, _KIND_ENTRY, k, t, x) for k, (t, x) in enumerate(library.entries) if k >= entries_before],
                    )
                    self._cap_entries(db, site, library)
                else:
                    db.executemany(
                        "UPDATE leaves SET frequency = ? WHERE site = ? AND kind = ? AND seq = ?",
                        [(e.frequency, site, _KIND_BATCH, k) for k, e in enumerate(library.cache[: len(before)]) if e.frequency != before[k]],
                    )
                    db.executemany(
                        "INSERT INTO leaves (site, kind, seq, tag, text, frequency) VALUES (?, ?, ?, ?, ?, ?)",
                        [(site, _KIND_BATCH, k, e.tag, e.text, e.frequency) for k, e in enumerate(library.cache) if k >= len(before)],
                    )
                self._count_shapes(db, site, summary.shapes, summary.article_shapes)
                if summary.url:
                    self._keep_reference(db, site, summary.url, now, summary.fingerprints)
                size = self._site_bytes(db, site)
                db.execute(
                    "UPDATE sites SET pages = pages + 1, batch_pages = ?, version = ?, last_used = ?, bytes = ? WHERE site = ?",
                    (library.pages_in_batch, version + 1, now, size, site),
                )
                self._evict(db, keep=site)
        except sqlite3.Error as exc:
            raise TemplateStoreError(f"template store {self.path}: {exc}") from exc
        self._libraries[site] = (version + 1, library)
        return True

    @staticmethod
    def _count_shapes(db: sqlite3.Connection, site: str, shapes: list[bytes], article: list[bytes] = ()) -> None:
        """One more page for each of ``shapes`` (:attr:`PageSummary.shapes`), and one more page
        holding the article for each of ``article`` (:attr:`PageSummary.article_shapes`, a
        subset of ``shapes``); past :data:`MAX_SITE_SHAPES` the site's kinds seen on the fewest
        pages go."""
        if not shapes:
            return
        held = set(article)
        db.executemany(
            "INSERT INTO shapes (site, shape, pages, article) VALUES (?, ?, 1, ?) "
            "ON CONFLICT (site, shape) DO UPDATE SET pages = pages + 1, article = article + excluded.article",
            [(site, shape, int(shape in held)) for shape in shapes],
        )
        extra = db.execute("SELECT COUNT(*) FROM shapes WHERE site = ?", (site,)).fetchone()[0] - MAX_SITE_SHAPES
        if extra > 0:
            db.execute("DELETE FROM shapes WHERE site = ? AND shape IN "
                       "(SELECT shape FROM shapes WHERE site = ? ORDER BY pages, shape LIMIT ?)", (site, site, extra))

    @staticmethod
    def _keep_reference(db: sqlite3.Connection, site: str, url: str, now: float, fingerprints: list[int]) -> None:
        """Store the page as a reference page of ``site`` (seed 004), keeping the newest
        :data:`MAX_REFERENCES`."""
        db.execute("INSERT OR REPLACE INTO refs (site, url, seen, fingerprints) VALUES (?, ?, ?, ?)",
                   (site, url, now, pack_fingerprints(fingerprints)))
        db.execute("DELETE FROM refs WHERE site = ? AND url NOT IN "
                   "(SELECT url FROM refs WHERE site = ? ORDER BY seen DESC, url LIMIT ?)", (site, site, MAX_REFERENCES))

    @staticmethod
    def _site_bytes(db: sqlite3.Connection, site: str) -> int:
        text = db.execute("SELECT COALESCE(SUM(LENGTH(CAST(text AS BLOB)) + LENGTH(tag) + 8), 0) FROM leaves WHERE site = ?", (site,)).fetchone()[0]
        refs = db.execute("SELECT COALESCE(SUM(LENGTH(fingerprints) + LENGTH(url)), 0) FROM refs WHERE site = ?", (site,)).fetchone()[0]
        shapes = db.execute("SELECT COUNT(*) * 16 FROM shapes WHERE site = ?", (site,)).fetchone()[0]
        return int(text + refs + shapes)

    @staticmethod
    def _cap_entries(db: sqlite3.Connection, site: str, library: TemplateLibrary) -> None:
        extra = len(library.entries) - MAX_SITE_ENTRIES
        if extra > 0:
            del library.entries[:extra]
            library._entry_index = type(library._entry_index)()
            library.__post_init__()
            db.execute("DELETE FROM leaves WHERE site = ? AND kind = ?", (site, _KIND_ENTRY))
            db.executemany(
                "INSERT INTO leaves (site, kind, seq, tag, text, frequency) VALUES (?, ?, ?, ?, ?, 0)",
                [(site, _KIND_ENTRY, k, t, x) for k, (t, x) in enumerate(library.entries)],
            )

    def _evict(self, db: sqlite3.Connection, keep: str) -> None:
        total = db.execute("SELECT COALESCE(SUM(bytes), 0) FROM sites").fetchone()[0]
        if total <= MAX_TOTAL_BYTES:
            return
        for site, size in db.execute("SELECT site, bytes FROM sites WHERE site != ? ORDER BY last_used", (keep,)).fetchall():
            db.execute("DELETE FROM sites WHERE site = ?", (site,))
            self._libraries.pop(site, None)
            total -= size
            if total <= MAX_TOTAL_BYTES:
                break

    # ------------------------------------------------------------------ reading

    def templates_for(self, site: str | None, url: str | None = None) -> SiteTemplates | None:
        """The site's templates for extracting the page at ``url``, or ``None`` when nothing is
        learned for the site. The reference page is the stored page with the highest URL
        similarity to ``url`` other than ``url`` itself (seed 004 §2.2 d; ties: the newest)."""
        if not site:
            return None
        try:
            row = self._db.execute("SELECT version, pages FROM sites WHERE site = ?", (site,)).fetchone()
            if row is None:
                return None
            version, pages = row
            library = self._library(self._db, site, version)
            best_url, best_blob = best_reference(
                url, self._db.execute("SELECT url, fingerprints FROM refs WHERE site = ? ORDER BY seen DESC", (site,)))
        except sqlite3.Error as exc:
            raise TemplateStoreError(f"template store {self.path}: {exc}") from exc
        return SiteTemplates(site, library, best_url, unpack_fingerprints(best_blob or b""), pages)

    def has_reference(self, site: str, url: str | None) -> bool:
        """True when a page of ``site`` other than ``url`` is stored as a reference page (so
        :meth:`templates_for` has one to offer and a cold start is not needed).

        Raises:
            TemplateStoreError: the store cannot be read.
        """
        try:
            row = self._db.execute("SELECT 1 FROM refs WHERE site = ? AND url IS NOT ? LIMIT 1", (site, url)).fetchone()
        except sqlite3.Error as exc:
            raise TemplateStoreError(f"template store {self.path}: {exc}") from exc
        return row is not None

    def shape_pages(self, site: str, path_key: str) -> int:
        """Learned pages of ``site`` that held a block with the tag path ``path_key``
        (:attr:`Signature.key <pagesieve.corrections.signature.Signature.key>`): how far a
        correction on that kind of block reaches among the pages seen (0 when none, or when
        the pages were learned before the store counted shapes, schema version 3).

        Raises:
            TemplateStoreError: the store cannot be read.
        """
        return self._shape_count(site, path_key, "pages")

    def shape_article_pages(self, site: str, path_key: str) -> int:
        """Learned pages of ``site`` on which the blocks with the tag path ``path_key`` held the
        article (:func:`~pagesieve.templates.learn.article_shapes`): the pages where a "hide" of
        that kind stays off (:func:`pagesieve.corrections.rules.stays_local`). 0 when none, or
        for pages learned without a verdict or before schema version 4.

        Raises:
            TemplateStoreError: the store cannot be read.
        """
        return self._shape_count(site, path_key, "article")

    def _shape_count(self, site: str, path_key: str, column: str) -> int:
        """One count of the ``shapes`` row of ``(site, path_key)`` (``column``: ``"pages"`` or
        ``"article"``), 0 without a row."""
        if column not in ("pages", "article"):
            raise ValueError(f"no shape count {column!r}")
        try:
            row = self._db.execute(f"SELECT {column} FROM shapes WHERE site = ? AND shape = ?",
                                   (site, shape_key(path_key))).fetchone()
        except sqlite3.Error as exc:
            raise TemplateStoreError(f"template store {self.path}: {exc}") from exc
        return row[0] if row else 0

    def has_learned(self, site: str, url: str) -> bool:
        """True when the page at ``url`` (as :func:`url_key` reads it) is among the pages
        learned for ``site`` (the newest :data:`MAX_VISITS`).

        Raises:
            TemplateStoreError: the store cannot be read.
        """
        try:
            row = self._db.execute("SELECT 1 FROM visits WHERE site = ? AND url_hash = ?", (site, url_key(url))).fetchone()
        except sqlite3.Error as exc:
            raise TemplateStoreError(f"template store {self.path}: {exc}") from exc
        return row is not None

    def site_pages(self, site: str) -> int:
        """Pages learned for ``site`` (0 if none)."""
        row = self._db.execute("SELECT pages FROM sites WHERE site = ?", (site,)).fetchone()
        return row[0] if row else 0

    def sites(self) -> list[SiteInfo]:
        """Every site with something learned, most recently used first."""
        rows = self._db.execute(
            "SELECT s.site, s.pages, s.bytes, s.last_used, "
            "(SELECT COUNT(*) FROM leaves l WHERE l.site = s.site AND l.kind = 1), "
            "(SELECT COUNT(*) FROM leaves l WHERE l.site = s.site AND l.kind = 0), "
            "(SELECT COUNT(*) FROM refs r WHERE r.site = s.site) "
            "FROM sites s ORDER BY s.last_used DESC, s.site"
        ).fetchall()
        return [SiteInfo(site, pages, entries, batch, refs, size, last) for site, pages, size, last, entries, batch, refs in rows]

    # ------------------------------------------------------------------ forgetting

    def forget(self, site: str) -> bool:
        """Erase everything learned of ``site``; returns False if nothing was stored for it."""
        with self._write() as db:
            gone = db.execute("DELETE FROM sites WHERE site = ?", (site,)).rowcount
        self._libraries.pop(site, None)
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # nor in the write-ahead log
        return gone > 0

    def forget_all(self) -> int:
        """Erase every site; returns how many there were (the file is then vacuumed)."""
        with self._write() as db:
            gone = db.execute("DELETE FROM sites").rowcount
        self._libraries.clear()
        self._db.execute("VACUUM")
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return gone
