"""The extraction pipeline: page -> blocks -> features -> classifier -> article.

:func:`extract` is the one-call API (HTML in, :class:`~pagesieve.article.model.Article` out);
:func:`extract_page` does the same for a :class:`~pagesieve.page.model.Page` built from HTML or
from a browser snapshot; :func:`analyse` stops after the features, for training and tools.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
from lxml import etree

from pagesieve.article.metadata import extract_metadata
from pagesieve.article.model import Article, Metadata
from pagesieve.article.render import blocks_text, finish_html, prune
from pagesieve.blocks import Block, holds_content, segment, subtree_ends
from pagesieve.classifier import BlockClassifier, model_for
from pagesieve.layout import box_features
from pagesieve.context import tree_arrays
from pagesieve.features import FEATURE_NAMES, block_features, is_comment_mark
from pagesieve.page.html import parse_html
from pagesieve.page.model import Page
from pagesieve.page.preprocess import preprocess
from pagesieve.page_type import PAGE_TYPES
from pagesieve.removal import Removal, RemovalLog
from pagesieve.signals import card_columns, card_items, page_signals, raw_page_signals
from pagesieve.templates.evidence import DEFAULT_KINDS, apply_evidence, page_evidence
from pagesieve.templates.store import SiteTemplates
from pagesieve.corrections.rules import apply_rules
from pagesieve.corrections.store import SiteRules
from pagesieve.evaluation.metric import tokens


@dataclass(slots=True)
class Analysis:
    """A page cut into blocks with the feature rows of its candidate blocks.

    Attributes:
        page: the page (its tree pre-processed in place).
        metadata: read from the raw page before pre-processing.
        blocks: every block, document order. candidates: indices of the classified blocks.
        features: ``(len(candidates), N_FEATURES)`` array.
        box_features: ``(len(candidates), len(layout.BOX_FEATURE_NAMES))`` array
            (:func:`pagesieve.layout.box_features`, zeros for a page without layout), filled in
            by :func:`model_rows` when a box-aware model first asks; ``None`` until then.
        raw_signals: the page signals read before pre-processing
            (:func:`pagesieve.signals.raw_page_signals`).
        card_features: ``(len(candidates), len(signals.CARD_COLUMNS))``
            (:func:`pagesieve.signals.card_columns`), filled in by :func:`model_rows` when a
            model that reads them first asks; ``None`` until then.
        page_type: ``(len(page_type.PAGE_TYPES),)`` probabilities of the page types, filled in by
            :func:`model_rows` for a model with a page-type stage; ``None`` otherwise.
        removals: why each block judged noise was (:class:`pagesieve.removal.RemovalLog`),
            recorded by the stages as they decide.
    """

    page: Page
    metadata: Metadata
    blocks: list[Block]
    candidates: list[int]
    features: np.ndarray
    box_features: np.ndarray | None = None
    raw_signals: dict | None = None
    card_features: np.ndarray | None = None
    page_type: np.ndarray | None = None
    removals: RemovalLog = field(default_factory=RemovalLog)


def analyse(page: Page, title_only: bool = False, signals: bool = True, explain: bool = False) -> Analysis:
    """Metadata, pre-processing, segmentation and features of ``page`` (its tree is changed);
    with ``title_only``, the metadata holds the title alone (see :func:`extract_metadata`); with
    ``signals`` false, the raw page signals (:func:`pagesieve.signals.raw_page_signals`, read
    before pre-processing, for a model with a page-type stage) are not read; with ``explain``,
    the elements pre-processing removes are logged with their reasons
    (:attr:`pagesieve.removal.RemovalLog.preprocessed`)."""
    metadata = extract_metadata(page, title_only=title_only)
    raw_signals = raw_page_signals(page.root, page.url) if signals else None  # before pre-processing removes scripts and forms
    removals = RemovalLog()
    removed: list | None = [] if explain else None
    preprocess(page, removals=removed)
    if removed is not None:
        removals.preprocessed = [(element, Removal("preprocess", rule, {"tag": element.tag})) for element, rule in removed]
    blocks = segment(page.root)
    title = metadata.title or page.title
    candidates, features = block_features(blocks, title)
    return Analysis(page, metadata, blocks, candidates, features, raw_signals=raw_signals, removals=removals)


def model_rows(analysis: Analysis, model: BlockClassifier) -> np.ndarray:
    """The feature rows ``model`` reads, ``(len(candidates), len(model.meta["features"]))``: the
    first-pass features, then the box features for a box-aware model (zeros where the page has
    no layout), the card columns (:data:`pagesieve.signals.CARD_COLUMNS`) and the page-type
    probabilities (:mod:`pagesieve.page_type`) for a model that reads them."""
    parts = [analysis.features]
    if model.uses_boxes:
        if analysis.box_features is None:  # computed when a model asks: about 4 ms on a 5,000-element page
            analysis.box_features = box_features(analysis.page, analysis.blocks, analysis.candidates)
        parts.append(analysis.box_features)
    cards = None  # the page's card items, made once for both the card columns and the page signals
    if getattr(model, "uses_cards", False):
        if analysis.card_features is None:
            cards = card_items(analysis.blocks)
            analysis.card_features = card_columns(analysis.blocks, analysis.candidates, analysis.page.url, cards)
        parts.append(analysis.card_features)
    if getattr(model, "page_type", None) is not None:
        if analysis.page_type is None:
            signals = page_signals(analysis.raw_signals or {}, analysis.blocks, cards)
            analysis.page_type = np.ravel(model.page_type.probabilities(signals))
        parts.append(np.tile(analysis.page_type, (len(analysis.candidates), 1)))
    return np.hstack(parts) if len(parts) > 1 else parts[0]


def classify(analysis: Analysis, model: BlockClassifier) -> list[bool]:
    """Per block (all blocks, document order): True if it is main content. The classifier's
    reason for each block it judged noise is made on request (``analysis.removals.first_pass``,
    :meth:`pagesieve.classifier.BlockClassifier.reason`), the page rules' as they drop."""
    keep = [False] * len(analysis.blocks)
    if analysis.candidates:
        tree = tree_arrays(analysis.blocks)
        is_content, decision, score, fallback = model.verdict(tree, analysis.candidates, model_rows(analysis, model))
        for i, flag in zip(analysis.candidates, is_content):
            keep[i] = bool(flag)
        analysis.removals.first_pass = _FirstPassReasons(model, analysis.candidates, is_content, decision, score, fallback)
        settle(analysis, keep)
    return keep


