"""Cold start: a reference page for a site with no history (issue "site templates", opt-in).

When the store holds no page of a site other than the one being read, the layout diff (seed
004 §2.2) has nothing to compare with. The paper's own remedy is to take the reference page
from the site: here, the link on the current page whose URL is most similar to the page's own
(seed 004 §2.2 d, :func:`~pagesieve.templates.urls.url_similarity`), which the extension
fetches (same origin, without cookies) and sends with the ``clean`` request. The host uses it
for that one request and stores nothing of it.

The link rule is implemented twice, here (for ``pagesieve-dev eval --cold-start``) and in
``extension/reference.js`` (live); a browser test checks that the two pick the same link on
real pages.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import unquote, urljoin, urlsplit, urlunsplit

import numpy as np

from pagesieve.templates.library import TemplateLibrary
from pagesieve.templates.store import SiteTemplates
from pagesieve.templates.urls import path_segments

NOT_A_PAGE = re.compile(
    r"\.(?:pdf|jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|mp[34]|m4[av]|ogg|oga|ogv|webm|wav|flac|avi|mov|wmv|"
    r"zip|gz|tgz|bz2|xz|7z|rar|tar|exe|msi|dmg|apk|deb|rpm|iso|epub|mobi|docx?|xlsx?|pptx?|odt|ods|odp|csv|"
    r"json|xml|rss|atom|css|js|woff2?|ttf|eot|txt)$",
    re.IGNORECASE,
)
"""A path ending this way names a file, not an HTML page; it is never the reference."""

COLD_START_DUPLICATE_SHARE = 0.5
"""With a fetched reference, the diff is ignored when more than this share of the kept text is
identical in it (the page it links to holds the same story: a comments view, a teaser list).
Measured with ``pagesieve-dev eval dragnet --min-site-pages 5 --cold-start`` (49 of its 220 pages
link to a page the dataset holds; single page F1 0.936): guard 0.8 gives 0.931, 0.5 gives
0.934, 0.3 gives 0.934, 0.1 gives 0.935. At 0.8, dragnet 176 (a short post whose kept text is
54 % on the post it links to) drops from F1 1.000 to 0.462. What the diff still removes at 0.5
is mostly the sites' comment-form rules, which dragnet's truth counts as content. On daniel (3
of 260 pages with a reference) and big9 (4 of 280) the figures equal single page. (The guard
with learned history is :data:`pagesieve.templates.evidence.DUPLICATE_SHARE`.)"""


def _canonical(parts) -> str:
    """The URL of ``parts`` as a browser writes it (WHATWG URL, in the simple cases): scheme and
    host lower case, no default port, ``/`` for an empty path, no fragment."""
    netloc = parts.netloc.lower()
    default = {"http": ":80", "https": ":443"}.get(parts.scheme.lower())
    if default and netloc.endswith(default):
        netloc = netloc[: -len(default)]
    return urlunsplit((parts.scheme.lower(), netloc, parts.path or "/", parts.query, ""))


def _segments(path: str) -> list[str]:
    # unquoted, so that a percent-encoded link and a raw one name the same page (the browser
    # encodes both)
    return [unquote(s) for s in path_segments(path)]


def reference_link(page_url: str, hrefs: Iterable[str]) -> str | None:
    """The link of a page to fetch as its reference page, or ``None`` when it has none.

    Args:
        page_url: the page's absolute URL. hrefs: the ``href`` of its ``<a>`` elements in
            document order (relative ones are resolved against ``page_url``).

    Returns:
        Among links of the same origin (scheme, host and port) to another path than the page's
        own (compared by path segments, so ``/a/b`` and ``/a/b/`` are one), whose path does
        not name a file (:data:`NOT_A_PAGE`), the one with the highest URL similarity to
        ``page_url``: equal leading path segments over the larger number of segments (seed 004
        §2.2 d, as :func:`~pagesieve.templates.urls.url_similarity`; segments compared
        percent-decoded); ties go to the first in document order. The URL is given as a browser
        writes it (lower-case host, no default port, ``/`` for an empty path, no fragment). A
        link to the same path with another query (the next page of the story, its print view)
        is left out: it holds the same article, which the diff would then delete.
    """
    try:
        base = urlsplit(page_url)
    except ValueError:
        return None
    if base.scheme not in ("http", "https") or not base.netloc:
        return None
    origin = _canonical(base._replace(path="", query=""))
    own = _segments(base.path)
    best, best_score = None, -1.0
    for href in hrefs:
        href = href.strip()
        if not href or href.startswith("#"):
            continue
        try:
            parts = urlsplit(urljoin(page_url, href))
            url = _canonical(parts)
        except ValueError:
            continue
        if _canonical(parts._replace(path="", query="")) != origin:
            continue
        path = _segments(parts.path)
        if path == own or NOT_A_PAGE.search(parts.path):
            continue
        common = 0
        for x, y in zip(path, own):
            if x != y:
                break
            common += 1
        score = common / max(len(path), len(own))
        if score > best_score:
            best, best_score = url, score
    return best


def page_hrefs(root) -> list[str]:
    """The ``href`` of every ``<a>`` under ``root`` (an lxml element), document order."""
    return [a.get("href") for a in root.iter("a") if a.get("href")]


def reference_templates(site: str, reference_url: str, fingerprints: Iterable[int],
                        library: TemplateLibrary | None = None, pages: int = 0) -> SiteTemplates:
    """Templates for one extraction whose reference page was fetched: its block fingerprints
    (:func:`pagesieve.templates.diff.block_fingerprints`), with ``library`` (what the store
    learned of the site, else an empty library) and the site's learned ``pages``."""
    reference = np.unique(np.array(list(fingerprints), dtype=np.uint64))
    return SiteTemplates(site, library if library is not None else TemplateLibrary(), reference_url, reference,
                         pages, fetched=True)
