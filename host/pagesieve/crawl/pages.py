"""The per-file passes of ``pagesieve batch`` over the pages: judge (with the learn pass) and extract.

A page is extracted as ``pagesieve extract --site-templates`` extracts it:
:func:`~pagesieve.extract.judge_page` (analysis and block classifier), then the site's template
evidence (:func:`~pagesieve.templates.evidence.page_evidence` and
:func:`~pagesieve.templates.evidence.apply_evidence`, the kinds of
:data:`~pagesieve.templates.evidence.DEFAULT_KINDS` unless asked otherwise), then the article
(:func:`~pagesieve.extract.render_article` with ``--markdown``; without it, only the text,
:func:`~pagesieve.article.render.blocks_text`, which is what the article's text is). The
evidence is applied here rather than inside :func:`~pagesieve.extract.judge_page` only to count
the characters it removes (``sites.parquet``). A page of a site with no usable templates is
extracted as a single page.

Each page is parsed and judged once: the learn pass (:func:`judge_part`) judges every page of
its file, learns the site's template from the same tree and keeps what the extract pass needs
(:mod:`pagesieve.crawl.judged`); the extract pass (:func:`extract_part`) applies the site's
learned templates to the facts kept (:func:`~pagesieve.templates.evidence.facts_evidence`).
With ``--single-page``, or when no judged file is there, the extract pass extracts each page
from the WARC file (:func:`extract_record`). Either way the text of every page is the same.

Every response record gives one row; a record that is skipped gives a row with ``error`` set
and no text (:data:`~pagesieve.crawl.records.SKIP_REASONS`). No record stops the part: an
exception of the extractor on one page becomes that page's ``extract_failed`` row, and a page
that takes longer than the page timeout (:class:`~pagesieve.crawl.guard.PageGuard`) its
``timeout`` row.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pagesieve.article.header import byline_marks, split_header
from pagesieve.article.render import blocks_text
from pagesieve.crawl.guard import PAGE_TIMEOUT, ExtractorDied, PageGuard, PageTimeout, peak_rss_kib
from pagesieve.crawl.judged import JudgedFileError, JudgedWriter, frame, judged_path, read_judged
from pagesieve.crawl.judged import header as judged_header
from pagesieve.crawl.learn import SiteLearning
from pagesieve.crawl.output import PartWriter, part_path, stats_path, write_json
from pagesieve.crawl.records import MAX_RECORD_BYTES, Skipped, WarcPage, read_warc
from pagesieve.crawl.summaries import SummaryBuckets, summaries_path
from pagesieve.errors import InputError
from pagesieve.page.decode import decode_html
from pagesieve.page.html import parse_html
from pagesieve.templates.diff import block_fingerprints
from pagesieve.templates.evidence import DEFAULT_KINDS, PageFacts, apply_evidence, facts_evidence, page_evidence, page_facts
from pagesieve.templates.learn import PageSummary, summarise
from pagesieve.templates.urls import url_key
from pagesieve.templates.urls import site_of


@dataclass(slots=True)
class PartStats:
    """What one part did (also the ``.stats.json`` beside the part).

    Attributes:
        name: the part name. input: the WARC file. rows: rows written. pages: rows with text
        extracted (no error). template_pages: pages extracted with their site's templates.
        skipped: ``{reason: records}``. sites: ``{site: [pages, template pages, characters
        kept, characters removed by the template]}``. seconds: wall time of the part.
        max_rss_kib: the worker's peak resident memory when the part ended (KiB, ``ru_maxrss``
        of the worker and of the page processes it forked, :func:`~pagesieve.crawl.guard.peak_rss_kib`).
        worker: ``host:pid`` of the process that wrote the part. resumed: read back by ``--resume``.
        parsed_again: pages of a template site parsed a second time in the extract pass (the
        learn pass judged every page once and kept its facts, :mod:`pagesieve.crawl.judged`;
        only a page whose verdicts its site's templates change is read again, and only with
        ``--markdown``, whose Markdown needs the tree; or a page judged without facts).
    """

    name: str
    input: str
    rows: int = 0
    pages: int = 0
    template_pages: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    sites: dict[str, list[int]] = field(default_factory=dict)
    seconds: float = 0.0
    max_rss_kib: int = 0
    worker: str = ""
    resumed: bool = False
    parsed_again: int = 0

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> PartStats:
        """Inverse of :meth:`to_dict`."""
        return cls(**data)


def _row(item: WarcPage | Skipped, site: str | None) -> dict:
    return {
        "url": item.url, "warc_record_id": item.record_id, "warc_date": item.date, "site": site,
        "title": None, "author": None, "published": None, "language": None, "text": None,
        "markdown": None, "n_chars": None, "template": False, "error": None, "next_page": None,
    }


def _fields(analysis, keep: list[bool], template: bool, markdown: bool) -> dict:
    """The article fields of a judged page. Without ``markdown`` no article is rendered: the
    text is :func:`~pagesieve.article.render.blocks_text` of the body's verdicts
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
    row = _row(page, site_of(page.url))
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

    row = _row(page, site_of(page.url))
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


