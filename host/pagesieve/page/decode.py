"""Bytes to text: find the charset of an HTML page and decode it.

Order of evidence, as in the WHATWG encoding-sniffing algorithm (HTML Living Standard
§13.2.3.2, "Determining the character encoding"), simplified for pages at rest:

1. a byte-order mark (UTF-8, UTF-16 LE/BE);
2. the charset of the transport layer (the HTTP ``Content-Type`` header) when the caller has
   one (a WARC record of a crawl: :mod:`pagesieve.crawl.records`);
3. ``<meta charset=...>`` or ``<meta http-equiv="Content-Type" content="...; charset=...">``
   in the first 4096 bytes (the prescan window of the standard is 1024 bytes; old pages put
   long comments first, so we look further);
4. strict UTF-8 if the bytes are valid UTF-8;
5. the detector of ``charset-normalizer``;
6. windows-1252, which decodes any byte sequence (the standard's fallback for most locales).

GBK and GB2312 labels are read as GB18030, their superset (WHATWG Encoding Standard maps
``gb2312`` and ``gbk`` to GBK; GB18030 decodes every GBK page and more). A declared charset
that fails to decode strictly is not trusted: we fall through to the next step.
"""

from __future__ import annotations

import codecs
import re

from charset_normalizer import from_bytes

from pagesieve.errors import InputError

PRESCAN_BYTES = 4096
"""How many leading bytes are searched for a ``<meta>`` charset declaration."""

_META_CHARSET = re.compile(
    rb"""<meta[^>]+?charset\s*=\s*["']?\s*([a-zA-Z0-9_\-:.]+)""", re.IGNORECASE
)

_ALIASES = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "x-gbk": "gb18030",
    "cp936": "gb18030",
    "gb_2312-80": "gb18030",
    "iso-8859-1": "cp1252",  # WHATWG: latin1 labels decode as windows-1252
    "latin1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
    "x-sjis": "shift_jis",
    "unicode": "utf-16",
    "utf8": "utf-8",
}


def normalise_charset(label: str) -> str | None:
    """Map a charset label to a Python codec name, or ``None`` if Python does not know it.

    GBK/GB2312 become GB18030 and latin-1 becomes windows-1252 (WHATWG Encoding Standard §4.2).
    """
    name = label.strip().strip("\"'").lower()
    name = _ALIASES.get(name, name)
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def declared_charset(data: bytes) -> str | None:
    """The codec named by the first ``<meta>`` charset declaration in the prescan window."""
    match = _META_CHARSET.search(data[:PRESCAN_BYTES])
    if not match:
        return None
    return normalise_charset(match.group(1).decode("ascii", "replace"))


_BINARY_CONTROLS = bytes([*range(0, 9), *range(14, 32)])
"""The control bytes :func:`looks_binary` counts: C0 controls but tab, LF, VT, FF and CR."""


def looks_binary(data: bytes) -> bool:
    """True if ``data`` is clearly not text: NUL bytes or many control bytes in its first 8 KiB.

    UTF-16 pages carry NULs but start with a BOM, which is checked before this.
    """
    head = data[:8192]
    if not head:
        return False
    if b"\x00" in head:
        return True
    controls = len(head) - len(head.translate(None, _BINARY_CONTROLS))  # bytes 0-8 and 14-31, counted in C
    return controls / len(head) > 0.05


def decode_html(data: bytes, transport_charset: str | None = None) -> tuple[str, str]:
    """Decode the bytes of an HTML page.

    Args:
        data: the raw bytes of the page.
        transport_charset: the charset label of the HTTP ``Content-Type`` header, if any; it
            comes after a byte-order mark and before the page's own ``<meta>`` (WHATWG order).
            A label Python does not know, or one the bytes do not decode strictly with, is
            passed over like a wrong ``<meta>``.

    Returns:
        ``(text, codec_name)``.

    Raises:
        InputError: if ``data`` is empty or looks binary (NUL or control bytes).
    """
    if not data.strip():
        raise InputError("the page is empty")
    for bom, codec in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")):
        if data.startswith(bom):
            return data[len(bom):].decode(codec, errors="replace"), codec
    if looks_binary(data):
        raise InputError("the input looks binary (NUL or control bytes), not like an HTML page")
    for declared in (normalise_charset(transport_charset) if transport_charset else None, declared_charset(data)):
        if declared:
            try:
                return data.decode(declared), declared
            except (UnicodeDecodeError, LookupError):
                pass
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    guess = from_bytes(data[:200_000]).best()
    if guess is not None and guess.encoding:
        codec = normalise_charset(guess.encoding) or "cp1252"
        return data.decode(codec, errors="replace"), codec
    return data.decode("cp1252", errors="replace"), "cp1252"
