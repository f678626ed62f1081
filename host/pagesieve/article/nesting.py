"""Blocks inside inline elements, as pages write them and as HTML parsers read them.

A teaser card is often one link around a heading and a paragraph (``<a href><h4>Title</h4>
<p>Line</p></a>``), which HTML allows (``a`` is transparent, HTML Living Standard §4.5.1). Two
things go wrong with it in an article: a ``<p>`` made around it is split by the next parser
(a heading's start tag closes an open ``<p>``, §13.2.6.4.7), which leaves empty paragraphs and
an empty link in the HTML; and Markdown has no link around a heading (``[#### Title](url)``
shows its hashes). :func:`holds_block` tells the container wrapper what not to put in a ``<p>``;
:func:`push_links_into_blocks` moves such a link inside each block it holds.
"""

from __future__ import annotations

from lxml import etree

from pagesieve.blocks.segment import BLOCK_TAGS

CLOSES_PARAGRAPH = BLOCK_TAGS | frozenset({"hr", "center", "dialog", "dir", "fieldset", "form", "listing", "search"})
"""Tags whose start tag closes an open ``<p>`` (HTML Living Standard §13.2.6.4.7, the "in body"
insertion mode: address, article ... ul, the headings, pre, listing, form, table, hr):
:data:`~pagesieve.blocks.segment.BLOCK_TAGS` and those of them it leaves out. Not ``xmp``:
its content is raw text (§13.2.6.4.7, "A start tag whose tag name is 'xmp'"), so it holds no
block, and its text is the text of the article as the page wrote it (markup and all)."""

LINK_ATTRIBUTES = ("href", "title")
"""What a link pushed into a block keeps: where it goes and its title (an ``id`` stays with the
first copy alone, so that no two elements share it)."""


def block_holders(body: etree._Element) -> set[etree._Element]:
    """The elements with a block below them (a tag of :data:`CLOSES_PARAGRAPH`): every
    ancestor of every block under ``body``, in one pass."""
    holders: set[etree._Element] = set()
    for block in body.iter(*CLOSES_PARAGRAPH):
        for ancestor in block.iterancestors():
            if ancestor in holders:
                break
            holders.add(ancestor)
    return holders


def holds_block(element: etree._Element, holders: set[etree._Element]) -> bool:
    """True if ``element`` is a block or holds one (``holders``: :func:`block_holders`); an
    inline element that holds one (a rich-text editor's ``<span>`` around a whole article's
    paragraphs, headings and lists) has its runs of text wrapped as a ``<div>``'s are."""
    return isinstance(element.tag, str) and (element.tag in CLOSES_PARAGRAPH or element in holders)


def _innermost_blocks(link: etree._Element) -> list[etree._Element]:
    return [d for d in link.iterdescendants(*CLOSES_PARAGRAPH)
            if next(d.iterdescendants(*CLOSES_PARAGRAPH), None) is None]


def _unwrap(element: etree._Element) -> None:
    """Replace ``element`` by its text and children, in place (its tail follows them)."""
    parent = element.getparent()
    at = parent.index(element)
    previous = element.getprevious()
    if element.text:
        if previous is not None:
            previous.tail = (previous.tail or "") + element.text
        else:
            parent.text = (parent.text or "") + element.text
    children = list(element)
    tail = element.tail
    for offset, child in enumerate(children):
        parent.insert(at + offset, child)  # a child moves with its tail
    parent.remove(element)
    if tail:
        last = children[-1] if children else parent[at - 1] if at > 0 else None
        if last is not None:
            last.tail = (last.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail


def push_links_into_blocks(body: etree._Element, holders: set[etree._Element] | None = None) -> int:
    """Move each link under ``body`` that holds blocks inside the innermost blocks it holds, in
    place: ``<a href=X><h4>T</h4><p>L</p></a>`` becomes ``<h4><a href=X>T</a></h4><p><a
    href=X>L</a></p>``, what a reader sees (the whole card is the link) written as a
    paragraph's or a heading's own link. A block that holds a link of its own keeps its content
    as it is (links do not nest, §4.5.1). Text of the link outside its blocks stays, unlinked.
    ``holders``: :func:`block_holders` of ``body`` (made here if ``None``; still right for
    ``body`` afterwards). Returns how many links moved.
    """
    if holders is None:
        holders = block_holders(body)
    moved = 0
    for link in [a for a in body.iter("a") if a in holders and a is not body]:
        first = True
        blocks = _innermost_blocks(link)
        for block in blocks:
            if len(block) == 0 and not (block.text and block.text.strip()):
                continue  # nothing to link
            if next(block.iterdescendants("a"), None) is not None:
                continue
            copy = etree.Element("a", {k: link.get(k) for k in LINK_ATTRIBUTES if link.get(k) is not None})
            if first and link.get("id") is not None:
                copy.set("id", link.get("id"))
            first = False
            copy.text, block.text = block.text, None
            for child in list(block):
                copy.append(child)
            block.append(copy)
        if first and link.get("id") is not None and blocks[0].get("id") is None:
            blocks[0].set("id", link.get("id"))  # a target of the article's own links stays one
        _unwrap(link)
        moved += 1
    return moved
