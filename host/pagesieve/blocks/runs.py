"""A block's own text cut at its child blocks (:func:`own_runs`), so that the article's text
keeps the page's order.

A container's own text is the text that no nested block holds: loose text written beside its
child blocks. Old templates write whole stories so: big9's BBC pages of 2005 set most
paragraphs as bare text in a table cell, between ``<br>`` and a few ``<div>`` and ``<p>``
blocks. :attr:`pagesieve.blocks.segment.Block.text` joins all of it, which the features and
templates read as one; read so, the text of the article put those paragraphs first, glued into
one line, before the paragraphs of the child blocks, while the reader's HTML keeps the page's
order. The runs place each piece of own text between the child blocks it stands between.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def _join(pieces: list[str], pre: bool) -> str:
    """Pieces of text as :attr:`~pagesieve.blocks.segment.Block.text` joins them: verbatim in
    ``<pre>``, else with white space collapsed to single spaces and the ends trimmed."""
    text = "".join(pieces)
    return text if pre else " ".join(text.split())


def own_runs(block: Any, blocks: Sequence[Any]) -> list[str] | None:
    """The own text of ``block`` cut at its child blocks: ``len(block.children) + 1`` strings,
    run ``k`` the own text between child block ``k - 1`` and child block ``k`` (run 0 before
    the first, the last after the last), each joined as the block's text is (white space
    collapsed; verbatim in ``<pre>``). ``None`` when the block has no child blocks or no own
    text, or when the runs do not make the block's text (its tree changed since it was cut
    into blocks): the caller then reads the whole text as one run before the children.

    ``block`` and ``blocks`` are :class:`~pagesieve.blocks.segment.Block` objects whose
    elements are still in the page's tree (read before the article prunes it). The walk
    attributes text as :func:`~pagesieve.blocks.segment.segment` does: an element's text and
    tail belong to the block that holds the element; a child block's tail to this block; the
    text of comments and processing instructions to none (their tails count).
    """
    if not block.children or not block.chars:
        return None
    kids = {blocks[c].element: k for k, c in enumerate(block.children)}
    runs: list[list[str]] = [[] for _ in range(len(block.children) + 1)]
    slot = 0
    top = block.element
    if top.text:
        runs[0].append(top.text)
    # Open non-block elements with their child iterators; an element's tail is taken when its
    # subtree is done (a child block's subtree is not walked: its text is its own).
    stack: list[tuple[Any, Any]] = [(top, iter(top))]
    while stack:
        element, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if element is not top and element.tail:
                runs[slot].append(element.tail)
            continue
        k = kids.get(child)
        if k is not None:
            slot = k + 1
            if child.tail:
                runs[slot].append(child.tail)
        elif child.tag.__class__ is not str:  # a comment or processing instruction: its tail alone
            if child.tail:
                runs[slot].append(child.tail)
        else:
            if child.text:
                runs[slot].append(child.text)
            stack.append((child, iter(child)))
    flat = [p for run in runs for p in run]
    if _join(flat, block.pre) != block.text:
        return None
    return [_join(run, block.pre) for run in runs]
