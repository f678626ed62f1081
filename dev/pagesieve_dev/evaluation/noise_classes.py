"""What kind of noise a kept line is: the classes of issue 47's kept-noise report.

A line of an extractor's output that the truth lacks (:mod:`pagesieve_dev.evaluation.kept_lines`)
falls into one of :data:`CLASSES`, decided by :func:`classify_line` from the page structure
around the block the line came from (:class:`BlockFacts`, read from the page tree by
:func:`block_facts`) and from cues of the text that hold in any language (an e-mail address, a
date, a counter, the page's own title and byline), never from lists of English words. The first
cue that fires decides, the strongest evidence first (the order of :func:`classify_line`).

Where each cue comes from:

- **Element names**: HTML Living Standard §4.4.12-13 (``figure``, ``figcaption``: a figure's
  caption), §4.3.10 (``address``: contact information of the author), §4.5.6 (``cite``: the
  title of a cited work), ``time`` (§4.5.14: a date).
- **Class and id words** (:data:`CAPTION_WORDS` ...): the names the markup of common publishing
  software gives these parts (WordPress core ``wp-caption-text``, ``gallery-caption``,
  ``wp-block-image``, Drupal's ``field--name-field-image-caption``), and the class lists the
  main-content extractors use to drop the same parts: Mozilla Readability's ``unlikelyCandidates``
  and ``negative`` expressions (``related``, ``share``, ``social``, ``promo``, ``sponsor``,
  ``byline``, ``contact``, ``gdpr``), and trafilatura's discard expressions (``xpaths.py``:
  ``caption``, ``credit``, ``newsletter``, ``subscri``, ``cookie``, ``consent``, ``teaser``,
  ``recommend``, ``author``, ``bio``, ``copyright``). They name the markup, not the page's
  language.
- **Teaser cards**: a block in a run of at least :data:`RUN_MIN` look-alike siblings (same tag
  and class, digits removed: :attr:`pagesieve.blocks.segment.Block.signature`, seed 004's
  structural similarity) that each open with a link to another page of the same site, or in a
  card of :func:`pagesieve.blocks.signals.card_items` whose links go mostly to the same site
  (:func:`pagesieve.blocks.signals.same_site_shares`).
- **Link targets**: ``mailto:`` and ``tel:`` (RFC 6068, RFC 3966), ``doi.org`` (a citation),
  and the hosts of :data:`SOCIAL_HOSTS` (social networks, app stores, podcast directories: a
  call to follow, download or listen).
- **Text**: an e-mail address (:data:`pagesieve.blocks.signals.EMAIL_RE`), a social handle
  (``@name``), the copyright sign, a slide counter (``3 / 8``, ``3 of 8``), a date alone on
  its line (:func:`pagesieve.article.dates.normalize_date`), the page's own title (the
  ``title_like`` test of :mod:`pagesieve.blocks.features`, seed 001 §2.2.2) and the authors'
  names of the byline (:func:`author_names`) as the metadata found them (:func:`pagesieve.article.metadata.extract_metadata`), and the byline
  openers of :func:`pagesieve.blocks.signals.is_byline` (by / von / par / por).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from lxml import etree

from pagesieve.article.dates import normalize_date
from pagesieve.article.model import Metadata
from pagesieve.blocks.segment import Block
from pagesieve.blocks.signals import EMAIL_RE, card_items, is_byline, same_site_shares
from pagesieve.tokens import tokens

CLASSES = ("caption", "teaser", "promo", "contact", "header", "duplicate", "other")
"""The classes, in the report's order: (1) figure captions, photo credits and gallery chrome;
(2) teaser cards (links to other pages of the site with their summaries); (3) calls to action
and promos (newsletter, subscribe, cookie, app, podcast, follow); (4) author contact,
contribution, citation and reprint lines; (5) the headline, byline or dateline repeated in the
body; a line that appears more than once in the output; anything else."""

CLASS_TITLES = {
    "caption": "captions, credits, gallery chrome",
    "teaser": "teaser cards",
    "promo": "calls to action, promos",
    "contact": "contact, contribution, citation",
    "header": "headline, byline, dateline",
    "duplicate": "duplicate line",
    "other": "other",
}
"""A short description of each class, for the tables."""

ANCESTOR_LEVELS = 5
"""How many elements above a block lend it their class and id words: a gallery's caption sits
a few wrappers inside the element named ``gallery`` (WordPress: ``figure.wp-block-image >
figcaption`` inside ``figure.wp-block-gallery``); higher up, the words name the page layout
(``site-content``, ``main-wrapper``) and say nothing of the block."""

RUN_MIN = 3
"""Siblings of one shape that make a run of cards (as :data:`pagesieve.blocks.signals.CARD_MIN_RUN`)."""

RUN_UP = 3
"""How many levels above a block the card that holds it may be (as
:data:`pagesieve.blocks.signals.CARD_UP`)."""

CARD_SAME_SITE = 0.5
"""Share of a card's links that go to another page of the same site from which a card of
:func:`~pagesieve.blocks.signals.card_items` counts as a teaser (most of its links lead into
the site, not to a shop, a profile or a share button)."""

SHORT_LINE = 12
"""Tokens up to which a line may be a date, a byline or a counter alone (a dateline such as
"Updated 10:42 a.m. ET, Tuesday, March 10, 2015" has 10)."""

CAPTION_LINE = 40
"""Tokens up to which a line beside an image is read as its caption (the captions of the
wcxb_dev pages run to about 35 tokens)."""

CAPTION_WORDS = ("caption", "credit", "gallery", "slideshow", "slider", "carousel", "lightbox", "photo",
                 "figure", "attribution")
"""Class and id words (prefixes) of figure captions, photo credits and gallery chrome."""

TEASER_WORDS = ("related", "teaser", "recirc", "recommend", "trending", "popular", "mostread", "most-read",
                "readnext", "read-next", "morestories", "more-stories", "outbrain", "taboola")
"""Class and id words (prefixes) of teaser and recommendation boxes."""

PROMO_WORDS = ("newsletter", "subscri", "signup", "sign-up", "promo", "cta", "cookie", "consent", "gdpr",
               "podcast", "social", "share", "sharing", "follow", "donat", "paywall", "membership", "banner",
               "optin", "opt-in", "sponsor", "advert", "affiliate", "disclosure", "widget", "modal", "popup")
"""Class and id words (prefixes) of calls to action, promos and notices."""

CONTACT_WORDS = ("bio", "contributor", "citation", "cite", "reprint", "copyright", "licen", "rights",
                 "contact", "disclaimer", "correction", "permission", "syndicat")
"""Class and id words (prefixes) of author, contact, citation and reprint lines."""

HEADER_WORDS = ("byline", "author", "dateline", "posted", "timestamp", "pubdate", "publish", "date",
                "entry-meta", "post-meta", "article-meta")
"""Class and id words (prefixes) of an article's byline and date. Not ``title`` or ``headline``:
cards and sections carry them too (``card-title``); a repeated headline is found by its text."""

SOCIAL_HOSTS = ("twitter.com", "x.com", "facebook.com", "instagram.com", "linkedin.com", "youtube.com",
                "tiktok.com", "pinterest.com", "t.me", "wa.me", "whatsapp.com", "threads.net", "bsky.app",
                "reddit.com", "apps.apple.com", "itunes.apple.com", "play.google.com", "podcasts.apple.com",
                "podcasts.google.com", "open.spotify.com", "vk.com", "weibo.com", "telegram.me")
"""Hosts whose links ask the reader to follow, share, download or listen elsewhere."""

_WORD_SPLIT = re.compile(r"[^a-z0-9-]+")
_COUNTER_RE = re.compile(r"(?<!\d)\d{1,3}\s*(?:/|of|\|)\s*\d{1,3}(?!\d)", re.IGNORECASE)
_HANDLE_RE = re.compile(r"(?<![\w.])@[A-Za-z0-9_]{2,}")
_IMAGE_TAGS = frozenset({"img", "picture", "svg", "video", "figure"})


@dataclass(frozen=True, slots=True)
class BlockFacts:
    """What the page tree says about one block, read before the article is rendered (which
    prunes the tree).

    Attributes:
        tag: the block's tag. tags: its own and its ancestors' tags, up to the body.
        words: the class and id words of the block and of :data:`ANCESTOR_LEVELS` elements
            above it, lower-cased (split at anything but letters, digits and hyphens, and at
            hyphens too: both ``wp-caption-text`` and ``wp``, ``caption``, ``text``).
        hrefs: the ``href`` of the links in the block's subtree, in document order.
        teaser: the teaser cue that fires (``"link-led run"``, ``"card"``) or ``""``.
        image: the block holds an image of its own, or the element just before it is one.
        time: the block holds a ``time`` element.
    """

    tag: str
    tags: frozenset[str]
    words: frozenset[str]
    hrefs: tuple[str, ...]
    teaser: str
    image: bool
    time: bool


def _host(url: str | None) -> str:
    if not url:
        return ""
    try:
        return (urlsplit(url).hostname or "").removeprefix("www.")
    except ValueError:
        return ""


def _same_site(href: str, host: str) -> bool:
    """Whether ``href`` leads to another page of ``host`` (a relative address does)."""
    if href.startswith(("#", "javascript:", "mailto:", "tel:")):
        return False
    try:
        parts = urlsplit(href)
    except ValueError:
        return False
    if not parts.netloc:
        return bool(parts.path.strip("/"))
    return bool(host) and (parts.hostname or "").removeprefix("www.") == host


def _words(element: etree._Element) -> set[str]:
    out: set[str] = set()
    for name in ("class", "id"):
        value = element.get(name)
        if value:
            for word in _WORD_SPLIT.split(value.lower()):
                if word:
                    out.add(word)
                    out.update(w for w in word.split("-") if w)
    return out


def _link_led(element: etree._Element, host: str) -> bool:
    """The element's text opens with a link to another page of ``host``."""
    for node in element.iter():
        if not isinstance(node.tag, str):
            continue
        if node.tag == "a":
            href = node.get("href") or ""
            return bool("".join(node.itertext()).strip()) and _same_site(href, host)
        if node.text and node.text.strip():
            return False
        if node is not element and node.tail and node.tail.strip():
            return False
    return False


