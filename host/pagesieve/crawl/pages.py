"""The per-file passes of ``pagesieve batch`` over the pages: judge (with the learn pass) and extract.

A page is extracted as ``pagesieve extract --site-templates`` extracts it:
:func:`~pagesieve.extract.judge_page` (analysis and block classifier), then the site's template
evidence (:func:`~pagesieve.templates.evidence.page_evidence` and
:func:`~pagesieve.templates.evidence.apply_evidence`, the kinds of
:data:`~pagesieve.templates.evidence.DEFAULT_KINDS` unless asked otherwise), then the article
(:func:`~pagesieve.extract.render_article` with ``--markdown``; without it, only the text,
:func:`~pagesieve.article.text.blocks_text`, which is what the article's text is). The
evidence is applied here rather than inside :func:`~pagesieve.extract.judge_page` only to count
the characters it removes (``sites.parquet``). A page of a site with no usable templates is
extracted as a single page.

Each page is parsed and judged once: the learn pass (:func:`judge_part`) judges every page of
its file, learns the site's template from the same tree and keeps what the extract pass needs
(:mod:`pagesieve.crawl.judged`); the extract pass (:func:`extract_part`) applies the site's
learned templates to the facts kept (:func:`~pagesieve.templates.evidence.facts_evidence`).
With ``--single-page``, or when no judged file is there, the extract pass extracts each page
from the WARC file (:func:`~pagesieve.crawl.rows.extract_record`). Either way the text of every page is the same.

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

from pagesieve.article.header import split_header
from pagesieve.article.text import blocks_text
from pagesieve.crawl.guard import PAGE_TIMEOUT, ExtractorDied, PageGuard, PageTimeout, peak_rss_kib
from pagesieve.crawl.judged import JudgedFileError, JudgedWriter, frame, judged_path, read_judged
from pagesieve.crawl.judged import header as judged_header
from pagesieve.crawl.learn import SiteLearning
from pagesieve.crawl.output import PartWriter, part_path, stats_path, write_json
from pagesieve.crawl.records import MAX_RECORD_BYTES, Skipped, WarcPage, read_warc
from pagesieve.crawl.rows import extract_record, judge_record, record_row, skipped_row
from pagesieve.crawl.summaries import SummaryBuckets, summaries_path
from pagesieve.templates.evidence import DEFAULT_KINDS, apply_evidence, facts_evidence
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


def _guarded_row(guard: PageGuard, page: WarcPage, job) -> tuple:
    """``guard(job)``, or the page's error row when it timed out or its process died: ``(row, None...)``."""
    try:
        return guard(job)
    except PageTimeout as exc:
        row = record_row(page, site_of(page.url))
        row["error"] = f"timeout: {exc}"
    except ExtractorDied as exc:
        row = record_row(page, site_of(page.url))
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

    Every response record is judged as a single page (:func:`~pagesieve.crawl.rows.judge_record`, each page under
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
                writer.write_frame(frame((skipped_row(item), None, None)))
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
                return skipped_row(item), 0
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
