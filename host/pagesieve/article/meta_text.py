"""The text of a page's elements and ``<meta>`` values as the metadata reads them: white space
normalised, entities unescaped, icon-font glyphs dropped (:mod:`pagesieve.article.metadata` and the
modules it reads the title, byline and JSON-LD with)."""

from __future__ import annotations

import html
import re

import lxml.etree

from pagesieve.blocks.segment import BLOCK_TAGS


def norm(value: object) -> str:
    """Whitespace-normalised text of ``value`` (HTML entities that survived parsing unescaped)."""
    if not isinstance(value, str):
        return ""
    if "&" in value:
        value = html.unescape(value)
    return " ".join(value.split())


PRIVATE_USE = re.compile("[\ue000-\uf8ff]")
"""Unicode's Private Use Area (BMP): icon fonts draw their glyphs there ("\ue08a" before an
author's name); without the font a reader sees a box."""


def element_text(element, limit: int = 2000) -> str:
    """Whitespace-normalised text of an element (plain ``etree`` or ``lxml.html``), ``""`` on odd nodes.

    Block-level elements (:data:`pagesieve.blocks.segment.BLOCK_TAGS`) and ``<br>`` separate words, as
    a browser renders them: a browser snapshot leaves out the white space between two blocks
    (docs/snapshot.md), and "<div>Author</div><div>Isaiah Shelton</div>" read as one word.
    Private-use characters (:data:`PRIVATE_USE`) are dropped. Reading stops after about
    ``limit`` characters, so a huge subtree costs little; callers that reject long texts lose
    nothing.
    """
    chunks: list[str] = []
    size = 0
    try:
        for event, node in lxml.etree.iterwalk(element, events=("start", "end")):
            tag = node.tag
            if not isinstance(tag, str):
                continue
            if event == "start":
                if tag in BLOCK_TAGS or tag == "br":
                    chunks.append(" ")
                piece = node.text
            else:
                if tag in BLOCK_TAGS or tag == "br":
                    chunks.append(" ")
                piece = node.tail if node is not element else None
            if piece:
                chunks.append(piece)
                size += len(piece)
                if size > limit:
                    break
    except (AttributeError, ValueError, TypeError):
        return ""
    text = "".join(chunks)
    if PRIVATE_USE.search(text):
        text = PRIVATE_USE.sub("", text)
    return " ".join(text.split())


def looks_like_url(value: str) -> bool:
    """Whether a name-like ``value`` is an address instead (``https://...``, ``www.``, ``/path``)."""
    return value.startswith(("http://", "https://", "//", "www.", "/")) or "://" in value





def first_meta(meta: dict[str, str], keys: tuple[str, ...]) -> str:
    """The first non-empty value (:func:`norm`) of ``meta`` under ``keys``, in their order; ``""`` if none."""
    for key in keys:
        value = norm(meta.get(key))
        if value:
            return value
    return ""
