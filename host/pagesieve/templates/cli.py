"""``pagesieve learn|sites|forget``: teach, list and erase the site templates.

::

    pagesieve learn PATH|- --url URL [--store FILE]   learn one page of the site of URL
    pagesieve sites [--store FILE] [--json]           what is learned: pages, entries, bytes
    pagesieve forget SITE|--all [--store FILE]        erase one site, or everything
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from pagesieve.errors import InputError
from pagesieve.table import format_table


def _store(args: argparse.Namespace):
    from pagesieve.templates.store import TemplateStore

    return TemplateStore(args.store)


def add_store_argument(parser: argparse.ArgumentParser) -> None:
    """``--store FILE``: a template store other than the default one."""
    parser.add_argument(
        "--store", type=Path, default=None,
        help="template store file (default: templates.sqlite3 in the user data folder)",
    )


def add_learn_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``learn`` options."""
    parser.add_argument("path", help="HTML file of a page the user visited, or - for standard input")
    parser.add_argument("--url", required=True, help="the page URL: its host name is the site learned")
    add_store_argument(parser)


def add_sites_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``sites`` options."""
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    add_store_argument(parser)


def add_forget_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``forget`` options."""
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("site", nargs="?", help="host name to forget (as `pagesieve sites` shows it)")
    group.add_argument("--all", action="store_true", help="forget every site")
    add_store_argument(parser)


def learn_main(args: argparse.Namespace) -> int:
    """Learn one page; prints the site and its page count."""
    from pagesieve.extract_cli import read_source
    from pagesieve.page.html import parse_html
    from pagesieve.templates.learn import summarise

    summary = summarise(parse_html(read_source(args.path), url=args.url))
    if summary.site is None:
        raise InputError(f"the URL {args.url!r} has no host name: nothing to learn a site from")
    with _store(args) as store:
        store.learn(summary)
        info = next(s for s in store.sites() if s.site == summary.site)
    print(f"learned a page of {info.site}: {info.pages} page(s), {info.entries} template entries, {info.bytes} bytes")
    return 0


def sites_main(args: argparse.Namespace) -> int:
    """List the learned sites."""
    with _store(args) as store:
        sites = store.sites()
        path = store.path
    if args.json:
        print(json.dumps({"store": str(path), "sites": [
            {"site": s.site, "pages": s.pages, "entries": s.entries, "batch_leaves": s.batch_leaves,
             "references": s.references, "bytes": s.bytes, "last_used": s.last_used} for s in sites
        ]}, indent=2))
        return 0
    if not sites:
        print(f"nothing learned yet ({path})")
        return 0
    header = ("site", "pages", "entries", "batch leaves", "references", "bytes", "last used")
    rows = [header] + [
        (s.site, str(s.pages), str(s.entries), str(s.batch_leaves), str(s.references), str(s.bytes),
         time.strftime("%Y-%m-%d %H:%M", time.localtime(s.last_used))) for s in sites
    ]
    print(format_table(rows))
    print(f"{len(sites)} site(s), {sum(s.bytes for s in sites)} bytes in {path}")
    return 0


def forget_main(args: argparse.Namespace) -> int:
    """Erase one site or all of them."""
    with _store(args) as store:
        if args.all:
            n = store.forget_all()
            print(f"forgot {n} site(s)")
        elif store.forget(args.site):
            print(f"forgot {args.site}")
        else:
            print(f"nothing was learned of {args.site}")
    return 0
