"""Snapshot format version 2: the page's elements and text as XML markup, read by libxml2.

Version 1 (``docs/snapshot.md``) sends one JSON object per DOM node and the host builds the
tree node by node in Python: some 4 microseconds a node, 36 ms for a 5,000-element page, on
the critical path of every click. Version 2 sends the same tree as one well-formed XML string
(``markup``: the selected attributes, ``data-ps-id`` last, text escaped) beside flat arrays of
what markup cannot say compactly (``boxes``, ``fonts``); lxml's XML parser reads the markup in
C, as it arrives (:class:`MarkupBuilder` is fed each part of a streamed snapshot).

The markup is untrusted input like any other: it may not hold a doctype, comment, CDATA section
or processing instruction (so no entity can be declared), namespaces are refused, every element
must carry a valid, unique ``data-ps-id``, and libxml2's own limits hold (nesting deeper than
256 elements is an error; the sender flattens deeper content itself).
"""

from __future__ import annotations

import re
from itertools import islice
from typing import Any

import lxml.etree

from pagesieve.page.elements import BOX_SETTERS, ELEMENT_LOOKUP, FAST_BOX, TINY_BOX_PX, visually_hidden
from pagesieve.page.limits import MAX_COORD, MAX_ID, SnapshotError, show, type_name
from pagesieve.page.model import NODE_ID_ATTR, Box, NodeStyle

UNRENDERED_ATTR = "data-ps-unrendered"
"""Marks an element that is not rendered (``v: false`` of version 1); removed by the host."""

MAX_MARKUP_CHARS = 64 * 1024 * 1024
"""A streamed snapshot's markup is refused beyond this many characters (the browser's own limit
for one message to a native host, 64 MiB, applied to the sum of the parts)."""

_ID_LIST = re.compile(r"(?:0|[1-9][0-9]{0,15})(?: (?:0|[1-9][0-9]{0,15}))*")
"""What the element ids, joined by spaces, must match: integers without sign or leading zero."""

_NAMESPACED = lxml.etree.XPath("boolean(//*[namespace-uri() != ''] | //@*[namespace-uri() != ''])")


