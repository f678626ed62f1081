"""Browser end-to-end fixtures: pages served on 127.0.0.1, Chromium with the unpacked extension
and the host registered in a fresh --user-data-dir (Playwright driving Debian's /usr/bin/chromium,
never a downloaded browser)."""

from __future__ import annotations

import gzip
import http.server
import mimetypes
import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = REPO / "tests" / "artifacts"


class _Pages(http.server.BaseHTTPRequestHandler):
    """/example/ -> examples/article.html; /images/<name> -> examples/images/<name>;
    /ds/<dataset>/<id>/ -> the dataset page (read in place)."""

    datasets: Path | None = None
    extra: dict[str, bytes] = {}  # "/path/" -> page, registered by tests (serve_page)
    seen: list[tuple[str, str | None]] = []  # (path, Cookie header) of every request, in order

    def do_GET(self):  # noqa: N802 - http.server's name
        self.seen.append((self.path, self.headers.get("Cookie")))
        parts = [p for p in self.path.split("?")[0].split("/") if p]
        body = None
        content_type = "text/html; charset=utf-8"
        image = REPO / "examples" / "images" / parts[1] if len(parts) == 2 and parts[0] == "images" else None
        if image is not None:
            kind, _encoding = mimetypes.guess_type(image.name)
            if image.is_file() and kind is not None and kind.startswith("image/"):
                body, content_type = image.read_bytes(), kind
        elif "/" + "/".join(parts) + "/" in self.extra:
            body = self.extra["/" + "/".join(parts) + "/"]
        elif parts[:1] == ["example"]:
            body = (REPO / "examples" / "article.html").read_bytes()
        elif len(parts) >= 3 and parts[0] == "ds" and self.datasets is not None:
            page = self.datasets / parts[1] / "pages" / f"{parts[2]}.html.gz"
            if page.is_file():
                body = gzip.decompress(page.read_bytes())
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="session", autouse=True)
def extension_icons():
    """The unpacked extension/ folder the browsers load names icons that the build renders from
    extension/icons/pagesieve.svg (git keeps no PNG): rendered here once, when any is missing."""
    from pagesieve_dev.evaluation.browser import ensure_icons

    try:
        ensure_icons()
    except RuntimeError:
        if (REPO / "node_modules" / "@resvg" / "resvg-js").is_dir():
            raise
        pytest.skip("the icons are rendered with @resvg/resvg-js: npm ci at the repository root (.ci/run does it)")


@pytest.fixture(scope="session")
def server(datasets_dir_optional):
    _Pages.datasets = datasets_dir_optional
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Pages)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture
def serve_page(server):
    """``serve_page(path, html)``: serve ``html`` at ``path`` (``"/site/a/"``) from the test server.
    ``serve_page.seen`` lists ``(path, Cookie header)`` of the requests the server got."""

    def add(path: str, html: str | bytes) -> None:
        _Pages.extra[path] = html if isinstance(html, bytes) else html.encode("utf-8")

    add.seen = _Pages.seen
    return add


@pytest.fixture(scope="session")
def datasets_dir_optional():
    from pagesieve_dev.evaluation.datasets import default_datasets_dir

    return default_datasets_dir()


@pytest.fixture(scope="session")
def chromium_context(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium; .ci/run does it)")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")
    from pagesieve_dev.evaluation.browser import chromium_with_extension

    with chromium_with_extension(tmp_path_factory.mktemp("chromium")) as context:
        yield context


@pytest.fixture
def run_mode(chromium_context):
    """``run_mode(page, mode)``: the test hook, sent to the page's content script."""
    return chromium_context.pagesieve_run


def own_hosts(profile: Path) -> list:
    """The pagesieve host processes (psutil) started by this test run's Chromium, the one whose
    ``--user-data-dir`` is ``profile``. Only descendants of this process are looked at, never
    processes found by name: a user's own host, or another run's, may be running."""
    import psutil

    found = []
    for proc in psutil.Process().children(recursive=True):
        try:
            if "pagesieve.native" in proc.cmdline() and any(
                    f"--user-data-dir={profile}" in parent.cmdline() for parent in proc.parents()):
                found.append(proc)
        except psutil.NoSuchProcess:  # it exited meanwhile
            continue
    return found


def end_own_hosts(profile: Path) -> list[int]:
    """End (SIGKILL) the hosts of :func:`own_hosts`; returns their pids."""
    import psutil

    ended = []
    for proc in own_hosts(profile):
        try:
            proc.kill()
            ended.append(proc.pid)
        except psutil.NoSuchProcess:
            continue
    return ended


def run_in_own_thread(drive) -> None:
    """Call ``drive()`` in a thread of its own and re-raise what it raised: a test that starts a
    second Chromium with Playwright's sync API cannot do so in the thread where the session's
    Chromium (``chromium_context``) already runs Playwright's event loop."""
    import threading

    errors: list[BaseException] = []

    def target():
        try:
            drive()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test's thread
            errors.append(exc)

    thread = threading.Thread(target=target, name="own-playwright")
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
