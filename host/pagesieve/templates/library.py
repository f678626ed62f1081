"""The template library of Yan & Wang 2020 (seed 000 §4): a site's common noise, learned.

Leaf tags (elements with text and no element children) are counted across the pages of a site
in batches of :data:`BATCH_PAGES` (N1 = 10). At the end of a batch, every leaf seen on at least
:data:`MIN_FREQUENCY` (N2 = 3) of its pages becomes a template entry; the cache is cleared and
the next batch begins. Two leaves match when their tags are equal and their texts are
*similar*: edit distance ``D <= min(len(A), len(B)) // 8`` (§4: texts of up to 8 characters must
be equal, one more edit is allowed per further 8 characters). Cleaning (§7 step 2) deletes the
leaves of a page that match an entry, before the block classifier sees the page.

One extension of ours: the own text of a block that holds text around inline elements (a
copyright line with a link in it) is counted like a leaf (:func:`block_texts`), so that such a
line, repeated on every page of a site, becomes a template entry too.

One deliberate reading of the paper: a leaf's frequency counts *pages*, not occurrences. The
paper's step 2 increments the count for every matching tag, but its argument for N2 = 3 ("content
and personalised noise never reach frequency 3 in a batch of 10") only holds per page; counted
per occurrence, a page with ten "Reply" links would make "Reply" a template on its own.

Matching is indexed so that learning a page costs milliseconds, not a scan of the whole cache
per leaf: an exact ``(tag, text)`` dictionary first, then edit distance only against texts of
the same tag whose length is within the allowed number of edits (two texts more than ``k``
characters apart in length are more than ``k`` edits apart).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from lxml import etree
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from pagesieve.blocks.segment import Block
from pagesieve.page.preprocess import remove_keep_tail

BATCH_PAGES = 10
"""N1: pages per batch (seed 000 §4, "N1 取 10")."""

MIN_FREQUENCY = 3
"""N2: pages of a batch a leaf must appear on to become a template entry (seed 000 §4)."""

MAX_LEAF_CHARS = 2000
"""Leaves longer than this are not learned (a whole article in one element is never a
template, and edit distances over such texts cost milliseconds each)."""


def similar(a: str, b: str) -> bool:
    """Seed 000 §4 text similarity: Levenshtein distance <= min(len(a), len(b)) // 8."""
    limit = min(len(a), len(b)) // 8
    if limit == 0:
        return a == b
    return Levenshtein.distance(a, b, score_cutoff=limit) <= limit


def leaf_text(element: etree._Element) -> str | None:
    """The leaf text of ``element`` (white space collapsed) if it is a leaf, else ``None``."""
    if len(element) == 0:
        text = element.text
        if text and not text.isspace():
            return " ".join(text.split())
    return None


def page_leaves(root: etree._Element) -> list[tuple[str, str]]:
    """``(tag, text)`` of every leaf under ``root``: an element with no element children and
    some text; text with white space collapsed. Document order."""
    leaves = []
    for element in root.iter(etree.Element):
        text = leaf_text(element)
        if text is not None:
            leaves.append((element.tag, text))
    return leaves


BLOCK_TEXT_MIN_CHARS = 50
"""Shortest own text (characters) of a block that :func:`block_texts` offers the library.
Shorter lines that differ by a date or a number on every page ("by Paulo Coelho on July 21,
2012", 32 characters) are similar under the seed's edit-distance rule, so they became template
entries, and dragnet's truth counts them as article text: ``pagesieve-dev eval dragnet
--min-site-pages 5 --history all`` gave 0.938 with every block text, 0.947 from 50 characters
(0.944 without block texts)."""


def block_texts(blocks: Sequence[Block]) -> list[tuple[str, str]]:
    """``(tag, own text)`` of the blocks that hold text around inline elements.

    Ours, beside seed 000's leaves: a line such as "(c) 2005 The Associated Press. All rights
    reserved. ... Learn more about our <a>Privacy Policy</a>." is no leaf (it has a child
    element), so the seed's library only ever learns its link. A block (not in ``<pre>``)
    with at least one child element and :data:`BLOCK_TEXT_MIN_CHARS` characters of own text
    (:attr:`pagesieve.blocks.segment.Block.text`) is counted like a leaf, with the block's tag; a block
    without child elements is a leaf already. Measured with ``pagesieve-dev eval DATASET
    --min-site-pages 5 --history all`` (held-out pages): big9 0.979 -> 0.979, daniel 0.953 ->
    0.957, dragnet 0.944 -> 0.947; with ``--history 3``: big9 0.977 -> 0.977, daniel 0.945 ->
    0.947, dragnet 0.944 -> 0.945.
    """
    return [(b.element.tag, b.text) for b in blocks if is_text_block(b)]


def is_text_block(block: Block) -> bool:
    """True if :func:`block_texts` counts ``block``: own text of at least
    :data:`BLOCK_TEXT_MIN_CHARS` characters, a child element, not in ``<pre>``."""
    return block.chars >= BLOCK_TEXT_MIN_CHARS and len(block.element) > 0 and not block.pre


