"""Where the library lives: an argument, else ``$PAGESIEVE_LIBRARY_DIR``, else
``platformdirs.user_documents_dir()/pagesieve`` (``~/Documents/pagesieve`` on most systems), and
the check that a path stays inside it."""

from __future__ import annotations

import os
from pathlib import Path

from pagesieve.errors import LibraryError

LIBRARY_ENV = "PAGESIEVE_LIBRARY_DIR"
"""Environment variable naming the library folder (overridden by an explicit argument)."""

LIBRARY_NAME = "pagesieve"
"""Name of the library folder inside the user's documents folder."""


def default_library_dir() -> Path:
    """``$PAGESIEVE_LIBRARY_DIR`` if set and not empty, else ``user_documents_dir()/pagesieve``
    (platformdirs: ``~/Documents`` on macOS and Windows, the XDG documents folder on Linux)."""
    env = os.environ.get(LIBRARY_ENV, "").strip()
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_documents_dir()) / LIBRARY_NAME


def library_dir(folder: str | os.PathLike[str] | None = None, *, create: bool = True) -> Path:
    """The library folder as an absolute, resolved path: ``folder`` if given, else
    :func:`default_library_dir`; created with its parents when missing and ``create`` is true.

    Raises:
        LibraryError: the path exists but is not a folder, or cannot be created.
    """
    path = Path(folder).expanduser() if folder is not None else default_library_dir()
    if path.exists() and not path.is_dir():
        raise LibraryError(f"library folder {path} is a file, not a folder")
    if create:
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LibraryError(f"cannot create the library folder {path}: {exc.strerror or exc}") from None
    return path.resolve()


def inside(folder: Path, name: str) -> Path:
    """``folder / name``, after checking that it names a file directly inside ``folder``.

    ``name`` comes from :func:`pagesieve.library.names.safe_stem` or from the index; this is
    the last guard against a name that would escape the folder (``..``, a separator, an
    absolute path, a drive letter).

    Raises:
        LibraryError: ``name`` is not a plain file name in ``folder``.
    """
    path = folder / name
    if not name or name in (".", "..") or Path(name).name != name or "\\" in name or path.parent != folder:
        raise LibraryError(f"refusing the file name {name!r}: it is not a plain name inside {folder}")
    if os.path.commonpath([os.path.abspath(path), os.path.abspath(folder)]) != os.path.abspath(folder):
        raise LibraryError(f"refusing the file name {name!r}: it leads outside {folder}")
    return path
