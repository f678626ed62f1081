"""The extraction pipeline: page -> blocks -> features -> classifier -> article.

:func:`extract` is the one-call API (HTML in, :class:`~pagesieve.article.model.Article` out);
:func:`extract_page` does the same for a :class:`~pagesieve.page.model.Page` built from HTML or
from a browser snapshot; :func:`analyse` stops after the features, for training and tools.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable

import numpy as np

from pagesieve.analysis import Analysis
from pagesieve.article.header import split_header
from pagesieve.article.metadata import extract_metadata
from pagesieve.article.model import Article
from pagesieve.article.render import finish_html, prune
from pagesieve.article.text import blocks_text
from pagesieve.blocks.segment import Block, holds_content, segment, sibling_groups
from pagesieve.classify.classifier import BlockClassifier
from pagesieve.classify.model_store import model_for
from pagesieve.classify.page_type import likeliest_type
from pagesieve.blocks.layout import box_features
from pagesieve.classify.context import tree_arrays
from pagesieve.blocks.features import block_features
from pagesieve.page.base import document_base_url
from pagesieve.page.html import parse_html
from pagesieve.page.model import Page
from pagesieve.page.preprocess import preprocess
from pagesieve.removal import Removal, RemovalLog
from pagesieve.rules.asides import drop_named_asides
from pagesieve.rules.between import keep_posts_between
from pagesieve.rules.specs import keep_spec_tables
from pagesieve.rules.comments import drop_comment_sections, is_forum
from pagesieve.rules.copies import drop_adjacent_copies
from pagesieve.rules.quotes import drop_quoted_copies
from pagesieve.rules.credits import drop_photo_credits
from pagesieve.rules.headings import drop_trailing_heading, is_article
from pagesieve.rules.headline import headline_block
from pagesieve.rules.layers import find_layers, judge_layers, kept_layers_out
from pagesieve.rules.notices import drop_notices
from pagesieve.rules.labels import drop_boilerplate_labels
from pagesieve.rules.listing import widen_thin_listing
from pagesieve.rules.loose import keep_loose_prose
from pagesieve.rules.structures import complete_structures
from pagesieve.rules.records import complete_records, forum_sure
from pagesieve.rules.thin import widen_thin_page
from pagesieve.rules.teasers import drop_teaser_runs
from pagesieve.rules.unrendered import drop_unrendered_templates
from pagesieve.blocks.signals import card_columns, card_items, page_signals, raw_page_signals
from pagesieve.templates.evidence import DEFAULT_KINDS, apply_evidence, page_evidence
from pagesieve.templates.store import SiteTemplates
from pagesieve.corrections.parts import drop_parts, hidden_parts
from pagesieve.corrections.rules import apply_rules
from pagesieve.corrections.store import SiteRules

def analyse(page: Page, title_only: bool = False, signals: bool = True, explain: bool = False) -> Analysis:
    """Metadata, pre-processing, segmentation and features of ``page`` (its tree is changed);
    with ``title_only``, the metadata holds the title alone (see :func:`extract_metadata`); with
    ``signals`` false, the raw page signals (:func:`pagesieve.blocks.signals.raw_page_signals`, read
    before pre-processing, for a model with a page-type stage) are not read; with ``explain``,
    the elements pre-processing removes are logged with their reasons
    (:attr:`pagesieve.removal.RemovalLog.preprocessed`)."""
    metadata = extract_metadata(page, title_only=title_only)
    rel_next = _rel_next(page.root)
    base_url = document_base_url(page.root, page.url)  # before pre-processing removes <base>
    raw_signals = raw_page_signals(page.root, page.url) if signals else None  # before pre-processing removes scripts and forms
    removals = RemovalLog()
    layers = find_layers(page)  # before pre-processing drops the empty ones (a backdrop)
    removed: list | None = [] if explain else None
    preprocess(page, removals=removed)
    if removed is not None:
        removals.preprocessed = [(element, Removal("preprocess", rule, {"tag": element.tag})) for element, rule in removed]
    blocks = segment(page.root, positions=page.positions())
    title = metadata.title or page.title
    groups = sibling_groups(blocks)  # read by the features, the card items and the teaser rule
    candidates, features = block_features(blocks, title, groups)
    return Analysis(page, metadata, blocks, candidates, features, raw_signals=raw_signals, removals=removals, layers=layers,
                    sibling_groups=groups, rel_next=rel_next, base_url=base_url)


def _rel_next(root) -> str | None:
    """The ``href`` of the first ``<link rel="next">`` of the page's head (HTML Living Standard
    §4.6.7.14, link type "next"), or ``None``."""
    head = root.find("head")
    if head is None:
        return None
    for link in head.iter("link"):
        if "next" in (link.get("rel") or "").lower().split() and link.get("href"):
            return link.get("href")
    return None


def next_page(analysis: Analysis, keep: list[bool], seen=(), whole_view: bool = True):
    """Where the article of a judged page goes on (:func:`pagesieve.article.pagination.find_next_page`):
    read from the tree before :func:`render_article` prunes it. Links inside the sections the
    comment rule removed are older comments; the page is a listing when the page-type stage
    names one of :data:`LISTING_PAGE_TYPES` the likeliest, or when at least
    :data:`LISTING_ITEMS` of its kept blocks, and more than a third of them, are each one link
    to another page (a listing's posts: their titles, "Read more"). Returns a
    :class:`~pagesieve.article.pagination.NextPage`."""
    from pagesieve.article.pagination import find_next_page

    kept = [b for b in analysis.blocks if keep[b.index] and b.chars]
    kept_chars = sum(b.chars for b in kept)

    def listing() -> bool:  # counted only when a link could be followed
        kind = analysis.page_type
        if likeliest_type(kind) in LISTING_PAGE_TYPES:
            return True
        items = sum(1 for b in kept if _one_link(b))
        return items >= LISTING_ITEMS and items * 3 > len(kept)

    comments = [analysis.blocks[i].element for i, r in analysis.removals.reasons.items() if r.rule == "comment-section"]
    return find_next_page(analysis.page.root, analysis.page.url, analysis.rel_next, kept_chars, listing, seen, comments,
                          whole_view, analysis.base_url)


LISTING_PAGE_TYPES = ("listing", "collection")
"""WCXB page types (:data:`pagesieve.classify.page_type.PAGE_TYPES`) whose pages are lists of
other pages, not an article: their "next" is the list's next items, never the article's next
page (issue 53's trap "a listing's older posts"). On wcxb_dev, before this, the host followed
category and topic pages (ikea.com, ifixit.com, ciodive.com, eventbrite.com)."""

LISTING_ITEMS = 3
"""Kept blocks that are each one link, from which a page may be a listing (:func:`next_page`)."""


ONE_LINK_MAX_CHARS = 300
"""Characters of a block's text above which it is not one link's text (a post's title or "Read
more" is far shorter): such a block's links are not read (:func:`_one_link`)."""


def _one_link(block: Block) -> bool:
    """True if the block's own text is the text of one link inside it (a post's title)."""
    if not block.text or len(block.text) > ONE_LINK_MAX_CHARS or next(block.element.iter("a"), None) is None:
        return False
    text = " ".join(block.text.split())
    if not text:
        return False
    for a in block.element.iter("a"):
        if " ".join("".join(a.itertext()).split()) == text and a.get("href"):
            return True
    return False


def model_rows(analysis: Analysis, model: BlockClassifier) -> np.ndarray:
    """The feature rows ``model`` reads, ``(len(candidates), len(model.meta["features"]))``: the
    first-pass features, then the box features for a box-aware model (zeros where the page has
    no layout), the card columns (:data:`pagesieve.blocks.signals.CARD_COLUMNS`) and the page-type
    probabilities (:mod:`pagesieve.classify.page_type`) for a model that reads them."""
    parts = [analysis.features]
    if model.uses_boxes:
        if analysis.box_features is None:  # computed when a model asks: about 4 ms on a 5,000-element page
            analysis.box_features = box_features(analysis.page, analysis.blocks, analysis.candidates)
        parts.append(analysis.box_features)
    cards = None  # the page's card items, made once for both the card columns and the page signals
    if getattr(model, "uses_cards", False):
        if analysis.card_features is None:
            cards = card_items(analysis.blocks, analysis.sibling_groups)
            analysis.card_features = card_columns(analysis.blocks, analysis.candidates, analysis.page.url, cards)
        parts.append(analysis.card_features)
    if getattr(model, "page_type", None) is not None:
        if analysis.page_type is None:
            signals = page_signals(analysis.raw_signals or {}, analysis.blocks, cards)
            analysis.page_type = np.ravel(model.page_type.probabilities(signals))
        parts.append(analysis.page_type)  # the same on every row
    if len(parts) == 1:
        return parts[0]
    # Each part copied into its columns (the page type broadcast down them), as np.tile and
    # np.hstack gave them with two calls less.
    rows = np.empty((len(analysis.candidates), sum(part.shape[-1] for part in parts)))
    start = 0
    for part in parts:
        rows[:, start:start + part.shape[-1]] = part
        start += part.shape[-1]
    return rows


def classify(analysis: Analysis, model: BlockClassifier) -> list[bool]:
    """Per block (all blocks, document order): True if it is main content. The classifier's
    reason for each block it judged noise is made on request (``analysis.removals.first_pass``,
    :meth:`pagesieve.classify.classifier.BlockClassifier.reason`), the page rules' as they drop."""
    keep = [False] * len(analysis.blocks)
    if analysis.candidates:
        tree = tree_arrays(analysis.blocks)
        rows = model_rows(analysis, model)  # sets analysis.page_type for a model with a page-type stage
        is_content, decision, score, fallback = model.verdict(tree, analysis.candidates, rows, analysis.page_type)
        for i, flag in zip(analysis.candidates, is_content):
            keep[i] = bool(flag)
        if model.context is not None:
            analysis.content_scores = block_scores(len(analysis.blocks), analysis.candidates, score)
        analysis.removals.first_pass = _FirstPassReasons(model, analysis.candidates, is_content, decision, score, fallback,
                                                         model.cut_for(analysis.page_type))
        # A personal model learned from the user's corrections which runs of links they keep:
        # the teaser rule, a rule of structure, does not overrule it (a "keep this" on a
        # "You might also like" list of five sites keeps it on the sixth).
        settle(analysis, keep, skip=PERSONAL_SKIP if "personal" in model.meta else frozenset(), decision=decision)
        if model.context is not None:
            widen_thin_page(analysis.blocks, analysis.candidates, keep, score, analysis.removals.reasons)
    return keep


PERSONAL_SKIP = frozenset({"teasers", "asides"})
"""The page rules :func:`classify` leaves out when the model is the user's personal model
(:mod:`pagesieve.corrections.personal`, whose ``meta`` holds ``"personal"``): the user's
corrections taught that model which link lists and boxes they keep, and a rule that drops them by
their look or their name would overrule it on every site they have not corrected (a "You might
also like" list in a ``<section class="related-posts">`` kept on five sites is kept on the
sixth, tests/test_native_host.py)."""


def block_scores(n_blocks: int, candidates: list[int], score: np.ndarray) -> list[float]:
    """Per block of a page of ``n_blocks`` blocks, the classifier's ``score`` (``(len(candidates),)``,
    one per candidate block, in order) as plain floats, 0.0 for the blocks not classified."""
    out = [0.0] * n_blocks
    for i, value in zip(candidates, score.tolist()):
        out[i] = value
    return out


class _FirstPassReasons:
    """Block index -> the classifier's :class:`~pagesieve.removal.Removal` of it (``None`` for a
    block it kept or did not judge), made when called; :meth:`rule` gives its rule alone."""

    __slots__ = ("model", "candidates", "is_content", "decision", "score", "fallback", "cut")

    def __init__(self, model: BlockClassifier, candidates: list[int], is_content, decision, score, fallback,
                 cut: float | None = None) -> None:
        self.model, self.candidates, self.is_content = model, candidates, is_content
        self.decision, self.score, self.fallback, self.cut = decision, score, fallback, cut

    def _row(self, index: int) -> int | None:
        row = bisect_left(self.candidates, index)
        if row == len(self.candidates) or self.candidates[row] != index or self.is_content[row]:
            return None
        return row

    def __call__(self, index: int) -> Removal | None:
        row = self._row(index)
        return None if row is None else self.model.reason(float(self.decision[row]), float(self.score[row]), self.fallback, self.cut)

    def rule(self, index: int) -> str | None:
        row = self._row(index)
        return None if row is None else self.model.rule(float(self.decision[row]), self.fallback)


SETTLE_RULES = ("headline", "structures", "records", "notices", "comments", "labels", "templates", "teasers", "credits", "copies",
                "quotes", "listing", "asides", "loose", "trailing", "between", "specs")
"""The names of :func:`settle`'s rules, in the order they run (the dev gate's ``--cv-ablate``
leaves each out in turn to measure it)."""


def settle(analysis: Analysis, keep: list[bool], skip: frozenset[str] = frozenset(), decision: np.ndarray | None = None) -> None:
    """The page rules that follow the classifier's verdicts (:mod:`pagesieve.rules`), in place:
    the headline is kept (:func:`~pagesieve.rules.headline.headline_block`), structures are
    completed (:func:`~pagesieve.rules.structures.complete_structures`), so are the posts of a
    forum thread (:func:`~pagesieve.rules.records.complete_records`), consent notices and
    newsletter offers outside the main region are dropped,
    :func:`~pagesieve.rules.notices.drop_notices` (before the comment sections: a consent
    notice is no article of the page's own, by which a thread in ``<div id="comments">`` went
    as comments, wcxb_dev/0543, F1 0.00 -> 0.75, the only page of the eight datasets that
    changed; held-out gate wcxb_dev 0.870557 -> 0.871600; dev gate 0.8659 in either order,
    its folds' models not reaching that page's fault), and so are comment sections,
    boilerplate labels and unrendered templates
    (:func:`~pagesieve.rules.comments.drop_comment_sections`,
    :func:`~pagesieve.rules.labels.drop_boilerplate_labels`,
    :func:`~pagesieve.rules.unrendered.drop_unrendered_templates`, and the
    teaser cards around an article, :func:`~pagesieve.rules.teasers.drop_teaser_runs`, and a
    photo's credit line beside it, :func:`~pagesieve.rules.credits.drop_photo_credits`, and a
    short line shown twice in a row, :func:`~pagesieve.rules.copies.drop_adjacent_copies`, and a
    post quoted again in a reply, :func:`~pagesieve.rules.quotes.drop_quoted_copies`; last,
    a listing left with its heading alone keeps its grid of items,
    :func:`~pagesieve.rules.listing.widen_thin_listing`; what the page names an aside
    (a disclaimer, an author's bio, related links, a share bar, a sponsor's or newsletter's box,
    a breadcrumb trail; on a product's page, its customers' reviews)
    goes, :func:`~pagesieve.rules.asides.drop_named_asides`; a paragraph written loose in a
    story's container is kept with the story, :func:`~pagesieve.rules.loose.keep_loose_prose`;
    and a heading left at the end of the body
    with nothing under it goes, :func:`~pagesieve.rules.headings.drop_trailing_heading`;
    and on a forum thread, the prose between its kept posts that the first stage calls content
    is kept, :func:`~pagesieve.rules.between.keep_posts_between`; and on a product page, its
    specification tables, :func:`~pagesieve.rules.specs.keep_spec_tables`;
    each drop logged in ``analysis.removals``, stage ``"post-rule"``). ``skip``: names of :data:`SETTLE_RULES` not
    to run. ``decision``: the first stage's (SVM) decision of each of ``analysis.candidates``,
    ``(len(candidates),)``, which the forum rule reads; ``None``: that rule does not run."""
    log = analysis.removals
    if "headline" not in skip:
        headline = headline_block(analysis.candidates, analysis.features, keep)
        if headline is not None:
            keep[headline] = True
    if "structures" not in skip:
        complete_structures(analysis.blocks, keep, log)
    if "records" not in skip and forum_sure(analysis.page_type):
        complete_records(analysis.blocks, keep, analysis.sibling_groups or [], log)
    if "notices" not in skip:
        drop_notices(analysis.blocks, keep, log)
    if "comments" not in skip:
        drop_comment_sections(analysis.blocks, keep, log, forum=is_forum(analysis.page_type))
    if "labels" not in skip:
        drop_boilerplate_labels(analysis.blocks, keep, log)
    if "templates" not in skip:
        drop_unrendered_templates(analysis.blocks, keep, log)
    if "teasers" not in skip:
        drop_teaser_runs(analysis.blocks, keep, analysis.page.url, analysis.page_type, log, analysis.sibling_groups)
    if "credits" not in skip:
        drop_photo_credits(analysis.blocks, keep, log)
    if "copies" not in skip:
        drop_adjacent_copies(analysis.blocks, keep, log)
    if "quotes" not in skip:
        drop_quoted_copies(analysis.blocks, keep, log)
    if "listing" not in skip:
        widen_thin_listing(analysis.blocks, keep, analysis.sibling_groups or [], analysis.page_type, log)
    if "asides" not in skip:
        drop_named_asides(analysis.blocks, keep, log, product=likeliest_type(analysis.page_type) == "product")
    if "loose" not in skip:
        keep_loose_prose(analysis.blocks, keep, log)
    if "trailing" not in skip and is_article(analysis.page_type):
        drop_trailing_heading(analysis.blocks, keep, log)
    if "between" not in skip and decision is not None and is_forum(analysis.page_type):
        keep_posts_between(analysis.blocks, analysis.candidates, decision, keep, log)
    if "specs" not in skip and likeliest_type(analysis.page_type) == "product":
        keep_spec_tables(analysis.blocks, keep, log)


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
    byline, date or lead image). The layers over a live page that hold no main content are
    judged after the classifier (:func:`pagesieve.rules.layers.judge_layers`; the templates and
    the user's corrections come after them and win, the templates except on the blocks the
    classifier is confident are main content,
    :data:`~pagesieve.templates.evidence.CONFIDENT_CONTENT`). Every stage logs why it judged a
    block noise in ``analysis.removals`` (:mod:`pagesieve.removal`); with ``explain``,
    pre-processing logs the elements it removes too. Other arguments and errors as
    :func:`extract_page`.
    """
    model = model or model_for(page)
    analysis = analyse(page, title_only=title_only, signals=getattr(model, "page_type", None) is not None, explain=explain)
    keep = classify(analysis, model)
    if analysis.layers:
        analysis.hidden_layers = judge_layers(page, analysis.blocks, keep, analysis.layers, analysis.removals)
    if templates is not None:
        evidence_kinds = tuple(evidence_kinds)
        apply_evidence(analysis.blocks, keep, page_evidence(analysis.blocks, templates, evidence_kinds), evidence_kinds,
                       log=analysis.removals, templates=templates, scores=analysis.content_scores)
    if corrections:
        apply_rules(analysis.page, analysis.blocks, keep, corrections, log=analysis.removals)
        analysis.hidden_parts = hidden_parts(analysis.page, analysis.blocks, keep, corrections)
        if analysis.hidden_layers:
            analysis.hidden_layers = kept_layers_out(analysis.blocks, keep, analysis.hidden_layers, analysis.layers)
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
            page: box-aware for a rendered layout, :func:`pagesieve.classify.model_store.model_for`).
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

    The text is the body (issue 52): the byline line, a first heading that repeats the title
    and the dateline of the publication date (:func:`pagesieve.article.header.split_header`)
    are left out of the text, the HTML and the Markdown, whose readers (the reader view, a
    saved article) show the title, byline and date in their header;
    :attr:`~pagesieve.article.model.Article.header` holds them as the page shows them. Each is
    logged in ``analysis.removals.header`` (stage ``post-rule``, its rule of
    :data:`~pagesieve.article.header.HEADER_RULES`). The elements inside kept blocks that the
    user's corrections hide (``analysis.hidden_parts``) are left out of all of them.
    """
    page, blocks, meta = analysis.page, analysis.blocks, analysis.metadata
    content_ids, noise_ids = verdict_ids(blocks, keep)
    blocks = drop_parts(blocks, analysis.hidden_parts)  # the elements the user hid inside kept blocks
    body_keep, header, rules = split_header(blocks, keep, meta.title, meta.byline, meta.published)
    for i, rule in rules.items():
        analysis.removals.header[i] = Removal("post-rule", rule, {"header": True})
    text = blocks_text(blocks, body_keep)
    body = prune(blocks, body_keep)
    html = finish_html(body, page.url, analysis.base_url)
    return Article(
        metadata=meta,
        url=page.url,
        html=html,
        text=text,
        header=header,
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
