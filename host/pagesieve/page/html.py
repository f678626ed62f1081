"""HTML source to :class:`~pagesieve.page.model.Page`, parsed by lxml (libxml2's HTML parser).

The tree is made of plain ``lxml.etree`` elements (see :mod:`pagesieve.page.model`)."""

from __future__ import annotations

import re

from lxml import etree

from pagesieve.errors import InputError
from pagesieve.page.decode import decode_html
from pagesieve.page.formulas import utf8_may_hold_formulas
from pagesieve.page.model import NODE_ID_ATTR, Page
from pagesieve.page.streaming import drop_fallbacks, may_stream, place_segments

MAX_PAGE_BYTES = 32 * 1024 * 1024
"""Pages larger than this (32 MiB) are refused with :class:`InputError`.

The largest page in ``../shared/datasets`` is under 4 MB; the browser refuses native messages
over 64 MiB. A 50 MB "page" is either not a page or would take seconds to parse and classify.
"""

LIBXML_MAX_DEPTH = 256
"""libxml2's HTML parser stops nesting at this depth; deeper content is cut (not an error)."""

_TOO_DEEP = etree.XPath("boolean(" + "/".join(["*"] * (LIBXML_MAX_DEPTH - 8)) + ")")
"""True for a tree nested close to the parser's limit: level by level, so cheap on real pages."""

_CONTROL_BYTES = bytes([*range(0, 9), 11, 12, *range(14, 32), 127])
"""C0 controls but tab, LF, CR (and DEL): not allowed in HTML text (HTML Living Standard §13.2.2
"control characters are parse errors"), and refused by lxml's tree API when text is moved."""

_END_OF_DOCUMENT = re.compile(rb"</(?:body|html)[ \t\n\f\r]*>", re.IGNORECASE)
"""``</body>`` and ``</html>`` end tags. An HTML5 parser does not end the document at them: in the
"after body" and "after after body" insertion modes (HTML Living Standard §13.2.6.4.20-22)
anything but white space and comments is put back into the body. libxml2 instead drops what
follows the first ``</html>``, and pages that embed other documents (ad frames written inline,
archived pages with the archive's own markup) lose their article: big9 ``2005_amd_2`` kept 12 of
its 64 thousand characters, and 45 of the 3,587 dataset pages lost text. The tags are removed
before parsing; the parser closes both elements at the end of the input."""

_SELF_CLOSED_ROOT = re.compile(rb"<(html|head|body)([ \t\n\f\r/][^<>]*?)?/[ \t\n\f\r]*>", re.IGNORECASE)
"""``<html/>``, ``<head/>`` and ``<body/>`` written as self-closing tags. HTML5 ignores the slash on
an element that is not void (HTML Living Standard §13.2.6.1, "acknowledge the self-closing
flag"): the element stays open. libxml2 closes it, and a closed ``<html>`` ends the document,
so everything after it is dropped (l3s_gn1 ``ce6830ee``, a page whose ``<html`` tag was broken
into an ``<img>``'s attributes, parsed to an empty tree). The slash is removed before parsing."""

_ROOT_TAG_FIXES = re.compile(_SELF_CLOSED_ROOT.pattern + b"|" + _END_OF_DOCUMENT.pattern, re.IGNORECASE)
""":data:`_SELF_CLOSED_ROOT` or :data:`_END_OF_DOCUMENT`, to repair both in one scan of the page
(:func:`_fix_root_tag`). Their matches never overlap nor make one another: each begins with the
only ``<`` it holds, ``<h``/``<b`` for the one, ``</`` for the other, and the repaired tag begins
``<h``/``<b`` again; so one scan with both gives the bytes of the two scans in turn (the tests
compare them): 0.35 -> 0.24 ms a page on 320 dataset pages (interleaved in one process, 2026-11-26)."""


def _fix_root_tag(match: re.Match) -> bytes:
    """The repair of one match of :data:`_ROOT_TAG_FIXES`: the tag without its self-closing slash,
    or nothing for an end tag of the body or the document."""
    if match.group(1) is None:
        return b""
    return b"<" + match.group(1) + (match.group(2) or b"") + b">"


_TITLE_START = re.compile(rb"<title(?=[\t\n\f\r />])[^>]*>", re.IGNORECASE)
_TITLE_END = re.compile(rb"</title[\t\n\f\r />]", re.IGNORECASE)
_TAG_START = re.compile(rb"<[A-Za-z!/?]")

