"""``pagesieve-dev bench-batch``: speed and accuracy of ``pagesieve batch`` on a crawl of known truth.

::

    pagesieve-dev bench-batch [DATASET ...] [--parts N] [--workers 1,2] [--work DIR] [--json FILE]
    pagesieve-dev bench-batch --one-file [--workers 1,2] [--repeat N]

**One file** (``--one-file``): the whole command as a user runs it, interpreter, cluster start
and model load included, on ONE WARC file of 926 mixed pages
(:func:`~pagesieve_dev.evaluation.warc_fixture.write_mixed_warc`): ``python3 -m pagesieve batch
FILE --out DIR --workers N`` (templates, and ``--single-page``) against trafilatura over a
process pool of N processes reading the same file cut the same way (:func:`trafilatura_pool`),
1 and 2 workers, interleaved and repeated (:func:`_one_file_speed`).

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
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path

from pagesieve.table import format_table

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


# ------------------------------------------------------------------------ tasks on the workers


def _trafilatura_pages(path: str, start: int = 0, end: int | None = None) -> int:
    """Extract every HTML page of a WARC file (or of its part ``[start, end)``, as
    :func:`~pagesieve.crawl.records.read_warc` reads it) with trafilatura (the peer of ``eval
    --compare``); returns the pages."""
    from pagesieve.crawl.records import WarcPage, read_warc
    from pagesieve_dev.evaluation.peers import get_peer
    from pagesieve.page.decode import decode_html

    extract = get_peer("trafilatura", header=False)
    pages = 0
    for item in read_warc(path, start=start, end=end):
        if not isinstance(item, WarcPage):
            continue
        try:
            text, _ = decode_html(item.body, item.charset)
            extract(text, item.url)
        except Exception:  # noqa: BLE001 - as pagesieve's failures, a failed page is counted and skipped
            pass
        pages += 1
    return pages


def trafilatura_part(path: str) -> dict:
    """Extract every HTML page of one WARC file with trafilatura (:func:`_trafilatura_pages`);
    returns ``{"pages", "seconds", "max_rss_kib", "worker"}``."""
    t0 = time.perf_counter()
    pages = _trafilatura_pages(path)
    return {"pages": pages, "seconds": time.perf_counter() - t0,
            "max_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "worker": f"{os.getpid()}"}


def trafilatura_range(path: str, start: int, end: int | None) -> dict:
    """Extract every HTML page of one part of a WARC file with trafilatura
    (:func:`_trafilatura_pages`); returns ``{"pages", "max_rss_kib", "worker"}``. A task of
    :func:`trafilatura_pool`."""
    pages = _trafilatura_pages(path, start, end)
    return {"pages": pages, "max_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "worker": os.getpid()}


def trafilatura_pool(path: str, workers: int, part_records: int) -> dict:
    """trafilatura over a process pool of ``workers`` processes reading one WARC file: the file
    cut as ``pagesieve batch`` cuts it (:func:`~pagesieve.crawl.parts.cut_file`, the same count
    pass), the parts handed out largest first. Returns ``{"pages", "rss_mib": [per worker]}``."""
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    from pagesieve.crawl.parts import cut_file

    parts = sorted(cut_file(path, "x", part_records).parts, key=lambda p: -p.records)
    with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
        results = list(pool.map(trafilatura_range, [path] * len(parts), [p.start for p in parts], [p.end for p in parts]))
    rss: dict[int, float] = {}
    for r in results:
        rss[r["worker"]] = max(rss.get(r["worker"], 0.0), r["max_rss_kib"] / 1024)
    return {"pages": sum(r["pages"] for r in results), "rss_mib": sorted(round(v, 1) for v in rss.values())}


def trafilatura_pool_main(argv: list[str]) -> int:
    """``python3 -c '...trafilatura_pool_main(sys.argv[1:])' FILE WORKERS PART_RECORDS OUT.json``:
    :func:`trafilatura_pool` as a command of its own, timed whole by :func:`_one_file_speed`."""
    path, workers, part_records, out = argv
    Path(out).write_text(json.dumps(trafilatura_pool(path, int(workers), int(part_records))), encoding="utf-8")
    return 0


def warm_up(_: int = 0) -> int:
    """Load pagesieve's model and trafilatura in the worker (one small page through each)."""
    from pagesieve_dev.evaluation.peers import get_peer
    from pagesieve.extract import extract

    html = "<html><head><title>t</title></head><body><p>" + "Warm up text. " * 40 + "</p></body></html>"
    extract(html, url="https://example.org/a")
    get_peer("trafilatura", header=False)(html, "https://example.org/a")
    return os.getpid()


