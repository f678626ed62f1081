"""Page-level and card signals for the context stage: what tells an article's "related
articles" cards, teaser carousels and author boxes (noise) from a listing's cards and a forum's
posts (content).

Two kinds of columns, both appended after the first-pass features of
:mod:`pagesieve.blocks.features` (the SVM of seed 000 never reads them; the context stage does):

- **Card columns** (:func:`card_columns`, one row per candidate block): whether the block lies in
  a run of three or more sibling items of the same tag and class, each a short item led by a
  link (a "card": headline link plus excerpt), how much of the page such cards hold, how far
  the block lies from the page's longest run of text, whether its links point to other pages
  of the same site, and whether it holds an e-mail address or a byline.
- **Page signals** (:func:`page_signals`, one vector per page): cheap counts read from the raw
  page before pre-processing (Open Graph ``og:type``, schema.org ``@type`` in JSON-LD, forms,
  code, prices, URL path words) and from its blocks. :mod:`pagesieve.classify.page_type` turns them into
  the probabilities of the seven WCXB page types (Foley 2026, WCXB: article, collection,
  documentation, forum, listing, product, service).

The thresholds are the field's usual ones, not tuned on any page: a card run needs 3 members
(the issue's definition of repeated sibling structures), a card is at most
:data:`CARD_MAX_CHARS` characters, and a link-led item has at least
:data:`CARD_MIN_LINK_SHARE` of its text in links. Their worth is measured by
``pagesieve-dev eval --cv 5 wcxb_dev`` (:mod:`pagesieve_dev.evaluation.cv`), as the model card reports.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from itertools import accumulate
from math import log1p
from urllib.parse import urlsplit

import numpy as np

from pagesieve.blocks.segment import Block, sibling_groups

CARD_MIN_RUN = 3
"""Members of a run of same-tag, same-class siblings from which they are cards (issue 31:
"three or more cards with the same tag path")."""

CARD_MAX_CHARS = 600
"""Most characters of a card: a headline and an excerpt, not an article section."""

CARD_MIN_LINK_SHARE = 0.15
"""Least share of a card's text inside links (its headline is a link)."""

CARD_UP = 3
"""How many block levels above a block are searched for the card it lies in."""

CARD_COLUMNS: tuple[str, ...] = (
    "in_card", "card_run_log", "card_share", "log_chars_from_main", "after_main",
    "same_site_links", "has_email", "byline_like",
)
"""Column names of :func:`card_columns`, in order."""

EMAIL_RE = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
BYLINE_RE = re.compile(r"^\s*(?:by|written by|author|posted by|von|par|por)\b|\babout the author\b", re.IGNORECASE)
_BYLINE_HEAD_RE = re.compile(r"\s*(?:by|written by|author|posted by|von|par|por)\b", re.IGNORECASE)
_ABOUT_AUTHOR_RE = re.compile(r"\babout the author\b", re.IGNORECASE)


def is_byline(text: str) -> bool:
    """``BYLINE_RE.search(text) is not None``, its two alternatives apart: the opening one matched
    at the start alone, the other searched only in a text that holds "author" once lower-cased
    (it cannot match elsewhere: no other character folds to its letters, ``tests/test_fast_paths.py``).
    A quarter of the time of the search (21,663 short texts of 160 dataset pages, 0.23 -> 0.06 ms a page)."""
    return _BYLINE_HEAD_RE.match(text) is not None or ("author" in text.lower() and _ABOUT_AUTHOR_RE.search(text) is not None)


def sibling_runs(blocks: Sequence[Block], min_run: int, groups: list[list[int]] | None = None) -> Iterator[list[int]]:
    """The groups of at least ``min_run`` (2 or more) sibling blocks of one shape: the children of
    a block that share tag and class, digits removed (:attr:`pagesieve.blocks.segment.Block.signature`;
    seed 004, Yang, Li & Geng 2015, §2.2: "quasi-identical" nodes, same tag and attributes), as
    lists of block indices in document order, parents in document order: those of the page's
    :func:`pagesieve.blocks.segment.sibling_groups` (``groups`` when already made) with ``min_run``
    members or more. The lists are shared: not to be changed. Grouped once per page instead of
    once per reader: the features, the card items and the teaser rule took 0.66 of their
    grouping time (180 small dataset pages, interleaved in one process, 0.47 -> 0.31 ms a page)."""
    for members in sibling_groups(blocks) if groups is None else groups:
        if len(members) >= min_run:
            yield members


