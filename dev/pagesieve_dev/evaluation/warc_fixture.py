"""Pack a dataset of ``../shared/datasets`` into WARC files: a small crawl of known truth.

Used by the ``pagesieve batch`` tests and by ``pagesieve-dev bench-batch``. Each page becomes one
``response`` record (WARC 1.1, gzip, one member per record, as Common Crawl writes them; written
with warcio) preceded by its ``request`` record, with ``HTTP/1.1 200 OK`` and
``Content-Type: text/html; charset=utf-8`` (the datasets store pages as UTF-8). Pages are dealt
round-robin over ``parts`` files, so every site of the dataset spreads over several files and
the learn pass must bring its pages together, as in a real crawl.

The record's URL is the page's URL when the dataset has one and no other page shares it, else
``https://SITE/pagesieve-fixture/ID`` (big9 records no URLs; daniel keeps several snapshots of
one front page under the same URL). :func:`write_dataset_warcs` returns the URL of each page id,
with which the rows of a batch run are scored against ``truth/<id>.txt``.
"""

from __future__ import annotations

import io
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

from pagesieve_dev.evaluation.datasets import Dataset, read_page

FIXTURE_DATE = datetime(2026, 11, 1, tzinfo=timezone.utc)
"""The ``WARC-Date`` of every record (fixed, so the files are the same from run to run)."""


def ascii_url(url: str) -> str:
    """``url`` as a URI (RFC 3987 §3.1): the host in IDNA, other non-ASCII characters
    percent-encoded as UTF-8. WARC headers are ASCII."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        host = host.encode("idna").decode("ascii")
    except UnicodeError:
        host = quote(host, safe="")
    netloc = host + (f":{parts.port}" if parts.port else "")
    safe = "/:?#[]@!$&'()*+,;=%~"
    return urlunsplit((parts.scheme, netloc, quote(parts.path, safe=safe), quote(parts.query, safe=safe),
                       quote(parts.fragment, safe=safe)))


def page_urls(dataset: Dataset) -> dict[str, str]:
    """``{page id: URL}`` as the records carry them (see the module docstring)."""
    counts = Counter(r.url for r in dataset.rows if r.url)
    out = {}
    for r in dataset.rows:
        if r.url and counts[r.url] == 1:
            out[r.id] = ascii_url(r.url)
        else:
            out[r.id] = ascii_url(f"https://{r.site or 'unknown.invalid'}/pagesieve-fixture/{r.id}")
    return out


def _http_response(body: bytes, content_type: str, status: str):
    from warcio.statusandheaders import StatusAndHeaders

    return StatusAndHeaders(status, [("Content-Type", content_type), ("Content-Length", str(len(body)))],
                            protocol="HTTP/1.1")


def write_record(writer, url: str, body: bytes, content_type: str = "text/html; charset=utf-8",
                 status: str = "200 OK", with_request: bool = True) -> None:
    """Write one response record (and its request record) with warcio's ``writer``."""
    from warcio.statusandheaders import StatusAndHeaders

    date = FIXTURE_DATE.strftime("%Y-%m-%dT%H:%M:%SZ")
    if with_request:
        req = StatusAndHeaders(f"GET {url} HTTP/1.1", [("Host", url.split("/")[2] if "//" in url else "")], is_http_request=True)
        writer.write_record(writer.create_warc_record(url, "request", http_headers=req, warc_headers_dict={"WARC-Date": date}))
    writer.write_record(writer.create_warc_record(
        url, "response", payload=io.BytesIO(body), http_headers=_http_response(body, content_type, status),
        warc_headers_dict={"WARC-Date": date},
    ))


def write_dataset_warcs(dataset: Dataset, folder: str | Path, parts: int = 4, ids: list[str] | None = None) -> dict[str, str]:
    """Write the pages of ``dataset`` into ``parts`` files ``folder/<name>-NN.warc.gz``.

    Args:
        dataset: a loaded dataset. folder: created if missing. parts: number of files (>= 1).
        ids: the pages to pack (default: all, in index order).

    Returns:
        ``{page id: URL}`` of the packed pages.

    Raises:
        DatasetError: a page cannot be read. ImportError: warcio is not installed.
    """
    from warcio.warcwriter import WARCWriter

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    urls = page_urls(dataset)
    chosen = ids if ids is not None else dataset.ids
    files = [open(folder / f"{dataset.name}-{k:02d}.warc.gz", "wb") for k in range(parts)]
    try:
        writers = [WARCWriter(f, gzip=True, warc_version="WARC/1.1") for f in files]
        for n, page_id in enumerate(chosen):
            body = read_page(dataset, page_id).encode("utf-8")
            write_record(writers[n % parts], urls[page_id], body)
    finally:
        for f in files:
            f.close()
    return {i: urls[i] for i in chosen}


MIXED_PAGES = (("wcxb_dev", 300), ("big9", 280), ("dragnet", 173), ("daniel", 173))
"""The pages of :func:`write_mixed_warc`'s default file (926, the size of issue 49's file): modern
pages of many sites one or two a site (wcxb_dev), and the per-site sets, whose sites have many
pages each (news, blogs, forums, shops of 2005 to 2017), so that the crawl's templates are
learned for some sites and not for others."""


def write_mixed_warc(datasets: list[tuple[Dataset, int]], path: str | Path) -> dict[tuple[str, str], str]:
    """Write ONE WARC file of pages of several datasets, as one segment of a crawl holds them.

    Args:
        datasets: ``(dataset, pages)``: that many of its pages, spread over its index (every
            k-th page, so a per-site set keeps several pages of each site). path: the
            ``.warc.gz`` file (its folder created if missing).

    Returns:
        ``{(dataset name, page id): URL}`` of the packed pages, in file order: the datasets'
        pages dealt in turn (one of each dataset, then the next of each), as a crawl mixes sites.

    Raises:
        ValueError: a dataset has fewer pages than asked. DatasetError: a page cannot be read.
    """
    from warcio.warcwriter import WARCWriter

    queues = []
    for ds, n in datasets:
        if n > len(ds.ids):
            raise ValueError(f"{ds.name} has {len(ds.ids)} pages, not {n}")
        step = len(ds.ids) / n
        queues.append((ds, page_urls(ds), [ds.ids[int(k * step)] for k in range(n)]))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    out: dict[tuple[str, str], str] = {}
    with open(path, "wb") as f:
        writer = WARCWriter(f, gzip=True, warc_version="WARC/1.1")
        for k in range(max(len(ids) for _, _, ids in queues)):
            for ds, urls, ids in queues:
                if k < len(ids):
                    write_record(writer, urls[ids[k]], read_page(ds, ids[k]).encode("utf-8"))
                    out[ds.name, ids[k]] = urls[ids[k]]
    return out


def pack_datasets(datasets: list[Dataset], folder: Path, parts: int) -> dict[str, tuple[list[Path], dict[str, str]]]:
    """Each dataset written into ``parts`` WARC files under ``folder/warc/<name>/``
    (:func:`write_dataset_warcs`, pages dealt round-robin); ``pagesieve-dev bench-batch``'s crawl.

    Returns:
        ``{dataset name: (its WARC files sorted, {page id: URL})}``.
    """
    out = {}
    for ds in datasets:
        target = folder / "warc" / ds.name
        urls = write_dataset_warcs(ds, target, parts=parts)
        out[ds.name] = (sorted(target.glob("*.warc.gz")), urls)
    return out
