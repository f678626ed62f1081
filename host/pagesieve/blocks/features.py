"""Block features for the content/noise classifier: one row of numbers per candidate block.

The first five are the features of Yan & Wang 2020 (seed 000 §5.1-5.2), with add-one
smoothing in every denominator::

    R1 = innerLen / (outerLen + 1)           block text / page text
    R2 = innerLinkLen / (outerLinkLen + 1)   block link text / page link text
    R3 = innerLinkNum / (outerLinkNum + 1)   block <a> count / page <a> count
    R4 = innerPicNum / (outerPicNum + 1)     block <img> count / page <img> count
    R5 = innerLinkLen / (innerLen + 1)       link density inside the block

"inner" counts a block's own content (nested blocks excluded), "outer" the whole page.
The others were added in groups, each group kept because held-out F1 rose with it
(``models/README.md`` records the figures):

* text density and composite text density of the block's subtree (CETD: Sun, Sun & Chen,
  "DOM Based Content Extraction via Text Density", SIGIR 2011, eq. 1 and 4);
* title relevance: share of the title's tokens present in the block (An et al. 2010, seed 001
  §2.2.2, which uses it to stop copyright lines passing as content);
* tag of the block, and class/id tokens of the block and of its enclosing blocks that name
  noise (nav, footer, comment, share, related ...) or content (article, post, story ...);
  the token lists follow Readability.js's ``unlikelyCandidates``/``positive``/``negative``
  patterns;
* depth, position in the page, punctuation and stop-word density, share of CJK characters
  (characters, not words, are the unit for Chinese and Japanese);
* neighbourhood: the previous/next candidate's length and link density, the share of page
  text under the parent and grandparent block, and the relation to the longest block (main
  content forms one cluster in the tree);
* the container vote of Readability.js (``grabArticle``): paragraphs of 25 characters or more
  score ``1 + commas + min(len // 100, 3)`` for their parent, half for the grandparent and a
  sixth for the great-grandparent; containers start from their tag and class weight (+-25)
  and end scaled by ``1 - link density``; the best container and its siblings scoring at least
  ``max(10, 0.2 * best)`` form the article. As features: inside the best container, inside the
  selected region, the parent's score relative to the best (see :func:`container_vote`);
* repetition: comments, forum posts and teaser lists are runs of sibling containers of one
  tag and class; ``repeated_container`` is the log of the largest such run among the block's
  three nearest enclosing blocks (see :func:`sibling_runs`); ``repeated_with_comment_marks``
  says whether that run's container also holds what comments carry and articles rarely do: a
  clock time, "reply", "said"/"says" (:data:`COMMENT_MARK_RE`).
"""

from __future__ import annotations

import math
import re
from itertools import chain
from operator import attrgetter
from collections.abc import Sequence

import numpy as np

from pagesieve.blocks.segment import Block, sibling_groups, subtree_ends

TOKEN_RE = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]"
    r"|[^\W_\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+"
)
"""A token: one CJK character, or a run of letters/digits (the evaluation's token, too)."""

_ASCII_TOKEN_RE = re.compile(r"[a-z0-9]+")
""":data:`TOKEN_RE` for lower-cased ASCII text (same tokens, 1.7x faster)."""

_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")
_PUNCT_RE = re.compile(r"[.,;:!?\u3002\uff0c\u3001\uff1b\uff1a\uff01\uff1f\u201c\u201d\"']")
_SENTENCE_END = frozenset(".!?\u3002\uff01\uff1f\"'\u201d)]")

_WORD_RE = re.compile(r"[^\W_]+")
""":data:`TOKEN_RE` for text without CJK characters (lower-casing makes none, ``tests/test_fast_paths.py``
checks every code point): the same tokens, its first alternative never matching, in 70 % of the time."""

_NON_CJK_WORD_RE = re.compile(r"[^\W_\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+")
"""The second alternative of :data:`TOKEN_RE` alone. In text with CJK characters, the tokens of
:data:`TOKEN_RE` are each CJK character (lower-casing keeps them and makes no other) and the words
of this pattern: counting the characters and finding the title's among them with ``in`` gives
the token count, stop words and title overlap in half the time of the token list (2,507 CJK
candidate texts of 160 dataset pages, 63 -> 28 ms; ``tests/test_fast_paths.py``)."""