def card_items(blocks: Sequence[Block], groups: list[list[int]] | None = None) -> tuple[list[int], list[int]]:
    """Per block, ``(card index or -1, run length)``: the card a block is or lies in (at most
    :data:`CARD_UP` levels up), and how many cards its run has. A card is a member of a run of
    at least :data:`CARD_MIN_RUN` sibling blocks sharing tag and class (digits removed), whose
    subtree holds at most :data:`CARD_MAX_CHARS` characters, at least
    :data:`CARD_MIN_LINK_SHARE` of them in links; at least half the run must be such items.
    ``groups``: the page's :func:`pagesieve.blocks.segment.sibling_groups` when already made."""
    n = len(blocks)
    is_card = [False] * n
    run = [0] * n
    for members in sibling_runs(blocks, CARD_MIN_RUN, groups):
        items = [c for c in members
                 if 0 < blocks[c].sub_chars <= CARD_MAX_CHARS
                 and blocks[c].sub_link_chars >= CARD_MIN_LINK_SHARE * blocks[c].sub_chars]
        if len(items) * 2 < len(members) or len(items) < CARD_MIN_RUN:
            continue
        for c in items:
            is_card[c] = True
            run[c] = len(members)
    card = [-1] * n
    for b in blocks:  # document order: a parent's answer is known before its children's
        if is_card[b.index]:
            card[b.index] = b.index
            continue
        p, up = b.parent, 1
        while p >= 0 and up <= CARD_UP:
            if card[p] >= 0:
                card[b.index] = card[p]
                break
            p, up = blocks[p].parent, up + 1
    runs = [run[c] if c >= 0 else 0 for c in card]
    return card, runs


def _split_http(href: str) -> tuple[str, str] | None:
    """``(netloc, path)`` of an absolute ``http://`` or ``https://`` address, as
    :func:`urllib.parse.urlsplit` gives them, or ``None`` for any address that needs its other
    cases (tabs or line breaks to remove, a non-ASCII or bracketed host, another scheme):
    urlsplit's general path cost a third of the card columns' time on pages full of links."""
    if href.startswith("https://"):
        rest = href[8:]
    elif href.startswith("http://"):
        rest = href[7:]
    else:
        return None
    if "\t" in href or "\n" in href or "\r" in href:
        return None
    netloc, slash, path = rest.partition("/")  # the host ends at the first "/", "?" or "#"
    if "?" in netloc or "#" in netloc:  # a query or fragment before any path: no path
        netloc, path = netloc[:min(k for k in (netloc.find("?"), netloc.find("#")) if k >= 0)], ""
    elif slash:
        path = "/" + path.partition("#")[0].partition("?")[0]
    if not netloc.isascii() or "[" in netloc or "]" in netloc:
        return None
    return netloc, path


def _same_site_article(href: str, host: str) -> bool:
    """Whether ``href`` points to another page of ``host`` that reads as an article: a path of
    two segments or more, or one with a hyphenated slug (not a section)."""
    if href[0] == "/" and not href.startswith("//"):  # the common case: a path on this site
        path = href.partition("#")[0].partition("?")[0]
    else:
        split = _split_http(href)
        if split is None:
            try:
                parts = urlsplit(href)
            except ValueError:
                return False
            split = parts.netloc, parts.path
        netloc, path = split
        if netloc and netloc.lower().removeprefix("www.") != host:
            return False
    # the path's segments, empty ones left out: with the outer slashes stripped, two or more
    # pieces hold two non-empty ends, and one piece is the only segment or empty
    segments = path.strip("/").split("/")
    return len(segments) >= 2 or "-" in segments[0]


