"""The whole article of a page that goes on over several pages (issue 53): read page 1, follow
its next page (:func:`pagesieve.extract.next_page`) one at a time, each once, at most
:data:`~pagesieve.article.pagination.MAX_PAGES`, and join them
(:func:`pagesieve.article.pagination.join_pages`). Used by ``pagesieve extract --all-pages``
and ``pagesieve save --all-pages``.

It stops at a loop (a page already read), at a page whose title is not the first page's (not the
same article), at the limit, or at a page that cannot be read: that page is named in the
article's warnings, and the pages before it are kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pagesieve.article.model import Article
from pagesieve.article.pagination import MAX_PAGES, clean_url, join_pages, same_article
from pagesieve.errors import PagesieveError


@dataclass(slots=True)
class PagesRead:
    """An article read over its pages.

    Attributes:
        article: the joined article (:attr:`~pagesieve.article.model.Article.pages` its addresses).
        decisions: per page read, in order, ``{"page", **NextPage.to_json()}``: where it said the
            article goes on, and what it did not follow and why.
        failed: ``(url, reason)`` of the page that could not be read, if one could not.
        stopped: why the reading ended (``last-page``, ``limit``, ``not-the-same-article``,
            ``failed``, ``loop``, ``single-page-version``).
    """

    article: Article
    decisions: list[dict] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    stopped: str = "last-page"


def read_pages(source: bytes | str, url: str, fetch: Callable, extract_one: Callable | None = None,
               max_pages: int = MAX_PAGES, progress: Callable[[str], None] | None = None) -> PagesRead:
    """The article that begins on ``source`` (the page at ``url``) with all its pages.

    Args:
        source: page 1, as read. url: its address (after redirects).
        fetch: ``url -> (bytes, final url)``; raises :class:`~pagesieve.errors.PagesieveError`
            (a :class:`~pagesieve.fetch.FetchError`) for a page that cannot be read.
        extract_one: ``(source, url) -> (analysis, keep)`` of one page (default: the shipped
            model, :func:`pagesieve.extract.judge_page` with the metadata).
        max_pages: the most pages read. progress: told a line per page read.

    Returns:
        :class:`PagesRead`.

    Raises:
        InputError: page 1 is not a page (as :func:`pagesieve.page.html.parse_html`).
    """
    from pagesieve.extract import judge_page, next_page, render_article
    from pagesieve.page.html import parse_html

    if extract_one is None:
        def extract_one(src, address):
            return judge_page(parse_html(src, url=address), title_only=False)

    analysis, keep = extract_one(source, url)
    decision = next_page(analysis, keep, seen=[url])
    first = render_article(analysis, keep)
    result = PagesRead(first, [{"page": url, **decision.to_json()}])
    if decision.single_page:
        try:
            body, final = fetch(decision.single_page)
            a2, k2 = extract_one(body, final)
            whole = render_article(a2, k2)
            if whole.text and same_article(whole.metadata.title, first.metadata.title):
                whole.pages = [final]
                result.article, result.stopped = whole, "single-page-version"
                result.decisions.append({"page": final, "stage": "pages", "rule": "single-page-version"})
                return result
        except PagesieveError as exc:
            result.failed.append((decision.single_page, str(exc)))
    articles, urls = [first], [url]
    seen = [url]
    while decision.url:
        if len(articles) >= max_pages:
            result.stopped = "limit"
            break
        target = decision.url
        if progress is not None:
            progress(f"page {len(articles) + 1}: {target}")
        try:
            body, final = fetch(target)
            analysis, keep = extract_one(body, final)
        except PagesieveError as exc:
            result.failed.append((target, str(exc)))
            result.stopped = "failed"
            break
        if final != target and clean_url(final) in {clean_url(s) for s in seen}:  # redirected to a page read before
            result.decisions.append({"page": final, "stage": "pages", "rule": "seen", "evidence": {"asked": target}})
            result.stopped = "loop"
            break
        seen += [target, final]
        if not same_article(analysis.metadata.title, first.metadata.title):
            result.decisions.append({"page": final, "stage": "pages", "rule": "not-the-same-article",
                                     "evidence": {"title": analysis.metadata.title}})
            result.stopped = "not-the-same-article"
            break
        decision = next_page(analysis, keep, seen=seen)
        result.decisions.append({"page": final, **decision.to_json()})
        articles.append(render_article(analysis, keep))
        urls.append(final)
    result.article = join_pages(articles, urls, result.failed) if len(articles) > 1 or result.failed else first
    return result
