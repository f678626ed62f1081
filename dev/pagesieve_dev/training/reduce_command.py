"""``pagesieve-dev reduce``: fit the reduced set of a model's SVM, or measure one against the model
before it (held-out agreement, interleaved speed).

The fit is :func:`pagesieve_dev.training.reduce.reduce_svm` (see there); this module is the
command around it and the two measurements that ``models/README.md`` ("Reduced set") reports.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from pagesieve_dev.training.reduce import REDUCED_CENTRES, candidate_rows, reduce_svm

HELD_OUT = ("big9", "cleaneval", "daniel", "dragnet", "l3s_gn1", "readability", "wcxb_dev", "zh_cwced")
"""The datasets whose held-out pages :func:`agreement` reads (those of ``pagesieve-dev eval``)."""


def agreement(old, new, datasets_dir: Path, split: dict, names=HELD_OUT, limit: int | None = None) -> list[str]:
    """How far two run-time models (:class:`pagesieve.classify.classifier.BlockClassifier`)
    differ on the held-out pages of ``split``: each page is analysed once, both SVMs' decisions
    are compared on its candidate blocks, and both models' final verdicts (classifier then
    :func:`pagesieve.extract.settle`, as :func:`pagesieve.extract.classify` makes them) on all
    its blocks. Returns the printed lines, one per dataset and one for all: max, mean and 99th
    percentile of the absolute decision difference, blocks and pages whose verdict changed."""
    from pagesieve.extract import analyse, classify
    from pagesieve.page.html import parse_html
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    lines, every = [], []
    blocks = changed = pages = pages_changed = 0
    for name in names:
        if not (datasets_dir / name).is_dir():
            continue
        dataset = load_dataset(datasets_dir / name)
        ids = split["datasets"].get(name, {}).get("test", [])[:limit] if limit else split["datasets"].get(name, {}).get("test", [])
        diffs, n_blocks, n_changed, n_pages = [], 0, 0, 0
        for page_id in ids:
            try:
                a = analyse(parse_html(read_page(dataset, page_id), url=dataset.record(page_id).url))
            except Exception as exc:  # noqa: BLE001 - a broken page is counted out, as eval does
                print(f"  {name}/{page_id}: skipped ({exc})", file=sys.stderr)
                continue
            if not a.candidates:
                continue
            diffs.append(np.abs(old.decision(a.features) - new.decision(a.features)))
            moved = sum(x != y for x, y in zip(classify(a, old), classify(a, new)))
            n_blocks += len(a.blocks)
            n_changed += moved
            n_pages += moved > 0
            pages += 1
        if not diffs:
            continue
        d = np.concatenate(diffs)
        every.append(d)
        blocks, changed, pages_changed = blocks + n_blocks, changed + n_changed, pages_changed + n_pages
        lines.append(f"{name}: {len(ids)} pages, {len(d)} candidate blocks; |decision difference| max {d.max():.4f} "
                     f"mean {d.mean():.5f} p99 {np.percentile(d, 99):.4f}; final verdicts changed {n_changed} of "
                     f"{n_blocks} blocks, on {n_pages} pages")
    if every:
        d = np.concatenate(every)
        lines.append(f"all: {len(d)} candidate blocks; |decision difference| max {d.max():.4f} mean {d.mean():.5f}; "
                     f"final verdicts changed {changed} of {blocks} blocks ({changed / max(blocks, 1):.5f}), "
                     f"on {pages_changed} of {pages} pages")
    return lines


def speed_ab(old, new, datasets_dir: Path, names=HELD_OUT, pages: int = 400, rounds: int = 8, seed: int = 7) -> list[str]:
    """Interleaved A/B timing of two run-time models in one process (the machine is shared: one
    run of each, one after the other, would measure the load): ``pages`` pages drawn with
    ``seed`` evenly from ``names`` (any split side), then ``rounds`` rounds, the models' order
    alternating, each timing :func:`pagesieve.extract.extract` over every page and
    :meth:`~pagesieve.classify.classifier.BlockClassifier.decision` over their feature rows
    (three times, averaged). Returns the printed lines: per round, then min and median per
    model in ms per page and the new/old ratios."""
    import random

    from pagesieve.extract import analyse, extract
    from pagesieve.page.html import parse_html
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    draw = random.Random(seed)
    sources = []
    for name in names:
        if (datasets_dir / name).is_dir():
            dataset = load_dataset(datasets_dir / name)
            for page_id in draw.sample(list(dataset.ids), min(len(dataset.ids), pages // len(names))):
                sources.append((read_page(dataset, page_id), dataset.record(page_id).url))
    rows = [analyse(parse_html(html, url=url)).features for html, url in sources]
    models = {"old": old, "new": new}
    for model in models.values():  # warm-up
        for html, url in sources[:20]:
            extract(html, url, model=model)
    took = {"old": [], "new": []}
    decided = {"old": [], "new": []}
    lines = [f"{len(sources)} pages, {sum(len(r) for r in rows)} candidate rows; centres old {len(old.svm.support)}, "
             f"new {len(new.svm.support)}"]
    for r in range(rounds):
        order = ("old", "new") if r % 2 == 0 else ("new", "old")
        for tag in order:
            t = time.perf_counter()
            for html, url in sources:
                extract(html, url, model=models[tag])
            took[tag].append((time.perf_counter() - t) * 1000 / len(sources))
        for tag in order:
            t = time.perf_counter()
            for _ in range(3):
                for x in rows:
                    models[tag].decision(x)
            decided[tag].append((time.perf_counter() - t) * 1000 / 3 / len(sources))
        lines.append(f"round {r}: extract old {took['old'][-1]:.2f} new {took['new'][-1]:.2f} ms/page; "
                     f"decision old {decided['old'][-1]:.3f} new {decided['new'][-1]:.3f} ms/page")
    for tag in ("old", "new"):
        lines.append(f"{tag}: extract min {min(took[tag]):.2f} median {np.median(took[tag]):.2f} ms/page; "
                     f"decision min {min(decided[tag]):.3f} median {np.median(decided[tag]):.3f} ms/page")
    ratio = np.array(took["new"]) / np.array(took["old"])
    lines.append(f"new/old: extract median {np.median(took['new']) / np.median(took['old']):.3f} (per round {np.median(ratio):.3f}); "
                 f"decision median {np.median(decided['new']) / np.median(decided['old']):.3f}")
    return lines


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``reduce`` options."""
    from pagesieve_dev.training.split import MODELS_DIR, SEED

    parser.add_argument("--model", type=Path, default=MODELS_DIR / "blocks.skops",
                        help="the skops archive whose SVM is reduced, rewritten in place with its twin (default models/blocks.skops)")
    parser.add_argument("--centres", type=int, default=REDUCED_CENTRES, help=f"kernel centres (default {REDUCED_CENTRES})")
    parser.add_argument("--datasets", type=Path, default=None, help="datasets folder (default: ../shared/datasets)")
    parser.add_argument("--split-file", type=Path, default=None, help="split whose training pages give the rows (default: the model's folder's split.json)")
    parser.add_argument("--limit", type=int, default=None, help="pages per dataset (quick runs)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--agreement", type=Path, default=None, metavar="OLD",
                        help="fit nothing: compare the model OLD (e.g. the archive before the reduction) with --model "
                        "on the held-out pages of the split (decision differences, verdicts changed)")
    parser.add_argument("--speed", type=int, default=None, metavar="PAGES",
                        help="with --agreement: time OLD and --model instead, interleaved in one process over PAGES "
                        "pages drawn from the eight datasets (8 rounds)")


