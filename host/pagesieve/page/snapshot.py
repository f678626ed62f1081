"""Browser DOM snapshot (JSON) to :class:`~pagesieve.page.model.Page`, and back.

The extension's content script serialises the live DOM into the JSON described in
``docs/snapshot.md`` (format version :data:`SNAPSHOT_VERSION`) and sends it to this host over
native messaging. :func:`parse_snapshot` validates it completely and builds the same lxml HTML
tree type that :func:`~pagesieve.page.html.parse_html` builds, plus the rendered boxes and
computed styles that only a browser knows. :func:`pagesieve.page.to_snapshot.page_to_snapshot`
is the reverse, for tests and for tools that have HTML but want to exercise the snapshot route.

Any malformed input raises :class:`SnapshotError` (an :class:`~pagesieve.errors.InputError`,
exit code 3) naming the node index and the field that broke the schema; no other exception
type escapes :func:`parse_snapshot`.
"""

from __future__ import annotations

import json
import re
from typing import Any

import lxml.etree
import lxml.html

from pagesieve.page.elements import BOX_SETTERS, ELEMENT_LOOKUP, FAST_BOX, TINY_BOX_PX, visually_hidden
from pagesieve.page.html import LIBXML_MAX_DEPTH
from pagesieve.page.limits import MAX_COORD, MAX_ID, SnapshotError, show, type_name
from pagesieve.page.markup import MarkupBuilder
from pagesieve.page.model import NODE_ID_ATTR, Box, Layer, NodeStyle, Page

SNAPSHOT_VERSION = 1
"""The snapshot format version this module writes."""

SUPPORTED_VERSIONS = frozenset({1, 2})
"""Snapshot format versions :func:`parse_snapshot` reads; any other is a :class:`SnapshotError`."""

MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024
"""Snapshots given as ``str``/``bytes`` larger than this (64 MiB, the browser's own limit for a
message to a native host) are refused."""

MAX_NODES = 2_000_000
"""Snapshots with more nodes than this are refused (a 5,000-element page is typical)."""

MAX_DEPTH = LIBXML_MAX_DEPTH
"""Deepest element nesting kept (``<html>`` is depth 1), the same limit as the HTML route.

Elements nested deeper are not dropped: they are *flattened*, attached in document order to
their ancestor at depth ``MAX_DEPTH - 1``, so that all their text is kept in reading order and
the tree never gets deeper than ``MAX_DEPTH``. A warning in :attr:`Page.warnings` says so.
"""

KEPT_ATTRIBUTES: tuple[str, ...] = (
    "id", "class", "href", "src", "srcset", "data-src", "data-srcset", "data-original",
    "data-lazy-src", "alt", "title", "lang", "dir", "role", "itemprop", "itemtype", "rel",
    "datetime", "property", "name", "content", "aria-hidden", "aria-label", "hidden", "type",
    "colspan", "rowspan", "start", "cite", "for", "display", "mathvariant", "encoding", "data-lang",
    "data-language",
)  # fmt: skip
"""The attributes the sender copies from each element (all others are left out of the payload)."""

CONTENTLESS_TAGS = frozenset({"script", "style", "noscript", "template"})
"""Elements sent without their contents (children and text); the element itself is kept.
Exception: structured data (:func:`is_json_ld`)."""

JSON_LD_TYPE = "application/ld+json"
"""The ``type`` of a ``<script>`` holding schema.org structured data (W3C JSON-LD 1.1,
"Embedding JSON-LD in HTML Documents")."""

JSON_LD_MAX_CHARS = 65536
"""A JSON-LD script longer than this is sent without its text (as the extension's sender)."""

JSON_LD_TOTAL_MAX_CHARS = 262144
"""The text of a page's JSON-LD scripts is sent until this many characters in all; later ones
go without it (a shop listing with a script per product must not swell the snapshot)."""


def is_json_ld(element) -> bool:
    """True for a ``<script type="application/ld+json">``: the one script whose text the sender
    keeps (up to :data:`JSON_LD_MAX_CHARS`), for the article's author, dates and headline
    (:mod:`pagesieve.article.metadata`); without it a live page had none of them where only
    the JSON-LD named them (the byline of wcxb_dev/0034 read "Nicoletta RichardsonTrending
    Editor" from the page's text instead)."""
    return element.tag == "script" and (element.get("type") or "").strip().lower() == JSON_LD_TYPE