def same_site_shares(blocks: Sequence[Block], host: str) -> list[float]:
    """Per block, the share of the ``<a href>`` in its subtree (nested blocks included) that point
    to another page of ``host`` (:func:`_same_site_article`); 0.0 where it holds none. Links
    starting with ``#``, ``javascript:`` or ``mailto:`` are not counted.

    One pass over the page's anchors: each is counted in the block that holds it (its nearest
    block ancestor), then the counts are summed up the block tree, children before parents (as
    :func:`pagesieve.blocks.segment` sums ``sub_links``), and each href is judged once per page.
    The same shares as iterating every block's own subtree of anchors, in one walk instead of
    one per block: O(anchors x inline depth + blocks).
    """
    n = len(blocks)
    total = [0] * n
    same = [0] * n
    if not n:
        return []
    owner = {b.element: b.index for b in blocks}
    seen: dict[str, bool] = {}
    for a in blocks[0].element.iter("a"):
        href = a.get("href")
        if not href or href.startswith(("#", "javascript:", "mailto:")):
            continue
        known = seen.get(href)
        if known is None:
            known = seen[href] = _same_site_article(href, host)
        node = a.getparent()
        while node is not None and node not in owner:
            node = node.getparent()
        k = owner[node] if node is not None else 0
        total[k] += 1
        same[k] += known
    for b in reversed(blocks):
        if b.parent >= 0:
            total[b.parent] += total[b.index]
            same[b.parent] += same[b.index]
    return [s / t if t else 0.0 for s, t in zip(same, total)]


def main_text_run(blocks: Sequence[Block]) -> tuple[int, int]:
    """``(first, last)``: the block indices of the page's longest run of text and of the last
    block inside it. The run is the block holding the most own-text characters, its own and its
    children's (a paragraph run: the article body's container), the first such in document
    order; its subtree is the blocks ``first .. last`` (blocks are numbered in document order).
    ``blocks`` must not be empty. Read by :func:`card_columns` (the distance of a block from the
    run) and :mod:`pagesieve.rules.teasers` (teaser runs lie outside it)."""
    run_chars = [b.chars for b in blocks]
    for b in blocks:
        if b.parent >= 0:
            run_chars[b.parent] += b.chars
    first = run_chars.index(max(run_chars))
    last = first
    while last + 1 < len(blocks) and first <= blocks[last + 1].parent <= last:  # its subtree is contiguous
        last += 1
    return first, last


def card_columns(blocks: Sequence[Block], candidates: Sequence[int], url: str | None,
                 cards: tuple[list[int], list[int]] | None = None) -> np.ndarray:
    """The card columns (:data:`CARD_COLUMNS`) of the candidate blocks.

    Args:
        blocks: every block of the page, document order; candidates: the classified blocks;
        url: the page's URL (for links to the same site), or ``None``; cards: the page's
        :func:`card_items` when already made (:func:`page_signals` reads them too).

    Returns:
        ``float64`` array ``(len(candidates), len(CARD_COLUMNS))``: in_card (0/1),
        log(1 + cards in its run), the page's share of characters in cards, log(1 + characters
        between the block and the page's longest text run; 0 inside it), after_main (0/1: the
        block comes after that run), the same-site link share of its card (or of itself),
        has_email (0/1), byline_like (0/1: a short block that opens with "By", "Written by",
        "Author" or says "About the author").
    """
    if not candidates:
        return np.zeros((0, len(CARD_COLUMNS)))
    card, runs = cards if cards is not None else card_items(blocks)
    total = max(blocks[0].sub_chars, 1)
    card_share = sum(blocks[c].sub_chars for c in {c for c in card if c >= 0}) / total
    # the longest run of text, by the characters before each block in document order
    starts = list(accumulate((b.chars for b in blocks), initial=0))
    first, last = main_text_run(blocks)
    lo, hi = starts[first], starts[last + 1]
    host = (urlsplit(url).hostname or "").removeprefix("www.") if url else ""
    link_share: list[float] | None = None
    rows = []
    for i in candidates:
        b = blocks[i]
        c = card[i]
        pos = starts[i]
        anchor = c if c >= 0 else i
        same_site = 0.0
        if blocks[anchor].sub_links:
            if link_share is None:
                link_share = same_site_shares(blocks, host)
            same_site = link_share[anchor]
        email = byline = False
        if b.chars:
            text = b.text
            email = "@" in text and EMAIL_RE.search(text) is not None
            byline = b.chars < 300 and is_byline(text)
        rows.append((c >= 0, log1p(runs[i]), card_share, log1p(lo - pos if pos < lo else pos - hi if pos > hi else 0),
                     pos > hi, same_site, email, byline))
    return np.array(rows, dtype=np.float64)


