"""``pagesieve-dev eval-layout``: what the rendered layout adds, on rendered dataset pages.

::

    pagesieve-dev eval-layout SNAPSHOTS_DIR [DATASET ...] [--limit N] [--box-model PATH] [--model PATH]
                          [--line-model [--line-pages N]]

For each dataset (default: every dataset that has a folder under ``SNAPSHOTS_DIR``, written by
``pagesieve-dev render``), on its held-out pages (``models/split.json``) that were rendered, macro
token F1 against the truth of (issue "What the browser sees", table 2):

* ``zones``: VL_PS alone (seed 003): the candidate blocks in the CENTER zone
  (:func:`pagesieve.blocks.layout.zone_verdict`);
* ``lines``: the BP line model of seed 001 alone (:mod:`pagesieve_dev.lines`), trained at the start
  of the run on the first ``--line-pages`` training pages of each training dataset (HTML), with
  ``--line-model``;
* ``svm``: stage 1 of the box-free model alone (the SVM of seed 000, no context stage);
* ``box-free``: the box-free two-stage model (the shipped default) on the same snapshot;
* ``box-aware``: the box-aware model (first-pass features plus :mod:`pagesieve.blocks.layout`'s box
  features, both stages): the combination of the SVM, the context stage and the zones/boxes;
* ``html``: for reference, the box-free model on the page's HTML (what ``pagesieve-dev eval``
  measures).
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from pathlib import Path

from pagesieve_dev.evaluation.metric import prf_counts
from pagesieve.tokens import tokens
from pagesieve.table import format_table

COLUMNS = ("zones", "lines", "svm", "box-free", "box-aware", "html")


def _f1(text: str, truth: Counter) -> float:
    return prf_counts(Counter(tokens(text)), truth)[2]


def evaluate_layout(snapshots: Path, dataset_dir: Path, split: dict, box_free, box_aware, limit: int | None = None,
                    line_model=None) -> dict:
    """Per-column macro F1 (and page count) for one dataset; see the module docstring.

    Args:
        snapshots: the folder holding ``<dataset name>/`` of rendered pages.
        dataset_dir: the dataset folder. split: from :func:`pagesieve_dev.evaluation.selection.load_split`.
        box_free, box_aware: :class:`~pagesieve.classify.classifier.BlockClassifier` (``box_aware``
            may be ``None``). line_model: a :class:`pagesieve_dev.lines.LineModel` or ``None``.

    Returns:
        ``{"pages": n, "not_rendered": m, column: macro F1 ...}``.
    """
    from pagesieve.article.text import blocks_text
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page, read_truth
    from pagesieve_dev.evaluation.render import load_rendered
    from pagesieve_dev.evaluation.selection import select_ids
    from pagesieve.extract import analyse, classify, extract
    from pagesieve.blocks.layout import zone_verdict
    from pagesieve.page.snapshot import parse_snapshot

    dataset = load_dataset(dataset_dir)
    ids = select_ids(dataset, split)
    scores: dict[str, list[float]] = {c: [] for c in COLUMNS}
    missing = 0
    for page_id in ids[:limit] if limit else ids:
        snapshot = load_rendered(snapshots / dataset.name, page_id)
        if snapshot is None:
            missing += 1
            continue
        truth = Counter(tokens(read_truth(dataset, page_id)))
        if not truth:
            continue
        analysis = analyse(parse_snapshot(snapshot))
        zone_keep = [False] * len(analysis.blocks)
        for index, flag in zip(analysis.candidates, zone_verdict(analysis.page, analysis.blocks, analysis.candidates)):
            zone_keep[index] = flag
        scores["zones"].append(_f1(blocks_text(analysis.blocks, zone_keep), truth))
        if line_model is not None:
            line_keep = [False] * len(analysis.blocks)
            for index, flag in zip(analysis.candidates, line_model.keep(analysis)):
                line_keep[index] = flag
            scores["lines"].append(_f1(blocks_text(analysis.blocks, line_keep), truth))
        svm_keep = [False] * len(analysis.blocks)
        if analysis.candidates:
            for index, flag in zip(analysis.candidates, box_free.predict(analysis.features)):
                svm_keep[index] = bool(flag)
        scores["svm"].append(_f1(blocks_text(analysis.blocks, svm_keep), truth))
        keep = classify(analysis, box_free)
        scores["box-free"].append(_f1(blocks_text(analysis.blocks, keep), truth))
        if box_aware is not None:  # the same analysis: its box features are added when asked
            scores["box-aware"].append(_f1(blocks_text(analysis.blocks, classify(analysis, box_aware)), truth))
        record = dataset.record(page_id)
        scores["html"].append(_f1(extract(read_page(dataset, page_id), url=record.url, model=box_free).text, truth))
    out = {"pages": len(scores["html"]), "not_rendered": missing}
    for column, values in scores.items():
        out[column] = round(statistics.fmean(values), 4) if values else None
    return out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``eval-layout`` options."""
    from pagesieve_dev.evaluation.args import positive_int

    parser.add_argument("snapshots", type=Path, help="the folder pagesieve-dev render wrote <dataset>/ folders into")
    parser.add_argument("datasets", nargs="*", help="dataset names (default: every rendered one)")
    parser.add_argument("--limit", type=positive_int, default=None, help="only the first N held-out pages per dataset")
    parser.add_argument("--model", type=Path, default=None, help="the box-free model (default: the shipped one)")
    parser.add_argument("--box-model", type=Path, default=None, help="the box-aware model (default: the shipped one, if any)")
    parser.add_argument("--line-model", action="store_true", help="also train and score the BP line model of seed 001")
    parser.add_argument("--line-pages", type=positive_int, default=150, help="training pages per dataset for it (default: 150)")


