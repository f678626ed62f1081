"""Template evidence for one page's blocks, and how it overrides the block classifier.

Two kinds of evidence, from what :class:`~pagesieve.templates.store.TemplateStore` learned of
the page's site:

- **library** (Yan & Wang 2020, seed 000 §4 and §7): per block, the share of its own text that
  lies in leaves matching the site's template library, or all of it when the block's own text
  matches (:func:`~pagesieve.templates.library.block_texts`);
- **diff** (Yang, Li & Geng 2015, seed 004 §2.2): per block, whether its whole subtree has an
  identical twin in the reference page (:mod:`pagesieve.templates.diff`);
- **sst** (Yi, Liu & Li 2003, seed 002): per block, whether it lands on a noise node of the
  site style tree (:mod:`pagesieve.templates.sst`). The store does not keep style trees yet:
  ``pagesieve-dev eval --history`` builds one from the history pages.

:func:`apply_evidence` removes, after classification, the kept blocks the evidence names as the
site's template (:data:`EVIDENCE_KINDS` are switchable for comparison with
``pagesieve-dev eval --templates``), except the blocks the classifier is confident are main
content (probability at least :data:`CONFIDENT_CONTENT`): the template decides where the
classifier hesitated, never against its confidence. A guard stops a duplicate page from erasing
itself: when the reference page holds more than :data:`DUPLICATE_SHARE` of the kept text, it is
the same article under another URL, and the diff evidence is ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from lxml import etree

from pagesieve.blocks.runs import own_runs
from pagesieve.blocks.segment import Block
from pagesieve.removal import Removal, RemovalLog
from pagesieve.templates.cold_start import COLD_START_DUPLICATE_SHARE
from pagesieve.templates.diff import block_fingerprints, identical_blocks
from pagesieve.templates.library import is_text_block, leaf_text
from pagesieve.templates.store import SiteTemplates

EVIDENCE_KINDS = ("library", "diff", "sst")
"""Kinds of template evidence :func:`apply_evidence` can use."""

DEFAULT_KINDS = ("library",)
"""The kinds used unless asked otherwise (sst is not stored yet, so it cannot be the default
live). Measured before the guard of :data:`CONFIDENT_CONTENT` (whose docstring has the
library's figures with it), when single page gave the figures below (now big9 0.977, daniel
0.954, dragnet 0.945), with ``pagesieve-dev eval DATASET
--min-site-pages 5 --history K --templates KINDS`` (held-out pages; single page: big9 0.977,
daniel 0.941, dragnet 0.948; the most any removal by templates can reach, ``pagesieve-dev eval
DATASET --min-site-pages 5 --template-ceiling``: big9 0.980, daniel 0.967, dragnet 0.953):

===========  ======  =====  ========  =====  =========  =====
kinds        big9 3  all    daniel 3  all    dragnet 3  all
===========  ======  =====  ========  =====  =========  =====
library      0.977   0.979  0.947     0.957  0.945      0.947
diff         0.977   0.977  0.951     0.949  0.942      0.940
sst          0.977   0.978  0.947     0.947  0.946      0.948
library,sst  -       0.979  -         0.954  -          0.947
library,diff 0.977   0.979  0.952     0.959  0.942      0.942
===========  ======  =====  ========  =====  =========  =====

The diff (seed 004) mostly removed text that dragnet's truth counts as content (recaps shared
by two pages of a site, "Published:" lines, comment rules): 930 content tokens against 330 noise
tokens on dragnet. The library removes more noise than content on daniel (2,661 against 417) and
big9 (452 against 205), less on dragnet (121 against 470).

The other way the issue names, the evidence as features of the block classifier, is measured by
``pagesieve-dev eval --history K --template-stage evidence`` (:mod:`pagesieve_dev.evaluation.evidence_stage`):
it adds nothing over this removal."""

LIBRARY_SHARE = 0.99
"""A kept block is removed by the library when at least this share of its own text is in
template leaves (the whole block is the site's boilerplate; a single template link inside a
paragraph is not, see the module docstring of :mod:`pagesieve.templates.library`)."""

DUPLICATE_SHARE = 0.8
"""Share of the kept text found identical in the reference page above which the reference is
taken for a copy of the same article and the diff evidence is ignored."""

CONFIDENT_CONTENT = 0.58
"""Probability of main content (the classifier's context stage,
:attr:`pagesieve.extract.Analysis.content_scores`) from which a kept block is never removed by
template evidence: a block the classifier is this sure of stays, whatever the site's other pages
hold (issue 49: "templates never below single page").

