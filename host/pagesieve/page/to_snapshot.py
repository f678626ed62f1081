"""A page parsed from HTML written as the snapshot a browser would send for it
(:func:`page_to_snapshot`): the reverse of :func:`pagesieve.page.snapshot.parse_snapshot`, for
the host's tests, the benchmarks that feed the native host HTML pages, and a snapshot page's
round trip. The snapshot format is docs/snapshot.md's."""

from __future__ import annotations

from typing import Any, Callable

import lxml.etree

from pagesieve.page.lazy import unsent_lazy_attribute
from pagesieve.page.limits import MAX_ID
from pagesieve.page.model import NODE_ID_ATTR, Page
from pagesieve.page.snapshot import (
    CONTENTLESS_TAGS, JSON_LD_MAX_CHARS, JSON_LD_TOTAL_MAX_CHARS, KEPT_ATTRIBUTES, PLACEHOLDER_TAG, SNAPSHOT_VERSION,
    TAG_RE, is_json_ld,
)
from pagesieve.page.visibility import invisible_elements

_KEPT = frozenset(KEPT_ATTRIBUTES)


def _snapshot_tag(tag: str) -> str:
    """The ``t`` the sender writes for an element named ``tag``."""
    tag = tag.lower()
    return tag if TAG_RE.fullmatch(tag) else PLACEHOLDER_TAG


def _usable_id(value: str | None) -> int | None:
    """A node id given as ``value`` (decimal digits, at most :data:`MAX_ID`), else ``None``."""
    if value is not None and value.isascii() and value.isdigit() and int(value) <= MAX_ID:
        return int(value)
    return None


def _id_source(page: Page) -> Callable[[Any], str | None]:
    """``element -> its given node id as text, or None``: its position as parsed for a page
    parsed from HTML (:meth:`~pagesieve.page.model.Page.positions`), its ``data-ps-id`` for a
    snapshot page."""
    positions = page.positions()
    if positions is not None:
        return lambda element: None if (n := positions.get(element)) is None else str(n)
    return lambda element: element.get(NODE_ID_ATTR)


def _element_node(page: Page, element: Any, nid: int, parent: int | None, hidden: frozenset) -> dict[str, Any]:
    """The snapshot node of ``element`` (id ``nid``, parent id ``parent``): its tag, the kept
    attributes, its box and style where ``page`` has them, and ``"v": False`` for an element
    of an HTML page that the HTML route takes for hidden (``hidden``, :func:`_hidden_html`)."""
    node: dict[str, Any] = {"i": nid, "p": parent, "t": _snapshot_tag(element.tag)}
    attrs = {name: value for name, value in element.attrib.items() if name in _KEPT}
    if element.tag == "img":  # a lazy loader's address, as the sender adds it (docs/snapshot.md)
        lazy = unsent_lazy_attribute(element, _KEPT, element.get("src"))
        if lazy is not None:
            attrs[lazy[0]] = lazy[1]
    if attrs:
        node["a"] = attrs
    box = (page.boxes or {}).get(nid)
    if box is not None:
        node["b"] = [box.x, box.y, box.width, box.height]
    style = (page.styles or {}).get(nid)
    if style is None:
        if element in hidden:
            node["v"] = False
        return node
    if not style.visible:
        node["v"] = False
    if style.font_size is not None:
        node["fs"] = style.font_size
    if style.font_weight is not None:
        node["fw"] = style.font_weight
    return node


def _hidden_html(page: Page) -> frozenset:
    """The elements of an HTML page (no styles) that the HTML route's pre-processing removes as
    hidden by their markup (:func:`~pagesieve.page.visibility.invisible_elements`: ``hidden``,
    an inline style that hides; not the page's main region, a wrapper of the whole page, a
    disclosure panel, nor anything when they would hide the page), so that a page read through
    its snapshot loses what its HTML loses, no more. The copies of shown text that the utility
    class ``hidden`` hides stay shown: a browser with no style sheet for the class shows them. Before
    2026-12-07 only ``is_hidden`` less the main region was asked: wcxb_dev/4020's article, in a
    ``display:none`` wrapper of nearly the whole page, came out empty through the snapshot."""
    if page.source != "html" or page.styles is not None:
        return frozenset()
    return frozenset(invisible_elements(page, page.root.find("body"), frozenset(), copies=False)[1])


