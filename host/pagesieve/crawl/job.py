"""The Dask job of ``pagesieve batch``: both passes over the input files, on any Dask cluster.

No scheduler of our own: a ``distributed`` client runs the tasks, on a
:class:`distributed.LocalCluster` (one single-threaded worker process per core) by default or on
the cluster at ``scheduler`` (a ``dask scheduler`` started by hand, dask-jobqueue on Slurm,
Kubernetes), unchanged. Workers must see the input files and the output folder at the same
paths (a shared file system) and have pagesieve installed.

Partitions are parts of the input files (:mod:`pagesieve.crawl.parts`): runs of at most
``--part-records`` records, read by seeking to their first record, so any number of workers
share one file. One task per part and pass:

1. **count** (one task per file): :func:`~pagesieve.crawl.parts.cut_file` reads each file once
   (bodies not parsed), cuts it into parts and counts ``{site: pages}``; summed on the client,
   it tells which sites have :data:`~pagesieve.crawl.learn.MIN_SITE_PAGES` pages. With a local
   cluster the files are counted first in a child of the command while the cluster starts
   (:mod:`pagesieve.crawl.count`), and only those it has not begun by then on the cluster;
2. **learn**: each part judges its pages (:func:`~pagesieve.crawl.pages.judge_part`, kept for
   the extract pass) and writes the summaries of the pages of those sites by site bucket; one
   task per bucket then learns its sites from all the parts in crawl order
   (:func:`~pagesieve.crawl.summaries.learn_bucket`);
3. **extract**: each part (:func:`~pagesieve.crawl.pages.extract_part`), its task given the
   learned sites of its part by the bucket tasks it depends on (Dask hands their results from
   worker to worker), so it starts as soon as they end; meanwhile the client gathers the
   buckets and writes ``templates.parquet`` and ``learn.json`` (the sites of each part). A
   resumed run whose templates are already written reads from ``templates.parquet`` only the
   sites of each part.

A part whose task fails (a worker killed, the output folder unwritable) is reported in the
summary and not written; ``resume`` keeps the parts already written, and the templates when
``templates.parquet`` and ``learn.json`` are there.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pagesieve.crawl.cluster import (
    close_client,
    collect,
    largest_first,
    open_client,
    run_pass,
    saturation_hint,
    submit_pass,
)
from pagesieve.crawl.count import EarlyCount, can_count_early
from pagesieve.crawl.learn import MIN_SITE_PAGES, SiteLearning
from pagesieve.crawl.output import part_name, part_path, read_templates, stats_path, write_json, write_sites, write_templates
from pagesieve.crawl.guard import PAGE_TIMEOUT
from pagesieve.crawl.judged import header as judged_header
from pagesieve.crawl.judged import judged_path
from pagesieve.crawl.pages import PartStats
from pagesieve.crawl.parts import PART_RECORDS, TAIL_SPLIT, FileCut, Part, cut_file
from pagesieve.crawl.records import MAX_RECORD_BYTES, warc_files
from pagesieve.crawl.report import BatchSummary, add_learned, add_parts, site_rows
from pagesieve.crawl.summaries import bucket_of, summaries_path
from pagesieve.crawl.tasks import bucket_task, extract_task, learn_task
from pagesieve.errors import UsageError
from pagesieve.templates.evidence import DEFAULT_KINDS

TEMPLATES_FILE = "templates.parquet"
LEARN_FILE = "learn.json"
SITES_FILE = "sites.parquet"
SUMMARY_FILE = "summary.json"
PARTS_FILE = "parts.json"


@dataclass
class BatchOptions:
    """The options of one run (the ``pagesieve batch`` arguments).

    Attributes:
        inputs: WARC files or folders. out_dir: output folder. fmt: ``"parquet"`` or
        ``"jsonl"``. markdown: fill the ``markdown`` column. kinds: template evidence kinds.
        resume: keep the parts (and templates) already written. learn_only: stop after the
        learn pass. single_page: no learn pass, every page extracted as a single page.
        scheduler: address of an existing Dask scheduler (``None``: a local cluster).
        workers: worker processes of the local cluster (default: one per core).
        max_record_bytes: see :data:`~pagesieve.crawl.records.MAX_RECORD_BYTES`.
        page_timeout: seconds a page may take before it is skipped as ``timeout``
        (:data:`~pagesieve.crawl.guard.PAGE_TIMEOUT`; ``None`` or 0: no limit).
        part_records: response records per part (:data:`~pagesieve.crawl.parts.PART_RECORDS`).
        progress: draw the progress bar on standard error.
        join_pages: also write ``articles.parquet`` (or ``.jsonl.gz``), one row per article,
        an article's pages joined where the crawl holds them (:mod:`pagesieve.crawl.articles`).
    """

    inputs: list[str]
    out_dir: Path
    fmt: str = "parquet"
    markdown: bool = False
    kinds: tuple[str, ...] = DEFAULT_KINDS
    resume: bool = False
    learn_only: bool = False
    single_page: bool = False
    scheduler: str | None = None
    workers: int | None = None
    max_record_bytes: int = MAX_RECORD_BYTES
    page_timeout: float | None = PAGE_TIMEOUT
    part_records: int = PART_RECORDS
    progress: bool = True
    join_pages: bool = False


def part_done(out_dir: Path, name: str, fmt: str) -> bool:
    """True when the part and its stats file are both in place (written whole)."""
    return part_path(out_dir, name, fmt).exists() and stats_path(out_dir, name).exists()


def run_batch(opts: BatchOptions, client=None) -> BatchSummary:
    """Run the job (see the module docstring); returns its summary, also written to
    ``DIR/summary.json`` with ``DIR/sites.parquet``.

    Args:
        opts: the options. client: a ``distributed.Client`` to use (default: one opened from
            ``opts.scheduler``/``opts.workers`` and closed at the end).

    Raises:
        FileNotFoundError: an input does not exist. ImportError: the ``batch`` extra is missing.
        OSError: the output folder cannot be created or a cluster cannot be reached.
    """
    t0 = time.perf_counter()
    files = warc_files(opts.inputs)
    if opts.part_records < 1:
        raise UsageError(f"--part-records must be at least 1, not {opts.part_records}")
    out_dir = Path(opts.out_dir).resolve()
    (out_dir / "parts").mkdir(parents=True, exist_ok=True)
    tail_split = _check_cut(out_dir / PARTS_FILE, opts)
    summary = BatchSummary(inputs=len(files), out_dir=str(out_dir), part_records=opts.part_records)
    own_client = client is None
    early = None
    if own_client and not opts.scheduler:  # counted while the local cluster starts
        early = _early_count(files, opts, tail_split)
    try:
        if own_client:
            client = open_client(opts.scheduler, opts.workers)
        hint = saturation_hint(client) if own_client and opts.scheduler else None
        if hint:
            print(hint, file=sys.stderr, flush=True)
        summary.workers = len(client.scheduler_info(n_workers=-1)["workers"]) if hasattr(client, "scheduler_info") else 0
        cuts = _count(client, files, opts, summary, tail_split, early)
        parts = _plan_parts(out_dir, cuts, opts, tail_split, summary)
        part_sites, learned_counts, learning = _plan_learning(client, cuts, parts, opts, out_dir, summary.workers)
        summary.seconds_learn = round(time.perf_counter() - t0, 3)
        if opts.learn_only:
            if learning is not None:
                learned_counts = learning.gather(out_dir / TEMPLATES_FILE, out_dir / LEARN_FILE, opts.progress)
                learning.remove_summaries()
            add_learned(summary, learned_counts)
        else:
            all_stats, learned_counts = _extract(client, parts, part_sites, learned_counts, learning, opts, out_dir,
                                                 summary)
            _summarise(summary, out_dir, parts, all_stats, learned_counts, opts)
        summary.seconds_total = round(time.perf_counter() - t0, 3)
        write_json(out_dir / SUMMARY_FILE, summary.to_dict())
        return summary
    finally:
        if early is not None:
            early.close()
        if own_client and client is not None:  # None: the cluster could not be opened
            close_client(client)


def _early_count(files: list[Path], opts: BatchOptions, tail_split: int) -> EarlyCount | None:
    """The count of ``files`` begun in a child of this process while the local cluster starts
    (:mod:`pagesieve.crawl.count`), or ``None`` where none can be had: the workers count, as on
    any cluster."""
    if not can_count_early():
        return None
    try:
        return EarlyCount([(str(f), part_name(f)) for f in files], opts.part_records, opts.max_record_bytes,
                          tail_split)
    except OSError:  # no process or pipe to be had
        return None


def _plan_parts(out_dir: Path, cuts: dict[str, FileCut], opts: BatchOptions, tail_split: int,
                summary: BatchSummary) -> list[Part]:
    """The parts of the job, in crawl order, written to ``parts.json`` and counted in ``summary``."""
    parts = [p for cut in cuts.values() for p in cut.parts]
    write_json(out_dir / PARTS_FILE, {"part_records": opts.part_records, "tail_split": tail_split,
                                      "parts": [[p.path, p.name, p.start, p.end, p.records] for p in parts]})
    summary.parts = len(parts)
    summary.most_parts_in_a_file = max((len(c.parts) for c in cuts.values()), default=0)
    return parts


def _plan_learning(client, cuts: dict[str, FileCut], parts: list[Part], opts: BatchOptions, out_dir: Path,
                   workers: int) -> tuple[dict[str, list[str]], dict[str, tuple[int, int, bool]], Learning | None]:
    """The sites to learn: ``(part_sites, learned_counts, learning)``, ``part_sites`` being
    ``{part name: its learned sites}``, ``learned_counts`` ``{site: (pages learned, entries,
    usable)}`` of a resumed run's templates, and ``learning`` the learn pass this run runs
    (:func:`_learn`, its buckets not yet gathered), or ``None`` (``--single-page``, or the
    templates of the run resumed serve: learned with the fingerprints the diff needs, for
    these parts)."""
    templates_file = out_dir / TEMPLATES_FILE
    learn_file = out_dir / LEARN_FILE
    part_sites: dict[str, list[str]] = {}
    learned_counts: dict[str, tuple[int, int, bool]] = {}
    learning: Learning | None = None
    if not opts.single_page:
        fingerprints = "diff" in opts.kinds
        previous = json.loads(learn_file.read_text(encoding="utf-8")) if opts.resume and learn_file.exists() else None
        if (previous and templates_file.exists() and previous.get("fingerprints", True) >= fingerprints
                and set(previous["part_sites"]) >= {p.name for p in parts}):
            part_sites = previous["part_sites"]
            learned_counts = _learned_counts(read_templates(templates_file))
        else:  # nothing to resume, learned without the fingerprints the diff now needs, or other parts
            learning = _learn(client, cuts, opts, out_dir, max(workers, 1))
            part_sites = learning.part_sites
    return part_sites, learned_counts, learning


def _extract(client, parts: list[Part], part_sites: dict[str, list[str]],
             learned_counts: dict[str, tuple[int, int, bool]], learning: Learning | None, opts: BatchOptions,
             out_dir: Path, summary: BatchSummary) -> tuple[list[PartStats], dict[str, tuple[int, int, bool]]]:
    """The extract pass: the stats of every part written (the resumed ones read back), and the
    learned counts (of ``learning``, gathered while its tasks run, else ``learned_counts``); a
    part whose task failed goes to ``summary.parts_failed``."""
    t1 = time.perf_counter()
    templates_file = out_dir / TEMPLATES_FILE
    all_stats: list[PartStats] = []
    todo: list[Part] = []
    for part in parts:
        if opts.resume and part_done(out_dir, part.name, opts.fmt):
            stats = PartStats.from_dict(json.loads(stats_path(out_dir, part.name).read_text(encoding="utf-8")))
            stats.resumed = True
            all_stats.append(stats)
        else:
            todo.append(part)
    args = [(p.path, str(out_dir), str(templates_file) if part_sites else None, part_sites.get(p.name, []), opts.fmt,
             opts.markdown, tuple(opts.kinds), opts.max_record_bytes, p.name, opts.page_timeout,
             None if opts.single_page else _judged_header(p, opts), p.start, p.end,
             None if learning is None else learning.of(part_sites.get(p.name, []))) for p in todo]
    futures = submit_pass(client, extract_task, args, "extract", [p.name for p in todo],
                          largest_first([p.path for p in todo], [p.records for p in todo]))
    if learning is not None:  # while the extract tasks run
        learned_counts = learning.gather(templates_file, out_dir / LEARN_FILE, opts.progress)
    add_learned(summary, learned_counts)
    results = collect(futures, "extract", opts.progress, pages_of=lambda s: s.rows)
    if learning is not None:
        learning.remove_summaries()
    for part, result in zip(todo, results):
        if isinstance(result, Exception):
            summary.parts_failed[part.name] = f"{type(result).__name__}: {result}"
        else:
            all_stats.append(result)
    summary.seconds_extract = round(time.perf_counter() - t1, 3)
    return all_stats, learned_counts


def _summarise(summary: BatchSummary, out_dir: Path, parts: list[Part], all_stats: list[PartStats],
               learned_counts: dict[str, tuple[int, int, bool]], opts: BatchOptions) -> None:
    """After the extract pass: the judged files of the parts written removed, the parts'
    figures summed into ``summary``, ``sites.parquet`` written, and the pages joined into
    articles (``--join-pages``)."""
    _remove_judged(out_dir, [p.name for p in parts if part_done(out_dir, p.name, opts.fmt)])
    add_parts(summary, all_stats)
    write_sites(out_dir / SITES_FILE, site_rows(all_stats, learned_counts))
    if opts.join_pages:
        from pagesieve.crawl.articles import join_pages

        written = [part_path(out_dir, p.name, opts.fmt) for p in parts if part_done(out_dir, p.name, opts.fmt)]
        summary.articles, summary.articles_joined = join_pages(out_dir, opts.fmt, written)


def _check_cut(path: Path, opts: BatchOptions) -> int:
    """The ``tail_split`` of this run's cut (:func:`~pagesieve.crawl.parts.cut_file`):
    :data:`~pagesieve.crawl.parts.TAIL_SPLIT`, or when resuming, the one of the run resumed
    (1 for a run made before the tail was cut finer, whose ``parts.json`` does not say), so
    that its parts keep their names and records.

    Raises:
        UsageError: resuming a run cut into parts of another size: its parts (named by their
        place in the file) would not be the same records as this run's.
    """
    if not opts.resume or not path.exists():
        return TAIL_SPLIT
    cut = json.loads(path.read_text(encoding="utf-8"))
    before = cut.get("part_records")
    if before != opts.part_records:
        raise UsageError(f"--resume: {path.parent} was cut into parts of {before} records; run again with "
                         f"--part-records {before} (or without --resume into a new folder)")
    return int(cut.get("tail_split", 1))


def _count(client, files: list[Path], opts: BatchOptions, summary: BatchSummary,
           tail_split: int = TAIL_SPLIT, early: EarlyCount | None = None) -> dict[str, FileCut]:
    """The count pass: ``{file part name: FileCut}`` in input order. A file whose count task
    failed (a worker lost) is reported in ``summary.parts_failed`` and left out. With
    ``early`` (:mod:`pagesieve.crawl.count`), the files it counted while the cluster started
    are taken from it and only the others counted on the cluster."""
    names = [part_name(f) for f in files]
    args = [(str(f), name, opts.part_records, opts.max_record_bytes, tail_split) for f, name in zip(files, names)]
    results: list = [None] * len(files)

    def on_cluster(indexes: list[int]) -> None:
        if indexes:
            for i, result in zip(indexes, run_pass(client, cut_file, [args[i] for i in indexes], "count", opts.progress,
                                                   pages_of=lambda c: sum(c.sites.values()),
                                                   keys=[names[i] for i in indexes])):
                results[i] = result

    on_cluster(early.take() if early is not None else list(range(len(files))))
    if early is not None:
        for i, result in early.finish().items():
            if results[i] is None:
                results[i] = result
        on_cluster([i for i, r in enumerate(results) if r is None])  # begun by the child, which died
    cuts: dict[str, FileCut] = {}
    for f, name, result in zip(files, names, results):
        if isinstance(result, Exception):
            summary.parts_failed[name] = f"count: {type(result).__name__}: {result}"
        else:
            cuts[name] = result
    return cuts


def _judged_header(part: Part, opts: BatchOptions) -> dict:
    return judged_header(part.path, opts.markdown, "diff" in opts.kinds, opts.max_record_bytes, opts.page_timeout,
                         part.start, part.end)


def _remove_judged(out_dir: Path, names: list[str]) -> None:
    """Remove the judged files of the parts written (an extract task removes its own; one left
    by a killed job goes here), and the folder once empty."""
    for name in names:
        judged_path(out_dir, name).unlink(missing_ok=True)
    try:
        judged_path(out_dir, "x").parent.rmdir()
    except OSError:  # not there, or holds the judged files of failed parts (kept for --resume)
        pass


@dataclass
class Learning:
    """The site learning of a run, under way: the learn pass is over and one
    :func:`~pagesieve.crawl.tasks.bucket_task` per site bucket is submitted (:func:`_learn`).

    Attributes:
        part_sites: ``{part name: its learned sites}``. buckets: the number of site buckets.
        futures: ``{bucket: future of its bucket_task}`` (the buckets with pages).
        summaries: the parts' summary files, removed once the extract pass has ended
        (:meth:`remove_summaries`): until then Dask may run a bucket task again, if the worker
        holding its result is lost before every extract task that needs it has run.
        fingerprints: whether the summaries keep the pages' block fingerprints (``learn.json``).
    """

    part_sites: dict[str, list[str]]
    buckets: int = 1
    futures: dict = field(default_factory=dict)
    summaries: list[Path] = field(default_factory=list)
    fingerprints: bool = True

    def of(self, sites: list[str]) -> list:
        """The futures of the buckets of ``sites``, for the extract task of a part: Dask
        starts it once they have ended and hands it their results."""
        used = sorted({bucket_of(s, self.buckets) for s in sites})
        return [self.futures[b] for b in used if b in self.futures]

    def gather(self, templates_file: Path, learn_file: Path, progress: bool) -> dict[str, tuple[int, int, bool]]:
        """Wait for the buckets, write ``templates.parquet`` and ``learn.json`` (atomically),
        and return ``{site: (pages learned, template entries, usable)}``.
        A bucket that failed is reported on standard error; its sites are not learned."""
        used = sorted(self.futures)
        results = collect([self.futures[b] for b in used], "sites", progress)
        learned: dict[str, SiteLearning] = {}
        for b, result in zip(used, results):
            why = f"{type(result).__name__}: {result}" if isinstance(result, Exception) else result[1]
            if why is not None:
                print(f"pagesieve: warning: the learning of site bucket {b} failed ({why}): its sites are not learned",
                      file=sys.stderr)
            else:
                learned.update(result[0])
        self.futures = {}
        write_templates(templates_file, learned)
        write_json(learn_file, {"part_sites": self.part_sites, "min_site_pages": MIN_SITE_PAGES,
                                "fingerprints": self.fingerprints})
        return _learned_counts(learned)

    def remove_summaries(self) -> None:
        """Remove the parts' summary files (the job no longer needs them)."""
        for path in self.summaries:
            path.unlink(missing_ok=True)


