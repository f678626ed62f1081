"""The plain text of an article: its kept blocks' text in the page's order, captions left out
(:func:`blocks_text`). The article's HTML and Markdown are :mod:`pagesieve.article.render`'s."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pagesieve.blocks.runs import own_runs
from pagesieve.blocks.segment import inside_tag


def caption_blocks(blocks: Sequence[Any]) -> list[bool]:
    """Per block (document order): True for a ``<figcaption>`` block and every block inside one
    (:func:`~pagesieve.blocks.segment.inside_tag`). ``blocks``: objects with ``index``, ``tag``
    and ``parent`` (a :class:`~pagesieve.blocks.segment.Block` or a
    :class:`~pagesieve.templates.evidence.BlockFacts`)."""
    return inside_tag(blocks, "figcaption")


def _runs(block: Any, blocks: Sequence[Any]) -> list[str] | None:
    """The own-text runs of ``block``: what its facts hold (``runs`` of a
    :class:`~pagesieve.templates.evidence.BlockFacts`), else :func:`own_runs` of its tree."""
    if hasattr(block, "element"):
        return own_runs(block, blocks) if block.children else None
    return getattr(block, "runs", None)


def _children(block: Any, blocks: Sequence[Any]) -> list[int]:
    """The indices of ``block``'s child blocks: its ``children``, or for
    :class:`~pagesieve.templates.evidence.BlockFacts` (rarely asked: a block with runs) the
    blocks whose parent it is."""
    if hasattr(block, "children"):
        return block.children
    return [b.index for b in blocks[block.index + 1:] if b.parent == block.index]


def _level(block: Any, blocks: Sequence[Any]) -> int:
    """How many blocks enclose ``block``."""
    level = 0
    while block.parent >= 0:
        block = blocks[block.parent]
        level += 1
    return level


def text_lines(blocks: Sequence[Any], keep: Sequence[bool]) -> list[tuple[int, str]]:
    """The lines of :func:`blocks_text` with the block each comes from: ``(block index, line)``
    in the page's order. Each kept block that is no caption (:func:`caption_blocks`) gives its
    own text; a block's text written between its child blocks
    (:func:`~pagesieve.blocks.runs.own_runs`) gives one line per run, each in its place among
    the children's lines (big9's BBC pages of 2005 hold their paragraphs so), so the text reads
    in the order the page and the reader's HTML show. A ``pre`` block's text keeps its line
    breaks (one entry, which may hold several lines).

    ``blocks``: :class:`~pagesieve.blocks.segment.Block` objects with their tree (read before
    the article prunes it) or :class:`~pagesieve.templates.evidence.BlockFacts`, document
    order (a block before the blocks inside it), ``blocks[i].index == i``.

    One pass in document order: a run after child block ``k - 1`` waits until the pass reaches
    child ``k`` (the last run: the first block past the block's subtree); runs that wait for
    the same block come out deepest block first, as their subtrees close.
    """
    caption = caption_blocks(blocks)
    lines: list[tuple[int, str]] = []
    waiting: dict[int, list[tuple[int, int, str]]] = {}  # block index -> (-level, block, run)

    def add(index: int, text: str, pre: bool) -> None:
        if text.strip():
            lines.append((index, text.strip("\n") if pre else text))

    def release(position: int) -> None:
        for _level_, index, text in sorted(waiting.pop(position), key=lambda w: w[0]):
            add(index, text, blocks[index].pre)

    for b in blocks:
        i = b.index
        if waiting and i in waiting:
            release(i)
        if not keep[i] or caption[i] or not b.chars:
            continue
        runs = _runs(b, blocks)
        if runs is None:
            add(i, b.text, b.pre)
            continue
        add(i, runs[0], b.pre)
        children = _children(b, blocks)
        last = children[-1]
        while True:  # the last block of the subtree: the run after the children waits past it
            inner = _children(blocks[last], blocks)
            if not inner:
                break
            last = inner[-1]
        level = -_level(b, blocks)
        for k, run in enumerate(runs[1:], start=1):
            if run:
                waiting.setdefault(children[k] if k < len(children) else last + 1, []).append((level, i, run))
    for position in sorted(waiting):
        release(position)
    return lines


def blocks_text(blocks: Sequence[Any], keep: Sequence[bool]) -> str:
    """Plain text of the kept blocks, in the page's order (:func:`text_lines`): one line per
    block, or per run of a block's own text between its child blocks (``pre`` keeps its own
    line breaks), figure captions left out (:func:`caption_blocks`).

    A caption belongs to its picture: the article's HTML and Markdown keep each figure whole,
    image and caption, as Firefox Reader View does, while the text (what is read, indexed,
    saved as text and written to a crawl's rows) holds the story alone. Measured on the held-out
    pages of every dataset (issue 47; ``models/README.md``, "Kept noise"): big9 +0.0018,
    wcxb_dev +0.0008, dragnet +0.0001, readability -0.0008 (within its standard error, 0.0045),
    the others unchanged; trafilatura leaves captions out of its text too.
    """
    return "\n".join(line for _i, line in text_lines(blocks, keep))
