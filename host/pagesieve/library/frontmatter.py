"""YAML front matter (the ``---`` block at the top of a Markdown note), written and read.

Writing: every string is a double-quoted scalar built from a JSON string (JSON's string syntax is
a subset of YAML's double-quoted style), with the characters YAML does not allow raw (C1
controls, U+2028/U+2029, U+FEFF, non-characters) escaped too, so any title (``:``, ``"``,
``#``, line breaks, emoji) is valid YAML 1.2 and 1.1. Lists are flow sequences of such strings;
``None`` is an empty value (YAML null).

Reading: the subset of YAML that notes apps write for flat properties: ``key: value`` lines with
plain, single- or double-quoted scalars, flow lists ``[a, "b"]``, block lists (``- item`` lines)
and ``|``/``>`` block scalars. Nested mappings and anchors are not understood; their keys read
as text. Unknown keys are kept by :func:`replace_key`, which edits one key in place.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

Value = str | list[str] | None

_NOT_YAML_PRINTABLE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_KEY_LINE = re.compile(r"^([^\s#'\"\-:][^:]*?)\s*:(?:[ \t]+(.*))?$")
_FENCE = "---"


def quote(value: str) -> str:
    """``value`` as a YAML double-quoted scalar (one line)."""
    value = _SURROGATE.sub("\ufffd", value)
    text = json.dumps(value, ensure_ascii=False)
    return _NOT_YAML_PRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def emit_value(value: Value) -> str:
    """The YAML text after ``key:`` for a string, a list of strings or ``None``."""
    if value is None:
        return ""
    if isinstance(value, str):
        return quote(value)
    return "[" + ", ".join(quote(v) for v in value) + "]"


def emit(fields: Sequence[tuple[str, Value]]) -> str:
    """A front matter block: ``---``, one ``key: value`` line per field in order, ``---``, each
    line ending in ``\\n``. Keys must be plain words (``[A-Za-z_][A-Za-z0-9_-]*``)."""
    lines = [_FENCE]
    for key, value in fields:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", key):
            raise ValueError(f"front matter key {key!r} is not a plain word")
        rendered = emit_value(value)
        lines.append(f"{key}: {rendered}" if rendered else f"{key}:")
    lines.append(_FENCE)
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- reading

_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
    "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0",
    "L": "\u2028", "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


def _double_quoted(raw: str) -> tuple[str, str]:
    """Decode a YAML double-quoted scalar at the start of ``raw``; returns (value, rest)."""
    out: list[str] = []
    i = 1
    while i < len(raw):
        ch = raw[i]
        if ch == '"':
            return "".join(out), raw[i + 1:]
        if ch == "\\" and i + 1 < len(raw):
            esc = raw[i + 1]
            if esc in _HEX_ESCAPES:
                n = _HEX_ESCAPES[esc]
                digits = raw[i + 2:i + 2 + n]
                if len(digits) == n and all(c in "0123456789abcdefABCDEF" for c in digits):
                    code = int(digits, 16)
                    if esc == "u" and 0xD800 <= code < 0xDC00 and raw[i + 6:i + 8] == "\\u":
                        low = raw[i + 8:i + 12]  # a UTF-16 pair, as JSON writes astral characters
                        if len(low) == 4 and 0xDC00 <= int(low, 16) < 0xE000:
                            out.append(chr(0x10000 + ((code - 0xD800) << 10) + (int(low, 16) - 0xDC00)))
                            i += 12
                            continue
                    out.append(chr(code) if not 0xD800 <= code < 0xE000 else "\ufffd")
                    i += 2 + n
                    continue
            out.append(_ESCAPES.get(esc, esc))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out), ""  # unterminated: take what there is


def _single_quoted(raw: str) -> tuple[str, str]:
    out: list[str] = []
    i = 1
    while i < len(raw):
        if raw[i] == "'":
            if raw[i + 1:i + 2] == "'":
                out.append("'")
                i += 2
                continue
            return "".join(out), raw[i + 1:]
        out.append(raw[i])
        i += 1
    return "".join(out), ""


def _plain(raw: str) -> str | None:
    text = re.split(r"[ \t]#", raw, maxsplit=1)[0].strip()
    if text in ("", "~", "null", "Null", "NULL"):
        return None
    return text


def scalar(raw: str) -> str | None:
    """A YAML scalar written on one line (quoted or plain; a trailing comment is ignored)."""
    raw = raw.strip()
    if raw.startswith('"'):
        return _double_quoted(raw)[0]
    if raw.startswith("'"):
        return _single_quoted(raw)[0]
    return _plain(raw)


def _flow_list(raw: str) -> list[str]:
    items: list[str] = []
    rest = raw.strip()[1:]
    while True:
        rest = rest.lstrip()
        if not rest or rest.startswith("]"):
            return items
        if rest[0] in "\"'":
            value, rest = (_double_quoted if rest[0] == '"' else _single_quoted)(rest)
            items.append(value)
        else:
            m = re.match(r"[^,\]]*", rest)
            value = _plain(m.group())
            if value is not None:
                items.append(value)
            rest = rest[m.end():]
        rest = rest.lstrip()
        if rest.startswith(","):
            rest = rest[1:]
        elif not rest.startswith("]"):
            return items


def _value(first: str | None, more: list[str]) -> Value:
    first = (first or "").strip()
    items = [ln.strip() for ln in more if ln.strip() and not ln.strip().startswith("#")]
    if first.startswith("["):
        return _flow_list(first)
    if first[:1] in ("|", ">"):
        body = [ln for ln in more]
        while body and not body[-1].strip():
            body.pop()
        indent = min((len(ln) - len(ln.lstrip()) for ln in body if ln.strip()), default=0)
        lines = [ln[indent:] for ln in body]
        return "\n".join(lines) if first[0] == "|" else " ".join(ln.strip() for ln in lines)
    if not first and items and all(i == "-" or i.startswith("- ") for i in items):
        return [v for v in (scalar(i[1:]) for i in items) if v is not None]
    if not first and not items:
        return None
    if first.startswith(("'", '"')):
        joined = " ".join([first] + items)  # a quoted scalar folded over several lines
        return scalar(joined)
    return _plain(" ".join([first] + items))


def split(text: str) -> tuple[list[str], str] | None:
    """``(front matter lines, body)`` of a Markdown document, or ``None`` if it has none.

    The front matter starts at the first line (after an optional BOM) with ``---`` and ends at
    the next line that is ``---`` or ``...``; the body is everything after that line."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if not lines or lines[0].rstrip("\r ") != _FENCE:
        return None
    for k in range(1, len(lines)):
        if lines[k].rstrip("\r ") in (_FENCE, "..."):
            return [ln.rstrip("\r") for ln in lines[1:k]], "\n".join(lines[k + 1:])
    return None


