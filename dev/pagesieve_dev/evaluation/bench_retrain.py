"""``pagesieve-dev bench-retrain``: how long the personal model takes to retrain, and whether the
host keeps answering meanwhile.

::

    pagesieve-dev bench-retrain [--labels 10000] [--dataset big9] [--json]

1. Real labelled blocks: pages of the dataset (held out from the shipped model's training: big9
   by default, never trained on) are analysed and their candidate blocks labelled against the
   truth (:func:`pagesieve_dev.training.labels.label_blocks`), until ``--labels`` blocks are found.
   They go into a temporary label store as corrections of 50 blocks each.
2. A :class:`~pagesieve.native.protocol.Host` in this process asks its
   :class:`~pagesieve.corrections.personal.Retrainer` to train (a child process runs
   ``pagesieve labels retrain``, as when the user corrects a page); while it runs, the host
   answers ``clean`` requests on a real page, one after another.
3. Printed: labelled blocks, training wall time (child start to model written), the host's
   ``clean`` times while training and when idle (median and max), and whether the host served
   the new personal model afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from pagesieve_dev.evaluation.datasets import default_datasets_dir, load_dataset, read_page, read_truth
from pagesieve.errors import DatasetError

BLOCKS_PER_LABEL = 50


def labelled_rows(dataset_dir: Path, count: int) -> tuple[np.ndarray, np.ndarray]:
    """``(x, y)``: ``count`` labelled candidate blocks of real pages (first pages in index order).

    Raises:
        DatasetError: the dataset has fewer labelled blocks than ``count``.
    """
    from pagesieve.extract import analyse
    from pagesieve.page.html import parse_html
    from pagesieve_dev.training.labels import label_blocks, truth_reference

    ds = load_dataset(dataset_dir)
    xs, ys, have = [], [], 0
    for page_id in ds.ids:
        analysis = analyse(parse_html(read_page(ds, page_id), url=ds.record(page_id).url))
        tokens, content = truth_reference(read_truth(ds, page_id))
        y = label_blocks(analysis.blocks, analysis.candidates, tokens, content)
        ok = y >= 0
        xs.append(analysis.features[ok])
        ys.append(y[ok])
        have += int(ok.sum())
        if have >= count:
            return np.vstack(xs)[:count], np.concatenate(ys)[:count]
    raise DatasetError(f"{dataset_dir}: only {have} labelled blocks, {count} asked")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the options."""
    parser.add_argument("--labels", type=int, default=10000, help="labelled blocks (default 10000)")
    parser.add_argument("--dataset", default="big9", help="dataset the blocks come from (default big9)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def main(args: argparse.Namespace) -> int:
    """Run the benchmark; prints the figures."""
    from pagesieve.corrections.signature import Signature
    from pagesieve.corrections.store import Label, LabelStore
    from pagesieve.native.protocol import Host
    from pagesieve.page.html import parse_html
    from pagesieve.page.to_snapshot import page_to_snapshot

    base = default_datasets_dir()
    dataset_dir = Path(args.dataset) if Path(args.dataset).is_dir() else (base / args.dataset if base else Path(args.dataset))
    if not dataset_dir.is_dir():
        raise DatasetError(f"dataset not found: {args.dataset}")
    x, y = labelled_rows(dataset_dir, args.labels)
    ds = load_dataset(dataset_dir)
    page_id = ds.ids[0]
    html, url = read_page(ds, page_id), ds.record(page_id).url or "https://bench.example/page"
    tmp = Path(tempfile.mkdtemp(prefix="pagesieve-bench-retrain-"))
    try:
        labels_path, model_path = tmp / "labels.sqlite3", tmp / "personal-model.skops"
        with LabelStore(labels_path) as store:
            labs = [Label(site="bench.example", url=url, label=int(y[i]), signature=Signature((f"div.bench-{i}",)),
                          features=x[i:i + BLOCKS_PER_LABEL][y[i:i + BLOCKS_PER_LABEL] == y[i]])
                    for i in range(0, len(x), BLOCKS_PER_LABEL)]
            # every row counts once: a label holds the rows of its class; the rest go in a second label
            rest = [Label(site="bench.example", url=url, label=int(1 - y[i]), signature=Signature((f"p.bench-{i}",)),
                          features=x[i:i + BLOCKS_PER_LABEL][y[i:i + BLOCKS_PER_LABEL] != y[i]])
                    for i in range(0, len(x), BLOCKS_PER_LABEL)]
            store.import_labels([lab for lab in labs + rest if len(lab.features)])
            rows = len(store.training_rows()[1])
        os.environ["PAGESIEVE_PERSONAL_MODEL"] = str(model_path)
        host = Host(store_path=tmp / "templates.sqlite3", labels_path=labels_path)
        request = {"v": 1, "id": 0, "type": "clean", "mode": "hide", "templates": False,
                   "snapshot": None}
        request["snapshot"] = page_to_snapshot(parse_html(html, url=url))
        body = json.dumps(request).encode()

        def clean_ms() -> float:
            t0 = time.perf_counter()
            reply = host.handle(body)
            if not reply.get("ok"):
                raise RuntimeError(f"the host failed during the benchmark: {reply}")
            return (time.perf_counter() - t0) * 1000

        idle = [clean_ms() for _ in range(10)]
        started = time.perf_counter()
        host.retrainer.request()
        busy = []
        while host.retrainer.process is not None:
            busy.append(clean_ms())
            host.retrainer.poll()
        seconds = time.perf_counter() - started
        code = host.retrainer.last_returncode
        after = host.handle(body)
        host.close()
    finally:
        os.environ.pop("PAGESIEVE_PERSONAL_MODEL", None)
        shutil.rmtree(tmp, ignore_errors=True)
    out = {
        "labelled_blocks": rows, "train_seconds": round(seconds, 2), "train_exit": code,
        "clean_ms_idle": {"median": round(statistics.median(idle), 1), "max": round(max(idle), 1)},
        "clean_ms_while_training": {"requests": len(busy), "median": round(statistics.median(busy), 1) if busy else None,
                                    "max": round(max(busy), 1) if busy else None},
        "model_after": after.get("model"),
    }
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"labelled blocks: {rows} (from {dataset_dir.name})")
        print(f"retrain (child process, start to model written): {seconds:.1f} s, exit {code}")
        print(f"host clean idle: median {out['clean_ms_idle']['median']} ms, max {out['clean_ms_idle']['max']} ms")
        b = out["clean_ms_while_training"]
        print(f"host clean while training: {b['requests']} answered, median {b['median']} ms, max {b['max']} ms")
        print(f"model served afterwards: {out['model_after']}")
    return 0 if code == 0 else 1