# --------------------------------------------------------------------------- page signals

PAGE_SIGNALS: tuple[str, ...] = (
    "log_chars", "log_blocks", "link_density", "share_li", "share_td", "share_p", "share_pre",
    "longest_share", "headings_log", "card_share", "cards_log", "forms_log", "inputs_log",
    "code_log", "prices_log", "comment_marks_log",
    "og_article", "og_product", "og_website",
    "ld_article", "ld_product", "ld_forum", "ld_qa", "ld_list", "ld_faq", "ld_howto", "ld_tech", "ld_service",
    "url_depth", "url_date", "url_docs", "url_forum", "url_product", "url_listing", "url_article",
    "meta_date", "meta_author", "meta_price", "times_log", "articles_log", "h1_log", "navs_log", "asides_log",
    "buttons_log", "tables_log", "slug_words", "slug_long", "url_query", "url_html", "url_digits",
)
"""Names of the page-signal vector (:func:`page_signals`), in order. The last fifteen (from
``meta_date``) were added on 2026-11-27: with them the page-type model's site-grouped 5-fold
accuracy on wcxb_dev's 1,497 pages rose from 0.743 to 0.790 and its log loss fell from 0.797
to 0.667 (models/README.md, "Page-type signals")."""

_COUNTED_HEADINGS = frozenset({"h1", "h2", "h3", "h4"})
_PRICE_RE = re.compile(r"(?:[$€£¥]\s?\d[\d,.]*|\d[\d,.]*\s?(?:USD|EUR|GBP))")
_LD_KINDS = {
    "ld_article": ("article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle", "opinionnewsarticle"),
    "ld_product": ("product", "offer", "aggregateoffer", "productgroup"),
    "ld_forum": ("discussionforumposting", "socialmediaposting", "comment"),
    "ld_qa": ("qapage", "question", "answer"),
    "ld_list": ("itemlist", "collectionpage", "searchresultspage", "offercatalog"),
    "ld_faq": ("faqpage",),
    "ld_howto": ("howto", "recipe"),
    "ld_tech": ("techarticle", "apireference", "softwaresourcecode", "softwareapplication"),
    "ld_service": ("service", "localbusiness", "organization", "professionalservice", "webapplication"),
}
_URL_WORDS = {
    "url_docs": re.compile(r"/(?:docs?|documentation|reference|api|manual|guide|learn|developer|wiki|kb)(?:/|$)"),
    "url_forum": re.compile(r"/(?:forums?|threads?|t|topic|topics|community|discuss|questions|r|comments)(?:/|$)"),
    "url_product": re.compile(r"/(?:products?|p|dp|item|shop|store|buy)(?:/|$)"),
    "url_listing": re.compile(r"/(?:category|categories|tag|tags|collections?|search|archive|page|list|news|blog)/?$"),
    "url_article": re.compile(r"/(?:news|blog|posts?|article|articles|story|stories)/[^/]+"),
}
_URL_DATE_RE = re.compile(r"/(?:19|20)\d\d/(?:[01]?\d/)?")
_DATE_META = frozenset({
    "article:published_time", "article:modified_time", "og:published_time", "datepublished", "datemodified",
    "pubdate", "publishdate", "publish-date", "date", "dc.date", "dc.date.issued", "sailthru.date",
    "parsely-pub-date", "article.published",
})
"""``<meta>`` names (``property``, ``name`` or ``itemprop``, lower case) that give a publication
date: Open Graph's article properties, schema.org's ``datePublished``/``dateModified``, Dublin
Core and the common analytics tags (Parse.ly, Sailthru)."""
_AUTHOR_META = frozenset({"author", "article:author", "parsely-author", "sailthru.author", "dc.creator", "byl"})
"""``<meta>`` names that give an author (HTML's ``author``, Open Graph, Dublin Core, analytics tags)."""
_COUNTED_TAGS = {"time": "times_log", "article": "articles_log", "h1": "h1_log", "nav": "navs_log",
                 "aside": "asides_log", "button": "buttons_log", "table": "tables_log"}