def _nodes(page: Page) -> list[dict]:
    """The snapshot nodes of ``page``'s tree, document order (see :func:`page_to_snapshot`)."""
    root = page.root
    given = _id_source(page)
    used: set[int] = set()
    for element in root.iter(lxml.etree.Element):
        nid = _usable_id(given(element))
        if nid is not None:
            used.add(nid)
    next_id = max(used, default=-1) + 1
    used.clear()
    ids: dict[Any, int] = {}
    nodes: list[dict] = []
    json_ld_chars = 0
    hidden = _hidden_html(page)
    append = nodes.append
    walker = lxml.etree.iterwalk(root, events=("start", "end", "comment", "pi"))
    for event, element in walker:
        if event == "comment" or event == "pi":
            # Skipped, but the text after it is kept.
            if element.tail and element.getparent() is not None:
                append({"p": ids[element.getparent()], "x": element.tail})
            continue
        if event == "end":
            if element.tail and element is not root:
                append({"p": ids[element.getparent()], "x": element.tail})
            continue
        nid = _usable_id(given(element))
        if nid is None or nid in used:
            nid = next_id
            next_id += 1
        used.add(nid)
        ids[element] = nid
        parent = element.getparent()
        node = _element_node(page, element, nid, None if parent is None else ids[parent], hidden)
        append(node)
        if node["t"] in CONTENTLESS_TAGS:
            data = element.text if is_json_ld(element) else None
            if data and len(data) <= JSON_LD_MAX_CHARS and json_ld_chars + len(data) <= JSON_LD_TOTAL_MAX_CHARS:
                json_ld_chars += len(data)
                append({"p": nid, "x": data})
            walker.skip_subtree()
        elif element.text:
            append({"p": nid, "x": element.text})
    return nodes


def page_to_snapshot(page: Page) -> dict:
    """The snapshot a browser would send for ``page`` (format version
    :data:`~pagesieve.page.snapshot.SNAPSHOT_VERSION`).

    Meant for pages parsed from HTML: their elements get no box, and are visible unless the HTML
    route takes them for hidden by their markup (all a browser-less reader can tell,
    :func:`_hidden_html`). Boxes and
    styles are written when ``page`` has them, so a snapshot page round-trips too. As the
    sender does, only :data:`~pagesieve.page.snapshot.KEPT_ATTRIBUTES` are kept, the contents of
    :data:`~pagesieve.page.snapshot.CONTENTLESS_TAGS` are left out (a JSON-LD script's data
    excepted, within :data:`~pagesieve.page.snapshot.JSON_LD_MAX_CHARS` and
    :data:`~pagesieve.page.snapshot.JSON_LD_TOTAL_MAX_CHARS`), comments and processing
    instructions are skipped (their tails are kept), tags that do not match
    :data:`~pagesieve.page.snapshot.TAG_RE` become :data:`~pagesieve.page.snapshot.PLACEHOLDER_TAG`,
    and text is kept verbatim (not whitespace-collapsed). Each element keeps its node id
    (:meth:`~pagesieve.page.model.Page.node_id`: its position as parsed for a page parsed from
    HTML, its ``data-ps-id`` for a snapshot); elements without a usable one get fresh ids above
    the largest one in the tree.

    ``page.root`` should be the ``<html>`` element (as :func:`~pagesieve.page.html.parse_html`
    makes it): :func:`~pagesieve.page.snapshot.parse_snapshot` refuses a snapshot whose first
    node is anything else.
    """
    snapshot: dict[str, Any] = {"version": SNAPSHOT_VERSION, "url": page.url, "title": page.title}
    if page.viewport is not None:
        snapshot["viewport"] = {"width": page.viewport[0], "height": page.viewport[1]}
    if page.document_size is not None:
        snapshot["document"] = {"width": page.document_size[0], "height": page.document_size[1]}
    snapshot["nodes"] = _nodes(page)
    return snapshot
