"""``pagesieve-dev bench``: time HTML string -> :class:`~pagesieve.article.model.Article` per page,
and the peak memory of the process.

::

    pagesieve-dev bench [DATASET_DIR...] [--limit N] [--repeat R] [--collector {paused,on}]

Procedure (so the figures measure the extractor, not the disk or the first model load):

1. Pages are read one at a time (gunzipped, decoded; not timed) and dropped after use, so
   the memory figure is the extractor's, not the benchmark's. Without ``DATASET_DIR`` all
   dataset folders under :func:`~pagesieve_dev.evaluation.datasets.default_datasets_dir` are used.
2. Warm-up: the first 5 pages are extracted once, untimed (loads the model, fills lazy
   imports).
3. Each page is extracted ``R`` times in a row, each call of
   ``pagesieve.extract.extract(html, url)`` timed alone with ``time.perf_counter``, with Python's
   cyclic garbage collector paused around the call as the host pauses it around each request
   (:func:`pagesieve.native.collector.collector_paused`; ``--collector on`` leaves it running,
   which was 4 to 7% slower per page on 2026-11-26). Nothing is
   cached across calls by the harness; each result is dropped right away. A page's time is the
   median of its ``R`` timings; the table gives the median and 95th percentile of those
   per-page times (ms), per dataset and over all pages.
4. Peak RSS is ``resource.getrusage(RUSAGE_SELF).ru_maxrss`` (KiB on Linux) in MiB, read
   after each dataset: the whole process's high-water mark (interpreter, libraries, model,
   and the largest page's working set).

Pages on which the extractor raises are counted, reported and left out of the timings.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import resource
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pagesieve.errors import DatasetError, PagesieveError
from pagesieve.native.collector import collector_paused
from pagesieve_dev.evaluation.datasets import default_datasets_dir, load_dataset, read_page
from pagesieve_dev.evaluation.args import positive_int, resolve_dataset_dir
from pagesieve_dev.evaluation.bench_peers import pair_table, run_pairs
from pagesieve_dev.evaluation.bench_stages import StageClock, stage_table
from pagesieve_dev.evaluation.results import percentile
from pagesieve.table import format_table as text_table

WARMUP_PAGES = 5

COLLECTOR_MODES = ("paused", "on")
"""``--collector``: the cyclic garbage collector paused around each timed call (as the host
answers a request), or left running."""


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MiB (``ru_maxrss`` is KiB on Linux,
    bytes on macOS)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


@dataclass(slots=True)
class BenchPages:
    """A dataset's pages: ``pages`` yields ``(id, html, url)``, read lazily or held in a list."""

    name: str
    pages: Iterable[tuple[str, str, str | None]]


@dataclass(slots=True)
class BenchRow:
    """Timing of one dataset (or ``"all"``).

    Attributes:
        name: dataset name. ms: per-page times in milliseconds (median over repeats), for the
        pages that did not fail. failures: pages that raised. first_error: ``"id: Exc: msg"``.
        peak_rss_mb: process peak RSS (MiB) after this dataset.
    """

    name: str
    ms: list[float] = field(default_factory=list)
    failures: int = 0
    first_error: str | None = None
    peak_rss_mb: float = 0.0

    @property
    def pages(self) -> int:
        return len(self.ms) + self.failures


def load_pages(dirs: Sequence[Path], limit: int | None = None) -> list[BenchPages]:
    """The first ``limit`` (all if ``None``) pages of each dataset folder, read one at a time
    as they are iterated (a dataset's index is checked now, its pages later)."""
    def lazy(ds, rows):
        for r in rows:
            yield r.id, read_page(ds, r.id), r.url

    out = []
    for d in dirs:
        ds = load_dataset(d)
        rows = ds.rows if limit is None else ds.rows[:limit]
        out.append(BenchPages(ds.name, lazy(ds, rows)))
    return out


def load_warmup(ds: BenchPages, n: int) -> list[tuple[str, str, str | None]]:
    """The first ``n`` pages of ``ds``, without consuming a lazy iterator (it is re-wrapped)."""
    if isinstance(ds.pages, list):
        return ds.pages[:n]
    it = iter(ds.pages)
    head = [page for _, page in zip(range(n), it)]
    ds.pages = itertools.chain(head, it)
    return head


def run_bench(
    datasets: Sequence[BenchPages],
    extract: Callable[[str, str | None], Any],
    repeat: int = 1,
    warmup: int = WARMUP_PAGES,
    collector: str = "paused",
    around_extract: Callable[[], Any] | None = None,
) -> list[BenchRow]:
    """Warm up on the first ``warmup`` pages, then time ``extract(html, url)`` per page.

    ``collector``: ``"paused"`` times each call inside
    :func:`~pagesieve.native.collector.collector_paused` (as the host answers), ``"on"`` with the
    collector running. ``around_extract``: a context manager factory entered around each timed
    call, outside the clock (``--stages`` passes its stage clock). Returns one :class:`BenchRow` per dataset, then an ``"all"`` row pooling
    every page.

    Raises:
        ValueError: ``collector`` is neither.
    """
    if collector not in COLLECTOR_MODES:
        raise ValueError(f"collector must be one of {COLLECTOR_MODES}, not {collector!r}")
    around = collector_paused if collector == "paused" else contextlib.nullcontext
    extra = around_extract or contextlib.nullcontext
    if datasets:
        head = load_warmup(datasets[0], warmup)
        for _pid, html, url in head:
            try:
                extract(html, url)
            except Exception:  # noqa: BLE001 - reported in the timed pass
                pass

    rows: list[BenchRow] = []
    total = BenchRow("all")
    for ds in datasets:
        samples: list[list[float]] = []
        failed: dict[int, str] = {}
        for i, (pid, html, url) in enumerate(ds.pages):
            times: list[float] = []
            for _ in range(repeat):
                with around(), extra():
                    t0 = time.perf_counter()
                    try:
                        article = extract(html, url)
                    except Exception as exc:  # noqa: BLE001 - one page must not stop the bench
                        failed[i] = f"{pid}: {type(exc).__name__}: {exc}"
                        break
                    ms = (time.perf_counter() - t0) * 1000.0
                    del article  # freed (by reference counting) before the collector runs again
                times.append(ms)
            samples.append(times)
        row = BenchRow(ds.name)
        row.ms = [statistics.median(s) for i, s in enumerate(samples) if i not in failed]
        row.failures = len(failed)
        row.first_error = failed[min(failed)] if failed else None
        row.peak_rss_mb = peak_rss_mb()
        rows.append(row)
        total.ms.extend(row.ms)
        total.failures += row.failures
        total.first_error = total.first_error or row.first_error
    total.peak_rss_mb = peak_rss_mb()
    rows.append(total)
    return rows


