"""Deleting saved files so that the user can change their mind.

:func:`to_system_trash` moves files to the system trash (Recycle Bin, macOS Trash, the XDG trash
on Linux) with ``send2trash``; the user restores them from there. Where that package is missing
or the trash refuses (no trash on that drive, a sandbox), :func:`to_library_trash` moves them
into ``.trash/TOKEN/`` inside the library folder, and :func:`restore` puts them back.
"""

from __future__ import annotations

import os
import re
import secrets
import time
from collections.abc import Sequence
from pathlib import Path

from pagesieve.errors import LibraryError
from pagesieve.library.names import unique_stem

TRASH_DIR = ".trash"
"""The library's own trash folder (a dot folder: notes apps and file managers hide it)."""

_TOKEN = re.compile(r"\d{8}T\d{6}Z-[0-9a-f]{8}")


def to_system_trash(paths: Sequence[Path]) -> bool:
    """Move ``paths`` (those that exist) to the system trash. Returns False, having moved
    nothing more, when ``send2trash`` is not installed or the trash refuses a file; the files
    not moved are still in place."""
    try:
        from send2trash import send2trash
    except ImportError:
        return False
    for path in paths:
        if path.exists():
            try:
                send2trash(os.fspath(path))
            except Exception:  # TrashPermissionError, OSError: no usable trash for that file
                return False
    return True


def to_library_trash(folder: Path, paths: Sequence[Path]) -> str:
    """Move ``paths`` (those that exist) into a new ``folder/.trash/TOKEN/``; returns TOKEN.

    Raises:
        LibraryError: a file cannot be moved (the ones moved already are put back).
    """
    token = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + "-" + secrets.token_hex(4)
    target = folder / TRASH_DIR / token
    moved: list[tuple[Path, Path]] = []
    try:
        target.mkdir(parents=True)
        for path in paths:
            if path.exists():
                os.replace(path, target / path.name)
                moved.append((path, target / path.name))
    except OSError as exc:
        for original, trashed in reversed(moved):
            try:
                os.replace(trashed, original)
            except OSError:
                pass
        raise LibraryError(f"cannot move {paths[len(moved)] if len(moved) < len(paths) else target} "
                           f"to {target}: {exc.strerror or exc}") from exc
    return token


def trash_folder(folder: Path, token: str) -> Path:
    """``folder/.trash/token`` after checking that ``token`` is one :func:`to_library_trash` made.

    Raises:
        LibraryError: not such a token, or nothing is in the trash under it.
    """
    if not isinstance(token, str) or not _TOKEN.fullmatch(token):
        raise LibraryError(f"{token!r} is not a library trash token")
    path = folder / TRASH_DIR / token
    if not path.is_dir():
        raise LibraryError(f"nothing in the library trash under {token} (already restored or emptied?)")
    return path


def restore(folder: Path, token: str, taken: set[str]) -> list[Path]:
    """Move the files of ``.trash/token`` back into ``folder``; returns their new paths.

    Files that were saved together share a stem (``NAME.md``, ``NAME.html``); if ``NAME`` is
    now taken (``taken``: file names in use) they come back as ``NAME (2)`` and so on.

    Raises:
        LibraryError: see :func:`trash_folder`, or a file cannot be moved.
    """
    source = trash_folder(folder, token)
    files = sorted(p for p in source.iterdir() if p.is_file())
    stems = {p.stem for p in files}
    renamed = {stem: unique_stem(stem, taken, tuple(sorted({p.suffix for p in files}))) for stem in stems}
    out = []
    for p in files:
        dest = folder / (renamed[p.stem] + p.suffix)
        try:
            os.replace(p, dest)
        except OSError as exc:
            raise LibraryError(f"cannot restore {p} to {dest}: {exc.strerror or exc}") from exc
        out.append(dest)
    try:
        source.rmdir()
    except OSError:
        pass
    return out
