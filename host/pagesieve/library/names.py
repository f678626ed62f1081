"""File names of saved articles, made from their titles, safe on Windows, macOS and Linux.

:func:`safe_stem` turns any title into a name stem that every common file system accepts and
that cannot escape the library folder; :func:`unique_stem` adds `` (2)``, `` (3)`` ... until
neither ``stem.md`` nor ``stem.html`` is taken (compared case-insensitively, as on the default
macOS and Windows file systems).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

MAX_STEM_BYTES = 120
"""Longest stem in UTF-8 bytes, the `` (n)`` suffix included. File systems allow 255 bytes
per name (ext4, APFS; NTFS 255 UTF-16 units); 120 leaves room for the extension and for the
``.NAME.XXXXXXXX.tmp`` temporary names of :mod:`pagesieve.storage.atomic`, and keeps a full
path under Windows' classic 260-character limit in a typical documents folder."""

UNTITLED = "untitled"
"""The stem of an article whose title leaves nothing usable."""

FORBIDDEN_CHARS = frozenset('/\\:*?"<>|') | frozenset("#^[]")
"""Replaced by a space: the characters Windows forbids in names (``/`` also on Unix, ``:``
also on classic macOS), and ``# ^ [ ]``, which break Obsidian's ``[[links]]`` to a note."""

RESERVED_NAMES = frozenset(
    ["CON", "PRN", "AUX", "NUL"]
    + [f"{d}{n}" for d in ("COM", "LPT") for n in "123456789\u00b9\u00b2\u00b3"]
)
"""Device names Windows reserves, with or without an extension and in any case."""

_KEEP_FORMAT = frozenset("\u200c\u200d")  # zero-width (non-)joiner: needed by Persian, Indic scripts, emoji


def _clean_char(ch: str) -> str:
    if ch in FORBIDDEN_CHARS:
        return " "
    cat = unicodedata.category(ch)
    if cat in ("Cc", "Cs", "Cn", "Zl", "Zp"):
        return " "
    if cat == "Cf" and ch not in _KEEP_FORMAT:  # bidi overrides could disguise the extension
        return ""
    return ch


def trim_utf8(text: str, max_bytes: int) -> str:
    """The longest prefix of ``text`` whose UTF-8 encoding has at most ``max_bytes`` bytes
    (never splits a character)."""
    data = text.encode("utf-8")
    if len(data) <= max_bytes:
        return text
    return data[:max_bytes].decode("utf-8", "ignore")


def _tidy(stem: str) -> str:
    """Drop what may not start or end a name: leading dots (hidden files, ``..``), and spaces,
    dots and zero-width joiners at either end (Windows strips trailing dots and spaces)."""
    return stem.strip(" .\u200c\u200d").lstrip(".")


def safe_stem(title: str, max_bytes: int = MAX_STEM_BYTES) -> str:
    """A file name stem (no extension) for an article titled ``title``.

    NFC-normalised; :data:`FORBIDDEN_CHARS`, control characters and line breaks become spaces,
    invisible format characters (bidi overrides ...) are dropped, runs of white space become one
    space; no leading or trailing dots or spaces (so never ``.``, ``..`` or a hidden file); a
    Windows device name (:data:`RESERVED_NAMES`, also as ``CON.txt``) gets a leading ``_``;
    at most ``max_bytes`` UTF-8 bytes; :data:`UNTITLED` when nothing is left.
    """
    text = unicodedata.normalize("NFC", title or "")
    text = "".join(_clean_char(ch) for ch in text)
    text = _tidy(re.sub(r"\s+", " ", text))
    text = _tidy(trim_utf8(text, max_bytes))
    if not text:
        return UNTITLED
    if text.split(".")[0].rstrip(" ").upper() in RESERVED_NAMES:
        text = _tidy(trim_utf8("_" + text, max_bytes))
    return text


def numbered(stem: str, n: int, max_bytes: int = MAX_STEM_BYTES) -> str:
    """``stem`` itself for ``n == 1``, else ``stem (n)`` with ``stem`` shortened so the whole
    stays within ``max_bytes`` UTF-8 bytes."""
    if n == 1:
        return stem
    suffix = f" ({n})"
    return _tidy(trim_utf8(stem, max_bytes - len(suffix))) + suffix


def unique_stem(stem: str, taken: Iterable[str], extensions: tuple[str, ...] = (".md", ".html")) -> str:
    """The first of ``stem``, ``stem (2)``, ``stem (3)`` ... for which no ``stem + ext`` is in
    ``taken`` (file names, compared case-insensitively)."""
    taken_cf = {t.casefold() for t in taken}
    n = 1
    while True:
        candidate = numbered(stem, n)
        if all((candidate + ext).casefold() not in taken_cf for ext in extensions):
            return candidate
        n += 1


def is_numbered_form(candidate: str, stem: str) -> bool:
    """True if ``candidate`` is ``stem`` or one of its :func:`numbered` forms (so an entry saved
    again under the same title keeps its name)."""
    if candidate == stem:
        return True
    m = re.fullmatch(r"(.*) \((\d+)\)", candidate)
    return bool(m) and int(m.group(2)) >= 2 and numbered(stem, int(m.group(2))) == candidate
