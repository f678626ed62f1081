"""The ``pagesieve`` command line.

Each subcommand lives with the code it drives; this module only wires them up and turns
:class:`~pagesieve.errors.PagesieveError` into a one-line message and its exit code (see
:mod:`pagesieve.errors` for the table). No traceback reaches the user for bad input.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from pagesieve import __version__
from pagesieve.errors import PagesieveError


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    from pagesieve.evaluation import bench, bench_batch, bench_browser, bench_learn, bench_retrain, layout_eval, render, runner
    from pagesieve.training import train
    from pagesieve import extract_cli
    from pagesieve.crawl import cli as crawl_cli
    from pagesieve.templates import cli as templates_cli
    from pagesieve.library import cli as library_cli
    from pagesieve.library import window as library_window
    from pagesieve.corrections import cli as corrections_cli
    from pagesieve.native import install_cli
    from pagesieve import try_cli

    parser = argparse.ArgumentParser(
        prog="pagesieve",
        description="Strip web pages down to their main content, locally.",
    )
    parser.add_argument("--version", action="version", version=f"pagesieve {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    commands = (
        ("extract", "print the article of one page (file or stdin)", extract_cli.add_arguments, extract_cli.main),
        ("batch", "clean a crawl: WARC files in, one row per page out (Parquet or JSON lines)", crawl_cli.add_arguments, crawl_cli.main),
        ("eval", "token P/R/F1 and speed on benchmark datasets", runner.add_arguments, runner.main),
        ("bench", "time HTML -> article per page and peak memory", bench.add_arguments, bench.main),
        ("bench-learn", "time learning site templates and measure the store", bench_learn.add_arguments, bench_learn.main),
        ("bench-batch", "pages/s of `pagesieve batch` against trafilatura on a WARC, and F1 with templates against single page", bench_batch.add_arguments, bench_batch.main),
        ("bench-browser", "snapshot size and click-to-hidden time in Chromium", bench_browser.add_arguments, bench_browser.main),
        ("bench-retrain", "time retraining the personal model with N labelled blocks while the host answers", bench_retrain.add_arguments, bench_retrain.main),
        ("render", "render dataset pages in headless Chromium into DOM snapshots", render.add_arguments, render.main),
        ("eval-layout", "F1 of zones, SVM, box-free and box-aware models on rendered pages", layout_eval.add_arguments, layout_eval.main),
        ("train", "train the block classifier from ../shared/datasets", train.add_arguments, train.main),
        ("learn", "learn the site template from one visited page", templates_cli.add_learn_arguments, templates_cli.learn_main),
        ("sites", "list what is learned of each site", templates_cli.add_sites_arguments, templates_cli.sites_main),
        ("forget", "erase what is learned of a site, or of all sites", templates_cli.add_forget_arguments, templates_cli.forget_main),
        ("save", "save the clean article of a page as Markdown and HTML files", library_cli.add_save_arguments, library_cli.save_main),
        ("saved", "list or search the saved articles", library_cli.add_saved_arguments, library_cli.saved_main),
        ("labels", "list, export, import or delete your corrections (personal labels)", corrections_cli.add_labels_arguments, corrections_cli.labels_main),
        ("reset", "delete the personal model (--personal)", corrections_cli.add_reset_arguments, corrections_cli.reset_main),
        ("install-host", "register the browser host with the browsers found (--browser NAME, --uninstall)", install_cli.add_arguments, install_cli.main),
        ("try", "try the extension and the host in a throwaway Chromium (or --browser firefox) profile", try_cli.add_arguments, try_cli.main),
        ("library", "open the library window: saved articles, search, reading, learned sites", library_window.add_arguments, library_window.main),
    )
    for name, help_text, add_arguments, run in commands:
        p = sub.add_parser(name, help=help_text)
        add_arguments(p)
        p.set_defaults(func=run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (also used as the process exit status)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except PagesieveError as exc:
        print(f"pagesieve: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("pagesieve: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
