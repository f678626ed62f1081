"""The template library of Yan & Wang 2020 (seed 000 §4): a site's common noise, learned.

Leaf tags (elements with text and no element children) are counted across the pages of a site
in batches of :data:`BATCH_PAGES` (N1 = 10). At the end of a batch, every leaf seen on at least
:data:`MIN_FREQUENCY` (N2 = 3) of its pages becomes a template entry; the cache is cleared and
the next batch begins. Two leaves match when their tags are equal and their texts are
*similar*: edit distance ``D <= min(len(A), len(B)) // 8`` (§4: texts of up to 8 characters must
be equal, one more edit is allowed per further 8 characters). Cleaning (§7 step 2) deletes the
leaves of a page that match an entry, before the block classifier sees the page.

One deliberate reading of the paper: a leaf's frequency counts *pages*, not occurrences. The
paper's step 2 increments the count for every matching tag, but its argument for N2 = 3 ("content
and personalised noise never reach frequency 3 in a batch of 10") only holds per page; counted
per occurrence, a page with ten "Reply" links would make "Reply" a template on its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from lxml import etree
from rapidfuzz.distance import Levenshtein

from pagesieve.page.preprocess import remove_keep_tail

BATCH_PAGES = 10
"""N1: pages per batch (seed 000 §4, "N1 取 10")."""

MIN_FREQUENCY = 3
"""N2: pages of a batch a leaf must appear on to become a template entry (seed 000 §4)."""


def similar(a: str, b: str) -> bool:
    """Seed 000 §4 text similarity: Levenshtein distance <= min(len(a), len(b)) // 8."""
    limit = min(len(a), len(b)) // 8
    if limit == 0:
        return a == b
    return Levenshtein.distance(a, b, score_cutoff=limit) <= limit


def page_leaves(root: etree._Element) -> list[tuple[str, str]]:
    """``(tag, text)`` of every leaf under ``root``: an element with no element children and
    some text; text with white space collapsed. Document order."""
    leaves = []
    for element in root.iter(etree.Element):
        if len(element) == 0 and element.text and element.text.strip():
            leaves.append((element.tag, " ".join(element.text.split())))
    return leaves


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

    def learn(self, leaves: Iterable[tuple[str, str]]) -> bool:
        """Count one page's leaves; returns True when this page closed a batch.

        Args:
            leaves: ``(tag, text)`` pairs of the page (see :func:`page_leaves`).
        """
        counted: set[int] = set()
        for tag, text in leaves:
            match = self._find(self.cache, tag, text)
            if match is None:
                self.cache.append(LeafEntry(tag, text))
                counted.add(len(self.cache) - 1)
            elif match not in counted:
                self.cache[match].frequency += 1
                counted.add(match)
        self.pages_in_batch += 1
        if self.pages_in_batch < self.batch_pages:
            return False
        for entry in self.cache:
            if entry.frequency >= self.min_frequency and not self.is_template(entry.tag, entry.text):
                self.entries.append((entry.tag, entry.text))
        self.cache = []
        self.pages_in_batch = 0
        return True

    def is_template(self, tag: str, text: str) -> bool:
        """True if ``(tag, text)`` matches a persisted entry (same tag, similar text)."""
        return any(t == tag and similar(x, text) for t, x in self.entries)

    def clean(self, root: etree._Element) -> int:
        """Delete the leaves under ``root`` that match an entry (seed 000 §7 step 2), keeping
        their tails; returns how many were deleted."""
        doomed = [
            element for element in root.iter(etree.Element)
            if len(element) == 0 and element.text and element.text.strip()
            and self.is_template(element.tag, " ".join(element.text.split()))
        ]
        for element in doomed:
            remove_keep_tail(element)
        return len(doomed)

    @staticmethod
    def _find(cache: list[LeafEntry], tag: str, text: str) -> int | None:
        for k, entry in enumerate(cache):
            if entry.tag == tag and similar(entry.text, text):
                return k
        return None
