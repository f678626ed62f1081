"""The article's title: the ``<title>`` cleaned of the site's name (:func:`clean_title`; An et al.
2010 §2.2.1, with the separators of Readability.js's ``_getArticleTitle``), the ``<h1>``, the
JSON-LD headline and the Open Graph title weighed against each other (:func:`find_title`)."""

from __future__ import annotations

import re

from pagesieve.article.jsonld import JsonLd, jsonld_rank
from pagesieve.article.meta_text import first_meta, norm, element_text
from pagesieve.page.model import Page
from pagesieve.tokens import tokens


_CJK_CHARS = "\u2e80-\u9fff\uff00-\uffef"
_TITLE_SEPARATOR = re.compile(
    r"\s+(?:[-_|\u2013\u2014\u00bb]|::)\s+"  # a separator with space around it
    rf"|(?<=[{_CJK_CHARS})）])_+(?=\S)|(?<=\S)_+(?=[{_CJK_CHARS}(（])"  # an underscore beside Chinese or Japanese
    r"|\s*_(?=[A-Z][a-z]+(?:_[A-Z][a-z]+)*\s*$)"  # an underscore before a capitalised suffix: "..._English_Xinhua"
)
"""What separates the parts of a ``<title>`` (see :func:`clean_title`)."""
_MIN_TITLE_WORDS = 3
_MIN_TITLE_CHARS_CJK = 6


def _long_enough(text: str) -> bool:
    if len(text.split()) >= _MIN_TITLE_WORDS:
        return True
    # Scripts written without spaces (Chinese, Japanese): count characters instead.
    return sum(1 for ch in text if ord(ch) >= 0x2E80) >= _MIN_TITLE_CHARS_CJK


def clean_title(title: str) -> str:
    """Cut the site-name part off a ``<title>`` string.

    Args:
        title: the raw document title, e.g. ``"Rust 2.0 released | The Register"``.

    Returns:
        The whitespace-normalised headline, e.g. ``"Rust 2.0 released"``. A title of three
        parts or more (``"BBC NEWS | Technology | Apple iPod sets sights on video"``: site,
        section, headline in some order) gives its part with the most words (then the most
        characters) when that part is long enough (>= 3 words, or >= 6 CJK characters). Else
        the title is cut before its LAST separator (``-``, ``_``, ``|``, ``–``, ``—``, ``::``,
        ``»`` with space around it; also ``_`` without space beside Chinese or Japanese text,
        ``"标题_新闻中心_新浪网"``, or before a suffix of capitalised words, ``"Headline_English_Xinhua"``,
        but not inside an identifier such as ``my_var``) when the part before is long enough; otherwise, if the part
        after the FIRST separator is long enough, the leading site name is dropped instead
        (``"Site | Long article headline"``); otherwise the title is kept.

    Source: An et al. 2010 §2.2.1 (the seed paper) cut the title after the last '-' or '_';
    Readability.js's ``_getArticleTitle`` extends the separator set and adds the
    "too short, drop the first part instead" fallback. The rule for three parts is ours: cut
    before the last separator, the BBC's titles gave "BBC NEWS | Technology" (held-out F1 with
    it: big9 +0.0004, daniel +0.0009, dragnet +0.0001, the others unchanged). So is the
    underscore without space: 117 of daniel's titles and 12 of zh_cwced's use it, Xinhua's
    English titles too (held-out F1: daniel +0.0001, l3s_gn1 +0.0001, the others unchanged).
    """
    title = norm(title)
    parts = list(_TITLE_SEPARATOR.finditer(title))
    if not parts:
        return title
    if len(parts) >= 2:
        starts = [0] + [p.end() for p in parts]
        ends = [p.start() for p in parts] + [len(title)]
        longest = max((title[a:b].strip() for a, b in zip(starts, ends)), key=lambda part: (len(part.split()), len(part)))
        if _long_enough(longest):
            return longest
    head = title[: parts[-1].start()].strip()
    if _long_enough(head):
        return head
    tail = title[parts[0].end() :].strip()
    if _long_enough(tail):
        return tail
    return title


_SEPARATOR_CHARS = frozenset("-_|\u2013\u2014\u00bb:\u00b7")


MIN_SHORTENED_WORDS = 3
"""Words the ``<title>``'s headline part must have for an ``<h1>`` that begins with it to be
taken as the whole headline (two words, "Breaking news", begin too many unrelated headings)."""


