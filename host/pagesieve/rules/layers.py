"""Layers over the page: what a live page shows fixed or sticky on the screen and holds no main
content (consent banners, newsletter modals and their backdrops, floating players, app and chat
bubbles, sticky bars), judged noise by where they sit, not by their names (issue 48).

Only the browser knows which element is a layer: the snapshot's ``layers`` (docs/snapshot.md,
"Layers") give each fixed or sticky element's position, z-index and viewport share. Two steps:

* :func:`find_layers`, on the raw tree (before pre-processing removes empty elements, so that a
  textless backdrop is still there): each layer element with the node ids inside it and around it;
* :func:`judge_layers`, after the classifier: each layer that does not hold the page's main
  region (:func:`main_region`) is noise, and so is everything in it (the blocks' ``keep`` set
  false, each logged as stage ``"layers"``). The layer element itself is returned to be hidden
  whole: its backdrop, close button and frame hold no block of their own.

The verdict reads the layer's place against the main content, which the classifier found in the
page's flow: a fixed or sticky element stays on the screen while the article scrolls under it, so
it is not part of the article unless the article is inside it (a single-page application that
scrolls a fixed shell; a page whose body is locked in a fixed wrapper). A sticky element inside
the main region (a table's sticky head, a figure's sticky caption) scrolls with the article and
is kept. No class name, id or word list is read.
"""

from __future__ import annotations

from dataclasses import dataclass

from pagesieve.blocks.segment import Block
from pagesieve.page.model import NODE_ID_ATTR, Layer, Page
from pagesieve.removal import Removal, RemovalLog

EDGE_PX = 24
"""A layer within this many CSS px of the viewport's edge sits on that edge: a banner or a
bubble with a margin of its own (the fixtures' cards leave 16-24 px, tests/e2e/overlays.py).
Names the shape only (:func:`shape`, the reason a person reads): no verdict depends on it, so it
needs no measurement."""

TEXTLESS_CHARS = 3
"""A layer with fewer text characters than this says nothing (a backdrop, a dimmed screen; a
close button's "×" is one). Names the shape only, like :data:`EDGE_PX`."""

WIDE_SHARE = 0.9
"""A layer at least this share of the viewport's width spans it (a bar along an edge; the rest
is the page's scroll bar and a margin). Names the shape only, like :data:`EDGE_PX`."""

COVERS_SHARE = 0.5
"""A layer covering at least this share of the viewport's area covers the page (a backdrop, a
full-screen overlay): more of the screen is the layer than the page. Names the shape only, like
:data:`EDGE_PX`."""

SHAPES = ("backdrop", "sticky-bar", "edge-banner", "overlay", "floating", "modal")
"""The rule names of stage ``"layers"`` (:func:`shape`)."""


@dataclass(frozen=True, slots=True)
class PageLayer:
    """One layer element of a page, read before pre-processing.

    Attributes:
        node_id: the element's node id. tag: its tag.
        layer: the snapshot's :class:`~pagesieve.page.model.Layer` of it.
        inside: node ids of the element and every element under it.
        around: node ids of its ancestors.
        chars: characters of its text, white space runs counted as one.
    """

    node_id: int
    tag: str
    layer: Layer
    inside: frozenset[int]
    around: frozenset[int]
    chars: int


def find_layers(page: Page) -> list[PageLayer]:
    """The layer elements of ``page`` (``page.layers``), document order, read from its raw tree:
    call before pre-processing. ``<html>`` and ``<body>`` are never layers (a page that locks its
    scroll fixes its body). ``[]`` for a page without layers (HTML input, an older extension)."""
    if not page.layers:
        return []
    out = []
    for element in page.root.iter(tag=None):
        if not isinstance(element.tag, str) or element.tag in ("html", "body"):
            continue
        value = element.get(NODE_ID_ATTR)
        if value is None or int(value) not in page.layers:
            continue
        inside = frozenset(int(v) for e in element.iter(tag=None) if isinstance(e.tag, str) and (v := e.get(NODE_ID_ATTR)) is not None)
        around = frozenset(int(v) for e in element.iterancestors() if (v := e.get(NODE_ID_ATTR)) is not None)
        chars = len(" ".join("".join(element.itertext()).split()))
        out.append(PageLayer(int(value), element.tag, page.layers[int(value)], inside, around, chars))
    return out


def main_region(blocks: list[Block], keep: list[bool]) -> int | None:
    """The index of the page's main region: the deepest block that holds more than half of the
    kept text (characters of the kept blocks; the majority, so the region is one chain of
    ancestors and a layer the classifier kept in part cannot be it unless it holds most of the
    article). ``None`` when nothing is kept."""
    held = [b.chars if keep[b.index] else 0 for b in blocks]
    total = sum(held)
    if not total:
        return None
    for b in reversed(blocks):  # children before parents
        if b.parent >= 0:
            held[b.parent] += held[b.index]
    best = None
    for b in blocks:  # a deeper block comes later than its ancestors
        if 2 * held[b.index] > total and (best is None or b.depth > blocks[best].depth):
            best = b.index
    return best


