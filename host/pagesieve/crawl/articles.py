"""``pagesieve batch --join-pages``: one row per article where the crawl holds an article's other
pages (issue 53). Off by default: the parts keep one row per record either way.

After the parts are written, their rows are read back (``url``, ``site``, ``title``, ``text``,
``markdown``, ``next_page``: :func:`pagesieve.crawl.rows.extract_html` fills ``next_page`` from
the page's pager or ``rel=next``, :func:`pagesieve.extract.next_page`) and chained: a row whose
``next_page`` is the address of another row of the same site, whose title says the same article
(:func:`pagesieve.article.pagination.same_article`), is followed by it. Each chain, from a row no
other row leads to, is one article of at most :data:`~pagesieve.article.pagination.MAX_PAGES`
pages, each page once (a loop ends it); its text is the pages' texts in order, a line an earlier
page holds left out (:func:`pagesieve.article.pagination.repeated_lines`). Every record that is
not a later page of an article is an article of its own, so the rows of ``articles`` and the
records of the crawl are accounted for: ``sum(n_pages)`` over the articles plus the skipped
records is the number of records.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pagesieve.article.pagination import MAX_PAGES, clean_url, repeated_lines, same_article
from pagesieve.crawl.output import PAGE_SCHEMA, atomic_path, read_part

ARTICLE_SCHEMA = pa.schema(
    [PAGE_SCHEMA.field(name) for name in ("url", "site", "title", "author", "published", "language", "text", "markdown",
                                          "n_chars")]
    + [pa.field("n_pages", pa.int32()), pa.field("page_urls", pa.list_(pa.string())),
       pa.field("warc_record_ids", pa.list_(pa.string()))])
"""``articles.parquet``: one row per article (see docs/crawl.md, "Articles over several pages")."""

ARTICLES_FILE = {"parquet": "articles.parquet", "jsonl": "articles.jsonl.gz"}
"""The articles file's name in the output folder, by ``--format``."""


def _joined(parts: list[str | None]) -> str | None:
    texts = [t or "" for t in parts]
    if not any(texts):
        return None
    repeats = repeated_lines(texts)
    out = [texts[0]]
    for text, repeat in zip(texts[1:], repeats):
        out.append("\n".join(line for line in text.split("\n") if " ".join(line.split()) not in repeat))
    return "\n".join(t for t in out if t)


def chain_rows(rows: list[dict], max_pages: int = MAX_PAGES) -> list[list[int]]:
    """The articles of a crawl's rows, each the list of its rows' indices in page order.

    Args:
        rows: dicts with ``url``, ``site``, ``title``, ``error``, ``next_page`` (rows of
            :data:`~pagesieve.crawl.output.PAGE_SCHEMA`). max_pages: the most pages of one article.

    Returns:
        Every row that was not skipped (``error`` null) in exactly one article; an article's
        first row first. Articles are in the order of their first rows.
    """
    by_url: dict[str, int] = {}
    for i, row in enumerate(rows):
        if row.get("error") is None and row.get("url"):
            by_url.setdefault(clean_url(row["url"]), i)
    follows: dict[int, int] = {}
    led_to: set[int] = set()
    for i, row in enumerate(rows):
        target = row.get("next_page")
        if row.get("error") is not None or not target:
            continue
        j = by_url.get(clean_url(target))
        if j is None or j == i or j in led_to:
            continue
        other = rows[j]
        if other.get("site") != row.get("site") or not same_article(other.get("title") or "", row.get("title") or ""):
            continue
        follows[i] = j
        led_to.add(j)
    articles: list[list[int]] = []
    placed: set[int] = set()
    for i, row in enumerate(rows):
        if row.get("error") is not None or i in placed or i in led_to:
            continue
        chain = [i]
        placed.add(i)
        while chain[-1] in follows and len(chain) < max_pages and follows[chain[-1]] not in placed:
            chain.append(follows[chain[-1]])
            placed.add(chain[-1])
        articles.append(chain)
    for i, row in enumerate(rows):  # a later page no chain reached (a loop among later pages)
        if row.get("error") is None and i not in placed:
            articles.append([i])
            placed.add(i)
    articles.sort(key=lambda chain: chain[0])
    return articles


def article_rows(rows: list[dict], max_pages: int = MAX_PAGES) -> Iterable[dict]:
    """One row of :data:`ARTICLE_SCHEMA` per article of ``rows`` (:func:`chain_rows`): the first
    page's metadata, the pages' texts (and Markdown) joined, ``n_pages``, ``page_urls`` and
    ``warc_record_ids`` in page order."""
    for chain in chain_rows(rows, max_pages):
        pages = [rows[i] for i in chain]
        first = pages[0]
        text = _joined([p.get("text") for p in pages])
        markdown = None
        if first.get("markdown") is not None:
            markdown = first["markdown"] if len(pages) == 1 else "\n\n".join(
                [first["markdown"]] + [f"*Page {k}*\n\n" + _body_markdown(p) for k, p in enumerate(pages[1:], 2)])
        yield {
            "url": first.get("url"), "site": first.get("site"), "title": first.get("title"), "author": first.get("author"),
            "published": first.get("published"), "language": first.get("language"), "text": text, "markdown": markdown,
            "n_chars": len(text or ""), "n_pages": len(pages), "page_urls": [p.get("url") for p in pages],
            "warc_record_ids": [p.get("warc_record_id") for p in pages],
        }


def _body_markdown(row: dict) -> str:
    """A later page's Markdown without its ``# title`` line (the article has one, page 1's)."""
    md = row.get("markdown") or ""
    title = row.get("title")
    if title and md.startswith(f"# {title}\n"):
        md = md[len(title) + 3:].lstrip("\n")
    return md


def join_pages(out_dir: Path, fmt: str, part_files: Iterable[Path]) -> tuple[int, int]:
    """Write ``DIR/articles.parquet`` (or ``articles.jsonl.gz``), atomically, from the rows of
    ``part_files`` in order: ``(articles, articles over several pages)``.

    Raises:
        OSError: the file cannot be written (nothing is left half-written).
    """
    rows: list[dict] = []
    for path in part_files:
        rows.extend(read_part(path).to_pylist())
    out = list(article_rows(rows))
    path = out_dir / ARTICLES_FILE[fmt]
    with atomic_path(path) as tmp:
        if fmt == "parquet":
            pq.write_table(pa.Table.from_pylist(out, schema=ARTICLE_SCHEMA), tmp, compression="zstd")
        else:
            with gzip.open(tmp, "wt", encoding="utf-8", compresslevel=6) as f:
                for row in out:
                    f.write(json.dumps(row, ensure_ascii=False) + "\n")
    return len(out), sum(1 for row in out if row["n_pages"] > 1)
