"""Asides the page names as such: disclaimers, author bios, related links, share bars, sponsor and
newsletter boxes, breadcrumb trails, and on a product's page its customers' reviews
(:func:`drop_named_asides`)."""

from __future__ import annotations

import re

from pagesieve.blocks.segment import Block, subtree_ends
from pagesieve.page.elements import class_and_id
from pagesieve.removal import Removal, RemovalLog

ASIDE_WORDS: dict[str, str] = {
    "disclaimer": r"disclaimer",
    "author-bio": r"author-?bio|about-?the-?author|author-?box",
    "related": r"related",
    "share": r"share|social",
    "sponsor": r"sponsor",
    "newsletter": r"newsletter|subscribe|sign-?up",
    "breadcrumb": r"breadcrumb",
}
"""Per kind of aside, the class or id words that name it, matched anywhere in the attribute
(``legal-disclaimer``, ``author-bio``, ``articleRelated``, ``share-buttons``,
``duet--cta--newsletter``, ``breadcrumbs``). ``related``, ``share``, ``social``, ``sponsor`` and
``breadcrumb`` are words of Readability.js's ``REGEXPS.negative`` and ``unlikelyCandidates``
(mozilla/readability, Readability.js), which lower a whole candidate's score; here they drop
only what the classifier kept inside a named element. ``disclaimer`` (Forbes's
``<p class="short legal-disclaimer">`` "Opinions expressed by Forbes Contributors are their own"
under every contributor's story, big9; Famous Footwear's ``text--disclaimer`` promotion terms,
wcxb_dev/4190), the author bio and the newsletter words are ours.

Each word was measured on every page of the eight datasets (2026-12-07, summed F1 against the
rule without it). Added to ``disclaimer`` alone: author bio +0.52 (dragnet +0.44; cleaneval -0.04
and l3s_gn1 -0.05, whose truths keep bios), related +0.65, share/social +0.24, subscribe or
sign-up +0.12, newsletter +0.10, sponsor +0.06; refused ``disclosure`` -0.25 (also the name of a
show-and-hide widget: Shopify's ``disclosure__content`` holds a product's description,
wcxb_dev/4017), ``promo`` -1.71 (wcxb_dev -1.51), ``caption`` -4.24, ``cta`` -2.23. Added to all
of the above: breadcrumb +0.23 (wcxb_dev +0.23, dragnet +0.04, daniel -0.04; held-out gate mean
+0.00002: wcxb_dev +0.0002, readability -0.00006); refused ``widget`` -10.3 (whole articles in
widget-named wrappers), ``banner`` -2.9, ``sidebar`` +0.06 (too mixed: dragnet +0.43, wcxb_dev
-0.19), ``footer`` +0.23 (wcxb_dev -0.29), ``popup|modal`` +0.73 but held-out gate mean -0.00016
(readability/yahoo-2 shows its story in a modal viewer), ``tags`` -0.11,
``community|disqus|replies`` -0.07, ``rss|pager|pagination`` -0.20; ``outbrain|taboola`` and
``fine-?print`` change nothing."""

PRODUCT_ASIDE_WORDS: dict[str, str] = {"reviews": r"reviews|customer-?review|product-?review|yotpo|stamped-review"}
"""On a product's page (the page-type stage's likeliest type, :mod:`pagesieve.classify.page_type`),
the names of its customers' reviews besides :data:`ASIDE_WORDS`: what the shop's visitors say of
the product, which the product's description does not hold, as a story's comments are not the
story (WCXB's truths of product pages hold the description; Amazon's ``reviews-content``,
Bazaarvoice's ``bvseo-reviewsSection``, Steam's ``game_area_reviews``, the review apps Yotpo and
Stamped). Measured on every page of the eight datasets (2026-12-07, summed F1 against the rule
without it): 12 wcxb_dev pages changed, +0.448 (a microphone's page 0.75 -> 0.99; 3 down, the
largest two Steam pages whose critics' quotes sit in ``game_area_reviews``, -0.05 and -0.04);
on every page type, not only products, -0.03 on 35 pages (on a movers' directory, which the
page-type stage takes for an article, the reviews are what the page is for: -0.22). Held-out gate: wcxb_dev 0.866737 -> 0.867247, the other
seven unchanged. Dev gate (``eval wcxb_dev --cv 5``, page types cross-fitted): product pages
0.6387 -> 0.6403, all 0.8627 -> 0.8628."""


def _kinds_pattern(words: dict[str, str]) -> re.Pattern:
    """``words`` (kind -> class or id words) in one pattern whose matching group's name is the
    kind, ``-`` written ``_``."""
    return re.compile("|".join(f"(?P<{kind.replace('-', '_')}>{w})" for kind, w in words.items()), re.IGNORECASE)


ASIDE_CLASS = _kinds_pattern(ASIDE_WORDS)
""":data:`ASIDE_WORDS` in one pattern; the name of the group that matched is the kind."""

PRODUCT_ASIDE_CLASS = _kinds_pattern({**ASIDE_WORDS, **PRODUCT_ASIDE_WORDS})
""":data:`ASIDE_CLASS` with :data:`PRODUCT_ASIDE_WORDS`: the pattern read on a product's page."""

ASIDE_CUES = ("disclaimer", "author", "related", "share", "social", "sponsor", "newsletter", "subscribe", "sign",
              "breadcrumb")
