"""``pagesieve extract PATH|URL|- [--url URL] [--all-pages] [--format text|html|markdown|json] [--site-templates] [--explain [--json | --format json]]``.

A ``PATH`` that is an http(s) address is read from the web (:func:`pagesieve.fetch.fetch_page`);
``--all-pages`` follows the article's next pages (:mod:`pagesieve.multipage`, issue 53)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pagesieve.errors import ReadError, UsageError

FORMATS = ("text", "html", "markdown", "json")

NO_TEXT_NOTE = (
    "no article text found in the page. Where a page is filled in by its scripts (a forum or"
    " web app), its HTML holds no text: the browser extension reads the page as it is shown."
)
"""Told on standard error when the article has no text (the output is empty, not an error:
a batch of pages goes on)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``extract`` options."""
    parser.add_argument("path", help="HTML file to read, an http(s) address to read from the web, or - for standard input")
    parser.add_argument("--url", default=None, help="the page URL (resolves relative links and images)")
    parser.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    parser.add_argument("--model", type=Path, default=None, help="a model file instead of the shipped one")
    parser.add_argument(
        "--site-templates", action="store_true",
        help="also use what `pagesieve learn` (or the extension) learned of the page's site; needs --url",
    )
    parser.add_argument("--store", type=Path, default=None, help="template store file for --site-templates")
    parser.add_argument(
        "--explain", action="store_true",
        help="instead of the article, print what was removed from it and why: block, text start, stage, rule, evidence",
    )
    parser.add_argument("--json", action="store_true", help="with --explain: the removal log as JSON (as --format json)")
    parser.add_argument(
        "--all-pages", action="store_true",
        help="an article over several pages: read its next pages too (at most 10, from the web: needs an address)",
    )


def is_address(path: str) -> bool:
    """True if ``path`` is an http or https address rather than a file."""
    return path.lower().startswith(("http://", "https://"))


def _fetch(url: str) -> tuple[bytes, str]:
    from pagesieve.fetch import fetch_page

    fetched = fetch_page(url)
    return fetched.body, fetched.final_url


def read_source(path: str) -> bytes:
    """The bytes of ``path``, or of standard input for ``-``.

    Raises:
        ReadError: the file is missing, a folder, or unreadable.
    """
    if path == "-":
        return sys.stdin.buffer.read()
    p = Path(path)
    try:
        return p.read_bytes()
    except FileNotFoundError:
        raise ReadError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise ReadError(f"{path} is a folder, not an HTML file") from None
    except OSError as exc:
        raise ReadError(f"cannot read {path}: {exc.strerror or exc}") from None


def render(article, fmt: str) -> str:
    """The article in one of :data:`FORMATS` (text starts with the title line when there is one)."""
    if fmt == "json":
        return json.dumps(article.to_dict(), ensure_ascii=False, indent=2)
    if fmt == "html":
        return article.html
    if fmt == "markdown":
        title = article.metadata.title
        head = f"# {title}\n\n" if title else ""
        return head + article.markdown
    return article.text


def main(args: argparse.Namespace) -> int:
    """Print the article of one page to stdout."""
    from pagesieve.classify.model_store import load_model
    from pagesieve.extract import extract

    if args.json and not args.explain:
        raise UsageError("--json goes with --explain (for the article as JSON: --format json)")
    if args.explain and args.format in ("html", "markdown"):
        raise UsageError(f"--explain prints the removal log as a table or as JSON (--format json); not as {args.format}")
    model = load_model(args.model) if args.model else None
    if is_address(args.path):
        source, fetched_url = _fetch(args.path)
        args.url = args.url or fetched_url
    else:
        source = read_source(args.path)
    if args.all_pages and not args.url:
        raise UsageError("--all-pages reads the next pages from the web: give an address, or the page's --url")
    templates = None
    if args.site_templates:
        from pagesieve.templates.store import TemplateStore
        from pagesieve.templates.urls import site_of

        with TemplateStore(args.store) as store:
            templates = store.templates_for(site_of(args.url), args.url)
    if args.explain:
        return explain(source, args, model, templates)
    if args.all_pages:
        return all_pages(source, args, model, templates)
    if templates is not None:
        from pagesieve.extract import extract_page
        from pagesieve.page.html import parse_html

        article = extract_page(parse_html(source, url=args.url), model=model, templates=templates)
    else:
        article = extract(source, url=args.url, model=model)
    out = render(article, args.format)
    sys.stdout.write(out if out.endswith("\n") else out + "\n")
    for warning in article.warnings:
        print(f"pagesieve: warning: {warning}", file=sys.stderr)
    if not article.text.strip():
        print(f"pagesieve: {NO_TEXT_NOTE}", file=sys.stderr)
    return 0


def all_pages(source: bytes, args: argparse.Namespace, model, templates) -> int:
    """Print the article of every page of it (:func:`pagesieve.multipage.read_pages`): each page
    read is told on standard error, and a page that could not be read is named there (the pages
    before it are printed); with ``--format json`` the article has ``pages`` and ``pages_read``
    (each page's decision, :class:`~pagesieve.article.pagination.NextPage`)."""
    from pagesieve.extract import judge_page
    from pagesieve.multipage import read_pages
    from pagesieve.page.html import parse_html

    def extract_one(src, address):
        return judge_page(parse_html(src, url=address), model=model, templates=templates, title_only=False)

    read = read_pages(source, args.url, _fetch, extract_one, progress=lambda line: print(f"pagesieve: {line}", file=sys.stderr))
    article = read.article
    if args.format == "json":
        data = article.to_dict()
        data["pages_read"] = read.decisions
        data["stopped"] = read.stopped
        out = json.dumps(data, ensure_ascii=False, indent=2)
    else:
        out = render(article, args.format)
    sys.stdout.write(out if out.endswith("\n") else out + "\n")
    for warning in article.warnings:
        print(f"pagesieve: warning: {warning}", file=sys.stderr)
    print(f"pagesieve: {max(1, len(article.pages))} page(s) read; {read.stopped}", file=sys.stderr)
    if not article.text.strip():
        print(f"pagesieve: {NO_TEXT_NOTE}", file=sys.stderr)
    return 0


def explain(source: bytes, args: argparse.Namespace, model, templates) -> int:
    """Print the removal log of one page (:func:`pagesieve.explain.removal_log`): a table, or
    with ``--json`` or ``--format json`` ``{"url", "title", "removed": [entries]}``."""
    from pagesieve.explain import log_lines, removal_log
    from pagesieve.extract import judge_page, render_article
    from pagesieve.page.html import parse_html

    page = parse_html(source, url=args.url)
    analysis, keep = judge_page(page, model=model, templates=templates, title_only=False, explain=True)
    article = render_article(analysis, keep)
    entries = removal_log(analysis, keep)
    if args.json or args.format == "json":
        print(json.dumps({"url": args.url, "title": article.metadata.title, "removed": entries}, ensure_ascii=False, indent=2))
    else:
        print("\n".join(log_lines(entries)))
    for warning in article.warnings:
        print(f"pagesieve: warning: {warning}", file=sys.stderr)
    return 0
