"""The article's header, apart from its body: the byline line (:func:`byline_block`), a first
heading that repeats the title (:func:`title_heading_block`) and the dateline of the publication
date (:func:`dateline_block`); :func:`split_header` takes them out of the body.

The text is the body (issue 52, decided): the article-body benchmarks (WCXB; the 181-page
article-body set) leave the headline, byline and dateline out of the text, and the reader view
and saved articles show them in their header, from the metadata. So the body (the text, the
HTML, the Markdown, and the text of saves, the library index and batch rows) does not repeat
them; :attr:`~pagesieve.article.model.Article.header` keeps them as the page shows them."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from datetime import date
from itertools import islice

from lxml import etree

from pagesieve.article.dates import normalize_date
from pagesieve.blocks.segment import HEADING_TAGS, Block
from pagesieve.page.elements import class_and_id
from pagesieve.tokens import tokens

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
        names = class_and_id(e).lower()
        if names and BYLINE_MARK_RE.search(names) and "comment" not in names:
            return True
        if "author" in (e.get("rel") or "").lower().split() or (e.get("itemprop") or "").lower() == "author":
            return True
    return False


def _first_content_blocks(blocks: list[Block], keep: list[bool]) -> Iterator[Block]:
    """The first :data:`BYLINE_LOOKAHEAD` kept blocks with text of their own, document order:
    where the byline and the dateline are looked for."""
    return islice((b for b in blocks if keep[b.index] and b.chars), BYLINE_LOOKAHEAD)


def byline_block(blocks: list[Block], keep: list[bool], byline: str | None,
                 marked: Callable[[int], bool] | None = None, published: str | None = None) -> int | None:
    """The content block that is the article's byline line, which the reader view and a saved
    article show in their header instead (as Firefox Reader View does: Readability removes the
    node it took the byline from).

    It is one of the first :data:`BYLINE_LOOKAHEAD` content blocks, holds the metadata's
    ``byline`` with at most :data:`BYLINE_EXTRA_CHARS` more characters ("By Marta Quispe ·
    14 March 2026", "By DAVID RUNK Associated Press Writer"), and is marked as a byline
    (:func:`_names_a_byline`; ``marked(index)`` answers that instead for blocks without their
    element, :attr:`~pagesieve.templates.evidence.PageFacts.byline_marks`) or says nothing but
    the byline (:func:`_says_only_the_byline`: the name alone, "By" and the name, or the name
    and the ``published`` date). ``None`` when there is no such block or no byline of at least
    three characters.
    """
    if not byline or len(byline) < 3:
        return None
    wanted = byline.casefold()
    day = _day(published) if published else None
    for b in _first_content_blocks(blocks, keep):
        text = " ".join(b.text.split())
        if len(text) > len(byline) + BYLINE_EXTRA_CHARS or wanted not in text.casefold():
            continue
        if marked(b.index) if marked is not None else _names_a_byline(b.element):
            return b.index
        if _says_only_the_byline(text, wanted, day):
            return b.index
    return None


_BY_RE = re.compile(r"^(?:by|written by|posted by|words by|von|par|por|di|door|av|af)\b[\s:]*", re.IGNORECASE)
"""A byline's opening word ("By", "Written by"; German, French, Spanish, Italian, Dutch and
Scandinavian "by")."""

_BYLINE_PUNCT = " \t-\u2013\u2014|\u00b7\u2022,:;/()"
"""What separates a byline's parts ("Chris Davies - Nov 19, 2019", "By Ann Lee | May 2")."""


def lone_byline_words(blocks: Sequence, keep: Sequence[bool]) -> list[int]:
    """The first content blocks (:data:`BYLINE_LOOKAHEAD`) whose whole text is a byline's
    opening word alone ("By", "Written By", "By:"; :data:`_BY_RE`): the page set the name in a
    block of its own, or left it out (wcxb_dev/0161, NPR: "By" over the summary; dragnet/50:
    "By" over "Brian Montopoli"). The reader showed the word as a line of the body; it is no
    header line either. On every page of the eight datasets (2026-12-07) it takes 7 lines
    (cleaneval/final_202, dragnet/50, one l3s_gn1 page, wcxb_dev 0161, 0440, 4555, 4610), summed
    F1 -0.001: the truths count "by" among the words of their own byline lines. It is kept for
    what the reader shows."""
    return [b.index for b in _first_content_blocks(blocks, keep)
            if (m := _BY_RE.match(" ".join(b.text.split()))) and m.end() == len(" ".join(b.text.split()))]


