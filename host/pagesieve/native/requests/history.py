"""``history``: what the template store learned of a page's site (docs/protocol.md)."""

from __future__ import annotations

from pagesieve.native.envelope import ErrorCode, ProtocolError
from pagesieve.native.session import Session


def handle(session: Session, message: dict) -> dict:
    """``history`` ``{"url"}`` -> ``{"type": "history", "site", "pages", "reference"}``:
    what the store learned of the page's site; ``reference`` is true when it holds a page of
    the site other than ``url``, so a ``clean`` of that page needs no fetched reference
    (cold start, :mod:`pagesieve.templates.cold_start`)."""
    from pagesieve.errors import TemplateStoreError
    from pagesieve.templates.urls import site_of

    url = message.get("url")
    if not isinstance(url, str) or not url:
        raise ProtocolError(ErrorCode.BAD_REQUEST, "\"url\" must be the page's URL")
    site = site_of(url)
    if site is None:
        return {"type": "history", "site": None, "pages": 0, "reference": False}
    try:
        store = session.store()
        pages, has_reference = store.site_pages(site), store.has_reference(site, url)
    except TemplateStoreError as exc:
        raise ProtocolError(ErrorCode.STORE, str(exc)) from None
    return {"type": "history", "site": site, "pages": pages, "reference": has_reference}