"""Lower-case substrings one of which every match of :data:`ASIDE_CLASS` holds: a class or id
without any is passed over before the pattern is tried (the pattern costs about 12 us on a
100-character class, the substrings under 2; the rule walks some 160 elements a page)."""

PRODUCT_ASIDE_CUES = ASIDE_CUES + ("review", "yotpo")
"""The same for :data:`PRODUCT_ASIDE_CLASS`."""

MAX_SHARE = 0.5
"""The largest share of the page's kept characters that a named subtree may hold and still be
dropped: a wrapper so named that holds the article itself (wcxb_dev/4431's post carries a
``disclaimer`` word) is over it. Summed F1 over every page of the eight datasets against this
value, with ``disclaimer`` alone (2026-12-07): 0.3 -0.58 (4190's promotion terms are 30-50 % of
what its listing keeps), 0.7 -0.003, 1.0 -1.11 (4431's whole story goes)."""


def aside_kind(block: Block, parent: Block | None, product: bool = False) -> str | None:
    """The kind of aside (a key of :data:`ASIDE_WORDS`, or with ``product`` of
    :data:`PRODUCT_ASIDE_WORDS` too) that the element of ``block``, or an ancestor below the
    element of its ``parent`` block, is named for by its class or id; the nearest name wins.
    ``None`` when none is (the wrapper of a block's aside is often a ``<div>`` that is no block
    of its own)."""
    pattern, cues = (PRODUCT_ASIDE_CLASS, PRODUCT_ASIDE_CUES) if product else (ASIDE_CLASS, ASIDE_CUES)
    stop = parent.element if parent is not None else None
    element = block.element
    while element is not None and element is not stop and element.tag not in ("body", "html"):
        names = class_and_id(element)
        if names:
            lowered = names.lower()
            if any(cue in lowered for cue in cues):
                found = pattern.search(names)
                if found:
                    return found.lastgroup.replace("_", "-")
        element = element.getparent()
    return None


def drop_named_asides(blocks: list[Block], keep: list[bool], log: RemovalLog | None = None,
                      product: bool = False) -> int:
    """Judge noise, in place, every kept block inside a block the page names an aside
    (:func:`aside_kind`, :data:`ASIDE_WORDS`; on a product's page, ``product``, its customers'
    reviews too, :data:`PRODUCT_ASIDE_WORDS`) when that block holds at most :data:`MAX_SHARE` of
    the page's kept characters; returns how many blocks were dropped. Each drop is logged in
    ``log`` as post-rule ``"named-aside"`` with its kind.

    The classifier keeps these lines: they are sentences of prose set in the article's column
    (a contributor's disclaimer, the author's bio, a related story's summary, a newsletter's
    pitch), where only the page's own name for them says what they are. A user's "keep"
    correction still brings one back (:func:`pagesieve.corrections.rules.apply_rules` runs
    after), and a personal model, which learnt from the user's corrections what they keep, is
    not overruled (:data:`pagesieve.extract.PERSONAL_SKIP`).

    On every page of the eight datasets (2026-12-07) the rule changes 270 pages, summed F1 +3.49
    against none: wcxb_dev +2.11 (112 up, 40 down; the largest fall 4184 -0.10: its last
    sections sit in an element its site named ``...-related-articles``), dragnet +0.82, big9
    +0.38 (34 up, none down), l3s_gn1 +0.24, readability +0.08, daniel -0.03 (one we-dwoje.pl
    page -0.11), cleaneval -0.10 (author bios and an investment firm's notes its truths keep),
    zh_cwced unchanged. Held-out gate (site-grouped folds): mean 0.939313 -> 0.940035; wcxb_dev
    +0.0023, dragnet +0.0017, big9 +0.0013, readability +0.0006, daniel +0.00001, cleaneval
    -0.00002, l3s_gn1 -0.0001 (its standard error 0.0046). Dev gate (``pagesieve-dev eval
    wcxb_dev --cv 5 --cv-variants all+balanced@0.4/0.3:collection+listing --cv-ablate asides``,
    site-grouped 5-fold CV of all 1,497 pages): 0.8601 without, 0.8614 with (precision 0.8617 ->
    0.8648); article +0.0014, service +0.0023, listing +0.0016, product +0.0019, documentation
    +0.0010, collection -0.0003, forum -0.0001.
    """
    kept_in = [b.chars if keep[b.index] else 0 for b in blocks]  # kept characters per subtree
    for b in reversed(blocks):
        if b.parent >= 0:
            kept_in[b.parent] += kept_in[b.index]
    total = sum(kept_in[b.index] for b in blocks if b.parent < 0)
    if not total:
        return 0
    ends = subtree_ends(blocks)
    dropped = 0
    i = 0
    while i < len(blocks):
        if kept_in[i] == 0:  # nothing kept inside: nothing to drop, no name to read
            i = ends[i] + 1
            continue
        block = blocks[i]
        kind = aside_kind(block, blocks[block.parent] if block.parent >= 0 else None, product)
        if kind is None:
            i += 1
            continue
        if kept_in[i] <= MAX_SHARE * total:
            for j in range(i, ends[i] + 1):
                if keep[j] and blocks[j].chars:
                    keep[j] = False
                    dropped += 1
                    if log is not None:
                        log.drop(j, Removal("post-rule", "named-aside", {"kind": kind, "chars": blocks[j].chars}))
        i = ends[i] + 1  # over the share, it is left whole with the asides named inside it (looking
        # inside instead, every page of the eight datasets: -0.22 summed F1, readability/mercurial -0.13)
    return dropped
