"""One page's row of ``pagesieve batch``: extracted from its HTML (:func:`extract_html`, of a
WARC record :func:`extract_record`), or judged once for both passes (:func:`judge_record`),
as :mod:`pagesieve.crawl.pages` describes; the row of a skipped record (:func:`skipped_row`).

The fields of a row: ``url``, ``warc_record_id``, ``warc_date``, ``site``, ``title``,
``author``, ``published``, ``language``, ``text``, ``markdown``, ``n_chars``, ``template``,
``error`` and ``next_page`` (``docs/crawl.md``).
"""

from __future__ import annotations

from collections.abc import Iterable

from pagesieve.article.header import byline_marks, split_header
from pagesieve.article.text import blocks_text
from pagesieve.crawl.learn import SiteLearning
from pagesieve.crawl.records import Skipped, WarcPage
from pagesieve.errors import InputError
from pagesieve.page.decode import decode_html
from pagesieve.page.html import parse_html
from pagesieve.templates.diff import block_fingerprints
from pagesieve.templates.evidence import DEFAULT_KINDS, PageFacts, apply_evidence, page_evidence, page_facts
from pagesieve.templates.learn import PageSummary, summarise
from pagesieve.templates.urls import site_of


def record_row(item: WarcPage | Skipped, site: str | None) -> dict:
    """The row of a record (a page or a skipped record) of ``site``, its fields not yet filled."""
    return {
        "url": item.url, "warc_record_id": item.record_id, "warc_date": item.date, "site": site,
        "title": None, "author": None, "published": None, "language": None, "text": None,
        "markdown": None, "n_chars": None, "template": False, "error": None, "next_page": None,
    }


def _fields(analysis, keep: list[bool], template: bool, markdown: bool) -> dict:
    """The article fields of a judged page. Without ``markdown`` no article is rendered: the
    text is :func:`~pagesieve.article.text.blocks_text` of the body's verdicts
    (:func:`~pagesieve.article.header.split_header`), as
    :func:`~pagesieve.extract.render_article` makes it, and the metadata was read before.
    ``next_page`` is the address the page's pager or ``rel=next`` gives for the article's next
    page (:func:`pagesieve.extract.next_page`, without the single-page view), or ``None``."""
    from pagesieve.extract import next_page

    meta = analysis.metadata
    url = analysis.page.url
    # where the article goes on, read before render_article prunes the tree (issue 53; batch
    # --join-pages joins the rows by it)
    following = next_page(analysis, keep, seen=[url], whole_view=False).url if url else None
    if markdown:
        from pagesieve.extract import render_article

        article = render_article(analysis, keep)
        text = article.text
        md = (f"# {meta.title}\n\n" if meta.title else "") + article.markdown
    else:
        body = split_header(analysis.blocks, keep, meta.title, meta.byline, meta.published)[0]
        text, md = blocks_text(analysis.blocks, body), None
    return {"title": meta.title or None, "author": meta.byline, "published": meta.published, "language": meta.language,
            "text": text, "n_chars": len(text), "template": template, "markdown": md, "next_page": following}


def extract_html(html: str, url: str | None, templates: SiteLearning | None, kinds: Iterable[str] = DEFAULT_KINDS,
                 markdown: bool = False, model=None) -> tuple[dict, int]:
    """The article fields of one decoded page, and the characters its site's templates removed.

    Args:
        html: the page, decoded. url: its URL. templates: the site's learning (``None``, or
        not :attr:`~pagesieve.crawl.learn.SiteLearning.usable`: single page). kinds:
        template evidence kinds. markdown: fill ``markdown``. model: the block classifier
        (default: the shipped one that suits the page).

    Returns:
        ``({title, author, published, language, text, markdown, n_chars, template, next_page}, removed)``.

    Raises:
        InputError: nothing parseable. Any error of the extractor itself propagates.
    """
    from pagesieve.extract import judge_page

    parsed = parse_html(html, url=url)
    analysis, keep = judge_page(parsed, model, title_only=False)
    use = templates is not None and templates.usable
    removed = 0
    if use:
        kinds = tuple(kinds)
        before = list(keep)
        apply_evidence(analysis.blocks, keep, page_evidence(analysis.blocks, templates.templates_for(url), kinds), kinds,
                       scores=analysis.content_scores)
        removed = sum(b.chars for b in analysis.blocks if before[b.index] and not keep[b.index])
    return _fields(analysis, keep, use, markdown), removed


