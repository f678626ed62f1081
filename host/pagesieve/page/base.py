"""The document base URL: what a page's relative links and images are resolved against
(:func:`document_base_url`)."""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

from lxml import etree

BASE_SCHEMES = frozenset({"http", "https", "file"})
"""Schemes a base URL may have here. HTML ignores a ``<base href>`` whose URL has the scheme
``data`` or ``javascript`` (HTML Living Standard §4.2.3, "set the frozen base URL"); an address
that no browser loads a page from (``mailto:``, ``about:``) makes no base either."""


def document_base_url(root: etree._Element, url: str | None) -> str | None:
    """The base URL of the document ``root`` read from ``url`` (``None`` when unknown): the
    ``href`` of the first ``<base>`` element of its head that has one, resolved against ``url``,
    or ``url`` itself when it has none (HTML Living Standard §2.4.1 "document base URL", §4.2.3
    "the base element"). A base whose URL cannot be parsed, or whose scheme is not one of
    :data:`BASE_SCHEMES`, is ignored, as is a relative base of a page whose own URL is unknown.

    The head only: a ``<base>`` belongs there (§4.2.3, "contexts in which this element can be
    used"), and looking through the whole tree for one costs 0.07 ms a page (half a per cent of
    ``extract``; 600 pages of wcxb_dev and big9). A browser also reads one in the body: 19 of
    the 250 dataset pages with a ``<base href>`` have it there, all but one put there by the
    Wayback Machine, whose base names the archive's copy rather than the site.

    A browser resolves every relative ``src`` and ``href`` of the page against this URL, not
    against the page's own address: on 81 of the 250 dataset pages with a ``<base href>`` (and a
    known address) the two give other addresses for a relative link, such as cleaneval's
    ``dev_1``, a page under ``/homes/sellers/list_today/`` whose base is the site's root, so its
    images, resolved against the page's address, did not load in the reader. Read it before
    pre-processing, which removes ``<base>`` with the rest of the head.
    """
    head = root.find("head")
    href = None if head is None else next((b.get("href") for b in head.iter("base") if b.get("href") is not None), None)
    if href is None:
        return url
    href = href.strip()
    try:
        base = urljoin(url, href) if url else href
        scheme = urlsplit(base).scheme.lower()
    except ValueError:
        return url
    if scheme not in BASE_SCHEMES:
        return url
    return base
