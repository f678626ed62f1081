"""``pagesieve-dev bench-browser``: the extension's cost in Chromium on real pages.

::

    pagesieve-dev bench-browser [--sizes 1000,5000,20000] [--repeat N]

For each size, the dataset page (all datasets under ``../shared/datasets``) whose element count
is closest to it is served (elements as the snapshot counts them: the insides of ``<svg>``,
``<math>``, ``<script>``, ``<style>``, ``<noscript>`` and ``<template>`` are not sent, so a page
of 15,000 SVG paths is not a 15,000-element page; the largest real page there has some 9,900) on 127.0.0.1 and opened in Chromium with the extension and the host
(:mod:`pagesieve_dev.evaluation.browser`). After two untimed rounds (the port and the host are
warm), ``N`` times: "hide" is sent to the content script, which times its own work with
``performance.now()`` — *snapshot* (the DOM walk of ``extension/snapshot.js``) and
*click-to-hidden* (snapshot, message to the background, native port, host, reply, hiding) —
then "off", and a pause until the page has drawn a frame and :data:`SETTLE_MS` have passed: a
user's next click finds the page laid out and the machine idle, and so does the benchmark's
(without it, the layout that "off" invalidates would be charged to the next click's walk). Printed per page: elements in the snapshot, snapshot size (compact JSON, UTF-8
bytes), snapshot ms (median), the host's own time to read the snapshot and to extract (median,
from the reply's ``host_ms``), and click-to-hidden ms (median and 95th percentile). Then ``N``
times, with the same pause between them, the walk that learning takes on every page load (the
content script's ``pagesieve.learn`` hook: a snapshot without layout, sent as ``learn``): *learn
walk ms* (median), the page's main thread busy with the extension while it loads.
"""

from __future__ import annotations

import argparse
import gzip
import http.server
import statistics
import tempfile
import threading
from pathlib import Path

from lxml import etree

from pagesieve_dev.evaluation.datasets import default_datasets_dir, load_dataset
from pagesieve_dev.evaluation.args import positive_int
from pagesieve_dev.evaluation.results import percentile
from pagesieve.table import format_table


SETTLE_MS = 200
"""Pause (ms) after "off" before the next timed "hide", once a frame has been drawn."""

SETTLE_JS = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""Resolves once the page has rendered a frame (two animation frames: the next one has begun)."""


def _settle(page) -> None:
    page.evaluate(SETTLE_JS)
    page.wait_for_timeout(SETTLE_MS)


def _sizes(value: str) -> list[int]:
    try:
        sizes = [int(v) for v in value.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers separated by commas: {value!r}") from None
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError("sizes must be positive")
    return sizes


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``bench-browser`` options."""
    parser.add_argument("--sizes", type=_sizes, default=[1000, 5000, 20000], help="element counts (default: 1000,5000,20000)")
    parser.add_argument("--repeat", type=positive_int, default=10, help="timed rounds per page (default: 10)")


CONTENTLESS = ("svg", "math", "script", "style", "noscript", "template")
"""Elements whose insides the snapshot leaves out (``NO_CONTENT`` in ``extension/snapshot.js``)."""


def sent_elements(root) -> int:
    """Elements of the tree under ``root`` that a snapshot holds (those inside
    :data:`CONTENTLESS` elements are not sent)."""
    total = sum(1 for _ in root.iter(etree.Element))
    for element in root.iter(*CONTENTLESS):
        if not any(a.tag in CONTENTLESS for a in element.iterancestors()):
            total -= sum(1 for _ in element.iterdescendants(etree.Element))
    return total


def pick_pages(sizes: list[int]) -> list[tuple[int, str, bytes]]:
    """For each size, ``(elements, "dataset/id", html)`` of the page closest to it."""
    base = default_datasets_dir()
    if base is None:
        raise FileNotFoundError("../shared/datasets not found")
    best: dict[int, tuple[int, int, str, bytes]] = {}
    for folder in sorted(p for p in base.iterdir() if (p / "index.jsonl").is_file()):
        dataset = load_dataset(folder)
        for page_id in dataset.ids:
            html = gzip.decompress((folder / "pages" / f"{page_id}.html.gz").read_bytes())
            try:
                root = etree.fromstring(html, etree.HTMLParser())
            except etree.XMLSyntaxError:
                continue
            if root is None:
                continue
            count = sent_elements(root)
            for size in sizes:
                gap = abs(count - size)
                if size not in best or gap < best[size][0]:
                    best[size] = (gap, count, f"{folder.name}/{page_id}", html)
    return [(best[s][1], best[s][2], best[s][3]) for s in sizes]


def main(args: argparse.Namespace) -> int:
    """Print one row per page."""
    from pagesieve_dev.evaluation.browser import chromium_with_extension

    pages = pick_pages(args.sizes)
    served = {f"/{n}/": html for n, (_c, _name, html) in enumerate(pages)}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            body = served.get(self.path)
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    rows = [("page", "elements (page)", "snapshot elements", "snapshot KB", "snapshot ms p50", "host parse ms p50",
             "host extract ms p50", "click-to-hidden ms p50", "p95", "learn walk ms p50")]
    try:
        with tempfile.TemporaryDirectory(prefix="pagesieve-bench-browser-") as tmp, chromium_with_extension(Path(tmp)) as context:
            for n, (count, name, _html) in enumerate(pages):
                page = context.new_page()
                page.goto(f"http://127.0.0.1:{httpd.server_address[1]}/{n}/", wait_until="load")
                page.wait_for_timeout(1500)
                for _ in range(2):  # warm: port open, host running, model loaded
                    context.pagesieve_run(page, "hide")
                    context.pagesieve_run(page, "off")
                _settle(page)
                snap, total, parse, extract, nbytes, elements = [], [], [], [], 0, 0
                for k in range(args.repeat):
                    result = context.pagesieve_run(page, "hide", k == 0)
                    if not result.get("ok"):
                        raise RuntimeError(f"{name}: {result}")
                    timing = result["timing"]
                    snap.append(timing["snapshotMs"])
                    total.append(timing["totalMs"])
                    parse.append(timing["host"]["snapshot"])
                    extract.append(timing["host"]["extract"])
                    if k == 0:
                        nbytes, elements = timing["bytes"], timing["elements"]
                    context.pagesieve_run(page, "off")
                    _settle(page)
                learn_walk = []
                for _ in range(args.repeat):
                    result = context.pagesieve_send(page, {"type": "pagesieve.learn"})
                    if not result.get("ok"):
                        raise RuntimeError(f"{name}: learn: {result}")
                    learn_walk.append(result["timing"]["snapshotMs"])
                    _settle(page)
                page.close()
                rows.append((name, str(count), str(elements), f"{nbytes / 1024:.0f}", f"{statistics.median(snap):.1f}",
                             f"{statistics.median(parse):.1f}", f"{statistics.median(extract):.1f}",
                             f"{statistics.median(total):.1f}", f"{percentile(total, 95):.1f}",
                             f"{statistics.median(learn_walk):.1f}"))
    finally:
        httpd.shutdown()
    print(format_table(rows))
    return 0