def _groups(lines: list[str]) -> list[tuple[str, str | None, list[str], int, int]]:
    """``(key, first value text, continuation lines, first line index, end index)`` per key."""
    groups: list[tuple[str, str | None, list[str], int, int]] = []
    for i, line in enumerate(lines):
        m = _KEY_LINE.match(line) if line[:1] not in (" ", "\t", "-", "#") else None
        if m:
            groups.append((m.group(1).strip(), m.group(2), [], i, i + 1))
        elif groups and (line.strip() == "" or line[:1] in (" ", "\t", "-")):
            key, first, more, start, _ = groups[-1]
            more.append(line)
            groups[-1] = (key, first, more, start, i + 1)
    return groups


def parse(lines: list[str]) -> dict[str, Value]:
    """The key/value pairs of front matter ``lines`` (from :func:`split`); a later key wins."""
    return {key: _value(first, more) for key, first, more, _, _ in _groups(lines)}


def replace_key(text: str, key: str, value: Value) -> str:
    """``text`` (a Markdown document with front matter) with ``key`` set to ``value``: its line
    (and its continuation lines) replaced, or a line added at the end of the front matter.
    Everything else, unknown keys and the body included, is left byte for byte.

    Raises:
        ValueError: ``text`` has no front matter.
    """
    parts = split(text)
    if parts is None:
        raise ValueError("the document has no front matter")
    lines, body = parts
    rendered = emit_value(value)
    new_line = f"{key}: {rendered}" if rendered else f"{key}:"
    groups = [g for g in _groups(lines) if g[0] == key]
    if groups:
        _, _, _, start, end = groups[-1]
        while end > start + 1 and not lines[end - 1].strip():
            end -= 1  # keep blank lines that merely follow the key
        lines = lines[:start] + [new_line] + lines[end:]
    else:
        lines = lines + [new_line]
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    return bom + "\n".join([_FENCE] + lines + [_FENCE]) + "\n" + body
