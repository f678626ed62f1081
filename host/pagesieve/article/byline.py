"""The article's author as the page names it (:func:`find_byline`): JSON-LD ``author``, the
author metas, then a "By ..." line near the headline."""

from __future__ import annotations

import re

import lxml.etree

from pagesieve.article.jsonld import JsonLd, jsonld_rank
from pagesieve.article.meta_text import element_text, looks_like_url, norm


_BY_PREFIX = re.compile(r"^(?:(?:written |posted |words |story |text )?by|author)\s*[:\-]?\s+", re.IGNORECASE)
_MAX_BYLINE = 100
_BYLINE_WINDOW_AFTER = 250
_BYLINE_WINDOW_BEFORE = 40
_BYLINE_WINDOW_NO_H1 = 600
# Positional windows only: libxml2 evaluates attribute predicates at ~2-3 us per element, slower
# than checking the few elements of the window from Python.
# The position predicate sits on the step of a forward axis, where it counts in document order as
# it would on the whole node set in parentheses (``(following::*)[position()<=250]``, which the
# tests compare them with), and libxml2 stops the step at the window's end instead of collecting
# the rest of the document: 0.105 -> 0.085 and 0.204 -> 0.175 ms a page on 320 dataset pages.
_FOLLOWING = lxml.etree.XPath(f"following::*[position()<={_BYLINE_WINDOW_AFTER}]")
_FIRST_DESCENDANTS = lxml.etree.XPath(f"descendant::*[position()<={_BYLINE_WINDOW_NO_H1}]")


def _first_preceding(anchor, limit: int) -> list:
    """The first ``limit`` elements of the document, in document order, that precede ``anchor``
    (its ancestors are not before it): what the XPath ``(preceding::*)[position()<=limit]``
    selects (the tests compare them; the parentheses make the positions those of document order,
    the start of the document, not the elements nearest ``anchor``), read from the start of the
    document in a quarter of the time (0.065 -> 0.017 ms a page on 320 dataset pages)."""
    ancestors = set(anchor.iterancestors())
    found = []
    for element in anchor.getroottree().getroot().iter(lxml.etree.Element):
        if element is anchor or len(found) >= limit:
            break
        if element not in ancestors:
            found.append(element)
    return found
_BYLINE_SKIP_TAGS = frozenset({"script", "style", "meta", "link", "img", "body", "html", "head", "noscript", "template", "svg", "form", "input", "button", "textarea", "select"})


_BYLINE_DATE_TAIL = re.compile(
    r"[\s,|\u2022\u00b7\u2013\u2014-]*(?:(?:last\s+)?(?:updated|published|posted)\s*)?(?:on\s+|:\s*)?"
    r"(?:[A-Za-z]{3,9}\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}|\d{1,2}(?:st|nd|rd|th)? [A-Za-z]{3,9}\.? \d{4}|\d{4}-\d{2}-\d{2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4})"
    r"(?:,?\s*(?:at\s*)?\d{1,2}:\d{2}\s*(?:[ap]\.?m\.?)?(?:\s*[A-Z]{2,4})?)?\s*$",
    re.IGNORECASE,
)
_NOT_A_NAME = re.compile(
    r"^(?:last )?(?:updated|published|posted|modified|date|share|follow|comments?)\b|\bsaid:|\bwrote:",
    re.IGNORECASE,
)
_LATE_BY = re.compile(r"(?:^|[\s,|])by\s+(\S.*)$", re.IGNORECASE)
_BARE_BY_WORDS = frozenset({"by", "by:", "author", "author:", "authors", "authors:", "written by", "posted by"})


def _clean_byline(text: str) -> str:
    """A byline text without "By ", a trailing date, or ``""`` when it is not a name."""
    text = norm(text)
    if len(text) >= 2 * _MAX_BYLINE:
        return ""
    late_by = _LATE_BY.search(text)
    if late_by and any(ch.isdigit() for ch in text[: late_by.start()]):
        text = late_by.group(1)  # "Monday, November 12, 2012, by Matthew Kang"
    text = _BY_PREFIX.sub("", text)
    if _NOT_A_NAME.search(text) or text.casefold() in _BARE_BY_WORDS:
        return ""
    text = _BYLINE_DATE_TAIL.sub("", text).strip(" ,|:-\u2013\u2014\u2022\u00b7")
    if not text or len(text) >= _MAX_BYLINE or looks_like_url(text) or _NOT_A_NAME.search(text):
        return ""
    if not any(ch.isalpha() for ch in text):
        return ""
    return text


def _headline_anchor(root, headline: str):
    """The ``<h1>`` whose text is ``headline`` among the first ten, else the first with text,
    else ``None``."""
    anchor = None
    folded = headline.casefold()
    for count, h1 in enumerate(root.iter("h1")):
        if count >= 10:
            break
        text = element_text(h1)
        if not text:
            continue
        if anchor is None:
            anchor = h1
        if text.casefold() == folded:
            return h1
    return anchor


def _byline_candidates(root, headline: str) -> list:
    """Elements that may hold the byline: a window of the document around the headline.

    Bylines sit next to the headline ``<h1>``, so only the 40 elements before it and the 250
    after it are looked at (the first 600 of ``<body>`` when there is no ``<h1>``); a
    whole-document attribute scan would cost milliseconds on big pages.
    """
    anchor = _headline_anchor(root, headline)
    if anchor is None:
        body = root.find("body")
        window = _FIRST_DESCENDANTS(body if body is not None else root)
    else:
        window = _first_preceding(anchor, _BYLINE_WINDOW_BEFORE) + _FOLLOWING(anchor)
    found = []
    for element in window:
        tag = element.tag
        if not isinstance(tag, str) or tag in _BYLINE_SKIP_TAGS:
            continue
        marks = element.get("class")
        if (marks and ("uthor" in marks or "yline" in marks or "YLINE" in marks or "UTHOR" in marks)) or element.get("rel") or element.get("itemprop"):
            found.append(element)
            continue
        marks = element.get("id")
        if marks and ("uthor" in marks or "yline" in marks or "YLINE" in marks or "UTHOR" in marks):
            found.append(element)
    return found


