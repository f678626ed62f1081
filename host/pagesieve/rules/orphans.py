"""Headings whose section is gone: :func:`drop_orphan_headings`.

A heading names the section that follows it. When every block of that section was judged noise
(a share bar under "Share this page", a list of links under "Related articles", a form under
"Contact us"), the heading alone stays in the article and opens or closes the reader's body with
a title of nothing (issue 52: on a WCXB public-health article, "Share this page" opened the
body). Readability.js removes such headings too (``_cleanHeaders`` of headers with no content
after them, and the empty-section checks of ``_prepArticle``).
"""

from __future__ import annotations

from collections.abc import Sequence

from pagesieve.blocks.segment import HEADING_TAGS
from pagesieve.removal import Removal, RemovalLog


def _level(tag: str) -> int:
    return int(tag[1])


def drop_orphan_headings(blocks: Sequence, keep: list[bool], log: RemovalLog | None = None) -> int:
    """Judge noise, in place, every kept heading (``h1``-``h6``) whose section holds no kept
    block with text and at least one removed block with text; returns how many.

    Args:
        blocks: the page's blocks, document order (:class:`~pagesieve.blocks.segment.Block`, or
            :class:`~pagesieve.templates.evidence.BlockFacts`: ``index``, ``tag``, ``chars``,
            ``parent`` are read).
        keep: per block, True if it is main content.
        log: where each drop is recorded (post-rule ``"orphan-heading"``, evidence the
            characters of the section removed), or ``None``.

    A heading's section is the blocks after it within the block that holds it (those inside the
    heading excepted), up to the next heading of the same or a higher level (kept or not): a
    "Share this page" heading in its share box names the box, not the story after the box. The
    removed block is what makes the heading an orphan: a heading with no block of its own after
    it (one of a listing's headlines, one after another) is what the page shows, and stays.
    """
    n = len(blocks)
    dropped = 0
    for b in blocks:
        if not keep[b.index] or b.tag not in HEADING_TAGS or not b.chars:
            continue
        level = _level(b.tag)
        inside = {b.index}  # the heading and the blocks inside it
        within = {b.parent, b.index}  # the block that holds the heading, and what is inside that
        kept_text = removed_text = 0
        j = b.index + 1
        while j < n:
            other = blocks[j]
            if other.parent in inside:
                inside.add(j)
                within.add(j)
                j += 1
                continue
            if b.parent >= 0 and other.parent not in within:  # out of the heading's container
                break
            within.add(j)
            if other.tag in HEADING_TAGS and _level(other.tag) <= level:
                break
            if other.chars:
                if keep[j] and other.tag not in HEADING_TAGS:
                    kept_text += 1
                    break
                if not keep[j]:
                    removed_text += other.chars
            j += 1
        if kept_text == 0 and removed_text > 0:
            keep[b.index] = False
            dropped += 1
            if log is not None:
                log.drop(b.index, Removal("post-rule", "orphan-heading", {"section_chars": removed_text}))
    return dropped