class _Runs:
    """Which elements are members of a run of look-alike siblings led by same-site links
    (cached per parent)."""

    def __init__(self, host: str) -> None:
        self.host = host
        self.members: dict[etree._Element, frozenset] = {}

    def member(self, element: etree._Element) -> bool:
        parent = element.getparent()
        if parent is None:
            return False
        found = self.members.get(parent)
        if found is None:
            groups: dict[tuple[str, str], list] = {}
            for child in parent:
                if isinstance(child.tag, str):
                    key = (child.tag, re.sub(r"\d+", "", child.get("class") or ""))
                    groups.setdefault(key, []).append(child)
            chosen = []
            for members in groups.values():
                if len(members) >= RUN_MIN:
                    led = [m for m in members if _link_led(m, self.host)]
                    if len(led) >= RUN_MIN and 2 * len(led) >= len(members):
                        chosen.extend(led)
            found = self.members[parent] = frozenset(chosen)
        return element in found


def _image_before(element: etree._Element) -> bool:
    previous = element.getprevious()
    while previous is not None and not isinstance(previous.tag, str):
        previous = previous.getprevious()
    if previous is None:
        return False
    if previous.tag in _IMAGE_TAGS:
        return True
    # a wrapper that holds an image and no text (a linked or framed picture)
    return not "".join(previous.itertext()).strip() and any(
        isinstance(d.tag, str) and d.tag in _IMAGE_TAGS for d in previous.iterdescendants())


