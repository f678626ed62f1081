"""Corrections of an element inside a block: the credit line of a caption, a "More…" link, the
contact line at the end of a story paragraph (issue 64: "a correction names what the user
pointed at, not only its block").

A block (:mod:`pagesieve.blocks.segment`) is the smallest thing the classifier judges, but the
noise a reader sees inside a kept block is often one inline element of it: ``<span
class="credit">`` inside a caption paragraph, ``<a class="more">`` at the end of a teaser
paragraph. When the picker's element is such an element (a **part**: not a block tag, holding
text, with no block inside it, :func:`is_part`), the correction names it: its signature is the
tag path of the block followed by the steps from the block down to the element
(:attr:`~pagesieve.corrections.store.Label.part` counts those steps), and the rule hides, in every
block with the block's signature, the elements at those steps, and only them.

A part label is **anchored** on the element's text (:func:`needs_part_anchor`, as
:func:`pagesieve.corrections.rules.needs_anchor` tests a block) when, on the page it was made
on, an element with the same signature sits in another kept block (a link among the story's
links, ``p > a.link`` on cbsnews.com: that link is named, not the story's links), or in the same
block while the element's own step is a bare tag (``a``, ``b``: formatting, not a kind). An
element whose own step has a stable class or id, alone in its block or with others of its kind
there (the links of a breadcrumb trail, ``span.pathway > a.pathway``), names the kind. It
matches only elements of its kind of text (a link, or words), as block labels do. Off the page it
was made on, a part rule that would hide more than
:data:`~pagesieve.corrections.rules.LOCAL_HIDE_SHARE` of what the page keeps stays local.

Only "noise" names a part: "Keep this" on an element inside a hidden block keeps the block (an
inline element is never judged alone, so there is nothing smaller to bring back).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

import numpy as np
from lxml import etree

from pagesieve.blocks.features import N_FEATURES
from pagesieve.blocks.segment import BLOCK_TAGS, Block
from pagesieve.corrections.rules import LOCAL_HIDE_SHARE
from pagesieve.corrections.signature import PathIndex, Signature, legacy_index, path_keys, step_of, text_anchor, text_kind
from pagesieve.corrections.store import SNIPPET_CHARS, Label, SiteRules
from pagesieve.page.tree import remove_keep_tail
from pagesieve.removal import Removal
from pagesieve.templates.urls import site_of


def is_part(element: etree._Element, block_tags: frozenset[str] = BLOCK_TAGS) -> bool:
    """True when ``element`` is an inline element a correction can name alone: its tag is not a
    block tag (:data:`~pagesieve.blocks.segment.BLOCK_TAGS`), no block element lies inside it, and
    it holds text other than white space."""
    if not isinstance(element.tag, str) or element.tag in block_tags or element.tag in ("body", "html"):
        return False
    if any(isinstance(d.tag, str) and d.tag in block_tags for d in element.iterdescendants()):
        return False
    return bool("".join(element.itertext()).strip())


def own_parts(block: etree._Element, block_tags: frozenset[str] = BLOCK_TAGS):
    """The inline elements of ``block``'s own content (not inside a nested block), document
    order, each with its steps from the block (:meth:`PathIndex.path` minus the block's)."""
    stack = [(child, ()) for child in reversed(block)]
    while stack:
        element, above = stack.pop()
        tag = element.tag
        if not isinstance(tag, str) or tag in block_tags:
            continue
        steps = above + (step_of(element),)
        yield element, steps
        stack.extend((child, steps) for child in reversed(element))


def element_text(element: etree._Element) -> str:
    """The text of ``element``'s subtree, white space collapsed."""
    return " ".join("".join(element.itertext()).split())


def element_link_share(element: etree._Element) -> float | None:
    """Share (0 to 1) of ``element``'s text inside ``<a>`` (the element itself counts when it is
    one), white space collapsed; ``None`` for an element without text."""
    total = len(element_text(element))
    if total == 0:
        return None
    if element.tag == "a" or any(a.tag == "a" for a in element.iterancestors()):
        return 1.0
    linked = sum(len(element_text(a)) for a in element.iter("a"))
    return min(1.0, linked / total)


def block_of(blocks: list[Block], element: etree._Element) -> int | None:
    """Index of the block whose own content holds ``element`` (its nearest block ancestor)."""
    index = {id(b.element): b.index for b in blocks}
    for node in element.iterancestors():
        found = index.get(id(node))
        if found is not None:
            return found
    return None


def names_a_kind(element: etree._Element) -> bool:
    """True when ``element``'s own step (:func:`~pagesieve.corrections.signature.step_of`) has a
    stable class or id token: the site marks it as a kind of element (``span.credit``)."""
    return step_of(element) != element.tag


def needs_part_anchor(blocks: list[Block], keep: list[bool], element: etree._Element, paths: PathIndex) -> bool:
    """True when a "noise" label on the part ``element`` must be anchored on its text: another
    element with its signature and kind of text lies in the own content of another kept block
    (the story's links, each in its paragraph: one of them is named, not the kind), or in the
    same block while ``element``'s own step is a bare tag (not :func:`names_a_kind`). Elements of
    a kind gathered in one block (the links of a breadcrumb trail) are named as a kind."""
    path = paths.path(element)
    kind = text_kind(element_link_share(element))
    home = block_of(blocks, element)
    for b in blocks:
        if not keep[b.index]:
            continue
        base = paths.path(b.element)
        if len(base) >= len(path) or path[:len(base)] != base:
            continue
        for other, steps in own_parts(b.element):
            if other is element or base + steps != path:
                continue
            other_kind = text_kind(element_link_share(other))
            if kind is not None and other_kind is not None and kind != other_kind:
                continue
            if b.index != home or not names_a_kind(element):
                return True
    return False


def make_part_label(page, blocks: list[Block], element: etree._Element, *, keep: list[bool] | None = None,
                    snippets: bool = True, paths: PathIndex | None = None) -> Label:
    """The "noise" :class:`Label` of a correction on the part ``element`` (:func:`is_part`):
    the signature of the element (tag path through its block; the zone of the block's box),
    :attr:`~pagesieve.corrections.store.Label.part` = the steps below the block, the element's
    kind of text, its text anchor where :func:`needs_part_anchor` says so (with ``keep``), and
    no feature rows (the block around it stays content: the personal model learns nothing of it).

    Raises:
        ValueError: ``element`` is not in a block of ``blocks``.
    """
    paths = paths or PathIndex(page)
    block = block_of(blocks, element)
    if block is None:
        raise ValueError("the element is not inside a block of the page")
    base = paths.path(blocks[block].element)
    path = paths.path(element)
    text = element_text(element)
    snippet = (text[:SNIPPET_CHARS] + ("…" if len(text) > SNIPPET_CHARS else "")) if snippets and text else None
    anchor = text_anchor(text) if keep is not None and needs_part_anchor(blocks, keep, element, paths) else None
    return Label(site=site_of(page.url) or "", url=page.url, label=0, signature=Signature(path, paths.zone(blocks[block].element)),
                 features=np.zeros((0, N_FEATURES), dtype=np.float32), snippet=snippet, anchor=anchor,
                 link_share=element_link_share(element), part=len(path) - len(base))


@dataclass(slots=True)
class PartMatch:
    """One part label matched on a page: the label, and per block index the elements it hides."""

    label: Label
    elements: dict[int, list[etree._Element]]


def match_parts(page, blocks: list[Block], rules: SiteRules | None, paths: PathIndex | None = None) -> list[PartMatch]:
    """The part labels of ``rules`` (``part > 0``, "noise") that match elements of ``page``,
    oldest first: in each block with the label's block path, the own inline elements at the
    label's steps, of its kind of text, with its anchor when it has one, in a block of the label's
    zone when both zones are known (a block's box, not the element's: a credit's place on the
    line moves with the length of its caption)."""
    labels = [lab for lab in (rules.labels if rules else ()) if lab.part > 0 and lab.label == 0]
    if not labels:
        return []
    by_block: dict[str, list[Label]] = defaultdict(list)
    for lab in labels:
        by_block[lab.block_key].append(lab)
    paths = paths or PathIndex(page)
    legacy = legacy_index(page, [lab.signature.path for lab in labels])
    found: dict[int, dict[int, list[etree._Element]]] = defaultdict(lambda: defaultdict(list))
    for b in blocks:
        candidates = [lab for key in path_keys(b.element, paths, legacy) for lab in by_block.get(key, ())]
        if not candidates:
            continue
        zone = paths.zone(b.element) if any(lab.signature.zone for lab in candidates) else None
        for element, steps in own_parts(b.element):
            for n, lab in enumerate(candidates):
                path = lab.signature.path
                if steps != path[len(path) - lab.part:]:
                    continue
                text = element_text(element)
                if not text or (lab.anchor is not None and text_anchor(text) != lab.anchor):
                    continue
                wanted, kind = text_kind(lab.link_share), text_kind(element_link_share(element))
                if wanted is not None and kind is not None and wanted != kind:
                    continue
                if lab.signature.zone is not None and zone is not None and zone != lab.signature.zone:
                    continue
                found[id(lab)][b.index].append(element)
    return [PartMatch(lab, dict(found[id(lab)])) for lab in labels if id(lab) in found]


def part_removal(label: Label) -> Removal:
    """The :class:`~pagesieve.removal.Removal` of an element hidden by the part ``label``: stage
    ``"correction"``, rule ``"hide-this-part"``, evidence as
    :func:`pagesieve.corrections.rules.correction_removal` gives a block."""
    return Removal("correction", "hide-this-part", {
        "id": label.id, "created": round(label.created), "signature": label.signature.describe(),
        "snippet": (label.snippet or "")[:80],
    })


def hidden_parts(page, blocks: list[Block], keep: list[bool], rules: SiteRules | None,
                 paths: PathIndex | None = None) -> list[tuple[int, etree._Element, Removal]]:
    """``(block index, element, why)`` of every part the site's part labels hide on ``page``,
    in kept blocks only (a block judged noise is gone whole), each element once. Off the page
    the label was made on, a label whose parts hold more than
    :data:`~pagesieve.corrections.rules.LOCAL_HIDE_SHARE` of the page's kept characters stays
    local (the module docstring)."""
    matches = match_parts(page, blocks, rules, paths)
    if not matches:
        return []
    kept = sum(b.chars for b, k in zip(blocks, keep) if k)
    out, seen = [], set()
    url = (page.url or "").split("#")[0]
    for match in matches:
        elements = [(i, e) for i, es in match.elements.items() if keep[i] for e in es]
        if not elements:
            continue
        own_page = match.label.url is not None and match.label.url.split("#")[0] == url
        if not own_page and kept and sum(len(element_text(e)) for _i, e in elements) > LOCAL_HIDE_SHARE * kept:
            continue
        why = part_removal(match.label)
        for i, element in elements:
            if id(element) not in seen and not any(id(a) in seen for a in element.iterancestors()):
                seen.add(id(element))
                out.append((i, element, why))
    return out


def own_text_without(block: Block, dropped: set, block_tags: frozenset[str] = BLOCK_TAGS) -> str:
    """``block``'s own text (as :attr:`Block.text` makes it) with the elements of ``dropped``
    (their subtrees; their tails stay) left out."""
    top = block.element
    pieces = [top.text] if top.text else []
    stack = [(top, iter(top))]
    while stack:
        element, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if stack and element.tail:
                pieces.append(element.tail)
            continue
        if not isinstance(child.tag, str) or child.tag in block_tags or child in dropped:
            if child.tail:
                pieces.append(child.tail)
            continue
        if child.text:
            pieces.append(child.text)
        stack.append((child, iter(child)))
    return "".join(pieces) if block.pre else " ".join("".join(pieces).split())


def drop_parts(blocks: list[Block], parts: list[tuple[int, etree._Element, Removal]]) -> list[Block]:
    """Remove the hidden parts from the page tree (each element's tail stays) and return the
    blocks with the text of those that held one made again (:func:`own_text_without`); the
    other blocks are the same objects. For the article only: :func:`pagesieve.extract.render_article`."""
    if not parts:
        return blocks
    by_block: dict[int, set] = defaultdict(set)
    for i, element, _why in parts:
        by_block[i].add(element)
    out = list(blocks)
    for i, dropped in by_block.items():
        text = own_text_without(blocks[i], dropped)
        out[i] = replace(blocks[i], pieces=[text], chars=len(text), _text=text)
    for _i, element, _why in parts:
        remove_keep_tail(element)
    return out
