"""``pagesieve-dev template-guard``: the cut of :data:`pagesieve.templates.evidence.CONFIDENT_CONTENT`,
from the training pages alone.

::

    pagesieve-dev template-guard [DATASET ...] [--side train|test] [--history 3,all]
                                 [--min-site-pages N] [--limit N]

For every page of the chosen side of the split (default: the ``train`` ids of
``models/split.json``; daniel and dragnet are the datasets that group pages by site and have a
training side) whose site has at least ``--min-site-pages`` pages, the page is judged as a single
page and its site's templates are learned from its other pages as ``eval --history K`` learns
them (:class:`~pagesieve_dev.evaluation.history.HistoryExtractor`); the library's removals are
then applied *without* the guard (:func:`~pagesieve.templates.evidence.apply_evidence` with no
scores). Every block it removes is counted by the classifier's score of it
(:attr:`pagesieve.extract.Analysis.content_scores`) as main-content tokens and noise tokens: the
block's tokens aligned with the truth as the training labels are
(:func:`~pagesieve_dev.training.labels.content_shares`, the page's blocks aligned as one sequence).

A guard at cut ``c`` keeps every removed block scored ``>= c``. Its token errors are the main
content it still removes (score ``< c``) plus the noise it keeps (score ``>= c``); the command
prints them per cut and the cut with the fewest (the lowest such cut on a tie).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

import numpy as np

from pagesieve_dev.evaluation.args import positive_int, resolve_dataset_dir
from pagesieve_dev.evaluation.datasets import load_dataset, read_page, read_truth

DEFAULT_DATASETS = ("daniel", "dragnet")
"""The datasets whose training side groups pages by site (big9 has no training side)."""

CUTS = tuple(round(0.40 + 0.01 * k, 2) for k in range(61))
"""Cuts tried: 0.40 (the shipped model's stage-2 cut for articles: every block it kept by score is
protected) to 1.00 (none is), by 0.01."""


@dataclass(slots=True)
class Removed:
    """One block the unguarded template removed: its classifier ``score`` and its ``content``
    and ``noise`` tokens (aligned with the truth or not; fractional where a block is mixed)."""

    score: float
    content: float
    noise: float


def removed_blocks(dataset, page_id: str, history) -> list[Removed]:
    """The blocks the site's library removes from one page without the guard (``history``: a
    :class:`~pagesieve_dev.evaluation.history.HistoryExtractor`, prepared here)."""
    from pagesieve_dev.training.labels import content_shares, truth_reference
    from pagesieve.extract import judge_page
    from pagesieve.page.html import parse_html
    from pagesieve.templates.evidence import apply_evidence, page_evidence

    record = dataset.record(page_id)
    history.prepare(page_id)
    templates = history.templates(record.url)
    if templates is None:
        return []
    analysis, keep = judge_page(parse_html(read_page(dataset, page_id), url=record.url))
    if analysis.content_scores is None:
        raise ValueError("the model has no context stage: there is no probability to guard by")
    after = list(keep)
    apply_evidence(analysis.blocks, after, page_evidence(analysis.blocks, templates, history.kinds), history.kinds)
    gone = [b.index for b in analysis.blocks if keep[b.index] and not after[b.index]]
    if not gone:
        return []
    ref_tokens, ref_content = truth_reference(read_truth(dataset, page_id))
    counts, shares = content_shares(analysis.blocks, range(len(analysis.blocks)), ref_tokens, ref_content)
    return [Removed(analysis.content_scores[i], float(counts[i] * shares[i]), float(counts[i] * (1 - shares[i])))
            for i in gone]


def token_errors(removed: list[Removed], cuts=CUTS) -> list[tuple[float, float, float]]:
    """Per cut: ``(cut, main content removed, noise kept)`` in tokens (module docstring)."""
    score = np.array([r.score for r in removed])
    content = np.array([r.content for r in removed])
    noise = np.array([r.noise for r in removed])
    out = []
    for cut in cuts:
        kept = score >= cut
        out.append((cut, float(content[~kept].sum()), float(noise[kept].sum())))
    return out


def best_cut(errors: list[tuple[float, float, float]]) -> float:
    """The cut of ``errors`` (:func:`token_errors`) with the fewest token errors, the lowest on a tie."""
    return min(errors, key=lambda e: (round(e[1] + e[2], 6), e[0]))[0]


def side_ids(dataset, side: str, min_site_pages: int) -> list[str]:
    """The ids of ``side`` (``train`` or ``test``) of the shipped split whose site has at least
    ``min_site_pages`` pages in the dataset, index order.

    Raises:
        ValueError: the split file does not name the dataset.
    """
    from collections import Counter

    from pagesieve_dev.evaluation.selection import default_split_file, load_split

    split = load_split(default_split_file())
    if dataset.name not in split:
        raise ValueError(f"the split file does not name {dataset.name}")
    wanted = set(split[dataset.name][side])
    per_site = Counter(r.site for r in dataset.rows if r.site is not None)
    return [r.id for r in dataset.rows if r.id in wanted and r.site is not None and per_site[r.site] >= min_site_pages]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``template-guard`` options on ``parser``."""
    parser.add_argument("datasets", nargs="*", metavar="DATASET", default=list(DEFAULT_DATASETS),
                        help="dataset folders or names (default: daniel dragnet)")
    parser.add_argument("--side", choices=("train", "test"), default="train",
                        help="side of models/split.json whose pages are read (default: train)")
    parser.add_argument("--history", default="3,all", help="comma-separated K or all, pooled (default: 3,all)")
    parser.add_argument("--min-site-pages", metavar="N", type=positive_int, default=5,
                        help="only pages whose site has at least N pages in the dataset (default: 5)")
    parser.add_argument("--limit", metavar="N", type=positive_int, help="only the first N pages per dataset")


def main(args: argparse.Namespace) -> int:
    """Run ``pagesieve-dev template-guard``; prints the table and the cut, returns 0."""
    from pagesieve_dev.evaluation.history import HistoryExtractor, parse_history

    removed: list[Removed] = []
    for name in args.datasets:
        dataset = load_dataset(resolve_dataset_dir(name))
        ids = side_ids(dataset, args.side, args.min_site_pages)[:args.limit]
        for value in args.history.split(","):
            history = HistoryExtractor(dataset, parse_history(value.strip()))
            try:
                for page_id in ids:
                    removed.extend(removed_blocks(dataset, page_id, history))
            finally:
                history.close()
            print(f"{dataset.name} --history {value}: {len(ids)} {args.side} pages, {len(removed)} blocks removed so far",
                  file=sys.stderr)
    errors = token_errors(removed)
    content = sum(r.content for r in removed)
    noise = sum(r.noise for r in removed)
    print(f"{len(removed)} blocks removed by the library without the guard: {content:.0f} main-content tokens, "
          f"{noise:.0f} noise tokens")
    print("cut   content removed  noise kept  errors")
    for cut, lost, kept in errors:
        print(f"{cut:.2f}  {lost:15.0f}  {kept:10.0f}  {lost + kept:6.0f}")
    print(f"fewest token errors: cut {best_cut(errors):.2f}")
    return 0
