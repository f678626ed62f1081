"""The ``pagesieve-dev`` command line: evaluation, benchmarks, rendering and training.

The developers' commands, apart from the user's ``pagesieve`` (:mod:`pagesieve.cli`, whose
:func:`~pagesieve.cli.make_parser` and :func:`~pagesieve.cli.run` this module shares: the same
error messages and exit codes). Each subcommand lives with the code it drives.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from pagesieve.cli import make_parser, run


def eval_main(args: argparse.Namespace) -> int:
    """Run ``pagesieve-dev eval``: the site-grouped cross-validation with ``--cv K``
    (:func:`pagesieve_dev.evaluation.cv.main`), else the held-out (or ``--split all``) run of
    :func:`pagesieve_dev.evaluation.runner.main`; returns the exit code."""
    from pagesieve_dev.evaluation import cv, runner

    return cv.main(args) if getattr(args, "cv", None) is not None else runner.main(args)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every developer command registered."""
    from pagesieve_dev.evaluation import bench, bench_batch, bench_browser, bench_learn, bench_retrain, gate, kept_noise, layout_eval, render, runner, template_guard
    from pagesieve_dev.training import reduce_command, train, type_cut_command

    return make_parser("pagesieve-dev", "Evaluate, benchmark and train pagesieve on the shared datasets.", (
        ("eval", "token P/R/F1 and speed on benchmark datasets", runner.add_arguments, eval_main),
        ("gate", "F1 per dataset with its standard error over site-grouped folds, the mean over datasets and the worst; --against an earlier run", gate.add_arguments, gate.main),
        ("kept-noise", "the output lines the truth lacks, by class (captions, teasers, promos, contact, header, duplicates) and what kept them", kept_noise.add_arguments, kept_noise.main),
        ("html-text", "pages whose article HTML holds fewer words than its text, or whose text leaves its order, per dataset (--wrap TAG: each page in one TAG)",
         "pagesieve_dev.evaluation.html_text:add_html_text_arguments", "pagesieve_dev.evaluation.html_text:html_text_main"),
        ("bench", "time HTML -> article per page and peak memory", bench.add_arguments, bench.main),
        ("template-guard", "the classifier score from which template evidence leaves a block kept, chosen on the training pages", template_guard.add_arguments, template_guard.main),
        ("bench-learn", "time learning site templates and measure the store", bench_learn.add_arguments, bench_learn.main),
        ("bench-batch", "pages/s of `pagesieve batch` against trafilatura on a WARC, and F1 with templates against single page", bench_batch.add_arguments, bench_batch.main),
        ("bench-browser", "snapshot size and click-to-hidden time in Chromium", bench_browser.add_arguments, bench_browser.main),
        ("bench-retrain", "time retraining the personal model with N labelled blocks while the host answers", bench_retrain.add_arguments, bench_retrain.main),
        ("render", "render dataset pages in headless Chromium into DOM snapshots", render.add_arguments, render.main),
        ("eval-layout", "F1 of zones, SVM, box-free and box-aware models on rendered pages", layout_eval.add_arguments, layout_eval.main),
        ("train", "train the block classifier from ../shared/datasets", train.add_arguments, train.main),
        ("reduce", "give a model's SVM fewer kernel centres (a reduced set) with the same decisions", reduce_command.add_arguments, reduce_command.main),
        ("type-cut", "set a model's stage-2 cut for the pages it does not take for articles", type_cut_command.add_arguments, type_cut_command.main),
    ))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (also used as the process exit status)."""
    return run(build_parser(), argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