class _FirstPassReasons:
    """Block index -> the classifier's :class:`~pagesieve.removal.Removal` of it (``None`` for a
    block it kept or did not judge), made when called; :meth:`rule` gives its rule alone."""

    __slots__ = ("model", "candidates", "is_content", "decision", "score", "fallback")

    def __init__(self, model: BlockClassifier, candidates: list[int], is_content, decision, score, fallback) -> None:
        self.model, self.candidates, self.is_content = model, candidates, is_content
        self.decision, self.score, self.fallback = decision, score, fallback

    def _row(self, index: int) -> int | None:
        row = bisect_left(self.candidates, index)
        if row == len(self.candidates) or self.candidates[row] != index or self.is_content[row]:
            return None
        return row

    def __call__(self, index: int) -> Removal | None:
        row = self._row(index)
        return None if row is None else self.model.reason(float(self.decision[row]), float(self.score[row]), self.fallback)

    def rule(self, index: int) -> str | None:
        row = self._row(index)
        return None if row is None else self.model.rule(float(self.decision[row]), self.fallback)


SETTLE_RULES = ("headline", "structures", "comments", "labels", "templates")
"""The names of :func:`settle`'s rules, in the order they run (the dev gate's ``--cv-ablate``
leaves each out in turn to measure it)."""


def settle(analysis: Analysis, keep: list[bool], skip: frozenset[str] = frozenset()) -> None:
    """The page-level rules that follow the classifier's verdicts, in place: the headline is
    kept (:func:`headline_block`), structures are completed (:func:`complete_structures`), and
    comment sections, boilerplate labels and unrendered templates are dropped
    (:func:`drop_comment_sections`, :func:`drop_boilerplate_labels`,
    :func:`drop_unrendered_templates`; each drop logged in ``analysis.removals``, stage
    ``"post-rule"``). ``skip``: names of :data:`SETTLE_RULES` not to run."""
    log = analysis.removals
    if "headline" not in skip:
        headline = headline_block(analysis, keep)
        if headline is not None:
            keep[headline] = True
    if "structures" not in skip:
        complete_structures(analysis.blocks, keep, log)
    if "comments" not in skip:
        drop_comment_sections(analysis.blocks, keep, log, forum=is_forum(analysis.page_type))
    if "labels" not in skip:
        drop_boilerplate_labels(analysis.blocks, keep, log)
    if "templates" not in skip:
        drop_unrendered_templates(analysis.blocks, keep, log)


