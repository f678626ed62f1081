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
  ``pagesieve eval --history`` builds one from the history pages.

:func:`apply_evidence` removes, after classification, the kept blocks the evidence names as the
site's template (:data:`EVIDENCE_KINDS` are switchable for comparison with
``pagesieve eval --templates``). A guard stops a duplicate page from erasing itself: when the
reference page holds more than :data:`DUPLICATE_SHARE` of the kept text, it is the same article
under another URL, and the diff evidence is ignored.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pagesieve.blocks import Block
from pagesieve.removal import Removal, RemovalLog
from pagesieve.templates.cold_start import COLD_START_DUPLICATE_SHARE
from pagesieve.templates.diff import block_fingerprints, identical_blocks
from pagesieve.templates.library import is_text_block, leaf_text
from pagesieve.templates.store import SiteTemplates

EVIDENCE_KINDS = ("library", "diff", "sst")
"""Kinds of template evidence :func:`apply_evidence` can use."""

DEFAULT_KINDS = ("library",)
"""The kinds used unless asked otherwise (sst is not stored yet, so it cannot be the default
live). Measured with ``pagesieve eval DATASET
--min-site-pages 5 --history K --templates KINDS`` (held-out pages; single page: big9 0.977,
daniel 0.941, dragnet 0.948; the most any removal by templates can reach, ``pagesieve eval
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
``pagesieve eval --history K --template-stage evidence`` (:mod:`pagesieve.evaluation.evidence_stage`):
it adds nothing over this removal."""

LIBRARY_SHARE = 0.99
"""A kept block is removed by the library when at least this share of its own text is in
template leaves (the whole block is the site's boilerplate; a single template link inside a
paragraph is not, see the module docstring of :mod:`pagesieve.templates.library`)."""

DUPLICATE_SHARE = 0.8
"""Share of the kept text found identical in the reference page above which the reference is
taken for a copy of the same article and the diff evidence is ignored."""


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
    share = [0.0] * n
    if templates is None or n == 0:
        return TemplateEvidence(share, [False] * n)
    library = templates.library
    if "library" in kinds and (library.entries or library.pages_in_batch >= library.min_frequency):
        block_of = {b.element: b.index for b in blocks}
        matched = [0] * n
        for element in blocks[0].element.iter(*library_tags(library)):
            text = leaf_text(element)
            if text is None or not library.is_template(element.tag, text):
                continue
            owner = element
            while owner is not None and owner not in block_of:
                owner = owner.getparent()
            if owner is not None:
                matched[block_of[owner]] += len(text)
        for b in blocks:
            if is_text_block(b) and library.is_template(b.element.tag, b.text):
                matched[b.index] = b.chars
        share = [min(matched[b.index] / b.chars, 1.0) if b.chars else 0.0 for b in blocks]
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


def library_tags(library) -> list[str]:
    """The tags that occur in ``library``'s entries and frequent batch leaves (only such
    leaves can match one)."""
    tags = {tag for tag, _text in library.entries}
    tags.update(e.tag for e in library.cache if e.frequency >= library.min_frequency)
    return sorted(tags)


def apply_evidence(
    blocks: Sequence[Block], keep: list[bool], evidence: TemplateEvidence, kinds: Iterable[str] = DEFAULT_KINDS,
    *, log: RemovalLog | None = None, templates: SiteTemplates | None = None,
) -> int:
    """Drop kept blocks that the evidence names as the site's template, in place.

    Args:
        blocks: the page's blocks; keep: per block, True if content (changed in place);
        evidence: from :func:`page_evidence`; kinds: which of :data:`EVIDENCE_KINDS` to use.
        log: where each drop is logged (stage ``"templates"``, rule ``"library"``, ``"diff"``
            or ``"sst"``; :func:`removal_of`), with the ``templates`` the evidence came from.

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
        if not keep[i] or not b.chars:
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