_ASCII_WORDS = bytes(c + 32 if 65 <= c <= 90 else c if 48 <= c <= 57 or 97 <= c <= 122 else 32 for c in range(256))
"""A ``bytes.translate`` table: upper-case ASCII letters to lower case, digits and lower-case letters
kept, every other byte to a space. ``text.encode().translate(_ASCII_WORDS).split()`` is
``_ASCII_TOKEN_RE.findall(text.lower())`` for ASCII ``text``, as ``bytes``: with the stop words, the
title overlap and the punctuation count read in bytes too, the text columns of an ASCII text take
half the time of the patterns (17,101 ASCII candidate texts of 160 dataset pages, 84 -> 45 ms;
``tests/test_fast_paths.py`` compares the two on real pages)."""

_ASCII_PUNCT = b".,;:!?\"'"
"""The ASCII characters of :data:`_PUNCT_RE`: an ASCII text's punctuation count is the bytes that
``bytes.translate`` deletes for them (a quarter of the time of ``findall``)."""

_NEGATIVE_WORDS = (
    r"nav|menu|foot|header|masthead|sidebar|side-bar|widget|share|sharing|social|related|"
    r"recommend|promo|sponsor|advert|banner|breadcrumb|copyright|"
    r"comment|disqus|reply|login|signup|subscribe|newsletter|popup|modal|cookie|toolbar|"
    r"pagination|pager|tagcloud|skip|rss|outbrain|taboola|"
    r"most-?popular|trending|teaser|more-?stories|card|tool"
)
_NEGATIVE_TOKENS = r"(?:^|[-_ ])(?:ads?|tags?)(?:$|[-_ ])"

NEGATIVE_RE = re.compile(f"{_NEGATIVE_WORDS}|{_NEGATIVE_TOKENS}", re.IGNORECASE)
"""Class/id fragments naming noise (after Readability.js ``REGEXPS.unlikelyCandidates``/``negative``):
words found anywhere, and "ad(s)" and "tag(s)" as whole tokens."""

_POSITIVE_WORDS = r"article|content|entry|story|blog|hentry|h-entry|prose|detail|paragraph"
_POSITIVE_TOKENS = r"(?:^|[-_ ])(?:body|main|post|text)"

POSITIVE_RE = re.compile(f"{_POSITIVE_WORDS}|{_POSITIVE_TOKENS}", re.IGNORECASE)
"""Class/id fragments naming main content (after Readability.js ``REGEXPS.positive``): words
found anywhere, and "body", "main", "post", "text" at the start of a token."""

COMMENT_RE = re.compile(r"comment|disqus|reply|respon", re.IGNORECASE)

# Lower-case ASCII copies, searched case-sensitively (:func:`class_evidence`). The plain words and
# the token-anchored ones are two patterns: Python's ``re`` skips ahead by a pattern's possible
# first letters only when every alternative starts with a letter, which makes the two searches
# together 1.3-1.6x faster than one over their union (class and id strings of 200 dataset pages).
_NEGATIVE_WORDS_RE = re.compile(_NEGATIVE_WORDS)
_NEGATIVE_TOKENS_RE = re.compile(_NEGATIVE_TOKENS)
_POSITIVE_WORDS_RE = re.compile(_POSITIVE_WORDS)
_POSITIVE_TOKENS_RE = re.compile(_POSITIVE_TOKENS)
_COMMENT_LOWER_RE = re.compile(COMMENT_RE.pattern)

STOP_WORDS = frozenset(
    """a an the and or but if of to in on at by for with from as is are was were be been it its
    this that these those he she they we you i his her their our your not no so than then there
    which who whom what when where how all any can could would should will may might has have had
    do does did about into over after before also more most such only other""".split()
)
"""English function words (a short list: the feature is a density, not a filter)."""

_is_stop_word = STOP_WORDS.__contains__
_is_stop_bytes = frozenset(w.encode() for w in STOP_WORDS).__contains__

TAG_GROUPS: tuple[tuple[str, frozenset[str]], ...] = (
    ("tag_p", frozenset({"p"})),
    ("tag_h1", frozenset({"h1"})),
    ("tag_h", frozenset({"h2", "h3", "h4", "h5", "h6"})),
    ("tag_li", frozenset({"li", "dt", "dd"})),
    ("tag_td", frozenset({"td", "th", "caption"})),
    ("tag_div", frozenset({"div", "section", "article", "main", "body"})),
    ("tag_pre", frozenset({"pre", "blockquote"})),
    ("tag_fig", frozenset({"figure", "figcaption"})),
    ("tag_semantic_noise", frozenset({"nav", "footer", "header", "aside", "address", "menu"})),
)