def _says_only_the_byline(text: str, name: str, day: date | None) -> bool:
    """True if ``text`` (one block's text, spaces collapsed) says the byline ``name``
    (casefolded) and nothing but the byline's furniture: it is the name alone, opens with a
    byline word (:data:`_BY_RE`), or also gives the publication ``day`` (within
    :data:`DATELINE_DAYS`) as a dateline would ("Chris Davies - Nov 19, 2019, 8:15 pm CST", a
    SlashGear review's line under its header, issue 52)."""
    folded = text.casefold()
    if folded.strip(_BYLINE_PUNCT) == name or _BY_RE.match(text):
        return True
    if day is None:
        return False
    found = normalize_date(text)
    said = _day(found) if found else None
    if said is None or abs((said - day).days) > DATELINE_DAYS:
        return False
    rest = folded.replace(name, " ", 1)
    return all(word in _DATELINE_WORDS for word in _WORD_RE.findall(rest))


TITLE_MATCH_RATIO = 90
"""rapidfuzz ``ratio`` (0-100) from which a heading's tokens, joined by spaces, are the title's
written another way ("Monokini Madness Hits Hollywood" for "Monokini Madness Hits H'wood"); the
shared datasets' README marks a truth as keeping the headline from a ratio above 85."""

TITLE_PART_SHARE = 0.5
"""The least share of the longer of a heading and the title that the shorter, a run of its
tokens, must cover: "Giving Back to NYC" is half of "Food Wishes Video Recipes: Giving Back to
NYC" (a title with the site's name the metadata kept)."""


def names_the_title(heading: list[str], title: list[str]) -> bool:
    """True if a heading's tokens ``heading`` say the title's ``title``
    (:func:`pagesieve.tokens.tokens` of each): the same tokens; or one is a run of the other's
    tokens of at least 3 tokens and :data:`TITLE_PART_SHARE` of the longer (a site's name or a
    date on one side only); or their texts match from :data:`TITLE_MATCH_RATIO` (rapidfuzz)."""
    if not heading or not title:
        return False
    if heading == title:
        return True
    short, long_ = (heading, title) if len(heading) <= len(title) else (title, heading)
    if len(short) >= 3 and len(short) >= TITLE_PART_SHARE * len(long_):
        n = len(short)
        if any(long_[i:i + n] == short for i in range(len(long_) - n + 1)):
            return True
    from rapidfuzz.fuzz import ratio

    return ratio(" ".join(heading), " ".join(title)) >= TITLE_MATCH_RATIO


def title_heading_block(blocks: list[Block], keep: list[bool], title: str | None) -> int | None:
    """The article's own copy of its ``title``: among the first :data:`BYLINE_LOOKAHEAD` content
    blocks, the first heading that names the title (:func:`names_the_title`), or a block of
    another tag that names it in no more tokens than the title's (a ``<div class="title">``,
    with or without the site's name the title holds); else ``None``.

    Only short blocks may stand above it: at most :data:`ABOVE_TITLE_CHARS` of text besides
    the title's words (:func:`_chars_besides`; a breadcrumb trail ending in the headline is
    short). The reader view and saved
    articles show the title in their header; the article's own copy of it in the body showed it
    twice (readability's ``medium-1`` opens with an ``<h4>`` of the
    title). A ``<div>`` naming the title less the site's name (daniel's rizospastis.gr, "ΡΙΖΟΣΠΑΣΤΗΣ :
    ...") was taken for a body line under the title with the site's name, before only a
    ``<div>`` of exactly the title's tokens counted. Mozilla Readability drops such a heading too (``_headerDuplicatesTitle``, for ``h1``
    and ``h2``). The headline need not open the body: a kicker, a breadcrumb trail or a section
    name often stands above it (dragnet, 2012 blogs: "Home / Blog / This Week's Sermon ...").
    """
    if not title:
        return None
    wanted = tokens(title)
    if not wanted:
        return None
    first = list(_first_content_blocks(blocks, keep))
    for k, b in enumerate(first):
        own = tokens(b.text)
        if (b.tag in HEADING_TAGS or len(own) <= len(wanted)) and names_the_title(own, wanted):
            return b.index
        if _chars_besides(own, wanted) > ABOVE_TITLE_CHARS and not any(_inside(blocks, c, b.index) for c in first[k + 1:]):
            return None  # the story has begun: a later copy of the title is its own
    return None