def block_facts(blocks: Sequence[Block], url: str | None) -> list[BlockFacts | None]:
    """Per block (document order), its :class:`BlockFacts`; ``None`` for a block without text
    of its own. Reads the page tree as it stands: call it after the page is judged and before
    the article is rendered. About 20 ms for a page of 2,000 blocks."""
    host = _host(url)
    cards, _runs = card_items(blocks)
    shares = same_site_shares(blocks, host) if host else [0.0] * len(blocks)
    runs = _Runs(host)
    out: list[BlockFacts | None] = []
    for b in blocks:
        if not b.text.strip():
            out.append(None)
            continue
        element = b.element
        tags = {element.tag}
        words = _words(element)
        teaser = ""
        level = 0
        node = element
        while node is not None and node.tag not in ("body", "html"):
            if level <= RUN_UP and not teaser and runs.member(node):
                teaser = "link-led run"
            if level and level <= ANCESTOR_LEVELS:
                words |= _words(node)
            tags.add(node.tag)
            node = node.getparent()
            level += 1
        card = cards[b.index]
        if not teaser and card >= 0 and shares[card] >= CARD_SAME_SITE:
            teaser = "card"
        hrefs = tuple(a.get("href") or "" for a in element.iter("a"))
        image = b.images > 0 or _image_before(element)
        time = any(True for _ in element.iter("time"))
        out.append(BlockFacts(element.tag, frozenset(tags), frozenset(words), hrefs, teaser, image, time))
    return out


def _word_cue(words: frozenset[str], wanted: tuple[str, ...]) -> str:
    for word in sorted(words):
        for prefix in wanted:
            if word.startswith(prefix):
                return f"class {word}"
    return ""


