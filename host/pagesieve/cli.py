"""The ``pagesieve`` command line: what a user does.

Each subcommand lives with the code it drives; this module only wires them up and turns
:class:`~pagesieve.errors.PagesieveError` into a one-line message and its exit code (see
:mod:`pagesieve.errors` for the table). No traceback reaches the user for bad input. The
evaluation, benchmark, rendering and training commands are the ``pagesieve-dev`` command
(:mod:`pagesieve_dev.cli`), which wires its own with :func:`make_parser` and :func:`run`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from pagesieve import __version__
from pagesieve.errors import PagesieveError

Command = tuple[str, str, Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]
"""``(name, one-line help, add_arguments(parser), main(args) -> exit code)`` of a subcommand."""


def make_parser(prog: str, description: str, commands: Sequence[Command]) -> argparse.ArgumentParser:
    """An argument parser named ``prog`` with ``--version`` and one subcommand per entry of
    ``commands`` (each sets ``func`` to its ``main``)."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--version", action="version", version=f"{prog} {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, help_text, add_arguments, main_of in commands:
        p = sub.add_parser(name, help=help_text)
        add_arguments(p)
        p.set_defaults(func=main_of)
    return parser


def run(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> int:
    """Parse ``argv`` and run the chosen subcommand; returns its exit code. A
    :class:`~pagesieve.errors.PagesieveError` becomes ``PROG: error: MESSAGE`` on stderr and its
    exit code; Ctrl-C exits 130; a closed stdout (``| head``) exits 0."""
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except PagesieveError as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"{parser.prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every user command registered."""
    from pagesieve import extract_cli
    from pagesieve.crawl import cli as crawl_cli
    from pagesieve.templates import cli as templates_cli
    from pagesieve.library import cli as library_cli
    from pagesieve.library import window as library_window
    from pagesieve.corrections import cli as corrections_cli
    from pagesieve.native import install_cli
    from pagesieve import try_cli

    return make_parser("pagesieve", "Strip web pages down to their main content, locally.", (
        ("extract", "print the article of one page (file or stdin)", extract_cli.add_arguments, extract_cli.main),
        ("batch", "clean a crawl: WARC files in, one row per page out (Parquet or JSON lines)", crawl_cli.add_arguments, crawl_cli.main),
        ("learn", "learn the site template from one visited page", templates_cli.add_learn_arguments, templates_cli.learn_main),
        ("sites", "list what is learned of each site", templates_cli.add_sites_arguments, templates_cli.sites_main),
        ("forget", "erase what is learned of a site, or of all sites", templates_cli.add_forget_arguments, templates_cli.forget_main),
        ("save", "save the clean article of a page as Markdown and HTML files", library_cli.add_save_arguments, library_cli.save_main),
        ("saved", "list or search the saved articles", library_cli.add_saved_arguments, library_cli.saved_main),
        ("labels", "list, export, import or delete your corrections (personal labels); retrain your personal model",
         corrections_cli.add_labels_arguments, corrections_cli.labels_main),
        ("reset", "delete the personal model (--personal)", corrections_cli.add_reset_arguments, corrections_cli.reset_main),
        ("install-host", "register the browser host with the browsers found (--browser NAME, --uninstall)", install_cli.add_arguments, install_cli.main),
        ("try", "try the extension and the host in a throwaway Chromium (or --browser firefox) profile", try_cli.add_arguments, try_cli.main),
        ("library", "open the library window: saved articles, search, reading, learned sites", library_window.add_arguments, library_window.main),
    ))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (also used as the process exit status)."""
    return run(build_parser(), argv)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