FEATURE_NAMES: tuple[str, ...] = (
    "r1", "r2", "r3", "r4", "r5",
    "log_chars", "log_tokens", "log_sub_chars",
    "text_density", "sub_link_density", "composite_text_density",
    "punct_density", "stopword_ratio", "cjk_ratio", "ends_sentence",
    "title_overlap", "title_like",
    *(name for name, _ in TAG_GROUPS),
    "neg_self", "pos_self", "neg_ancestors", "pos_ancestors", "comment_ancestor",
    "in_semantic_noise", "in_article",
    "rel_depth", "rel_position", "text_before",
    "prev_log_chars", "prev_link_density", "next_log_chars", "next_link_density",
    "parent_share", "grandparent_share",
    "log_ratio_longest", "shares_parent_longest", "lca_depth_longest", "dist_longest",
    "images",
    "in_top_container", "in_selected_region", "parent_vote", "top_container_share",
    "repeated_container", "repeated_with_comment_marks",
)
"""Column names of the feature matrix, in order."""

N_FEATURES = len(FEATURE_NAMES)


def _span(*names: str) -> slice:
    """The columns of ``names``, which stand side by side in :data:`FEATURE_NAMES` in this order."""
    start = FEATURE_NAMES.index(names[0])
    if FEATURE_NAMES[start:start + len(names)] != names:
        raise ValueError(f"columns not side by side in FEATURE_NAMES: {names}")
    return slice(start, start + len(names))


# Column groups that :func:`block_features` fills in one call each; :data:`_COL` finds the others.
_SEED000_COLUMNS = _span("r1", "r2", "r3", "r4")
_TAG_COLUMNS = _span(*(name for name, _ in TAG_GROUPS))
_INHERITED_COLUMNS = _span("neg_self", "pos_self", "neg_ancestors", "pos_ancestors", "comment_ancestor",
                           "in_semantic_noise", "in_article")
_VOTE_COLUMNS = _span("in_top_container", "in_selected_region", "parent_vote")
_NEIGHBOUR_COLUMNS = _span("prev_log_chars", "prev_link_density", "next_log_chars", "next_link_density")
_COL = {name: k for k, name in enumerate(FEATURE_NAMES)}

_TAG_GROUP = {tag: col for col, (_, tags) in enumerate(TAG_GROUPS) for tag in tags}
"""Tag -> its row of :data:`_TAG_ONEHOT_ROWS`; a tag of no group takes the last row (all zeros)."""
_TAG_ONEHOT_ROWS = np.vstack([np.eye(len(TAG_GROUPS)), np.zeros((1, len(TAG_GROUPS)))])
"""``(len(TAG_GROUPS) + 1, len(TAG_GROUPS))``: the one-hot tag columns of each group, then of no group."""

_CANDIDATE_COUNT_NAMES = ("chars", "link_chars", "links", "images", "sub_chars", "sub_link_chars", "sub_tags",
                          "sub_links", "depth")
_CANDIDATE_COUNTS = attrgetter(*_CANDIDATE_COUNT_NAMES)
"""The counts :func:`block_features` reads of each candidate block, converted to one ``(n, 9)``
array in one ``fromiter`` where there were eight conversions and R1-R5 made as Python tuples (the
first four are R1-R4's numerators). With the other calls it saved (results written into the
columns of the feature matrix with ``out=``, the tag columns taken from :data:`_TAG_ONEHOT_ROWS`,
the three enclosing levels gathered at once), ``block_features`` took 0.957 of its time on 104
dataset pages of 3-25 ms (ten rounds, new and old alternating in one process, 2026-11-27;
``models/README.md``, "Fixed cost per page")."""
_PARENT = attrgetter("parent")
_SUB_CHARS = attrgetter("sub_chars")


def seed000_features(blocks: Sequence[Block], indices: Sequence[int] | None = None) -> list[tuple[float, ...]]:
    """R1-R5 of seed 000 §5.2 for the blocks ``indices`` (default: every block).

    Page totals ("outer") always count every block.

    Returns:
        one ``(R1, R2, R3, R4, R5)`` tuple per block, in the order of ``indices``.
    """
    chosen = blocks if indices is None else [blocks[i] for i in indices]
    d_len, d_link_len, d_links, d_pics = _outer_denominators(blocks)
    return [
        (b.chars / d_len, b.link_chars / d_link_len, b.links / d_links, b.images / d_pics, b.link_chars / (b.chars + 1))
        for b in chosen
    ]


def _outer_denominators(blocks: Sequence[Block]) -> tuple[int, int, int, int]:
    """The denominators of R1-R4 (seed 000 §5.2, add-one smoothed): the page's characters, link
    characters, ``<a>`` and ``<img>`` counts over every block, each plus one."""
    return (sum(map(_CHARS, blocks)) + 1, sum(map(_LINK_CHARS, blocks)) + 1, sum(map(_LINKS, blocks)) + 1,
            sum(map(_IMAGES, blocks)) + 1)


