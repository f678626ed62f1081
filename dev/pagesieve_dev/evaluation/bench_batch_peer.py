"""trafilatura's side of ``pagesieve-dev bench-batch`` (:mod:`pagesieve_dev.evaluation.bench_batch`):
the tasks that run on the benchmark's workers and processes.

trafilatura is called as ``pagesieve-dev eval --compare`` calls it
(:mod:`pagesieve_dev.evaluation.peers`) on every HTML page of a WARC file, read with the batch
job's own reader (:func:`~pagesieve.crawl.records.read_warc`) and decoded the same way: one task
per file on a :class:`distributed.LocalCluster` (:func:`trafilatura_part`), or one file cut as
``pagesieve batch`` cuts it over a process pool (:func:`trafilatura_pool`, a command of its own
with :func:`trafilatura_pool_main`). :func:`warm_up` loads both extractors in a worker.
"""

from __future__ import annotations

import json
import os
import resource
import time
from pathlib import Path


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
    :func:`trafilatura_pool` as a command of its own, timed whole by
    :func:`~pagesieve_dev.evaluation.bench_batch_speed.one_file_speed`."""
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


def trafilatura_label() -> str:
    """The peer's name and version as the tables show it (``"trafilatura 2.0.0"``)."""
    from importlib.metadata import version

    return f"trafilatura {version('trafilatura')}"