def _title_from_h1(root, doc_title: str) -> str:
    """The text of an ``<h1>`` that equals the ``<title>``, is its headline part, or says that
    headline whole: ``"Harbour wall to be rebuilt | Coast Times"`` and an ``<h1>`` reading
    ``"Harbour wall to be rebuilt after winter storms"`` give the ``<h1>`` (newsrooms shorten
    the ``<title>`` for search results; the reader's header must show the headline, and the
    body must not repeat it, issue 47). The headline part (:func:`clean_title`) must have
    :data:`MIN_SHORTENED_WORDS` tokens and begin the ``<h1>``'s tokens.

    ``"Headline - Site"`` matches an ``<h1>`` reading ``"Headline"`` (the rest of the title
    must start with a separator); ``"Site | Headline"`` matches ``"Headline"`` when the site
    part before the separator has fewer words than the ``<h1>`` (a logo ``<h1>`` holding the
    site name must not win).
    """
    if not doc_title:
        return ""
    folded = doc_title.casefold()
    headline = tokens(clean_title(doc_title))
    for count, h1 in enumerate(root.iter("h1")):
        if count >= 10:
            break
        text = element_text(h1)
        if len(text) < 4 or len(text) > 300:
            continue
        low = text.casefold()
        if low == folded:
            return text
        if folded.startswith(low):
            rest = folded[len(low) :].lstrip()
            if rest[:1] in _SEPARATOR_CHARS:
                return text
        elif folded.endswith(low):
            before = folded[: len(folded) - len(low)].rstrip()
            if before[-1:] in _SEPARATOR_CHARS and len(text.split()) > len(before.split()):
                return text
        if len(headline) >= MIN_SHORTENED_WORDS:
            words = tokens(text)
            if len(words) > len(headline) and words[: len(headline)] == headline:
                return text  # the <title> shortens the headline: the <h1> says it whole
    return ""


def _strip_site_suffix(title: str, site_names: list[str]) -> str:
    """Cut ``" - Site"`` off a metadata title when ``Site`` is a known name of the site.

    ``site_names`` are case-folded (``og:site_name``, ``application-name``, the JSON-LD
    publisher, the last part of the ``<title>``); either may abbreviate the other
    (``"Spiceworks"`` / ``"Spiceworks Inc"``). The part kept must pass :func:`clean_title`'s
    length test.
    """
    parts = list(_TITLE_SEPARATOR.finditer(title))
    if not parts:
        return title
    head = title[: parts[-1].start()].strip()
    suffix = title[parts[-1].end() :].strip().casefold()
    if len(suffix) < 2 or not _long_enough(head):
        return title
    for name in site_names:
        if len(name) >= 2 and (name.startswith(suffix) or suffix.startswith(name)):
            return head
    return title


def _token_set(text: str) -> set[str]:
    return {t for t in re.split(r"\W+", text.casefold()) if t}


def _jsonld_headline(ld: JsonLd, doc_title: str) -> str:
    """JSON-LD ``headline`` of the best article/page object, or its ``name`` when that fits better.

    Some sites put a tagline in ``headline`` (Wikipedia: the Wikidata description) or the site
    name in ``name``; when both are present and differ, the one covering more of the
    ``<title>``'s words wins (after Readability.js's name/headline check).
    """
    for obj in ld.objects:
        rank = jsonld_rank(obj)
        if rank > 1:
            break
        headline = obj.get("headline")
        if isinstance(headline, list):
            headline = headline[0] if headline else None
        headline = norm(headline)
        name = norm(obj.get("name")) if rank == 0 else ""
        if headline and name and headline != name and doc_title:
            title_tokens = _token_set(doc_title)
            if title_tokens:
                if len(_token_set(name) & title_tokens) > len(_token_set(headline) & title_tokens):
                    return name
        if headline:
            return headline
    return ""


def document_title(page: Page, root) -> str:
    """The document's title: the browser's (``page.title``) or the ``<title>`` element's text,
    white space normalised; ``""`` when it has none."""
    title = page.title or ""
    if not title:
        element = root.find(".//title")
        if element is not None:
            title = element_text(element)
    return norm(title)


def find_title(page: Page, root, meta: dict[str, str], ld: JsonLd) -> str:
    """og:title > JSON-LD headline > twitter:title > DC.title / parsely-title > matching <h1> > cleaned <title>.

    Metadata titles lose a trailing ``" | Site"`` when ``Site`` is the site's own name.
    """
    doc_title = document_title(page, root)
    value = norm(meta.get("og:title")) or _jsonld_headline(ld, doc_title)
    if not value:
        value = first_meta(meta, ("twitter:title", "dc.title", "dcterms.title", "dc:title", "dcterm:title", "parsely-title", "sailthru.title"))
    if value:
        names = [norm(meta.get(key)).casefold() for key in ("og:site_name", "application-name", "apple-mobile-web-app-title")]
        for obj in ld.objects:
            if obj.get("publisher"):
                names.extend(n.casefold() for n in ld.names(obj["publisher"])[:1])
                break
        parts = list(_TITLE_SEPARATOR.finditer(doc_title))
        if parts and doc_title.casefold() != value.casefold():
            # The <title> ends with the same suffix: independent evidence that it is the site.
            names.append(doc_title[parts[-1].end() :].strip().casefold())
        return _strip_site_suffix(value, names)
    value = _title_from_h1(root, doc_title)
    if value:
        return value
    if doc_title:
        return clean_title(doc_title)
    # No <title> at all: a lone <h1> is the best guess left.
    for h1 in root.iter("h1"):
        value = element_text(h1)
        if value:
            return value
    return ""