class MarkupBuilder:
    """The tree of a version-2 snapshot, read as its parts arrive.

    :meth:`feed` each part's ``markup``, ``boxes`` and ``fonts`` (a whole snapshot is one part),
    then :meth:`close`. Both raise :class:`~pagesieve.page.limits.SnapshotError` for anything
    that breaks ``docs/snapshot.md``; after an error the builder is spent.
    """

    def __init__(self) -> None:
        # A pull parser: each element's start is reported as soon as its tag is read, so its
        # id and "not rendered" mark are taken while the parts arrive (the browser still walks
        # the page), not by searching the whole tree when the last part has come: 4-6 ms of
        # XPath at close on dragnet/T51 (4,651 elements), on the path of the click.
        self._parser = lxml.etree.XMLPullParser(
            events=("start",), resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False, collect_ids=False,
        )
        self._parser.set_element_class_lookup(ELEMENT_LOOKUP)
        self._ids: list[Any] = []  # data-ps-id of every element so far, document order (None: missing)
        self._hidden: list[Any] = []  # the elements marked not rendered, their mark removed
        # Elements whose box is at most 1 x 1 px (visually_hidden), found in the part that holds
        # both the box and the start tag, as the sender writes them; a box that comes in another
        # part waits in _tiny_ids. Only the last part's elements are held (_started): a reference
        # to every element would keep thousands of lxml proxies alive (2 ms more at close).
        self._started: list[Any] = []
        self._tiny: list[Any] = []
        self._tiny_ids: list[str] = []
        self._boxes: dict[int, Box] = {}
        self._styles: dict[int, NodeStyle] = {}
        self._last = ""  # the last characters fed (a "<" may end one part and "!" start the next)
        self._namespaces = False  # whether "xmlns" or "xml:" was seen (then namespaces are looked for)
        self.chars = 0
        """Characters of markup received so far."""

    def feed(self, markup: Any, boxes: Any, fonts: Any) -> None:
        """Add the next part: ``markup`` (str), ``boxes`` and ``fonts`` (flat arrays, or
        ``None`` for none; see ``docs/snapshot.md``)."""
        if type(markup) is not str:
            raise SnapshotError(f"expected a string, got {type_name(markup)}", field="markup")
        for name, values in (("boxes", boxes), ("fonts", fonts)):
            if values is not None and type(values) is not list:
                raise SnapshotError(f"expected an array of numbers, got {type_name(values)}", field=name)
        self.chars += len(markup)
        if self.chars > MAX_MARKUP_CHARS:
            raise SnapshotError(f"{self.chars:,} characters; markup over {MAX_MARKUP_CHARS:,} is refused", field="markup")
        joined = self._last + markup[:4]
        if "<!" in markup or "<?" in markup or "<!" in joined or "<?" in joined:
            raise SnapshotError("holds a doctype, comment, CDATA section or processing instruction; only elements and text may be sent", field="markup")
        # Only a declaration (xmlns) or the predeclared xml: prefix can put an element or attribute
        # in a namespace: the tree is searched for namespaces (6 ms on a 5,000-element page) only
        # when one of them occurs.
        if "xmlns" in markup or "xml:" in markup or "xmlns" in joined or "xml:" in joined:
            self._namespaces = True
        if markup:
            self._last = markup[-4:]
            try:
                self._parser.feed(markup)
            except lxml.etree.XMLSyntaxError as exc:
                raise SnapshotError(f"not well-formed XML: {exc}", field="markup") from None
            except (UnicodeError, ValueError) as exc:  # e.g. a lone surrogate in the string
                raise SnapshotError(f"cannot be read: {type(exc).__name__}: {exc}", field="markup") from None
            self._take_starts()
        if boxes:
            read = _read_boxes(boxes)
            self._boxes.update(read)
            self._tiny_ids.extend(str(nid) for nid, box in read.items() if box.width <= TINY_BOX_PX and box.height <= TINY_BOX_PX)
        if self._tiny_ids:  # a box may come in the part of its element's start tag, or before or after it
            self._take_tiny()
        if fonts:
            self._styles.update(_read_fonts(fonts))

    def _take_starts(self) -> None:
        """Record the id and "not rendered" mark of the elements whose start tags the last
        feed read (an element's attributes are complete at its start)."""
        ids, hidden = self._ids, self._hidden
        self._started = started = []
        for _event, element in self._parser.read_events():
            started.append(element)
            ids.append(element.get(NODE_ID_ATTR))
            if element.get(UNRENDERED_ATTR) is not None:
                del element.attrib[UNRENDERED_ATTR]
                hidden.append(element)

    def _take_tiny(self) -> None:
        """Move the tiny boxes whose elements started in the last part from ``_tiny_ids`` to
        ``_tiny`` (document order: the ids wait in the order of their boxes)."""
        started = {element.get(NODE_ID_ATTR): element for element in self._started}
        waiting = []
        for nid in self._tiny_ids:
            element = started.get(nid)
            if element is None:
                waiting.append(nid)
            else:
                self._tiny.append(element)
        self._tiny_ids = waiting

    def _take_late_tiny(self, root: Any) -> None:
        """At close: find the elements of the tiny boxes still waiting (boxes sent in another
        part than their start tags) by their place in document order, and put ``_tiny`` in
        document order."""
        position = {nid: k for k, nid in enumerate(self._ids)}
        wanted = sorted({position[nid] for nid in self._tiny_ids if nid in position} | {position[e.get(NODE_ID_ATTR)] for e in self._tiny})
        found, elements, at = [], root.iter(), -1
        for k in wanted:
            found.append(next(islice(elements, k - at - 1, None)))
            at = k
        self._tiny, self._tiny_ids = found, []

    def close(self) -> tuple[Any, dict[int, Box], dict[int, NodeStyle], list[Any]]:
        """``(root, boxes, styles, hidden)``: the ``<html>`` element, node id -> :class:`Box`,
        node id -> :class:`NodeStyle` (elements with a font or not rendered), and the elements
        not rendered, in document order (their marker attribute removed), followed by those
        seen by no one (:func:`~pagesieve.page.elements.visually_hidden`)."""
        try:
            root = self._parser.close()
        except lxml.etree.XMLSyntaxError as exc:
            message = "empty: the root <html> element is required" if not self.chars else f"not well-formed XML: {exc}"
            raise SnapshotError(message, field="markup") from None
        self._take_starts()
        if root.tag != "html":
            raise SnapshotError(f"the root element must be <html>, got <{show(root.tag)}>", field="markup")
        if self._namespaces and _NAMESPACED(root):
            raise SnapshotError("namespaces are not allowed (tag names with ':' are sent as ps-unknown)", field="markup")
        ids = self._ids
        if None in ids:
            raise SnapshotError(f"every element needs its {NODE_ID_ATTR}", field="markup")
        if not _ID_LIST.fullmatch(" ".join(ids)) or (ids and max(map(len, ids)) == 16 and max(int(i) for i in ids if len(i) == 16) > MAX_ID):
            bad = next((i for i in ids if not _ID_LIST.fullmatch(i) or int(i) > MAX_ID), "")
            raise SnapshotError(f"{NODE_ID_ATTR} must be an integer 0 .. 2^53-1, got {show(bad)}", field="markup")
        if len(set(ids)) != len(ids):
            seen: set[str] = set()
            duplicate = next(i for i in ids if i in seen or seen.add(i))
            raise SnapshotError(f"{NODE_ID_ATTR} {duplicate} is used twice: ids are unique", field="markup")
        boxes, styles = self._boxes, self._styles
        hidden = self._hidden
        if self._tiny_ids:
            self._take_tiny()
        if self._tiny_ids:
            self._take_late_tiny(root)
        self._started = []
        hidden.extend(visually_hidden(self._tiny, boxes))
        hidden_style = NodeStyle(visible=False)
        for element in hidden:
            nid = int(element.get(NODE_ID_ATTR))
            font = styles.get(nid)  # the sender writes no font for these; a font sent anyway is kept
            styles[nid] = hidden_style if font is None else NodeStyle(False, font.font_size, font.font_weight)
        return root, boxes, styles, hidden


