"""The page model: one type for a page, whether it came as HTML or as a browser DOM snapshot.

A :class:`Page` wraps an lxml tree of plain ``lxml.etree`` elements (not ``lxml.html``'s
``HtmlElement``: its per-element Python class lookup tripled the cost of a tree walk). Every
element has a node id (:meth:`Page.node_id`), so that a reply can name the nodes to hide: for a
snapshot, the browser's own id, carried by the attribute ``data-ps-id`` (:data:`NODE_ID_ATTR`);
for a page parsed from HTML, its position in document order as parsed, kept beside the tree
(:attr:`Page.proxies`) rather than written into it. Rendered boxes exist only for snapshots;
for HTML pages :attr:`Page.boxes` is ``None``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

NODE_ID_ATTR = "data-ps-id"
"""Attribute holding the node id of each element of a snapshot's tree (docs/snapshot.md). A page
parsed from HTML keeps its node ids beside the tree instead (:meth:`Page.node_id`)."""


@dataclass(frozen=True, slots=True)
class Box:
    """An element's border box in CSS pixels, in page (document) coordinates.

    ``x``/``y`` are the left/top edges relative to the top-left corner of the document
    (``getBoundingClientRect()`` plus the scroll offsets), ``width``/``height`` its size.
    """

    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True, slots=True)
class NodeStyle:
    """What the browser computed for an element and HTML alone cannot tell.

    ``visible`` is False when the element is not rendered (``v`` of docs/snapshot.md: no layout
    box and not ``display: contents``); ``font_size`` is in CSS px; ``font_weight``
    is the numeric CSS weight (400 normal, 700 bold). ``None`` where the snapshot omits it.
    """

    visible: bool = True
    font_size: float | None = None
    font_weight: int | None = None


@dataclass(frozen=True, slots=True)
class Layer:
    """An element the browser lays out as a layer of its own: computed ``position`` fixed or
    sticky (``layers`` of docs/snapshot.md).

    Attributes:
        position: ``"fixed"`` or ``"sticky"``.
        z: the computed ``z-index`` (an integer), ``None`` for ``auto``.
        share: the share of the viewport its border box covers, ``0 .. 1`` (the box clipped to
            the viewport, over the viewport's area).
        rect: its border box in *viewport* coordinates (``getBoundingClientRect()``), CSS px;
            unlike :attr:`Page.boxes`, not shifted by the scroll offsets: a fixed layer stays
            where the viewport is.
    """

    position: str
    z: int | None
    share: float
    rect: Box


@dataclass(slots=True)
class Page:
    """A web page as the rest of the pipeline sees it.

    Attributes:
        root: the ``<html>`` element of an lxml tree; every element has a node id
            (:meth:`node_id`).
        url: the page URL, or ``None`` when unknown (used to resolve relative links).
        source: ``"html"`` or ``"snapshot"``: where the tree came from.
        boxes: node id -> :class:`Box` for snapshots; ``None`` for HTML pages.
        styles: node id -> :class:`NodeStyle` for snapshots; ``None`` for HTML pages.
        hidden: for snapshots, the elements whose style says not rendered (``visible`` False),
            in document order, then those rendered for screen readers only
            (:func:`pagesieve.page.elements.visually_hidden`), so that pre-processing need not
            test every element; ``None``
            for HTML pages.
        layers: node id -> :class:`Layer` for the fixed and sticky elements of a snapshot
            that carries ``layers`` (docs/snapshot.md, "Layers"); ``None`` otherwise.
        viewport: ``(width, height)`` of the browser viewport in CSS px, snapshots only.
        document_size: ``(width, height)`` of the whole document in CSS px, snapshots only.
        title: the document title as the browser reports it (``document.title``), or ``""``.
        warnings: what was odd about the input and was worked around (e.g. nesting cut at
            the parser's depth limit); shown in JSON output, never fatal.
        formulas: False when the source is known to hold no formula markup
            (:func:`pagesieve.page.formulas.may_hold_formulas`), so pre-processing need not
            look for formulas; True (look) when unknown.
        proxies: for pages parsed from HTML, every node of the tree as parsed, document order
            (:func:`pagesieve.page.html.parse_html`); ``None`` otherwise. A node's node id is
            its position in this list (:meth:`positions`). Held, too, so that lxml keeps one
            Python proxy per element for the life of the page, and the later walks
            (pre-processing, segmentation, features, metadata, rendering) reuse them instead
            of making and freeing a proxy for every element they visit. Elements that
            pre-processing removes stay in memory until the page is dropped (peak RSS of
            ``pagesieve-dev bench`` over all datasets: 136 MB without, 134 with). Measured in
            one process, held and dropped alternating page by page (best of 5, 300 pages, two
            runs): ``extract`` over dataset pages -0.6 % and -1.1 %, judging WARC pages as
            the crawl does (judge, facts, summary, frame) -2.7 % and -0.6 %.
    """

    root: etree._Element
    url: str | None = None
    source: str = "html"
    boxes: dict[int, Box] | None = None
    styles: dict[int, NodeStyle] | None = None
    hidden: list | None = None
    layers: dict[int, Layer] | None = None
    viewport: tuple[float, float] | None = None
    document_size: tuple[float, float] | None = None
    title: str = ""
    warnings: list[str] = field(default_factory=list)
    formulas: bool = True
    proxies: list | None = field(default=None, repr=False, compare=False)  # see the docstring
    _positions: dict | None = field(default=None, repr=False, compare=False)  # positions(), made once

    @property
    def body(self) -> etree._Element:
        """The ``<body>`` element (created empty if the document has none)."""
        body = self.root.find("body")
        if body is None:
            body = etree.SubElement(self.root, "body")
        return body

    def positions(self) -> dict | None:
        """For a page parsed from HTML, node (element proxy) -> node id: its position in
        :attr:`proxies`, document order as parsed, so that the ids do not change when
        pre-processing removes or moves elements; made on first call (O(n)). ``None`` for a
        snapshot, whose ids are its ``data-ps-id`` attributes.

        Kept beside the tree rather than written into it as ``data-ps-id``: writing an
        attribute on every element, freeing them with the page and sanitising them out of
        the article cost 4 % of ``extract`` (480 dataset pages, the first 60 of each dataset,
        with and without, alternating page by page in one process, 2026-11-27)."""
        if self._positions is None and self.proxies is not None:
            self._positions = dict(zip(self.proxies, range(len(self.proxies))))
        return self._positions

    def node_id(self, element: etree._Element) -> int:
        """The node id of ``element`` (``int``), or ``-1`` for an element added after load."""
        positions = self.positions()
        if positions is not None:
            return positions.get(element, -1)
        value = element.get(NODE_ID_ATTR)
        return int(value) if value is not None else -1

    def element_by_id(self) -> dict[int, etree._Element]:
        """Map of node id -> element for every element still in the tree (O(n))."""
        positions = self.positions()
        if positions is not None:
            return {positions[el]: el for el in self.root.iter(etree.Element) if el in positions}
        return {int(v): el for el in self.root.iter() if isinstance(el.tag, str) and (v := el.get(NODE_ID_ATTR)) is not None}
