"""The site-grouped train/test split of the shared datasets and the cross-fitting folds of sites.

Step 1 of ``pagesieve-dev train`` (:mod:`pagesieve_dev.training.train`): for each training
dataset, its *sites* are shuffled with a fixed seed and half of them go to ``train``; every page
of a site lands on one side, so no site is both trained on and evaluated on. Datasets kept whole
for evaluation are listed with every page in ``test``. Written to ``models/split.json``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from pagesieve_dev.evaluation.datasets import load_dataset

TRAIN_DATASETS = ("l3s_gn1", "dragnet", "cleaneval", "wcxb_dev", "daniel")
"""Datasets half of whose sites are trained on."""

EVAL_ONLY_DATASETS = ("big9", "zh_cwced", "readability")
"""Datasets never trained on (big9 is kept whole for the per-site template experiments)."""

SEED = 20261121
TRAIN_SHARE = 0.5
REPO_ROOT = Path(__file__).resolve().parents[3]
MODELS_DIR = REPO_ROOT / "models"


def site_key(record) -> str:
    """Grouping key of a page: its site, or its own id when the site is unknown."""
    return record.site or f"page:{record.id}"


def make_split(datasets_dir: Path, seed: int = SEED) -> dict:
    """The site-grouped train/test split of every dataset under ``datasets_dir``.

    Returns:
        ``{"version": 1, "seed": seed, "datasets": {name: {"train": [ids], "test": [ids]}}}``.
    """
    out: dict = {"version": 1, "seed": seed, "train_share": TRAIN_SHARE, "datasets": {}}
    for name in TRAIN_DATASETS + EVAL_ONLY_DATASETS:
        path = datasets_dir / name
        if not path.is_dir():
            continue
        dataset = load_dataset(path)
        if name in EVAL_ONLY_DATASETS:
            out["datasets"][name] = {"train": [], "test": list(dataset.ids)}
            continue
        sites = sorted({site_key(r) for r in dataset})
        # Order sites by a keyed hash, not by Python's salted hash(): same split everywhere.
        sites.sort(key=lambda s: hashlib.sha256(f"{seed}:{s}".encode()).hexdigest())
        train_sites = set(sites[: round(len(sites) * TRAIN_SHARE)])
        train = [r.id for r in dataset if site_key(r) in train_sites]
        test = [r.id for r in dataset if site_key(r) not in train_sites]
        out["datasets"][name] = {"train": train, "test": test}
    return out


def read_or_make_split(split_path: Path, datasets_dir: Path, seed: int = SEED, new: bool = False) -> dict:
    """The split stored at ``split_path``, or (when ``new`` or there is none) a fresh
    :func:`make_split` of ``datasets_dir`` with ``seed``, written there as JSON (its path printed
    to stderr).

    Returns:
        The split, as :func:`make_split` gives it.
    """
    if new or not split_path.exists():
        split = make_split(datasets_dir, seed)
        split_path.write_text(json.dumps(split, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {split_path}", file=sys.stderr)
    else:
        split = json.loads(split_path.read_text(encoding="utf-8"))
    return split


def fold_of(group: str, seed: int = SEED) -> int:
    """Cross-fitting fold (0 or 1) of a site, from a keyed hash."""
    return int(hashlib.sha256(f"fold:{seed}:{group}".encode()).hexdigest(), 16) % 2
