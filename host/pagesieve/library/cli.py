"""``pagesieve save`` and ``pagesieve saved``: save a page into the library, list and search it.

::

    pagesieve save PATH|URL|- [--url URL] [--all-pages] [--tag T ...] [--dir DIR]
                                                                    prints the two files written
    pagesieve saved [QUERY] [--dir DIR] [--json] [--limit N] [--offset N]
    pagesieve saved --rebuild [--dir DIR]                           rebuild the index from the files
    pagesieve saved --delete ID [--dir DIR]                         move an article's files to the trash
    pagesieve saved --undo TOKEN [--dir DIR]                        bring back one deleted to the library trash
    pagesieve saved --export ID [--as md|html|epub] [--to PATH]     write a copy (default: an EPUB here)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pagesieve.errors import InputError


def add_dir_argument(parser: argparse.ArgumentParser) -> None:
    """``--dir DIR``: a library folder other than the default one."""
    parser.add_argument(
        "--dir", type=Path, default=None,
        help="library folder (default: $PAGESIEVE_LIBRARY_DIR, else pagesieve in your Documents folder)",
    )


def add_save_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``save`` options."""
    parser.add_argument("path", help="HTML file of the page, its http(s) address, or - for standard input")
    parser.add_argument("--url", default=None, help="the page URL (resolves relative links; saving the same URL again updates it)")
    parser.add_argument("--all-pages", action="store_true",
                        help="an article over several pages: follow its next pages from the web and save them all as one")
    parser.add_argument("--tag", action="append", default=[], metavar="TAG", help="a tag for the article (repeat for more)")
    add_dir_argument(parser)


def add_saved_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``saved`` options."""
    parser.add_argument("query", nargs="*", help="words to search for (all must match; word* for a prefix); none: list everything")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    parser.add_argument("--limit", type=int, default=50, help="at most this many articles (default 50)")
    parser.add_argument("--offset", type=int, default=0, help="skip this many first (for paging)")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the index from the Markdown files first")
    parser.add_argument("--delete", type=int, metavar="ID", help="delete the article with this id (its files go to the trash)")
    parser.add_argument("--undo", metavar="TOKEN", help="bring back an article deleted to the library's .trash folder")
    parser.add_argument("--export", type=int, metavar="ID", help="write a copy of the article with this id (see --as, --to)")
    parser.add_argument("--as", dest="export_format", choices=("md", "html", "epub"), default="epub",
                        help="with --export: Markdown, the web page, or an EPUB e-book (default)")
    parser.add_argument("--to", type=Path, default=Path("."), metavar="PATH",
                        help="with --export: a folder (default: the current one) or a file name")
    add_dir_argument(parser)


def save_main(args: argparse.Namespace) -> int:
    """Save one page (or, with ``--all-pages``, the article over all its pages,
    :func:`pagesieve.multipage.read_pages`); prints the Markdown and HTML paths, one per line,
    and on standard error what was saved (and each page read).

    Raises:
        UsageError: ``--all-pages`` without an address. FetchError: the address cannot be read.
        InputError, ReadError, LibraryError: as :func:`~pagesieve.library.save.save_page`.
    """
    from pagesieve.errors import UsageError
    from pagesieve.extract_cli import is_address
    from pagesieve.library.save import save_article, save_page

    url = args.url
    if is_address(args.path):
        from pagesieve.fetch import fetch_page

        fetched = fetch_page(args.path)
        source: bytes | str = fetched.body
        url = url or fetched.final_url
    elif args.path == "-":
        source = sys.stdin.buffer.read()
        if not source:
            raise InputError("standard input is empty: nothing to save")
    else:
        source = args.path
    if args.all_pages:
        if not url:
            raise UsageError("--all-pages reads the next pages from the web: give an address, or the page's --url")
        from pagesieve.extract_cli import read_source
        from pagesieve.fetch import fetch_page
        from pagesieve.multipage import read_pages

        def fetch(address: str) -> tuple[bytes, str]:
            page = fetch_page(address)
            return page.body, page.final_url

        data = source if isinstance(source, bytes) else read_source(source)
        read = read_pages(data, url, fetch, progress=lambda line: print(f"pagesieve: {line}", file=sys.stderr))
        for warning in read.article.warnings:
            print(f"pagesieve: warning: {warning}", file=sys.stderr)
        print(f"pagesieve: {max(1, len(read.article.pages))} page(s) read; {read.stopped}", file=sys.stderr)
        saved = save_article(read.article, args.dir, args.tag, url=url)
    else:
        saved = save_page(source, url=url, folder=args.dir, tags=args.tag)
    print(saved.md_path)
    print(saved.html_path)
    what = "updated the article saved before from this URL" if saved.updated else "saved"
    print(f"pagesieve: {what}: {saved.title or '(untitled)'}", file=sys.stderr)
    return 0


def saved_main(args: argparse.Namespace) -> int:
    """List or search the saved articles."""
    from pagesieve.library.catalog import Library

    query = " ".join(args.query).strip()
    with Library(args.dir) as library:
        if args.delete is not None:
            gone = library.delete(args.delete)
            where = "the system trash" if gone.system_trash else f"{library.folder / '.trash' / gone.token}"
            print(f"deleted {gone.entry.title or '(untitled)'}: its files are in {where}")
            if gone.token:
                print(f"undo with: pagesieve saved --undo {gone.token}" + (f" --dir {args.dir}" if args.dir else ""))
            return 0
        if args.export is not None:
            from pagesieve.library.export import export_entry

            entry = library.get(args.export)
            if entry is None:
                raise InputError(f"no saved article with id {args.export} (`pagesieve saved` lists them)")
            print(export_entry(entry, args.export_format, args.to))
            return 0
        if args.undo is not None:
            entry = library.undo_delete(args.undo)
            print(entry.md_path)
            print(entry.html_path or "")
            return 0
        if args.rebuild:
            n = library.rebuild()
            print(f"pagesieve: index rebuilt from the files: {n} article(s)", file=sys.stderr)
        total = library.count()
        if query:
            hits = library.search(query, args.limit, args.offset)
            rows = [(h.entry, h.snippet) for h in hits]
        else:
            rows = [(e, None) for e in library.list(args.limit, args.offset)]
        folder = library.folder
    if args.json:
        items = []
        for entry, snippet in rows:
            item = entry.to_dict()
            if snippet is not None:
                item["snippet"] = snippet
            items.append(item)
        print(json.dumps({"folder": str(folder), "total": total, "query": query or None, "articles": items},
                         ensure_ascii=False, indent=2))
        return 0
    if not rows:
        print(f"no saved article matches {query!r} ({folder})" if query else f"no saved articles yet ({folder})")
        return 0
    id_width = max(len(str(e.id)) for e, _ in rows)
    for entry, snippet in rows:
        site = f"  ({entry.site})" if entry.site else ""
        print(f"{entry.id:>{id_width}}  {entry.saved[:10]}  {entry.title or '(untitled)'}{site}")
        if snippet:
            print(f"{'':>{id_width}}  {snippet}")
    shown = f"{len(rows)} match(es)" if query else f"{len(rows)} of {total} article(s)"
    print(f"{shown} in {folder}")
    return 0
