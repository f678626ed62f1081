"""The tables ``pagesieve-dev bench-batch`` prints (:mod:`pagesieve_dev.evaluation.bench_batch`):
speed on the datasets' WARC files (:func:`print_speed`), accuracy with templates against single
page (:func:`print_accuracy`), and the whole command on one file (:func:`print_one_file`).
"""

from __future__ import annotations

import os

from pagesieve.table import format_table


def print_load_average() -> None:
    """Print the machine's load average over 1, 5 and 15 minutes."""
    print(f"load average while measuring (1, 5, 15 min): {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


def print_speed(speed: list[dict], worker_counts: list[int]) -> None:
    """Print the speed table of
    :func:`~pagesieve_dev.evaluation.bench_batch_speed.cluster_speed`'s rows, each against
    trafilatura at the same worker count and against itself on the fewest workers, then the
    load average. Adds to each row its ``pages_per_s`` and ``pages_per_cpu_s`` (``None``
    without CPU time), which the JSON figures keep."""
    base = {r["extractor"]: r["pages"] / r["seconds"] for r in speed if r["workers"] == min(worker_counts)}
    table = [("extractor", "workers", "pages", "seconds", "pages/s", "pages/s per core", "pages per CPU-s",
              "x trafilatura", "x trafilatura per CPU-s", f"x {min(worker_counts)} worker(s)",
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
    print_load_average()


def print_accuracy(acc: list[dict]) -> None:
    """Print the accuracy table of
    :func:`~pagesieve_dev.evaluation.bench_batch_accuracy.batch_accuracy`'s rows: token F1 with
    templates and single page, and the gain, over all pages and the held-out ones."""
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


def print_one_file(rows: list[dict], worker_counts: list[int]) -> None:
    """Print the table of
    :func:`~pagesieve_dev.evaluation.bench_batch_speed.one_file_speed`'s rows: pages/s and pages
    per CPU second, each against trafilatura's pool of the same size and against itself on the
    fewest workers, and the peak RSS per worker."""
    traf = {r["workers"]: r for r in rows if r["extractor"].startswith("trafilatura")}
    first = {r["extractor"]: r for r in rows if r["workers"] == min(worker_counts)}
    table = [("extractor", "workers", "parts", "seconds", "pages/s", "pages per CPU-s", "x trafilatura",
              "x trafilatura per CPU-s", f"x {min(worker_counts)} worker(s)", "peak RSS per worker MiB")]
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


def print_rounds(rounds: list[dict], fewest: int) -> None:
    """Print :func:`~pagesieve_dev.evaluation.bench_batch_speed.round_ratios`'s ratios, round by
    round with their medians (against ``fewest`` workers where given)."""
    print("\nRound by round (the runs of each round one right after the other; median of the rounds):")
    for r in rounds:
        line = (f"  {r['extractor']}, {r['workers']} worker(s): x trafilatura "
                f"{' '.join(f'{v:.2f}' for v in r['x_trafilatura'])} (median {r['x_trafilatura_median']:.2f})")
        if r["x_fewest"]:
            line += (f"; x {fewest} worker(s) {' '.join(f'{v:.2f}' for v in r['x_fewest'])} "
                     f"(median {r['x_fewest_median']:.2f})")
        print(line)
