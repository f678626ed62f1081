"""The lines an extractor kept that the truth lacks, each traced to the block and the stage that
kept it, and classed (:mod:`pagesieve_dev.evaluation.noise_classes`).

**Which lines are noise.** The output's lines (those with at least one token,
:func:`pagesieve.tokens.tokens`, the metric's tokens) are aligned, as one token sequence in
order, with the truth's tokens by longest matching runs
(:func:`pagesieve_dev.training.labels.aligned_shares`, the alignment that labels the training
blocks). A line is kept noise when less than :data:`NOISE_SHARE` of its tokens align: a line
made mostly of tokens the truth lacks. Its noise tokens are its tokens that align with nothing.
Alignment, not a bag: the second copy of a caption that the truth holds once aligns with
nothing, and is noise.

**Which block kept it.** pagesieve's article text is one kept block per line
(:func:`pagesieve.article.text.blocks_text`); :class:`PageTrace` judges the page as
``pagesieve.extract.extract`` does (:func:`pagesieve.extract.judge_page`, then
:func:`pagesieve.extract.render_article`), and maps each line of the article's text to the kept
block with that text, in order. A peer's line is mapped to the page block with the same tokens
(or the smallest block whose tokens hold the line's, or the largest the line holds), only to
read the page structure around it: the stage is pagesieve's.

**Why the block was kept** (:func:`keep_reasons`): the classifier's verdict and score
(:meth:`pagesieve.classify.classifier.BlockClassifier.verdict`; rule ``"context"``: the
context stage's score above the page's cut, ``"svm-sure-content"``: an SVM decision of at least
:data:`~pagesieve.classify.classifier.SURE_CONTENT_DECISION`, ``"best-of-page"``: no block passed
the cut and this one scored within the fallback margin of the best, ``"dominant"``: a block of
half the page's text, :func:`~pagesieve.classify.dominant.dominant_blocks`, ``"svm"``: a model
without a context stage), else the page rule that kept a block the classifier dropped (``"headline"``,
:func:`pagesieve.rules.headline.headline_block`; ``"records"``, the posts of a forum thread,
:func:`pagesieve.rules.records.complete_records`; ``"listing"``, a listing's grid of items,
:func:`pagesieve.rules.listing.widen_thin_listing`; ``"loose"``, a paragraph written loose in a
story's container, :func:`pagesieve.rules.loose.keep_loose_prose`; ``"structures"``,
:func:`pagesieve.rules.structures.complete_structures`, which also keeps blocks the classifier
never judges).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from pagesieve.article.model import Metadata
from pagesieve.article.text import text_lines
from pagesieve.classify.classifier import SURE_CONTENT_DECISION, BlockClassifier
from pagesieve.extract import Analysis, judge_page, render_article
from pagesieve.page.html import parse_html
from pagesieve.removal import rounded
from pagesieve.rules.headline import headline_block
from pagesieve.tokens import tokens
from pagesieve_dev.evaluation.noise_classes import BlockFacts, block_facts, classify_line
from pagesieve_dev.training.labels import aligned_shares

NOISE_SHARE = 0.5
"""A line with less than this share of its tokens aligned with the truth is kept noise ("made
mostly of tokens the truth lacks", issue 47)."""


@dataclass(frozen=True, slots=True)
class KeptLine:
    """One line of an extractor's output that the truth lacks.

    Attributes:
        text: the line. tokens: its token count; noise_tokens: of those, the tokens aligned
            with no truth token.
        cls, cue: its class and the cue that decided it (:func:`~pagesieve_dev.evaluation.noise_classes.classify_line`).
        block: index of the block it was traced to, or ``None``; tag: that block's tag.
        stage, rule, evidence: why pagesieve kept that block (:func:`keep_reasons`); for a
            peer's line, pagesieve's own verdict on the block (``stage`` ``"noise"`` when
            pagesieve drops it), ``""`` when the line was traced to no block.
    """

    text: str
    tokens: int
    noise_tokens: int
    cls: str
    cue: str
    block: int | None = None
    tag: str | None = None
    stage: str = ""
    rule: str = ""
    evidence: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        """The line as a JSON-ready dict (every attribute)."""
        return {"text": self.text, "tokens": self.tokens, "noise_tokens": self.noise_tokens, "class": self.cls,
                "cue": self.cue, "block": self.block, "tag": self.tag, "stage": self.stage, "rule": self.rule,
                "evidence": dict(self.evidence)}


def noise_lines(text: str, truth: str) -> tuple[int, list[tuple[int, str, int, int, bool]]]:
    """The output's token count and its noise lines as ``(position, line, tokens, noise tokens,
    repeated)``, in output order (see the module docstring): ``position`` counts the lines of
    ``text.split("\n")``; ``repeated``: the line's tokens make another line of the output too."""
    truth_tokens = tokens(truth)
    lines = [(k, line, tokens(line)) for k, line in enumerate(text.split("\n"))]
    lines = [entry for entry in lines if entry[2]]
    counts, shares = aligned_shares([piece for _k, _line, piece in lines], truth_tokens, [True] * len(truth_tokens))
    forms = Counter(" ".join(piece) for _k, _line, piece in lines)
    out = []
    for (k, line, piece), n, share in zip(lines, counts, shares):
        if share < NOISE_SHARE:
            out.append((k, line, int(n), int(round(n * (1.0 - share))), forms[" ".join(piece)] > 1))
    return int(counts.sum()), out


def keep_reasons(analysis: Analysis, keep: list[bool], model: BlockClassifier) -> dict[int, tuple[str, str, dict]]:
    """Per kept block index, ``(stage, rule, evidence)``: why it is kept (module docstring).
    Reads the classifier's verdicts of :func:`pagesieve.extract.classify`
    (``analysis.removals.first_pass``); blocks kept when there is none are ``("unknown", "", {})``."""
    first = analysis.removals.first_pass
    candidates = list(getattr(first, "candidates", None) or [])
    if not candidates:
        return {i: ("unknown", "", {}) for i, k in enumerate(keep) if k}
    is_content, decision, score = first.is_content, first.decision, first.score
    fallback, cut = first.fallback, first.cut
    row_of = {b: r for r, b in enumerate(candidates)}
    first_keep = [False] * len(keep)
    for r, b in enumerate(candidates):
        first_keep[b] = bool(is_content[r])
    headline = headline_block(analysis.candidates, analysis.features, first_keep)
    out: dict[int, tuple[str, str, dict]] = {}
    for i, kept in enumerate(keep):
        if not kept:
            continue
        r = row_of.get(i)
        if r is None:
            out[i] = ("post-rule", "structures", {})
        elif is_content[r]:
            evidence = {"score": rounded(score[r]), "svm": rounded(decision[r])}
            if fallback is not None:
                out[i] = ("classifier", "best-of-page", {**evidence, "cut": rounded(fallback)})
            elif getattr(model, "context", None) is None:
                out[i] = ("classifier", "svm", {**evidence, "cut": rounded(model.threshold)})
            elif cut is not None and score[r] > cut:
                out[i] = ("classifier", "context", {**evidence, "cut": rounded(cut)})
            elif decision[r] >= SURE_CONTENT_DECISION:
                out[i] = ("classifier", "svm-sure-content", {**evidence, "cut": SURE_CONTENT_DECISION})
            elif cut is not None and decision[r] > 0:  # under the cut, kept: dominant_blocks
                out[i] = ("classifier", "dominant", evidence)
            else:
                out[i] = ("classifier", "context", evidence)
        else:
            out[i] = ("post-rule", "headline" if i == headline else analysis.removals.kept_by.get(i, "structures"),
                      {"score": rounded(score[r]), "svm": rounded(decision[r])})
    return out


def _form(text: str) -> str:
    return " " + " ".join(tokens(text)) + " "


class PageTrace:
    """pagesieve's extraction of one page with what it needs to trace lines back to blocks.

    Args:
        html: the page; url: its address (or ``None``), as ``extract(html, url)`` gets them.
        model: the block classifier (default: the shipped model for the page).
        headline: the page's truth keeps the header (the index's ``truth_has_headline``): the
            text traced is then the header's lines followed by the body
            (:func:`~pagesieve_dev.evaluation.scoring.scored_text`), else the body alone.

    Attributes:
        text: the text scored: the article's text (``pagesieve.extract.extract(html, url).text``,
            the body), with its header lines in front when ``headline``.
        metadata: the article's metadata. facts: per block, :func:`~pagesieve_dev.evaluation.noise_classes.block_facts`.
        kept: per kept block, :func:`keep_reasons`. line_blocks: per line of ``text``, the
            block it came from or ``None``.

    Raises:
        InputError, ModelError: as :func:`pagesieve.extract.extract`.
    """

    def __init__(self, html: str, url: str | None, model: BlockClassifier | None = None, headline: bool = False) -> None:
        from pagesieve_dev.evaluation.scoring import Answer, scored_text

        from pagesieve.classify.model_store import model_for

        page = parse_html(html, url=url)
        model = model or model_for(page)
        analysis, keep = judge_page(page, model, title_only=False)
        blocks = analysis.blocks
        self.facts: list[BlockFacts | None] = block_facts(blocks, url)
        self.kept = keep_reasons(analysis, keep, model)
        self._forms = [_form(b.text) if f is not None else "" for b, f in zip(blocks, self.facts)]
        self._tags = [b.tag for b in blocks]
        expected: dict[str, list[int]] = defaultdict(list)
        for index, text in text_lines(blocks, keep):  # the lines of blocks_text, each with its block
            for line in text.split("\n"):
                expected[line].append(index)
        article = render_article(analysis, keep)  # prunes the tree: the facts were read before
        self.text: str = scored_text(Answer(article.text, tuple(article.header)), headline)
        self.metadata: Metadata = article.metadata
        self.line_blocks: list[int | None] = []
        for line in self.text.split("\n"):
            queue = expected.get(line)
            self.line_blocks.append(queue.pop(0) if queue else None)

    def block_of(self, line: str) -> int | None:
        """The block a peer's ``line`` most likely came from: the first block with the same
        tokens, else the smallest block whose tokens hold the line's in a row, else the largest
        block whose tokens the line holds; ``None`` when none."""
        form = _form(line)
        if form.strip() == "":
            return None
        inside = None
        holds = None
        for i, own in enumerate(self._forms):
            if not own:
                continue
            if own == form:
                return i
            if form in own and (inside is None or len(own) < len(self._forms[inside])):
                inside = i
            elif own in form and len(own) > 2 and (holds is None or len(own) > len(self._forms[holds])):
                holds = i
        return inside if inside is not None else holds

    def _line(self, text: str, n: int, noise: int, repeated: bool, block: int | None) -> KeptLine:
        facts = self.facts[block] if block is not None else None
        cls, cue = classify_line(text, facts, self.metadata, repeated)
        if block is None:
            return KeptLine(text, n, noise, cls, cue)
        stage, rule, evidence = self.kept.get(block, ("noise", "", {}))
        return KeptLine(text, n, noise, cls, cue, block, self._tags[block], stage, rule, evidence)

    def own_noise(self, truth: str) -> tuple[int, list[KeptLine]]:
        """pagesieve's output token count and its kept noise lines against ``truth``."""
        total, found = noise_lines(self.text, truth)
        return total, [self._line(line, n, noise, repeated, self.line_blocks[k]) for k, line, n, noise, repeated in found]

    def peer_noise(self, text: str, truth: str) -> tuple[int, list[KeptLine]]:
        """A peer's output token count and its kept noise lines against ``truth``, each traced
        to a block of this page by :meth:`block_of`."""
        total, found = noise_lines(text, truth)
        return total, [self._line(line, n, noise, repeated, self.block_of(line)) for _k, line, n, noise, repeated in found]
