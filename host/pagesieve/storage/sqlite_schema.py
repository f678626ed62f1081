"""Plumbing shared by pagesieve's SQLite files (the template store, the label store, the library
index): opening in WAL mode, one write transaction, and versioned schema migrations
(``PRAGMA user_version``).

The transaction and the migrations expect a connection opened with ``isolation_level=None``
(transactions are explicit).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from pagesieve.errors import PagesieveError

ErrorFactory = Callable[[str], PagesieveError]
"""Makes the caller's error from a detail message (e.g. ``lambda m: LibraryError(f"{path}: {m}")``)."""


def open_database(path, *, timeout: float, synchronous: str = "NORMAL") -> sqlite3.Connection:
    """Open (creating it and its folder) an SQLite file the way pagesieve's stores use it:
    explicit transactions (``isolation_level=None``), WAL journal so readers never block the
    writer, ``synchronous`` as given (``FULL``: a commit is on disk when it returns), foreign
    keys on, and ``secure_delete`` so erased rows are overwritten rather than left in free pages.

    Raises:
        sqlite3.Error, OSError: the file or its folder cannot be opened or created.
    """
    from pathlib import Path

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    enable_wal(db, timeout)
    db.execute(f"PRAGMA synchronous={synchronous}")
    db.execute("PRAGMA foreign_keys=ON")
    db.execute("PRAGMA secure_delete=ON")
    return db


def enable_wal(db: sqlite3.Connection, timeout: float) -> None:
    """Put the file in WAL journal mode (https://sqlite.org/wal.html), waiting up to
    ``timeout`` seconds for other connections.

    The mode is persistent, so a file already in WAL is left alone and no lock is taken. The
    switch itself needs the file to itself, and while another connection holds its write lock
    SQLite answers "database is locked" at once, without running the connection's busy
    handler (seen with SQLite 3.40; tests/test_library.py and tests/test_template_store.py
    reproduce it): two processes opening a new file together would fail. So the switch is
    retried, 5 ms apart and doubling up to 100 ms, until the mode is WAL (switched by us or by
    the other process) or ``timeout`` has passed.

    Raises:
        sqlite3.OperationalError: still locked after ``timeout`` seconds.
        sqlite3.DatabaseError: the file is not an SQLite database.
    """
    deadline = time.monotonic() + timeout
    pause = 0.005
    while True:
        try:
            if db.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal":
                return
            if db.execute("PRAGMA journal_mode=WAL").fetchone()[0].lower() == "wal":
                return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            if time.monotonic() >= deadline:
                raise
        else:
            if time.monotonic() >= deadline:
                raise sqlite3.OperationalError("database is locked (journal mode stays rollback)")
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


@contextmanager
def write_transaction(db: sqlite3.Connection, error: ErrorFactory) -> Iterator[sqlite3.Connection]:
    """One write transaction: ``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception.
    ``BEGIN IMMEDIATE`` takes the write lock at once, so another process waits (up to the
    connection's timeout) instead of failing half-way.

    Raises:
        the error of ``error(message)``: the lock could not be had, or the commit failed.
    """
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as exc:
        raise error(str(exc)) from exc
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    try:
        db.execute("COMMIT")
    except sqlite3.Error as exc:
        db.execute("ROLLBACK")
        raise error(str(exc)) from exc


def migrate(db: sqlite3.Connection, migrations: Sequence[str], error: ErrorFactory) -> None:
    """Bring the file up to schema version ``len(migrations)`` in one transaction: script ``k``
    (statements separated by ``;``) takes version ``k`` to ``k + 1``.

    Raises:
        the error of ``error(message)``: the file has a newer schema version than
        ``len(migrations)`` (written by a newer pagesieve), or cannot be written.
        sqlite3.DatabaseError: the file is not an SQLite database.
    """
    latest = len(migrations)
    with write_transaction(db, error):
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > latest:
            raise error(f"has schema version {version}; this pagesieve knows {latest}")
        for k in range(version, latest):
            for statement in migrations[k].split(";"):
                if statement.strip():
                    db.execute(statement)
        if version != latest:
            db.execute(f"PRAGMA user_version = {latest}")
