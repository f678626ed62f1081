"""Command-line argument types shared by the ``pagesieve-dev`` commands."""

from __future__ import annotations

import argparse
from pathlib import Path

from pagesieve_dev.evaluation.datasets import default_datasets_dir


def positive_int(value: str) -> int:
    """``value`` as an integer of at least 1 (an argparse ``type``).

    Raises:
        argparse.ArgumentTypeError: not an integer, or below 1.
    """
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {value!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {value!r}")
    return n


def resolve_dataset_dir(arg: str) -> Path:
    """The dataset folder ``arg`` names: a path as given, or a bare dataset name (``wcxb_dev``)
    found in the datasets folder (:func:`~pagesieve_dev.evaluation.datasets.default_datasets_dir`)
    when no such path exists here. Whether it is a dataset is checked when it is loaded."""
    p = Path(arg).expanduser()
    if not p.exists() and not p.is_absolute() and len(p.parts) == 1:
        base = default_datasets_dir()
        if base is not None and (base / arg).is_dir():
            return base / arg
    return p