"""Elements counted in the raw page, each a ``log1p`` count: dates (``<time>``), HTML5 sectioning
and navigation, buttons (shops, apps) and tables (specifications, documentation)."""
_SLUG_END_RE = re.compile(r"\.(?:html?|php|aspx?)$")
_SLUG_SPLIT_RE = re.compile(r"[-_]")
_LONG_DIGITS_RE = re.compile(r"\d{5,}")
SLUG_LONG_WORDS = 4
"""A last path segment of at least this many ``-``/``_``-separated words is a long slug, as
article URLs made from headlines have (``/2025/09/04/top-nutrition-trends-for-fall-2025``)."""


def raw_page_signals(root, url: str | None) -> dict[str, float]:
    """The signals read from the raw page tree (before pre-processing removes scripts and
    forms): ``og:type``, the JSON-LD ``@type`` values, forms and inputs, ``<meta>`` dates, authors
    and prices, counts of the elements of :data:`_COUNTED_TAGS`, and the URL's path words, depth,
    date, slug length (:data:`SLUG_LONG_WORDS`), query, ``.html`` ending and long digit runs.
    Cheap: one walk over those elements. Never raises on malformed JSON-LD (it is skipped)."""
    out: dict[str, float] = {}
    og = None  # the content of the first <meta property|name="og:type">, in document order
    forms = inputs = 0
    meta_date = meta_author = meta_price = 0.0
    counted = dict.fromkeys(_COUNTED_TAGS, 0)
    types: set[str] = set()
    # one walk over the elements these signals read (libxml2 filters the tags)
    for element in root.iter("meta", "script", "form", "input", "select", "textarea", *_COUNTED_TAGS):
        tag = element.tag
        if tag == "meta":
            prop = element.get("property")
            name = element.get("name")
            if og is None and (prop == "og:type" or name == "og:type"):
                og = element.get("content") or ""
            itemprop = element.get("itemprop")
            key = (prop or name or itemprop or "").lower()
            if key in _DATE_META:
                meta_date = 1.0
            elif key in _AUTHOR_META:
                meta_author = 1.0
            elif itemprop == "price" or key == "product:price:amount" or key == "og:price:amount":
                meta_price = 1.0
        elif tag in counted:
            counted[tag] += 1
        elif tag == "script":
            if element.get("type") != "application/ld+json":
                continue
            text = element.text or ""
            if len(text) > 200_000:
                continue
            try:
                data = json.loads(text)
            except ValueError:
                continue
            _ld_types(data, types, 0)
        elif tag == "form":
            forms += 1
        elif tag != "input" or element.get("type") != "hidden":
            inputs += 1
    og = (og or "").strip().lower()
    out["og_article"] = float(og.startswith("article") or og == "blog")
    out["og_product"] = float("product" in og)
    out["og_website"] = float(og == "website")
    for name, kinds in _LD_KINDS.items():
        out[name] = float(any(k in types for k in kinds))
    parts = urlsplit(url) if url else None
    path = (parts.path.lower() if parts else "") or "/"
    segments = [s for s in path.split("/") if s]
    out["url_depth"] = float(len(segments))
    out["url_date"] = float(_URL_DATE_RE.search(path) is not None)
    for name, pattern in _URL_WORDS.items():
        out[name] = float(pattern.search(path) is not None)
    out["meta_date"], out["meta_author"], out["meta_price"] = meta_date, meta_author, meta_price
    logs = np.log1p([forms, inputs, *counted.values()]).tolist()  # one numpy call for the nine counts (page_signals)
    out["forms_log"], out["inputs_log"] = logs[0], logs[1]
    for tag, value in zip(counted, logs[2:]):
        out[_COUNTED_TAGS[tag]] = value
    slug = _SLUG_END_RE.sub("", segments[-1]) if segments else ""
    words = len([w for w in _SLUG_SPLIT_RE.split(slug) if w])
    out["slug_words"] = float(words)
    out["slug_long"] = float(words >= SLUG_LONG_WORDS)
    out["url_query"] = float(bool(parts and parts.query))
    out["url_html"] = float(path.endswith((".html", ".htm")))
    out["url_digits"] = float(_LONG_DIGITS_RE.search(path) is not None)
    return out


