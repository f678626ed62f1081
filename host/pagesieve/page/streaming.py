"""React's streamed server rendering, put in place as its inline scripts would put it (HTML route).

A React 18+ server (Next.js's app router among others) streams a page in parts. What is not
ready when the shell is sent is a Suspense boundary: a placeholder ``<template id="B:n">``,
after a ``<!--$?-->`` comment, followed by the boundary's fallback (a spinner, "Loading
paragraph...", or a plain version of the part) up to a ``<!--/$-->`` comment. The part follows
later, at the end of the body, as a hidden segment ``<div hidden id="S:n">``, with an inline
script ``$RC("B:n","S:n")`` that moves the segment's children where the fallback was and drops
the fallback. A segment of another segment goes to a placeholder ``<template id="P:n">``
(``$RS("S:n","P:n")``), which it replaces. React numbers boundaries, placeholders and segments
with one counter per response, so the segment ``S:n`` belongs to ``B:n`` or ``P:n``, whichever
the page holds. Source: React's Fizz server, ``ReactDOMFizzInstructionSetShared.js``
(``completeBoundary``, ``completeSegment``), as React 18 and 19 write them.

In a browser the scripts run, and the extension reads the page as shown: there is nothing to do.
Read as HTML (``pagesieve extract``, crawls), the segments are hidden elements at the end of the
body, and pre-processing removes hidden elements, so a product's whole specification sheet
was lost (wcxb_dev/4168, lttlabs.com: 9 words of 312) and boundaries' fallbacks were read in
its place. 33 of wcxb_dev's 1,497 pages stream this way; the pages as stored by some crawls
keep neither the scripts nor the comments, so the placement follows the ids alone.

Measured 2026-12-06. Over every page of wcxb_dev, 18 pages changed (no page of the other seven
datasets): lesswrong.com 0.00 -> 1.00, render.com 0.04 -> 0.95, recharged.com 0.00 -> 0.98,
wayfair.com's collection 0.03 -> 0.79, fool.com 0.50 -> 0.96; producthunt.com 0.73 -> 0.08 (its
truth leaves out the streamed lists) and zalando.co.uk 0.60 -> 0.25 (the streamed
recommendations move the context stage's scores) fell. The dev gate (``eval --cv 5 wcxb_dev``,
the shipped configuration, retrained per fold): 0.8528 -> 0.8589; the held-out gate, where 5 of
the 18 pages lie: wcxb_dev 0.8612 -> 0.8602 (SE 0.012), the others unchanged.
"""

from __future__ import annotations

import re

from lxml import etree

_PENDING_BOUNDARY = re.compile(rb'<!--\$\?-->[ \t\n\r]*<template id="B:([0-9a-z]+)"[ \t\n\r]*></template>')
"""A boundary still pending when the shell was sent: its comment and placeholder."""

_BOUNDARY_MARK = re.compile(rb"<!--(\$\?|\$!|\$|/\$)-->")
"""The comments that open (``$``, ``$?``, ``$!``) and close (``/$``) Suspense boundaries."""

_SEGMENT_OPEN = rb'<div hidden(?:="")? id="S:%s"'
"""The start tag of the hidden segment ``S:n`` (``%s``: the number), as React writes it."""

_SEGMENTS = etree.XPath('//div[@hidden][starts-with(@id, "S:")]')
"""The hidden segments of a page (the ids checked by :data:`_SEGMENT_ID`)."""

_SEGMENT_ID = re.compile(r"S:([0-9a-z]+)\Z")


def may_stream(data: bytes) -> bool:
    """Whether the page's bytes hold a hidden segment: the only pages :func:`drop_fallbacks` and
    :func:`place_segments` change (one scan for ``id="S:``)."""
    return b'id="S:' in data


def drop_fallbacks(data: bytes) -> bytes:
    """The page's bytes without the fallback of each pending boundary whose segment the page
    holds: what lies between its placeholder ``<template id="B:n"></template>`` and the
    boundary's closing ``<!--/$-->`` (nested boundaries counted), as ``completeBoundary``
    removes it. Done on the bytes because the parser drops comments
    (:func:`pagesieve.page.html.parse_html`). A boundary whose segment never came (a stream
    cut short) keeps its fallback: it is what a browser shows then. Bytes without a pending
    boundary come back as they are."""
    if b"<!--$?-->" not in data:
        return data
    parts = []
    start = 0
    for match in _PENDING_BOUNDARY.finditer(data):
        if match.start() < start:
            continue  # inside a fallback already dropped
        if re.search(_SEGMENT_OPEN % re.escape(match.group(1)), data) is None:
            continue
        depth, end = 0, None
        for mark in _BOUNDARY_MARK.finditer(data, match.end()):
            if mark.group(1) != b"/$":
                depth += 1
            elif depth:
                depth -= 1
            else:
                end = mark.start()
                break
        if end is None:
            continue
        parts.append(data[start:match.end()])
        start = end
    if not parts:
        return data
    parts.append(data[start:])
    return b"".join(parts)


def place_segments(root: etree._Element) -> int:
    """Move, in place, the children of each hidden segment ``<div hidden id="S:n">`` under
    ``root`` to its placeholder, ``<template id="P:n">`` or ``<template id="B:n">``, which
    goes, and the segment with it; returns how many segments were placed. A segment with no
    placeholder, or whose placeholder lies inside it, stays as it is (hidden). Text keeps its
    order: the segment's leading text goes before its first child, the placeholder's tail
    after its last."""
    segments = _SEGMENTS(root)
    if not segments:
        return 0
    placeholders = {element.get("id"): element for element in root.iter("template") if element.get("id")}
    placed = 0
    for segment in segments:
        found = _SEGMENT_ID.match(segment.get("id") or "")
        if found is None:
            continue
        target = placeholders.get("P:" + found.group(1))
        if target is None:
            target = placeholders.get("B:" + found.group(1))
        if target is None or target.getparent() is None or _inside(target, segment):
            continue
        _replace(target, segment)
        placed += 1
    return placed


def _inside(element: etree._Element, ancestor: etree._Element) -> bool:
    return any(parent is ancestor for parent in element.iterancestors())


def _replace(target: etree._Element, segment: etree._Element) -> None:
    """Put the content of ``segment`` where ``target`` is, and remove both (their tails stay)."""
    parent = target.getparent()
    at = parent.index(target)
    _append_text(parent, at, segment.text)
    children = list(segment)
    for offset, child in enumerate(children):
        parent.insert(at + offset, child)  # moving a child keeps its tail with it
    _remove(segment)
    _remove(target)


def _append_text(parent: etree._Element, at: int, text: str | None) -> None:
    """Add ``text`` where the child ``at`` of ``parent`` begins (after the previous child's tail,
    or the parent's own text)."""
    if not text:
        return
    if at == 0:
        parent.text = (parent.text or "") + text
    else:
        before = parent[at - 1]
        before.tail = (before.tail or "") + text


def _remove(element: etree._Element) -> None:
    """Remove ``element`` from its parent, keeping its tail text in place."""
    parent = element.getparent()
    if parent is None:
        return
    _append_text(parent, parent.index(element), element.tail)
    parent.remove(element)
