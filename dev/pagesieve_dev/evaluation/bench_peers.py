"""Per-page time of pagesieve against another extractor, interleaved in one process
(``pagesieve-dev bench --compare PEER``).

The issues' speed bars are ratios ("per-page time against trafilatura, interleaved in one
process: ratio <= 0.7"), because these machines are shared and their speed changes from minute
to minute: an absolute time proves nothing, a ratio of two extractors timed side by side on the
same page does. Procedure:

1. Both extractors are warmed up on the first pages (untimed; models and lazy imports load).
2. Each page is extracted by both, one call right after the other, the order alternating
   from page to page (pagesieve first on even pages, the peer first on odd ones) so that
   neither always runs with warm caches; each call is timed alone with ``time.perf_counter``,
   Python's cyclic garbage collector paused around it (as the host answers a request) unless
   asked otherwise.
3. A page on which either extractor raises is counted and left out of both columns.

Figures per dataset and over all pages: the median per-page time of each (ms), the ratio of
the summed times (pagesieve / peer: the time a crawl of these pages would take) and the median
of the per-page ratios (what a typical page costs).

With ``--repeat R`` the whole procedure runs R times over all the pages (whole passes, so that
a slow minute of the machine falls on both extractors of some pages rather than on one page's
repeats); each page's time is then the median of its R times, and the figures of each pass
over all pages are printed too, which shows how far one pass can move.
"""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pagesieve.native.collector import collector_paused


@dataclass(slots=True)
class PairRow:
    """One dataset's interleaved timings (or ``"all"``).

    Attributes:
        name: dataset name. ours, theirs: per-page ms of pagesieve and of the peer, same pages,
        same order. failures: pages left out because one of the two raised.
    """

    name: str
    ours: list[float] = field(default_factory=list)
    theirs: list[float] = field(default_factory=list)
    failures: int = 0
    passes: list[tuple[float, float]] = field(default_factory=list)
    """``(ratio of sums, median ratio)`` of each pass (``"all"`` only, with ``repeat`` > 1)."""

    @property
    def sum_ratio(self) -> float:
        """Summed pagesieve time over summed peer time (``nan`` with no pages)."""
        return sum(self.ours) / sum(self.theirs) if self.theirs and sum(self.theirs) > 0 else float("nan")

    @property
    def median_ratio(self) -> float:
        """Median over pages of pagesieve's time over the peer's (``nan`` with no pages)."""
        ratios = [a / b for a, b in zip(self.ours, self.theirs) if b > 0]
        return statistics.median(ratios) if ratios else float("nan")


def run_pairs(datasets: Sequence, ours: Callable[[str, str | None], Any], theirs: Callable[[str, str | None], Any],
              warmup: Sequence[tuple[str, str, str | None]] = (), collector: bool = True,
              around_ours=None, repeat: int = 1) -> list[PairRow]:
    """Time ``ours`` and ``theirs`` on every page of ``datasets`` (objects with ``name`` and
    ``pages``, an iterable of ``(id, html, url)``: ``BenchPages`` of
    :mod:`pagesieve_dev.evaluation.bench`), interleaved as the module says, after both have
    extracted the ``warmup`` pages untimed.

    ``around_ours``: a context manager factory entered around each timed call of ``ours`` only,
    outside the clock (``bench --stages`` passes its stage clock). ``repeat``: whole passes
    (the module docstring); each page's times are the medians of its passes, and the
    ``"all"`` row lists each pass's figures in ``passes``. Returns a :class:`PairRow` per
    dataset, then ``"all"``.
    """
    if repeat > 1:
        for ds in datasets:  # every pass reads the same pages: held in memory (a lazy reader is read once)
            ds.pages = list(ds.pages)
        runs = [run_pairs(datasets, ours, theirs, warmup if k == 0 else (), collector, around_ours)
                for k in range(repeat)]
        merged = []
        for rows in zip(*runs):
            row = PairRow(rows[0].name, failures=max(r.failures for r in rows))
            if len({len(r.ours) for r in rows}) == 1:  # the same pages in every pass: per-page medians
                row.ours = [statistics.median(t) for t in zip(*(r.ours for r in rows))]
                row.theirs = [statistics.median(t) for t in zip(*(r.theirs for r in rows))]
            else:  # a page failed in some pass only: every pass's times, pooled
                row.ours = [t for r in rows for t in r.ours]
                row.theirs = [t for r in rows for t in r.theirs]
            merged.append(row)
        merged[-1].passes = [(r[-1].sum_ratio, r[-1].median_ratio) for r in runs]
        return merged
    paused = collector_paused if collector else contextlib.nullcontext
    if warmup:
        for _pid, html, url in warmup:
            for fn in (ours, theirs):
                try:
                    fn(html, url)
                except Exception:  # noqa: BLE001 - counted in the timed pass
                    pass

    def timed(fn, html, url, extra) -> float:
        with paused(), extra():
            t0 = time.perf_counter()
            out = fn(html, url)
            ms = (time.perf_counter() - t0) * 1000.0
        del out
        return ms

    rows, total = [], PairRow("all")
    for ds in datasets:
        row = PairRow(ds.name)
        for i, (_pid, html, url) in enumerate(ds.pages):
            order = ((ours, around_ours or contextlib.nullcontext), (theirs, contextlib.nullcontext))
            if i % 2:
                order = order[::-1]
            try:
                got = {fn: timed(fn, html, url, extra) for fn, extra in order}
            except Exception:  # noqa: BLE001 - one page never stops the bench
                row.failures += 1
                continue
            row.ours.append(got[ours])
            row.theirs.append(got[theirs])
        rows.append(row)
        total.ours += row.ours
        total.theirs += row.theirs
        total.failures += row.failures
    rows.append(total)
    return rows


def pair_table(rows: Sequence[PairRow], peer: str) -> list[tuple[str, ...]]:
    """Rows of the printed table: dataset, pages, the two medians (ms), the ratio of sums and
    the median ratio, failed pages."""
    out: list[tuple[str, ...]] = [("dataset", "pages", "pagesieve ms median", f"{peer} ms median",
                                   "ratio of sums", "median ratio", "failed")]
    for r in rows:
        med = (lambda xs: f"{statistics.median(xs):.1f}" if xs else "-")
        out.append((r.name, str(len(r.ours)), med(r.ours), med(r.theirs), f"{r.sum_ratio:.3f}",
                    f"{r.median_ratio:.3f}", str(r.failures)))
    return out
