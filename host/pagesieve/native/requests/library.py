"""``library``: open the library window as a process of its own."""

from __future__ import annotations

from pagesieve.native.envelope import ErrorCode, ProtocolError
from pagesieve.native.session import Session


def handle(session: Session, message: dict) -> dict:
    """``library`` -> ``{"type": "library", "pid"}``: opens the library window
    (``pagesieve library``) as a process of its own; the host goes on serving.

    Raises:
        ProtocolError: LIBRARY when the window cannot be started.
    """
    import subprocess
    import sys

    session.windows = [w for w in session.windows if w.poll() is None]  # reap closed windows
    command = [sys.executable, "-m", "pagesieve", "library"]
    folder = session.folder(message)
    if folder is not None:
        command += ["--dir", str(folder)]
    try:
        # Its own session, no stdin/stdout: the window must never write into the frame stream
        # and must outlive the host when the browser closes the port.
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, close_fds=True,
        )
    except OSError as exc:
        raise ProtocolError(ErrorCode.LIBRARY, f"cannot start the library window: {exc}") from None
    session.windows.append(process)
    return {"type": "library", "pid": process.pid}
