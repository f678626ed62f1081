"""Structural signatures of blocks: what a correction remembers of the block it names.

A correction must find "the same block" on the next page of the site, where ids and class
names made by build tools differ from page to page (uBlock Origin's picker stores a literal CSS
selector, which such names break). The signature of an element is its **tag path** from
``<body>`` down to it, each step written ``tag.class1.class2#id`` with only the *stable* class
and id tokens (:func:`stable_token`), plus its VL_PS **box zone** (seed 003,
:func:`pagesieve.blocks.layout.zone_of`) when the page was rendered.

Two elements have the same signature iff their step lists are equal and, when both have a zone,
their zones are equal. Sibling positions are left out on purpose: a rule made on one sidebar
teaser applies to every teaser of the same kind, on this page and on later pages. Where that
would be wrong (one boilerplate paragraph among the story's look-alike paragraphs), the rule is
*anchored* on the block's text as well (:func:`text_anchor`; :mod:`pagesieve.corrections.rules`).

A correction also remembers the **kind of text** of its block (:func:`text_kind`): a list of links
or a run of sentences. Sites style every list of a story body alike (bbc.co.uk:
``ul.story-body__unordered-list`` holds both the "related stories" links inside a story and the
story's own bullet points), so a rule made on one kind must not act on the other. Likewise the
**pictures** of its block (:func:`picture_kind`): bbc.co.uk's story body lays out a captioned
photo and a fact box with the same ``<table>``, and a rule made on the photo must not hide the
fact boxes.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from lxml import etree

from pagesieve.blocks.layout import page_size, zone_of
from pagesieve.page.model import NODE_ID_ATTR, Page

_SEPARATORS = re.compile(r"[-_:]+")
MAX_TOKENS = 8
"""Stable class tokens kept per step (the first after sorting); utility-class pages carry dozens."""

HASH_MAX_LEN = 10
"""Longest segment tested for a case-alternating hash (:func:`is_hash_run`)."""

HASH_MIN_CASE_CHANGES = 3
"""Case changes from which a short segment is a generated hash: ``bdVaJa`` and ``kNNfBx``
(styled-components) have 4, ``AxjAm`` 3; words in camelCase (``navBar``, ``mainContent``) have
at most 2 in 10 characters."""


POST_TERM_PREFIXES = ("category-", "tag-")
"""Class prefixes WordPress's ``post_class()`` makes of a post's own categories and tags
(``category-architecture``, ``tag-the-charmer``; developer.wordpress.org, ``get_post_class``),
beside ``hentry`` and ``type-post``, which every post's element carries. They differ from post
to post of one site, so a step keeps them only on an element without those two marks
(:func:`step_of`): a correction on a post's breadcrumb (dragnet's freshome.com,
``div.hentry.post.tag-the-charmer > div#crumbs``) named only the posts with the same tags.
``eval dragnet --split all --history all --corrections 3`` (2026-12-06): six sites gained
(freshome.com 0.975 -> 1.000, gadgetwise.blogs.nytimes.com 0.955 -> 1.000, www.danwei.com
0.967 -> 1.000), none lost; the median over the 30 sites of 10 pages 0.9819 -> 0.9863."""


COMMENT_PLACE = frozenset({"even", "odd", "alt", "byuser", "bypostauthor", "parent"})
"""Classes WordPress's ``comment_class()`` gives a comment by its place and author, beside
``comment``: even and odd rows, replies, comments by registered users or the post's author
(developer.wordpress.org, ``get_comment_class``). A step of an element with the class
``comment`` leaves them out, and the :data:`COMMENT_PLACE_PREFIXES` ones, so that a correction
on one comment names them all, not every other one (dragnet's randfishkin.com: three "keep"
labels, one per parity, 0.859 -> 0.909 with ``--corrections 3``; no other site moved)."""

COMMENT_PLACE_PREFIXES = ("thread-", "comment-author-")
"""Prefixes of the same: ``thread-even`` / ``thread-odd`` / ``thread-alt``, ``comment-author-NAME``."""


def _marks_a_post(classes) -> bool:
    """True when a step's stable class tokens hold WordPress's post marks (``hentry``, ``type-*``)."""
    return any(c == "hentry" or c.startswith("type-") for c in classes)


def _lasting(classes: list[str]) -> list[str]:
    """``classes`` (stable tokens) less those that differ from post to post or comment to
    comment on one WordPress site (:data:`POST_TERM_PREFIXES`, :data:`COMMENT_PLACE`)."""
    if _marks_a_post(classes):
        classes = [c for c in classes if not c.startswith(POST_TERM_PREFIXES)]
    if "comment" in classes:
        classes = [c for c in classes if c not in COMMENT_PLACE and not c.startswith(COMMENT_PLACE_PREFIXES)]
    return classes


def is_hash_run(segment: str) -> bool:
    """True when ``segment`` (letters only) looks machine-made: at most :data:`HASH_MAX_LEN`
    characters with at least :data:`HASH_MIN_CASE_CHANGES` changes between lower and upper case."""
    if len(segment) > HASH_MAX_LEN:
        return False
    changes = sum(1 for a, b in zip(segment, segment[1:]) if a.isupper() != b.isupper() and a.isalpha() and b.isalpha())
    return changes >= HASH_MIN_CASE_CHANGES


def stable_token(token: str) -> str:
    """The stable part of one class or id token, lower case, ``""`` when nothing is left.

    The token is cut at ``-``, ``_`` and ``:``; segments holding a digit or a hash run
    (:func:`is_hash_run`) are dropped and the rest joined with ``-``. So CSS-module names keep
    their readable part (``Header_title__3xYz1`` -> ``header-title``), and generated names
    vanish (``css-1q2w3e`` -> ``css``, ``sc-bdVaJa`` -> ``sc``, ``x7f3a9`` -> ``""``).
    """
    kept = [s for s in _SEPARATORS.split(token) if s and not any(c.isdigit() for c in s) and not is_hash_run(s)]
    return "-".join(kept).lower()


def step_of(element: etree._Element, legacy: bool = False) -> str:
    """One step of a tag path: ``tag`` + ``.class`` per stable class token (sorted, unique, at
    most :data:`MAX_TOKENS`) + ``#id`` when the id has a stable part. A WordPress post's
    category and tag classes and a comment's place classes are left out
    (:data:`POST_TERM_PREFIXES`, :data:`COMMENT_PLACE`) unless ``legacy``: the steps of labels
    saved before 2026-12-06 (:func:`is_legacy_path`) kept them."""
    tag = element.tag if isinstance(element.tag, str) else "?"
    classes = sorted({t for t in (stable_token(c) for c in (element.get("class") or "").split()) if t})
    if not legacy:
        classes = _lasting(classes)
    step = tag + "".join("." + c for c in classes[:MAX_TOKENS])
    ident = stable_token(element.get("id") or "")
    return step + ("#" + ident if ident else "")


@dataclass(frozen=True, slots=True)
class Signature:
    """The structural signature of an element.

    Attributes:
        path: steps from the child of ``<body>`` down to the element (``()`` for the body).
        zone: the VL_PS zone of the element's box (``"header"``, ``"footer"``, ``"left"``,
            ``"right"``, ``"center"``), or ``None`` when the page has no layout.
    """

    path: tuple[str, ...]
    zone: str | None = None

    @property
    def key(self) -> str:
        """The path as one string (what rules are looked up by)."""
        return " > ".join(self.path)

    def matches(self, path_key: str, zone: str | None) -> bool:
        """True when an element with ``path_key`` and ``zone`` has this signature."""
        return path_key == self.key and (self.zone is None or zone is None or zone == self.zone)

    def describe(self) -> str:
        """Short human form: the last three steps, e.g. ``div.sidebar > ul.links > li``."""
        tail = self.path[-3:]
        text = " > ".join(tail) if tail else "body"
        return ("… > " if len(self.path) > 3 else "") + text + (f" ({self.zone})" if self.zone else "")


LINK_LIST_SHARE = 0.5
"""Share of a block's text inside links above which the block is a list of links (more than
half of its characters are link text). The cut is Readability.js's for "mostly links"
(``_cleanConditionally``: an element of weight >= 25 with ``linkDensity > 0.5`` is removed). On
big9's bbc.co.uk pages it separates the related-stories lists of the story body (share 1.0)
from the story's bullet points (0.0)."""