PLACEHOLDER_TAG = "ps-unknown"
"""Tag the sender uses for an element whose name does not match :data:`TAG_RE` (only broken
markup makes such names, e.g. ``<align="center">``, which browsers keep as an unknown element)."""

_NAME_CHARS = (
    "a-z0-9._:\\-\u00b7\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u037d\u037f-\u1fff\u200c\u200d"
    "\u203f\u2040\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
)
TAG_RE = re.compile(f"[a-z][{_NAME_CHARS}]*")
"""What a ``t`` (tag) must match in full: a lowercase ASCII letter, then lowercase letters,
digits, ``-``, ``.``, ``_``, ``:`` and the non-ASCII characters custom element names allow.
This covers HTML and SVG/MathML names (lowercased), custom elements (``my-widget``) and the
prefixed or underscored names real pages carry (``o:p``, ``fb:like``, ``nyt_headline``)."""

ATTR_NAME_RE = re.compile("[^\\s\"'<>/={}\x00-\x1f\x7f-\x9f]+")
"""What an attribute name must match in full: no whitespace, quotes, ``< > / = { }`` or controls."""

_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""Characters an lxml tree cannot hold, although a DOM can (see :func:`xml_safe_text`)."""

_HTML_PARSER = lxml.etree.HTMLParser(remove_comments=True, remove_pis=True, no_network=True)
_HTML_PARSER.set_element_class_lookup(ELEMENT_LOOKUP)

_KNOWN_TAGS = frozenset(
    """html head body title meta link base style script noscript template div span p a b i u s
    em strong small big sub sup br hr img picture source figure figcaption ul ol li dl dt dd
    table thead tbody tfoot tr td th caption colgroup col form input button select option
    optgroup textarea label fieldset legend h1 h2 h3 h4 h5 h6 header footer nav main article
    section aside address blockquote q cite code pre kbd samp var abbr time mark del ins iframe
    svg path g use video audio canvas embed object param center font nobr wbr""".split()
)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _load(data: Any) -> dict:
    """``data`` as the decoded top-level JSON object."""
    if isinstance(data, (bytes, bytearray, memoryview, str)):
        size = len(data) if not isinstance(data, memoryview) else data.nbytes
        if size > MAX_SNAPSHOT_BYTES:
            raise SnapshotError(f"it is {size / 1e6:.1f} MB; snapshots over {MAX_SNAPSHOT_BYTES // (1024 * 1024)} MiB are refused")
        if isinstance(data, (bytearray, memoryview)):
            data = bytes(data)
        try:
            data = json.loads(data, parse_constant=_reject_constant)
        except RecursionError:
            raise SnapshotError("the JSON is nested too deeply") from None
        except (ValueError, TypeError) as exc:  # JSONDecodeError, UnicodeDecodeError
            raise SnapshotError(f"not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise SnapshotError(f"expected a JSON object at the top level, got {type_name(data)}")
    return data


def _is_number(value: Any) -> bool:
    """True for a finite JSON number (``bool`` excluded) within :data:`MAX_COORD`."""
    return type(value) in (int, float) and -MAX_COORD <= value <= MAX_COORD


def _size(doc: dict, key: str) -> tuple[float, float] | None:
    """The optional ``{"width": w, "height": h}`` field ``key`` as a tuple."""
    value = doc.get(key)
    if value is None:
        return None
    if type(value) is not dict:
        raise SnapshotError(f"expected an object {{\"width\": number, \"height\": number}}, got {type_name(value)}", field=key)
    out = []
    for name in ("width", "height"):
        number = value.get(name)
        if not _is_number(number) or number < 0:
            raise SnapshotError(f"{name!r} must be a finite number >= 0 (CSS px), got {show(number)}", field=key)
        out.append(number)
    return (out[0], out[1])


def _check_header(doc: dict) -> tuple[int, str | None, str | None, tuple | None, tuple | None]:
    """Validate the top-level fields common to all versions; return the version, url, title,
    viewport and document size."""
    if "version" not in doc:
        raise SnapshotError("missing; this host reads snapshot version 1", field="version")
    version = doc["version"]
    if type(version) is not int:
        raise SnapshotError(f"expected an integer, got {type_name(version)} {show(version)}", field="version")
    if version not in SUPPORTED_VERSIONS:
        supported = ", ".join(map(str, sorted(SUPPORTED_VERSIONS)))
        raise SnapshotError(
            f"unsupported snapshot version {version}; this host reads version {supported} "
            "(update pagesieve or the extension so that both match)",
            field="version",
        )
    url = doc.get("url")
    if url is not None and type(url) is not str:
        raise SnapshotError(f"expected a string or null, got {type_name(url)}", field="url")
    title = doc.get("title")
    if title is not None and type(title) is not str:
        raise SnapshotError(f"expected a string, got {type_name(title)}", field="title")
    viewport = _size(doc, "viewport")
    document = _size(doc, "document")
    dpr = doc.get("dpr")
    if dpr is not None and (not _is_number(dpr) or dpr <= 0):
        raise SnapshotError(f"expected a finite number > 0, got {show(dpr)}", field="dpr")
    return version, url, title, viewport, document


def _check_nodes(doc: dict) -> list:
    """The ``nodes`` of a version-1 snapshot, checked to be an array within :data:`MAX_NODES`."""
    if "nodes" not in doc:
        raise SnapshotError("missing", field="nodes")
    nodes = doc["nodes"]
    if type(nodes) is not list:
        raise SnapshotError(f"expected an array of nodes, got {type_name(nodes)}", field="nodes")
    if len(nodes) > MAX_NODES:
        raise SnapshotError(f"{len(nodes):,} nodes; snapshots over {MAX_NODES:,} nodes are refused", field="nodes")
    return nodes


def _count(doc: dict, key: str) -> int:
    """The optional count ``key`` of a version-2 header (an integer >= 0; absent = 0)."""
    value = doc.get(key)
    if value is None:
        return 0
    if type(value) is not int or value < 0:
        raise SnapshotError(f"expected an integer >= 0, got {show(value)}", field=key)
    return value


def _diagnose(index: int, node: Any, elements: set[int], stack: list[int]) -> SnapshotError:
    """The precise error for ``nodes[index]``, which the fast path found invalid.

    ``elements`` holds the element ids seen before this node, ``stack`` the ids of the open
    elements (the ancestors this node may have; empty if its parent's subtree had ended).
    """

    def err(field: str | None, message: str) -> SnapshotError:
        return SnapshotError(message, index=index, field=field)

    if type(node) is not dict:
        return err(None, f"expected an object (element or text node), got {type_name(node)}")
    is_element = node.get("t") is not None  # null means absent, as for every optional key
    if is_element and node.get("x") is not None:
        return err(None, "has both 't' (element tag) and 'x' (text): a node is one or the other")
    if not is_element and node.get("x") is None:
        return err(None, "has neither 't' (element tag) nor 'x' (text)")
    if is_element:
        if "i" not in node:
            return err("i", "missing: every element needs its integer id")
        nid = node["i"]
        if type(nid) is not int or not 0 <= nid <= MAX_ID:
            return err("i", f"expected an integer from 0 to 2**53-1, got {type_name(nid)} {show(nid)}")
        if nid in elements:
            return err("i", f"duplicate id {nid}: ids must be unique")
        tag = node["t"]
        if type(tag) is not str:
            return err("t", f"expected a string, got {type_name(tag)}")
        if not TAG_RE.fullmatch(tag):
            return err("t", f"{show(tag)} is not a valid lowercase tag name (see TAG_RE in docs/snapshot.md)")
        if index == 0 and tag != "html":
            return err("t", f"the first node must be the <html> element, got <{tag}>")
    else:
        text = node["x"]
        if type(text) is not str:
            return err("x", f"expected a string, got {type_name(text)}")
    if "p" not in node:
        return err("p", "missing (null for the root <html>, else the id of an earlier element)")
    parent = node["p"]
    if index == 0:
        if not is_element:
            return err(None, "the first node must be the <html> element, got a text node")
        if parent is not None:
            return err("p", f"the first node is the root and must have parent null, got {show(parent)}")
    elif parent is None:
        return err("p", "null: only the first node (the root <html>) has no parent")
    elif type(parent) is not int:
        return err("p", f"expected an integer element id, got {type_name(parent)} {show(parent)}")
    elif parent not in elements:
        if is_element and parent == node.get("i"):
            return err("p", f"the element is its own parent ({parent})")
        return err("p", f"{parent} is not the id of an earlier element node (parents come before children)")
    elif parent not in stack:
        return err(
            "p",
            f"element {parent} was already closed: its subtree ended before this node, so the "
            "nodes are not in document order",
        )
    if is_element:
        attrs = node.get("a")
        if attrs is not None:
            if type(attrs) is not dict:
                return err("a", f"expected an object of string -> string, got {type_name(attrs)}")
            for name, value in attrs.items():
                if type(name) is not str or not ATTR_NAME_RE.fullmatch(name):
                    return err("a", f"invalid attribute name {show(name)}")
                if type(value) is not str:
                    return err("a", f"attribute {name!r}: expected a string value, got {type_name(value)}")
        box = node.get("b")
        if box is not None:
            if type(box) is not list or len(box) != 4:
                return err("b", f"expected [x, y, width, height], got {show(box)}")
            for position, (name, value) in enumerate(zip(("x", "y", "width", "height"), box)):
                if not _is_number(value):
                    return err("b", f"{name} must be a finite number (CSS px), got {type_name(value)} {show(value)}")
                if position >= 2 and value < 0:
                    return err("b", f"{name} must be >= 0, got {show(value)}")
        visible = node.get("v")
        if visible is not None and type(visible) is not bool:
            return err("v", f"expected true or false, got {type_name(visible)} {show(visible)}")
        font_size = node.get("fs")
        if font_size is not None and (not _is_number(font_size) or font_size < 0):
            return err("fs", f"expected a finite number >= 0 (CSS px), got {show(font_size)}")
        font_weight = node.get("fw")
        if font_weight is not None and (not _is_number(font_weight) or not 1 <= font_weight <= 1000):
            return err("fw", f"expected a number from 1 to 1000, got {show(font_weight)}")
    return err(None, "could not be added to the tree")


def _replacement(match: re.Match) -> str:
    return " " if match.group() == "\x0c" else "\ufffd"


def xml_safe_text(text: str) -> str:
    """``text`` with the characters an lxml tree cannot hold replaced.

    A DOM can hold C0 control characters, lone surrogates and U+FFFE/U+FFFF; lxml refuses
    them. Form feed (HTML whitespace) becomes a space, the others U+FFFD.
    """
    return _XML_INVALID.sub(_replacement, text)


def _write_text(anchor: Any, into: bool, pending: str | list[str]) -> int:
    """Add ``pending`` to ``anchor.text`` (``into``) or ``anchor.tail``; 1 if it was cleaned."""
    text = pending if type(pending) is str else "".join(pending)
    cleaned = 0
    old = anchor.text if into else anchor.tail
    if old is not None:
        text = old + text
    try:
        if into:
            anchor.text = text
        else:
            anchor.tail = text
    except ValueError:
        text = xml_safe_text(text)
        cleaned = 1
        if into:
            anchor.text = text
        else:
            anchor.tail = text
    return cleaned


def _tree_builder():
    """The element tree of a snapshot's nodes, built as they arrive (a generator).

    Send it lists of nodes in document order (a whole snapshot's, or its parts one after
    another), then ``None``: it returns ``(root, boxes, styles, hidden, flattened, cleaned)``.
    A node that breaks the schema raises :class:`SnapshotError` from the ``send`` that carried
    it, with its index counted from the first node of the first part.
    """
    seen: set[int] = set()  # ids of the element nodes so far
    stack: list[int] = []  # ids of the open elements: the ancestors the next node may have
    # Everything the loop uses is a local: this loop is the whole cost of a snapshot.
    sub_element = lxml.etree.SubElement
    # lxml's own setter: lxml.html's wrapper only adds value=None (never here), at twice the cost
    set_attribute = lxml.etree._Element.set
    known_tags = set(_KNOWN_TAGS)
    known_attrs = set(KEPT_ATTRIBUTES)
    tag_ok = TAG_RE.fullmatch
    attr_ok = ATTR_NAME_RE.fullmatch
    box_cls = Box
    fast_box = FAST_BOX
    new_object = object.__new__
    set_x, set_y, set_width, set_height = BOX_SETTERS
    style_cls = NodeStyle
    number = (int, float)
    lim = MAX_COORD
    max_id = MAX_ID
    id_attr = NODE_ID_ATTR
    max_depth = MAX_DEPTH
    flat_level = MAX_DEPTH - 1  # stack length at which new elements get flattened
    flat_index = MAX_DEPTH - 2  # stack index of the ancestor that receives them
    default_style = NodeStyle()
    style_cache: dict[tuple, NodeStyle] = {}
    boxes: dict[int, Box] = {}
    styles: dict[int, NodeStyle] = {}
    hidden: list[Any] = []  # elements with v: false
    tiny: list[Any] = []  # elements whose box is at most 1 x 1 px (see visually_hidden)
    element_stack: list[Any] = []  # the elements of ``stack``
    last_child: dict[int, Any] = {}  # id of an element -> its last element child in the tree
    flattened = 0
    cleaned = 0
    top = -1  # stack[-1]
    top_element: Any = None  # element_stack[-1]
    pop = stack.pop
    pop_element = element_stack.pop
    pending_anchor: Any = None  # text not yet written: its element, text (True) or tail
    pending_into = False
    pending: str | list[str] = ""

    index = -1
    offset = 0  # nodes of the earlier parts
    node: Any = None
    try:
        while True:
            nodes = yield
            if nodes is None:
                break
            for index, node in enumerate(nodes, offset):
                if type(node) is not dict:
                    raise _diagnose(index, node, seen, stack)
                parent = node.get("p")
                if parent != top or type(parent) is not int:
                    if index == 0:
                        if (
                            node.get("t") != "html"
                            or node.get("x") is not None
                            or parent is not None
                            or "p" not in node
                            or type(node.get("i")) is not int
                        ):
                            raise _diagnose(0, node, seen, stack)
                    elif type(parent) is not int or parent not in seen:
                        raise _diagnose(index, node, seen, stack)
                    else:
                        # Close the elements whose subtree ended, up to the parent.
                        while stack and stack[-1] != parent:
                            pop()
                            pop_element()
                        if not stack:  # the parent's subtree had ended already
                            raise _diagnose(index, node, seen, stack)
                        top = parent
                        top_element = element_stack[-1]
                tag = node.get("t")
                if tag is not None:
                    # ---- element node
                    nid = node.get("i")
                    if type(nid) is not int or not 0 <= nid <= max_id or nid in seen or node.get("x") is not None:
                        raise _diagnose(index, node, seen, stack)
                    if tag not in known_tags:
                        if type(tag) is not str or not tag_ok(tag):
                            raise _diagnose(index, node, seen, stack)
                        known_tags.add(tag)
                    depth = len(stack)  # of the parent
                    if depth < flat_level:
                        if index:
                            element = sub_element(top_element, tag)
                            last_child[top] = element
                        else:
                            element = _HTML_PARSER.makeelement(tag)
                    else:
                        element = sub_element(element_stack[flat_index], tag)
                        last_child[stack[flat_index]] = element
                        if depth > flat_level:
                            flattened += 1
                    attrs = node.get("a")
                    if attrs:
                        if type(attrs) is not dict:
                            raise _diagnose(index, node, seen, stack)
                        try:
                            for name, value in attrs.items():
                                if name not in known_attrs:
                                    if type(name) is not str or not attr_ok(name):
                                        raise _diagnose(index, node, seen, stack)
                                    known_attrs.add(name)
                                if type(value) is not str:
                                    raise _diagnose(index, node, seen, stack)
                                set_attribute(element, name, value)
                        except ValueError:  # characters lxml cannot store (validated above)
                            for name, value in attrs.items():
                                if type(name) is not str or not attr_ok(name) or type(value) is not str:
                                    raise _diagnose(index, node, seen, stack) from None
                                clean = xml_safe_text(value)
                                cleaned += clean != value
                                element.set(name, clean)
                    elif attrs is not None and type(attrs) is not dict:
                        raise _diagnose(index, node, seen, stack)
                    set_attribute(element, id_attr, str(nid))
                    box = node.get("b")
                    if box is not None:
                        if type(box) is not list or len(box) != 4:
                            raise _diagnose(index, node, seen, stack)
                        x, y, width, height = box
                        if not (
                            type(x) in number
                            and type(y) in number
                            and type(width) in number
                            and type(height) in number
                            and -lim <= x <= lim
                            and -lim <= y <= lim
                            and 0 <= width <= lim
                            and 0 <= height <= lim
                        ):
                            raise _diagnose(index, node, seen, stack)
                        if fast_box:
                            boxes[nid] = made = new_object(box_cls)
                            set_x(made, x)
                            set_y(made, y)
                            set_width(made, width)
                            set_height(made, height)
                        else:
                            boxes[nid] = box_cls(x, y, width, height)
                        if width <= TINY_BOX_PX and height <= TINY_BOX_PX:
                            tiny.append(element)
                    visible = node.get("v")
                    font_size = node.get("fs")
                    font_weight = node.get("fw")
                    if font_size is None and font_weight is None and (visible is None or visible is True):
                        styles[nid] = default_style
                    else:
                        if visible is None:
                            visible = True
                        if (
                            (visible is not True and visible is not False)
                            or (font_size is not None and (type(font_size) not in number or not 0 <= font_size <= lim))
                            or (font_weight is not None and (type(font_weight) not in number or not 1 <= font_weight <= 1000))
                        ):
                            raise _diagnose(index, node, seen, stack)
                        key = (visible, font_size, font_weight)
                        style = style_cache.get(key)
                        if style is None:
                            style = style_cls(visible, font_size, None if font_weight is None else int(round(font_weight)))
                            style_cache[key] = style
                        styles[nid] = style
                        if visible is False:
                            hidden.append(element)
                    seen.add(nid)
                    stack.append(nid)
                    element_stack.append(element)
                    top = nid
                    top_element = element
                else:
                    # ---- text node: after the parent's last child, or into the parent
                    text = node.get("x")
                    if type(text) is not str or index == 0:
                        raise _diagnose(index, node, seen, stack)
                    if not text:
                        continue
                    if len(stack) < max_depth:
                        anchor = last_child.get(parent)
                        if anchor is None:
                            anchor = top_element
                            into = True
                        else:
                            into = False
                    else:
                        # The parent's children were flattened into the receiving ancestor: the text
                        # goes after the last of them (or into the parent if nothing follows it yet).
                        anchor = last_child[stack[flat_index]]
                        into = anchor is top_element
                    # Adjacent text nodes for one slot (an element's text or tail) are joined once:
                    # appending to an lxml string one node at a time is quadratic.
                    if anchor is pending_anchor and into is pending_into:
                        if type(pending) is str:
                            pending = [pending, text]
                        else:
                            pending.append(text)
                    else:
                        if pending_anchor is not None:
                            cleaned += _write_text(pending_anchor, pending_into, pending)
                        pending_anchor = anchor
                        pending_into = into
                        pending = text
            offset += len(nodes)
        if pending_anchor is not None:
            cleaned += _write_text(pending_anchor, pending_into, pending)
    except SnapshotError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError) as exc:
        error = _diagnose(index, node, seen, stack)
        if error.field is None:
            error = SnapshotError(f"could not be added to the tree ({type(exc).__name__}: {exc})", index=index)
        raise error from exc

    if not element_stack:
        raise SnapshotError("empty: the root <html> element is required", field="nodes")
    for element in visually_hidden(tiny, boxes):
        hidden.append(element)
        nid = int(element.get(id_attr))
        style = styles.get(nid, default_style)
        styles[nid] = style_cls(False, style.font_size, style.font_weight)
    return element_stack[0], boxes, styles, hidden, flattened, cleaned


class SnapshotStream:
    """A snapshot received in parts: :meth:`feed` each part as it arrives (the tree is built
    meanwhile), then :meth:`finish` with the snapshot's header and its last part.

    ``docs/protocol.md`` ("Streaming a snapshot") is the exchange that uses it: the extension
    sends the start of a large page while its walk goes on, so the host reads and builds the
    tree while the browser is still walking the page. A version-1 part is a list of nodes
    (:meth:`feed`), a version-2 part its markup, boxes and fonts (:meth:`feed_markup`,
    :class:`pagesieve.page.markup.MarkupBuilder`); one stream holds parts of one version.

    Raises (from :meth:`feed`, :meth:`feed_markup` and :meth:`finish`): :class:`SnapshotError`.
    After an error, or once finished, every later call raises (the same error again).
    """

    def __init__(self) -> None:
        self._builder: Any = None  # the version-1 tree builder (a generator), made by the first feed
        self._markup: Any = None  # the version-2 MarkupBuilder
        self.nodes = 0
        """Nodes (version 1) or characters of markup (version 2) received so far."""
        self.error: SnapshotError | None = None
        """The error that ended the stream, if one did."""

    def _fail(self, exc: SnapshotError) -> None:
        self.error = exc
        if self._builder is not None:
            self._builder.close()

    def feed(self, nodes: Any) -> None:
        """Add the next part's nodes (version 1: a list, in document order after the earlier parts)."""
        if self.error is not None:
            raise self.error
        try:
            if self._markup is not None:
                raise SnapshotError("a stream of markup (version 2) cannot go on with nodes (version 1)", field="nodes")
            if type(nodes) is not list:
                raise SnapshotError(f"expected an array of nodes, got {type_name(nodes)}", field="nodes")
            if self.nodes + len(nodes) > MAX_NODES:
                raise SnapshotError(
                    f"{self.nodes + len(nodes):,} nodes; snapshots over {MAX_NODES:,} nodes are refused", field="nodes"
                )
            if self._builder is None:
                self._builder = _tree_builder()
                next(self._builder)
            self.nodes += len(nodes)
            self._builder.send(nodes)
        except SnapshotError as exc:
            self._fail(exc)
            raise

    def feed_markup(self, markup: Any, boxes: Any = None, fonts: Any = None) -> None:
        """Add the next part of a version-2 snapshot: its ``markup`` (a string: where the last
        part stopped, possibly inside a tag), ``boxes`` and ``fonts`` (flat arrays)."""
        if self.error is not None:
            raise self.error
        try:
            if self._builder is not None:
                raise SnapshotError("a stream of nodes (version 1) cannot go on with markup (version 2)", field="markup")
            if self._markup is None:
                self._markup = MarkupBuilder()
            self._markup.feed(markup, boxes, fonts)
            self.nodes = self._markup.chars
        except SnapshotError as exc:
            self._fail(exc)
            raise

    def finish(self, data: dict | str | bytes) -> Page:
        """The :class:`Page` of the whole snapshot: ``data`` is its top-level object (as
        :func:`parse_snapshot` takes it), whose ``nodes`` (version 1) or ``markup``, ``boxes``
        and ``fonts`` (version 2) are what came after the last part (possibly nothing)."""
        if self.error is not None:
            raise self.error
        try:
            doc = _load(data)
            version, url, title, viewport, document = _check_header(doc)
            if version == 1:
                nodes = _check_nodes(doc)
            else:
                if "markup" not in doc:
                    raise SnapshotError("missing", field="markup")
                flattened, cleaned = _count(doc, "flattened"), _count(doc, "cleaned")
        except SnapshotError as exc:
            self._fail(exc)
            raise
        if version == 1:
            self.feed(nodes)
            try:
                self._builder.send(None)
            except StopIteration as done:
                root, boxes, styles, hidden, flattened, cleaned = done.value
            except SnapshotError as exc:
                self.error = exc
                raise
            else:  # pragma: no cover - the generator always returns after None
                raise AssertionError("the tree builder did not finish")
        else:
            self.feed_markup(doc["markup"], doc.get("boxes"), doc.get("fonts"))
            try:
                root, boxes, styles, hidden = self._markup.close()
            except SnapshotError as exc:
                self.error = exc
                raise
        self.error = SnapshotError("this snapshot is complete: no more parts can be added", field="nodes")
        try:
            layers = read_layers(doc.get("layers"))
        except SnapshotError as exc:
            self.error = exc
            raise
        page = _page(root, boxes, styles, hidden, flattened, cleaned, url, title, viewport, document)
        page.layers = layers
        return page


LAYER_VALUES = 8
"""Values per layer in a snapshot's flat ``layers`` array: id, position, z-index, share, x, y,
width, height (docs/snapshot.md, "Layers")."""

LAYER_POSITIONS = {1: "fixed", 2: "sticky"}
"""The position codes of ``layers``."""


def read_layers(flat: Any) -> dict[int, Layer] | None:
    """A snapshot's ``layers`` (``[id, position, z, share, x, y, width, height, ...]``, flat) ->
    node id -> :class:`~pagesieve.page.model.Layer`; ``None`` when the field is absent.

    Raises:
        SnapshotError: field ``layers``: not an array of whole layers, an id that is not an
            integer ``0 .. 2^53-1``, a position other than 1 (fixed) or 2 (sticky), a z-index
            that is neither an integer nor null, a share outside ``0 .. 1``, a coordinate that
            is not a number within 1e9 or a negative size.
    """
    if flat is None:
        return None
    if type(flat) is not list or len(flat) % LAYER_VALUES:
        raise SnapshotError(f"expected an array of {LAYER_VALUES} values per layer (id, position, z-index, share, "
                            f"x, y, width, height), got {type_name(flat)}", field="layers")
    out: dict[int, Layer] = {}
    for k in range(0, len(flat), LAYER_VALUES):
        nid, kind, z, share, x, y, width, height = flat[k:k + LAYER_VALUES]
        if type(nid) is not int or not 0 <= nid <= MAX_ID:
            raise SnapshotError(f"layers[{k}]: an id is an integer 0 .. 2^53-1, got {show(nid)}", field="layers")
        if type(kind) is not int or kind not in LAYER_POSITIONS:
            raise SnapshotError(f"layers[{k + 1}]: the position is 1 (fixed) or 2 (sticky), got {show(kind)}", field="layers")
        if z is not None and (type(z) is not int or not -2**31 <= z < 2**31):
            raise SnapshotError(f"layers[{k + 2}]: the z-index is a 32-bit integer or null (auto), got {show(z)}", field="layers")
        if not _is_number(share) or not 0 <= share <= 1:
            raise SnapshotError(f"layers[{k + 3}]: the share of the viewport is a number 0 .. 1, got {show(share)}", field="layers")
        if not all(_is_number(v) for v in (x, y, width, height)) or width < 0 or height < 0:
            raise SnapshotError(f"layers[{k + 4}..{k + 7}]: a box is 4 numbers within 1e9, sizes >= 0", field="layers")
        out[nid] = Layer(LAYER_POSITIONS[kind], z, float(share), Box(x, y, width, height))
    return out


def parse_snapshot(data: dict | str | bytes) -> Page:
    """Validate a DOM snapshot (``docs/snapshot.md``) and build its :class:`Page`.

    Args:
        data: the snapshot as the decoded JSON object, or as JSON text (``str``/``bytes``).

    Returns:
        A :class:`Page` with ``source="snapshot"``: the element tree with each element's
        ``data-ps-id`` set to its snapshot id, ``boxes`` for the elements that have one,
        ``styles`` for every element (version 1; version 2: the elements with a font or not
        rendered, the others having the default ``NodeStyle()``), and the viewport, document
        size, title and URL.

    Raises:
        SnapshotError: anything that does not follow the schema (wrong types, missing fields,
            unknown or closed parent, duplicate ids, unsupported version, invalid JSON ...).
    """
    return SnapshotStream().finish(data)


def _page(root, boxes, styles, hidden, flattened, cleaned, url, title, viewport, document) -> Page:
    """The :class:`Page` of a built tree and the snapshot's header."""
    page = Page(
        root=root,
        url=url,
        source="snapshot",
        boxes=boxes,
        styles=styles,
        hidden=hidden,
        viewport=viewport,
        document_size=document,
    )
    if title is None:
        title_el = root.find(".//title")
        title = title_el.text if title_el is not None and title_el.text else ""
    page.title = " ".join(title.split())
    if flattened:
        page.warnings.append(
            f"element nesting deeper than {MAX_DEPTH} levels was flattened: {flattened} elements "
            f"were attached to their ancestor at depth {MAX_DEPTH - 1} (text order is kept)"
        )
    if cleaned:
        page.warnings.append(
            f"{cleaned} texts or attribute values held characters an XML tree cannot store "
            "(control characters, lone surrogates); they were replaced (see xml_safe_text)"
        )
    return page
