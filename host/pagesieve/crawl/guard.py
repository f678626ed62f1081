"""Every page of ``pagesieve batch`` under a time limit: a page that hangs the extractor is skipped.

A page can make an extractor run for minutes (HTML nested thousands of levels deep, a megabyte
of inline elements, a pathological regular expression input), and much of that time is spent
in C (libxml2, ``re``), where no Python-level timer can interrupt it. :class:`PageGuard` runs
the work of each page in a child process forked from the worker (so it shares the loaded model
and imports, copy-on-write: nothing is loaded again), and waits for its answer at most
``timeout`` seconds; past that the child is killed (``SIGKILL``), the page is reported with
:class:`PageTimeout`, and a new child is forked for the next page. One child serves a whole
part; pages cross the pipe as pickles (a few tens of microseconds a page).

The child's CPU time and peak memory count in the worker's own figures once it is reaped
(``os.times().children_*``, ``getrusage(RUSAGE_CHILDREN)``): :func:`peak_rss_kib` reads both.
"""

from __future__ import annotations

import os
import resource
import signal
from collections.abc import Callable
from multiprocessing.connection import Pipe

PAGE_TIMEOUT = 30.0
"""Default limit (seconds of wall time) for one page. The pages of ``../shared/datasets`` take
2 to 60 ms each (the largest, 4 MB, under 2 s) on this project's machine; a page that takes 30 s
is a pathological one, and a limit this far above the normal keeps a loaded machine (where wall
time stretches) from timing out real pages. Common Crawl's own pages are cut at 1 MiB."""


STALL_URL_ENV = "PAGESIEVE_TEST_STALL_URL"
"""A test hook: where this environment variable is set in a page process, the page whose URL it
holds makes the process wait (:data:`STALL_SECONDS`) before its work, so that the per-page limit
is tested on a page slow by construction, whatever the machine's speed. Read only in the page
process, whose sole effect is a wait that the limit then ends; unset, nothing changes."""

STALL_SECONDS = 3600.0
"""How long a page process waits on the page :data:`STALL_URL_ENV` names: far past any limit."""


class PageTimeout(Exception):
    """The page took longer than the limit; its worker process was killed."""


class ExtractorDied(Exception):
    """The child process died on the page (a crash in C code, or killed by the system)."""


def peak_rss_kib() -> int:
    """The largest peak resident memory (KiB) of this process and of its reaped children."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return max(own, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)


def portable_error(exc: BaseException) -> Exception:
    """``exc`` if it can cross a pipe between processes (pickled), else a RuntimeError naming it."""
    import pickle

    try:
        pickle.loads(pickle.dumps(exc))
        return exc if isinstance(exc, Exception) else RuntimeError(f"{type(exc).__name__}: {exc}")
    except Exception:  # noqa: BLE001 - an exception that cannot be pickled
        return RuntimeError(f"{type(exc).__name__}: {exc}")


class PageGuard:
    """Calls ``work(item)`` in a forked child process, at most ``timeout`` seconds each.

    Args:
        work: the function (any callable: the child is forked, nothing is pickled but the
            items and results).
        timeout: seconds of wall time per call; ``None`` or ``0`` calls ``work`` in this
            process, without a limit.

    Use as a context manager (the child is reaped at the end). ``guard(item)`` returns what
    ``work`` returns, or raises what it raised, :class:`PageTimeout`, or :class:`ExtractorDied`.
    """

    def __init__(self, work: Callable, timeout: float | None = PAGE_TIMEOUT) -> None:
        self.work = work
        self.timeout = timeout if timeout and timeout > 0 else None
        self._pid: int | None = None
        self._conn = None
        self.timeouts = 0

    def __enter__(self) -> PageGuard:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __call__(self, item):
        if self.timeout is None:
            return self.work(item)
        if self._pid is None:
            self._start()
        try:
            self._conn.send(item)
            ready = self._conn.poll(self.timeout)
        except (BrokenPipeError, ConnectionResetError, EOFError):
            self._stop(kill=True)
            raise ExtractorDied("the extractor process died") from None
        if not ready:
            self._stop(kill=True)
            self.timeouts += 1
            raise PageTimeout(f"over {self.timeout:g} s")
        try:
            ok, value = self._conn.recv()
        except (EOFError, ConnectionResetError):
            status = self._stop(kill=False)
            raise ExtractorDied(f"the extractor process died ({_status(status)})") from None
        if ok:
            return value
        raise value

    def close(self) -> None:
        """End the child (it finishes when its pipe closes) and reap it."""
        if self._pid is not None:
            self._stop(kill=False)

    def _start(self) -> None:
        parent, child = Pipe(duplex=True)
        pid = os.fork()
        if pid == 0:  # the child: serve items until the pipe closes, never return
            code = 0
            try:
                parent.close()
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                _quiet_gc()
                _serve(child, self.work)
            except BaseException:  # noqa: BLE001 - the parent sees the pipe close
                code = 1
            finally:
                os._exit(code)
        child.close()
        self._pid, self._conn = pid, parent

    def _stop(self, kill: bool) -> int:
        pid, conn = self._pid, self._conn
        self._pid = self._conn = None
        if kill:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        conn.close()
        _, status = os.waitpid(pid, 0)
        return status


PAGE_GC_THRESHOLD = (100_000, 50, 100)
"""The page process's garbage collector thresholds (``gc.set_threshold``; Python's defaults are
700, 10, 10). Judging a page allocates hundreds of thousands of objects and few reference
cycles, so the defaults ran a collection every few hundred allocations: 1.5 s of the 28 CPU
seconds of the fixture crawl's learn pass (3,274 collections), 0.14 s with these (77)."""


def _quiet_gc() -> None:
    """In the page process: what it inherited is frozen (never scanned, never copied on
    write by the collector) and collections are rarer (:data:`PAGE_GC_THRESHOLD`)."""
    import gc

    gc.freeze()
    gc.set_threshold(*PAGE_GC_THRESHOLD)


def _page_url(item) -> str | None:
    """The URL of the page an item of work is about: the item's ``url``, or that of its first
    member (a ``(page, ...)`` job)."""
    if isinstance(item, tuple) and item:
        item = item[0]
    return getattr(item, "url", None)


def _serve(conn, work: Callable) -> None:
    while True:
        try:
            item = conn.recv()
        except EOFError:
            return
        stall = os.environ.get(STALL_URL_ENV)
        if stall and _page_url(item) == stall:  # the test hook: a page slow by construction
            import time

            time.sleep(STALL_SECONDS)
        try:
            answer = (True, work(item))
        except Exception as exc:  # noqa: BLE001 - sent back, raised in the parent
            answer = (False, portable_error(exc))
        try:
            conn.send(answer)
        except Exception as exc:  # noqa: BLE001 - a result that cannot be pickled
            conn.send((False, portable_error(exc)))


def _status(status: int) -> str:
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            return f"signal {signal.Signals(sig).name}"
        except ValueError:
            return f"signal {sig}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"
