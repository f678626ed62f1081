"""The native-messaging host process: reads framed requests on stdin, writes replies on stdout.

Run by the browser through the launcher that ``install_host.py`` writes (``python -m
pagesieve.native``). stdout carries only frames; logs go to ``platformdirs.user_log_dir
("pagesieve")/host.log`` (rotated at 1 MB, 3 files kept). The loop ends when the browser closes
the port (end of stdin), when the stream breaks inside a frame, or when the browser goes while
an answer is being written (its end of stdout closed: the reason is logged, no traceback, exit
status 0); every other problem is an error reply and the host goes on serving.
"""

from __future__ import annotations

import argparse
import logging
import logging.handlers
import os
import sys
from pathlib import Path
from typing import BinaryIO

from pagesieve.native.framing import FrameError, chunk_reply, encode, read_frame, write_frame
from pagesieve.native.envelope import ErrorCode, error_reply
from pagesieve.native.protocol import Host, log

LOG_FILE = "host.log"


def setup_logging(folder: Path | None = None) -> Path:
    """Log to ``folder/host.log`` (default: the user log folder); returns the file's path."""
    import platformdirs

    folder = Path(folder) if folder is not None else Path(platformdirs.user_log_dir("pagesieve", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOG_FILE
    handler = logging.handlers.RotatingFileHandler(path, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(process)d %(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    return path


def _detach(stream: BinaryIO) -> None:
    """Point the file descriptor of ``stream`` at the null device, so that what is left in its
    buffer is dropped at exit instead of raising ``BrokenPipeError`` again (the Python
    documentation's advice for SIGPIPE, ``signal`` module, "Note on SIGPIPE"). Streams without a
    descriptor (tests) are left as they are."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def serve(host: Host, stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Answer frames until the input ends; returns the exit status (0 at a clean end and when
    the browser went while an answer was written, 1 when the stream broke inside a frame)."""
    while True:
        try:
            frame = read_frame(stdin)
        except FrameError as exc:
            log.warning("input broken: %s; stopping", exc)
            return 1
        if frame is None:
            log.info("port closed; stopping")
            return 0
        if frame.oversized:
            reply = error_reply(None, ErrorCode.TOO_LARGE, f"the request is {frame.declared:,} bytes; the limit is 64 MiB")
        elif not frame.body:
            reply = error_reply(None, ErrorCode.BAD_FRAME, "empty message")
        else:
            reply = host.handle(frame.body)
            if reply is None:  # a part taken without acknowledgement
                continue
        try:
            for part in chunk_reply(encode(reply), {"v": reply["v"], "id": reply["id"]}):
                write_frame(stdout, part)
        except OSError as exc:  # BrokenPipeError: the browser closed its end (it exited, or the port)
            log.info("the browser went while the answer to request %r was written (%s); stopping",
                     reply.get("id"), exc.strerror or exc)
            _detach(stdout)
            return 0
        host.release()  # the request's objects are freed now, not before the reply


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m pagesieve.native`` (browsers pass the caller's origin and,
    on Windows, a window handle as arguments: they are accepted and ignored)."""
    parser = argparse.ArgumentParser(prog="pagesieve-host", add_help=True)
    parser.add_argument("--store", type=Path, default=None, help="template store file")
    parser.add_argument("--log-dir", type=Path, default=None, help="log folder")
    parser.add_argument("--library-dir", type=Path, default=None, help="folder of saved articles")
    parser.add_argument("--labels", type=Path, default=None, help="label store file (the user's corrections)")
    parser.add_argument("origin", nargs="*", help=argparse.SUPPRESS)
    args, _unknown = parser.parse_known_args(argv)
    setup_logging(args.log_dir)
    log.info("host started (origin %s)", " ".join(args.origin) or "-")
    host = Host(store_path=args.store, library_dir=args.library_dir, labels_path=args.labels)
    try:
        host.personal_model()  # an outdated personal model starts rebuilding now, while the host serves
    except Exception:  # noqa: BLE001 - the host serves without it; the next page tries again
        log.exception("personal model: cannot be checked at start")
    try:
        return serve(host, sys.stdin.buffer, sys.stdout.buffer)
    finally:
        host.close()