def main(args: argparse.Namespace) -> int:
    """Print the table (one row per dataset)."""
    from pagesieve_dev.evaluation.datasets import default_datasets_dir
    from pagesieve_dev.evaluation.selection import default_split_file, load_split
    from pagesieve.classify.model_store import load_model, shipped_box_model

    base = default_datasets_dir()
    if base is None:
        raise FileNotFoundError("../shared/datasets not found")
    names = args.datasets or sorted(p.name for p in args.snapshots.iterdir() if p.is_dir() and (base / p.name).is_dir())
    split = load_split(default_split_file())
    box_free = load_model(args.model)
    box_aware = load_model(args.box_model) if args.box_model else shipped_box_model()
    line_model = _train_line_model(base, split, args.line_pages) if args.line_model else None
    header = ("dataset", "pages", *COLUMNS)
    rows = [header]
    for name in names:
        result = evaluate_layout(args.snapshots, base / name, split, box_free, box_aware, args.limit, line_model)
        rows.append((name, str(result["pages"]), *("-" if result[c] is None else f"{result[c]:.3f}" for c in COLUMNS)))
    print(format_table(rows))
    return 0


def _train_line_model(base: Path, split: dict, pages_per_dataset: int):
    """The seed 001 line network, trained on the first training pages of each dataset."""
    import sys
    import time

    from pagesieve_dev.evaluation.datasets import load_dataset
    from pagesieve_dev.lines import fit_line_model
    from pagesieve_dev.training.pages import page_rows
    from pagesieve_dev.training.split import TRAIN_DATASETS

    started = time.perf_counter()
    analyses, labels = [], []
    for name in TRAIN_DATASETS:
        ids = split.get(name, {}).get("train", [])[:pages_per_dataset]
        if not ids or not (base / name).is_dir():
            continue
        dataset = load_dataset(base / name)
        for page_id in ids:
            try:
                analysis, y, _truth = page_rows(dataset, page_id)
            except Exception:  # noqa: BLE001 - a broken training page is skipped, as in train
                continue
            analyses.append(analysis)
            labels.append(y)
    model = fit_line_model(analyses, labels)
    print(f"line model: trained on {len(analyses)} pages in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return model