_CHARS = attrgetter("chars")
_LINK_CHARS = attrgetter("link_chars")
_LINKS = attrgetter("links")
_IMAGES = attrgetter("images")


def candidates(blocks: Sequence[Block]) -> list[int]:
    """Indices of the blocks the classifier judges: those with own text or images."""
    return [b.index for b in blocks if b.chars > 0 or b.images > 0]


_CLASS_EVIDENCE: dict[str, tuple[bool, bool, bool]] = {}
_CLASS_EVIDENCE_MAX = 8192


def class_evidence(class_id: str) -> tuple[bool, bool, bool]:
    """``(names noise, names content, names comments)`` for a class/id string.

    Cached in a plain dict (pages and sites repeat the same class names many times; a dict
    lookup is cheaper than ``lru_cache``'s wrapper on this per-block path), emptied when it
    reaches :data:`_CLASS_EVIDENCE_MAX` entries. ASCII strings (nearly all) are lower-cased
    and searched with case-sensitive copies of the patterns, which give the same answers there
    (the patterns are lower-case ASCII) in 40 % of the time of ``re.IGNORECASE``.
    """
    found = _CLASS_EVIDENCE.get(class_id)
    if found is None:
        if len(_CLASS_EVIDENCE) >= _CLASS_EVIDENCE_MAX:
            _CLASS_EVIDENCE.clear()
        if class_id.isascii():  # lower-case once, then case-sensitive search: 2.5x faster
            lower = class_id.lower()
            found = (
                _NEGATIVE_WORDS_RE.search(lower) is not None or _NEGATIVE_TOKENS_RE.search(lower) is not None,
                _POSITIVE_WORDS_RE.search(lower) is not None or _POSITIVE_TOKENS_RE.search(lower) is not None,
                _COMMENT_LOWER_RE.search(lower) is not None,
            )
        else:
            found = (
                NEGATIVE_RE.search(class_id) is not None,
                POSITIVE_RE.search(class_id) is not None,
                COMMENT_RE.search(class_id) is not None,
            )
        _CLASS_EVIDENCE[class_id] = found
    return found


_NO_EVIDENCE = (False, False, False)


_TAG_WEIGHT = {"div": 5, "article": 5, "main": 5, "section": 5, "pre": 3, "td": 3, "blockquote": 3,
               "address": -3, "ol": -3, "ul": -3, "dl": -3, "dd": -3, "dt": -3, "li": -3,
               "h1": -5, "h2": -5, "h3": -5, "h4": -5, "h5": -5, "h6": -5, "th": -5}
"""Initial container score by tag (Readability.js ``_initializeNode``)."""

_COMMA_RE = re.compile("[,\uff0c\u3001]")
"""The commas whose number adds to a block's points in :func:`container_vote` (ASCII, full-width
and ideographic); it counts them with ``str.count``: the number ``findall`` gives, in half the
time (42,715 candidate texts of 300 dataset pages, 88 -> 42 us a page)."""


def _commas(text: str) -> int:
    """``len(_COMMA_RE.findall(text))``, counted with ``str.count`` (see :data:`_COMMA_RE`)."""
    return text.count(",") if text.isascii() else text.count(",") + text.count("\uff0c") + text.count("\u3001")


