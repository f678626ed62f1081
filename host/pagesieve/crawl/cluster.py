"""The Dask side of ``pagesieve batch`` (:mod:`pagesieve.crawl.job`): the client and its
cluster (a local one started here, or one given with ``--scheduler``), and one pass's tasks
run on it: submitted at once, largest first and queued at the scheduler, their results
collected under a progress bar.

Needs ``distributed`` (the ``batch`` extra), imported only when a function needs it.
"""

from __future__ import annotations

import os
import sys
import time


def open_client(scheduler: str | None = None, workers: int | None = None):
    """A ``distributed.Client``: to ``scheduler``, or to a new local cluster of ``workers``
    single-threaded worker processes (default ``os.cpu_count()``). Close it with
    :func:`close_client`.

    Raises:
        ImportError: ``distributed`` is not installed (``pip install 'pagesieve[batch]'``).
        OSError: the scheduler cannot be reached.
    """
    from distributed import Client

    if scheduler:
        return Client(scheduler, timeout="20s")
    return Client(local_cluster(workers or os.cpu_count() or 1))


WORKER_SATURATION = 1.0
"""Tasks of a pass the scheduler hands a worker thread at a time (Dask's
``distributed.scheduler.worker-saturation``, default 1.1, which rounds up to two a thread): one,
so that the rest wait in the scheduler's queue and go to whichever worker frees first. With two,
each worker held the next part in its own queue, and at the end of the learn pass one worker
ran its last two parts while the other stood idle: 3.6 s of a 28.0 s two-worker job on the 12
files of ``pagesieve-dev bench-batch`` (``distributed.get_task_stream``, 2026-11-26). With one,
the two workers' last learn tasks ended 0.9 s apart, and no worker held a task waiting. Dask
queues only the tasks of a task group larger than twice the threads (its "root-ish" tasks):
hence :func:`task_key` and :func:`submit_pass`. A cluster given with ``--scheduler`` needs the
setting in its own configuration (:func:`saturation_hint`)."""


def task_key(label: str, name: str) -> str:
    """The Dask key of a pass's task: ``label``, a unique number, then the part's ``name``
    (``"learn-1795724503691042153-big9-00-45cbbbb5"``). Dask groups tasks by the words of a key
    before its first one that is not alphabetic (``distributed.utils.key_split``), so all the
    tasks of a pass form one group, ``label``, whatever the part names, and are queued at the
    scheduler (:data:`WORKER_SATURATION`); with the name first, the files of each dataset
    (``learn-daniel``) made groups too small to queue, assigned to workers at submission."""
    return f"{label}-{time.time_ns()}-{name}"


def _scheduler_saturation(dask_scheduler) -> float:
    return float(dask_scheduler.WORKER_SATURATION)


def saturation_hint(client) -> str | None:
    """The note for a cluster (``--scheduler``) whose scheduler hands a worker thread more than
    one task of a pass (``worker-saturation`` above :data:`WORKER_SATURATION`, ``inf`` with
    queuing off), with the setting that fixes it; ``None`` when it does not, or when the
    scheduler cannot be asked (``run_on_scheduler`` refused)."""
    try:
        value = client.run_on_scheduler(_scheduler_saturation)
    except Exception:  # noqa: BLE001 - a hint is never worth failing the job
        return None
    if value <= WORKER_SATURATION:
        return None
    return (f"pagesieve: note: this cluster's scheduler gives each worker thread more than one part at a time "
            f"(distributed.scheduler.worker-saturation {value:g}), so a part may wait on a busy worker while "
            f"another is idle at the end of a pass; start the scheduler with "
            f"DASK_DISTRIBUTED__SCHEDULER__WORKER_SATURATION={WORKER_SATURATION:g} in its environment")


START_METHOD_ENV = "DASK_DISTRIBUTED__WORKER__MULTIPROCESSING_METHOD"
"""Dask's own setting of how worker processes start; when it is set, :func:`local_cluster`
leaves the choice to it."""


