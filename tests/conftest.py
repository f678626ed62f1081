"""Shared pytest fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

#: ``<repo>/../shared/datasets``: the third-party benchmark datasets, read in place.
DATASETS_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"


@pytest.fixture(scope="session")
def datasets_dir() -> Path:
    """The datasets folder; skips the test when it is absent (e.g. outside the dev machine)."""
    if not DATASETS_DIR.is_dir():
        pytest.skip(f"datasets folder {DATASETS_DIR} not found (see ../shared/datasets/README.md)")
    return DATASETS_DIR


#: The hand-written example page of the README's quick start.
EXAMPLE_PAGE = Path(__file__).resolve().parents[1] / "examples" / "article.html"


@pytest.fixture(scope="session")
def example_page() -> Path:
    """Path of ``examples/article.html`` (written for this project, not copied)."""
    return EXAMPLE_PAGE


@pytest.fixture
def held_write_lock():
    """``hold(path, seconds)``: create the SQLite file ``path`` in rollback mode and keep its
    write lock (``BEGIN IMMEDIATE``) from another connection for ``seconds``, as a second
    process creating the same new file would. Returns the thread that releases it."""
    import sqlite3
    import threading

    held = []

    def hold(path, seconds: float) -> threading.Timer:
        other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        other.execute("CREATE TABLE scratch(x)")
        other.execute("BEGIN IMMEDIATE")
        other.execute("INSERT INTO scratch VALUES (1)")
        release = threading.Timer(seconds, lambda: other.execute("COMMIT"))
        release.start()
        held.append((release, other))
        return release

    yield hold
    for release, other in held:
        release.join()
        other.close()
