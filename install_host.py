#!/usr/bin/env python3
"""Register the pagesieve native-messaging host with the installed browsers, from a clone.

    python3 install_host.py                       # every browser found for this user
    python3 install_host.py --browser chromium --browser firefox
    python3 install_host.py --user-data-dir DIR   # a Chromium profile folder (tests)
    python3 install_host.py --uninstall

The same code as ``pagesieve install-host`` of an installed pagesieve (pipx or pip): run it with
the Python that has pagesieve installed (``python3 -m pip install -e .``): the host will run with
that same interpreter. Run with only ``PYTHONPATH=host`` (pagesieve not installed for that
Python), it writes a launcher that puts this clone's ``host/`` on ``PYTHONPATH`` and says so. It
prints each browser found and every file (or registry key) it wrote or removed.
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    try:
        from pagesieve.errors import PagesieveError
        from pagesieve.native.install_cli import add_arguments, main as run
    except ImportError:
        print("install_host.py: pagesieve is not installed for this Python; run: python3 -m pip install -e . "
              "(or run this with PYTHONPATH=host)", file=sys.stderr)
        return 1
    parser = argparse.ArgumentParser(description="Register the pagesieve host with the browsers.")
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except PagesieveError as exc:
        print(f"install_host.py: {exc}", file=sys.stderr)
        return exc.exit_code


if __name__ == "__main__":
    sys.exit(main())