def link_share(block) -> float | None:
    """Share (0 to 1) of the text of ``block``'s subtree inside ``<a>``: its ``sub_link_chars``
    over its ``sub_chars`` (:class:`pagesieve.blocks.segment.Block`, characters as the segmenter
    counts them); ``None`` when the subtree has no text (an image, an empty box)."""
    return block.sub_link_chars / block.sub_chars if block.sub_chars > 0 else None


def text_kind(share: float | None) -> str | None:
    """The kind of text of a block whose :func:`link_share` is ``share``: ``"links"`` above
    :data:`LINK_LIST_SHARE`, else ``"text"``; ``None`` when ``share`` is ``None`` (not known)."""
    if share is None:
        return None
    return "links" if share > LINK_LIST_SHARE else "text"


PICTURE_TAGS = ("img", "video")
"""The elements counted as a block's pictures (:func:`picture_count`)."""


def picture_count(element: etree._Element) -> int:
    """How many pictures (:data:`PICTURE_TAGS`) ``element`` and its subtree hold."""
    return sum(1 for _ in element.iter(*PICTURE_TAGS))


def picture_kind(count: int | None) -> str | None:
    """The kind of a block by its :func:`picture_count`: ``"one"`` (a photo, with or without its
    caption) or ``"several"`` (a gallery, a box with icons); ``None`` when it holds none or when
    not known (a label stored before it was kept). On big9's bbc.co.uk pages the caption tables
    of the story body hold one picture and the fact boxes and pull quotes two to four (the
    quotation marks and bullets are images), under the same tag path
    (``td.storybody > table``). A block without pictures is of no kind: a teaser without its
    thumbnail is still the teaser the user hid."""
    if not count:
        return None
    return "one" if count == 1 else "several"


