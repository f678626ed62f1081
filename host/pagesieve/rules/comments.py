"""Readers' comments under an article: dropped unless the page is a forum thread
(:func:`drop_comment_sections`)."""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from pagesieve.blocks.segment import HEADING_TAGS, Block, subtree_ends
from pagesieve.blocks.features import comment_mark
from pagesieve.classify.page_type import likeliest_type
from pagesieve.removal import Removal, RemovalLog

COMMENT_SECTION_RE = re.compile("comment(?!ary)|disqus")
"""A block whose lower-cased class or id matches this holds readers' comments (``#comments``,
``div.comment``, ``#disqus_thread``); the names Mozilla Readability's ``unlikelyCandidates``
uses for comments, but not "commentary" (an opinion column is an article). Narrower than
:data:`pagesieve.blocks.features.COMMENT_RE`: "reply" and "response" also name the posts of a forum
thread, which are its content."""

COMMENT_SECTION_MAX_SHARE = 0.5
"""A block marked as comments that holds this share of the page's text or more is taken for the
page itself (a forum thread, or a class name such as ``comments-open`` on a page wrapper)."""

HEADING_SECTION_MIN_MARKS = 2
"""A section opened by a heading named as comments (``<h2 id="comments">``, its comments flat
siblings after it, as Movable Type and TypePad blogs write them) is a comment section only when
at least this many of its blocks are comment marks (:func:`pagesieve.blocks.features.is_comment_mark`:
"Posted by: Ann at September 11, 2012 11:12 AM", "Dave said:"). Markdown renderers give every
heading an id made from its text, so a documentation page's section titled "Comments" also has
``<h2 id="comments">``; its paragraphs carry no such marks and stay."""

ARTICLE_MIN_CHARS = 500
"""Comment sections are dropped only when the blocks kept outside them hold at least this many
characters: the page has an article of its own. Mozilla Readability strips its unlikely
candidates (comments among them) the same way, and reads the page again without stripping when
less than 500 characters (its ``charThreshold``) are left; a forum thread, all of it in comment
containers, keeps its posts this way (wcxb_dev forums 0545 and 0579)."""


def is_forum(page_type: np.ndarray | None) -> bool | None:
    """Whether the page-type stage (:mod:`pagesieve.classify.page_type`) names ``forum`` the likeliest of
    the seven WCXB page types for a page, from its probabilities ``(len(PAGE_TYPES),)``;
    ``None`` when the model has no page-type stage."""
    kind = likeliest_type(page_type)
    return None if kind is None else kind == "forum"


def drop_comment_sections(blocks: list[Block], keep: list[bool], log: RemovalLog | None = None,
                          forum: bool | None = None) -> int:
    """Judge the blocks inside comment sections noise, in place, unless the page may be a forum
    thread; returns how many kept blocks were dropped (each logged in ``log`` as post-rule
    ``"comment-section"``, with the section's ``class``/``id`` and its share of the page's text).

    A page may be a thread when the blocks kept outside its comment sections hold less than
    :data:`ARTICLE_MIN_CHARS`, unless a page-type stage names another type the likeliest
    (``forum`` false, :func:`is_forum`; ``None`` without a page-type stage). The page type serves the class of
    blog posts whose own text is short (a video, a photo, a one-line question to readers) under
    a long comment thread: by length they look like a forum, and their comments were kept whole
    (dragnet's paulocoelhoblog.com posts, precision 0.00-0.17 with the comments kept). When
    nothing at all is kept outside the comment sections, they stay whatever the page type says:
    an empty body is never the better answer, and the page type errs there (wcxb_dev/0575, a
    lobste.rs thread taken for an article at 0.75, whose reader was empty: word F1 0.00 -> 0.48, precision 1.00;
    over every page of the eight datasets, the only page that changed; held-out gate 2026-12-06:
    wcxb_dev 0.8605 -> 0.8612, the others unchanged to six decimals). The class: threads whose
    every kept block lies in comment containers. Its cross-validated gain was not measured apart:
    with :mod:`pagesieve.page.streaming`, the dev gate (``eval --cv 5 wcxb_dev``) went 0.8528 -> 0.8589. The short posts above keep
    their headline, so this does not reach them.

    A comment section is a block other than the outermost whose class or id matches
    :data:`COMMENT_SECTION_RE` and that holds less than :data:`COMMENT_SECTION_MAX_SHARE` of the
    page's text; or, for a heading whose class or id matches, the section the heading opens
    (:func:`heading_section`) when :data:`HEADING_SECTION_MIN_MARKS` of its blocks carry comment
    marks, whatever its share (a popular post's comments outweigh it many times: dragnet R187,
    1,700 characters of post and 65,000 of comments). Readers' comments are not what a reader
    mode shows (Firefox Reader View and trafilatura leave them out by default), but they are
    long, well-written paragraphs, so the classifier keeps many of them, the more so as one
    training dataset (cleaneval) counts them as content. Measured with ``pagesieve-dev eval`` on the
    held-out pages: dragnet 0.917 -> 0.921, l3s_gn1 0.942 -> 0.945, wcxb_dev 0.852 -> 0.854,
    cleaneval 0.923 -> 0.922 (its truth keeps comments), the others unchanged. Heading sections
    added later: dragnet 0.9293 -> 0.9339 (R187 0.06 -> 0.96, R196 0.21 -> 0.99), the other seven
    datasets unchanged to four decimals (of all pages, only cleaneval's final_205, not held out,
    changed: 0.99 -> 0.38, its truth keeping 25 comments).

    Dev gate (``--cv-ablate comments``, 2026-11-25 model): wcxb_dev CV 0.8489 without, 0.8488
    with (listings lose 0.003, articles gain 0.0001); held out, the page-type test took dragnet
    from 0.919 to 0.930.
    """
    if not blocks:
        return 0
    total = blocks[0].sub_chars
    inside, section_of = comment_sections(blocks)
    outside = sum(b.chars for b in blocks if keep[b.index] and not inside[b.index])
    if outside < ARTICLE_MIN_CHARS and (forum is not False or outside == 0):
        return 0
    dropped = 0
    for b in blocks:
        if inside[b.index] and keep[b.index]:
            keep[b.index] = False
            dropped += 1
            if log is not None:
                log.drop(b.index, _comment_reason(blocks[section_of[b.index]], total))
    return dropped