def format_table(rows: Sequence[BenchRow]) -> str:
    """dataset | pages | ms median | ms p95 | peak RSS MB | failed; ms and MB to 1 decimal."""
    def f(x: float) -> str:
        return "-" if x != x else f"{x:.1f}"

    table = [("dataset", "pages", "ms median", "ms p95", "peak RSS MB", "failed")]
    for r in rows:
        table.append((r.name, str(r.pages), f(percentile(r.ms, 50)), f(percentile(r.ms, 95)),
                      f"{r.peak_rss_mb:.1f}", str(r.failures)))
    return text_table(table)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``bench`` options on ``parser``."""
    parser.add_argument(
        "datasets", nargs="*", metavar="DATASET_DIR",
        help="dataset folder(s) or names (default: every dataset under ../shared/datasets)",
    )
    parser.add_argument("--limit", metavar="N", type=positive_int, help="only the first N pages of each dataset")
    parser.add_argument("--repeat", metavar="R", type=positive_int, default=1,
                        help="time every page R times and keep its median (default 1); with --compare, R whole "
                             "passes over the pages, each pass's figures printed too")
    parser.add_argument("--collector", choices=COLLECTOR_MODES, default="paused",
                        help="Python's cyclic garbage collector around each timed call: paused, as the host "
                             "answers a request (default), or on")
    parser.add_argument("--compare", metavar="PEER", choices=("trafilatura", "readability"),
                        help="time PEER on the same pages, interleaved page by page in this process, and print "
                             "pagesieve's time as a ratio of PEER's (pagesieve_dev.evaluation.bench_peers)")
    parser.add_argument("--stages", action="store_true",
                        help="also print where pagesieve's time goes, per stage "
                             "(pagesieve_dev.evaluation.bench_stages)")


def main(args: argparse.Namespace) -> int:
    """Run ``pagesieve-dev bench``; prints the table on stdout; returns 0.

    Raises:
        DatasetError: no dataset found, or a folder is malformed (exit code 6).
    """
    if args.datasets:
        dirs = [resolve_dataset_dir(d) for d in args.datasets]
    else:
        base = default_datasets_dir()
        if base is None:
            raise DatasetError("no DATASET_DIR given and no ../shared/datasets (or $PAGESIEVE_DATASETS) found")
        dirs = sorted(p for p in base.iterdir() if p.is_dir() and (p / "index.jsonl").is_file())
        if not dirs:
            raise DatasetError(f"{base}: no dataset folders (with index.jsonl) found")

    try:
        from pagesieve.extract import extract
    except ImportError as exc:
        raise PagesieveError(f"the extractor pagesieve.extract cannot be imported: {exc}") from exc

    datasets = load_pages(dirs, args.limit)
    rss_start = peak_rss_mb()
    clock = StageClock() if getattr(args, "stages", False) else None
    if getattr(args, "compare", None):
        from pagesieve_dev.evaluation.peers import get_peer

        warmup = load_warmup(datasets[0], WARMUP_PAGES) if datasets else []
        pairs = run_pairs(datasets, extract, get_peer(args.compare, header=False), warmup, collector=args.collector == "paused",
                          around_ours=clock.timing if clock else None, repeat=args.repeat)
        print(f"per page, interleaved with {args.compare} in one process (order alternating page by page"
              + (f"; {args.repeat} passes, each page's median time" if args.repeat > 1 else "") + "):")
        print(text_table(pair_table(pairs, args.compare)))
        for k, (sums, median) in enumerate(pairs[-1].passes, 1):
            print(f"pass {k} of {args.repeat}, all pages: ratio of sums {sums:.3f}, median ratio {median:.3f}")
        if clock is not None and pairs[-1].ours:
            print("\nwhere pagesieve's time goes (own time of each stage):")
            print(text_table(stage_table(clock, sum(pairs[-1].ours) * args.repeat / 1000.0,
                                         len(pairs[-1].ours) * args.repeat)))
        print(f"garbage collector: {args.collector}")
        return 0
    rows = run_bench(datasets, extract, repeat=args.repeat, collector=args.collector,
                     around_extract=clock.timing if clock else None)
    print(format_table(rows))
    if clock is not None and rows[-1].ms:
        print("\nwhere the time goes (own time of each stage; with --repeat, every repeat counts):")
        print(text_table(stage_table(clock, sum(rows[-1].ms) * args.repeat / 1000.0, len(rows[-1].ms) * args.repeat)))
    print(f"peak RSS before warm-up (libraries imported, no model): {rss_start:.1f} MB; repeats: {args.repeat}; "
          f"garbage collector: {args.collector}")
    for r in rows[:-1]:
        if r.failures:
            print(f"{r.name}: {r.failures} page(s) failed; first: {r.first_error}")
    return 0