_NOT_LETTERS = re.compile(r"[\W\d_]+")
ANCHOR_CHARS = 300
"""Characters of normalised text a text anchor covers."""


def text_anchor(text: str) -> str | None:
    """A short key of a block's text for text-anchored rules: the text lower-cased, digits and
    punctuation dropped, white space collapsed, its first :data:`ANCHOR_CHARS` characters, hashed
    (BLAKE2b, 8 bytes, hex). "© 2005 The Associated Press" and "© 2006 The Associated Press"
    share a key. ``None`` for a text with no letters. Only the hash is stored."""
    norm = " ".join(_NOT_LETTERS.sub(" ", text.lower()).split())[:ANCHOR_CHARS]
    if not norm:
        return None
    return hashlib.blake2b(norm.encode("utf-8"), digest_size=8).hexdigest()


def is_legacy_path(path: tuple[str, ...]) -> bool:
    """True when a stored tag path was made before WordPress's post-to-post classes left the
    steps (:func:`step_of`): a step that holds one. Such a label is matched against the page's
    legacy paths (``PathIndex(page, legacy=True)``), so that what a user taught before keeps
    working where it did."""
    for step in path:
        classes = step.split("#", 1)[0].split(".")[1:]
        if _lasting(classes) != classes:
            return True
    return False


def legacy_index(page: Page, paths: list[tuple[str, ...]]) -> PathIndex | None:
    """The page's legacy :class:`PathIndex` when one of the labels' stored ``paths`` is legacy
    (:func:`is_legacy_path`), else ``None`` (no cost for labels saved since)."""
    return PathIndex(page, legacy=True) if any(is_legacy_path(p) for p in paths) else None


def path_keys(element: etree._Element, paths: PathIndex, legacy: PathIndex | None) -> tuple[str, ...]:
    """The keys a label's signature may have to name ``element``: its path key, and its legacy
    key (:func:`legacy_index`) where that differs."""
    key = " > ".join(paths.path(element))
    if legacy is None:
        return (key,)
    old = " > ".join(legacy.path(element))
    return (key,) if old == key else (key, old)


class PathIndex:
    """Tag-path keys of a page's elements, computed once per element (memoised on the parent).

    Args:
        page: the page (its tree after pre-processing, as blocks see it).
        legacy: the steps as labels saved before 2026-12-06 wrote them (:func:`step_of`).
    """

    def __init__(self, page: Page, legacy: bool = False) -> None:
        self.legacy = legacy
        self.page = page
        self._body = page.body
        self._keys: dict[etree._Element, tuple[str, ...]] = {self._body: ()}
        self._size = page_size(page)

    def path(self, element: etree._Element) -> tuple[str, ...]:
        """The tag path of ``element`` (``()`` for the body or anything outside it)."""
        found = self._keys.get(element)
        if found is not None:
            return found
        chain = []
        node = element
        while node is not None and node not in self._keys:
            chain.append(node)
            node = node.getparent()
        base = self._keys.get(node, ()) if node is not None else ()
        for el in reversed(chain):
            base = base + (step_of(el, self.legacy),)
            self._keys[el] = base
        return self._keys[element]

    def zone(self, element: etree._Element) -> str | None:
        """The VL_PS zone of the element's box, ``None`` without layout or box."""
        if self._size is None or not self.page.boxes:
            return None
        value = element.get(NODE_ID_ATTR)
        box = self.page.boxes.get(int(value)) if value is not None else None
        if box is None or (box.width <= 0 and box.height <= 0):
            return None
        return zone_of(box.x, box.y, box.width, box.height, *self._size)

    def signature(self, element: etree._Element) -> Signature:
        """The :class:`Signature` of ``element``."""
        return Signature(self.path(element), self.zone(element))