def container_vote(blocks: Sequence[Block], texts: dict[int, str], class_weight: Sequence[int]) -> tuple[list[bool], list[bool], list[float], float]:
    """Readability.js's article vote over the block tree (``grabArticle``, Mozilla, 2010-2024).

    Args:
        blocks: the page's blocks; texts: own text of the candidate blocks by block index;
            class_weight: per block, +25 / -25 / 0 from its class and id.

    Returns:
        ``(in_top, in_selected, vote, top_share)``: per block, whether it lies in the best
        container, whether it lies in the selected region (best container and its siblings
        scoring at least ``max(10, 0.2 * best)``), its parent's final score divided by the best
        score (clipped to [-1, 1]); and the best container's share of the page's text.
    """
    n = len(blocks)
    score = [0.0] * n
    scored = [False] * n
    for i, text in texts.items():
        b = blocks[i]
        if b.chars < 25:
            continue
        points = 1 + _commas(text) + min(b.chars // 100, 3)
        j = b.parent
        for share in (1, 2, 6):  # parent, grandparent, great-grandparent (points / 1 adds what points adds)
            if j < 0:
                break
            if not scored[j]:
                scored[j] = True
                score[j] += _TAG_WEIGHT.get(blocks[j].element.tag, 0) + class_weight[j]
            score[j] += points / share
            j = blocks[j].parent
    best, best_score = 0, float("-inf")
    voters = []  # the scored blocks, document order
    for j in range(n):
        if scored[j]:
            voters.append(j)
            b = blocks[j]
            score[j] *= 1.0 - b.sub_link_chars / max(b.sub_chars, 1)
            if score[j] > best_score:
                best, best_score = j, score[j]
    last = subtree_ends(blocks)
    in_top = [False] * n
    in_selected = [False] * n
    if best_score > float("-inf"):
        for k in range(best, last[best] + 1):
            in_top[k] = True
        cut = max(10.0, 0.2 * best_score)
        parent = blocks[best].parent
        heads = [c for c in blocks[parent].children if c == best or (scored[c] and score[c] >= cut)] if parent >= 0 else [best]
        for h in heads:
            for k in range(h, last[h] + 1):
                in_selected[k] = True
    top = best_score if best_score > 0 else 1.0
    # each scored block's clipped share of the best score made once, then looked up by its
    # children (the last entry, index -1, for a block with no parent): the same votes as one
    # expression per block, container_vote in 0.86-0.90 of its time (180 small dataset pages,
    # interleaved in one process)
    parent_vote = [0.0] * (n + 1)
    for j in voters:
        parent_vote[j] = max(-1.0, min(1.0, score[j] / top))
    vote = list(map(parent_vote.__getitem__, map(_PARENT, blocks)))
    top_share = blocks[best].sub_chars / max(blocks[0].sub_chars, 1)
    return in_top, in_selected, vote, top_share


COMMENT_MARK_RE = re.compile(r"\b\d{1,2}:\d{2}\b|\breply\b|\bsaid:|\bsays:|\bpermalink\b|\d+ (?:minutes|hours|days) ago|回复|发表于", re.IGNORECASE)
"""Marks of a comment's header or footer: a clock time, reply links, "X said:", relative dates."""


def _may_mark(text: str) -> bool:
    """Cheap test that ``text`` could match :data:`COMMENT_MARK_RE` (spares most regex calls)."""
    if ":" in text or "回复" in text or "发表于" in text:
        return True
    lower = text.lower()
    return "repl" in lower or " ago" in lower or "permalink" in lower


COMMENT_MARK_MAX_CHARS = 120
"""Only a block with less own text than this (characters) counts as a comment's header or
footer: a long paragraph that mentions a time or a reply is not one."""


def is_comment_mark(block: Block, text: str) -> bool:
    """True if ``block`` (own text ``text``, as :attr:`Block.text`) is short
    (:data:`COMMENT_MARK_MAX_CHARS`) and carries a comment mark (:data:`COMMENT_MARK_RE`)."""
    return 0 < block.chars < COMMENT_MARK_MAX_CHARS and _may_mark(text) and COMMENT_MARK_RE.search(text) is not None


def comment_mark(block: Block) -> bool:
    """:func:`is_comment_mark` of ``block`` and its :attr:`~pagesieve.blocks.segment.Block.text`,
    made once per block: the features (:func:`block_features`), the page signals
    (:func:`pagesieve.blocks.signals.page_signals`) and the comment rule
    (:func:`pagesieve.rules.comments.comment_marks`) all ask for the same blocks."""
    mark = block._comment_mark
    if mark is None:
        mark = block._comment_mark = is_comment_mark(block, block.text)
    return mark


def sibling_runs(blocks: Sequence[Block], groups: list[list[int]] | None = None) -> list[int]:
    """Per block, how many of its parent's child blocks share its tag and class (digits removed,
    so ``comment-17`` and ``comment-18`` match); 1 for a block with no such sibling. ``groups``:
    the page's :func:`pagesieve.blocks.segment.sibling_groups` when already made."""
    out = [1] * len(blocks)
    for members in sibling_groups(blocks) if groups is None else groups:
        n = len(members)
        for c in members:
            out[c] = n
    return out


def composite_text_densities(c: np.ndarray, t: np.ndarray, lc: np.ndarray, lt: np.ndarray, lc_body: int, c_body: int) -> np.ndarray:
    """CETD composite text density of subtrees (Sun et al., SIGIR 2011, eq. 4), element-wise.

    Args:
        c, t: characters and tags in each subtree; lc, lt: link characters and link tags in
            it (all ``(n,)`` float arrays); lc_body, c_body: link characters and characters of
            the whole body.

    Returns:
        ``(n,)``: ``(C/T) * log_base((C/LC) * (T/LT))`` with
        ``base = ln((C/nonLC) * LC + (LCb/Cb) * C + e)``; zero denominators are taken as 1, and
        where the logarithm's argument is 0 or the base is at most 1, ``C/T``.
    """
    t = np.maximum(t, 1.0)
    non_lc = np.maximum(c - lc, 1.0)
    base = np.log((c / non_lc) * lc + (lc_body / max(c_body, 1)) * c + math.e)
    arg = (c / np.maximum(lc, 1.0)) * (t / np.maximum(lt, 1.0))
    plain = c / t
    usable = (arg > 0) & (base > 1.0)
    out = plain.copy()
    out[usable] = plain[usable] * np.log(arg[usable]) / np.log(base[usable])
    return out


_SEMANTIC_NOISE = frozenset({"nav", "footer", "header", "aside"})
"""Sectioning elements that name a page's noise (HTML Living Standard §4.3): what
``in_semantic_noise`` marks, with their descendants."""

SEMANTIC_WRAPPER_SHARE = 0.5
"""A ``nav``, ``footer``, ``header`` or ``aside`` block holding more than this share of the page's
text does not count for ``in_semantic_noise``: it wraps the page, not its noise. libxml2 ignores
``</header>`` while a ``<div>`` opened inside it is still open (an HTML5 parser closes both, HTML
Living Standard §13.2.6.4.7), so the header holds the rest of the page (wcxb_dev/0229, F1 0.77
-> 1.00: its article was judged as header text). Measured with the shipped model (held-out
``pagesieve-dev eval``): wcxb_dev +0.0015, big9 +0.0001, readability +0.0001, the others 0; 0.4
gave the same, 0.3 and 0.7 a little less on wcxb_dev.

Dev gate (the 2026-11-25 model's configuration, ``--cv-variants all+balanced@0.4``, share set
to infinity, i.e. the rule removed): wcxb_dev CV 0.8437 without, 0.8488 with (+0.0051:
collection +0.003, listing +0.018, product +0.015, article +0.003). Every page whose parser
left a sectioning element open around its content, not one page."""


def block_features(blocks: Sequence[Block], title: str = "", groups: list[list[int]] | None = None) -> tuple[list[int], np.ndarray]:
    """The feature matrix of a page's candidate blocks.

    Args:
        blocks: the page's blocks from :func:`pagesieve.blocks.segment`.
        title: the page or article title (for title relevance, seed 001 §2.2.2).
        groups: the page's :func:`pagesieve.blocks.segment.sibling_groups` when already made.

    Returns:
        ``(indices, X)``: the candidate block indices (see :func:`candidates`) and a ``float64``
        array of shape ``(len(indices), N_FEATURES)`` with columns :data:`FEATURE_NAMES`.
    """
    idx = candidates(blocks)
    n = len(idx)
    if n == 0:
        return idx, np.zeros((0, N_FEATURES))
    body = blocks[0]
    total_chars = max(body.sub_chars, 1)
    max_depth = max(b.depth for b in blocks) or 1
    title_tokens = set(TOKEN_RE.findall(title.lower())) - STOP_WORDS

    # class/id evidence per block, inherited down the block tree
    neg_self = [False] * len(blocks)
    pos_self = [False] * len(blocks)
    neg_anc = [0] * len(blocks)
    pos_anc = [0] * len(blocks)
    comment_anc = [False] * len(blocks)
    semantic_noise = [False] * len(blocks)
    in_article = [False] * len(blocks)
    class_weight = [0] * len(blocks)
    wrapper_chars = SEMANTIC_WRAPPER_SHARE * total_chars
    for i, b in enumerate(blocks):  # b.index == i
        element = b.element
        cls = b._class  # b.class_attr, read once
        if cls is False:
            cls = b._class = element.get("class")
        ident = element.get("id")
        if cls or ident:
            ns, ps, cm = class_evidence(cls + " " + ident if cls and ident else cls or ident)
        else:
            ns, ps, cm = _NO_EVIDENCE
        class_weight[i] = 25 * (ps - ns)
        neg_self[i] = ns
        pos_self[i] = ps
        tag = element.tag
        p = b.parent
        if p >= 0:
            neg_anc[i] = neg_anc[p] + neg_self[p]
            pos_anc[i] = pos_anc[p] + pos_self[p]
            comment_anc[i] = comment_anc[p] or cm
            semantic_noise[i] = semantic_noise[p] or (tag in _SEMANTIC_NOISE and b.sub_chars <= wrapper_chars)
            in_article[i] = in_article[p] or tag in ("article", "main") or element.get("itemprop") == "articleBody"
        else:
            comment_anc[i] = cm
            semantic_noise[i] = tag in _SEMANTIC_NOISE and b.sub_chars <= wrapper_chars
            in_article[i] = tag in ("article", "main")

    # longest block and its ancestor chain (for the cluster features)
    longest = max(idx, key=lambda i: blocks[i].chars - blocks[i].link_chars)
    longest_chain = {}
    j, level = longest, 0
    while j >= 0:
        longest_chain[j] = level
        j = blocks[j].parent
        level += 1
    longest_chars = max(blocks[longest].chars, 1)
    # levels up from each block to its lowest common ancestor with the longest block (parents
    # come before children in document order, so one pass fills it)
    levels_up = [0] * len(blocks)
    for b in blocks:
        if b.index not in longest_chain:
            levels_up[b.index] = levels_up[b.parent] + 1 if b.parent >= 0 else 1

    n_blocks = len(blocks)
    texts = [blocks[i].text for i in idx]
    text_of = dict(zip(idx, texts))
    in_top, in_selected, vote, top_share = container_vote(blocks, text_of, class_weight)
    runs = sibling_runs(blocks, groups)
    # comment marks in short blocks, OR-ed up the block tree (every block with text is a candidate)
    marks = [False] * n_blocks
    for i, text in text_of.items():
        b = blocks[i]
        mark = b._comment_mark  # comment_mark(b): is_comment_mark(b, text), made once
        if mark is None:
            mark = b._comment_mark = b.chars < COMMENT_MARK_MAX_CHARS and is_comment_mark(b, text)
        if mark:
            marks[i] = True
    for b in reversed(blocks):
        if marks[b.index] and b.parent >= 0:
            marks[b.parent] = True

    # The columns that read the text: one Python pass over the candidates. ASCII text (three in
    # four candidate texts) is read as bytes (:data:`_ASCII_WORDS`), other text with its patterns.
    title_len = len(title)
    title_ascii = frozenset(t.encode() for t in title_tokens if t.isascii())  # no other can equal an ASCII token
    d_title = len(title_tokens)
    title_cjk = [t for t in title_tokens if _CJK_RE.match(t)]  # one CJK character each
    title_words = title_tokens.difference(title_cjk)
    text_rows = []
    for text in texts:
        if text.isascii():
            raw = text.encode()
            tokens = raw.translate(_ASCII_WORDS).split()
            n_tokens = len(tokens)
            row = (n_tokens, sum(map(_is_stop_bytes, tokens)), 0, len(raw) - len(raw.translate(None, _ASCII_PUNCT)),
                   text[-1:] in _SENTENCE_END, len(title_ascii.intersection(tokens)) / d_title if d_title else 0.0)
        else:
            cjk = len(_CJK_RE.findall(text))
            lower = text.lower()
            if cjk:  # the tokens are its CJK characters and the words between them (:data:`_NON_CJK_WORD_RE`)
                words = _NON_CJK_WORD_RE.findall(lower)
                n_tokens = cjk + len(words)
                found = len(title_words.intersection(words)) + sum(c in lower for c in title_cjk)
            else:
                words = _WORD_RE.findall(lower)
                n_tokens = len(words)
                found = len(title_tokens.intersection(words))
            row = (n_tokens, sum(map(_is_stop_word, words)), cjk, len(_PUNCT_RE.findall(text)), text[-1:] in _SENTENCE_END,
                   found / d_title if d_title else 0.0)
        text_rows.append(row)
    n_tokens, stop, cjk, punct, ends_sentence, overlap = np.array(text_rows, dtype=np.float64).T

    # Every other column is arithmetic on per-block counts: numpy over all candidates at once,
    # each result written into its column of ``x`` (``out=``) rather than made and then copied,
    # and the counts converted in one call: a page pays for each numpy call whatever its size
    # (see :data:`_CANDIDATE_COUNTS` for what it saved).
    x = np.empty((n, N_FEATURES), dtype=np.float64)
    cand = np.array(idx, dtype=np.intp)
    counts = np.fromiter(chain.from_iterable(map(_CANDIDATE_COUNTS, map(blocks.__getitem__, idx))),
                         dtype=np.float64, count=n * len(_CANDIDATE_COUNT_NAMES)).reshape(n, -1)
    c_chars, c_link_chars, _c_links, c_images, c_sub, c_sub_link, c_sub_tags, c_sub_links, c_depth = counts.T
    parent_of = np.fromiter(map(_PARENT, blocks), dtype=np.intp, count=n_blocks)
    sub_chars = np.fromiter(map(_SUB_CHARS, blocks), dtype=np.float64, count=n_blocks)
    # R1-R4 and R5 (seed000_features' ratios, the same divisions of the same integers)
    np.divide(counts[:, :4], _outer_denominators(blocks), out=x[:, _SEED000_COLUMNS])
    chars1 = c_chars + 1.0
    link_density = np.divide(c_link_chars, chars1, out=x[:, _COL["r5"]])
    log_chars = np.log1p(c_chars, out=x[:, _COL["log_chars"]])
    # parent and grandparent block (a block at the top stands for its own missing ancestors)
    c_parent = parent_of[cand]
    parent = np.where(c_parent >= 0, c_parent, cand)
    grand = np.where(parent_of[parent] >= 0, parent_of[parent], parent)
    # the largest run of look-alike siblings among the three nearest enclosing blocks (runs are
    # at least 1, so their maximum is the old running maximum from 1), and whether such a run
    # carries comment marks
    runs_a = np.array(runs + [1], dtype=np.float64)  # index -1: no block (run 1, no marks)
    marks_a = np.array(marks + [False])
    parent_ext = np.append(parent_of, -1)
    up = np.empty((3, n), dtype=np.intp)
    up[0] = c_parent
    np.take(parent_ext, up[0], out=up[1])
    np.take(parent_ext, up[1], out=up[2])
    ancestor_runs = runs_a[up]
    np.log(ancestor_runs.max(axis=0), out=x[:, _COL["repeated_container"]])
    np.any((ancestor_runs > 1) & marks_a[up], axis=0, out=x[:, _COL["repeated_with_comment_marks"]])
    k = _NEIGHBOUR_COLUMNS.start  # prev_log_chars, prev_link_density, next_log_chars, next_link_density
    x[0, k:k + 2] = 0.0
    x[1:, k] = log_chars[:-1]
    x[1:, k + 1] = link_density[:-1]
    x[:-1, k + 2] = log_chars[1:]
    x[:-1, k + 3] = link_density[1:]
    x[-1, k + 2:k + 4] = 0.0
    before = np.zeros(n)
    np.cumsum(c_chars[:-1], out=before[1:])
    np.divide(before, total_chars, out=x[:, _COL["text_before"]])
    levels = np.fromiter(map(levels_up.__getitem__, idx), dtype=np.float64, count=n)
    np.take(_TAG_ONEHOT_ROWS, [_TAG_GROUP.get(blocks[i].element.tag, len(TAG_GROUPS)) for i in idx], axis=0,
            out=x[:, _TAG_COLUMNS])
    # the per-block lists, each column group converted and indexed by the candidates at once
    inherited = np.array((neg_self, pos_self, neg_anc, pos_anc, comment_anc, semantic_noise, in_article), dtype=np.float64)[:, cand]
    np.minimum(inherited[2:4], 5.0, out=inherited[2:4])
    x[:, _INHERITED_COLUMNS] = inherited.T
    x[:, _VOTE_COLUMNS] = np.array((in_top, in_selected, vote), dtype=np.float64)[:, cand].T
    col = _COL
    np.log1p(n_tokens, out=x[:, col["log_tokens"]])
    np.log1p(c_sub, out=x[:, col["log_sub_chars"]])
    np.log1p(c_sub / c_sub_tags, out=x[:, col["text_density"]])
    np.divide(c_sub_link, c_sub + 1.0, out=x[:, col["sub_link_density"]])
    np.log1p(np.maximum(composite_text_densities(c_sub, c_sub_tags, c_sub_link, c_sub_links, body.sub_link_chars,
                                                 body.sub_chars), 0.0), out=x[:, col["composite_text_density"]])
    np.divide(punct, chars1, out=x[:, col["punct_density"]])
    np.divide(stop, n_tokens + 1.0, out=x[:, col["stopword_ratio"]])
    np.divide(cjk, chars1, out=x[:, col["cjk_ratio"]])
    x[:, col["ends_sentence"]] = ends_sentence
    x[:, col["title_overlap"]] = overlap
    np.logical_and(overlap >= 0.8, c_chars <= 2 * title_len + 10, out=x[:, col["title_like"]])
    np.divide(c_depth, max_depth, out=x[:, col["rel_depth"]])
    np.divide(np.arange(n), n, out=x[:, col["rel_position"]])
    np.divide(sub_chars[parent], total_chars, out=x[:, col["parent_share"]])
    np.divide(sub_chars[grand], total_chars, out=x[:, col["grandparent_share"]])
    np.log(chars1 / longest_chars, out=x[:, col["log_ratio_longest"]])
    np.logical_or(c_parent == blocks[longest].parent, cand == longest, out=x[:, col["shares_parent_longest"]])
    np.minimum(levels, 10, out=x[:, col["lca_depth_longest"]])
    np.divide(cand - longest, n_blocks, out=x[:, col["dist_longest"]])
    np.minimum(c_images, 5, out=x[:, col["images"]])
    x[:, col["top_container_share"]] = top_share
    return idx, x