What the library removed without this guard, by the block's score: on the training side of
daniel and dragnet (pages of sites with at least 5 pages, ``--history 3`` and ``all`` pooled;
tokens aligned with the truth as the training labels are,
:func:`pagesieve_dev.training.labels.content_shares`), 448 main-content tokens against 266 noise
tokens at scores of 0.58 and over, 38 against 596 under. The truths disagree on the same classes
of line: dragnet counts comment rules ("Comments may be no longer than 2000 characters"), section
heads repeated on every article ("What's the Big Idea?") and datelines ("updated 1:30 PM EST,
...") as content; daniel and big9 count comment rules, promotions, source credits ("Dzięki
uprzejmości: PAP"), copyright lines and datelines as noise, and the classifier scores both high
(0.5-0.99). The cut is the one with the fewest token errors (main content removed plus noise
kept) on those *training* pages alone, ``pagesieve-dev template-guard``
(:mod:`pagesieve_dev.evaluation.template_guard`): 0.58, 304 errors (no guard: 486; 0.40, the
stage-2 cut of article pages: 781; 0.55: 356; 0.60: 317; flat from 0.57 to 0.59). No held-out
page was read to choose it. The guard holds for every kind of evidence (the layout diff of a
fetched reference page too), but was measured with the library, the default.

Macro F1, ``pagesieve-dev eval DATASET --min-site-pages 5 [--split all] [--history 3|all]``
(held out: the test side of ``models/split.json``, whose sites are not on its training side;
big9 has no training side: its held-out pages are all of it):

=======  =======  =======  =====  ======  ==============  ==============
dataset  split    history  pages  single  library         with the guard
=======  =======  =======  =====  ======  ==============  ==============
big9     heldout  3          280  0.9770  0.9770 +0.0000  0.9770 +0.0000
big9     heldout  all        280  0.9770  0.9795 +0.0024  0.9780 +0.0010
daniel   heldout  3          260  0.9540  0.9571 +0.0030  0.9570 +0.0030
daniel   heldout  all        260  0.9540  0.9607 +0.0067  0.9585 +0.0044
daniel   all      3          620  0.9579  0.9596 +0.0017  0.9595 +0.0016
daniel   all      all        620  0.9579  0.9617 +0.0038  0.9606 +0.0027
dragnet  heldout  3          220  0.9448  0.9415 -0.0032  0.9457 +0.0010
dragnet  heldout  all        220  0.9448  0.9425 -0.0023  0.9464 +0.0016
dragnet  all      3          352  0.9464  0.9473 +0.0009  0.9486 +0.0022
dragnet  all      all        352  0.9464  0.9469 +0.0005  0.9489 +0.0025
=======  =======  =======  =====  ======  ==============  ==============

With the guard, templates are at or above single page on every dataset and split; the price is
part of the gain on big9 and daniel, whose truths call the protected lines noise. Sites still
below single page (held out, ``--history all``): ibnlive.in.com -0.0133, blogs.nfl.com -0.0044,
blog.facebook.com -0.0039 (dragnet: lines the classifier kept at 0.32-0.53, the comment rule on
one page, a promotion of the site's social pages, the page's own headline, which other pages of
the site show too), news.chinatimes.com -0.0006 (daniel); before the guard blogs.nfl.com was
-0.0466.
"""


@dataclass(slots=True)
class TemplateEvidence:
    """Per block (document order) of one page.

    Attributes:
        template_share: share of the block's own characters in template-library leaves.
        in_reference: the block's subtree has an identical twin in the reference page.
        sst_noise: the block lands on a noise node of the site style tree (seed 002), or
            ``None`` without a style tree.
        duplicate_share: the guard of :func:`apply_evidence`: :data:`DUPLICATE_SHARE`, or
            :data:`~pagesieve.templates.cold_start.COLD_START_DUPLICATE_SHARE` when the
            reference page was fetched.
    """

    template_share: list[float]
    in_reference: list[bool]
    sst_noise: list[bool] | None = None
    duplicate_share: float = DUPLICATE_SHARE


def page_evidence(
    blocks: Sequence[Block], templates: SiteTemplates | None, kinds: Iterable[str] = EVIDENCE_KINDS
) -> TemplateEvidence:
    """The evidence of ``templates`` for ``blocks`` (all zero/False without templates).

    Only the ``kinds`` (of :data:`EVIDENCE_KINDS`) asked for are computed; the others stay
    zero/False (``sst_noise`` ``None``), which :func:`apply_evidence` with the same kinds never
    reads. The layout diff's fingerprints of every block subtree cost about as much as the
    library lookups, so a page judged with the library alone (:data:`DEFAULT_KINDS`) skips them.
    """
    kinds = frozenset(kinds)
    n = len(blocks)
    if templates is None or n == 0:
        return TemplateEvidence([0.0] * n, [False] * n)
    share = [0.0] * n
    library = templates.library
    if "library" in kinds and _library_used(library):
        block_of = {b.element: b.index for b in blocks}

        def owner_of(element) -> int | None:
            while element is not None and element not in block_of:
                element = element.getparent()
            return None if element is None else block_of[element]

        leaves = ((e.tag, text, e) for e in blocks[0].element.iter(*library_tags(library))
                  if (text := leaf_text(e)) is not None)
        share = library_shares(leaves, owner_of, blocks, [is_text_block(b) for b in blocks], library)
    if "diff" in kinds and len(templates.reference):
        in_reference = identical_blocks(block_fingerprints(blocks), templates.reference)
    else:
        in_reference = [False] * n
    sst_noise = None
    if "sst" in kinds and templates.sst is not None:
        mapped = templates.sst.map_page(blocks[0].element)
        sst_noise = [bool((node := mapped.get(b.element)) is not None and node.noise) for b in blocks]
    guard = COLD_START_DUPLICATE_SHARE if templates.fetched else DUPLICATE_SHARE
    return TemplateEvidence(share, in_reference, sst_noise, guard)


def _library_used(library) -> bool:
    """True when the library can name a leaf as template (entries, or an open batch of N2 pages)."""
    return bool(library.entries) or library.pages_in_batch >= library.min_frequency


def library_shares(leaves: Iterable[tuple[str, str, object]], owner_of: Callable[[object], int | None],
                   blocks: Sequence, text_blocks: Sequence[bool], library) -> list[float]:
    """Per block (document order), the share of its own characters in leaves that match the
    site's template ``library`` (seed 000 §4 and §7), 1.0 when its own text matches as a whole.

    Args:
        leaves: ``(tag, leaf text, owner)`` of the page's leaves (:func:`~pagesieve.templates.library.leaf_text`)
            under the first block's element, at least those whose tag is in :func:`library_tags`.
        owner_of: ``owner -> index`` of the block that holds the leaf (``None``: none); called
            only for the leaves that match.
        blocks: objects with ``index``, ``tag``, ``text`` and ``chars`` (a
            :class:`~pagesieve.blocks.segment.Block` or a :class:`BlockFacts`).
        text_blocks: per block, :func:`~pagesieve.templates.library.is_text_block`.
    """
    matched = [0] * len(blocks)
    for tag, text, owner in leaves:
        if not library.is_template(tag, text):
            continue
        index = owner_of(owner)
        if index is not None:
            matched[index] += len(text)
    for b in blocks:
        if text_blocks[b.index] and library.is_template(b.tag, b.text):
            matched[b.index] = b.chars
    return [min(matched[b.index] / b.chars, 1.0) if b.chars else 0.0 for b in blocks]


class BlockFacts(NamedTuple):
    """What the template evidence (:func:`facts_evidence`), :func:`apply_evidence` and
    :func:`~pagesieve.article.text.blocks_text` read of one :class:`~pagesieve.blocks.segment.Block`,
    without its element (:meth:`PageFacts.blocks`). ``runs``: its own text cut at its child
    blocks (:func:`~pagesieve.blocks.runs.own_runs`) when some of it stands after the first
    child block; ``None`` when it all stands before."""

    index: int
    tag: str
    text: str
    chars: int
    pre: bool
    parent: int
    runs: list[str] | None = None


@dataclass(slots=True)
class PageFacts:
    """A judged page as the template evidence reads it, without its tree (:func:`page_facts`):
    kept aside by ``pagesieve batch`` between its passes, so held as plain lists (pickled
    several times faster than one object per block).

    Attributes:
        tags, texts, chars, pre, parents: per block (document order), its tag, own text
            (:attr:`~pagesieve.blocks.segment.Block.text`), characters, ``pre`` flag and
            enclosing block (:attr:`~pagesieve.blocks.segment.Block.parent`, -1 for none: what
            :func:`~pagesieve.article.text.caption_blocks` reads).
        text_blocks: per block, :func:`~pagesieve.templates.library.is_text_block`.
        leaves: ``(tag, leaf text, index of the block that holds it or -1)`` of every leaf
            under the first block's element (that element included), document order: the
            leaves of :func:`~pagesieve.templates.library.page_leaves`, with their blocks.
        fingerprints: :func:`~pagesieve.templates.diff.block_fingerprints`, or ``None`` when
            not computed (then the diff evidence cannot be read from these facts).
        scores: per block, the classifier's probability of main content
            (:attr:`pagesieve.extract.Analysis.content_scores`, what :func:`apply_evidence`
            protects by), or ``None`` (no context stage).
        byline_marks: the blocks marked as a byline near the top of the judged page
            (:func:`pagesieve.article.header.byline_marks`), what the header split reads of the
            tree; ``None`` when not read.
        runs: ``block index -> runs`` of the blocks whose own text stands between their child
            blocks (:func:`~pagesieve.blocks.runs.own_runs`), which the text reads to keep
            the page's order (:func:`~pagesieve.article.text.text_lines`); ``None``: none read.
    """

    tags: list[str]
    texts: list[str]
    chars: list[int]
    pre: list[bool]
    text_blocks: list[bool]
    leaves: list[tuple[str, str, int]]
    parents: list[int]
    fingerprints: list[int] | None = None
    scores: list[float] | None = None
    byline_marks: list[int] | None = None
    runs: dict[int, list[str]] | None = None

    def blocks(self) -> list[BlockFacts]:
        """One :class:`BlockFacts` per block, document order."""
        runs = self.runs or {}
        return [BlockFacts(*b, runs.get(b[0])) for b in
                zip(range(len(self.tags)), self.tags, self.texts, self.chars, self.pre, self.parents)]


def page_facts(blocks: Sequence[Block], fingerprints: list[int] | None = None,
               scores: list[float] | None = None) -> PageFacts:
    """The :class:`PageFacts` of a judged page's ``blocks`` (read before the article is
    rendered, which prunes the tree); ``fingerprints`` as :func:`block_fingerprints` gives them,
    ``scores`` as :attr:`pagesieve.extract.Analysis.content_scores`."""
    if not blocks:
        return PageFacts([], [], [], [], [], [], [], fingerprints, scores)
    block_of = {b.element: b.index for b in blocks}
    leaves = []
    for element in blocks[0].element.iter(etree.Element):
        if len(element):  # leaf_text inlined (a call per element cost a fifth of the walk)
            continue
        text = element.text
        if not text or text.isspace():
            continue
        text = " ".join(text.split())
        owner = element
        while owner is not None and owner not in block_of:
            owner = owner.getparent()
        leaves.append((element.tag, text, -1 if owner is None else block_of[owner]))
    runs = {}
    for b in blocks:
        if b.children and b.chars:
            cut = own_runs(b, blocks)
            if cut is not None and any(cut[1:]):
                runs[b.index] = cut
    return PageFacts([b.element.tag for b in blocks], [b.text for b in blocks], [b.chars for b in blocks],
                     [b.pre for b in blocks], [is_text_block(b) for b in blocks], leaves, [b.parent for b in blocks],
                     fingerprints, scores, runs=runs)


def facts_evidence(facts: PageFacts, templates: SiteTemplates | None, kinds: Iterable[str] = EVIDENCE_KINDS) -> TemplateEvidence:
    """:func:`page_evidence` of the page whose :class:`PageFacts` these are: the same evidence,
    from the same :func:`library_shares`, without the tree.

    Raises:
        ValueError: ``"diff"`` is asked for and the facts hold no fingerprints, or ``"sst"``
            is asked for with a style tree (which needs the tree).
    """
    kinds = frozenset(kinds)
    n = len(facts.tags)
    if templates is None or n == 0:
        return TemplateEvidence([0.0] * n, [False] * n)
    share = [0.0] * n
    library = templates.library
    if "library" in kinds and _library_used(library):
        tags = set(library_tags(library))
        leaves = ((tag, text, owner) for tag, text, owner in facts.leaves if tag in tags)
        share = library_shares(leaves, lambda owner: None if owner < 0 else owner, facts.blocks(), facts.text_blocks, library)
    in_reference = [False] * n
    if "diff" in kinds and len(templates.reference):
        if facts.fingerprints is None:
            raise ValueError("the page facts hold no block fingerprints: the diff evidence cannot be read")
        in_reference = identical_blocks(facts.fingerprints, templates.reference)
    if "sst" in kinds and templates.sst is not None:
        raise ValueError("the site style tree maps the page tree: page facts cannot be judged with it")
    guard = COLD_START_DUPLICATE_SHARE if templates.fetched else DUPLICATE_SHARE
    return TemplateEvidence(share, in_reference, None, guard)


def library_tags(library) -> list[str]:
    """The tags that occur in ``library``'s entries and frequent batch leaves (only such
    leaves can match one)."""
    tags = {tag for tag, _text in library.entries}
    tags.update(e.tag for e in library.cache if e.frequency >= library.min_frequency)
    return sorted(tags)


def apply_evidence(
    blocks: Sequence[Block], keep: list[bool], evidence: TemplateEvidence, kinds: Iterable[str] = DEFAULT_KINDS,
    *, log: RemovalLog | None = None, templates: SiteTemplates | None = None, scores: Sequence[float] | None = None,
) -> int:
    """Drop kept blocks that the evidence names as the site's template, in place, but not those
    the classifier is confident are main content (``scores[i] >= CONFIDENT_CONTENT``).

    Args:
        blocks: the page's blocks (or their :class:`BlockFacts`: ``index`` and ``chars`` are
            read); keep: per block, True if content (changed in place);
        evidence: from :func:`page_evidence`; kinds: which of :data:`EVIDENCE_KINDS` to use.
        log: where each drop is logged (stage ``"templates"``, rule ``"library"``, ``"diff"``
            or ``"sst"``; :func:`removal_of`), with the ``templates`` the evidence came from.
        scores: per block, the classifier's probability of main content
            (:attr:`pagesieve.extract.Analysis.content_scores`, :attr:`PageFacts.scores`);
            ``None``: no block is protected (a model without a context stage).

    Returns:
        the number of blocks dropped.
    """
    kinds = set(kinds)
    use_diff = "diff" in kinds
    if use_diff:
        kept = sum(b.chars for b in blocks if keep[b.index])
        twin = sum(b.chars for b in blocks if keep[b.index] and evidence.in_reference[b.index])
        if kept and twin > evidence.duplicate_share * kept:
            use_diff = False
    use_library = "library" in kinds
    sst_noise = evidence.sst_noise if "sst" in kinds else None
    dropped = 0
    for b in blocks:
        i = b.index
        if not keep[i] or not b.chars or (scores is not None and scores[i] >= CONFIDENT_CONTENT):
            continue
        by_diff = use_diff and evidence.in_reference[i]
        by_library = use_library and evidence.template_share[i] >= LIBRARY_SHARE
        if by_diff or by_library or (sst_noise is not None and sst_noise[i]):
            keep[i] = False
            dropped += 1
            if log is not None:
                rule = "diff" if by_diff else ("library" if by_library else "sst")
                log.drop(i, removal_of(rule, b, evidence, templates))
    return dropped


def removal_of(rule: str, block: Block, evidence: TemplateEvidence, templates: SiteTemplates | None) -> Removal:
    """The :class:`~pagesieve.removal.Removal` of ``block``, dropped by the evidence ``rule``
    (``"library"``, ``"diff"`` or ``"sst"``). Evidence: the site's learned ``pages``; for the
    library, the share of the block's text in template leaves and the entry matched
    (:meth:`~pagesieve.templates.library.TemplateLibrary.explain`: its text, and on how many
    pages of its batch it was seen); for the diff, the reference page's URL."""
    found: dict = {"pages": templates.pages if templates is not None else 0}
    if rule == "library":
        found["share"] = round(evidence.template_share[block.index], 3)
        if templates is not None:
            found.update(library_match(block, templates.library))
    elif rule == "diff":
        found["reference"] = templates.reference_url if templates is not None else None
        found["fetched"] = bool(templates is not None and templates.fetched)
    return Removal("templates", rule, found)


def library_match(block: Block, library) -> dict:
    """What of ``library`` matched ``block``: the block's own text when it is an entry, else the
    longest of its leaves that is (:meth:`~pagesieve.templates.library.TemplateLibrary.explain`);
    empty when none does."""
    if is_text_block(block):
        found = library.explain(block.element.tag, block.text)
        if found:
            return found
    best: dict = {}
    for element in block.element.iter(*library_tags(library)):
        text = leaf_text(element)
        if text is not None and len(text) > len(best.get("entry", "")):
            found = library.explain(element.tag, text)
            if found:
                best = found
    return best
