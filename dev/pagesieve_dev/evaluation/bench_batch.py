"""``pagesieve-dev bench-batch``: speed and accuracy of ``pagesieve batch`` on a crawl of known truth.

::

    pagesieve-dev bench-batch [DATASET ...] [--parts N] [--workers 1,2] [--work DIR] [--json FILE]
    pagesieve-dev bench-batch --one-file [--workers 1,2] [--repeat N]

**One file** (``--one-file``): the whole command as a user runs it, interpreter, cluster start
and model load included, on ONE WARC file of 926 mixed pages
(:func:`~pagesieve_dev.evaluation.warc_fixture.write_mixed_warc`): ``python3 -m pagesieve batch
FILE --out DIR --workers N`` (templates, and ``--single-page``) against trafilatura over a
process pool of N processes reading the same file cut the same way
(:func:`~pagesieve_dev.evaluation.bench_batch_peer.trafilatura_pool`), 1 and 2 workers,
interleaved and repeated (:func:`~pagesieve_dev.evaluation.bench_batch_speed.one_file_speed`).

The datasets (default ``big9 dragnet daniel``, the ones with many pages per site) are packed into
WARC files by :mod:`pagesieve_dev.evaluation.warc_fixture`, ``--parts`` files each, pages dealt
round-robin so that each site spreads over the files.

**Speed.** On all the files together, for each worker count: ``pagesieve batch`` (count, learn
and extract passes; and ``--single-page``) and trafilatura, side by side, each on a
:class:`distributed.LocalCluster` of its own of that many single-threaded worker processes,
their runs interleaved (``--repeat`` rounds of the three at each worker count, the worker
counts interleaved too), one task per file, each reading the records with the same reader
(:func:`~pagesieve.crawl.records.read_warc`) and decoding them the same way; trafilatura is
called as ``pagesieve-dev eval --compare`` calls it (:mod:`pagesieve_dev.evaluation.peers`). The cluster
is started before the clock and warmed up (one page through each extractor on each worker), so
the time is the job's, from submission to the last part. Printed: pages/s, pages/s per core
(per worker process), pages per CPU second (the CPU time of the workers and of the page
processes they fork, :class:`~pagesieve.crawl.guard.PageGuard`), both against trafilatura,
and the peak RSS of each worker (``ru_maxrss`` after its last task, its page processes included).

**Accuracy.** Per dataset: a batch run with the crawl's templates and one with ``--single-page``
on that dataset's files; each row's text is scored against ``truth/<id>.txt``
(:func:`~pagesieve_dev.evaluation.metric.prf`, macro mean of :func:`~pagesieve_dev.evaluation.metric.macro`),
over all pages and over the held-out pages of ``models/split.json`` (the classifier never saw
them in training).

The parts live in modules of their own: trafilatura's tasks in
:mod:`pagesieve_dev.evaluation.bench_batch_peer`, the timing runs in
:mod:`pagesieve_dev.evaluation.bench_batch_speed`, the F1 comparison in
:mod:`pagesieve_dev.evaluation.bench_batch_accuracy`, the tables in
:mod:`pagesieve_dev.evaluation.bench_batch_report` and the WARC files in
:mod:`pagesieve_dev.evaluation.warc_fixture`; this module is the command.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import tempfile
from pathlib import Path

from pagesieve_dev.evaluation.bench_batch_accuracy import batch_accuracy
from pagesieve_dev.evaluation.bench_batch_peer import (trafilatura_part, trafilatura_pool, trafilatura_pool_main,
                                                       trafilatura_range, warm_up)
from pagesieve_dev.evaluation.bench_batch_report import (print_accuracy, print_load_average, print_one_file,
                                                         print_rounds, print_speed)
from pagesieve_dev.evaluation.bench_batch_speed import cluster_speed, one_file_speed, round_ratios

__all__ = [  # the command, and the names importable from here before its parts had modules of their own
    "DEFAULT_DATASETS", "add_arguments", "main", "round_ratios", "trafilatura_part", "trafilatura_pool",
    "trafilatura_pool_main", "trafilatura_range", "warm_up",
]

DEFAULT_DATASETS = ("big9", "dragnet", "daniel")


def _worker_counts(value: str) -> list[int]:
    counts = [int(v) for v in value.split(",") if v.strip()]
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError("worker counts are positive integers, comma-separated")
    return counts


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``bench-batch`` options."""
    parser.add_argument("datasets", nargs="*", default=list(DEFAULT_DATASETS), metavar="DATASET",
                        help="dataset folders or names (default: big9 dragnet daniel)")
    parser.add_argument("--parts", type=int, default=4, help="WARC files per dataset (default: 4)")
    parser.add_argument("--workers", type=_worker_counts, default=[1, 2], metavar="N,M",
                        help="worker process counts to time (default: 1,2)")
    parser.add_argument("--repeat", type=int, default=2, help="runs per measurement, the fastest kept (default: 2)")
    parser.add_argument("--work", type=Path, default=None, help="working folder (default: a temporary one, removed)")
    parser.add_argument("--no-speed", action="store_true", help="accuracy table only")
    parser.add_argument("--no-accuracy", action="store_true", help="speed table only")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures to this JSON file")
    parser.add_argument("--one-file", action="store_true",
                        help="time the whole command (interpreter and cluster start included) on ONE WARC file of "
                             "mixed pages (warc_fixture.MIXED_PAGES), against trafilatura over a process pool of the "
                             "same size reading the same file; no accuracy table")


