"""``pagesieve install-host``: register the native-messaging host with the browsers (the command
line of :func:`pagesieve.native.install.install`; ``install_host.py`` at the top of a clone
runs the same code).

It prints each browser it found and every file (or registry key) it wrote or removed, and for a
Snap or Flatpak browser whether native messaging can work there and what to do.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pagesieve.errors import RegistrationError, UsageError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``install-host``."""
    parser.add_argument("--browser", action="append", metavar="NAME",
                        help="chrome, chromium, brave, edge, vivaldi or firefox (repeatable; default: every browser found)")
    parser.add_argument("--user-data-dir", metavar="DIR", type=Path,
                        help="register for this Chromium --user-data-dir alone (a throwaway or portable profile)")
    parser.add_argument("--uninstall", action="store_true", help="remove what an earlier run wrote")


def main(args: argparse.Namespace) -> int:
    """Register (or remove) the host as ``args`` say; prints a line per browser and per file.

    Raises:
        UsageError: an unknown browser name (exit 2).
        RegistrationError: a manifest, launcher or registry key cannot be written (exit 11).
    """
    from pagesieve.native.install import install

    try:
        lines = install(args.browser, user_data_dir=args.user_data_dir, uninstall=args.uninstall)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    except OSError as exc:
        raise RegistrationError(f"cannot register the host: {exc}") from exc
    for line in lines:
        print(line)
    return 0
