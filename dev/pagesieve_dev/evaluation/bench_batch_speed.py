"""The timing runs of ``pagesieve-dev bench-batch`` (:mod:`pagesieve_dev.evaluation.bench_batch`).

:func:`cluster_speed`: ``pagesieve batch`` (with templates, and ``--single-page``) and
trafilatura (:mod:`pagesieve_dev.evaluation.bench_batch_peer`), each on a warmed-up
:class:`distributed.LocalCluster` of its own, the job timed from submission to the last part.
:func:`one_file_speed`: the whole commands as a user runs them on one WARC file, each a fresh
process. Both interleave every run (for each round, for each worker count, the three in turn)
and keep the fastest; :func:`round_ratios` pairs the runs of each round.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import time
from pathlib import Path

from pagesieve_dev.evaluation.bench_batch_peer import trafilatura_label, trafilatura_part, warm_up


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


def _batch_job(files: list[Path], work: Path, single: bool, workers: int):
    """A job for :func:`_run_on_cluster`: ``pagesieve batch`` (``single``: ``--single-page``) on
    ``files`` into a fresh folder under ``work``; returns its pages."""
    from pagesieve.crawl.job import BatchOptions, run_batch

    def job(client) -> int:
        out = work / f"speed-{workers}-{int(single)}"
        shutil.rmtree(out, ignore_errors=True)
        return run_batch(BatchOptions(inputs=[str(f) for f in files], out_dir=out, single_page=single,
                                      progress=False), client=client).pages
    return job


def _run_on_cluster(workers: int, job) -> tuple[int, float, float, list[float]]:
    """Run ``job(client)`` on a fresh local cluster of ``workers`` processes, started and warmed up
    before the clock and closed after it.

    Returns:
        ``(pages, wall seconds, CPU seconds of the workers and their page processes, peak RSS
        MiB of each worker sorted)``.
    """
    from distributed import Client

    from pagesieve.crawl.cluster import local_cluster

    client = Client(local_cluster(workers))  # the same cluster as pagesieve batch starts
    try:
        client.run(warm_up)
        cpu0 = sum(client.run(_worker_cpu).values())
        t0 = time.perf_counter()
        pages = job(client)
        seconds = time.perf_counter() - t0
        cpu = sum(client.run(_worker_cpu).values()) - cpu0
        mib = sorted(round(v / 1024, 1) for v in client.run(_worker_rss_kib).values())
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()
    return pages, seconds, cpu, mib


def cluster_speed(files: list[Path], worker_counts: list[int], work: Path, repeat: int) -> list[dict]:
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
    just after; 2026-11-26).

    Returns:
        Per worker count, per extractor: ``{"extractor", "workers", "pages", "seconds",
        "worker_cpu_seconds", "rss_mib": [per worker]}``.
    """
    labels = ("pagesieve batch (templates)", "pagesieve batch --single-page", trafilatura_label())
    best: dict = {}
    rss: dict = {}
    for _ in range(repeat):
        for workers in worker_counts:
            jobs = (_batch_job(files, work, False, workers), _batch_job(files, work, True, workers),
                    lambda client: _trafilatura_job(client, files))
            for label, job in zip(labels, jobs):
                pages, seconds, cpu, mib = _run_on_cluster(workers, job)
                old = best.get((label, workers), (pages, seconds, cpu))
                best[label, workers] = (pages, min(seconds, old[1]), min(cpu, old[2]))  # each the least of the runs
                rss[label, workers] = [max(a, b) for a, b in zip(mib, rss.get((label, workers), mib))]
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


def _one_file_run(label: str, path: Path, out: Path, workers: int) -> tuple[float, float, int, list[float], int | None]:
    """One whole command of :func:`one_file_speed`, writing into ``out`` (emptied first).

    Returns:
        ``(wall seconds, CPU seconds, pages, peak RSS MiB per worker sorted, parts or None)``.
    """
    import sys

    from pagesieve.crawl.parts import PART_RECORDS

    shutil.rmtree(out, ignore_errors=True)
    if label.startswith("pagesieve"):
        argv = [sys.executable, "-m", "pagesieve", "batch", str(path), "--out", str(out), "--workers",
                str(workers), "--no-progress"] + (["--single-page"] if "single" in label else [])
    else:
        out.mkdir(parents=True)
        argv = [sys.executable, "-c", "import sys; from pagesieve_dev.evaluation.bench_batch_peer import "
                "trafilatura_pool_main as m; sys.exit(m(sys.argv[1:]))", str(path), str(workers),
                str(PART_RECORDS), str(out / "pool.json")]
    seconds, cpu = _command(argv)
    if label.startswith("pagesieve"):
        summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
        return seconds, cpu, summary["pages"], sorted(summary["max_rss_mib_per_worker"].values()), summary["parts"]
    pool = json.loads((out / "pool.json").read_text(encoding="utf-8"))
    return seconds, cpu, pool["pages"], pool["rss_mib"], None


def one_file_speed(path: Path, worker_counts: list[int], work: Path, repeat: int) -> list[dict]:
    """Time the whole command on ONE WARC file, as a user runs it: ``python3 -m pagesieve batch
    FILE --out DIR --workers N`` (with the crawl's templates, and ``--single-page``), and
    trafilatura over a process pool of N processes reading the same file
    (:func:`~pagesieve_dev.evaluation.bench_batch_peer.trafilatura_pool_main`), each a fresh
    process (interpreter, imports, cluster or pool start and model load inside the clock),
    interleaved: for each of ``repeat`` rounds, for each worker count, the three in turn. The
    fastest run of each is kept, and its least CPU time; every run's seconds, round by round,
    are kept too (``round_seconds``, for :func:`round_ratios`).

    Returns:
        Per worker count, per extractor: ``{"extractor", "workers", "pages", "parts",
        "seconds", "worker_cpu_seconds", "rss_mib", "round_seconds"}``.

    Raises:
        RuntimeError: a command fails (:func:`_command`).
    """
    labels = ("pagesieve batch (templates)", "pagesieve batch --single-page", trafilatura_label())
    best: dict = {}
    for _ in range(repeat):
        for workers in worker_counts:
            for label in labels:
                out = work / f"one-{workers}-{labels.index(label)}"
                seconds, cpu, pages, rss, parts = _one_file_run(label, path, out, workers)
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
    """The speed-ups of :func:`one_file_speed`'s rows taken round by round: for each pagesieve
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