def main(args: argparse.Namespace) -> int:
    """Run the benchmark and print the speed and accuracy tables."""
    from pagesieve_dev.evaluation.datasets import load_dataset
    from pagesieve_dev.evaluation.args import resolve_dataset_dir

    work = args.work or Path(tempfile.mkdtemp(prefix="pagesieve-bench-batch-"))
    work.mkdir(parents=True, exist_ok=True)
    figures: dict = {"cores": os.cpu_count()}
    if args.one_file:
        try:
            return _one_file_main(args, work, figures)
        finally:
            if args.work is None:
                shutil.rmtree(work, ignore_errors=True)
    datasets = [load_dataset(resolve_dataset_dir(d)) for d in args.datasets]
    try:
        _datasets_main(args, datasets, work, figures)
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


def _datasets_main(args: argparse.Namespace, datasets: list, work: Path, figures: dict) -> None:
    """The datasets packed into WARC files, then the speed table (unless ``--no-speed``) and the
    accuracy table (unless ``--no-accuracy``); ``figures`` gets them, written to ``--json``."""
    from pagesieve_dev.evaluation.warc_fixture import pack_datasets

    packed = pack_datasets(datasets, work, args.parts)
    all_files = [f for files, _ in packed.values() for f in files]
    n_pages = sum(len(u) for _, u in packed.values())
    print(f"{n_pages} pages of {', '.join(d.name for d in datasets)} in {len(all_files)} WARC files "
          f"({sum(f.stat().st_size for f in all_files) / 1e6:.1f} MB); {os.cpu_count()} cores")
    if not args.no_speed:
        speed = cluster_speed(all_files, args.workers, work, max(args.repeat, 1))
        figures["speed"] = speed
        print_speed(speed, args.workers)
    if not args.no_accuracy:
        acc = batch_accuracy(datasets, packed, work, max(args.workers))
        figures["accuracy"] = acc
        print_accuracy(acc)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")


def _one_file_main(args: argparse.Namespace, work: Path, figures: dict) -> int:
    """``--one-file``: build the mixed WARC file, time the whole commands, print the table."""
    from pagesieve_dev.evaluation.args import resolve_dataset_dir
    from pagesieve_dev.evaluation.datasets import load_dataset
    from pagesieve_dev.evaluation.warc_fixture import MIXED_PAGES, write_mixed_warc

    path = work / "warc" / "ONE.warc.gz"
    urls = write_mixed_warc([(load_dataset(resolve_dataset_dir(name)), n) for name, n in MIXED_PAGES], path)
    print(f"ONE WARC file of {len(urls)} pages ({', '.join(f'{name} {n}' for name, n in MIXED_PAGES)}), "
          f"{path.stat().st_size / 1e6:.1f} MB; {os.cpu_count()} cores")
    rows = one_file_speed(path, args.workers, work, max(args.repeat, 1))
    figures["one_file"] = rows
    print_one_file(rows, args.workers)
    rounds = round_ratios(rows)
    figures["one_file_rounds"] = rounds
    print_rounds(rounds, min(args.workers))
    print_load_average()
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return 0