def _is_id(value: Any) -> bool:
    return type(value) is int and 0 <= value <= MAX_ID


def _read_boxes(flat: list[Any]) -> dict[int, Box]:
    """``boxes``: ``[id, x, y, width, height, ...]`` -> node id -> :class:`Box`."""
    if len(flat) % 5:
        raise SnapshotError(f"{len(flat)} numbers: expected 5 per box (id, x, y, width, height)", field="boxes")
    if not set(map(type, flat)) <= {int, float} or not set(map(type, flat[0::5])) <= {int}:
        bad = next(k for k, v in enumerate(flat) if type(v) not in ((int,) if k % 5 == 0 else (int, float)))
        raise SnapshotError(f"boxes[{bad}] must be {'an integer id' if bad % 5 == 0 else 'a number'}, got {show(flat[bad])}", field="boxes")
    if flat:
        lim = MAX_COORD
        xs, ys, ws, hs = flat[1::5], flat[2::5], flat[3::5], flat[4::5]
        if (
            min(flat[0::5]) < 0 or max(flat[0::5]) > MAX_ID
            or min(xs) < -lim or max(xs) > lim or min(ys) < -lim or max(ys) > lim
            or min(ws) < 0 or max(ws) > lim or min(hs) < 0 or max(hs) > lim
        ):
            bad = next(
                k for k in range(0, len(flat), 5)
                if not (_is_id(flat[k]) and all(-lim <= v <= lim for v in flat[k + 1:k + 3]) and all(0 <= v <= lim for v in flat[k + 3:k + 5]))
            )
            raise SnapshotError(
                f"box {flat[bad:bad + 5]} (boxes[{bad}]..) out of range: id 0 .. 2^53-1, |x|, |y| <= 1e9, 0 <= width, height <= 1e9",
                field="boxes",
            )
    out: dict[int, Box] = {}
    if FAST_BOX:
        new_object = object.__new__
        set_x, set_y, set_width, set_height = BOX_SETTERS
        for k in range(0, len(flat), 5):
            out[flat[k]] = made = new_object(Box)
            set_x(made, flat[k + 1])
            set_y(made, flat[k + 2])
            set_width(made, flat[k + 3])
            set_height(made, flat[k + 4])
    else:  # pragma: no cover - Box without slots
        for k in range(0, len(flat), 5):
            out[flat[k]] = Box(flat[k + 1], flat[k + 2], flat[k + 3], flat[k + 4])
    return out


def _read_fonts(flat: list[Any]) -> dict[int, NodeStyle]:
    """``fonts``: ``[id, size or null, weight or null, ...]`` -> node id -> :class:`NodeStyle`."""
    if len(flat) % 3:
        raise SnapshotError(f"{len(flat)} values: expected 3 per element (id, font size, font weight)", field="fonts")
    ids = flat[0::3]
    if ids and (not set(map(type, ids)) <= {int} or min(ids) < 0 or max(ids) > MAX_ID):
        bad = next(k for k in range(0, len(flat), 3) if not _is_id(flat[k]))
        raise SnapshotError(f"fonts[{bad}] must be an integer id 0 .. 2^53-1, got {show(flat[bad])}", field="fonts")
    out: dict[int, NodeStyle] = {}
    cache: dict[tuple, NodeStyle] = {}
    for k in range(0, len(flat), 3):
        nid, size, weight = flat[k], flat[k + 1], flat[k + 2]
        key = (type(size), size, type(weight), weight)  # True == 1, but is no font size
        style = cache.get(key)
        if style is None:
            if not (size is None or (type(size) in (int, float) and 0 <= size <= MAX_COORD)):
                raise SnapshotError(f"fonts[{k + 1}]: a font size is a number >= 0 (CSS px) or null, got {show(size)}", field="fonts")
            if not (weight is None or (type(weight) in (int, float) and 1 <= weight <= 1000)):
                raise SnapshotError(f"fonts[{k + 2}]: a font weight is a number 1 .. 1000 or null, got {show(weight)}", field="fonts")
            style = cache[key] = NodeStyle(True, size, None if weight is None else int(round(weight)))
        out[nid] = style
    return out