COMMENT_SECTION_RE = re.compile("comment(?!ary)|disqus")
"""A block whose lower-cased class or id matches this holds readers' comments (``#comments``,
``div.comment``, ``#disqus_thread``); the names Mozilla Readability's ``unlikelyCandidates``
uses for comments, but not "commentary" (an opinion column is an article). Narrower than
:data:`pagesieve.features.COMMENT_RE`: "reply" and "response" also name the posts of a forum
thread, which are its content."""

COMMENT_SECTION_MAX_SHARE = 0.5
"""A block marked as comments that holds this share of the page's text or more is taken for the
page itself (a forum thread, or a class name such as ``comments-open`` on a page wrapper)."""

HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
"""The heading elements (HTML Living Standard §4.3.6): :func:`title_heading_block` looks for the
title among them, and one named as comments opens a comment section (:func:`heading_section`)."""

HEADING_SECTION_MIN_MARKS = 2
"""A section opened by a heading named as comments (``<h2 id="comments">``, its comments flat
siblings after it, as Movable Type and TypePad blogs write them) is a comment section only when
at least this many of its blocks are comment marks (:func:`pagesieve.features.is_comment_mark`:
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
    """Whether the page-type stage (:mod:`pagesieve.page_type`) names ``forum`` the likeliest of
    the seven WCXB page types for a page, from its probabilities ``(len(PAGE_TYPES),)``;
    ``None`` when the model has no page-type stage."""
    if page_type is None:
        return None
    return PAGE_TYPES[int(np.argmax(page_type))] == "forum"


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
    (dragnet's paulocoelhoblog.com posts, precision 0.00-0.17 with the comments kept).

    A comment section is a block other than the outermost whose class or id matches
    :data:`COMMENT_SECTION_RE` and that holds less than :data:`COMMENT_SECTION_MAX_SHARE` of the
    page's text; or, for a heading whose class or id matches, the section the heading opens
    (:func:`heading_section`) when :data:`HEADING_SECTION_MIN_MARKS` of its blocks carry comment
    marks, whatever its share (a popular post's comments outweigh it many times: dragnet R187,
    1,700 characters of post and 65,000 of comments). Readers' comments are not what a reader
    mode shows (Firefox Reader View and trafilatura leave them out by default), but they are
    long, well-written paragraphs, so the classifier keeps many of them, the more so as one
    training dataset (cleaneval) counts them as content. Measured with ``pagesieve eval`` on the
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
        names = element.get("class"), element.get("id")
        if (names[0] or names[1]) and _names_comments(names):
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
    if forum is not False and sum(b.chars for b in blocks if keep[b.index] and not inside[b.index]) < ARTICLE_MIN_CHARS:
        return 0
    dropped = 0
    for b in blocks:
        if inside[b.index] and keep[b.index]:
            keep[b.index] = False
            dropped += 1
            if log is not None:
                log.drop(b.index, _comment_reason(blocks[section_of[b.index]], total))
    return dropped


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
    (:func:`pagesieve.features.is_comment_mark`, as the classifier's features count them)."""
    return sum(1 for i in indices if is_comment_mark(blocks[i], blocks[i].text))


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


AD_LABEL_RE = re.compile(
    r"advertisements?|(?:the )?(?:story|article) continues below(?: this (?:ad|advertisement))?"
    r"|continue reading (?:below|the main story)|advertisement[ -]+(?:continue reading|story continues) below"
    r"|anzeige|publicité|publicidad|pubblicità|реклама|广告",
    re.IGNORECASE,
)
"""The whole text of a label that marks an ad slot inside an article ("Advertisement", "Story
continues below"; German, French, Spanish, Italian, Russian and Chinese "advertisement")."""