def _ld_types(data, types: set[str], depth: int) -> None:
    if depth > 6:
        return
    if isinstance(data, list):
        for item in data[:200]:
            _ld_types(item, types, depth + 1)
    elif isinstance(data, dict):
        kind = data.get("@type")
        for k in (kind if isinstance(kind, list) else [kind]):
            if isinstance(k, str):
                types.add(k.lower())
        for key in ("@graph", "mainEntity", "itemListElement"):
            if key in data:
                _ld_types(data[key], types, depth + 1)


def page_signals(raw: dict[str, float], blocks: Sequence[Block], cards: tuple[list[int], list[int]] | None = None) -> np.ndarray:
    """The page-signal vector (:data:`PAGE_SIGNALS`) of a page: ``raw`` from
    :func:`raw_page_signals` plus counts over its blocks (comment marks are those of
    :func:`pagesieve.blocks.features.is_comment_mark`); ``cards``: the page's :func:`card_items` when
    already made. Returns ``float64`` ``(len(PAGE_SIGNALS),)``."""
    from pagesieve.blocks.features import comment_mark

    v = dict.fromkeys(PAGE_SIGNALS, 0.0)
    comment_marks = 0
    v.update(raw)
    if blocks:
        total = max(blocks[0].sub_chars, 1)
        by_tag: dict[str, int] = {}
        headings = code = prices = 0
        longest = 0
        for b in blocks:
            tag = b.element.tag
            chars = b.chars
            if chars:
                by_tag[tag] = by_tag.get(tag, 0) + chars
                if chars > longest:
                    longest = chars
                if tag in _COUNTED_HEADINGS:
                    headings += 1
                text = b.text
                if "$" in text or "€" in text or "£" in text or "USD" in text or "EUR" in text or "GBP" in text:
                    prices += len(_PRICE_RE.findall(text))
                mark = b._comment_mark  # comment_mark(b): is_comment_mark(b, text), made once
                comment_marks += comment_mark(b) if mark is None else mark
            if b.pre or tag == "pre":
                code += 1
        card, _runs = cards if cards is not None else card_items(blocks)
        roots = {c for c in card if c >= 0}
        # One numpy call for the seven counts where there were seven (and nine in raw_page_signals):
        # a call on a scalar costs about as much as on a short array. The same log1p of the same
        # values; with the page type's one assignment and model_rows' one matrix, model_rows took
        # 0.967 of its time (104 dataset pages, ten rounds in one process, 2026-11-27).
        (v["log_chars"], v["log_blocks"], v["headings_log"], v["cards_log"], v["code_log"], v["prices_log"],
         v["comment_marks_log"]) = np.log1p([total, len(blocks), headings, len(roots), code, prices, comment_marks]).tolist()
        v["link_density"] = blocks[0].sub_link_chars / total
        v["share_li"] = (by_tag.get("li", 0) + by_tag.get("dd", 0) + by_tag.get("dt", 0)) / total
        v["share_td"] = (by_tag.get("td", 0) + by_tag.get("th", 0)) / total
        v["share_p"] = by_tag.get("p", 0) / total
        v["share_pre"] = by_tag.get("pre", 0) / total
        v["longest_share"] = longest / total
        v["card_share"] = sum(blocks[c].sub_chars for c in roots) / total
    return np.array([v[name] for name in PAGE_SIGNALS], dtype=np.float64)
