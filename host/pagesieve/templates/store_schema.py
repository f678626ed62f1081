"""The template store's schema (:mod:`pagesieve.templates.store`): one SQL script per version,
kept apart from the code that reads and writes the store."""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    # version 1
    """
    CREATE TABLE sites (
        site TEXT PRIMARY KEY,
        pages INTEGER NOT NULL DEFAULT 0,
        batch_pages INTEGER NOT NULL DEFAULT 0,
        version INTEGER NOT NULL DEFAULT 0,
        last_used REAL NOT NULL,
        bytes INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE leaves (
        site TEXT NOT NULL REFERENCES sites(site) ON DELETE CASCADE,
        kind INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        tag TEXT NOT NULL,
        text TEXT NOT NULL,
        frequency INTEGER NOT NULL,
        PRIMARY KEY (site, kind, seq)
    ) WITHOUT ROWID;
    CREATE TABLE refs (
        site TEXT NOT NULL REFERENCES sites(site) ON DELETE CASCADE,
        url TEXT NOT NULL,
        seen REAL NOT NULL,
        fingerprints BLOB NOT NULL,
        PRIMARY KEY (site, url)
    ) WITHOUT ROWID;
    """,
    # version 2: pages already learned, by a hash of their URL (a page seen again is not
    # counted again: reloading one article three times must not make it the site's template)
    """
    CREATE TABLE visits (
        site TEXT NOT NULL REFERENCES sites(site) ON DELETE CASCADE,
        url_hash BLOB NOT NULL,
        seen REAL NOT NULL,
        PRIMARY KEY (site, url_hash)
    ) WITHOUT ROWID;
    """,
    # version 3: per kind of block (a hash of its tag path), the learned pages that held it, so
    # that a correction can say how far it reaches (issue 54); pages learned before start at 0
    """
    CREATE TABLE shapes (
        site TEXT NOT NULL REFERENCES sites(site) ON DELETE CASCADE,
        shape BLOB NOT NULL,
        pages INTEGER NOT NULL,
        PRIMARY KEY (site, shape)
    ) WITHOUT ROWID;
    """,
    # version 4: per kind of block, the learned pages on which it held the article (a "hide"
    # of that kind stays off them); pages learned before count 0
    """
    ALTER TABLE shapes ADD COLUMN article INTEGER NOT NULL DEFAULT 0;
    """,
)
"""Schema scripts; script ``k`` takes a store from version ``k`` to ``k + 1``."""