def extract_record(page: WarcPage, templates: SiteLearning | None, kinds: Iterable[str] = DEFAULT_KINDS,
                   markdown: bool = False, model=None) -> tuple[dict, int]:
    """The row of one page, and the characters its site's templates removed.

    Args:
        page: the record; the others as :func:`extract_html`.

    Returns:
        ``(row, chars removed)``; the row has ``error`` set (and no text) when the page is
        skipped: ``undecodable``, ``unparseable`` or ``extract_failed``.
    """
    row = record_row(page, site_of(page.url))
    try:
        text, _codec = decode_html(page.body, page.charset)
    except InputError as exc:
        row["error"] = f"undecodable: {exc}"
        return row, 0
    try:
        fields, removed = extract_html(text, page.url, templates, kinds, markdown, model)
    except InputError as exc:
        row["error"] = f"unparseable: {exc}"
        return row, 0
    except Exception as exc:  # noqa: BLE001 - one bad page never stops the part
        row["error"] = f"extract_failed: {type(exc).__name__}: {exc}"[:500]
        return row, 0
    row.update(fields)
    return row, removed


def judge_record(page: WarcPage, markdown: bool = False, facts: bool = False, learn: bool = False,
                 fingerprints: bool = True, model=None) -> tuple[dict, list[bool] | None, PageFacts | None, PageSummary | None]:
    """One page judged once for both passes: its row as a single page, and what the template
    passes need of the same tree.

    Args:
        page: the record. markdown: fill ``markdown``. facts: keep the verdicts and the
            :class:`~pagesieve.templates.evidence.PageFacts` (a page of a site that may have
            templates). learn: make the page's :class:`~pagesieve.templates.learn.PageSummary`
            (:func:`~pagesieve.templates.learn.summarise` of the judged tree, as the browser
            path learns a page it has just judged). fingerprints: with the layout fingerprints.
        model: the block classifier (default: the shipped one that suits the page).

    Returns:
        ``(row, keep, facts, summary)``: ``keep`` and ``facts`` ``None`` unless asked for
        and the page was judged; ``summary`` ``None`` unless asked for and the page parsed.
        The row's ``error`` is set as by :func:`extract_record`.
    """
    from pagesieve.extract import judge_page

    row = record_row(page, site_of(page.url))
    try:
        text, _codec = decode_html(page.body, page.charset)
    except InputError as exc:
        row["error"] = f"undecodable: {exc}"
        return row, None, None, None
    parsed = None
    try:
        parsed = parse_html(text, url=page.url)
        analysis, keep = judge_page(parsed, model, title_only=False)
    except Exception as exc:  # noqa: BLE001 - one bad page never stops the part
        if isinstance(exc, InputError):
            row["error"] = f"unparseable: {exc}"
        else:
            row["error"] = f"extract_failed: {type(exc).__name__}: {exc}"[:500]
        summary = None
        if learn and parsed is not None:  # learned as the learn pass alone would learn it
            try:
                summary = summarise(parse_html(text, url=page.url), fingerprints=fingerprints, shapes=False)
            except Exception:  # noqa: BLE001 - not learned, as there
                summary = None
        return row, None, None, summary
    blocks = analysis.blocks
    page_facts_ = page_facts(blocks, scores=analysis.content_scores) if facts else None
    if page_facts_ is not None:
        page_facts_.byline_marks = byline_marks(blocks, keep)
    summary = None
    if learn:  # the leaves of the facts are the summary's page leaves: read once
        leaves = [(tag, text) for tag, text, _owner in page_facts_.leaves] if page_facts_ is not None else None
        summary = summarise(parsed, blocks, fingerprints=fingerprints, leaves=leaves, shapes=False)
    if page_facts_ is not None and fingerprints:
        page_facts_.fingerprints = summary.fingerprints if summary is not None else block_fingerprints(blocks)
    row.update(_fields(analysis, keep, False, markdown))
    return row, (list(keep) if facts else None), page_facts_, summary


def skipped_row(item: Skipped) -> dict:
    """The row of a skipped record: its ``error`` the reason it is skipped, no text."""
    row = record_row(item, site_of(item.url))
    row["error"] = item.error
    return row