WARM_PAGE = (b"<html><head><title>A page to warm up on</title></head><body><header><nav><a href='/'>Home</a> "
             b"<a href='/news'>News</a></nav></header><article><h1>A page to warm up on</h1><p>By A. Writer</p><p>"
             + b"A sentence of plain text that makes a paragraph long enough to be content. " * 12
             + b"</p><figure><img src='/a.jpg'><figcaption>A caption</figcaption></figure></article>"
             b"<footer><p>Copyright</p></footer></body></html>")
"""The built-in page :func:`warm_up` judges (made up for it: a nav, an article with a figure, a footer)."""

_warmed: set[bool] = set()


def warm_up(markdown: bool = False) -> None:
    """Judge :data:`WARM_PAGE` once in this process (its row is thrown away; with ``markdown``
    its Markdown made too, once more), so that the page
    processes :class:`~pagesieve.crawl.guard.PageGuard` forks for each part inherit, copy on
    write, what a first page sets up lazily: the shipped model read from disk, the regular
    expressions compiled, the caches filled. Without it every part's page process did that
    again from a worker that had never judged a page itself. Measured on 60 one-record parts
    of the one-file benchmark's file (``judge_part`` in one process, three runs each,
    2026-11-27): 3.75 to 3.93 s without, 2.56 to 3.14 s after warming up (about 18 ms a part);
    the warm-up took 21 to 26 ms, once per worker process. No answer changes: what it fills
    is loaded or compiled the same on any page. A failure here is ignored (the first page
    then sets up as before)."""
    if markdown in _warmed:
        return
    _warmed.add(markdown)
    try:
        judge_record(WarcPage("https://warm-up.invalid/page", None, None, WARM_PAGE, "utf-8", 0),
                     markdown=markdown, facts=True, learn=True, fingerprints=True)
    except Exception:  # noqa: BLE001 - only a cache left cold
        pass


def _skip_row(item: Skipped) -> dict:
    row = _row(item, site_of(item.url))
    row["error"] = item.error
    return row


def _guarded_row(guard: PageGuard, page: WarcPage, job) -> tuple:
    """``guard(job)``, or the page's error row when it timed out or its process died: ``(row, None...)``."""
    try:
        return guard(job)
    except PageTimeout as exc:
        row = _row(page, site_of(page.url))
        row["error"] = f"timeout: {exc}"
    except ExtractorDied as exc:
        row = _row(page, site_of(page.url))
        row["error"] = f"extract_failed: {exc}"
    return None, row