BACK_TO_TOP_RE = re.compile(
    r"(?:back|return|go|jump|scroll) to (?:the )?top(?: of (?:the )?page)?|top of (?:the )?page|to top|page top"
    r"|nach oben|haut de page|volver arriba|返回顶部|回到顶部|返回页首",
    re.IGNORECASE,
)
"""The whole text of a link back to the top of the page ("Back to top", "[ Back To The Top ]")."""

LABEL_TRIM = " ()[]-\u2013\u2014:.\u00b7|*^\u2191\u25b2"
"""Punctuation and arrows around a label ("(Story continues below)", "- Advertisement -", "↑ Top of page")."""


def drop_boilerplate_labels(blocks: list[Block], keep: list[bool], log: RemovalLog | None = None) -> int:
    """Judge noise, in place, the kept blocks whose own text is only a label of the page's
    furniture: an ad slot's (:data:`AD_LABEL_RE`) or a link back to the top
    (:data:`BACK_TO_TOP_RE`), once :data:`LABEL_TRIM` is trimmed; returns how many.

    The labels sit in the article's flow, between two paragraphs or sections, as short text the
    classifier keeps; the ad itself is gone (a script or an iframe). No dataset's truth counts
    them as content. On the held-out pages (``pagesieve eval``), 150 labels left the kept text:
    97 ad labels (82 "Advertisement", 9 "(Story continues below)") and 53 back-to-top links;
    macro F1 moves by 0.0001 at most (cleaneval), as each is one to four tokens, but a reader
    sees them in the reader view. Each drop is logged in ``log`` as post-rule ``"ad-label"`` or
    ``"back-to-top"``.

    Dev gate (``--cv-ablate labels``, 2026-11-25 model): wcxb_dev CV unchanged to four decimals.
    """
    dropped = 0
    for b in blocks:
        if keep[b.index] and 0 < b.chars < 60:
            label = b.text.strip(LABEL_TRIM)
            ad = AD_LABEL_RE.fullmatch(label)
            if ad or BACK_TO_TOP_RE.fullmatch(label):
                keep[b.index] = False
                dropped += 1
                if log is not None:
                    log.drop(b.index, Removal("post-rule", "ad-label" if ad else "back-to-top", {"label": label}))
    return dropped


TEMPLATE_PLACEHOLDER_RE = re.compile(
    r"(?<!\{)\{\{\s*(?=[\w$.]*[._])[A-Za-z_$][\w$]*(?:\.[\w$]+)*\s*(?:\|[^{}]*)?\}\}(?!\})"
)
"""An expression of a client-side template left unrendered: ``{{article.magazine.pubName}}``,
``{{ item.title | uppercase }}`` (the double-brace interpolation of Mustache, Handlebars,
AngularJS and Vue). A script fills it in; read as HTML, the page shows the expression. The
expression must be a property path or a name with an underscore, in exactly two braces: a
reader's "{{{{ Michelle }}}}" (hugs, in a condolence message of cleaneval dev_34) is text."""

CODE_TAGS = ("code", "kbd", "samp", "tt", "var")
"""Phrasing elements that hold computer text (HTML Living Standard §4.5.15-19, and the old
``<tt>``): a template expression inside them is quoted, not left unrendered."""


def drop_unrendered_templates(blocks: list[Block], keep: list[bool], log: RemovalLog | None = None) -> int:
    """Judge noise, in place, the kept blocks whose own text holds an unrendered template
    expression (:data:`TEMPLATE_PLACEHOLDER_RE`); returns how many.

    A reader never wants to see ``This story appears in the
    {{article.article.magazine.pretty_date}} issue of ...`` (forbes.com pages of 2017 in big9,
    saved before their scripts ran): the block is the frame of a value the page never got. A
    block in ``<pre>`` or holding :data:`CODE_TAGS` quotes template syntax (Django's
    documentation of ``{{ form }}``) and stays. Each drop is logged in ``log`` as post-rule
    ``"unrendered-template"`` with the expression.

    Dev gate (``--cv-ablate templates``, 2026-11-25 model): wcxb_dev CV unchanged to four
    decimals (no page of it holds such text); it serves big9's forbes.com pages (+0.0007 held
    out, with the previous model).
    """
    dropped = 0
    for b in blocks:
        if keep[b.index] and not b.pre and b.chars:
            text = b.text
            if "{{" in text and (found := TEMPLATE_PLACEHOLDER_RE.search(text)) and next(b.element.iter(*CODE_TAGS), None) is None:
                keep[b.index] = False
                dropped += 1
                if log is not None:
                    log.drop(b.index, Removal("post-rule", "unrendered-template", {"expression": found.group(0)[:80]}))
    return dropped