CLUSTER_INTERVALS = {
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
}
"""How often the processes of a local cluster (scheduler, nannies and client in the command's
process; the workers) do their periodic checks, in Dask's settings (defaults 20 ms, 100 ms and
500 ms):

- the **tick** checks that an event loop is responsive; a diagnostic only, which warns when a
  tick comes later than ``distributed.admin.tick.limit`` (3 s): a 1 s interval still sees that;
- the **memory monitor**: each nanny reads its worker's memory, to end a worker over 95 % of its
  memory limit (by default the machine's memory shared among the workers), and each worker its
  own. A page cannot grow a worker fast: every page is judged in a forked page process, and a
  record over ``--max-record-bytes`` is skipped (:mod:`pagesieve.crawl.guard`,
  :mod:`pagesieve.crawl.records`); 1 s still ends a worker that leaks;
- the **system monitor** records each process's CPU, memory and network use for Dask's dashboard,
  which a batch job does not show (and which needs bokeh).

An idle local cluster of 2 workers (``/tmp`` script, 10 s after the start, 2026-11-28), CPU-s a
second in the command's process / in each worker: Dask's defaults 0.058-0.070 / 0.022-0.024; with
the tick at 1 s, 0.023-0.027 / 0.008-0.011; with all three, 0.009-0.010 / 0.003-0.004. In a job
whose workers keep both cores busy that CPU is taken from the pages: in three runs of
``pagesieve batch`` on the one-file benchmark's file with 2 workers, the tick alone at 1 s, the
command's process took 1.68 to 1.79 CPU-s instead of 1.87 to 2.48 with the defaults, alternated
(``/proc`` read every 20 ms); the whole command's time moved by less than its run-to-run spread."""


def worker_start_method() -> str | None:
    """How the local cluster starts its worker processes: ``"fork"`` on Linux, unless Dask's
    setting (:data:`START_METHOD_ENV`) says otherwise; ``None`` elsewhere (Dask's default,
    ``spawn``: macOS and Windows have no safe fork).

    Why fork: a spawned worker is a new interpreter that imports Dask, numpy, lxml and
    pagesieve again, and Dask's nanny spawns one more process per worker. Starting and closing a
    local cluster of 2 workers, then loading the model in each (``/tmp`` script, 2026-11-27,
    on this 2-core machine under a load of 6, twice each): spawn 9.3 and 7.0 s, forkserver 5.2
    and 5.6 s, fork 1.9 and 2.7 s. On a 926-page file that is a sixth of the whole two-worker
    command. The fork happens in Dask's event-loop thread before any task runs; the parent
    holds no lock a worker needs (Python re-initialises the logging locks at fork, OpenBLAS
    its threads)."""
    if os.environ.get(START_METHOD_ENV):
        return None
    return "fork" if sys.platform.startswith("linux") else None


def local_cluster(workers: int):
    """A :class:`distributed.LocalCluster` of ``workers`` single-threaded worker processes,
    one task at a time each (:data:`WORKER_SATURATION`), without the workers' statistical
    profiler (a thread that samples the task's stack every 10 ms for the dashboard: CPU taken
    from the pages, and a batch job has no one watching), with its periodic checks spaced out
    (:data:`CLUSTER_INTERVALS`), started as :func:`worker_start_method` says. With fork, the
    modules the tasks run are imported here first, so that no worker imports them again."""
    import logging

    import dask
    from distributed import LocalCluster

    settings = {"distributed.worker.profile.enabled": False,
                **CLUSTER_INTERVALS,
                "distributed.scheduler.worker-saturation": WORKER_SATURATION}
    method = worker_start_method()
    if method is not None:
        settings["distributed.worker.multiprocessing-method"] = method
        import pagesieve.crawl.pages  # noqa: F401 - the tasks' modules, inherited by the forked workers
        import pagesieve.extract  # noqa: F401
    with dask.config.set(settings):
        return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                            silence_logs=logging.ERROR)


def _quiet_dask_logs() -> None:
    """Log only Dask's critical messages in this process (run in each worker by :func:`close_client`)."""
    import logging

    logging.getLogger("distributed").setLevel(logging.CRITICAL)


def close_client(client) -> None:
    """Close the client, and the local cluster it started, if any.

    While a local cluster closes, Dask's own messages below CRITICAL are silenced in its
    workers and in this process (the scheduler's and nannies'), and this process's level is
    restored after. Every result is in by then, yet a worker whose heartbeat is under way when
    the scheduler has gone logs ``Failed to communicate with scheduler during heartbeat`` with a
    traceback (``distributed``'s own race: once in 140 runs of ``pagesieve batch`` alternated on
    1 and 2 workers, 2026-11-28), which told the user of an error where there was none. A
    cluster given with ``--scheduler`` is not closed and keeps its logs."""
    import logging

    cluster = client.cluster
    if cluster is None:
        client.close()
        return
    log = logging.getLogger("distributed")
    level = log.level
    try:
        client.run(_quiet_dask_logs, on_error="ignore")
    except Exception:  # noqa: BLE001 - quieter logs are never worth failing the close
        pass
    log.setLevel(logging.CRITICAL)
    try:
        client.close()
        cluster.close()
    finally:
        log.setLevel(level)