_RUNAWAY_TITLE_WARNING = "the <title> is never closed; it was ended at the first tag after it"


def close_runaway_title(data: bytes) -> bytes | None:
    """End a ``<title>`` that is never closed, so that it does not hold the whole page.

    The title's content is raw text up to an end tag ``</title>`` (HTML Living Standard
    §13.2.5.2, RCDATA state), so a title without one swallows the rest of the document, and the
    body is empty: a browser shows a blank page, libxml2 (2.14) parses an empty body. Pages cut
    and spliced by a crawler have such titles (``<title>Bush to Saudis ... CBN News</titlevalue=...``,
    ``<title>Television - Intww.digitalspy.co.uk/...``): 8 pages of l3s_gn1, whose truth holds
    their articles (F1 0 here, and 0 for trafilatura). An end tag is inserted before the first
    tag after the title's start tag (``<`` and a letter, ``!``, ``/`` or ``?``).

    Class of pages: crawled pages cut inside their ``<title>`` (no page of wcxb_dev has one).
    Cross-validated gain, measured by turning it off: +0.0012 (0.8488 against 0.8476, ``pagesieve-dev
    eval --cv 5 wcxb_dev --cv-variants all+balanced@0.4 --split-file models/split.json``,
    2026-11-26), all of it through the training pages: without it, the 5 of those 8 pages that
    are in the training split of ``models/split.json`` train as empty bodies whose truth is an
    article.

    Args:
        data: the page as UTF-8 bytes.

    Returns:
        the repaired bytes, or ``None`` when the page's first ``<title>`` is closed (or has no
        tag after it): nothing to repair.
    """
    start = _TITLE_START.search(data)
    if start is None or _TITLE_END.search(data, start.end()) is not None:
        return None
    tag = _TAG_START.search(data, start.end())
    if tag is None:
        return None
    return data[:tag.start()] + b"</title>" + data[tag.start():]


_PARSER = etree.HTMLParser(
    encoding="utf-8", remove_comments=True, remove_pis=True, no_network=True, default_doctype=False,
    collect_ids=False,  # libxml2 need not index id attributes: nothing here looks elements up by id
)


def parse_html(source: bytes | str, url: str | None = None) -> Page:
    """Parse an HTML page into a :class:`Page` whose node ids follow document order.

    Args:
        source: the page as bytes (charset detected by
            :func:`~pagesieve.page.decode.decode_html`) or as an already decoded string.
        url: the page URL, if known.

    Returns:
        A :class:`Page` with ``source="html"`` and no boxes. Comments and processing
        instructions are dropped by the parser.

    Raises:
        InputError: empty, binary or over :data:`MAX_PAGE_BYTES`, or nothing parseable.
    """
    size = len(source)
    if size > MAX_PAGE_BYTES:
        raise InputError(f"the page is {size / 1e6:.1f} MB; pages over {MAX_PAGE_BYTES // (1024 * 1024)} MiB are refused")
    if isinstance(source, bytes):
        text, _codec = decode_html(source)
    else:
        text = source
        if not text.strip():
            raise InputError("the page is empty")
        if "\x00" in text[:8192]:
            raise InputError("the input looks binary (NUL characters), not like an HTML page")
    # The text is decoded already: hand libxml2 UTF-8 bytes with the encoding fixed, so that
    # no <?xml encoding?> or <meta charset> inside the page can make it decode them again.
    # Deleting these bytes from UTF-8 is safe: bytes below 0x80 only ever encode ASCII.
    encoded = text.encode("utf-8", errors="replace")
    formulas = utf8_may_hold_formulas(text, encoded)  # may_hold_formulas(text), read in the bytes
    data = encoded.translate(None, _CONTROL_BYTES)
    del encoded
    data = _ROOT_TAG_FIXES.sub(_fix_root_tag, data)  # _SELF_CLOSED_ROOT's repair, then _END_OF_DOCUMENT's
    repaired = close_runaway_title(data)
    if repaired is not None:
        data = repaired
    streamed = may_stream(data)  # React's streamed parts: pagesieve.page.streaming
    if streamed:
        data = drop_fallbacks(data)
    try:
        root = etree.fromstring(data, _PARSER)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError) as exc:
        raise InputError(f"the page could not be parsed as HTML: {exc}") from exc
    if root is None:
        raise InputError("the page could not be parsed as HTML")
    _repair_head(root)
    _unnest_void(root)
    parse_fallback_markup(root)
    if streamed:
        place_segments(root)
    page = Page(root=root, url=url, source="html", formulas=formulas)
    if repaired is not None:
        page.warnings.append(_RUNAWAY_TITLE_WARNING)
    if _TOO_DEEP(root):
        page.warnings.append(f"nesting deeper than {LIBXML_MAX_DEPTH} levels was cut by the HTML parser; deeper text is lost")
    etree.strip_attributes(root, NODE_ID_ATTR)  # the page's own copies name no node of ours (Page.node_id); 5 µs a page
    page.proxies = list(root.iter())  # one proxy per node for the page's life; its node ids (Page.positions)
    title = root.find(".//title")
    if title is not None and title.text:
        page.title = " ".join(title.text.split())
    return page


