"""The extract pass of ``pagesieve batch``: every page of one input file with its site's templates.

A page is extracted as ``pagesieve extract --site-templates`` extracts it:
:func:`~pagesieve.extract.judge_page` (analysis and block classifier), then the site's template
evidence (:func:`~pagesieve.templates.evidence.page_evidence` and
:func:`~pagesieve.templates.evidence.apply_evidence`, the kinds of
:data:`~pagesieve.templates.evidence.DEFAULT_KINDS` unless asked otherwise), then
:func:`~pagesieve.extract.render_article`. The evidence is applied here rather than inside
:func:`~pagesieve.extract.judge_page` only to count the characters it removes
(``sites.parquet``). A page of a site with no usable templates is extracted as a single page.

Every response record gives one row; a record that is skipped gives a row with ``error`` set
and no text (:data:`~pagesieve.crawl.records.SKIP_REASONS`). No record stops the part: an
exception of the extractor on one page becomes that page's ``extract_failed`` row.
"""

from __future__ import annotations

import os
import resource
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pagesieve.crawl.learn import SiteLearning
from pagesieve.crawl.output import PartWriter, part_path, stats_path, write_json
from pagesieve.crawl.records import MAX_RECORD_BYTES, Skipped, WarcPage, read_warc
from pagesieve.errors import InputError
from pagesieve.page.decode import decode_html
from pagesieve.page.html import parse_html
from pagesieve.templates.evidence import DEFAULT_KINDS, apply_evidence, page_evidence
from pagesieve.templates.urls import site_of


@dataclass(slots=True)
class PartStats:
    """What one part did (also the ``.stats.json`` beside the part).

    Attributes:
        name: the part name. input: the WARC file. rows: rows written. pages: rows with text
        extracted (no error). template_pages: pages extracted with their site's templates.
        skipped: ``{reason: records}``. sites: ``{site: [pages, template pages, characters
        kept, characters removed by the template]}``. seconds: wall time of the part.
        max_rss_kib: the worker's peak resident memory when the part ended (KiB, ``ru_maxrss``).
        worker: ``host:pid`` of the process that wrote the part. resumed: read back by ``--resume``.
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
        "markdown": None, "n_chars": None, "template": False, "error": None,
    }


def extract_html(html: str, url: str | None, templates: SiteLearning | None, kinds: Iterable[str] = DEFAULT_KINDS,
                 markdown: bool = False, model=None) -> tuple[dict, int]:
    """The article fields of one decoded page, and the characters its site's templates removed.

    Args:
        html: the page, decoded. url: its URL. templates: the site's learning (``None``, or
        not :attr:`~pagesieve.crawl.learn.SiteLearning.usable`: single page). kinds:
        template evidence kinds. markdown: fill ``markdown``. model: the block classifier
        (default: the shipped one that suits the page).

    Returns:
        ``({title, author, published, language, text, markdown, n_chars, template}, removed)``.

    Raises:
        InputError: nothing parseable. Any error of the extractor itself propagates.
    """
    from pagesieve.extract import judge_page, render_article

    parsed = parse_html(html, url=url)
    analysis, keep = judge_page(parsed, model, title_only=False)
    use = templates is not None and templates.usable
    removed = 0
    if use:
        kinds = tuple(kinds)
        before = list(keep)
        apply_evidence(analysis.blocks, keep, page_evidence(analysis.blocks, templates.templates_for(url), kinds), kinds)
        removed = sum(b.chars for b in analysis.blocks if before[b.index] and not keep[b.index])
    article = render_article(analysis, keep)
    meta = article.metadata
    fields = {
        "title": meta.title or None, "author": meta.byline, "published": meta.published, "language": meta.language,
        "text": article.text, "n_chars": len(article.text), "template": use,
        "markdown": ((f"# {meta.title}\n\n" if meta.title else "") + article.markdown) if markdown else None,
    }
    return fields, removed


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


def extract_part(
    path: str | Path,
    out_dir: str | Path,
    templates: dict[str, SiteLearning],
    fmt: str = "parquet",
    markdown: bool = False,
    kinds: Iterable[str] = DEFAULT_KINDS,
    max_record_bytes: int = MAX_RECORD_BYTES,
    name: str | None = None,
) -> PartStats:
    """Extract every response record of one WARC file into its part, atomically.

    Args:
        path: the WARC file. out_dir: the job's output folder. templates: ``{site:
        SiteLearning}`` for (at least) the sites of this file with enough pages. fmt:
        ``"parquet"`` or ``"jsonl"``. markdown: fill the ``markdown`` column. kinds: template
        evidence kinds. max_record_bytes: see :data:`~pagesieve.crawl.records.MAX_RECORD_BYTES`.
        name: the part name (default :func:`~pagesieve.crawl.output.part_name` of ``path``).

    Returns:
        the part's :class:`PartStats` (also written beside the part, before it).

    Raises:
        OSError: the output folder cannot be written (the part is then not written at all).
    """
    from pagesieve.crawl.output import part_name

    t0 = time.perf_counter()
    out_dir = Path(out_dir)
    name = name or part_name(path)
    stats = PartStats(name=name, input=str(path))
    skipped: Counter[str] = Counter()
    kinds = tuple(kinds)
    with PartWriter(part_path(out_dir, name, fmt), fmt) as writer:
        for item in read_warc(path, max_record_bytes):
            if isinstance(item, Skipped):
                site = site_of(item.url)
                row = _row(item, site)
                row["error"] = item.error
                removed = 0
            else:
                site = site_of(item.url)
                row, removed = extract_record(item, templates.get(site) if site else None, kinds, markdown)
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
        stats.seconds = round(time.perf_counter() - t0, 3)
        stats.max_rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        stats.worker = f"{os.uname().nodename}:{os.getpid()}"
        write_json(stats_path(out_dir, name), stats.to_dict())
        writer.commit()
    return stats