def judge_part(
    path: str | Path,
    out_dir: str | Path,
    name: str,
    sites: set[str] | frozenset[str],
    markdown: bool = False,
    fingerprints: bool = True,
    max_record_bytes: int = MAX_RECORD_BYTES,
    page_timeout: float | None = PAGE_TIMEOUT,
    start: int = 0,
    end: int | None = None,
    buckets: int = 1,
) -> dict[int, tuple[int, int]]:
    """The learn pass of one part (the records of ``path`` in ``[start, end)``,
    :class:`~pagesieve.crawl.parts.Part`), judging every page once for both passes.

    Every response record is judged as a single page (:func:`judge_record`, each page under
    ``page_timeout``, :class:`~pagesieve.crawl.guard.PageGuard`) and kept in the part's judged
    file (:mod:`pagesieve.crawl.judged`) with, for the pages of ``sites``, the facts the
    template evidence reads; the summaries of the pages of ``sites`` (as
    :func:`~pagesieve.crawl.learn.part_summaries` takes them: in file order, a URL once, from
    the tree they were judged on) go to the part's summary file by site bucket
    (:mod:`pagesieve.crawl.summaries`), which the bucket tasks learn in crawl order.

    Args:
        path: the WARC file. out_dir: the job's output folder. name: the part name. sites:
        the sites learned. markdown, fingerprints, max_record_bytes, page_timeout: the run's
        options. start, end: the part's byte range. buckets: site buckets of the run.

    Returns:
        ``{bucket: (offset, length)}`` of the summary file
        (:func:`~pagesieve.crawl.summaries.summaries_path`); empty when no page was learned.

    Raises:
        OSError: the judged or summary file cannot be written (then none is left behind).
    """
    out_dir = Path(out_dir)
    if page_timeout:  # each page in a forked process: fork it from a warm worker
        warm_up(markdown)
    head = judged_header(str(path), markdown, fingerprints, max_record_bytes, page_timeout, start, end)
    summaries = SummaryBuckets(buckets)
    seen: set[bytes] = set()

    def work(job) -> tuple:
        page, want_facts, want_summary = job
        row, keep, page_facts_, summary = judge_record(page, markdown, want_facts, want_summary, fingerprints)
        return summary, frame((row, keep, page_facts_))

    with JudgedWriter(judged_path(out_dir, name), head) as writer, PageGuard(work, page_timeout) as guard:
        for item in read_warc(path, max_record_bytes, start=start, end=end):
            if isinstance(item, Skipped):
                writer.write_frame(frame((_skip_row(item), None, None)))
                continue
            site = site_of(item.url)
            key = None
            if site in sites:
                key = url_key(item.url)
                if key in seen:
                    key = None
                else:
                    seen.add(key)
            summary, data = _guarded_row(guard, item, (item, site in sites, key is not None))
            if summary is None and isinstance(data, dict):  # timed out or died: the error row
                data = frame((data, None, None))
            writer.write_frame(data)
            if summary is not None:
                summaries.add(site, key, summary)
        index = summaries.write(summaries_path(out_dir, name))
        writer.commit()
    return index


class _Records:
    """The records of a WARC file read again, forward only, by position (for the pages of a
    judged file that must be extracted again)."""

    def __init__(self, path, max_record_bytes: int, start: int = 0, end: int | None = None) -> None:
        self._it = None
        self._path, self._max = path, max_record_bytes
        self._range = (start, end)
        self._at = -1
        self._item = None

    def get(self, position: int):
        if self._it is None:
            self._it = iter(read_warc(self._path, self._max, start=self._range[0], end=self._range[1]))
        while self._at < position:
            self._item = next(self._it)
            self._at += 1
        return self._item


def extract_part(
    path: str | Path,
    out_dir: str | Path,
    templates: dict[str, SiteLearning],
    fmt: str = "parquet",
    markdown: bool = False,
    kinds: Iterable[str] = DEFAULT_KINDS,
    max_record_bytes: int = MAX_RECORD_BYTES,
    name: str | None = None,
    page_timeout: float | None = PAGE_TIMEOUT,
    judged: dict | None = None,
    start: int = 0,
    end: int | None = None,
) -> PartStats:
    """Extract every response record of one part of a WARC file (the records in ``[start,
    end)``, bytes; by default the whole file) into its part file, atomically.

    Args:
        path: the WARC file. out_dir: the job's output folder. templates: ``{site:
        SiteLearning}`` for (at least) the sites of this file with enough pages. fmt:
        ``"parquet"`` or ``"jsonl"``. markdown: fill the ``markdown`` column. kinds: template
        evidence kinds. max_record_bytes: see :data:`~pagesieve.crawl.records.MAX_RECORD_BYTES`.
        name: the part name (default :func:`~pagesieve.crawl.output.part_name` of ``path``).
        page_timeout: seconds a page may take (:class:`~pagesieve.crawl.guard.PageGuard`;
        ``None``: no limit). judged: the header of the judged file the learn pass wrote
        (:func:`judge_part`); when that file is there with this header, the pages are not
        parsed again: the site's templates are applied to the facts it keeps. Without it (or
        when it is missing or differs) every page is extracted from the WARC file.

    Returns:
        the part's :class:`PartStats` (also written beside the part, before it). A judged
        file found damaged half way is given up: the part is then made from the WARC file.

    Raises:
        OSError: the output folder cannot be written (the part is then not written at all).
    """
    from pagesieve.crawl.output import part_name

    out_dir = Path(out_dir)
    name = name or part_name(path)
    jpath = judged_path(out_dir, name)
    rows = read_judged(jpath, judged) if judged is not None else None
    args = (path, out_dir, templates, fmt, markdown, tuple(kinds), max_record_bytes, name, page_timeout, (start, end))
    if rows is not None:
        try:
            stats = _extract_part(*args, rows)
        except JudgedFileError:  # a damaged judged file: the part is made from the WARC file instead
            stats = _extract_part(*args, None)
        jpath.unlink(missing_ok=True)
        return stats
    return _extract_part(*args, None)


