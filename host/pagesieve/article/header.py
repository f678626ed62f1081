"""What the article's header shows in place of the body's own copy: the byline line
(:func:`byline_block`) and a first heading that repeats the title (:func:`title_heading_block`)."""

from __future__ import annotations

import re

from lxml import etree

from pagesieve.blocks.segment import HEADING_TAGS, Block
from pagesieve.tokens import tokens

BYLINE_MARK_RE = re.compile("byline|author|dateline|writtenby")
"""A lower-cased class or id that names a byline (Mozilla Readability's ``byline`` pattern);
"comment" excludes it (a comment's author)."""

BYLINE_LOOKAHEAD = 8
"""How many content blocks from the first are searched for the byline line."""

BYLINE_EXTRA_CHARS = 60
"""Characters a byline line may hold besides the name (a "By", a role, a date and time)."""


def _names_a_byline(element) -> bool:
    """True if ``element`` or an element inside it is marked as the byline: a class or id
    matching :data:`BYLINE_MARK_RE` (not a comment's), ``rel="author"`` or
    ``itemprop="author"`` (the marks the metadata's byline search ranks, ``_byline`` in
    :mod:`pagesieve.article.metadata`)."""
    for e in element.iter(etree.Element):
        names = " ".join(n for n in (e.get("class"), e.get("id")) if n).lower()
        if names and BYLINE_MARK_RE.search(names) and "comment" not in names:
            return True
        if "author" in (e.get("rel") or "").lower().split() or (e.get("itemprop") or "").lower() == "author":
            return True
    return False


def byline_block(blocks: list[Block], keep: list[bool], byline: str | None) -> int | None:
    """The content block that is the article's byline line, which the reader view and a saved
    article show in their header instead (as Firefox Reader View does: Readability removes the
    node it took the byline from).

    It is one of the first :data:`BYLINE_LOOKAHEAD` content blocks, holds the metadata's
    ``byline`` with at most :data:`BYLINE_EXTRA_CHARS` more characters ("By Marta Quispe ·
    14 March 2026", "By DAVID RUNK Associated Press Writer"), and is marked as a byline
    (:func:`_names_a_byline`). ``None`` when there is no such block or no byline of at least
    three characters.
    """
    if not byline or len(byline) < 3:
        return None
    wanted = byline.casefold()
    seen = 0
    for b in blocks:
        if not keep[b.index] or not b.chars:
            continue
        seen += 1
        if seen > BYLINE_LOOKAHEAD:
            return None
        text = " ".join(b.text.split())
        if len(text) <= len(byline) + BYLINE_EXTRA_CHARS and wanted in text.casefold() and _names_a_byline(b.element):
            return b.index
    return None


def title_heading_block(blocks: list[Block], keep: list[bool], title: str | None) -> int | None:
    """The first content block when it is a heading that repeats the article's ``title``
    (the same tokens, :func:`pagesieve.tokens.tokens`), else ``None``.

    The reader view and saved articles show the title in their header; the article's own copy
    of it, first in the body, showed it twice (readability's ``medium-1`` opens with an
    ``<h4>`` of the title). Mozilla Readability drops such a heading too
    (``_headerDuplicatesTitle``, for ``h1`` and ``h2``).
    """
    if not title:
        return None
    wanted = tokens(title)
    if not wanted:
        return None
    for b in blocks:
        if keep[b.index] and b.chars:
            return b.index if b.element.tag in HEADING_TAGS and tokens(b.text) == wanted else None
    return None
