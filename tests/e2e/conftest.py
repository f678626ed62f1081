"""Browser end-to-end fixtures: pages served on 127.0.0.1, Chromium with the unpacked extension
and the host registered in a fresh --user-data-dir (Playwright driving Debian's /usr/bin/chromium,
never a downloaded browser)."""

from __future__ import annotations

import gzip
import http.server
import os
import shutil
import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXTENSION = REPO / "extension"
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = REPO / "tests" / "artifacts"


class _Pages(http.server.BaseHTTPRequestHandler):
    """/example/ -> examples/article.html; /ds/<dataset>/<id>/ -> the dataset page (read in place)."""

    datasets: Path | None = None

    def do_GET(self):  # noqa: N802 - http.server's name
        parts = [p for p in self.path.split("?")[0].split("/") if p]
        body = None
        if parts[:1] == ["example"]:
            body = (REPO / "examples" / "article.html").read_bytes()
        elif len(parts) >= 3 and parts[0] == "ds" and self.datasets is not None:
            page = self.datasets / parts[1] / "pages" / f"{parts[2]}.html.gz"
            if page.is_file():
                body = gzip.decompress(page.read_bytes())
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def server(datasets_dir_optional):
    _Pages.datasets = datasets_dir_optional
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Pages)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="session")
def datasets_dir_optional():
    from pagesieve.evaluation.datasets import default_datasets_dir

    return default_datasets_dir()


@pytest.fixture(scope="session")
def chromium_context(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium; .ci/run does it)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")
    from pagesieve.native.install import install

    base = tmp_path_factory.mktemp("chromium")
    profile = base / "profile"
    install(user_data_dir=profile, launcher_dir=base / "launcher", home=base)
    env = dict(os.environ, XDG_DATA_HOME=str(base / "data"), XDG_STATE_HOME=str(base / "state"), HOME=str(base))
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, env=env,
            ignore_default_args=["--disable-extensions"],
            args=[
                f"--disable-extensions-except={EXTENSION}", f"--load-extension={EXTENSION}",
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
            ],
        )
        # pages come from 127.0.0.1 only: every other request is refused, as on a closed network
        context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(("http://127.0.0.1", "chrome-extension://")) else route.abort())
        workers = context.service_workers or [context.wait_for_event("serviceworker", timeout=30000)]
        context.pagesieve_worker = workers[0]
        context.pagesieve_base = base
        yield context
        context.close()


RUN_JS = """async ([url, mode]) => {
  const tabs = await chrome.tabs.query({});
  const tab = tabs.find((t) => t.url === url);
  if (!tab) return {ok: false, error: 'no tab ' + url};
  return await chrome.tabs.sendMessage(tab.id, {type: 'pagesieve.run', mode});
}"""


@pytest.fixture
def run_mode(chromium_context):
    """``run_mode(page, mode)``: the test hook, sent to the page's content script."""

    def run(page, mode):
        return chromium_context.pagesieve_worker.evaluate(RUN_JS, [page.url, mode])

    return run


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
