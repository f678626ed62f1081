#!/usr/bin/env python3
"""Register the pagesieve native-messaging host with the installed browsers.

    python3 install_host.py                       # every browser found for this user
    python3 install_host.py --browser chromium --browser firefox
    python3 install_host.py --user-data-dir DIR   # a Chromium profile folder (tests)
    python3 install_host.py --uninstall

Run it with the Python that has pagesieve installed (``python3 -m pip install -e .``): the host
will run with that same interpreter. It prints every file (or registry key) it wrote or removed.
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Register the pagesieve host with the browsers.")
    parser.add_argument("--browser", action="append", metavar="NAME",
                        help="chrome, chromium, brave, edge, vivaldi or firefox (repeatable; default: all found)")
    parser.add_argument("--user-data-dir", metavar="DIR", help="a Chromium --user-data-dir to register in")
    parser.add_argument("--uninstall", action="store_true", help="remove what an earlier run wrote")
    args = parser.parse_args(argv)
    try:
        from pagesieve.native.install import install
    except ImportError:
        print("install_host.py: pagesieve is not installed for this Python; run: python3 -m pip install -e .", file=sys.stderr)
        return 1
    try:
        lines = install(args.browser, user_data_dir=args.user_data_dir, uninstall=args.uninstall)
    except (ValueError, OSError) as exc:
        print(f"install_host.py: {exc}", file=sys.stderr)
        return 2
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
