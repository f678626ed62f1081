"""The pages an evaluation command runs on: the datasets named, and of each the ids that the
held-out split, ``--min-site-pages``, ``--where`` and ``--limit`` leave (the steps and the
split file's format: :mod:`pagesieve_dev.evaluation.runner`).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pagesieve.checkout import repo_root
from pagesieve.errors import DatasetError, ReadError
from pagesieve_dev.evaluation.args import resolve_dataset_dir
from pagesieve_dev.evaluation.datasets import Dataset, load_dataset


def default_split_file() -> Path | None:
    """``<repo>/models/split.json`` (whether or not it exists), ``None`` outside a checkout."""
    root = repo_root()
    return None if root is None else root / "models" / "split.json"


def load_split(path: str | Path) -> dict[str, dict[str, list[str]]]:
    """Read a split file; returns ``{dataset name: {"train": [ids], "test": [ids]}}``.

    Raises:
        ReadError: the file cannot be read.
        DatasetError: it is not valid JSON or not of the documented shape (version 1).
    """
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ReadError(f"{path}: cannot read split file: {exc}") from exc
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{path}: split file is not valid JSON ({exc.msg})") from exc
    if not isinstance(data, dict) or data.get("version") != 1 or not isinstance(data.get("datasets"), dict):
        raise DatasetError(f"{path}: split file must be {{\"version\": 1, \"datasets\": {{...}}}}")
    out: dict[str, dict[str, list[str]]] = {}
    for ds_name, parts in data["datasets"].items():
        if not isinstance(parts, dict):
            raise DatasetError(f"{path}: split of dataset {ds_name!r} must be an object")
        entry: dict[str, list[str]] = {}
        for key in ("train", "test"):
            ids = parts.get(key, [])
            if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
                raise DatasetError(f"{path}: {ds_name}.{key} must be a list of id strings")
            entry[key] = ids
        out[ds_name] = entry
    return out


def select_ids(
    dataset: Dataset,
    split: dict[str, dict[str, list[str]]] | None = None,
    *,
    min_site_pages: int | None = None,
    limit: int | None = None,
    notes: list[str] | None = None,
    where: tuple[str, str] | None = None,
) -> list[str]:
    """The ids to evaluate, in index order (selection steps: :mod:`pagesieve_dev.evaluation.runner`).

    ``split`` is the content of a split file (``None``: no split, every page). Split test ids
    that are not in the dataset are ignored, with a line appended to ``notes``.
    """
    ids = dataset.ids
    if split is not None and dataset.name in split:
        test = set(split[dataset.name]["test"])
        unknown = len(test - set(ids))
        if unknown and notes is not None:
            notes.append(f"{dataset.name}: {unknown} test id(s) of the split file are not in the dataset; ignored")
        ids = [i for i in ids if i in test]
    if min_site_pages is not None:
        per_site = Counter(r.site for r in dataset.rows if r.site is not None)
        ids = [i for i in ids if (s := dataset.record(i).site) is not None and per_site[s] >= min_site_pages]
    if where is not None:
        key, value = where
        ids = [i for i in ids if str(dataset.record(i).row.get(key)) == value]
    if limit is not None:
        ids = ids[:limit]
    return ids


@dataclass(slots=True)
class Selection:
    """The pages a command runs on (:func:`select_pages`).

    Attributes:
        datasets: the loaded datasets, in the order named; ids: per dataset, the selected ids.
        split: the split file's content (``None``: no split, every page counts).
        split_path: the split file read, or ``None``.
    """

    datasets: list[Dataset]
    ids: list[list[str]]
    split: dict[str, dict[str, list[str]]] | None
    split_path: Path | None


def select_pages(args: argparse.Namespace, notes: list[str]) -> Selection:
    """Load the datasets of ``args`` (options of
    :func:`~pagesieve_dev.evaluation.runner.add_selection_arguments`) and select their pages as
    :mod:`pagesieve_dev.evaluation.runner` says; a note is appended to ``notes`` when there is
    no split file (every page counts) or split ids are unknown.

    Raises:
        DatasetError: a dataset folder or the split file is malformed.
        ReadError: ``--split-file`` cannot be read.
    """
    datasets = [load_dataset(resolve_dataset_dir(d)) for d in args.datasets]
    split: dict[str, dict[str, list[str]]] | None = None
    split_path: Path | None = None
    if args.split == "heldout":
        split_path = args.split_file if args.split_file is not None else default_split_file()
        if args.split_file is not None or (split_path is not None and split_path.is_file()):
            split = load_split(split_path)
        else:
            notes.append(
                f"no split file ({split_path or 'models/split.json'}): evaluating all pages, "
                "including any the model was trained on"
            )
            split_path = None
    selected = [
        select_ids(ds, split, min_site_pages=getattr(args, "min_site_pages", None), limit=args.limit, notes=notes,
                   where=getattr(args, "where", None))
        for ds in datasets
    ]
    return Selection(datasets, selected, split, split_path)
