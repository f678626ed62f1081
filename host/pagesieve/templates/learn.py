"""What a page contributes to its site's templates: :class:`PageSummary`.

Learning (:meth:`pagesieve.templates.store.TemplateStore.learn`) and extraction both work on the
pre-processed page (seed 004 §2.2 (a), :func:`pagesieve.page.preprocess.preprocess`), so that a
leaf or a block fingerprint learned from one page is computed the same way on the next.
"""

from __future__ import annotations

from dataclasses import dataclass

from pagesieve.blocks.segment import Block, segment
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
    """

    site: str | None
    url: str | None
    leaves: list[tuple[str, str]]
    fingerprints: list[int]


def summarise(page: Page, blocks: list[Block] | None = None, fingerprints: bool = True,
              leaves: list[tuple[str, str]] | None = None) -> PageSummary:
    """The :class:`PageSummary` of ``page``.

    Args:
        page: a page; it is pre-processed in place unless ``blocks`` is given, in which case
            it must already be pre-processed and ``blocks`` be its segmentation.
        fingerprints: compute the block fingerprints (False: an empty list, for a learner
            that will not use the layout diff; about a fifth of the cost of a summary).
        leaves: :func:`~pagesieve.templates.library.page_leaves` of ``blocks[0].element``
            when the caller has read them already (with ``blocks`` only), so that they are not
            read twice.
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
    )