STRUCTURE_PARTS = {
    "table": frozenset({"thead", "tbody", "tfoot", "tr", "td", "th", "caption"}),
    "ul": frozenset({"li", "ul", "ol"}),
    "ol": frozenset({"li", "ul", "ol"}),
    "dl": frozenset({"dt", "dd"}),
    "figure": frozenset({"figcaption", "p"}),
    "blockquote": frozenset({"p"}),
}
"""Structures kept whole once they are mostly content (a data table missing a header cell, a
figure without its caption), and the only blocks they may hold to count as one: a layout table
with divs, paragraphs or nested tables in its cells is a page grid, not a data table, and was
wrongly kept whole on old l3s_gn1 pages until this restriction (F1 0.940 -> 0.884 -> 0.940)."""

STRUCTURE_KEEP_SHARE = 0.5
"""Share of a structure's text that must be content for the whole structure to be kept."""

STRUCTURE_DROP_SHARE = 0.25
"""Share of a data table's or a list's text under which the blocks kept in it are dropped: a
reader is better served by no table than by two rows of forty (the infobox of readability's
``wikipedia-2`` showed as "Currency" with an empty cell and a date format). Held-out macro F1
(``pagesieve eval``): cleaneval, dragnet and l3s_gn1 +0.0001, the others unchanged; 51
structures, 1,425 characters. Tables alone at 0.5 lost zh_cwced 0.0006."""

STRUCTURE_DROP_TAGS = frozenset({"table", "ul", "ol", "dl"})
"""The structures :data:`STRUCTURE_DROP_SHARE` applies to (a figure or a quote with one part
kept is still whole enough to read)."""


def complete_structures(blocks: list[Block], keep: list[bool], log: RemovalLog | None = None) -> None:
    """Keep data tables, lists, figures and quotes whole when they are mostly content, and drop
    the scraps kept of tables and lists that are mostly noise, in place.

    A structure is kept whole when at least :data:`STRUCTURE_KEEP_SHARE` of its text is in kept
    blocks, or (for text-less or caption-only structures such as figures) when it is kept itself
    or the candidate blocks just before and after it are both kept. Mozilla Readability keeps a
    figure's caption with its image for the same reason (``_cleanConditionally`` spares figures).
    A table or list (:data:`STRUCTURE_DROP_TAGS`) with less than :data:`STRUCTURE_DROP_SHARE` of
    its text kept is dropped whole, and so is a table of facts with less than
    :data:`FACTS_TABLE_DROP_SHARE` (:func:`_drop_scraps_of_facts_table`). Each kept block so
    dropped is logged in ``log`` as post-rule ``"structure-scraps"`` (or ``"facts-table-scraps"``)
    with the share of the structure's text that was kept.

    Dev gate (``--cv-ablate structures``, 2026-11-25 model): wcxb_dev CV 0.8489 without,
    0.8488 with; it serves the tables and lists of reference pages (the infobox scraps below).
    """
    n = len(blocks)
    last = subtree_ends(blocks)
    with_text = [i for i in range(n) if blocks[i].chars > 0 or blocks[i].images > 0]
    for b in blocks:
        parts = STRUCTURE_PARTS.get(b.element.tag)
        if parts is None:
            continue
        inside = range(b.index, last[b.index] + 1)
        if any(blocks[i].element.tag not in parts for i in inside[1:]):
            if b.element.tag == "table":
                _drop_scraps_of_facts_table(blocks, keep, inside, log)
            continue
        total = sum(blocks[i].chars for i in inside)
        kept = sum(blocks[i].chars for i in inside if keep[i])
        whole = total > 0 and kept >= STRUCTURE_KEEP_SHARE * total
        if not whole and (total == 0 or b.element.tag == "figure"):
            k_before = bisect_left(with_text, b.index) - 1
            k_after = bisect_right(with_text, last[b.index])
            neighbours_kept = k_before >= 0 and k_after < len(with_text) and keep[with_text[k_before]] and keep[with_text[k_after]]
            whole = keep[b.index] or neighbours_kept
        if whole:
            for i in inside:
                if blocks[i].chars > 0 or blocks[i].images > 0:
                    keep[i] = True
        elif 0 < kept < STRUCTURE_DROP_SHARE * total and b.element.tag in STRUCTURE_DROP_TAGS:
            if log is not None:
                _log_scraps(log, keep, inside, "structure-scraps", b.tag, kept / total, STRUCTURE_DROP_SHARE)
            for i in inside:
                keep[i] = False


