"""Atomic writes: a file is either its old version or its new one, never a part of either.

Each file is written to a temporary file in the same folder (``.NAME.XXXXXXXX.tmp``), flushed
and fsynced, and only then renamed over the target with :func:`os.replace` (atomic on POSIX and
on NTFS). Several files written together are all staged before any is renamed, so a failure
while writing (disk full, an I/O error, an exception) changes none of them.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from pagesieve.errors import LibraryError

TEMP_SUFFIX = ".tmp"

_UMASK = os.umask(0o022)
os.umask(_UMASK)
FILE_MODE = 0o666 & ~_UMASK
"""Permissions of the files written: what ``open()`` would give (mkstemp's own 0600 would hide
saved articles from the user's other accounts and backup tools unlike every other file)."""

STALE_TEMP_S = 3600.0
"""Temporary files older than this (seconds) are left over from a crash and may be removed;
a save in progress in another process finishes within seconds."""


def is_temp_name(name: str) -> bool:
    """True for the names of our temporary files (``.NAME.XXXXXXXX.tmp``)."""
    return name.startswith(".") and name.endswith(TEMP_SUFFIX)


def _write_fd(fd: int, data: bytes) -> None:
    """Write all of ``data`` to the open file ``fd`` and fsync it."""
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]
    os.fsync(fd)


def fsync_dir(folder: Path) -> None:
    """Make renames in ``folder`` durable (POSIX; a no-op where folders cannot be opened)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_files(files: Sequence[tuple[Path, bytes]]) -> None:
    """Write each ``(path, data)`` atomically; all files are staged before any is replaced.

    On any failure every temporary file is removed and the targets are as they were (unless the
    failure is in the final renames themselves, which only fail on a broken file system).

    Raises:
        LibraryError: a file cannot be written (the message names it and the reason).
    """
    staged: list[tuple[Path, Path]] = []
    try:
        for path, data in files:
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
            staged.append((Path(tmp), path))
            try:
                os.chmod(tmp, FILE_MODE)
                _write_fd(fd, data)
            finally:
                os.close(fd)
        for tmp, path in staged:
            os.replace(tmp, path)
    except OSError as exc:
        _discard(staged)
        target = staged[-1][1] if staged else (files[0][0] if files else "?")
        raise LibraryError(f"cannot write {target}: {exc.strerror or exc}") from exc
    except BaseException:
        _discard(staged)
        raise
    for folder in {path.parent for _, path in staged}:
        fsync_dir(folder)


def _discard(staged: list[tuple[Path, Path]]) -> None:
    for tmp, _ in staged:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass


def remove_stale_temps(folder: Path, older_than_s: float = STALE_TEMP_S) -> int:
    """Remove our temporary files in ``folder`` older than ``older_than_s`` seconds (left by a
    crash or a killed process); returns how many were removed."""
    now = time.time()
    removed = 0
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    for name in names:
        if is_temp_name(name):
            path = folder / name
            try:
                if now - path.stat().st_mtime > older_than_s:
                    path.unlink()
                    removed += 1
            except OSError:
                pass
    return removed
