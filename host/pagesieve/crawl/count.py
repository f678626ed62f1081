"""The count pass, begun before the local cluster is up.

Opening a local cluster takes 0.5 to 0.8 s here: importing ``distributed`` and the extractor in
the command, so that the forked workers inherit them (0.4 to 0.6 s), then the scheduler and one
nanny and one worker process per worker (0.13 to 0.19 s; ``-X importtime`` and a script,
2026-11-27). The count pass
(:func:`~pagesieve.crawl.parts.cut_file`) cannot begin on it until then; on one file it is a
single task, so it then kept one worker busy and the others idle (0.3 s for the 926-record,
29 MB file of ``pagesieve-dev bench-batch --one-file``). :class:`EarlyCount` forks a child of
the command before the cluster starts and counts the files there, in order, while the cluster
starts: the count of that file was over when the cluster was up (its whole-pass wait 0.30 to
0.43 s after the cluster's start before, 0.00 s with the child; cluster start and count
together 0.52 to 0.68 s against 0.76 to 1.14 s, three runs each, 2026-11-27). When the cluster
is up, :meth:`EarlyCount.take` stops the child after the file it is counting; the files it has
not begun are counted on the cluster as before.

Only for a local cluster on a system with ``fork`` (the child reads the files from the same
disk as the workers); a ``--scheduler`` cluster counts on its workers, which see the files.
"""

from __future__ import annotations

import os
import signal
import sys
from multiprocessing.connection import Pipe

from pagesieve.crawl.guard import portable_error
from pagesieve.crawl.parts import FileCut, cut_file


def can_count_early() -> bool:
    """True where :class:`EarlyCount` can run: a system with ``os.fork`` (Linux; macOS's fork
    is unsafe once system frameworks are loaded: Dask spawns there, and we do not fork)."""
    return hasattr(os, "fork") and sys.platform.startswith("linux")


class EarlyCount:
    """The count of ``files`` (``cut_file(path, name, *args)`` each, in order) in a forked
    child, begun at construction.

    Args:
        files: ``[(path, part name)]`` in input order. args: the rest of
            :func:`~pagesieve.crawl.parts.cut_file`'s arguments (part_records, max_record_bytes,
            tail_split).

    Use as a context manager (the child is reaped at the end, killed if still counting). When
    the cluster is up, :meth:`take` says which files the child has not begun (count them
    there), and :meth:`finish` returns those it counted.
    """

    def __init__(self, files: list[tuple[str, str]], *args) -> None:
        try:  # imported before the fork, so that the child takes no import lock another thread may hold
            import fastwarc.warc  # noqa: F401
        except ImportError:  # read with warcio (pagesieve.crawl.records.reader_name)
            pass

        self._files, self._args = files, args
        self._done: dict[int, FileCut | Exception] = {}
        self._begun: set[int] = set()
        self._results, results_child = Pipe(duplex=False)  # child -> parent: ("start", i), ("done", i, cut)
        stop_child, self._stop = Pipe(duplex=False)  # parent -> child: stop after this file
        pid = os.fork()
        if pid == 0:  # the child: count until told to stop, never return
            code = 0
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
                self._results.close()
                self._stop.close()
                self._serve(results_child, stop_child)
            except BaseException:  # noqa: BLE001 - the parent sees the pipe close
                code = 1
            finally:
                os._exit(code)
        results_child.close()
        stop_child.close()
        self._pid: int | None = pid

    def _serve(self, out, stop) -> None:
        for i, (path, name) in enumerate(self._files):
            if stop.poll():  # the cluster is up and counts the rest
                return
            out.send(("start", i))
            try:
                cut: FileCut | Exception = cut_file(path, name, *self._args)
            except Exception as exc:  # noqa: BLE001 - reported as the count task's would be
                cut = portable_error(exc)
            out.send(("done", i, cut))

    def __enter__(self) -> EarlyCount:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def take(self) -> list[int]:
        """Tell the child to stop after the file it is counting; returns the indexes of the
        files it has not begun, in order, to be counted elsewhere."""
        try:
            self._stop.send(True)
        except OSError:  # the child has ended already (every file counted, or it died)
            pass
        try:
            while self._results.poll():
                self._read_one()
        except (EOFError, OSError):
            pass
        return [i for i in range(len(self._files)) if i not in self._begun]

    def finish(self) -> dict[int, FileCut | Exception]:
        """Wait for the child to end its current file and reap it; returns ``{file index:
        FileCut, or the exception cut_file raised}`` of every file it counted. A file it began
        and did not end (the child was killed) is missing; one it began after :meth:`take`
        looked may be there too, and is counted twice."""
        try:
            while True:
                self._read_one()
        except (EOFError, OSError):
            pass
        self.close()
        return dict(self._done)

    def _read_one(self) -> None:
        message = self._results.recv()
        if message[0] == "start":
            self._begun.add(message[1])
        else:
            self._done[message[1]] = message[2]

    def close(self) -> None:
        """Reap the child (killed first if it is still counting)."""
        if self._pid is None:
            return
        pid, self._pid = self._pid, None
        self._results.close()
        self._stop.close()
        try:
            ended, _ = os.waitpid(pid, os.WNOHANG)
            if ended == 0:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
        except (ChildProcessError, ProcessLookupError):
            pass