# ------------------------------------------------------------------------------- measurements


def _pack(datasets, folder: Path, parts: int) -> dict[str, tuple[list[Path], dict[str, str]]]:
    from pagesieve_dev.evaluation.warc_fixture import write_dataset_warcs

    out = {}
    for ds in datasets:
        target = folder / "warc" / ds.name
        urls = write_dataset_warcs(ds, target, parts=parts)
        out[ds.name] = (sorted(target.glob("*.warc.gz")), urls)
    return out


def _worker_cpu() -> float:
    """User + system CPU seconds of this worker process so far, with those of the page
    processes it forked and reaped (:class:`~pagesieve.crawl.guard.PageGuard`)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _worker_rss_kib() -> int:
    """Peak resident memory (KiB) of this worker and of its reaped page processes."""
    from pagesieve.crawl.guard import peak_rss_kib

    return peak_rss_kib()


def _trafilatura_job(client, files: list[Path]) -> int:
    from distributed import wait

    from pagesieve.crawl.cluster import largest_first

    paths = [str(f) for f in files]
    futures = client.map(trafilatura_part, [paths[i] for i in largest_first(paths)], pure=False)  # as the batch job orders them
    wait(futures)
    return sum(r["pages"] for r in client.gather(futures))


def _trafilatura_label() -> str:
    from importlib.metadata import version

    return f"trafilatura {version('trafilatura')}"


def _speed(files: list[Path], worker_counts: list[int], work: Path, repeat: int) -> list[dict]:
    """Time each extractor at each worker count on a cluster of its own of that many
    processes, every run interleaved (for each of ``repeat`` rounds, for each worker count:
    pagesieve, pagesieve --single-page, trafilatura), so that a change of the load of the shared
    machine touches all the runs alike, the worker counts included (the ratio of two worker
    counts is a figure of the issue); the fastest of the ``repeat`` runs of each is kept, and
    the least CPU time of them (the slower runs are the ones disturbed), and the largest peak
    RSS of each worker. Each run has a fresh cluster, started and warmed up before the clock and
    closed after it, and no other cluster is up: a local cluster's scheduler runs in this
    process, whose event loops take CPU time from the workers (with the six clusters of 1 and 2
    workers up at once, the two-worker template run took 32.3 s, and 24.9 s on a cluster alone
    just after; 2026-11-26)."""
    from distributed import Client

    from pagesieve.crawl.cluster import local_cluster
    from pagesieve.crawl.job import BatchOptions, run_batch

    def batch(single: bool, workers: int):
        def job(client) -> int:
            out = work / f"speed-{workers}-{int(single)}"
            shutil.rmtree(out, ignore_errors=True)
            return run_batch(BatchOptions(inputs=[str(f) for f in files], out_dir=out, single_page=single,
                                          progress=False), client=client).pages
        return job

    labels = ("pagesieve batch (templates)", "pagesieve batch --single-page", _trafilatura_label())
    best: dict = {}
    rss: dict = {}
    for _ in range(repeat):
        for workers in worker_counts:
            jobs = (batch(False, workers), batch(True, workers), lambda client: _trafilatura_job(client, files))
            for label, job in zip(labels, jobs):
                client = Client(local_cluster(workers))  # the same cluster as pagesieve batch starts
                try:
                    client.run(warm_up)
                    cpu0 = sum(client.run(_worker_cpu).values())
                    t0 = time.perf_counter()
                    pages = job(client)
                    seconds = time.perf_counter() - t0
                    cpu = sum(client.run(_worker_cpu).values()) - cpu0
                    old = best.get((label, workers), (pages, seconds, cpu))
                    best[label, workers] = (pages, min(seconds, old[1]), min(cpu, old[2]))  # each the least of the runs
                    mib = sorted(round(v / 1024, 1) for v in client.run(_worker_rss_kib).values())
                    rss[label, workers] = [max(a, b) for a, b in zip(mib, rss.get((label, workers), mib))]
                finally:
                    cluster = client.cluster
                    client.close()
                    cluster.close()
    rows = []
    for workers in worker_counts:
        for label in labels:
            pages, seconds, cpu = best[label, workers]
            rows.append({"extractor": label, "workers": workers, "pages": pages, "seconds": round(seconds, 2),
                         "worker_cpu_seconds": round(cpu, 2), "rss_mib": rss[label, workers]})
    return rows


def _command(argv: list[str]) -> tuple[float, float]:
    """Run ``argv`` to its end; ``(wall seconds, CPU seconds of it and its reaped descendants)``.

    Raises:
        RuntimeError: it exits with a status other than 0 (its standard error is in the message).
    """
    import subprocess

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited with {done.returncode}: {done.stderr[-2000:]}")
    return seconds, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def _one_file_speed(path: Path, worker_counts: list[int], work: Path, repeat: int) -> list[dict]:
    """Time the whole command on ONE WARC file, as a user runs it: ``python3 -m pagesieve batch
    FILE --out DIR --workers N`` (with the crawl's templates, and ``--single-page``), and
    trafilatura over a process pool of N processes reading the same file
    (:func:`trafilatura_pool_main`), each a fresh process (interpreter, imports, cluster or pool
    start and model load inside the clock), interleaved: for each of ``repeat`` rounds, for each
    worker count, the three in turn. The fastest run of each is kept, and its least CPU time;
    every run's seconds, round by round, are kept too (``round_seconds``, for
    :func:`round_ratios`)."""
    import sys

    from pagesieve.crawl.parts import PART_RECORDS

    env_python = sys.executable
    labels = ("pagesieve batch (templates)", "pagesieve batch --single-page", _trafilatura_label())
    best: dict = {}
    for _ in range(repeat):
        for workers in worker_counts:
            for label in labels:
                out = work / f"one-{workers}-{labels.index(label)}"
                shutil.rmtree(out, ignore_errors=True)
                if label.startswith("pagesieve"):
                    argv = [env_python, "-m", "pagesieve", "batch", str(path), "--out", str(out), "--workers",
                            str(workers), "--no-progress"] + (["--single-page"] if "single" in label else [])
                else:
                    out.mkdir(parents=True)
                    argv = [env_python, "-c", "import sys; from pagesieve_dev.evaluation.bench_batch import "
                            "trafilatura_pool_main as m; sys.exit(m(sys.argv[1:]))", str(path), str(workers),
                            str(PART_RECORDS), str(out / "pool.json")]
                seconds, cpu = _command(argv)
                if label.startswith("pagesieve"):
                    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
                    pages, rss = summary["pages"], sorted(summary["max_rss_mib_per_worker"].values())
                    parts = summary["parts"]
                else:
                    pool = json.loads((out / "pool.json").read_text(encoding="utf-8"))
                    pages, rss, parts = pool["pages"], pool["rss_mib"], None
                old = best.get((label, workers))
                if old is None or seconds < old["seconds"]:
                    best[label, workers] = {"extractor": label, "workers": workers, "pages": pages, "parts": parts,
                                            "seconds": round(seconds, 2), "worker_cpu_seconds": round(cpu, 2),
                                            "rss_mib": rss,
                                            "round_seconds": (old or {}).get("round_seconds", []) + [round(seconds, 2)]}
                else:
                    old["worker_cpu_seconds"] = round(min(old["worker_cpu_seconds"], cpu), 2)
                    old["round_seconds"].append(round(seconds, 2))
    return [best[label, workers] for workers in worker_counts for label in labels]


def round_ratios(rows: list[dict]) -> list[dict]:
    """The speed-ups of :func:`_one_file_speed`'s rows taken round by round: for each pagesieve
    extractor and worker count, its time against trafilatura's pool of the same size in the same
    round, and (above the fewest workers) against its own time on the fewest workers in the same
    round; each list in round order, with its median.

    The table's ratios divide the fastest runs, which may fall in different rounds; on a machine
    shared with other work, whose speed drifts from minute to minute, the runs of one round,
    made one right after the other, share more of the same conditions (the project's rule:
    timings are compared as ratios within one run, interleaved).

    Returns:
        ``[{"extractor", "workers", "x_trafilatura": [...], "x_trafilatura_median",
        "x_fewest": [...] or None, "x_fewest_median" or None}]``, in the rows' order.

    Raises:
        ValueError: the rows do not all have the same number of rounds.
    """
    from statistics import median

    by = {(r["extractor"], r["workers"]): r["round_seconds"] for r in rows}
    if len({len(v) for v in by.values()}) > 1:
        raise ValueError("the rows do not all have the same number of rounds")
    fewest = min(r["workers"] for r in rows)
    traf = {r["workers"]: r["round_seconds"] for r in rows if not r["extractor"].startswith("pagesieve")}
    out = []
    for r in rows:
        if not r["extractor"].startswith("pagesieve"):
            continue
        own = r["round_seconds"]
        x_traf = [round(t / s, 3) for t, s in zip(traf[r["workers"]], own)]
        x_fewest = None
        if r["workers"] != fewest:
            x_fewest = [round(f / s, 3) for f, s in zip(by[r["extractor"], fewest], own)]
        out.append({"extractor": r["extractor"], "workers": r["workers"], "x_trafilatura": x_traf,
                    "x_trafilatura_median": round(median(x_traf), 3), "x_fewest": x_fewest,
                    "x_fewest_median": round(median(x_fewest), 3) if x_fewest else None})
    return out


def _score(dataset, out_dir: Path, urls: dict[str, str], ids: list[str]) -> tuple[float, int]:
    """Macro F1 of the rows of a batch output over ``ids``; a page with no row scores 0. A row's
    text is the body: where the truth keeps the headline, the row's title goes in front
    (:func:`~pagesieve_dev.evaluation.scoring.scored_text`; a row holds no byline line)."""
    from pagesieve.crawl.output import read_part
    from pagesieve_dev.evaluation.datasets import read_truth
    from pagesieve_dev.evaluation.metric import macro, prf
    from pagesieve_dev.evaluation.scoring import Answer, keeps_headline, scored_text

    answer_of: dict[str, Answer] = {}
    for part in sorted((out_dir / "parts").glob("*.parquet")):
        for row in read_part(part).select(["url", "title", "text"]).to_pylist():
            answer_of[row["url"]] = Answer(row["text"] or "", (row["title"],) if row["title"] else ())
    scores = []
    for i in ids:
        truth = read_truth(dataset, i)
        if not truth.strip():
            continue
        scores.append(prf(scored_text(answer_of.get(urls[i]), keeps_headline(dataset.record(i))), truth))
    return macro(scores)[2], len(scores)


def _accuracy(datasets, packed, work: Path, workers: int) -> list[dict]:
    from pagesieve.crawl.cluster import close_client, open_client
    from pagesieve.crawl.job import BatchOptions, run_batch
    from pagesieve_dev.evaluation.selection import default_split_file, load_split, select_ids

    split_file = default_split_file()
    split = load_split(split_file) if split_file and split_file.exists() else None
    rows = []
    client = open_client(workers=workers)
    try:
        for ds in datasets:
            files, urls = packed[ds.name]
            row = {"dataset": ds.name, "pages": len(urls)}
            held_out = select_ids(ds, split) if split else []
            for label, single in (("template", False), ("single", True)):
                out = work / f"accuracy-{ds.name}-{label}"
                shutil.rmtree(out, ignore_errors=True)
                summary = run_batch(BatchOptions(inputs=[str(f) for f in files], out_dir=out, single_page=single,
                                                 progress=False), client=client)
                row[f"{label}_all"], row["n_all"] = _score(ds, out, urls, ds.ids)
                if held_out:
                    row[f"{label}_held_out"], row["n_held_out"] = _score(ds, out, urls, held_out)
                if not single:
                    row["template_pages"] = summary.template_pages
                    row["sites_with_templates"] = summary.sites_with_templates
            rows.append(row)
    finally:
        close_client(client)
    return rows


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
        packed = _pack(datasets, work, args.parts)
        all_files = [f for files, _ in packed.values() for f in files]
        n_pages = sum(len(u) for _, u in packed.values())
        print(f"{n_pages} pages of {', '.join(d.name for d in datasets)} in {len(all_files)} WARC files "
              f"({sum(f.stat().st_size for f in all_files) / 1e6:.1f} MB); {os.cpu_count()} cores")
        if not args.no_speed:
            speed = _speed(all_files, args.workers, work, max(args.repeat, 1))
            figures["speed"] = speed
            base = {r["extractor"]: r["pages"] / r["seconds"] for r in speed if r["workers"] == min(args.workers)}
            table = [("extractor", "workers", "pages", "seconds", "pages/s", "pages/s per core", "pages per CPU-s",
                      "x trafilatura", "x trafilatura per CPU-s", f"x {min(args.workers)} worker(s)",
                      "peak RSS per worker MiB")]
            traf = {r["workers"]: r["pages"] / r["seconds"] for r in speed if r["extractor"].startswith("trafilatura")}
            traf_cpu = {r["workers"]: r["pages"] / r["worker_cpu_seconds"] for r in speed
                        if r["extractor"].startswith("trafilatura") and r["worker_cpu_seconds"]}
            for r in speed:
                rate = r["pages"] / r["seconds"]
                r["pages_per_s"] = round(rate, 2)
                r["pages_per_cpu_s"] = round(r["pages"] / r["worker_cpu_seconds"], 2) if r["worker_cpu_seconds"] else None
                table.append((r["extractor"], str(r["workers"]), str(r["pages"]), f"{r['seconds']:.1f}", f"{rate:.1f}",
                              f"{rate / r['workers']:.1f}", f"{r['pages_per_cpu_s']:.1f}" if r["pages_per_cpu_s"] else "-",
                              f"{rate / traf[r['workers']]:.2f}",
                              f"{r['pages_per_cpu_s'] / traf_cpu[r['workers']]:.2f}" if r["pages_per_cpu_s"] and r["workers"] in traf_cpu else "-",
                              f"{rate / base[r['extractor']]:.2f}",
                              " / ".join(f"{v:.0f}" for v in r["rss_mib"])))
            print("\nSpeed (whole job wall time, fastest of --repeat runs on a warmed-up cluster; pages per CPU-s:"
                  " pages / CPU seconds of all workers, what a core not shared with other work gives):")
            print(format_table(table))
            print(f"load average while measuring (1, 5, 15 min): {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
        if not args.no_accuracy:
            acc = _accuracy(datasets, packed, work, max(args.workers))
            figures["accuracy"] = acc
            table = [("dataset", "pages", "template pages", "F1 template", "F1 single page", "gain",
                      "held-out pages", "F1 template (held out)", "F1 single (held out)", "gain (held out)")]
            for r in acc:
                ho = "n_held_out" in r
                table.append((r["dataset"], str(r["n_all"]), str(r["template_pages"]), f"{r['template_all']:.3f}",
                              f"{r['single_all']:.3f}", f"{r['template_all'] - r['single_all']:+.3f}",
                              str(r.get("n_held_out", "-")),
                              f"{r['template_held_out']:.3f}" if ho else "-", f"{r['single_held_out']:.3f}" if ho else "-",
                              f"{r['template_held_out'] - r['single_held_out']:+.3f}" if ho else "-"))
            print("\nAccuracy (token F1, macro mean over pages; held out: the split's test pages):")
            print(format_table(table))
        if args.json:
            args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


def _one_file_main(args: argparse.Namespace, work: Path, figures: dict) -> int:
    """``--one-file``: build the mixed WARC file, time the whole commands, print the table."""
    from pagesieve_dev.evaluation.args import resolve_dataset_dir
    from pagesieve_dev.evaluation.datasets import load_dataset
    from pagesieve_dev.evaluation.warc_fixture import MIXED_PAGES, write_mixed_warc

    path = work / "warc" / "ONE.warc.gz"
    urls = write_mixed_warc([(load_dataset(resolve_dataset_dir(name)), n) for name, n in MIXED_PAGES], path)
    print(f"ONE WARC file of {len(urls)} pages ({', '.join(f'{name} {n}' for name, n in MIXED_PAGES)}), "
          f"{path.stat().st_size / 1e6:.1f} MB; {os.cpu_count()} cores")
    rows = _one_file_speed(path, args.workers, work, max(args.repeat, 1))
    figures["one_file"] = rows
    traf = {r["workers"]: r for r in rows if r["extractor"].startswith("trafilatura")}
    first = {r["extractor"]: r for r in rows if r["workers"] == min(args.workers)}
    table = [("extractor", "workers", "parts", "seconds", "pages/s", "pages per CPU-s", "x trafilatura",
              "x trafilatura per CPU-s", f"x {min(args.workers)} worker(s)", "peak RSS per worker MiB")]
    for r in rows:
        rate = r["pages"] / r["seconds"]
        per_cpu = r["pages"] / r["worker_cpu_seconds"] if r["worker_cpu_seconds"] else 0.0
        t = traf[r["workers"]]
        t_cpu = t["pages"] / t["worker_cpu_seconds"] if t["worker_cpu_seconds"] else 0.0
        table.append((r["extractor"], str(r["workers"]), str(r["parts"] or "-"), f"{r['seconds']:.1f}", f"{rate:.1f}",
                      f"{per_cpu:.1f}", f"{rate / (t['pages'] / t['seconds']):.2f}",
                      f"{per_cpu / t_cpu:.2f}" if t_cpu else "-",
                      f"{rate / (first[r['extractor']]['pages'] / first[r['extractor']]['seconds']):.2f}",
                      " / ".join(f"{v:.0f}" for v in r["rss_mib"])))
    print("\nWhole command on one file (wall time from start to exit, fastest of --repeat interleaved runs; "
          "CPU: the command and all its processes):")
    print(format_table(table))
    rounds = round_ratios(rows)
    figures["one_file_rounds"] = rounds
    print("\nRound by round (the runs of each round one right after the other; median of the rounds):")
    fewest = min(args.workers)
    for r in rounds:
        line = (f"  {r['extractor']}, {r['workers']} worker(s): x trafilatura "
                f"{' '.join(f'{v:.2f}' for v in r['x_trafilatura'])} (median {r['x_trafilatura_median']:.2f})")
        if r["x_fewest"]:
            line += (f"; x {fewest} worker(s) {' '.join(f'{v:.2f}' for v in r['x_fewest'])} "
                     f"(median {r['x_fewest_median']:.2f})")
        print(line)
    print(f"load average while measuring (1, 5, 15 min): {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return 0
