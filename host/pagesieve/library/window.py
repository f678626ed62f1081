"""The library window: ``pagesieve library [--dir DIR] [--store FILE] [--screenshot PATH] [--quit-after S]``.

A pywebview window on Qt (QtWebEngine) showing ``ui/index.html`` of this package: the saved
articles newest first, full-text search, the reading view, tags, delete with undo, export,
and the learned sites. The page talks to Python only through :class:`~pagesieve.library.api.LibraryApi`
(pywebview's ``js_api``); articles are shown in a sandboxed ``<iframe>`` that cannot reach it.

Headless (tests, CI): ``QT_QPA_PLATFORM=offscreen``. QtWebEngine is Chromium: run as root (a
container) it needs ``--no-sandbox``, which :func:`prepare_environment` adds to
``QTWEBENGINE_CHROMIUM_FLAGS`` before Qt starts. :func:`run_window` takes a ``script`` run on a
thread of its own with a :class:`WindowDriver` (evaluate JavaScript, wait for the page, grab a
PNG of the window, close it), which is what ``--screenshot`` and the tests use.

The native host starts this as ``python -m pagesieve library [--dir DIR]``, a process of its own.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from collections.abc import Callable, MutableMapping
from importlib import resources
from pathlib import Path
from typing import Any

from pagesieve.errors import PagesieveError

INSTALL_HINT = "pip install 'pagesieve[library]'"

DEFAULT_SIZE = (1100, 760)
"""Width and height of the window, in pixels."""

READY_JS = "document.body.dataset.ready === '1'"
"""True in the page once the bridge is up and the first list is shown (``app.js`` sets it)."""

READY_TIMEOUT_S = 30.0
"""How long ``--screenshot`` waits for the page to be ready."""

EXIT_GRACE_S = 15.0
"""After ``--quit-after``, how long closing may take before the process ends itself."""


class WindowUnavailable(PagesieveError):
    """The window cannot be shown: pywebview or Qt WebEngine is not installed, or there is no
    display to show it on (exit code 7, as for a missing optional package)."""

    exit_code = 7


def _add_flag(environ: MutableMapping[str, str], name: str, flag: str) -> None:
    flags = environ.get(name, "").split()
    if flag not in flags:
        environ[name] = " ".join([*flags, flag])


def prepare_environment(environ: MutableMapping[str, str] = os.environ) -> None:
    """Set what QtWebEngine needs here before Qt starts: ``--no-sandbox`` in
    ``QTWEBENGINE_CHROMIUM_FLAGS`` when running as root on Linux (Chromium refuses its sandbox
    to root), and ``--disable-gpu`` with the offscreen platform (there is no GPU context there;
    software rendering directly, without trying OpenGL first). Flags already set are kept."""
    if sys.platform.startswith("linux") and hasattr(os, "geteuid") and os.geteuid() == 0:
        _add_flag(environ, "QTWEBENGINE_CHROMIUM_FLAGS", "--no-sandbox")
    if environ.get("QT_QPA_PLATFORM") == "offscreen":
        _add_flag(environ, "QTWEBENGINE_CHROMIUM_FLAGS", "--disable-gpu")


def has_display(environ: MutableMapping[str, str] = os.environ) -> bool:
    """False on Linux and the BSDs when neither X11 (``DISPLAY``), Wayland (``WAYLAND_DISPLAY``)
    nor an explicit ``QT_QPA_PLATFORM`` is set: Qt would abort the process there."""
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return True
    return any(environ.get(k) for k in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"))


def ui_file() -> Path:
    """``ui/index.html`` of the installed package (its CSS and JavaScript sit beside it)."""
    return Path(str(resources.files("pagesieve.library") / "ui" / "index.html"))


def _import_webview():
    """pywebview, with the Qt backend importable.

    Raises:
        WindowUnavailable: pywebview, QtPy, PyQt6 or PyQt6-WebEngine is missing.
    """
    try:
        import webview
        import qtpy  # noqa: F401  (pywebview's Qt backend goes through QtPy)
        from qtpy import QtWebEngineWidgets  # noqa: F401
    except ImportError as exc:
        raise WindowUnavailable(f"the library window needs pywebview with Qt WebEngine ({exc}); install it with: {INSTALL_HINT}") from None
    return webview


class _GuiThread:
    """Runs a function on Qt's GUI thread (widgets may only be touched there) and waits for it."""

    def __init__(self) -> None:
        from qtpy.QtCore import QObject, Signal, Slot
        from qtpy.QtWidgets import QApplication

        class Invoker(QObject):
            call = Signal(object)

            @Slot(object)
            def run(self, job: Callable[[], None]) -> None:
                job()

        self._invoker = Invoker()
        self._invoker.moveToThread(QApplication.instance().thread())
        self._invoker.call.connect(self._invoker.run)  # queued: the receiver lives on the GUI thread

    def run(self, fn: Callable[[], Any], timeout: float = 30.0) -> Any:
        """``fn()`` on the GUI thread; its result, or its exception raised here.

        Raises:
            TimeoutError: the GUI thread did not run it within ``timeout`` seconds.
        """
        done = threading.Event()
        box: dict[str, Any] = {}

        def job() -> None:
            try:
                box["value"] = fn()
            except BaseException as exc:  # handed over to the waiting thread
                box["error"] = exc
            finally:
                done.set()

        self._invoker.call.emit(job)
        if not done.wait(timeout):
            raise TimeoutError(f"the window did not answer within {timeout:g} s")
        if "error" in box:
            raise box["error"]
        return box.get("value")