class LeafIndex:
    """``(tag, text)`` pairs with seed 000 §4 similarity lookup.

    :meth:`find` returns the position of the first added pair with the same tag and a similar
    text, or ``None``. Exact pairs are found by hashing. For the others, each tag keeps its
    texts ordered by length, and only the run whose length is within ``len(text) // 8`` of
    ``text`` is compared (a necessary condition: an edit distance is at least the difference
    of the lengths), in one rapidfuzz scan, so a lookup touches few texts.
    """

    __slots__ = ("_exact", "_by_tag", "items")

    def __init__(self) -> None:
        self.items: list[tuple[str, str]] = []
        self._exact: dict[tuple[str, str], int] = {}
        # tag -> (lengths ascending, texts, positions): three parallel lists
        self._by_tag: dict[str, tuple[list[int], list[str], list[int]]] = {}

    def __len__(self) -> int:
        return len(self.items)

    def add(self, tag: str, text: str) -> int:
        """Append a pair; returns its position."""
        k = len(self.items)
        self.items.append((tag, text))
        self._exact.setdefault((tag, text), k)
        run = self._by_tag.get(tag)
        if run is None:
            run = self._by_tag[tag] = ([], [], [])
        lengths, texts, positions = run
        at = bisect_right(lengths, len(text))  # after equal lengths: positions stay ascending among them
        lengths.insert(at, len(text))
        texts.insert(at, text)
        positions.insert(at, k)
        return k

    def find(self, tag: str, text: str) -> int | None:
        """Position of the earliest pair with tag ``tag`` and a text similar to ``text``."""
        k = self._exact.get((tag, text))
        if k is not None:
            return k
        n = len(text)
        limit = n // 8
        run = self._by_tag.get(tag)
        if limit == 0 or run is None:
            return None
        lengths, texts, positions = run
        # texts shorter than 9 characters are similar only when equal (cutoff 0): found above
        lo, hi = bisect_left(lengths, max(n - limit, 9)), bisect_right(lengths, n + limit)
        if lo >= hi:
            return None
        best = None
        for other, distance, at in process.extract(text, texts[lo:hi], scorer=Levenshtein.distance, score_cutoff=limit, limit=None):
            # seed 000: similar iff D <= min(len(a), len(b)) // 8 (limit is the bound for b >= a)
            if distance <= min(n, len(other)) // 8 and (best is None or positions[lo + at] < best):
                best = positions[lo + at]
        return best


@dataclass(slots=True)
class LeafEntry:
    """A leaf in the batch cache (seed 000 §4's set S): tag, text and page frequency F."""

    tag: str
    text: str
    frequency: int = 1