VOID_TAGS_UNKNOWN_TO_LIBXML = ("source", "track", "wbr", "embed", "keygen")
"""Void elements (HTML Living Standard §13.1.2) that libxml2's HTML 4 parser does not know as
such: it leaves them open, so what follows them up to their parent's end tag becomes their
content (see :func:`_unnest_void`)."""


def _unnest_void(root: etree._Element) -> None:
    """Give the content that libxml2 nested inside a void element back to its parent.

    A browser closes ``<source>``, ``<track>``, ``<wbr>``, ``<embed>`` and ``<keygen>`` at once
    (they have no content, HTML Living Standard §13.1.2); libxml2 nests the rest of the parent
    in them. Two harms on real pages: ``<embed>`` is removed with its content by
    pre-processing, which then deleted the text after a video in the same paragraph; and the
    fallback text of ``<video><source>...</video>`` landed in the last ``<source>``, where the
    rule for media fallback could not find it (wcxb_dev/4291). Each such element's text and
    children move to just after it, in order, deepest first (so nested chains unfold). Class of
    pages: those with one of these elements (319 of wcxb_dev's 1,497). Its cross-validated gain,
    measured with :func:`pagesieve.page.preprocess.media_fallback` (both off): +0.0001, given
    there.
    """
    for element in reversed(list(root.iter(*VOID_TAGS_UNKNOWN_TO_LIBXML))):
        if element.text is None and len(element) == 0:
            continue
        parent = element.getparent()
        if parent is None:
            continue
        children = list(element)
        tail = element.tail
        element.tail = element.text
        element.text = None
        at = parent.index(element) + 1
        for offset, child in enumerate(children):
            parent.insert(at + offset, child)  # moving a child keeps its tail with it
        last = children[-1] if children else element
        if tail:
            last.tail = (last.tail or "") + tail


FALLBACK_TAGS = ("noscript", "noembed", "noframes")
"""Elements whose content a browser shows only when it lacks a feature: scripts, plugins
(``<embed>``), frames (HTML Living Standard §4.12.2, §16.2 "Non-conforming features"). A browser
that has the feature does not show them (§15.3.1, ``noembed, noframes { display: none }``;
``noscript`` with scripting on). Pre-processing keeps one when it holds real text, as a crawler
view of the page (:data:`pagesieve.page.preprocess.NOSCRIPT_MIN_CHARS`), else removes it."""

RAW_TEXT_FALLBACK = frozenset({"noembed", "noframes"})
"""The fallback elements that an HTML5 parser reads as raw text (HTML Living Standard §13.2.6.4.7,
"A start tag whose tag name is one of: noembed, noframes": the generic raw text element parsing
algorithm), as libxml2 (2.14, the HTML5 tokeniser) does: their markup is their text, tags and
character references undecoded."""

_MARKUP = re.compile(r"<[A-Za-z/!?]")
"""The start of a tag, an end tag, a comment or a doctype in text: text that is markup."""


