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

Command = tuple[str, str, "Callable[[argparse.ArgumentParser], None] | str", "Callable[[argparse.Namespace], int] | str"]
"""``(name, one-line help, add_arguments(parser), main(args) -> exit code)`` of a subcommand;
``add_arguments`` and ``main`` may also be named ``"module:function"``, imported only when
that subcommand is the one run (see :func:`make_parser`)."""


def _resolve(target):
    """``target`` itself, or the function a ``"module:function"`` string names."""
    if not isinstance(target, str):
        return target
    import importlib

    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def chosen_command(argv: Sequence[str] | None, names: Sequence[str]) -> str | None:
    """The subcommand ``argv`` runs: its first argument that is not an option, if it is one of
    ``names`` (``None`` otherwise, e.g. for ``--help`` alone)."""
    args = sys.argv[1:] if argv is None else argv
    for arg in args:
        if not arg.startswith("-"):
            return arg if arg in names else None
    return None


def make_parser(prog: str, description: str, commands: Sequence[Command],
                argv: Sequence[str] | None | bool = False) -> argparse.ArgumentParser:
    """An argument parser named ``prog`` with ``--version`` and one subcommand per entry of
    ``commands`` (each sets ``func`` to its ``main``).

    With ``argv`` given (``None``: ``sys.argv``), only the subcommand ``argv`` runs
    (:func:`chosen_command`) gets its options, so only its module is imported: the others'
    imports (the library's SQLite index, the template store) cost a command like
    ``pagesieve batch`` about 1.5 s of its start on this 2-core machine (cProfile of
    ``pagesieve batch`` on 6 pages, 2026-11-27). ``--help`` still lists every subcommand. With
    the default ``False``, every subcommand is built.
    """
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--version", action="version", version=f"{prog} {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    chosen = chosen_command(argv, [c[0] for c in commands]) if argv is not False else False
    for name, help_text, add_arguments, main_of in commands:
        p = sub.add_parser(name, help=help_text)
        if chosen is False or name == chosen:
            _resolve(add_arguments)(p)
            p.set_defaults(func=_resolve(main_of))
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


def build_parser(argv: Sequence[str] | None | bool = False) -> argparse.ArgumentParser:
    """The argument parser with every user command registered (with ``argv``, only the one
    it runs gets its options: :func:`make_parser`)."""
    return make_parser("pagesieve", "Strip web pages down to their main content, locally.", (
        ("extract", "print the article of one page (file or stdin)", "pagesieve.extract_cli:add_arguments", "pagesieve.extract_cli:main"),
        ("batch", "clean a crawl: WARC files in, one row per page out (Parquet or JSON lines)",
         "pagesieve.crawl.cli:add_arguments", "pagesieve.crawl.cli:main"),
        ("learn", "learn the site template from one visited page", "pagesieve.templates.cli:add_learn_arguments",
         "pagesieve.templates.cli:learn_main"),
        ("sites", "list what is learned of each site", "pagesieve.templates.cli:add_sites_arguments",
         "pagesieve.templates.cli:sites_main"),
        ("forget", "erase what is learned of a site, or of all sites", "pagesieve.templates.cli:add_forget_arguments",
         "pagesieve.templates.cli:forget_main"),
        ("save", "save the clean article of a page as Markdown and HTML files", "pagesieve.library.cli:add_save_arguments",
         "pagesieve.library.cli:save_main"),
        ("saved", "list or search the saved articles", "pagesieve.library.cli:add_saved_arguments",
         "pagesieve.library.cli:saved_main"),
        ("labels", "list, export, import or delete your corrections (personal labels); retrain your personal model",
         "pagesieve.corrections.cli:add_labels_arguments", "pagesieve.corrections.cli:labels_main"),
        ("reset", "delete the personal model (--personal)", "pagesieve.corrections.cli:add_reset_arguments",
         "pagesieve.corrections.cli:reset_main"),
        ("install-host", "register the browser host with the browsers found (--browser NAME, --uninstall)",
         "pagesieve.native.install_cli:add_arguments", "pagesieve.native.install_cli:main"),
        ("try", "try the extension and the host in a throwaway Chromium (or --browser firefox) profile",
         "pagesieve.try_cli:add_arguments", "pagesieve.try_cli:main"),
        ("library", "open the library window: saved articles, search, reading, learned sites",
         "pagesieve.library.window:add_arguments", "pagesieve.library.window:main"),
    ), argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (also used as the process exit status).
    Run from the console (``argv`` ``None``), the process ends right after: see
    :func:`skip_final_collections`."""
    code = run(build_parser(argv), argv)
    if argv is None:
        skip_final_collections()
    return code


def skip_final_collections() -> None:
    """Let the interpreter exit without scanning every object it holds for reference cycles.

    When the interpreter ends, its garbage collector runs full collections while the modules
    are torn down; after ``pagesieve batch`` has imported Dask and ``distributed`` (hundreds of
    modules) that took 0.15 to 0.22 s of every command here, 0.02 to 0.04 s with the objects
    frozen first (``gc.freeze``, the permanent generation the collector never scans; the exit
    of a 2-worker batch on 8 pages, timed after the last ``atexit`` hook, 3 runs each,
    2026-11-27). Objects are still freed by reference counting; only cycles left at exit are
    not collected, and every file the commands write is closed before they return. Called only
    for a console run, never when :func:`main` is called with ``argv`` (tests, scripts)."""
    import gc

    gc.freeze()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
