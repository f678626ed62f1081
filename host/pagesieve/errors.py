"""Errors raised by pagesieve, each with the exit code the command line gives it.

The exit codes are part of the command-line contract documented in README.md:

====  ==========================================================
code  meaning
====  ==========================================================
0     success
1     unexpected internal error (a bug: please report it)
2     usage error (bad arguments; argparse's own convention)
3     input error: empty, binary, too large or undecodable input
4     input could not be read (missing file, permission denied)
5     model error: the model file is missing or not a valid model
6     dataset error: a dataset folder does not follow the layout
7     a peer extractor of ``eval --compare`` is not installed, or the library
      window cannot open (no pywebview and Qt, or no display)
8     the template store cannot be opened or written
9     the article library cannot be opened or written
10    the personal labels cannot be read or written, or a labels file is malformed
11    the browser host cannot be registered (a manifest or launcher cannot be written)
====  ==========================================================
"""

from __future__ import annotations


class PagesieveError(Exception):
    """Base class of every error pagesieve raises on purpose.

    Attributes:
        exit_code: the process exit code the CLI uses for this error.
    """

    exit_code: int = 1


class UsageError(PagesieveError):
    """Bad arguments that argparse itself cannot catch (an unknown browser name)."""

    exit_code = 2


class InputError(PagesieveError):
    """The page given is not something we can read as HTML (empty, binary, too large)."""

    exit_code = 3


class ReadError(PagesieveError):
    """The input file could not be opened or read."""

    exit_code = 4


class ModelError(PagesieveError):
    """The classifier model is missing, untrusted or of an unknown format version."""

    exit_code = 5


class DatasetError(PagesieveError):
    """A dataset folder does not follow ``../shared/datasets/README.md``."""

    exit_code = 6


class TemplateStoreError(PagesieveError):
    """The template store cannot be opened or written, or was written by a newer pagesieve."""

    exit_code = 8


class LibraryError(PagesieveError):
    """The article library (saved articles and their index) cannot be opened or written: the
    folder is not writable, a file cannot be written or moved, or the index was written by a
    newer pagesieve. Nothing half-written is left behind when this is raised by a save."""

    exit_code = 9


class LabelStoreError(PagesieveError):
    """The store of personal labels (right-click corrections) cannot be opened or written, or
    was written by a newer pagesieve; or a labels file to import is malformed."""

    exit_code = 10


class RegistrationError(PagesieveError):
    """The native-messaging host cannot be registered or removed: a manifest, the launcher or a
    registry key cannot be written (``pagesieve install-host``)."""

    exit_code = 11