def _log_scraps(log: RemovalLog, keep: list[bool], inside: range, rule: str, tag: str, share: float, cut: float) -> None:
    """Log the kept blocks of ``inside`` (a structure about to be dropped whole) as ``rule``."""
    removal = Removal("post-rule", rule, {"structure": tag, "kept_share": round(share, 3), "cut": cut})
    for i in inside:
        if keep[i]:
            log.drop(i, removal)


FACTS_TABLE_DROP_SHARE = 0.1
"""Share of a facts table's text under which the blocks kept in it are dropped
(:func:`_drop_scraps_of_facts_table`). At :data:`STRUCTURE_DROP_SHARE` (0.25) cleaneval lost
0.0009; at 0.1 no dataset moves, and 7 held-out tables (108 characters) go."""


def _drop_scraps_of_facts_table(blocks: list[Block], keep: list[bool], inside: range, log: RemovalLog | None = None) -> None:
    """Drop, in place, what was kept of a table of facts with less than
    :data:`FACTS_TABLE_DROP_SHARE` of its text kept.

    A table of facts holds lists and divisions in its cells (Wikipedia's infobox and navboxes),
    so it is no data table for :func:`complete_structures`; a table with paragraphs or tables
    inside is a page grid, where the article may be a small share of the whole, and is left
    alone. The infobox of readability's ``wikipedia-2`` showed as two rows of forty ("Currency"
    with an empty cell, and the date format) at the top of the reader view.
    """
    if any(blocks[i].element.tag in ("table", "p") for i in inside[1:]):
        return
    total = sum(blocks[i].chars for i in inside)
    kept = sum(blocks[i].chars for i in inside if keep[i])
    if 0 < kept < FACTS_TABLE_DROP_SHARE * total:
        if log is not None:
            _log_scraps(log, keep, inside, "facts-table-scraps", "table", kept / total, FACTS_TABLE_DROP_SHARE)
        for i in inside:
            keep[i] = False


HEADLINE_LOOKBACK = 12
"""How many candidate blocks before the first content block are searched for the headline."""


def headline_block(analysis: Analysis, keep: list[bool]) -> int | None:
    """The block holding the article's headline, if the classifier left it out.

    The headline is part of the main content (l3s_gn1 labels it "headline"; big9, dragnet and
    wcxb_dev truths start with it), but it is short and often sits among navigation, so the
    block classifier misses it on about a third of held-out dragnet pages. We take the block
    whose text matches the title (``title_like``: title-token overlap >= 0.8 and not much longer
    than the title; seed 001 §2.2.2's title relevance) closest before the first content block,
    within :data:`HEADLINE_LOOKBACK` candidates.

    Dev gate (``--cv-ablate headline``, 2026-11-25 model): wcxb_dev CV 0.8494 without,
    0.8488 with (-0.0006, on article pages); held out, daniel
    0.950 -> 0.952, wcxb_dev 0.850 -> 0.849, the others unchanged to three decimals.
    """
    cand = analysis.candidates
    first = next((row for row, i in enumerate(cand) if keep[i]), None)
    if first is None:
        return None
    col = FEATURE_NAMES.index("title_like")
    for row in range(first - 1, max(first - 1 - HEADLINE_LOOKBACK, -1), -1):
        if analysis.features[row, col] > 0:
            return cand[row]
    return None


BYLINE_MARK_RE = re.compile("byline|author|dateline|writtenby")
"""A lower-cased class or id that names a byline (Mozilla Readability's ``byline`` pattern);
"comment" excludes it (a comment's author)."""

BYLINE_LOOKAHEAD = 8
"""How many content blocks from the first are searched for the byline line."""

