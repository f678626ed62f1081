"""``follow``: one of an article's following pages, fetched by the extension, cleaned with the
site's templates, for the reader to show under page 1 (issue 53; docs/protocol.md, "Articles
over several pages")."""

from __future__ import annotations

import base64
import binascii
import time

from pagesieve.native.envelope import ErrorCode, ProtocolError
from pagesieve.native.session import Session

MAX_PAGE_BYTES = 8 * 1024 * 1024
"""Bytes of a following page the host reads (the cold-start reference page's cap,
:data:`pagesieve.native.requests.clean.MAX_REFERENCE_BYTES`); the extension sends none larger."""

MAX_SEEN = 50
"""Addresses a ``follow`` request may list in ``seen`` (10 pages, each asked and redirected,
with room to spare)."""


def _strings(message: dict, name: str, most: int) -> list[str]:
    value = message.get(name, [])
    if not isinstance(value, list) or len(value) > most or not all(isinstance(v, str) for v in value):
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"\"{name}\" must be a list of at most {most} strings")
    return value


def handle(session: Session, message: dict) -> dict:
    """``follow`` ``{"url", "data", "title", "seen"?, "earlier"?}`` -> ``{"type": "followed",
    "url", "same_article", "next_page", "article", "repeated", "site", "warnings", "host_ms"}``.

    ``url``: the page's address after redirects (http or https); ``data``: its bytes as base64,
    at most :data:`MAX_PAGE_BYTES` (decoded by the host's charset detection); ``title``: page 1's
    title; ``seen``: the addresses read so far (page 1's among them); ``earlier``: the texts of
    the pages shown so far, in order.

    The page is judged as ``clean`` judges a page in reader mode (the site's templates, the
    user's corrections, the model for a page without boxes), but nothing is learned or stored.
    ``same_article`` is false when the page's title is not page 1's
    (:func:`pagesieve.article.pagination.same_article`): the reader then stops and shows
    nothing of it. ``article`` holds the body (``html``, ``text``, ``reading_minutes``) without
    the lines an earlier page holds (:func:`pagesieve.article.pagination.drop_repeated`;
    ``repeated`` counts them). ``next_page`` is where the article goes on from here
    (:meth:`~pagesieve.article.pagination.NextPage.to_json`), judged with ``seen``.

    Raises:
        ProtocolError: BAD_REQUEST for a field that is missing or malformed, or a page that is
            not a readable HTML page; STORE, LABELS, MODEL as ``clean``.
    """
    from pagesieve.article.pagination import drop_repeated, same_article
    from pagesieve.article.render import sanitise
    from pagesieve.errors import InputError, TemplateStoreError
    from pagesieve.extract import judge_page, next_page, render_article
    from pagesieve.page.html import parse_html
    from pagesieve.templates.urls import site_of

    started = time.perf_counter()
    url, data, title = message.get("url"), message.get("data"), message.get("title", "")
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "\"url\" must be the page's http(s) address")
    if not isinstance(title, str):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "\"title\" must be the first page's title")
    if not isinstance(data, str) or len(data) > (MAX_PAGE_BYTES + 2) // 3 * 4:
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"\"data\" must be the page as base64, at most {MAX_PAGE_BYTES} bytes")
    seen, earlier = _strings(message, "seen", MAX_SEEN), _strings(message, "earlier", MAX_SEEN)
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "\"data\" is not base64") from None
    try:
        page = parse_html(raw, url=url)
    except InputError as exc:
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"{url}: {exc}") from None
    site = site_of(url)
    templates = None
    if site is not None:
        try:
            templates = session.store().templates_for(site, url)
        except TemplateStoreError as exc:
            raise ProtocolError(ErrorCode.STORE, str(exc)) from None
    analysis, keep = judge_page(page, model=session.model(page), templates=templates, corrections=session.rules(site),
                                title_only=False)
    following = next_page(analysis, keep, seen=[*seen, url])  # before render_article prunes the tree
    article = render_article(analysis, keep)
    html, text, repeated = drop_repeated(article.html, article.text, earlier)
    same = same_article(article.metadata.title, title)
    data = article.to_dict()
    body = {"html": f"<div>{sanitise(html)}</div>", "text": text, "reading_minutes": data.get("reading_minutes"),
            "title": article.metadata.title, "url": url}
    return {
        "type": "followed", "url": url, "same_article": same, "next_page": following.to_json(),
        "article": body if same else None, "repeated": repeated, "site": site, "warnings": list(article.warnings),
        "host_ms": round((time.perf_counter() - started) * 1000, 1),
    }