def _inside(blocks: Sequence, block, ancestor: int) -> bool:
    """Whether ``block`` lies inside block ``ancestor``: a container's own text is read as one
    run wherever its runs stand among its children, so the section name and standfirst around
    an ``<h1>`` in ``<header>Operations<h1>Title</h1>The chain's division is positioning ...</header>``
    come before the headline in document order (wcxb_dev/0153 read live: the title was shown
    twice, in the reader's header and the body). So a long block that holds a later one of the
    first content blocks does not end the search for the headline. Over every page of the eight
    datasets (``pagesieve-dev eval --split all``, 2026-12-07): 43 pages change, summed F1 +0.207
    (l3s_gn1 20 pages +0.165, dragnet 4 +0.042, big9 1 +0.003, wcxb_dev 1 +0.001, cleaneval 17
    -0.004); held-out gate 0.938708 -> 0.938752 (l3s_gn1 +0.00026, dragnet +0.00010, cleaneval
    -0.00002, the others unchanged)."""
    parent = block.parent
    while parent > ancestor:
        parent = blocks[parent].parent
    return parent == ancestor


HEADLINE_MAX_CHARS = 150
"""The most characters (white space collapsed) of an ``<h1>`` taken for the headline by
:func:`headline_h1_block`. Over every page of the eight shared datasets, 396 first ``<h1>``
elements would be taken without a limit; the 6 longer than 150 characters are a paragraph
("It is sometimes easy to forget that EPA Region 2 employees ..."), a promotion ("SALE 50% OFF
THE VERTE CHAIR. ADJUSTS AUTOMATICALLY ..."), runs of keywords, and one headline with its
standfirst (wcxb_dev/0561), which a reader's header would show as its headline. The limit costs
that page 0.05 of word F1."""


def headline_h1_block(blocks: Sequence, keep: Sequence[bool]) -> int | None:
    """The article's headline when no heading names the title (:func:`title_heading_block`):
    the first ``<h1>`` among the first :data:`BYLINE_LOOKAHEAD` content blocks, of at most
    :data:`HEADLINE_MAX_CHARS`, with only short blocks above it (at most
    :data:`ABOVE_TITLE_CHARS` each, as for the title heading); else ``None``.

    ``<h1>`` is the heading of the page's top-level section (HTML Living Standard §4.3.6, "h1
    ... highest rank"), and above the article's text it is the headline the page shows. The
    metadata's title is often another wording, written for search engines and shares
    (wcxb_dev/0018: ``og:title`` "Need a Change? 7 Vital Tips to Hit the Road in a Rental Car",
    ``<h1>`` "Need a Change? 7 Vital Tips on How to Rent a Car"). No heading named the title, so
    the reader's header showed the title and the body opened with the ``<h1>``: two headlines.
    Mozilla Readability keeps the ``<h1>`` in that case (``_headerDuplicatesTitle`` drops only a
    heading like the title); we take it for the header, which then shows the page's own
    wording.

    Over every page of the eight shared datasets (``pagesieve-dev eval --split all``, before
    and after), 388 pages change: per-page F1 rose on 321 and fell on 67 (sums of the changes:
    big9 +0.05, cleaneval +0.12, daniel +0.03, dragnet +0.46, l3s_gn1 +0.19, readability
    +0.09, wcxb_dev +0.74, zh_cwced no page). The falls, none above 0.05, are truths that keep
    the ``<h1>`` of a product or collection page where the headline is scored apart, or titles
    with words the ``<h1>`` lacks. Gate (held-out, 8 datasets): every dataset up or equal, the
    mean 0.936934 -> 0.937244 (``pagesieve-dev gate``, 2026-12-06). The dev gate's CV scores
    the kept blocks before the header is split off (``blocks_text``), so it does not see this.
    """
    for b in _first_content_blocks(blocks, keep):
        if b.tag == "h1" and len(" ".join(b.text.split())) <= HEADLINE_MAX_CHARS:
            return b.index
        if _chars_besides(tokens(b.text), []) > ABOVE_TITLE_CHARS:  # the story has begun
            return None
    return None