def parse_fallback_markup(root: etree._Element) -> int:
    """Parse, in place, the markup that a fallback element (:data:`FALLBACK_TAGS`) under ``root``
    holds as text into its elements; returns how many were parsed.

    Two ways a fallback's markup reaches the tree as text: ``<noembed>`` and ``<noframes>`` are
    raw text to the parser (:data:`RAW_TEXT_FALLBACK`), and a ``<noscript>`` of a page saved
    from a browser's DOM holds its markup escaped (with scripting on, the DOM holds a
    noscript's content as one text node, and serialising it escapes it: ``&lt;object
    classid=...``). Read as text, it came out as a line of raw markup in the article (issue 62,
    "Markup as text": the ``<noembed>`` fallback of a 2005 LA Times ad, an ``<a href=...>``
    line; dragnet R212, a ``<noframes>`` around a YouTube preview picture; dragnet T23, a
    ``<noscript>`` holding an escaped Flash ``<object>``; readability yahoo-4, an escaped
    "JavaScript is off" notice), and its markup counted as text toward
    :data:`~pagesieve.page.preprocess.NOSCRIPT_MIN_CHARS`. Parsed, pre-processing judges the
    fallback by the text it shows and removes its scripts, frames and controls as anywhere.

    A fallback is parsed when it holds no element and its text is raw text holding a tag or a
    character reference (``<`` or ``&``), or a noscript's text holding a tag (:data:`_MARKUP`;
    its references were decoded once already, and are not decoded twice). The markup is parsed
    as a page's body is (:func:`parse_fragment`). Text-only ``<xmp>``, ``<plaintext>`` and
    ``<textarea>`` are left as they are: a browser shows their text as written, markup and all.
    Called once, by :func:`parse_html`: a raw-text fallback parsed into text alone holds its
    references decoded, and a second call would decode them again. Of the 4,783 dataset pages,
    it changed the text of 6 (dragnet R212, T23, T51; readability yahoo-3, yahoo-4,
    lifehacker-working), each of which held escaped or raw fallback markup; token F1 against their
    truth rose on 5 (R212 0.927 -> 0.971, T23 0.873 -> 0.966, yahoo-4 0.918 -> 0.983) and fell on
    lifehacker-working (1.000 -> 0.996: a line of photo credits left the kept blocks). 0.06 ms a
    page (300 dataset pages).
    """
    count = 0
    for element in list(root.iter(*FALLBACK_TAGS)):
        text = element.text
        if not text or len(element):
            continue
        if element.tag in RAW_TEXT_FALLBACK:
            if "<" not in text and "&" not in text:
                continue
        elif not _MARKUP.search(text):
            continue
        lead, children = parse_fragment(text)
        element.text = lead
        element.extend(children)
        count += 1
    return count


def parse_fragment(markup: str) -> tuple[str | None, list[etree._Element]]:
    """``(text, elements)``: the leading text and the top elements of ``markup`` parsed as the
    content of a page's ``<body>`` by :func:`parse_html`'s parser, with its repairs of the root
    tags and of void elements (``</body>``, ``</html>`` and self-closed ``<html/>`` tags inside
    do not end it). ``(None, [])`` for markup with nothing to parse. The elements are detached
    from the parse's tree, with their tails."""
    data = ("<html><body>" + markup).encode("utf-8", errors="replace").translate(None, _CONTROL_BYTES)
    data = _ROOT_TAG_FIXES.sub(_fix_root_tag, data)
    try:
        root = etree.fromstring(data, _PARSER)
    except (etree.ParserError, etree.XMLSyntaxError, ValueError):
        return None, []
    body = root.find("body") if root is not None else None
    if body is None:
        return None, []
    _unnest_void(root)
    return body.text, list(body)


HEAD_TAGS = frozenset({"title", "meta", "link", "script", "style", "base", "noscript", "template", "object"})
"""Elements that may stand in ``<head>`` (HTML Living Standard §13.2.6.4.4, "in head")."""


def _repair_head(root: etree._Element) -> None:
    """Move body content that libxml2 left inside ``<head>`` into ``<body>``.

    HTML5 parsers close the head at the first element that cannot stand there and move on to the
    body ("anything else" in the "in head" insertion mode). libxml2 keeps unknown elements
    (``<sohu_cms_include:...>``, seen in zh_cwced) in the head and nests the whole page in them.
    """
    head = root.find("head")
    if head is None:
        return
    stray = None
    for child in head:
        if isinstance(child.tag, str) and child.tag not in HEAD_TAGS:
            stray = child
            break
    if stray is None:
        return
    body = root.find("body")
    if body is None:
        body = etree.SubElement(root, "body")
    moved = [stray, *stray.itersiblings()]
    for offset, element in enumerate(moved):
        body.insert(offset, element)

