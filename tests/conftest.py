"""Shared pytest fixtures."""

from __future__ import annotations

import os
import subprocess
import sys
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


def shared_dataset(datasets_dir: Path, name: str):
    """The shared dataset ``name`` loaded (:func:`pagesieve_dev.evaluation.datasets.load_dataset`);
    skips the test when its ``index.jsonl`` is absent."""
    from pagesieve_dev.evaluation.datasets import load_dataset

    path = datasets_dir / name
    if not (path / "index.jsonl").is_file():
        pytest.skip(f"dataset {name} not found under {datasets_dir}")
    return load_dataset(path)


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


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without what would point Python at the repository."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.update(extra)
    return env


@pytest.fixture(scope="session")
def repo_free_env():
    """``repo_free_env(**extra)``: this environment without PYTHONPATH and the like (which would
    point Python at the repository), with ``extra`` added."""
    return clean_env


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """(wheel, sdist) built from the repository by `python -m build` (tests/test_wheel.py,
    tests/e2e/test_packaged.py)."""
    pytest.importorskip("build", reason="the build package is not installed (pip install -e '.[test]')")
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(EXAMPLE_PAGE.parents[1])],
                          capture_output=True, text=True, timeout=900, env=clean_env())
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    (wheel,) = out.glob(f"pagesieve-{version()}-*.whl")  # cp311-abi3-<platform> with the compiled walk (setup.py)
    (sdist,) = out.glob(f"pagesieve-{version()}.tar.gz")
    return wheel, sdist


@pytest.fixture(scope="session")
def venv(built, tmp_path_factory):
    """A fresh venv (outside the repository) with the wheel installed; its dependencies come from PyPI."""
    where = tmp_path_factory.mktemp("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=300)
    done = subprocess.run([str(where / "bin/python"), "-m", "pip", "install", "-q", str(built[0])],
                          capture_output=True, text=True, timeout=1800, env=clean_env())
    assert done.returncode == 0, done.stderr[-3000:]
    return where


def version() -> str:
    """The version of the package in this tree."""
    from pagesieve import __version__

    return __version__