def _learned_counts(learned: dict[str, SiteLearning]) -> dict[str, tuple[int, int, bool]]:
    return {s: (v.pages, len(v.library.entries), v.usable) for s, v in learned.items()}


def _learn(client, cuts: dict[str, FileCut], opts: BatchOptions, out_dir: Path, workers: int) -> Learning:
    """The learn pass, and the site buckets submitted (:class:`Learning`).

    Two steps (:mod:`pagesieve.crawl.summaries`): each part's task, one ``map``
    (:func:`~pagesieve.crawl.cluster.submit_pass`, largest part first), judges its pages
    (:func:`~pagesieve.crawl.pages.judge_part`: the judgements are kept for the extract pass)
    or, for a part already written or a ``learn_only`` run, only summarises them
    (:func:`~pagesieve.crawl.summaries.summarise_part`), and writes the summaries of its pages
    of the learned sites by site bucket; then one task per bucket learns its sites from every
    part's summaries in crawl order (:func:`~pagesieve.crawl.tasks.bucket_task`), so the
    templates do not depend on the cut nor on which worker ran which part. The bucket tasks are
    submitted, not waited for: the extract tasks depend on them (:meth:`Learning.of`)."""
    total: Counter[str] = Counter()
    for cut in cuts.values():
        total.update(cut.sites)
    wanted = {s for s, n in total.items() if n >= MIN_SITE_PAGES}
    parts = [p for cut in cuts.values() for p in cut.parts]
    part_sites = {p.name: sorted(set(counts) & wanted) for cut in cuts.values()
                  for p, counts in zip(cut.parts, cut.part_sites)}
    diff = "diff" in opts.kinds
    buckets = max(1, min(len(wanted), 2 * workers))  # 2 per worker: the bucket tasks share the workers evenly
    learning = Learning(part_sites, buckets, fingerprints=diff)
    judge = {p.name for p in parts if not opts.learn_only and not (opts.resume and part_done(out_dir, p.name, opts.fmt))}
    jobs = [p for p in parts if part_sites.get(p.name) or p.name in judge]
    if not jobs:
        return learning
    args = [(p.name in judge, p.path, str(out_dir), p.name, frozenset(part_sites.get(p.name, ())), opts.markdown, diff,
             opts.max_record_bytes, opts.page_timeout, p.start, p.end, buckets) for p in jobs]
    indexes = run_pass(client, learn_task, args, "learn", opts.progress, keys=[p.name for p in jobs],
                   work=[p.pages for p in jobs])
    sources: list[list[tuple[str, int, int]]] = [[] for _ in range(buckets)]
    for part, index in zip(jobs, indexes):  # crawl order: the files in input order, a file's parts in order
        if isinstance(index, Exception):
            print(f"pagesieve: warning: the learn task of {part.name} ({part.path}) failed ({index}): its pages are "
                  "not learned", file=sys.stderr)
            continue
        for bucket, (offset, length) in index.items():
            sources[bucket].append((str(summaries_path(out_dir, part.name)), offset, length))
    used = [b for b in range(buckets) if sources[b]]
    futures = submit_pass(client, bucket_task, [(sources[b],) for b in used], "sites", [f"bucket{b:04d}" for b in used],
                          largest_first([""] * len(used), [sum(n for _, _, n in sources[b]) for b in used]))
    learning.futures = dict(zip(used, futures))
    learning.summaries = [summaries_path(out_dir, p.name) for p in jobs]
    return learning