def main(args: argparse.Namespace) -> int:
    """Run ``pagesieve-dev reduce``: with ``--agreement OLD``, print :func:`agreement` and stop;
    else fit the reduced set of ``--model``'s SVM on the candidate rows
    of the split's training pages, store it in the archive (and its compiled twin), record its
    facts under ``svm_reduced`` in the meta (and in ``training.json`` beside the model when there
    is one). Prints the check figures.

    Raises:
        DatasetError: no datasets folder. ModelError: the model cannot be read.
    """
    from pagesieve.classify.model_store import load_fitted, save_model
    from pagesieve.errors import DatasetError
    from pagesieve_dev.evaluation.datasets import default_datasets_dir
    from pagesieve_dev.training.pages import collect

    datasets_dir = args.datasets or default_datasets_dir()
    if datasets_dir is None or not Path(datasets_dir).is_dir():
        raise DatasetError("datasets folder not found: pass --datasets or set PAGESIEVE_DATASETS")
    split_path = args.split_file or args.model.with_name("split.json")
    split = json.loads(Path(split_path).read_text(encoding="utf-8"))
    if args.agreement is not None:
        from pagesieve.classify.model_store import load_model

        old, new = load_model(args.agreement), load_model(args.model)
        if getattr(args, "speed", None):
            lines = speed_ab(old, new, Path(datasets_dir), pages=args.speed)
        else:
            lines = agreement(old, new, Path(datasets_dir), split, limit=args.limit)
        for line in lines:
            print(line, flush=True)
        return 0
    fitted = load_fitted(args.model)
    pages, _sources = collect(Path(datasets_dir), split, "train", args.limit)
    reduced, info = reduce_svm(fitted.estimator, candidate_rows(pages), args.centres, args.seed)
    fitted.reduced = reduced
    fitted.meta["svm_reduced"] = info
    save_model(fitted, args.model)
    record = args.model.with_name("training-boxes.json" if fitted.meta.get("rendered") else "training.json")
    if record.is_file():
        meta = json.loads(record.read_text(encoding="utf-8"))
        meta["svm_reduced"] = info
        record.write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {args.model}: {info['centres']} centres for {info['support_vectors']} support vectors; "
          f"check {json.dumps(info.get('check'))}")
    return 0
