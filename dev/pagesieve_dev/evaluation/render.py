"""``pagesieve-dev render``: dataset pages rendered in headless Chromium, as DOM snapshots.

::

    pagesieve-dev render DATASET_DIR --out SNAPSHOT_DIR [--workers N] [--limit N] [--timeout S]

Each page of the dataset is opened in Debian's ``/usr/bin/chromium`` (Playwright, never a
browser of its own download) at a 1366 x 768 viewport with JavaScript off and every request
except the page itself refused (a closed network: remote style sheets and images do not load,
inline styles do), and the extension's own ``extension/snapshot.js`` serialises it, so that
training data and live pages go through the same serialiser (``docs/snapshot.md``).

Output, per page: ``SNAPSHOT_DIR/<id>.json.gz``, the snapshot with its ``url`` set to the
dataset's URL of the page and an extra top-level key ``render`` (ignored by the host's reader)
``{"script": sha256 of snapshot.js, "viewport": [w, h], "chromium": version, "ms": time}``. A page
that cannot be rendered gets ``<id>.error.json`` (``{"id", "error", "script"}``) instead: an
error entry, not a crash. Both are a cache: a page whose file was made by the same
``snapshot.js`` and viewport is not rendered again (``--force`` renders everything).

The page is served as the text pagesieve's own HTML route decodes (:mod:`pagesieve.page.decode`),
with a ``charset=utf-8`` header, so that the browser and the HTML route read the same characters.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import hashlib
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from pagesieve_dev.evaluation.browser import CHROMIUM, EXTENSION

VIEWPORT = (1366, 768)
"""Viewport of the offline renderer, CSS px: the most common desktop screen size (issue: "What
the browser sees"; StatCounter's desktop resolution share has 1366 x 768 among the top two)."""

PAGE_TIMEOUT_S = 30.0
"""Longest a page may take to load and be serialised before it becomes an error entry."""

SERVED_ORIGIN = "http://127.0.0.1"
"""Pages are served from this origin (by request interception, no socket): the only requests
the renderer lets through are those for the page itself."""

SNAPSHOT_JS = EXTENSION / "content" / "snapshot.js"


def script_digest(path: Path = SNAPSHOT_JS) -> str:
    """SHA-256 (hex) of the snapshot script: the cache key of every rendered page."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


@dataclass(slots=True)
class RenderReport:
    """What one ``render`` run did.

    Attributes:
        rendered: pages rendered now; cached: pages whose snapshot was already up to date;
        errors: pages that became error entries now; seconds: wall time of the rendering;
        pages_per_second: ``rendered / seconds`` (0 when nothing was rendered).
    """

    rendered: int = 0
    cached: int = 0
    errors: int = 0
    seconds: float = 0.0

    @property
    def pages_per_second(self) -> float:
        done = self.rendered + self.errors
        return done / self.seconds if self.seconds > 0 and done else 0.0


def snapshot_path(out: Path, page_id: str) -> Path:
    """Where the snapshot of ``page_id`` is written."""
    return out / f"{page_id}.json.gz"


def error_path(out: Path, page_id: str) -> Path:
    """Where the error entry of ``page_id`` is written."""
    return out / f"{page_id}.error.json"


def load_rendered(out: Path, page_id: str) -> dict | None:
    """The rendered snapshot of ``page_id`` (a dict for
    :func:`pagesieve.page.snapshot.parse_snapshot`), or ``None`` if there is none (never
    rendered, or an error entry)."""
    path = snapshot_path(out, page_id)
    if not path.is_file():
        return None
    return json.loads(gzip.decompress(path.read_bytes()))


def _is_current(out: Path, page_id: str, digest: str) -> bool:
    """True if ``page_id`` has a snapshot or error entry made by the script ``digest`` at
    :data:`VIEWPORT`."""
    path = snapshot_path(out, page_id)
    try:
        if path.is_file():
            with gzip.open(path, "rt", encoding="utf-8") as f:
                head = json.load(f).get("render", {})
            return head.get("script") == digest and head.get("viewport") == list(VIEWPORT)
        err = error_path(out, page_id)
        if err.is_file():
            return json.loads(err.read_text(encoding="utf-8")).get("script") == digest
    except (OSError, ValueError, EOFError):
        return False  # a damaged file is rendered again
    return False


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


async def _render_pages(jobs: list[tuple[str, str | None, str]], out: Path, digest: str, workers: int,
                        timeout_s: float, report: RenderReport, progress) -> None:
    """Render ``jobs`` (``(id, dataset URL, decoded HTML)``) with ``workers`` pages in parallel."""
    from playwright.async_api import async_playwright

    # The snapshot comes back as JSON text: one string crosses the DevTools pipe much faster than
    # the object itself, which Playwright would serialise value by value.
    script = SNAPSHOT_JS.read_text(encoding="utf-8") + "\n;JSON.stringify(pagesieveSnapshot(document))"
    queue: asyncio.Queue = asyncio.Queue()
    for job in jobs:
        queue.put_nowait(job)
    async with async_playwright() as p:
        browser = await p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking"],
        )
        version = browser.version
        try:
            async def worker() -> None:
                context = await browser.new_context(
                    java_script_enabled=False, viewport={"width": VIEWPORT[0], "height": VIEWPORT[1]},
                    service_workers="block",
                )
                page = await context.new_page()
                current: dict[str, str] = {}

                async def route(r):
                    if r.request.url == current.get("url"):
                        await r.fulfill(body=current["html"], content_type="text/html; charset=utf-8")
                    elif r.request.is_navigation_request() and r.request.frame == page.main_frame:
                        # <meta http-equiv="refresh"> or a link target: answered "204 No Content",
                        # which leaves the page where it is (HTML Living Standard §7.4.2.3.3)
                        await r.fulfill(status=204, body="")
                    else:
                        await r.abort()

                await page.route("**/*", route)
                while True:
                    try:
                        page_id, url, html = queue.get_nowait()
                    except asyncio.QueueEmpty:
                        break
                    started = time.perf_counter()
                    current["url"] = f"{SERVED_ORIGIN}/{page_id}/"
                    current["html"] = html
                    try:
                        await page.goto(current["url"], wait_until="load", timeout=timeout_s * 1000)
                        snapshot = json.loads(await asyncio.wait_for(page.evaluate(script), timeout_s))
                    except Exception as exc:  # noqa: BLE001 - a broken page is an error entry, never a crash
                        message = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
                        _write_atomic(error_path(out, page_id), json.dumps({"id": page_id, "error": message, "script": digest}).encode())
                        report.errors += 1
                        await page.close()  # a page stuck in a script-free loop or a crashed renderer
                        page = await context.new_page()
                        await page.route("**/*", route)
                    else:
                        snapshot["url"] = url
                        snapshot["render"] = {
                            "script": digest, "viewport": list(VIEWPORT), "chromium": version,
                            "ms": round((time.perf_counter() - started) * 1000, 1),
                        }
                        body = json.dumps(snapshot, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
                        _write_atomic(snapshot_path(out, page_id), gzip.compress(body, compresslevel=6))
                        error_path(out, page_id).unlink(missing_ok=True)
                        report.rendered += 1
                    progress(report)
                await context.close()

            await asyncio.gather(*(worker() for _ in range(max(1, workers))))
        finally:
            await browser.close()


def render_dataset(dataset_dir: str | os.PathLike[str], out: str | os.PathLike[str], workers: int = 2,
                   limit: int | None = None, force: bool = False, timeout_s: float = PAGE_TIMEOUT_S,
                   progress=lambda report: None) -> RenderReport:
    """Render the pages of a dataset folder into ``out`` (see the module docstring).

    Args:
        dataset_dir: a dataset folder (``../shared/datasets/<name>``).
        out: the snapshot folder (created).
        workers: pages rendered at once (browser tabs of one Chromium).
        limit: render only the first ``limit`` pages of the index.
        force: render again what is cached.
        progress: called with the :class:`RenderReport` after each page.

    Raises:
        DatasetError: the dataset folder is broken. FileNotFoundError: no Chromium.
        ImportError: Playwright is not installed.
    """
    from pagesieve_dev.evaluation.datasets import load_dataset
    from pagesieve.page.decode import decode_html

    if not Path(CHROMIUM).exists():
        raise FileNotFoundError(f"{CHROMIUM} is not installed (apt-get install chromium)")
    dataset = load_dataset(dataset_dir)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    digest = script_digest()
    report = RenderReport()
    jobs = []
    for row in list(dataset)[:limit]:
        if not force and _is_current(out, row.id, digest):
            report.cached += 1
            continue
        raw = gzip.decompress((dataset.path / "pages" / f"{row.id}.html.gz").read_bytes())
        try:
            html, _codec = decode_html(raw)
        except Exception as exc:  # noqa: BLE001 - undecodable input is an error entry too
            _write_atomic(error_path(out, row.id), json.dumps({"id": row.id, "error": f"cannot decode: {exc}", "script": digest}).encode())
            report.errors += 1
            continue
        jobs.append((row.id, row.url, html))
    started = time.perf_counter()
    if jobs:
        # In a thread of its own: the caller may be inside an event loop already (Playwright's
        # sync API, a notebook), where asyncio.run refuses to start another.
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=1) as pool:
            pool.submit(asyncio.run, _render_pages(jobs, out, digest, workers, timeout_s, report, progress)).result()
    report.seconds = time.perf_counter() - started
    return report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``render`` options."""
    from pagesieve_dev.evaluation.args import positive_int

    parser.add_argument("dataset", help="a dataset folder, e.g. ../shared/datasets/dragnet")
    parser.add_argument("--out", required=True, help="folder for the snapshots (a cache: up-to-date pages are skipped)")
    parser.add_argument("--workers", type=positive_int, default=2, help="pages rendered at once (default: 2)")
    parser.add_argument("--limit", type=positive_int, default=None, help="only the first N pages of the index")
    parser.add_argument("--force", action="store_true", help="render again what is cached")
    parser.add_argument("--timeout", type=float, default=PAGE_TIMEOUT_S, help=f"seconds per page (default: {PAGE_TIMEOUT_S:g})")


def main(args: argparse.Namespace) -> int:
    """Render, printing progress to stderr and a summary line to stdout."""
    def progress(report: RenderReport) -> None:
        done = report.rendered + report.errors
        if done % 50 == 0:
            print(f"render: {done} pages ({report.errors} errors)", file=sys.stderr, flush=True)

    report = render_dataset(args.dataset, args.out, workers=args.workers, limit=args.limit, force=args.force,
                            timeout_s=args.timeout, progress=progress)
    print(f"rendered {report.rendered}, cached {report.cached}, errors {report.errors}; "
          f"{report.seconds:.1f} s, {report.pages_per_second:.2f} pages/s")
    return 0
