"""Teaser cards around an article: runs of look-alike siblings, each led by a link to another page
of the same site, outside the article's text (:func:`drop_teaser_runs`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from urllib.parse import urlsplit

import numpy as np
from lxml import etree

from pagesieve.blocks.segment import Block, subtree_ends
from pagesieve.blocks.signals import main_text_run, sibling_runs
from pagesieve.classify.page_type import likeliest_type
from pagesieve.removal import Removal, RemovalLog
from pagesieve.templates.urls import site_of

TEASER_RUN_MIN = 3
"""Least number of link-led siblings of one shape that make a run of teasers: the card runs'
three (:data:`pagesieve.blocks.signals.CARD_MIN_RUN`, issue 31: "three or more cards with the
same tag path"), and the kept-noise report's teaser class
(``pagesieve_dev.evaluation.noise_classes.RUN_MIN``)."""

TEASER_LED_SHARE = 0.5
"""Least share of a run's siblings (same tag and class) that must be led by a same-site link, as
for the card runs of :func:`pagesieve.blocks.signals.card_items` (half the run)."""

BODY_MIN_CHARS = 500
"""Least number of characters the classifier must have kept in the page's longest text run (the
article's body) for the runs around it to be teasers: where the body was not found, "around it"
means nothing. Mozilla Readability's ``charThreshold`` (500), as
:data:`pagesieve.rules.comments.ARTICLE_MIN_CHARS`. On the training pages of wcxb_dev it spares
one page, 0057 (movebuddha.com, a directory of 128 movers whose body run holds none of the kept
text; F1 0.916 -> 0.846 without it); every other page where the rule fires keeps 1,000
characters or more in its body run."""


def other_page_of_site(href: str, host: str) -> bool:
    """Whether ``href`` leads to another page of the site ``host`` (as
    :func:`pagesieve.templates.urls.site_of` gives it: lower case, no ``www.``): a
    relative address with a path, or an absolute one on ``host``; not a fragment, a script, a
    mail or phone address, nor the site's home page (``/``)."""
    if not href or href.startswith(("#", "javascript:", "mailto:", "tel:")):
        return False
    try:
        parts = urlsplit(href)
        hostname = parts.hostname
    except ValueError:
        return False
    if not parts.path.strip("/"):
        return False
    if not parts.netloc:
        return True
    return bool(host) and (hostname or "").removeprefix("www.") == host


def link_led(element: etree._Element, host: str) -> bool:
    """Whether the element opens with a link to another page of ``host``
    (:func:`other_page_of_site`): no text comes before the first link with text, and that link,
    or a picture link before it (a card's image, then its headline), goes to such a page."""
    picture_led = False
    for node in element.iter():
        if not isinstance(node.tag, str):
            continue
        if node.tag == "a":
            to_site = other_page_of_site(node.get("href") or "", host)
            if "".join(node.itertext()).strip():
                return to_site or picture_led
            picture_led = picture_led or to_site
            continue
        if node.text and node.text.strip():
            return False
        if node is not element and node.tail and node.tail.strip():
            return False
    return False


def teaser_runs(blocks: Sequence[Block], url: str | None,
                considered: Callable[[list[int]], bool] | None = None,
                groups: list[list[int]] | None = None) -> list[tuple[list[int], list[int]]]:
    """The runs of teasers of a page: per run, ``(members, led)``, the block indices of its
    siblings of one shape and of those of them led by a link, in document order.

    A run is a group of at least :data:`TEASER_RUN_MIN` sibling blocks of one shape (the same
    tag and class: :func:`pagesieve.blocks.signals.sibling_runs`, seed 004's structural
    similarity), of which at
    least :data:`TEASER_LED_SHARE`, and at least :data:`TEASER_RUN_MIN`, are led by a link to
    another page of the site (:func:`link_led`): "headline + summary" cards, however long the
    summary. The same definition as the kept-noise report's teaser class
    (``pagesieve_dev.evaluation.noise_classes``), a picture link before the headline counting
    as a lead too. Without a URL, relative links alone count as the site's. ``considered``:
    when given, only the groups for which it is true are looked at (their links read).
    ``groups``: the page's :func:`pagesieve.blocks.segment.sibling_groups` when already made.
    """
    host = site_of(url) or ""
    out = []
    for members in sibling_runs(blocks, TEASER_RUN_MIN, groups):
        if considered is not None and not considered(members):
            continue
        led = [c for c in members if link_led(blocks[c].element, host)]
        if len(led) >= TEASER_RUN_MIN and len(led) >= TEASER_LED_SHARE * len(members):
            out.append((members, led))
    return out


def is_article(page_type: np.ndarray | None) -> bool:
    """Whether the page-type stage (:mod:`pagesieve.classify.page_type`) names ``article`` the
    likeliest of the seven WCXB page types, from its probabilities ``(len(PAGE_TYPES),)``;
    False without a page-type stage (``None``)."""
    return likeliest_type(page_type) == "article"


def drop_teaser_runs(blocks: list[Block], keep: list[bool], url: str | None, page_type: np.ndarray | None,
                     log: RemovalLog | None = None, groups: list[list[int]] | None = None) -> int:
    """Judge noise, in place, the kept blocks of the teaser runs (:func:`teaser_runs`) that lie
    outside the article's text, on article pages; returns how many.

    Serves the class of **article pages** (the page-type stage names ``article`` the likeliest,
    :func:`is_article`; pages without a page-type stage are left alone): a listing's or a
    collection's cards are its content (WCXB's page types), an article's "More stories",
    "Don't miss" and video playlists are not. The run must lie wholly before or wholly after the
    page's longest run of text (:func:`pagesieve.blocks.signals.main_text_run`, the article's
    body, in which the classifier kept at least :data:`BODY_MIN_CHARS`): a list of links inside
    the body ("Read also" lists, tables of contents, the items of a round-up) is the article's
    own. Only the members led by a link go; their look-alike siblings stay. Teasers carry long
    text, headline and first sentence, so the block classifier keeps many of them (issue 47,
    kept noise class 2: 18,552 teaser tokens kept on wcxb_dev's held-out pages, the largest
    named class; 1,986 of them on article pages, the rest on forums, listings and collections).

    Measured on the shipped model's training pages (``models/split.json``; a probe over this
    definition), over every run found on pages taken for articles, kept or not, the share of
    its tokens in blocks the truth holds: after the body, wcxb_dev 4.1 % (2,193 of 53,459),
    dragnet 3.0 % (709 of 23,540), l3s_gn1 1.2 % (67 of 5,587), cleaneval 10.7 % (93 of 873);
    before it, wcxb_dev 5.9 % (3,708 of 63,383), dragnet 2.2 %, l3s_gn1 1.4 %, cleaneval 14.5 %;
    inside it, wcxb_dev 19.5 % (869 of 4,465: left alone). On wcxb_dev's other page types the
    runs outside the body are much more often content (listing 28-65 %, forum 27 % after the
    thread, collection 13-18 %, service 15 %), hence articles only. On those training pages,
    macro F1: wcxb_dev 0.8662 -> 0.8665 (13 pages; 1,685 tokens removed), l3s_gn1 +0.0001,
    cleaneval -0.0001 (one page), dragnet and daniel unchanged: the classifier, fitted to them,
    already drops their teasers.

    Dev gate on the held-out pages (``pagesieve-dev gate``, eight datasets, against main of
    2026-11-27): mean 0.9357 -> 0.9358, wcxb_dev 0.8578 -> 0.8578 (+0.0001), l3s_gn1 +0.0004,
    dragnet +0.0001, readability +0.0001, the others unchanged: kept. Kept-noise report
    (``pagesieve-dev kept-noise``): teaser tokens on wcxb_dev 18,552 -> 18,336 (article pages
    1,986 -> 1,770), dragnet 669 -> 627, big9 and daniel unchanged. Without
    :data:`BODY_MIN_CHARS` the gate also kept the rule (mean +0.0001) but wcxb_dev fell 0.0004
    (a listing taken for an article). Each drop is logged in ``log`` as post-rule
    ``"teaser-run"`` with the run's size, its parent's tag and its side of the body. ``groups``:
    the page's :func:`pagesieve.blocks.segment.sibling_groups` when already made.
    """
    if not blocks or not is_article(page_type):
        return 0
    first, last = main_text_run(blocks)
    if sum(blocks[i].chars for i in range(first, last + 1) if keep[i]) < BODY_MIN_CHARS:
        return 0
    ends = subtree_ends(blocks)

    def side_of(members: list[int]) -> str | None:
        if members[0] > last:
            return "after"
        return "before" if ends[blocks[members[0]].parent] < first else None

    def worth_reading(members: list[int]) -> bool:
        # a run none of whose members' subtrees holds a kept block drops nothing: its links
        # are not read (the same drops, a fifth of the rule's time on the bench's pages)
        return side_of(members) is not None and any(keep[i] for m in members for i in range(m, ends[m] + 1))

    dropped = 0
    for members, led in teaser_runs(blocks, url, considered=worth_reading, groups=groups):
        parent = blocks[members[0]].parent
        side = side_of(members)
        removal = Removal("post-rule", "teaser-run", {"run": len(led), "parent": blocks[parent].tag, "side": side})
        for m in led:
            for i in range(m, ends[m] + 1):
                if keep[i]:
                    keep[i] = False
                    dropped += 1
                    if log is not None:
                        log.drop(i, removal)
    return dropped