def _title_like(line: list[str], title: list[str]) -> bool:
    """``title_like`` of :mod:`pagesieve.blocks.features` on tokens: at least 0.8 of the
    title's tokens in the line, and the line not much longer than the title."""
    if not title or not line:
        return False
    have = set(line)
    return sum(t in have for t in title) >= 0.8 * len(title) and len(line) <= 2 * len(title) + 2


def _social(host: str) -> bool:
    return any(host == h or host.endswith("." + h) for h in SOCIAL_HOSTS)


def _link_host(href: str) -> str:
    try:
        return (urlsplit(href).hostname or "").removeprefix("www.")
    except ValueError:
        return ""


_NAME_SPLIT = re.compile(r"[,;/&|·•]")


def author_names(byline: str | None) -> list[list[str]]:
    """The tokens of each name of a byline ("Jared Newman, Sam Singleton": two), split at
    punctuation (not at a language's word for "and"); names of fewer than two tokens are left
    out (a lone given name matches too many lines)."""
    if not byline:
        return []
    return [t for t in (tokens(part) for part in _NAME_SPLIT.split(byline)) if len(t) >= 2]


def classify_line(text: str, facts: BlockFacts | None, metadata: Metadata | None, repeated: bool) -> tuple[str, str]:
    """The class (one of :data:`CLASSES`) of a kept line that the truth lacks, and the cue that
    decided it (``"figcaption"``, ``"class wp-caption-text"``, ``"title"``, ``"email"`` ...).

    Args:
        text: the line. facts: the facts of the block it came from (:func:`block_facts`), or
            ``None`` when it could not be traced to a block (text cues only).
        metadata: the page's metadata as pagesieve extracted it (title, byline), or ``None``.
        repeated: the line (as tokens) appears more than once in the output.

    Order: a figure or caption element or word; the page's own title, byline (a short line
    with an author's name) or a date alone; a teaser card; a longer line naming an author (a
    bio, a contribution line) and the other contact cues; promo cues; header words or ``h1``; an image just before a
    short line, or a slide counter; a repeated line; other.
    """
    line = tokens(text)
    n = len(line)
    tags = facts.tags if facts is not None else frozenset()
    words = facts.words if facts is not None else frozenset()
    hrefs = facts.hrefs if facts is not None else ()
    if "figcaption" in tags:
        return "caption", "figcaption"
    if "figure" in tags and n <= CAPTION_LINE:  # some sites wrap whole sections in a figure
        return "caption", "figure"
    cue = _word_cue(words, CAPTION_WORDS)
    if cue:
        return "caption", cue
    have = set(line)
    names = author_names(metadata.byline if metadata is not None else None)
    named = [name for name in names if set(name) <= have]
    if metadata is not None:
        if _title_like(line, tokens(metadata.title or "")):
            return "header", "title"
        if named and n <= max(len(name) for name in named) + SHORT_LINE:
            return "header", "byline"
    if n <= SHORT_LINE and is_byline(text):
        return "header", "byline opener"
    if n <= SHORT_LINE and (normalize_date(text) is not None or (facts is not None and facts.time)):
        return "header", "date"
    if facts is not None and facts.teaser:
        return "teaser", facts.teaser
    cue = _word_cue(words, TEASER_WORDS)
    if cue:
        return "teaser", cue
    if named:
        return "contact", "names the author"
    if EMAIL_RE.search(text) or any(h.startswith("mailto:") for h in hrefs):
        return "contact", "email"
    if any(h.startswith("tel:") for h in hrefs):
        return "contact", "phone"
    if "address" in tags or "cite" in tags:
        return "contact", "address" if "address" in tags else "cite"
    if "©" in text or "(c)" in text.lower():
        return "contact", "copyright sign"
    if any("doi.org/" in h for h in hrefs):
        return "contact", "doi link"
    cue = _word_cue(words, CONTACT_WORDS)
    if cue:
        return "contact", cue
    if _HANDLE_RE.search(text):
        return "contact", "handle"
    if tags & {"form", "button", "input", "label", "select", "textarea"}:
        return "promo", "form"
    if any(_social(_link_host(h)) for h in hrefs):
        return "promo", "social link"
    cue = _word_cue(words, PROMO_WORDS)
    if cue:
        return "promo", cue
    cue = _word_cue(words, HEADER_WORDS)
    if cue:
        return "header", cue
    if "h1" in tags:
        return "header", "h1"
    if facts is not None and facts.image and n <= CAPTION_LINE:
        return "caption", "beside image"
    if n <= SHORT_LINE and _COUNTER_RE.search(text):
        return "caption", "counter"
    if repeated:
        return "duplicate", "repeated"
    return "other", ""