def _chars_besides(own: list[str], title: list[str]) -> int:
    """Characters of the tokens ``own`` (of a block) that are not the ``title``'s, with a space
    after each: what a block above the headline says besides the title. A breadcrumb trail
    ending in the headline ("Home Architecture Incredible Home Revival Project by KNQ
    Associates in Singapore [Before & After Photos]", dragnet's freshome.com) says two words.

    Dev gate of this and the ``<div>`` naming the title (:func:`title_heading_block`), against
    a5a9e62 (2026-12-06, 8 datasets, site-grouped folds of held-out pages): daniel +0.0013,
    zh_cwced +0.0003, dragnet +0.0002, l3s_gn1 +0.0002, wcxb_dev +0.0001, big9, cleaneval and
    readability unchanged; mean 0.9366 -> 0.9368."""
    words = set(title)
    return sum(len(t) + 1 for t in own if t not in words)


TITLE_COPY_SHARE = 0.6
"""The least share of the title's tokens (or the headline's, the longer) that a second copy of
the title must hold (:func:`title_copy_blocks`): "Jolie Film About Daniel Pearl Filmmaking of
Highest Order" holds 9 of the 12 of "Angelina Jolie Film About Slain Reporter Daniel Pearl
Filmmaking of Highest Order" (big9, Fox News). Dev gate (2026-12-06, 8 datasets, held-out
pages): 0.4, 0.6 and 0.8 all gave the mean +0.0002; 0.4 lost readability 0.0001."""