def comment_sections(blocks: list[Block]) -> tuple[list[bool], list[int]]:
    """The comment sections of a page's ``blocks`` (non-empty, document order), as
    :func:`drop_comment_sections` defines them: ``(inside, section_of)``, per block whether it
    lies inside a section, and the index of the block that opened its section (-1 outside)."""
    total = blocks[0].sub_chars
    inside = [False] * len(blocks)
    section_of = [-1] * len(blocks)  # the block that opened the section each block is inside
    ends = None  # subtree_ends(blocks), made once, if ever
    for b in blocks:
        if b.parent < 0:
            continue
        if inside[b.parent]:
            inside[b.index] = True
            section_of[b.index] = section_of[b.parent]
            continue
        element = b.element
        # the class as the features read it (Block.class_attr), one lxml call less a block: this
        # function in 0.88 of its time (104 dataset pages, ten rounds in one process, 2026-11-27);
        # the class read and the cache of _names_comments looked up here, not through their
        # functions: 0.80-0.96 of its time (180 small dataset pages, interleaved in one process)
        cls = b._class
        names = b.class_attr if cls is False else cls, element.get("id")
        if not (names[0] or names[1]):
            continue
        found = _COMMENT_NAMES.get(names)
        if found is None:
            found = _names_comments(names)
        if found:
            if element.tag in HEADING_TAGS:
                section = heading_section(blocks, b)
                if ends is None:
                    ends = subtree_ends(blocks)
                if comment_marks(blocks, range(section[0], ends[section[-1]] + 1)) >= HEADING_SECTION_MIN_MARKS:
                    for i in section:
                        inside[i] = True
                        section_of[i] = b.index
            elif b.sub_chars < COMMENT_SECTION_MAX_SHARE * total:
                inside[b.index] = True
                section_of[b.index] = b.index
    return inside, section_of


_COMMENT_NAMES: dict[tuple[str | None, str | None], bool] = {}


def _names_comments(names: tuple[str | None, str | None]) -> bool:
    """Whether a block's ``(class, id)`` matches :data:`COMMENT_SECTION_RE` (lower-cased, joined
    by a space). Cached per pair (a page repeats its class names; emptied at 8,192 pairs)."""
    found = _COMMENT_NAMES.get(names)
    if found is None:
        if len(_COMMENT_NAMES) >= 8192:
            _COMMENT_NAMES.clear()
        found = _COMMENT_NAMES[names] = COMMENT_SECTION_RE.search(" ".join(n for n in names if n).lower()) is not None
    return found


def _comment_reason(opener: Block, total: int) -> Removal:
    """The :class:`~pagesieve.removal.Removal` of a block in the comment section ``opener``
    opened (a comments container, or a heading named as comments), on a page of ``total``
    characters."""
    names = " ".join(n for n in (opener.element.get("class"), opener.element.get("id")) if n)
    share = opener.sub_chars / total if total else 0.0
    return Removal("post-rule", "comment-section", {"marked": f"<{opener.tag}> {names[:60]}", "share": round(share, 3)})


def comment_marks(blocks: list[Block], indices: Iterable[int]) -> int:
    """How many of the blocks ``indices`` are comment marks
    (:func:`pagesieve.blocks.features.is_comment_mark`, as the classifier's features count them)."""
    return sum(1 for i in indices if comment_mark(blocks[i]))  # is_comment_mark(blocks[i], blocks[i].text), made once


def heading_section(blocks: list[Block], heading: Block) -> list[int]:
    """The blocks of the section a heading opens without a sectioning element around it: the
    heading and the sibling blocks after it (same parent block), up to the next sibling heading
    of the same or a higher rank (``<h2>`` ends at the next ``<h1>`` or ``<h2>``), as the
    implied sections of the HTML outline (HTML Living Standard §4.3.11, headings and outlines).
    Returns block indices, the heading first; nested blocks are covered by their ancestors."""
    rank = int(heading.tag[1])
    siblings = blocks[heading.parent].children
    out = []
    for i in siblings[siblings.index(heading.index):]:
        tag = blocks[i].tag
        if out and tag in HEADING_TAGS and int(tag[1]) <= rank:
            break
        out.append(i)
    return out