BYLINE_EXTRA_CHARS = 60
"""Characters a byline line may hold besides the name (a "By", a role, a date and time)."""


def _names_a_byline(element) -> bool:
    """True if ``element`` or an element inside it is marked as the byline: a class or id
    matching :data:`BYLINE_MARK_RE` (not a comment's), ``rel="author"`` or
    ``itemprop="author"`` (the marks the metadata's byline search ranks, ``_byline`` in
    :mod:`pagesieve.article.metadata`)."""
    for e in element.iter(etree.Element):
        names = " ".join(n for n in (e.get("class"), e.get("id")) if n).lower()
        if names and BYLINE_MARK_RE.search(names) and "comment" not in names:
            return True
        if "author" in (e.get("rel") or "").lower().split() or (e.get("itemprop") or "").lower() == "author":
            return True
    return False


def byline_block(blocks: list[Block], keep: list[bool], byline: str | None) -> int | None:
    """The content block that is the article's byline line, which the reader view and a saved
    article show in their header instead (as Firefox Reader View does: Readability removes the
    node it took the byline from).

    It is one of the first :data:`BYLINE_LOOKAHEAD` content blocks, holds the metadata's
    ``byline`` with at most :data:`BYLINE_EXTRA_CHARS` more characters ("By Marta Quispe ·
    14 March 2026", "By DAVID RUNK Associated Press Writer"), and is marked as a byline
    (:func:`_names_a_byline`). ``None`` when there is no such block or no byline of at least
    three characters.
    """
    if not byline or len(byline) < 3:
        return None
    wanted = byline.casefold()
    seen = 0
    for b in blocks:
        if not keep[b.index] or not b.chars:
            continue
        seen += 1
        if seen > BYLINE_LOOKAHEAD:
            return None
        text = " ".join(b.text.split())
        if len(text) <= len(byline) + BYLINE_EXTRA_CHARS and wanted in text.casefold() and _names_a_byline(b.element):
            return b.index
    return None


def title_heading_block(blocks: list[Block], keep: list[bool], title: str | None) -> int | None:
    """The first content block when it is a heading that repeats the article's ``title``
    (the same tokens, :func:`pagesieve.evaluation.metric.tokens`), else ``None``.

    The reader view and saved articles show the title in their header; the article's own copy
    of it, first in the body, showed it twice (readability's ``medium-1`` opens with an
    ``<h4>`` of the title). Mozilla Readability drops such a heading too
    (``_headerDuplicatesTitle``, for ``h1`` and ``h2``).
    """
    if not title:
        return None
    wanted = tokens(title)
    if not wanted:
        return None
    for b in blocks:
        if keep[b.index] and b.chars:
            return b.index if b.element.tag in HEADING_TAGS and tokens(b.text) == wanted else None
    return None


def hideable_blocks(blocks: list[Block], keep: list[bool]) -> list[int]:
    """The blocks to hide so that exactly the noise disappears: the outermost blocks with no
    content block inside them (the body excepted), document order. Hiding a block hides its
    subtree, so a noise container around content is never among them."""
    has_content = holds_content(blocks, keep)
    out = []
    for b in blocks:
        if b.parent < 0 or has_content[b.index]:
            continue
        if has_content[b.parent] and (b.chars or b.images or b.sub_chars or b.sub_images):
            out.append(b.index)  # outermost: its parent holds content, so is not hidden itself
    return out


def judge_page(
    page: Page,
    model: BlockClassifier | None = None,
    templates: SiteTemplates | None = None,
    evidence_kinds: Iterable[str] = DEFAULT_KINDS,
    corrections: SiteRules | None = None,
    title_only: bool = True,
    explain: bool = False,
) -> tuple[Analysis, list[bool]]:
    """Analyse and classify ``page``: its :class:`Analysis` and, per block (document order),
    True if the block is main content. Changes ``page.root`` in place.

    The part of :func:`extract_page` that "hide noise" needs: no article is rendered, and the
    analysis's metadata holds the title alone unless ``title_only`` is false (hiding needs no
    byline, date or lead image). Every stage logs why it judged a block noise in
    ``analysis.removals`` (:mod:`pagesieve.removal`); with ``explain``, pre-processing logs the
    elements it removes too. Other arguments and errors as :func:`extract_page`.
    """
    model = model or model_for(page)
    analysis = analyse(page, title_only=title_only, signals=getattr(model, "page_type", None) is not None, explain=explain)
    keep = classify(analysis, model)
    if templates is not None:
        evidence_kinds = tuple(evidence_kinds)
        apply_evidence(analysis.blocks, keep, page_evidence(analysis.blocks, templates, evidence_kinds), evidence_kinds,
                       log=analysis.removals, templates=templates)
    if corrections:
        apply_rules(analysis.page, analysis.blocks, keep, corrections, log=analysis.removals)
    return analysis, keep


