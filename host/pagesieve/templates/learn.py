"""What a page contributes to its site's templates: :class:`PageSummary`.

Learning (:meth:`pagesieve.templates.store.TemplateStore.learn`) and extraction both work on the
pre-processed page (seed 004 §2.2 (a), :func:`pagesieve.page.preprocess.preprocess`), so that a
leaf or a block fingerprint learned from one page is computed the same way on the next.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from pagesieve.blocks.segment import Block, segment, subtree_ends
from pagesieve.corrections.signature import PathIndex
from pagesieve.page.model import Page
from pagesieve.page.preprocess import preprocess
from pagesieve.templates.diff import block_fingerprints
from pagesieve.templates.library import block_texts, page_leaves
from pagesieve.templates.urls import site_of


@dataclass(slots=True)
class PageSummary:
    """The parts of one page the template store keeps or counts.

    Attributes:
        site: :func:`~pagesieve.templates.urls.site_of` the URL (``None``: nothing is learned).
        url: the page URL.
        leaves: ``(tag, text)`` of its leaves (seed 000 §4), document order, then of its
            blocks with text around inline elements
            (:func:`~pagesieve.templates.library.block_texts`).
        fingerprints: the fingerprint of every block subtree (seed 004, see
            :func:`~pagesieve.templates.diff.block_fingerprints`).
        shapes: the distinct :func:`shape_key` of its blocks' tag paths (what a correction
            names, :mod:`pagesieve.corrections.signature`), so that the store can tell on how
            many of the site's pages a corrected kind of block appears (its *reach*, issue 54).
        article_shapes: those of ``shapes`` whose blocks held the page's article when it was
            judged (:func:`article_shapes`; empty when the page was learned without a verdict),
            so that the store can tell on how many pages a "hide" of that kind would take the
            article away, and stays off (issue 54).
    """

    site: str | None
    url: str | None
    leaves: list[tuple[str, str]]
    fingerprints: list[int]
    shapes: list[bytes] = field(default_factory=list)
    article_shapes: list[bytes] = field(default_factory=list)


def shape_key(path_key: str) -> bytes:
    """The stored form of a block's tag path (:attr:`Signature.key
    <pagesieve.corrections.signature.Signature.key>`): BLAKE2b, 8 bytes. Two paths share a key
    exactly when they are equal (up to hash collisions, about one in 2^64 per pair); the store
    keeps the hash, not the class names."""
    return hashlib.blake2b(path_key.encode("utf-8", "surrogatepass"), digest_size=8).digest()


def page_shapes(page: Page, blocks: list[Block], paths: PathIndex | None = None) -> list[bytes]:
    """The distinct :func:`shape_key` of the tag paths of ``blocks`` (the body's own block left
    out), sorted. ``page`` must be pre-processed and ``blocks`` its segmentation. Cost: one step
    per element (:class:`~pagesieve.corrections.signature.PathIndex` memoises on the parent;
    ``paths``: the page's index when the caller has one, so that the memo is shared)."""
    paths = paths if paths is not None else PathIndex(page)
    return sorted({shape_key(" > ".join(paths.path(b.element))) for b in blocks if b.parent >= 0})


def article_shapes(page: Page, blocks: list[Block], keep: list[bool], paths: PathIndex | None = None) -> list[bytes]:
    """The distinct :func:`shape_key` of the tag paths whose blocks, with their subtrees, hold
    more than :data:`~pagesieve.corrections.rules.LOCAL_HIDE_SHARE` of the characters the page
    keeps (``keep``: per block, True = main content): the kinds of block a "hide" made on
    another page stays off here (:func:`pagesieve.corrections.rules.stays_local`), the wrappers
    of the article. Sorted; empty when the page keeps nothing. A match inside an earlier match
    of the same path counts once, as the rules match. ``paths`` as :func:`page_shapes`. The
    share is the rule's own, so the store's count and the rule agree: a page counted here is a
    page the rule stays off (up to its kind of text and zone, which the rule also reads)."""
    from pagesieve.corrections.rules import LOCAL_HIDE_SHARE

    kept = [b.chars if keep[b.index] else 0 for b in blocks]
    total = sum(kept)
    if total == 0:
        return []
    prefix = [0]
    for chars in kept:
        prefix.append(prefix[-1] + chars)
    last = subtree_ends(blocks)
    paths = paths if paths is not None else PathIndex(page)
    held: dict[str, int] = {}
    end_of: dict[str, int] = {}
    for b in blocks:
        if b.parent < 0:
            continue
        key = " > ".join(paths.path(b.element))
        if b.index <= end_of.get(key, -1):
            continue
        end_of[key] = last[b.index]
        held[key] = held.get(key, 0) + prefix[last[b.index] + 1] - prefix[b.index]
    return sorted({shape_key(key) for key, chars in held.items() if chars > LOCAL_HIDE_SHARE * total})


def summarise(page: Page, blocks: list[Block] | None = None, fingerprints: bool = True,
              leaves: list[tuple[str, str]] | None = None, shapes: bool = True,
              keep: list[bool] | None = None) -> PageSummary:
    """The :class:`PageSummary` of ``page``.

    Args:
        page: a page; it is pre-processed in place unless ``blocks`` is given, in which case
            it must already be pre-processed and ``blocks`` be its segmentation.
        fingerprints: compute the block fingerprints (False: an empty list, for a learner
            that will not use the layout diff; about a fifth of the cost of a summary).
        leaves: :func:`~pagesieve.templates.library.page_leaves` of ``blocks[0].element``
            when the caller has read them already (with ``blocks`` only), so that they are not
            read twice.
        shapes: compute :func:`page_shapes` (False: an empty list, for a crawl, which makes
            no corrections).
        keep: the verdict the page was judged with (with ``blocks``; per block, True = main
            content), for :func:`article_shapes`; ``None``: none is counted.
    """
    if blocks is None:
        preprocess(page)
        blocks = segment(page.root, positions=page.positions())
    if blocks and leaves is None:
        leaves = page_leaves(blocks[0].element)
    paths = PathIndex(page) if shapes and blocks else None  # one memo of tag paths for both counts
    return PageSummary(
        site=site_of(page.url),
        url=page.url,
        leaves=(leaves + block_texts(blocks)) if blocks else [],
        fingerprints=block_fingerprints(blocks) if fingerprints else [],
        shapes=page_shapes(page, blocks, paths) if paths is not None else [],
        article_shapes=article_shapes(page, blocks, keep, paths) if paths is not None and keep is not None else [],
    )