def find_byline(root, meta: dict[str, str], ld: JsonLd, headline: str = "") -> str | None:
    """JSON-LD author > meta author/article:author > rel=author > itemprop=author > class/id."""
    for obj in ld.objects:
        if jsonld_rank(obj) > 1:
            break
        names = ld.names(obj.get("author") or obj.get("creator"))
        if names:
            text = _clean_byline(", ".join(names))
            if text:
                return text
    for key in ("author", "article:author", "dc.creator", "dcterms.creator", "dc:creator", "parsely-author", "sailthru.author", "byl"):
        value = meta.get(key)
        if value and not looks_like_url(value.strip()):
            text = _clean_byline(value)
            if text:
                return text
    by_rank: dict[int, str] = {}
    for element in _byline_candidates(root, headline):
        if "author" in (element.get("rel") or "").lower().split():
            rank = 0
        elif (element.get("itemprop") or "").lower() == "author":
            rank = 1
        else:
            marks = f"{element.get('class') or ''} {element.get('id') or ''}".lower()
            if ("byline" not in marks and "author" not in marks) or "comment" in marks:
                continue  # "authority", "Skyline", "comment-author" ...
            rank = 2
        if rank in by_rank:
            continue
        if rank == 1:
            named = element.find(".//*[@itemprop='name']")
            if named is not None:
                element = named
        text = _clean_byline(element_text(element, limit=4 * _MAX_BYLINE))
        if text:
            by_rank[rank] = text
            if rank == 0:
                break
    for rank in (0, 1, 2):
        if rank in by_rank:
            return by_rank[rank]
    return by_line_name(root, headline)


BY_LINE_WINDOW = 30
"""Elements after the headline ``<h1>`` where :func:`by_line_name` looks for a "By" line: the
lines under a headline, before the story's paragraphs."""

BY_LINE_TAGS = frozenset({"p", "div", "span", "td", "font", "address", "b", "strong", "em", "small", "li", "h2", "h3", "h4", "h5", "h6"})
"""Elements a "By" line is written in."""

_BY_LINE = re.compile(r"^(?i:by|written by)[:\s]\s*(?P<name>[^,|\u00b7\u2022\u2013\u2014(\d]{3,60}?)\s*(?:$|[,|\u00b7\u2022\u2013\u2014(\d]|\s-\s)")
"""A line that opens with "By" and a name, up to a comma, a bar, a dash, a bracket or a digit
(the role and the date that follow: "By MIKE GRACZYK, Associated Press Writer 1 hour, 41
minutes ago")."""

_NAME_JOINERS = frozenset({"and", "&", "de", "van", "von", "der", "da", "di", "la", "le", "du", "bin", "al"})
"""Lower-case words a name list may hold ("Ann Lee and Tom Ruiz", "Ludwig van Beethoven")."""


_NOT_NAME_WORDS = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday "
    "saturday sunday mon tue tues wed thu thur thurs fri sat sun published posted updated "
    "last on at".split())
"""Words that end a name in a "By" line written without punctuation after it ("By Bruce
Sterling January 18, 2008", "Written by Chris Beaumont Published January 07, 2008")."""


def by_line_name(root, headline: str) -> str | None:
    """The name of a "By" line under the headline, for pages that mark their byline with no
    class, id, ``rel`` or ``itemprop`` (big9's Yahoo! News AP stories of 2005: ``<div
    class="storyhdr"><p><span>By MIKE GRACZYK, Associated Press Writer</span> <em>1 hour, 41
    minutes ago</em></p></div>``), or ``None``.

    Among the first :data:`BY_LINE_WINDOW` elements after the headline ``<h1>`` (none without
    one: a "By" line elsewhere is more often a teaser's), the first in :data:`BY_LINE_TAGS`
    whose text, at most twice :data:`_MAX_BYLINE` characters, opens with "By" and a name
    (:data:`_BY_LINE`, cut before a date's or a publication's word, :data:`_NOT_NAME_WORDS`)
    of one to six words, each capitalised but for the joiners of :data:`_NAME_JOINERS`: "By
    the time we arrived" and "By using this site" are no byline.
    The header then takes the line out of the body (:func:`pagesieve.article.header.byline_block`
    reads a line that opens with "By" and holds the name as the byline's).
    """
    anchor = _headline_anchor(root, headline)
    if anchor is None:
        return None
    for count, element in enumerate(_FOLLOWING(anchor)):
        if count >= BY_LINE_WINDOW:
            break
        if element.tag not in BY_LINE_TAGS:
            continue
        text = element_text(element, limit=2 * _MAX_BYLINE)
        if not text or len(text) >= 2 * _MAX_BYLINE:
            continue
        found = _BY_LINE.match(text)
        if found is None:
            continue
        words = []
        for word in found.group("name").split():
            if word.strip(".,:;").casefold() in _NOT_NAME_WORDS:
                break  # the date or the time of publication follows the name
            words.append(word)
        name = " ".join(words).strip(" .:-")
        if 1 <= len(words) <= 6 and words[0][:1].isupper() and all(
                w[:1].isupper() or w.casefold() in _NAME_JOINERS for w in words):
            return name
    return None