class WindowDriver:
    """Drives the open window from a thread other than the GUI's (for scripts and tests).

    Args:
        window: the pywebview window.
    """

    def __init__(self, window) -> None:
        self.window = window
        self._gui = _GuiThread()

    def evaluate(self, script: str) -> Any:
        """The value of the JavaScript expression ``script`` in the page (JSON-converted)."""
        return self.window.evaluate_js(script)

    def wait_for(self, condition: str, timeout: float = READY_TIMEOUT_S, interval: float = 0.1) -> Any:
        """Evaluate ``condition`` until it is truthy; returns its value.

        Raises:
            TimeoutError: still falsy after ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(condition)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(f"the window never showed {condition!r} within {timeout:g} s")
            time.sleep(interval)

    def screenshot(self, path: str | os.PathLike[str]) -> tuple[int, int]:
        """Save a PNG of the whole window to ``path``; returns its ``(width, height)``.

        Raises:
            PagesieveError: the image cannot be written.
        """
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)

        def grab() -> tuple[int, int]:
            pixmap = self.window.native.grab()  # pywebview's Qt backend: the QMainWindow
            if not pixmap.save(str(target), "PNG"):
                raise PagesieveError(f"cannot write the screenshot {target}")
            return pixmap.width(), pixmap.height()

        return self._gui.run(grab)

    def close(self) -> None:
        """Close the window (the GUI loop then ends and :func:`run_window` returns)."""
        self.window.destroy()


def ask_save_path(window, name: str) -> str | None:
    """The path the user picks in the window's save dialog, starting in the home folder with
    the file name ``name``; ``None`` when cancelled."""
    import webview

    result = window.create_file_dialog(webview.FileDialog.SAVE, directory=str(Path.home()), save_filename=name)
    if not result:
        return None
    return result[0] if isinstance(result, (list, tuple)) else result


def run_window(
    folder: str | os.PathLike[str] | None = None,
    *,
    store_path: str | os.PathLike[str] | None = None,
    script: Callable[[WindowDriver], None] | None = None,
    quit_after: float | None = None,
    size: tuple[int, int] = DEFAULT_SIZE,
    system_trash: bool = True,
) -> None:
    """Open the library window on ``folder`` and return when it is closed.

    Args:
        folder: the library folder (default: :func:`pagesieve.library.folder.library_dir`).
        store_path: the template store shown on the learned-sites page (default: the user's).
        script: run on a thread of its own once the window exists, with a :class:`WindowDriver`;
            the window is closed when it returns (or raises).
        quit_after: close the window after this many seconds; if closing hangs, the process
            ends itself :data:`EXIT_GRACE_S` later (exit status 124).
        size: the window's width and height.
        system_trash: see :class:`~pagesieve.library.api.LibraryApi`.

    Raises:
        WindowUnavailable: no pywebview or Qt WebEngine, or no display (set
            ``QT_QPA_PLATFORM=offscreen`` to run without one).
        LibraryError: the library cannot be opened.
        Exception: whatever ``script`` raised, once the window is closed.
    """
    from pagesieve.library.api import LibraryApi
    from pagesieve.library.catalog import Library

    if not has_display():
        raise WindowUnavailable("no display to show the library window on (DISPLAY and WAYLAND_DISPLAY are unset)")
    prepare_environment()
    webview = _import_webview()
    failures: list[BaseException] = []
    with Library(folder) as library:
        windows: list = []  # the window, once made: the API's export asks it for a path
        api = LibraryApi(library, store_path, lambda name, fmt: ask_save_path(windows[0], name), system_trash=system_trash)
        window = webview.create_window(
            "pagesieve library", ui_file().as_uri(), js_api=api, width=size[0], height=size[1], min_size=(640, 420),
        )
        windows.append(window)
        timers = []
        if quit_after is not None:
            timers.append(threading.Timer(quit_after, window.destroy))
            timers.append(threading.Timer(quit_after + EXIT_GRACE_S, os._exit, (124,)))

        def start(window) -> None:
            for timer in timers:
                timer.daemon = True
                timer.start()
            if script is None:
                return
            try:
                script(WindowDriver(window))
            except BaseException as exc:
                failures.append(exc)
            finally:
                window.destroy()

        webview.start(start, window, gui="qt", private_mode=True)
        for timer in timers:
            timer.cancel()
    if failures:
        raise failures[0]


def screenshot_script(path: str | os.PathLike[str]) -> Callable[[WindowDriver], None]:
    """A ``script`` for :func:`run_window`: wait until the page is ready, save a PNG of the
    window to ``path``, print where, and return (the window then closes)."""

    def script(driver: WindowDriver) -> None:
        driver.wait_for(READY_JS)
        time.sleep(0.3)  # one more frame painted after the list was put in
        width, height = driver.screenshot(path)
        print(f"{path} ({width} x {height})")

    return script


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``library`` options."""
    from pagesieve.library.cli import add_dir_argument

    add_dir_argument(parser)
    parser.add_argument("--store", type=Path, default=None, help="template store shown under Learned sites (default: yours)")
    parser.add_argument("--screenshot", type=Path, metavar="PATH", help="save a PNG of the window once it is shown, then close it")
    parser.add_argument("--quit-after", type=_seconds, metavar="SECONDS", help="close the window after this many seconds")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"not a number of seconds above 0: {text!r}")
    return value


def main(args: argparse.Namespace) -> int:
    """Open the library window; returns when it is closed."""
    script = screenshot_script(args.screenshot) if args.screenshot is not None else None
    try:
        run_window(args.dir, store_path=args.store, script=script, quit_after=args.quit_after)
    except TimeoutError as exc:
        print(f"pagesieve: error: {exc}", file=sys.stderr)
        return 1
    return 0