class Progress:
    """A one-line progress bar on standard error; when standard error is no terminal (a
    cluster job's log), a line at each whole percent at most."""

    def __init__(self, label: str, total: int, enabled: bool = True) -> None:
        self.label, self.total, self.done, self.pages = label, total, 0, 0
        self.enabled = enabled and total > 0
        self.tty = sys.stderr.isatty()
        self.t0 = time.perf_counter()
        self._draw()

    def step(self, pages: int = 0) -> None:
        """One more task done, with ``pages`` pages."""
        self.done += 1
        self.pages += pages
        self._draw()

    def _draw(self) -> None:
        if not self.enabled:
            return
        width = 30
        filled = int(width * self.done / self.total)
        rate = self.pages / max(time.perf_counter() - self.t0, 1e-9)
        line = f"{self.label:8s} [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} parts"
        if self.pages:
            line += f", {self.pages} pages, {rate:.1f} pages/s"
        if self.tty:
            print("\r" + line, end="\n" if self.done == self.total else "", file=sys.stderr, flush=True)
        elif self.done and (100 * self.done // self.total > 100 * (self.done - 1) // self.total):
            print(line, file=sys.stderr, flush=True)


def largest_first(paths: list[str], work: list[int] | None = None) -> list[int]:
    """Indices of ``paths`` by work, largest first: ``work`` (pages of each file, from the
    count pass) when given, else the file size. Submitted in that order (:func:`submit_pass`),
    the long parts start first and the short ones fill the gaps at the end of a pass (the
    longest processing time first rule of list scheduling, Graham 1969), so that the pass does
    not wait on one big part started last."""
    def size(i: int) -> int:
        if work is not None:
            return work[i]
        try:
            return os.path.getsize(paths[i])
        except OSError:
            return 0
    return sorted(range(len(paths)), key=lambda i: -size(i))


def submit_pass(client, fn, args_list: list[tuple], label: str, names: list[str], order: list[int]) -> list:
    """Submit ``fn(*args)`` for each args tuple in one ``client.map`` call, in ``order``
    (:func:`largest_first`); returns the futures in the order of ``args_list``.

    One call, so that the scheduler sees the whole pass at once: Dask runs the tasks of one
    ``map`` in the order given (its internal priority), and queues them (one task group larger
    than twice the threads, :func:`task_key`) instead of handing them to workers as they come.
    Submitted one by one, the first four of a 2-worker cluster went two to a worker before the
    group was large enough to queue; and without explicit priorities, tasks submitted within
    ``fifo_timeout`` (100 ms) of each other ran nearly in reverse: on the 12 files of
    ``pagesieve-dev bench-batch`` the smallest parts went first and one worker waited 6.8 s of
    a 37.5 s job on the last big part (``distributed.get_task_stream``, 2 workers, 2026-11-26).
    """
    if not args_list:
        return []
    columns = list(zip(*(args_list[i] for i in order)))
    submitted = client.map(fn, *columns, key=[task_key(label, names[i]) for i in order], pure=False)
    futures: list = [None] * len(args_list)
    for i, future in zip(order, submitted):
        futures[i] = future
    return futures


def run_pass(client, fn, args_list: list[tuple], label: str, progress: bool, pages_of=lambda r: 0,
             keys: list[str] | None = None, work: list[int] | None = None):
    """Submit ``fn(*args)`` for each args tuple (whose first item is the input file), largest
    first (:func:`largest_first` of ``work``, else of the file sizes; :func:`submit_pass`);
    returns ``[result or exception]`` in the order of ``args_list``."""
    order = largest_first([str(args[0]) for args in args_list], work)
    futures = submit_pass(client, fn, args_list, label, [str(k) for k in keys] if keys else
                          [str(i) for i in range(len(args_list))], order)
    return collect(futures, label, progress, pages_of)


def collect(futures: list, label: str, progress: bool, pages_of=lambda r: 0) -> list:
    """Wait for ``futures`` (drawing a progress bar ``label``, counting ``pages_of`` each
    result), release each as it ends, and return ``[result or exception]`` in their order."""
    from distributed import as_completed

    index = {f.key: i for i, f in enumerate(futures)}
    results: list = [None] * len(futures)
    bar = Progress(label, len(futures), progress)
    for future in as_completed(futures):
        i = index[future.key]
        try:
            results[i] = future.result()
        except Exception as exc:  # noqa: BLE001 - one failed part never stops the job
            results[i] = exc
        bar.step(0 if isinstance(results[i], Exception) else pages_of(results[i]))
        future.release()
    return results