@dataclass(slots=True)
class TemplateLibrary:
    """One site's template library.

    Attributes:
        cache: the current batch's leaves (S), in the order first seen.
        pages_in_batch: pages learned in the current batch.
        entries: the persisted template entries ``(tag, text)``.
    """

    batch_pages: int = BATCH_PAGES
    min_frequency: int = MIN_FREQUENCY
    cache: list[LeafEntry] = field(default_factory=list)
    pages_in_batch: int = 0
    entries: list[tuple[str, str]] = field(default_factory=list)
    _cache_index: LeafIndex = field(default_factory=LeafIndex)
    _entry_index: LeafIndex = field(default_factory=LeafIndex)

    def __post_init__(self) -> None:
        if len(self._cache_index) != len(self.cache):
            self._cache_index = LeafIndex()
            for entry in self.cache:
                self._cache_index.add(entry.tag, entry.text)
        if len(self._entry_index) != len(self.entries):
            self._entry_index = LeafIndex()
            for tag, text in self.entries:
                self._entry_index.add(tag, text)

    def learn(self, leaves: Iterable[tuple[str, str]]) -> bool:
        """Count one page's leaves; returns True when this page closed a batch.

        Args:
            leaves: ``(tag, text)`` pairs of the page (see :func:`page_leaves`); leaves over
                :data:`MAX_LEAF_CHARS` characters are skipped.
        """
        counted: set[int] = set()
        for tag, text in leaves:
            if len(text) > MAX_LEAF_CHARS:
                continue
            match = self._cache_index.find(tag, text)
            if match is None:
                self.cache.append(LeafEntry(tag, text))
                counted.add(self._cache_index.add(tag, text))
            elif match not in counted:
                self.cache[match].frequency += 1
                counted.add(match)
        self.pages_in_batch += 1
        if self.pages_in_batch < self.batch_pages:
            return False
        self._close_batch()
        return True

    def _persist(self, cache: Iterable[LeafEntry]) -> None:
        """Seed 000 §4's end of a batch: each leaf of ``cache`` seen on :attr:`min_frequency`
        pages or more becomes an entry, unless an entry matches it already."""
        for entry in cache:
            if entry.frequency >= self.min_frequency and not self.is_template(entry.tag, entry.text, open_batch=False):
                self.entries.append((entry.tag, entry.text))
                self._entry_index.add(entry.tag, entry.text)

    def _close_batch(self) -> None:
        self._persist(self.cache)
        self.cache = []
        self._cache_index = LeafIndex()
        self.pages_in_batch = 0

    def merge(self, other: TemplateLibrary) -> None:
        """Fold ``other``, the same site's library learned from other pages, into this one.

        Ours, for a crawl cut into parts (:mod:`pagesieve.crawl.learn`): each part learns its
        pages of a site with :meth:`learn`, and the parts' libraries are merged.

        - Entries: those of ``other`` that match none of ours are appended.
        - Open batches: when the two hold at most :attr:`batch_pages` pages together, they
          become one batch, a leaf's page frequency added to that of its similar leaf (as
          :meth:`learn` would have counted the pages one by one), closed if it is full. Else
          the batch with fewer pages is closed on its own (the seed's rule on a shorter batch:
          a leaf must be on :attr:`min_frequency` of its pages, which is stricter) and the
          other stays open.

        ``other`` is left unchanged.
        """
        for tag, text in other.entries:
            if self._entry_index.find(tag, text) is None:
                self.entries.append((tag, text))
                self._entry_index.add(tag, text)
        if self.pages_in_batch + other.pages_in_batch <= self.batch_pages:
            for entry in other.cache:
                k = self._cache_index.find(entry.tag, entry.text)
                if k is None:
                    self.cache.append(LeafEntry(entry.tag, entry.text, entry.frequency))
                    self._cache_index.add(entry.tag, entry.text)
                else:
                    self.cache[k].frequency += entry.frequency
            self.pages_in_batch += other.pages_in_batch
            if self.pages_in_batch >= self.batch_pages:
                self._close_batch()
        elif other.pages_in_batch < self.pages_in_batch:
            self._persist(other.cache)
        else:
            self._close_batch()
            for entry in other.cache:
                self.cache.append(LeafEntry(entry.tag, entry.text, entry.frequency))
                self._cache_index.add(entry.tag, entry.text)
            self.pages_in_batch = other.pages_in_batch

    def is_template(self, tag: str, text: str, *, open_batch: bool = True) -> bool:
        """True if ``(tag, text)`` matches a persisted entry (same tag, similar text), or, with
        ``open_batch``, a leaf of the open batch already seen on :attr:`min_frequency` pages.

        The second case is ours: the paper only uses entries persisted at the end of a batch,
        so a site visited fewer than N1 = 10 times would have no template at all, although a
        leaf found on three of its pages passes the paper's own test (N2 = 3).
        """
        if self._entry_index.find(tag, text) is not None:
            return True
        if open_batch and self.pages_in_batch >= self.min_frequency:
            k = self._cache_index.find(tag, text)
            return k is not None and self.cache[k].frequency >= self.min_frequency
        return False

    def explain(self, tag: str, text: str) -> dict:
        """Why ``(tag, text)`` is a template (:meth:`is_template`), for the removal log:
        ``{"entry": the matched text (at most 80 characters), "seen": pages of the batch it was
        seen on, "of": the batch's pages, "batch": "closed"|"open"}``. A persisted entry keeps
        no count (seed 000 §4 stores the leaf alone): ``seen`` is then :attr:`min_frequency`, the
        least it was seen on (``"at_least": true``), and ``of`` :attr:`batch_pages`, unless the
        open batch counted it too. Empty when it is no template."""
        k = self._cache_index.find(tag, text) if self.pages_in_batch else None
        cached = self.cache[k] if k is not None else None
        e = self._entry_index.find(tag, text)
        if e is not None:
            if cached is not None and cached.frequency >= self.min_frequency:
                return {"entry": self.entries[e][1][:80], "seen": cached.frequency, "of": self.pages_in_batch, "batch": "open"}
            return {"entry": self.entries[e][1][:80], "seen": self.min_frequency, "of": self.batch_pages, "batch": "closed",
                    "at_least": True}
        if cached is not None and self.pages_in_batch >= self.min_frequency and cached.frequency >= self.min_frequency:
            return {"entry": cached.text[:80], "seen": cached.frequency, "of": self.pages_in_batch, "batch": "open"}
        return {}

    def template_leaves(self, root: etree._Element) -> list[etree._Element]:
        """The leaves under ``root`` that match an entry (persisted only), in document order."""
        if not self.entries:
            return []
        found = []
        for element in root.iter(etree.Element):
            text = leaf_text(element)
            if text is not None and self.is_template(element.tag, text, open_batch=False):
                found.append(element)
        return found

    def clean(self, root: etree._Element) -> int:
        """Delete the leaves under ``root`` that match an entry (seed 000 §7 step 2), keeping
        their tails; returns how many were deleted."""
        doomed = self.template_leaves(root)
        for element in doomed:
            remove_keep_tail(element)
        return len(doomed)
