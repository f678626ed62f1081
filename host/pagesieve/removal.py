"""The removal log: why a block (or an element) left the article.

Every stage that judges a block noise records its reason at the point of decision, as one
:class:`Removal`: the stage (:data:`STAGES`), that stage's name for the rule, and the evidence it
decided on (a score and its cut, the template entry matched, the correction's id and date).
:class:`RemovalLog` holds them for one page, per block, the latest one winning: a block the
classifier dropped, that a post-rule kept and a correction dropped again, was removed by the
correction. Only the reasons of blocks that end up noise are ever read.

Recording never changes a verdict: the stages write the same ``keep`` values with or without a
log (``tests/test_explain.py`` checks the extraction of real pages both ways). Users of reader
modes ask why a paragraph vanished (issue 32); Defuddle's debug mode and uBlock Origin's logger
answer the same question with a step and a filter name.

This module holds data only and imports nothing of pagesieve, so every stage can use it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone

STAGES = ("preprocess", "classifier", "layers", "templates", "correction", "post-rule")
"""The stages that remove content, in pipeline order: pre-processing of the page tree
(:mod:`pagesieve.page.preprocess`), the block classifier (:mod:`pagesieve.classify.classifier`, first
stage SVM and context stage), the layers over the page that hold no main content (fixed and
sticky elements of a browser snapshot, :mod:`pagesieve.rules.layers`), the site's templates (:mod:`pagesieve.templates.evidence`: library,
layout diff, site style tree), the user's corrections (:mod:`pagesieve.corrections.rules`) and
the page-level rules after the classifier (:func:`pagesieve.extract.settle`, and what the reader
article shows in its header instead)."""

STAGE_NAMES = {
    "preprocess": "pre-processing",
    "classifier": "classifier",
    "layers": "layer over the page",
    "templates": "site template",
    "correction": "your correction",
    "post-rule": "page rule",
}
"""How :meth:`Removal.describe` names each stage to a person."""

EVIDENCE_DIGITS = 3
"""Decimals kept of a score in the evidence (a score moves the verdict at its cut, and three
decimals tell a block near the cut from one far from it; the reply stays short)."""


def rounded(value: float) -> float:
    """``value`` as a float rounded to :data:`EVIDENCE_DIGITS` decimals (JSON-ready)."""
    return round(float(value), EVIDENCE_DIGITS)


@dataclass(frozen=True, slots=True)
class Removal:
    """Why one block (or element) was removed.

    Attributes:
        stage: one of :data:`STAGES`.
        rule: the stage's own name for the rule (``"svm"``, ``"context"``, ``"library"``,
            ``"comment-section"``, ``"hidden"``...; docs/protocol.md lists them).
        evidence: what the rule decided on, JSON values only (numbers, strings, booleans).
    """

    stage: str
    rule: str
    evidence: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.stage not in STAGES:
            raise ValueError(f"unknown stage {self.stage!r}; stages are {', '.join(STAGES)}")

    def to_json(self) -> dict:
        """``{"stage", "rule", "evidence"}``."""
        return {"stage": self.stage, "rule": self.rule, "evidence": dict(self.evidence)}

    def compact(self) -> list:
        """``[stage, rule, evidence]``: the per-node form of the protocol's hide reply."""
        return [self.stage, self.rule, dict(self.evidence)]

    def describe(self) -> str:
        """One line for a person: the stage, the rule and its evidence ("classifier: context
        score 0.12 < cut 0.5 (SVM -0.73)", "site template: library, seen on 4 of 6 pages")."""
        return f"{STAGE_NAMES[self.stage]}: {self.rule}" + (f", {evidence_text(self.evidence)}" if self.evidence else "")


def evidence_text(evidence: dict) -> str:
    """The evidence of a :class:`Removal` as ``key value`` pairs for a person; a Unix time
    (``created``) as its UTC date."""
    parts = []
    for key, value in evidence.items():
        if key == "created" and isinstance(value, (int, float)):
            value = datetime.fromtimestamp(value, timezone.utc).strftime("%Y-%m-%d")
        parts.append(f"{key} {value}")
    return ", ".join(parts)


class RemovalLog:
    """The reasons of one page's removals.

    Attributes:
        reasons: block index -> the latest :class:`Removal` recorded for it (sparse).
        first_pass: block index -> the classifier's reason for it, or ``None`` where the
            classifier kept it or never judged it: set by :func:`pagesieve.extract.classify`,
            made only when asked (the classifier judges every block; few reasons are read); its
            ``rule(index)`` gives the rule alone, without the evidence.
        preprocessed: ``(element, Removal)`` of the elements pre-processing removed, when they
            were asked for (:func:`pagesieve.extract.analyse` with ``explain``), else ``None``.
        header: block index -> :class:`Removal` of the blocks the reader article's HTML leaves
            out because its header shows them (the byline line, a heading that repeats the
            title); filled in by :func:`pagesieve.extract.render_article`.
        kept_by: block index -> the page rule that kept a block the classifier dropped, where
            that rule says so (:func:`pagesieve.rules.records.complete_records`: ``"records"``,
            :func:`pagesieve.rules.listing.widen_thin_listing`: ``"listing"``), for the
            kept-noise report's attribution.
    """

    __slots__ = ("reasons", "first_pass", "preprocessed", "header", "kept_by")

    def __init__(self) -> None:
        self.reasons: dict[int, Removal] = {}
        self.first_pass: Callable[[int], Removal | None] | None = None
        self.preprocessed: list | None = None
        self.header: dict[int, Removal] = {}
        self.kept_by: dict[int, str] = {}

    def drop(self, index: int, removal: Removal) -> None:
        """Record that block ``index`` was judged noise for ``removal`` (replaces an earlier one)."""
        self.reasons[index] = removal

    def reason(self, index: int) -> Removal | None:
        """The latest reason block ``index`` was judged noise: a recorded one, else the
        classifier's, else ``None`` (a block that holds no text or image of its own, which the
        classifier does not judge). Meaningful only for a block whose final verdict is noise."""
        found = self.reasons.get(index)
        if found is None and self.first_pass is not None:
            found = self.first_pass(index)
        return found

    def key(self, index: int) -> tuple[str, str] | None:
        """``(stage, rule)`` of :meth:`reason`, without making its evidence (cheaper: a hidden
        container's reason is the most common among the blocks inside it)."""
        found = self.reasons.get(index)
        if found is not None:
            return found.stage, found.rule
        if self.first_pass is not None:
            rule = self.first_pass.rule(index)
            if rule is not None:
                return "classifier", rule
        return None