def shape(found: PageLayer, viewport: tuple[float, float] | None) -> str:
    """What the layer looks like, one of :data:`SHAPES`, for the reason a person reads: a
    ``backdrop`` (textless over most of the screen), a ``sticky-bar``, an ``overlay`` (over
    most of the screen, with text), an ``edge-banner`` (spanning the width at the top or bottom), a ``floating`` box on an edge or corner (a player, an app or chat bubble) or a
    ``modal`` (a box off every edge). The verdict does not depend on it."""
    layer, rect = found.layer, found.layer.rect
    if found.chars < TEXTLESS_CHARS and layer.share >= COVERS_SHARE:
        return "backdrop"
    if layer.position == "sticky":
        return "sticky-bar"
    if layer.share >= COVERS_SHARE:
        return "overlay"
    width, height = viewport if viewport else (0.0, 0.0)
    top_edge = rect.y <= EDGE_PX
    bottom_edge = height > 0 and rect.y + rect.height >= height - EDGE_PX
    if width > 0 and rect.width >= WIDE_SHARE * width and (top_edge or bottom_edge):
        return "edge-banner"
    side_edge = rect.x <= EDGE_PX or (width > 0 and rect.x + rect.width >= width - EDGE_PX)
    if top_edge or bottom_edge or side_edge:
        return "floating"
    return "modal"


def judge_layers(page: Page, blocks: list[Block], keep: list[bool], layers: list[PageLayer],
                 log: RemovalLog | None = None) -> list[tuple[int, Removal]]:
    """Judge the ``layers`` (:func:`find_layers`) of a classified page, in place.

    A layer is noise unless it holds the main region (:func:`main_region`: it is the page), or it
    is sticky and lies inside the main region, which is not the body (it scrolls with the
    article). A layer inside a layer judged noise is not judged again. Every block in a noise
    layer is set ``keep[i] = False`` and logged in ``log`` with the layer's reason.

    Returns:
        ``(node id, Removal)`` of each noise layer, document order: the elements to hide whole.
        The removal is stage ``"layers"``, rule :func:`shape`, evidence ``position``, ``z``
        (``None``: auto), ``share`` (of the viewport, 2 decimals) and ``chars`` (its text).
    """
    if not layers:
        return []
    region = main_region(blocks, keep)
    region_id = blocks[region].node_id if region is not None else None
    region_is_body = region is None or blocks[region].parent < 0 or blocks[region].tag in ("html", "body")
    by_id = {b.node_id: b for b in blocks}
    out: list[tuple[int, Removal]] = []
    hidden: list[PageLayer] = []
    for found in layers:
        if any(found.node_id in outer.inside for outer in hidden):
            continue
        if region_id is not None and region_id in found.inside:
            continue  # the page itself is in it
        if found.layer.position == "sticky" and not region_is_body and region_id in found.around:
            continue  # sticks within the article
        layer = found.layer
        removal = Removal("layers", shape(found, page.viewport), {
            "position": layer.position, "z": layer.z, "share": round(layer.share, 2), "chars": found.chars,
        })
        hidden.append(found)
        out.append((found.node_id, removal))
        for node_id in found.inside:
            b = by_id.get(node_id)
            if b is not None:
                keep[b.index] = False
                if log is not None:
                    log.drop(b.index, removal)
    return out


def kept_layers_out(blocks: list, keep: list[bool], hidden: list[tuple[int, Removal]],
                    found: list[PageLayer]) -> list[tuple[int, Removal]]:
    """``hidden`` (the noise layers of :func:`judge_layers`: node id, reason) less the layers that
    hold a block ``keep`` now keeps: a user's "Keep this" correction inside a layer brings the
    whole layer back (corrections come after the layer stage and win, as over the classifier)."""
    kept_ids = {b.node_id for b in blocks if keep[b.index]}
    inside = {f.node_id: f.inside for f in found}
    return [(node_id, removal) for node_id, removal in hidden if not kept_ids & inside.get(node_id, frozenset())]


def hidden_with_layers(hide: list[int], why: list, layers: list[tuple[int, Removal]],
                       found: list[PageLayer]) -> tuple[list[int], list]:
    """The ``hide`` and ``why`` lists of a ``clean`` reply (node ids; their reasons, compact or
    ``None``) with the noise ``layers`` (:func:`judge_layers`) added: each layer's node id and
    reason, after the ids that are not inside a noise layer (those go with their layer); a layer
    inside an element the list hides already is not listed again, and that element is then
    hidden for the layer's reason (the content script undoes a scroll lock for a layer's sake)."""
    if not layers:
        return hide, why
    ids = {node_id for node_id, _r in layers}
    inside = frozenset().union(*(f.inside for f in found if f.node_id in ids))
    kept = [[n, w] for n, w in zip(hide, why) if n not in inside]
    position = {n: k for k, (n, _w) in enumerate(kept)}
    around = {f.node_id: f.around for f in found}
    for node_id, removal in layers:
        enclosing = [position[n] for n in around[node_id] if n in position]
        if not enclosing:
            kept.append([node_id, removal.compact()])
        elif not (kept[enclosing[0]][1] or [None])[0] == "layers":
            # a block that is hidden already holds the layer (a consent manager's wrapper of its
            # banner and backdrop): the layer goes with it, and it is hidden for the layer
            kept[enclosing[0]][1] = removal.compact()
    return [n for n, _w in kept], [w for _n, w in kept]
