"""``learn``: store a visited page's template summary; and the learning a ``clean`` asks for."""

from __future__ import annotations

from pagesieve.native.envelope import ErrorCode, ProtocolError, flag
from pagesieve.native.session import Session


def handle(session: Session, message: dict) -> dict:
    """``learn`` ``{"snapshot", "private"?}`` -> ``{"type": "learned", "site", "learned",
    "pages"}``; a private page (``"private": true``) is answered but never stored.

    On a site the user has corrected, the page is also judged (the classifier and the site's
    corrections, no templates), so that the store counts the kinds of block that held its
    article (:func:`~pagesieve.templates.learn.article_shapes`): the pages a later "hide" is
    checked against (issue 54). Elsewhere learning reads the page alone, as cheap as before:
    the classifier's cost is paid only where corrections are made."""
    from pagesieve.templates.learn import summarise
    from pagesieve.templates.urls import site_of

    private = flag(message, "private")
    page = session.page(message)
    try:
        rules = None if private else session.rules(site_of(page.url))
    except ProtocolError:  # a label store that cannot be read costs the count, not the learning
        rules = None
    if rules:
        from pagesieve.extract import judge_page

        analysis, keep = judge_page(page, model=session.model(page), corrections=rules)
        summary = summarise(page, analysis.blocks, keep=keep)
    else:
        summary = summarise(page)
    learned, pages = store_summary(session, summary, private)
    return {"type": "learned", "site": summary.site, "learned": learned, "pages": pages}


def store_summary(session: Session, summary, private: bool) -> tuple[bool, int | None]:
    """Store a page's template summary unless ``private`` or without a site: ``(stored,
    the site's pages now)`` (``(False, None)`` when nothing was asked of the store).

    Raises:
        ProtocolError: STORE when the template store cannot be opened or written.
    """
    from pagesieve.errors import TemplateStoreError

    if private or summary.site is None:
        return False, None
    store = session.store()
    try:
        learned = store.learn(summary)
        pages = store.site_pages(summary.site)
    except TemplateStoreError as exc:
        raise ProtocolError(ErrorCode.STORE, str(exc)) from None
    return learned, pages


def learn_judged(session: Session, page, blocks, private: bool, warnings: list[str], keep: list[bool] | None = None) -> bool:
    """``clean`` with ``"learn": true``: learn the page from the tree and blocks it was just
    judged on (one walk and one parse for both). Called after the verdict, so the page is
    never part of its own template (as ``pagesieve-dev eval --history`` never lets it be), and
    before the reader article prunes the tree. With the verdict ``keep``, the store also counts
    the kinds of block that held the article (:func:`~pagesieve.templates.learn.article_shapes`).
    A store that cannot be written costs the learning only: the verdict is still answered, with
    the reason in ``warnings``."""
    from pagesieve.templates.learn import summarise

    try:
        learned, _pages = store_summary(session, summarise(page, blocks, keep=keep), private)
    except ProtocolError as exc:
        warnings.append(f"not learned: {exc}")
        return False
    return learned