PLAIN_TAG = re.compile("[a-z][a-z0-9._-]*")
"""Tag names version 2 sends as they are (``PLAIN_TAG`` of ``extension/snapshot.js``); others
are sent as ``ps-unknown``: a ``:`` would make XML read a namespace prefix."""

_SPECIAL = re.compile("[\ud800-\udbff][\udc00-\udfff]|[&<>'\t\n\r\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ENTITY = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "'": "&apos;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;", "\f": " "}
_AS_IS_IN_TEXT = frozenset("'\t\n")


def _escape(value: str, in_text: bool) -> tuple[str, bool]:
    """``value`` as markup text (``in_text``) or a single-quoted attribute value, and whether a
    character no XML document can hold was replaced (as ``escape`` in ``extension/snapshot.js``)."""
    cleaned = False

    def one(match: re.Match) -> str:
        nonlocal cleaned
        c = match.group()
        if len(c) == 2 or (in_text and c in _AS_IS_IN_TEXT):
            return c
        entity = _ENTITY.get(c)
        if entity is None:
            cleaned = True
            return "\ufffd"
        if c == "\f":
            cleaned = True
        return entity

    return _SPECIAL.sub(one, value), cleaned


def markup_snapshot(doc: dict) -> dict:
    """The version-2 form of a valid version-1 snapshot ``doc`` (as ``extension/snapshot.js``
    would have sent the same page): for tests, and for snapshots stored in version 1.

    Element tags outside :data:`PLAIN_TAG` become ``ps-unknown``; nesting deeper than 256 is
    flattened as the sender does (an element at depth 256 or more holds only its text before
    its first child element, and its child elements follow it). Raises ``KeyError``/``TypeError`` on a snapshot that is not valid version 1.
    """
    out: list[str] = []
    boxes: list[Any] = []
    fonts: list[Any] = []
    stack: list[list] = []  # open elements: [id, closing tag ("" once written), depth]
    cleaned = flattened = 0
    for node in doc["nodes"]:
        parent = node.get("p")
        while stack and stack[-1][0] != parent:
            closing = stack.pop()[1]
            if closing:
                out.append(closing)
        tag = node.get("t")
        if tag is not None and stack and stack[-1][2] >= 256 and stack[-1][1]:
            out.append(stack[-1][1])  # a flattened parent closes before its first child element
            stack[-1][1] = ""
        if tag is None:
            text, dirty = _escape(node["x"], True)
            cleaned += dirty
            out.append(text)
            continue
        nid = node["i"]
        tag = tag if PLAIN_TAG.fullmatch(tag) else "ps-unknown"
        parts = ["<", tag]
        for name, value in (node.get("a") or {}).items():
            value, dirty = _escape(value, False)
            cleaned += dirty
            parts.append(f" {name}='{value}'")
        parts.append(f" {NODE_ID_ATTR}='{nid}'")
        if node.get("b") is not None:
            boxes.extend([nid, *node["b"]])
        if node.get("v") is False:
            parts.append(f" {UNRENDERED_ATTR}=''")
        if node.get("fs") is not None or node.get("fw") is not None:
            fonts.extend([nid, node.get("fs"), node.get("fw")])
        depth = stack[-1][2] + 1 if stack else 1
        flattened += depth > 256  # not in its parent: after it, in the ancestor at depth 255
        parts.append(">")
        out.append("".join(parts))
        stack.append([nid, f"</{tag}>", depth])
    while stack:
        closing = stack.pop()[1]
        if closing:
            out.append(closing)
    v2 = {k: v for k, v in doc.items() if k != "nodes"}
    v2.update(version=2, markup="".join(out), boxes=boxes, fonts=fonts, cleaned=cleaned, flattened=flattened)
    return v2
