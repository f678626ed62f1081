"""The page's language: its markup's declaration, else a guess from the script of its text
(:func:`page_language`, :func:`guess_language`; BCP 47 tags)."""

from __future__ import annotations

import re


_NOT_LANGUAGES = frozenset({"utf", "iso", "win", "big", "euc", "cp", "ascii", "us"})
_LANG_TAG = re.compile(r"^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$")
_TEXT_SAMPLE_CHARS = 1500
# Runs, not single characters: summing run lengths allocates far fewer match strings.
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_KANA = re.compile(r"[\u3041-\u309f\u30a1-\u30fa]+")
_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]+")
_LETTER = re.compile(r"[^\W\d_]+")


def _lang_tag(value: object) -> str | None:
    if not isinstance(value, str):
        return None
    value = value.strip().split(",")[0].split(";")[0].strip().replace("_", "-")
    if not _LANG_TAG.match(value) or value.lower() in {"und", "xx", "x-default"}:
        return None
    if value.split("-")[0].lower() in _NOT_LANGUAGES:  # lang="utf-8" and the like
        return None
    parts = value.split("-")
    tag = [parts[0].lower()]
    for part in parts[1:]:
        tag.append(part.upper() if len(part) == 2 else (part.title() if len(part) == 4 else part))
    return "-".join(tag)


# Elements whose text (and tail) is sampled: everything usual in a body but script, style,
# noscript, template and svg, whose text is code or markup rather than prose.
_TEXT_TAGS = (
    "p", "div", "span", "a", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "em", "strong",
    "b", "i", "u", "font", "section", "article", "main", "header", "footer", "nav", "aside",
    "blockquote", "dd", "dt", "dl", "ul", "ol", "table", "tbody", "tr", "pre", "code", "figure",
    "figcaption", "label", "center", "small", "br", "img", "sup", "sub", "time", "cite", "q",
    "abbr", "address", "mark", "body",
)


def _text_sample(root) -> str:
    """Up to :data:`_TEXT_SAMPLE_CHARS` of body text in document order, scripts/styles skipped.

    Uses lxml's C-level ``itertext`` with a tag filter and stops once the sample is full.
    """
    body = root.find("body")
    if body is None:
        body = root
    chunks: list[str] = []
    size = 0
    for piece in body.itertext(*_TEXT_TAGS):
        if piece.isspace():
            continue
        chunks.append(piece)
        size += len(piece)
        if size >= _TEXT_SAMPLE_CHARS:
            break
    return "".join(chunks)[:_TEXT_SAMPLE_CHARS]


def guess_language(text: str) -> str | None:
    """Guess a CJK language from a text sample by script (``"zh"``, ``"ja"``, ``"ko"`` or ``None``).

    Han, Kana and Hangul letters together must be at least half of all letters; Hangul
    dominant -> ``"ko"``; Hiragana/Katakana present (>= 3 and >= 2 % of them) -> ``"ja"``;
    else ``"zh"``. Other scripts are not guessed (``None``).
    """
    letters = sum(map(len, _LETTER.findall(text)))
    if letters < 10:
        return None
    han = sum(map(len, _HAN.findall(text)))
    kana = sum(map(len, _KANA.findall(text)))
    hangul = sum(map(len, _HANGUL.findall(text)))
    cjk = han + kana + hangul
    if cjk * 2 < letters:
        return None
    if hangul > han + kana:
        return "ko"
    if kana >= 3 and kana * 50 >= cjk:
        return "ja"
    if han * 2 >= letters:
        return "zh"
    return None


def page_language(root, meta: dict[str, str]) -> str | None:
    """<html lang> > meta content-language > og:locale > guess from the body's script."""
    for value in (root.get("lang"), root.get("{http://www.w3.org/XML/1998/namespace}lang"), root.get("xml:lang")):
        tag = _lang_tag(value)
        if tag:
            return tag
    for key in ("content-language", "og:locale", "language", "dc.language"):
        tag = _lang_tag(meta.get(key))
        if tag:
            return tag
    return guess_language(_text_sample(root))
