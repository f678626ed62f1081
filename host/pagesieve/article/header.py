"""What the article's header shows in place of the body's own copy: the byline line
(:func:`byline_block`), a first heading that repeats the title (:func:`title_heading_block`) and
the dateline of the publication date (:func:`dateline_block`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from itertools import islice

from lxml import etree

from pagesieve.article.metadata import normalize_date
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


def _first_content_blocks(blocks: list[Block], keep: list[bool]) -> Iterator[Block]:
    """The first :data:`BYLINE_LOOKAHEAD` kept blocks with text of their own, document order:
    where the byline and the dateline are looked for."""
    return islice((b for b in blocks if keep[b.index] and b.chars), BYLINE_LOOKAHEAD)


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
    for b in _first_content_blocks(blocks, keep):
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


DATELINE_MAX_CHARS = 60
"""Characters a dateline may hold: a weekday, the date, a time of day and a zone, a "Last
updated:" ("Last Updated: 3:56 PM, April 19, 2013" is 37)."""

DATELINE_DAYS = 1
"""How many days the dateline's date may lie from the metadata's: a time stamp in UTC and the
page's local dateline fall on neighbouring days ("2013-11-05T01:57:25+00:00" and "November 4,
2013 | 8:57pm" on big9's New York Post pages), as the reader's header, in the reader's own time
zone, may show either."""

_DATELINE_WORDS = frozenset(
    """january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday
    saturday sunday mon tue tues wed thu thur thurs fri sat sun am pm a m p updated published
    posted last modified on at st nd rd th et est edt ct cst cdt mt mst mdt pt pst pdt gmt utc
    bst cet cest ist""".split()
)
"""The words a dateline holds besides numbers: English month and weekday names (what
:func:`~pagesieve.article.metadata.normalize_date` reads in text), "updated" / "published" /
"posted", a.m. and p.m., the common time zones. A date written with 年 月 日 is not one
:func:`~pagesieve.article.metadata.normalize_date` reads, so no such line is a dateline here."""

_WORD_RE = re.compile(r"[^\W\d_]+")


def _day(iso: str) -> date | None:
    """The calendar day of an ISO 8601 date or date-time (its first ten characters), or ``None``."""
    try:
        return date.fromisoformat(iso[:10])
    except ValueError:
        return None


def dateline_block(blocks: list[Block], keep: list[bool], published: str | None) -> int | None:
    """The content block that is the article's dateline, which the reader view and a saved
    article show in their header (the metadata's ``published``) instead.

    It is one of the first :data:`BYLINE_LOOKAHEAD` content blocks, holds at most
    :data:`DATELINE_MAX_CHARS` characters, its text gives a date
    (:func:`~pagesieve.article.metadata.normalize_date`) within :data:`DATELINE_DAYS` of
    ``published``, and it says nothing but the date: every word is a month, a weekday, a time
    of day or zone, or "updated" / "published" / "posted" (:data:`_DATELINE_WORDS`), so a line
    that names a person or a place stays ("By Ann Lee, May 21, 2007" is the byline's,
    :func:`byline_block`). On the 4,783 dataset pages of ``../shared/datasets`` (2026-11-27) such
    a block is kept on 175 pages (big9's "Monday, May 21, 2007", the New York Post's "October 31, 2013 | 7:17pm",
    daniel's "2011-12-09 18:51"). ``None`` without ``published`` or such a block.
    """
    day = _day(published) if published else None
    if day is None:
        return None
    for b in _first_content_blocks(blocks, keep):
        if b.chars > DATELINE_MAX_CHARS:
            continue
        text = b.text
        found = normalize_date(text)
        said = _day(found) if found else None
        if said is None or abs((said - day).days) > DATELINE_DAYS:
            continue
        if all(word in _DATELINE_WORDS for word in _WORD_RE.findall(text.lower())):
            return b.index
    return None
