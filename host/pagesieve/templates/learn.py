"""What a page contributes to its site's templates: :class:`PageSummary`.

Learning (:meth:`pagesieve.templates.store.TemplateStore.learn`) and extraction both work on the
pre-processed page (seed 004 §2.2 (a), :func:`pagesieve.page.preprocess.preprocess`), so that a
leaf or a block fingerprint learned from one page is computed the same way on the next.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from pagesieve.blocks.segment import Block, segment
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
    """

    site: str | None
    url: str | None
    leaves: list[tuple[str, str]]
    fingerprints: list[int]
    shapes: list[bytes] = field(default_factory=list)


def shape_key(path_key: str) -> bytes:
    """The stored form of a block's tag path (:attr:`Signature.key
    <pagesieve.corrections.signature.Signature.key>`): BLAKE2b, 8 bytes. Two paths share a key
    exactly when they are equal (up to hash collisions, about one in 2^64 per pair); the store
    keeps the hash, not the class names."""
    return hashlib.blake2b(path_key.encode("utf-8", "surrogatepass"), digest_size=8).digest()


def page_shapes(page: Page, blocks: list[Block]) -> list[bytes]:
    """The distinct :func:`shape_key` of the tag paths of ``blocks`` (the body's own block left
    out), sorted. ``page`` must be pre-processed and ``blocks`` its segmentation. Cost: one step
    per element (:class:`~pagesieve.corrections.signature.PathIndex` memoises on the parent)."""
    paths = PathIndex(page)
    return sorted({shape_key(" > ".join(paths.path(b.element))) for b in blocks if b.parent >= 0})


def summarise(page: Page, blocks: list[Block] | None = None, fingerprints: bool = True,
              leaves: list[tuple[str, str]] | None = None, shapes: bool = True) -> PageSummary:
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
    """
    if blocks is None:
        preprocess(page)
        blocks = segment(page.root, positions=page.positions())
    if blocks and leaves is None:
        leaves = page_leaves(blocks[0].element)
    return PageSummary(
        site=site_of(page.url),
        url=page.url,
        leaves=(leaves + block_texts(blocks)) if blocks else [],
        fingerprints=block_fingerprints(blocks) if fingerprints else [],
        shapes=page_shapes(page, blocks) if shapes and blocks else [],
    )
