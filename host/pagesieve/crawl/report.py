"""What ``pagesieve batch`` (:mod:`pagesieve.crawl.job`) reports of a run: its
:class:`BatchSummary` (printed, and ``summary.json``), summed from the parts' stats
(:func:`add_parts`) and the sites learned (:func:`add_learned`), and the rows of
``sites.parquet`` (:func:`site_rows`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field

from pagesieve.crawl.learn import MIN_SITE_PAGES
from pagesieve.crawl.pages import PartStats
from pagesieve.crawl.records import SKIP_REASONS


@dataclass
class BatchSummary:
    """What a run did (printed, and written to ``summary.json``); ``parsed_again`` sums the
    parts' :attr:`~pagesieve.crawl.pages.PartStats.parsed_again`."""

    inputs: int = 0
    parts: int = 0
    part_records: int = 0
    most_parts_in_a_file: int = 0
    parts_written: int = 0
    parts_resumed: int = 0
    parts_failed: dict[str, str] = field(default_factory=dict)
    records: int = 0
    pages: int = 0
    template_pages: int = 0
    parsed_again: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    sites: int = 0
    sites_learned: int = 0
    sites_with_templates: int = 0
    workers: int = 0
    seconds_learn: float = 0.0  # to the end of the learn pass's part tasks (cluster start and count pass included)
    seconds_extract: float = 0.0  # the sites' learning and the extract pass, which overlap
    seconds_total: float = 0.0
    max_rss_mib_per_worker: dict[str, float] = field(default_factory=dict)
    out_dir: str = ""
    articles: int | None = None  # with --join-pages: rows of the articles file
    articles_joined: int | None = None  # of those, articles of several pages

    @property
    def pages_per_second(self) -> float:
        """Pages cleaned per second of the whole run's wall time (both passes)."""
        return self.pages / self.seconds_total if self.seconds_total else 0.0

    def to_dict(self) -> dict:
        """JSON-ready dict (``summary.json``), with ``pages_per_second``."""
        d = asdict(self)
        d["pages_per_second"] = round(self.pages_per_second, 2)
        return d

    def lines(self) -> list[str]:
        """The summary as the command prints it."""
        out = [
            f"inputs: {self.inputs} file(s) cut into {self.parts} parts of at most {self.part_records} records "
            f"(up to {self.most_parts_in_a_file} parts from one file); parts written {self.parts_written}, "
            f"resumed {self.parts_resumed}, failed {len(self.parts_failed)}",
            f"rows: {self.records} (response records and unreadable stretches); pages cleaned: {self.pages} "
            f"({self.template_pages} with their site's template; parsed twice: {self.parsed_again})",
            f"sites: {self.sites}; learned {self.sites_learned} (>= {MIN_SITE_PAGES} pages), "
            f"{self.sites_with_templates} with a usable template",
        ]
        if self.skipped:
            out.append("skipped: " + ", ".join(f"{k} {v}" for k, v in sorted(self.skipped.items(), key=lambda kv: -kv[1])))
        else:
            out.append("skipped: none")
        for name, why in self.parts_failed.items():
            out.append(f"failed part {name}: {why}")
        out.append(
            f"time: learn {self.seconds_learn:.1f} s, extract {self.seconds_extract:.1f} s, total {self.seconds_total:.1f} s "
            f"on {self.workers} worker(s): {self.pages_per_second:.1f} pages/s"
        )
        if self.max_rss_mib_per_worker:
            out.append("peak RSS per worker: " + ", ".join(f"{v:.0f} MiB" for v in self.max_rss_mib_per_worker.values()))
        if self.articles is not None:
            out.append(f"articles: {self.articles} ({self.articles_joined} over several pages, joined)")
        out.append(f"output: {self.out_dir}")
        return out


def add_learned(summary: BatchSummary, learned_counts: dict[str, tuple[int, int, bool]]) -> None:
    """Count in ``summary`` the sites learned and those with a usable template, of
    ``{site: (pages learned, template entries, usable)}``."""
    summary.sites_learned = len(learned_counts)
    summary.sites_with_templates = sum(1 for v in learned_counts.values() if v[2])


def add_parts(summary: BatchSummary, parts: list[PartStats]) -> None:
    """Sum into ``summary`` the figures of the parts (written or resumed): rows, pages,
    skipped records by reason, sites, and each worker's peak memory."""
    skipped: Counter[str] = Counter()
    sites: set[str] = set()
    rss: dict[str, float] = {}
    for p in parts:
        summary.records += p.rows
        summary.pages += p.pages
        summary.template_pages += p.template_pages
        summary.parsed_again += p.parsed_again
        skipped.update(p.skipped)
        sites.update(p.sites)
        if not p.resumed:
            summary.parts_written += 1
            worker = p.worker or "worker"
            rss[worker] = max(rss.get(worker, 0.0), p.max_rss_kib / 1024)
        else:
            summary.parts_resumed += 1
    summary.skipped = {k: skipped[k] for k in SKIP_REASONS if skipped.get(k)}
    summary.sites = len(sites)
    summary.max_rss_mib_per_worker = {k: round(v, 1) for k, v in sorted(rss.items())}


def site_rows(parts: list[PartStats], learned: dict[str, tuple[int, int, bool]]) -> list[dict]:
    """The rows of ``sites.parquet``, a site each in name order: its pages, template pages,
    pages learned, template entries, characters kept and characters its template removed, of
    the parts' stats and ``{site: (pages learned, template entries, usable)}``."""
    per: dict[str, list[int]] = {}
    for p in parts:
        for site, counts in p.sites.items():
            acc = per.setdefault(site, [0, 0, 0, 0])
            for k in range(4):
                acc[k] += counts[k]
    rows = []
    for site in sorted(per):
        pages, tpages, chars, removed = per[site]
        lp, entries, _usable = learned.get(site, (0, 0, False))
        rows.append({"site": site, "pages": pages, "template_pages": tpages, "learned_pages": lp,
                     "template_entries": entries, "chars": chars, "chars_removed_by_template": removed})
    return rows
