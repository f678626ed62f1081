"""The training pages: read, analysed and labelled (steps 2 and 3 of ``pagesieve-dev train``).

Each page of one side of the split (:mod:`pagesieve_dev.training.split`) is analysed into its
candidate blocks and their feature rows, and its blocks labelled (:mod:`pagesieve_dev.training.labels`:
l3s_gn1 from its block labels, the others by aligning the truth text to the blocks);
:func:`stack_rows` gathers the labelled rows of many pages.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pagesieve.errors import DatasetError
from pagesieve_dev.evaluation.datasets import Dataset, load_dataset, read_page, read_truth
from pagesieve_dev.training.labels import IGNORE, l3s_reference, label_blocks, truth_reference
from pagesieve_dev.training.split import TRAIN_DATASETS, site_key


@dataclass(slots=True)
class PageData:
    """One training page: its analysis (blocks, candidates, features), labels and truth text."""

    dataset: str
    page_id: str
    group: str
    analysis: object
    y: np.ndarray
    truth: str


class NotRendered(Exception):
    """A page has no rendered snapshot (``pagesieve-dev render``) where one was asked for."""


def page_rows(dataset: Dataset, page_id: str, snapshots: Path | None = None):
    """Analysis and labels of the candidate blocks of one page.

    Args:
        snapshots: a folder of rendered datasets (``<snapshots>/<dataset name>/``, written by
            ``pagesieve-dev render``): the page is read from its snapshot, and its feature rows get
            the box features of :mod:`pagesieve.blocks.layout` (the box-aware model's rows).

    Returns:
        ``(analysis, y, truth)`` with ``y`` in {1, 0, IGNORE} per candidate block.

    Raises:
        NotRendered: ``snapshots`` is given and the page has no snapshot there.
    """
    from pagesieve.extract import analyse, model_rows
    from pagesieve.page.html import parse_html

    record = dataset.record(page_id)
    if snapshots is None:
        page = parse_html(read_page(dataset, page_id), url=record.url)
    else:
        from pagesieve_dev.evaluation.render import load_rendered
        from pagesieve.page.snapshot import parse_snapshot

        snapshot = load_rendered(snapshots / dataset.name, page_id)
        if snapshot is None:
            raise NotRendered(f"{dataset.name}/{page_id} has no snapshot under {snapshots}")
        page = parse_snapshot(snapshot)
    analysis = analyse(page)
    if snapshots is not None:
        analysis.features = model_rows(analysis, _BOX_AWARE)
    truth = read_truth(dataset, page_id)
    if dataset.name == "l3s_gn1":
        ref_tokens, ref_content = l3s_reference(dataset.path / "labels" / f"{page_id}.json")
    else:
        ref_tokens, ref_content = truth_reference(truth)
    y = label_blocks(analysis.blocks, analysis.candidates, ref_tokens, ref_content)
    return analysis, y, truth


class _BoxAware:
    """Stands for a box-aware model where :func:`pagesieve.extract.model_rows` asks."""

    uses_boxes = True
    uses_cards = False
    page_type = None


_BOX_AWARE = _BoxAware()


def collect(datasets_dir: Path, split: dict, side: str = "train", limit: int | None = None,
            snapshots: Path | None = None):
    """Every page on ``side`` of the split, analysed and labelled (from its rendered snapshot
    with box features when ``snapshots`` is given; pages not rendered are counted and left out).

    Returns:
        ``(pages, sources)``: a list of :class:`PageData` and per-dataset counts.
    """
    pages: list[PageData] = []
    sources: dict[str, dict] = {}
    for name in TRAIN_DATASETS:
        ids = split["datasets"].get(name, {}).get(side, [])
        if not ids:
            continue
        if snapshots is not None and not (snapshots / name).is_dir():
            print(f"  {name}: not rendered under {snapshots}; left out", file=sys.stderr)
            continue
        dataset = load_dataset(datasets_dir / name)
        if limit:
            ids = ids[:limit]
        sources[name] = _collect_dataset(name, dataset, ids, snapshots, pages)
        print(f"  {name}: {sources[name]}", file=sys.stderr)
    if not pages:
        raise DatasetError("no training pages: are the datasets under " + str(datasets_dir) + "?")
    return pages, sources


def _collect_dataset(name: str, dataset: Dataset, ids: list[str], snapshots: Path | None,
                     pages: list[PageData]) -> dict:
    """Analyse and label the pages ``ids`` of ``dataset`` (named ``name`` in the split),
    appending them to ``pages``; returns the counts of :func:`collect`'s ``sources`` (a broken
    page is counted and skipped)."""
    counts = {"pages": 0, "content": 0, "noise": 0, "ignored": 0, "failed": 0, "not_rendered": 0}
    for page_id in ids:
        try:
            analysis, y, truth = page_rows(dataset, page_id, snapshots)
        except NotRendered:
            counts["not_rendered"] += 1
            continue
        except Exception as exc:  # a broken page must not stop training; it is counted
            counts["failed"] += 1
            print(f"  {name}/{page_id}: skipped ({exc})", file=sys.stderr)
            continue
        counts["pages"] += 1
        mask = y != IGNORE
        counts["ignored"] += int((~mask).sum())
        counts["content"] += int((y == 1).sum())
        counts["noise"] += int((y == 0).sum())
        group = f"{name}:{site_key(dataset.record(page_id))}"
        pages.append(PageData(name, page_id, group, analysis, y, truth))
    return counts


def stack_rows(pages: list[PageData], columns=None):
    """Labelled rows of ``pages``: ``(X, y, groups, page_index)``; ``columns`` picks per-page
    matrices (default: the first-pass features)."""
    xs, ys, groups, owner = [], [], [], []
    for k, pd in enumerate(pages):
        mask = pd.y != IGNORE
        if not mask.any():
            continue
        x = pd.analysis.features if columns is None else columns[k]
        xs.append(x[mask])
        ys.append(pd.y[mask])
        groups.extend([pd.group] * int(mask.sum()))
        owner.extend([k] * int(mask.sum()))
    return np.vstack(xs), np.concatenate(ys).astype(np.int8), np.array(groups), np.array(owner)