def title_copy_blocks(blocks: list[Block], keep: list[bool], title: str | None, heading: int) -> list[int]:
    """The blocks that repeat the headline once more near it: among the first
    :data:`BYLINE_LOOKAHEAD` content blocks, other than the title heading ``heading`` (a block
    index, :func:`title_heading_block`), each block of at least 3 tokens whose every token is a
    token of the title or the headline and which holds :data:`TITLE_COPY_SHARE` of the longer
    of them. A list of block indices, document order; ``[]`` when there is none.

    A page shows its headline again as the last step of a breadcrumb trail, a link to itself
    ("Jolie Film About Daniel Pearl Filmmaking of Highest Order" under the header of big9's
    ``2005_angelina_1``), a caption or a print title; the header shows the headline once, and
    the body (issue 52) does not repeat it. Unlike :func:`names_the_title`, the copy may leave
    words out anywhere (a shortened headline), but adds none; or, holding every token of the
    headline, add at most :data:`TITLE_COPY_EXTRA_CHARS` of its own (a section name before it).

    Dev gate (2026-12-06, 8 datasets, site-grouped folds of held-out pages): big9 +0.0003,
    daniel +0.0007, dragnet +0.0003, zh_cwced +0.0003, wcxb_dev -0.0000, cleaneval, l3s_gn1 and
    readability unchanged; mean 0.9364 -> 0.9366 (65 copies on the held-out pages).
    """
    own, named = tokens(blocks[heading].text), tokens(title) if title else []
    wanted = max(own, named, key=len)
    words = set(own) | set(named)
    extra = min(TITLE_COPY_EXTRA_CHARS, sum(len(t) + 1 for t in wanted) // 2)  # a short title is easily held
    out = []
    for b in _first_content_blocks(blocks, keep):
        if b.index == heading:
            continue
        own = tokens(b.text)
        if len(own) >= 3 and len(own) >= TITLE_COPY_SHARE * len(wanted) and set(own) <= words:
            out.append(b.index)
        elif len(wanted) >= 3 and set(wanted) <= set(own) and _chars_besides(own, list(words)) <= extra:
            out.append(b.index)
    return out


TITLE_COPY_EXTRA_CHARS = 40
"""The most characters (:func:`_chars_besides`) a copy of the whole headline may add to it in
:func:`title_copy_blocks`: a section name or a kicker run into the title ("Economy|As Debt
Rises, the Government Will Soon Spend More on Interest Than on the Military", readability's
``nytimes-4``, under the reader's header). Over every page of the eight datasets
(``pagesieve-dev eval --split all``, 2026-12-07), at 40: 121 pages change, summed F1 +0.893
(daniel +0.345, dragnet +0.364, wcxb_dev +0.077, l3s_gn1 +0.055, cleaneval +0.018, readability
+0.018). Held-out gate (``pagesieve-dev gate``, 8 datasets), mean 0.938752 without: 20 gives
0.938886 (l3s_gn1 -0.00005), 40 gives 0.938932 with every dataset up or equal (dragnet
+0.00086, readability +0.00014, zh_cwced +0.00014, l3s_gn1 +0.00012), 60 gives 0.938884 (big9
-0.00006, daniel -0.00007), 100 gives 0.938375 (zh_cwced -0.0031: a Chinese summary holding
the title's characters). Never more than half the headline's own characters: a short title is
easily held by a sentence ("The ferry slip at low water on a grey morning in March." under the
headline "The ferry slip" is a caption, which went; CI's test of a correction on a caption
caught it). With that cap, 21 pages change (summed F1 +0.03) and the gate's mean goes 0.939091
-> 0.939088 (with :func:`above_title_blocks`)."""


ABOVE_TITLE_CHARS = 100
"""The most characters of a block above the headline: a kicker, a section name, a breadcrumb
trail or a dateline; a longer block is the story's, and a heading after it that repeats the
title is the article's own business."""

ABOVE_TITLE_TOTAL_CHARS = 300
"""The most characters of all the blocks above the headline together for
:func:`above_title_blocks` to take them out of the body."""


def above_title_blocks(blocks: Sequence, keep: Sequence[bool], heading: int) -> list[int]:
    """The content blocks above the title heading ``heading`` (a block index,
    :func:`title_heading_block`), those around it excepted (:func:`_inside`): a breadcrumb
    trail ("Home", "News"), a section name or kicker ("BUSINESS", "Guides"), a "3 MIN. READ"; a
    list of block indices, document order, ``[]`` when any of them holds more than
    :data:`ABOVE_TITLE_CHARS` or all together more than :data:`ABOVE_TITLE_TOTAL_CHARS`.

    The body begins under the headline, as the article-body benchmarks have it (issue 52) and
    as the reader shows it: its header holds the headline, the byline and the date, and the
    lines above the headline stood over the body's first paragraph. They are not header lines
    either. Over every page of the eight datasets (``pagesieve-dev eval --split all``,
    2026-12-07): 458 pages change, summed F1 +1.18 (daniel +0.85, wcxb_dev +0.25, l3s_gn1
    +0.21, big9 +0.15, cleaneval +0.02, readability +0.01; dragnet -0.31, whose truths of
    online.wsj.com keep the section name and the "Updated" line above the headline). Held-out
    gate mean 0.938932 -> 0.939091 (big9 +0.00052, l3s_gn1 +0.00072, daniel +0.00031, wcxb_dev
    +0.00026; dragnet -0.00074, a twelfth of its standard error). At 50 characters a block and
    150 in all, 0.938934. Of those lines, one that gives a date
    (:func:`~pagesieve.article.dates.normalize_date`: "Personal Health November 5, 2012, 12:01 am"
    over well.blogs.nytimes.com's headlines, "Updated July 23, 2012, 11:57 p.m. ET" over the
    WSJ's) is the page's dateline, a header line (:func:`split_header`): 89 pages change, summed
    F1 +0.71 (dragnet +0.60, l3s_gn1 +0.10); gate mean 0.939088 -> 0.939284 (dragnet +0.0014,
    cleaneval -0.000003). With no limit on their size, cleaneval lost 0.81 and dragnet 0.31
    (long blocks above a late "headline" were content: cleaneval's final_452, recall 1.00 ->
    0.41)."""
    above = [b for b in _first_content_blocks(blocks, keep) if b.index < heading and not _inside(blocks, blocks[heading], b.index)]
    if any(b.chars > ABOVE_TITLE_CHARS for b in above) or sum(b.chars for b in above) > ABOVE_TITLE_TOTAL_CHARS:
        return []
    return [b.index for b in above]


DATELINE_MAX_CHARS = 60
"""Characters a dateline may hold: a weekday, the date, a time of day and a zone, a "Last
updated:" ("Last Updated: 3:56 PM, April 19, 2013" is 37)."""

DATELINE_DAYS = 1
"""How many days the dateline's date may lie from the metadata's: a time stamp in UTC and the
page's local dateline fall on neighbouring days ("2013-11-05T01:57:25+00:00" and "November 4,
2013 | 8:57pm" on big9's New York Post pages), as the reader's header, in the reader's own time
zone, may show either."""

_DATELINE_WORDS = frozenset(
    """january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday
    saturday sunday mon tue tues wed thu thur thurs fri sat sun am pm a m p updated published
    posted last modified on at st nd rd th et est edt ct cst cdt mt mst mdt pt pst pdt gmt utc
    bst cet cest ist""".split()
)
"""The words a dateline holds besides numbers: English month and weekday names (what
:func:`~pagesieve.article.dates.normalize_date` reads in text), "updated" / "published" /
"posted", a.m. and p.m., the common time zones. A date written with 年 月 日 is not one
:func:`~pagesieve.article.dates.normalize_date` reads, so no such line is a dateline here."""

_WORD_RE = re.compile(r"[^\W\d_]+")


def _day(iso: str) -> date | None:
    """The calendar day of an ISO 8601 date or date-time (its first ten characters), or ``None``."""
    try:
        return date.fromisoformat(iso[:10])
    except ValueError:
        return None


def dateline_block(blocks: list[Block], keep: list[bool], published: str | None) -> int | None:
    """The content block that is the article's dateline, which the reader view and a saved
    article show in their header (the metadata's ``published``) instead.

    It is one of the first :data:`BYLINE_LOOKAHEAD` content blocks, holds at most
    :data:`DATELINE_MAX_CHARS` characters, its text gives a date
    (:func:`~pagesieve.article.dates.normalize_date`) within :data:`DATELINE_DAYS` of
    ``published``, and it says nothing but the date: every word is a month, a weekday, a time
    of day or zone, or "updated" / "published" / "posted" (:data:`_DATELINE_WORDS`), so a line
    that names a person or a place stays ("By Ann Lee, May 21, 2007" is the byline's,
    :func:`byline_block`). On the 4,783 dataset pages of ``../shared/datasets`` (2026-11-27) such
    a block is kept on 175 pages (big9's "Monday, May 21, 2007", the New York Post's "October 31, 2013 | 7:17pm",
    daniel's "2011-12-09 18:51"). ``None`` without ``published`` or such a block.
    """
    day = _day(published) if published else None
    if day is None:
        return None
    for b in _first_content_blocks(blocks, keep):
        if b.chars > DATELINE_MAX_CHARS:
            continue
        text = b.text
        found = normalize_date(text)
        said = _day(found) if found else None
        if said is None or abs((said - day).days) > DATELINE_DAYS:
            continue
        if all(word in _DATELINE_WORDS for word in _WORD_RE.findall(text.lower())):
            return b.index
    return None


HEADER_RULES = ("title-in-header", "byline-in-header", "dateline-in-header", "title-copy", "above-title", "byline-word")
"""The removal rules of the header blocks and of the title's other copies (:mod:`pagesieve.removal`,
stage ``post-rule``)."""

BYLINE_MARK_WINDOW = 3 * BYLINE_LOOKAHEAD
"""How many kept blocks with text, from the first, :func:`byline_marks` answers for: the
byline is looked for among the first :data:`BYLINE_LOOKAHEAD` content blocks, and a site's
template removes some blocks before it (a batch's learn pass judges before the templates)."""


def byline_marks(blocks: Sequence[Block], keep: Sequence[bool]) -> list[int]:
    """The indices of the blocks marked as a byline (:func:`_names_a_byline`) among the first
    :data:`BYLINE_MARK_WINDOW` kept blocks with text: what :func:`byline_block` reads of the
    tree, kept for a page judged without it (``pagesieve batch``'s judged pages)."""
    out = []
    for b in islice((b for b in blocks if keep[b.index] and b.chars), BYLINE_MARK_WINDOW):
        if _names_a_byline(b.element):
            out.append(b.index)
    return out


def split_header(blocks: Sequence, keep: Sequence[bool], title: str | None, byline: str | None,
                 published: str | None, marked: Callable[[int], bool] | None = None
                 ) -> tuple[list[bool], list[str], dict[int, str]]:
    """The article's body and header of a judged page.

    Args:
        blocks: the page's blocks, document order (:class:`~pagesieve.blocks.segment.Block`,
            or :class:`~pagesieve.templates.evidence.BlockFacts` with ``marked``).
        keep: per block, True if it is main content.
        title, byline, published: the metadata's (:class:`~pagesieve.article.model.Metadata`).
        marked: ``index -> bool``, the byline marks of blocks without their element
            (:func:`byline_marks`); ``None`` reads each block's element.

    Returns:
        ``(body, header, rules)``: ``body`` is ``keep`` without the header blocks (the title
        heading, the byline line and the dateline: :func:`title_heading_block`,
        :func:`byline_block`, :func:`dateline_block`; without a title heading, the headline
        ``<h1>``, :func:`headline_h1_block`), the title's other copies near it
        (:func:`title_copy_blocks`), the lines above it (:func:`above_title_blocks`) and a
        byline's opening word alone (:func:`lone_byline_words`), these three not header lines; ``header`` the header's lines as the
        page shows them, the headline first (the title heading's text, else ``title``), then
        the byline and dateline lines in page order; ``rules`` block index -> its rule of
        :data:`HEADER_RULES`. ``body`` is ``keep`` itself (not a copy) when no block is taken.
    """
    found: dict[int, str] = {}
    heading = title_heading_block(blocks, keep, title)
    if heading is None:
        heading = headline_h1_block(blocks, keep)
    if heading is not None:
        found[heading] = HEADER_RULES[0]
    line = byline_block(blocks, keep, byline, marked, published)
    if line is not None:
        found.setdefault(line, HEADER_RULES[1])
    date = dateline_block(blocks, keep, published)
    if date is not None:
        found.setdefault(date, HEADER_RULES[2])
    above = above_title_blocks(blocks, keep, heading) if heading is not None else []
    for i in above:  # a line above the headline that gives a date is the page's dateline: a header line
        if normalize_date(blocks[i].text):
            found.setdefault(i, HEADER_RULES[2])
    header = [" ".join(blocks[heading].text.split())] if heading is not None else ([title] if title else [])
    header += [" ".join(blocks[i].text.split()) for i in sorted(found) if i != heading]
    if heading is not None:
        for i in title_copy_blocks(blocks, keep, title, heading):
            found.setdefault(i, HEADER_RULES[3])
        for i in above:
            found.setdefault(i, HEADER_RULES[4])
    for i in lone_byline_words(blocks, keep):
        found.setdefault(i, HEADER_RULES[5])
    if not found:
        return keep if isinstance(keep, list) else list(keep), header, found
    body = list(keep)
    for i in found:
        body[i] = False
    return body, header, found
