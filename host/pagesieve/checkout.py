"""The source checkout this package runs from, if any (``pagesieve try`` and the dev tools use it)."""

from __future__ import annotations

from pathlib import Path


def repo_root() -> Path | None:
    """The repository root (the folder holding ``pyproject.toml``), found from this file.

    This file is ``<repo>/host/pagesieve/checkout.py``; returns ``None`` when the package is not
    run from a source checkout (e.g. installed as a wheel).
    """
    root = Path(__file__).resolve().parents[2]
    return root if (root / "pyproject.toml").is_file() else None
