"""``pagesieve-dev bench-learn``: cost of learning a visited page, and store size per site.

::

    pagesieve-dev bench-learn [DATASET_DIR] [--pages N]

For every site of the dataset (default ``big9``: 7 sites of 40 pages) a fresh temporary
:class:`~pagesieve.templates.store.TemplateStore` learns ``N`` (default 100) page visits of that
site: its pages in index order, cycled when the site has fewer than ``N`` (each visit under its
own URL, as a reader moving through a site). Each visit is timed in two parts with
``time.perf_counter``: *summarise* (pre-processing, segmentation, leaves, fingerprints:
:func:`~pagesieve.templates.learn.summarise`) and *store* (the SQLite transaction of
:meth:`~pagesieve.templates.store.TemplateStore.learn`). Parsing is not counted: the host
parses the parts of a snapshot while the browser is still sending them.

By default each page is learned as the host learns it, from a snapshot
(:func:`~pagesieve.page.to_snapshot.page_to_snapshot` of the parsed HTML, read back with
:func:`~pagesieve.page.snapshot.parse_snapshot`); its pre-processing reads the rendering the
snapshot states instead of guessing it from the HTML. ``--html`` times pages parsed from HTML
instead (what ``pagesieve learn FILE`` does), whose pre-processing has more to guess.

Printed: median and 95th percentile per visit, per site, and the site's bytes in the store and
the file size after the last visit.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from pagesieve_dev.evaluation.datasets import load_dataset, read_page
from pagesieve_dev.evaluation.args import positive_int, resolve_dataset_dir
from pagesieve_dev.evaluation.results import percentile
from pagesieve.page.html import parse_html
from pagesieve.page.snapshot import parse_snapshot
from pagesieve.page.to_snapshot import page_to_snapshot
from pagesieve.templates.learn import summarise
from pagesieve.templates.store import TemplateStore
from pagesieve.table import format_table


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``bench-learn`` options."""
    parser.add_argument("dataset", nargs="?", default="big9", metavar="DATASET_DIR",
                        help="dataset folder or name (default: big9)")
    parser.add_argument("--pages", type=positive_int, default=100, metavar="N",
                        help="page visits learned per site (default: 100)")
    parser.add_argument("--html", action="store_true",
                        help="learn pages parsed from HTML (as `pagesieve learn FILE` does) instead of "
                             "snapshots (what the host learns from)")


def main(args: argparse.Namespace) -> int:
    """Run the benchmark and print one row per site and a total row."""
    dataset = load_dataset(resolve_dataset_dir(args.dataset))
    by_site = dataset.site_pages()
    header = ("site", "pages", "summarise ms p50", "store ms p50", "learn ms p50", "learn ms p95", "entries", "site bytes", "file bytes")
    rows = [header]
    all_learn: list[float] = []
    for site, ids in sorted(by_site.items()):
        html = {i: read_page(dataset, i) for i in ids}
        if not args.html:  # the message the host would get: made once per page, outside the timing
            html = {i: json.dumps(page_to_snapshot(parse_html(h, url=f"https://{site}/{i}"))) for i, h in html.items()}
        folder = Path(tempfile.mkdtemp(prefix="pagesieve-bench-learn-"))
        try:
            store = TemplateStore(folder / "templates.sqlite3")
            t_sum, t_store = [], []
            for visit in range(args.pages):
                page_id = ids[visit % len(ids)]
                url = f"https://{site}/visit/{visit}/{page_id}"
                if args.html:
                    page = parse_html(html[page_id], url=url)
                else:
                    page = parse_snapshot(html[page_id])
                    page.url = url
                t0 = time.perf_counter()
                summary = summarise(page)
                t1 = time.perf_counter()
                store.learn(summary)
                t2 = time.perf_counter()
                t_sum.append((t1 - t0) * 1000)
                t_store.append((t2 - t1) * 1000)
            [info] = store.sites()
            store.close()
            file_bytes = sum(p.stat().st_size for p in folder.iterdir())
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        learn = [a + b for a, b in zip(t_sum, t_store)]
        all_learn.extend(learn)
        rows.append((site, str(args.pages), f"{statistics.median(t_sum):.2f}", f"{statistics.median(t_store):.2f}",
                     f"{statistics.median(learn):.2f}", f"{percentile(learn, 95):.2f}", str(info.entries),
                     str(info.bytes), str(file_bytes)))
    rows.append(("all", str(len(all_learn)), "", "", f"{statistics.median(all_learn):.2f}",
                 f"{percentile(all_learn, 95):.2f}", "", "", ""))
    print(format_table(rows))
    print(f"learned from {'HTML' if args.html else 'snapshots (as the host learns)'}; parsing not counted")
    return 0
