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

A Python that lacks pagesieve's dependencies (the ``dependencies`` of ``pyproject.toml``) gets
one message naming the missing packages and the command that installs them, and exit status 1:
the host could not run with that Python anyway.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def declared_dependencies(pyproject: Path = HERE / "pyproject.toml") -> list[str]:
    """The requirement strings of ``[project] dependencies`` in ``pyproject`` (PEP 621), ``[]``
    when the file is absent or unreadable."""
    import tomllib

    try:
        with open(pyproject, "rb") as f:
            return list(tomllib.load(f).get("project", {}).get("dependencies", []))
    except (OSError, tomllib.TOMLDecodeError):
        return []


def missing_dependencies(requirements: list[str]) -> list[str]:
    """The requirements (as written) whose distribution is not installed for this Python
    (:func:`importlib.metadata.distribution`; the name is the requirement up to its first
    version, extra or marker character, PEP 508). Versions are not compared: pip does that."""
    from importlib.metadata import PackageNotFoundError, distribution

    missing = []
    for requirement in requirements:
        name = re.split(r"[\s<>=!~;\[(@]", requirement.strip(), maxsplit=1)[0]
        try:
            distribution(name)
        except PackageNotFoundError:
            missing.append(requirement)
    return missing


def main(argv: list[str] | None = None) -> int:
    missing = missing_dependencies(declared_dependencies())
    if missing:
        names = ", ".join(re.split(r"[\s<>=!~;\[(@]", m, maxsplit=1)[0] for m in missing)
        quoted = " ".join(f"'{m}'" for m in missing)
        print(f"install_host.py: this Python ({sys.executable}) lacks packages the pagesieve host needs: {names}.\n"
              f"Install pagesieve with them:  {sys.executable} -m pip install -e {HERE}\n"
              f"or only the missing packages: {sys.executable} -m pip install {quoted}",
              file=sys.stderr)
        return 1
    try:
        from pagesieve.errors import PagesieveError
        from pagesieve.native.install_cli import add_arguments, main as run
    except ImportError:
        print(f"install_host.py: pagesieve is not installed for this Python; run: {sys.executable} -m pip install -e {HERE} "
              f"(or run this with PYTHONPATH={HERE / 'host'})", file=sys.stderr)
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