def verdict_ids(blocks: list[Block], keep: list[bool]) -> tuple[list[int], list[int]]:
    """``(content ids, noise ids)``: node ids of the kept blocks, and of the blocks "hide noise"
    hides (:func:`hideable_blocks`), both in document order."""
    content_ids = [b.node_id for b in blocks if keep[b.index]]
    noise_ids = [blocks[i].node_id for i in hideable_blocks(blocks, keep)]
    return content_ids, noise_ids


def extract_page(
    page: Page,
    model: BlockClassifier | None = None,
    templates: SiteTemplates | None = None,
    evidence_kinds: Iterable[str] = DEFAULT_KINDS,
    corrections: SiteRules | None = None,
) -> Article:
    """The article of a page (from HTML or a snapshot). Changes ``page.root`` in place.

    Args:
        page: the page; model: the block classifier (default: the shipped model that suits the
            page: box-aware for a rendered layout, :func:`pagesieve.classifier.model_for`).
        templates: what the template store learned of the page's site
            (:meth:`~pagesieve.templates.store.TemplateStore.templates_for`), or ``None``;
            its evidence removes the site's boilerplate after classification
            (:func:`~pagesieve.templates.evidence.apply_evidence`, with ``evidence_kinds``).
        corrections: the user's corrections of the page's site
            (:meth:`~pagesieve.corrections.store.LabelStore.rules_for`), applied last
            (:func:`~pagesieve.corrections.rules.apply_rules`): they override the classifier.

    Returns:
        :class:`Article` with metadata, sanitised HTML, text, and the node ids of content and
        noise blocks. A page with no text gets an empty article, not an error.

    Raises:
        ModelError: the model cannot be loaded.
    """
    analysis, keep = judge_page(page, model, templates, evidence_kinds, corrections, title_only=False)
    return render_article(analysis, keep)


def render_article(analysis: Analysis, keep: list[bool]) -> Article:
    """The :class:`Article` of a judged page (``analysis, keep`` from :func:`judge_page` with
    ``title_only=False``). Prunes the page tree to its content in place, so anything else that
    reads the tree (learning the page's template) must come first.

    The byline line (:func:`byline_block`) and a first heading that repeats the title
    (:func:`title_heading_block`) are left out of the HTML, whose readers (the reader view, a
    saved article) show the title and byline in their header; the text keeps them, as content.
    """
    page, blocks = analysis.page, analysis.blocks
    content_ids, noise_ids = verdict_ids(blocks, keep)
    text = blocks_text(blocks, keep)
    shown_in_header = [byline_block(blocks, keep, analysis.metadata.byline),
                       title_heading_block(blocks, keep, analysis.metadata.title)]
    if any(i is not None for i in shown_in_header):
        keep = list(keep)
        for i, rule in zip(shown_in_header, ("byline-in-header", "title-in-header")):
            if i is not None:
                keep[i] = False
                analysis.removals.header[i] = Removal("post-rule", rule, {"html_only": True})
    body = prune(blocks, keep)
    html = finish_html(body, page.url)
    return Article(
        metadata=analysis.metadata,
        url=page.url,
        html=html,
        text=text,
        content_ids=content_ids,
        noise_ids=noise_ids,
        warnings=list(page.warnings),
    )


def extract(source: bytes | str, url: str | None = None, model: BlockClassifier | None = None) -> Article:
    """The article of an HTML page.

    Args:
        source: the page as bytes (charset detected) or str.
        url: the page URL, used to resolve relative links and images.
        model: the block classifier (default: the shipped model).

    Raises:
        InputError: empty, binary or oversized input. ModelError: no usable model.
    """
    return extract_page(parse_html(source, url=url), model)