def _extract_part(path, out_dir: Path, templates: dict[str, SiteLearning], fmt: str, markdown: bool,
                  kinds: tuple[str, ...], max_record_bytes: int, name: str, page_timeout: float | None,
                  byte_range: tuple[int, int | None], rows) -> PartStats:
    t0 = time.perf_counter()
    if rows is None and page_timeout:  # every page extracted in a forked process: fork it from a warm worker
        warm_up(markdown)
    stats = PartStats(name=name, input=str(path))
    skipped: Counter[str] = Counter()

    def extract(page: WarcPage) -> tuple[dict, int]:
        site = site_of(page.url)
        return extract_record(page, templates.get(site) if site else None, kinds, markdown)

    with PartWriter(part_path(out_dir, name, fmt), fmt) as writer, PageGuard(extract, page_timeout) as guard:
        def fresh(item) -> tuple[dict, int]:
            if isinstance(item, Skipped):
                return _skip_row(item), 0
            out = _guarded_row(guard, item, item)
            return (out[1], 0) if out[0] is None else out

        def again(item) -> tuple[dict, int]:  # a page the learn pass judged, parsed a second time
            stats.parsed_again += 1
            return fresh(item)

        start, end = byte_range
        items = (fresh(item) for item in read_warc(path, max_record_bytes, start=start, end=end)) if rows is None else \
            _with_templates(rows, templates, kinds, markdown, _Records(path, max_record_bytes, start, end), again)
        for row, removed in items:
            site = row["site"]
            if row["error"]:
                skipped[row["error"].split(":", 1)[0]] += 1
            else:
                stats.pages += 1
                stats.template_pages += bool(row["template"])
                if site:
                    counts = stats.sites.setdefault(site, [0, 0, 0, 0])
                    counts[0] += 1
                    counts[1] += bool(row["template"])
                    counts[2] += row["n_chars"]
                    counts[3] += removed
            writer.write(row)
        stats.rows = writer.rows
        stats.skipped = dict(skipped)
        guard.close()  # reaped: its CPU time and memory count in this process's figures
        stats.seconds = round(time.perf_counter() - t0, 3)
        stats.max_rss_kib = peak_rss_kib()
        stats.worker = f"{os.uname().nodename}:{os.getpid()}"
        write_json(stats_path(out_dir, name), stats.to_dict())
        writer.commit()
    return stats


def _with_templates(rows, templates: dict[str, SiteLearning], kinds: tuple[str, ...], markdown: bool, records: _Records,
                    fresh) -> Iterator[tuple[dict, int]]:
    """The rows of a judged file with their site's templates applied: ``(row, chars removed)``.

    A page of a site with usable templates gets the evidence of its facts
    (:func:`~pagesieve.templates.evidence.facts_evidence`, the same as
    :func:`~pagesieve.templates.evidence.page_evidence` reads on the tree); when that changes
    its verdicts, its text is made again from the facts, and with ``markdown`` the page is
    read and extracted again (the Markdown needs the tree)."""
    for position, (row, keep, facts) in enumerate(rows):
        site = row["site"]
        learning = templates.get(site) if site else None
        if row["error"] or learning is None or not learning.usable:
            yield row, 0
            continue
        if facts is None:  # judged without facts (the site was not expected to be learned)
            yield fresh(records.get(position))
            continue
        after = list(keep)
        blocks = facts.blocks()
        apply_evidence(blocks, after, facts_evidence(facts, learning.templates_for(row["url"]), kinds), kinds,
                       scores=facts.scores)
        row["template"] = True
        if after == keep:
            yield row, 0
            continue
        removed = sum(b.chars for b in blocks if keep[b.index] and not after[b.index])
        if markdown:
            yield fresh(records.get(position))
            continue
        marks = set(facts.byline_marks or ())
        body = split_header(blocks, after, row["title"], row["author"], row["published"], marks.__contains__)[0]
        text = blocks_text(blocks, body)
        row["text"], row["n_chars"] = text, len(text)
        yield row, removed
