"""``pagesieve batch INPUT... --out DIR``: clean a crawl of WARC files into Parquet or JSON lines.

::

    pagesieve batch CRAWL/ --out clean/                       local cluster, one worker per core
    pagesieve batch a.warc.gz b.warc.gz --out clean/ --format jsonl --markdown
    pagesieve batch CRAWL/ --out clean/ --scheduler tcp://10.0.0.5:8786   an existing Dask cluster
    pagesieve batch CRAWL/ --out clean/ --resume              skip the parts already written
    pagesieve batch CRAWL/ --out tpl/ --learn-only            templates.parquet only (for datatrove)
    pagesieve batch big.warc.gz --out clean/ --part-records 100   parts of 100 records: workers share the file
    pagesieve batch CRAWL/ --out clean/ --join-pages          also articles.parquet: an article's pages joined

See :mod:`pagesieve.crawl.job` for the passes and ``docs/crawl.md`` for the output.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pagesieve.errors import InputError, ReadError


def _kinds(value: str) -> tuple[str, ...]:
    from pagesieve.templates.evidence import EVIDENCE_KINDS

    kinds = tuple(k.strip() for k in value.split(",") if k.strip())
    bad = [k for k in kinds if k not in EVIDENCE_KINDS or k == "sst"]
    if bad or not kinds:
        raise argparse.ArgumentTypeError("template kinds are library and/or diff, comma-separated")
    return kinds


def _positive(value: str) -> int:
    n = int(value)
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def _seconds(value: str) -> float:
    seconds = float(value)
    if not seconds >= 0:  # also refuses nan
        raise argparse.ArgumentTypeError("must be 0 (no limit) or a positive number of seconds")
    return seconds


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``batch`` options."""
    from pagesieve.crawl.guard import PAGE_TIMEOUT
    from pagesieve.crawl.parts import PART_RECORDS
    from pagesieve.crawl.records import MAX_RECORD_BYTES
    from pagesieve.templates.evidence import DEFAULT_KINDS

    parser.add_argument("inputs", nargs="+", metavar="INPUT", help="WARC or WARC.gz files, or folders of them")
    parser.add_argument("--out", required=True, type=Path, metavar="DIR", help="output folder (created if missing)")
    parser.add_argument("--format", choices=("parquet", "jsonl"), default="parquet",
                        help="parts as Parquet (default) or gzipped JSON lines")
    parser.add_argument("--markdown", action="store_true", help="fill the markdown column too")
    parser.add_argument("--resume", action="store_true", help="keep the parts (and templates) a previous run wrote")
    parser.add_argument("--learn-only", action="store_true",
                        help="stop after the learn pass (DIR/templates.parquet, for the datatrove step)")
    parser.add_argument("--single-page", action="store_true", help="no learn pass: every page as a single page")
    parser.add_argument("--templates", type=_kinds, default=DEFAULT_KINDS, metavar="KINDS",
                        help=f"template evidence: library, diff or library,diff (default: {','.join(DEFAULT_KINDS)})")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="run on this Dask scheduler (tcp://HOST:8786) instead of a local cluster")
    parser.add_argument("--workers", type=_positive, default=None, metavar="N",
                        help="worker processes of the local cluster (default: one per core)")
    parser.add_argument("--max-record-mib", type=_positive, default=MAX_RECORD_BYTES // (1024 * 1024), metavar="MIB",
                        help=f"skip records whose body is larger (default: {MAX_RECORD_BYTES // (1024 * 1024)})")
    parser.add_argument("--page-timeout", type=_seconds, default=PAGE_TIMEOUT, metavar="SECONDS",
                        help=f"skip a page whose extraction takes longer, counted as timeout (default: {PAGE_TIMEOUT:g}; "
                             "0: no limit)")
    parser.add_argument("--part-records", type=_positive, default=PART_RECORDS, metavar="N",
                        help=f"cut each input file into parts of at most N records, so that workers share a file "
                             f"(default: {PART_RECORDS})")
    parser.add_argument("--join-pages", action="store_true",
                        help="also write articles.parquet: one row per article, its pages joined where the crawl holds "
                             "them (the parts keep one row per record)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def main(args: argparse.Namespace) -> int:
    """Run the job and print its summary."""
    try:
        from pagesieve.crawl.job import BatchOptions, run_batch
    except ImportError as exc:
        raise InputError(f"pagesieve batch needs the batch extra: pip install 'pagesieve[batch]' ({exc})") from None
    opts = BatchOptions(
        inputs=list(args.inputs), out_dir=args.out, fmt=args.format, markdown=args.markdown, kinds=args.templates,
        resume=args.resume, learn_only=args.learn_only, single_page=args.single_page, scheduler=args.scheduler,
        workers=args.workers, max_record_bytes=args.max_record_mib * 1024 * 1024, page_timeout=args.page_timeout or None,
        part_records=args.part_records, progress=not args.no_progress, join_pages=args.join_pages,
    )
    try:
        summary = run_batch(opts)
    except FileNotFoundError as exc:
        raise ReadError(str(exc)) from None
    for line in summary.lines():
        print(line)
    return 1 if summary.parts_failed else 0
