"""WARC files -> HTML pages: the records ``pagesieve batch`` cleans, and the ones it skips.

A WARC file (ISO 28500, WARC 1.0/1.1; plain or gzip with one member per record, as Common Crawl
writes them) is read with fastwarc (the Resiliparse project's reader), or warcio where fastwarc
is not installed. Only ``response`` records are pages: the others (``request``, ``metadata``,
``warcinfo``, ``revisit``) are passed over silently. A response is a page when its HTTP status
is 200 and its ``Content-Type`` is HTML (:data:`HTML_TYPES`); anything else is yielded as a
:class:`Skipped` with its reason (:data:`SKIP_REASONS`), so that every response record of the
input is accounted for.

Bad input never stops the reading and never holds more than one record in memory:

- a record whose declared length is over ``max_record_bytes`` is skipped without reading its
  body (the reader streams past it);
- unreadable bytes (a garbage gzip member, a record with a broken header) make the reader look
  for the next record start (a gzip member that opens with ``WARC/``, or a ``WARC/1.`` line in
  an uncompressed file) and go on from there: one ``corrupt`` skip per unreadable stretch;
- a file that ends inside a record (a truncated download) ends with one ``truncated`` skip;
- a body compressed with an HTTP ``Content-Encoding`` (gzip, deflate) is inflated up to
  ``max_record_bytes`` at most (a compression bomb stops there: ``too_large``).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

MAX_RECORD_BYTES = 8 * 1024 * 1024
"""Largest page body read (bytes, after any Content-Encoding is undone). Common Crawl cuts the
payloads it stores at 1 MiB, so real pages are far below; the bound keeps a worker's memory
bounded whatever a record declares (a parsed page takes about ten times its bytes)."""

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
"""Media types read as HTML pages (HTML Living Standard §16.1 and §16.2)."""

SKIP_REASONS = {
    "status": "HTTP status other than 200",
    "not_html": "content type other than HTML",
    "too_large": f"body over the record limit (default {MAX_RECORD_BYTES // (1024 * 1024)} MiB)",
    "encoding": "HTTP Content-Encoding that cannot be undone",
    "no_url": "record without WARC-Target-URI",
    "undecodable": "empty or binary body, not text",
    "unparseable": "nothing parseable as HTML",
    "extract_failed": "the extractor raised an error on the page",
    "timeout": "the page took longer than the page timeout (--page-timeout), its extraction was stopped",
    "corrupt": "unreadable bytes skipped up to the next record",
    "truncated": "the file ends inside a record",
    "unreadable_file": "the file cannot be opened or is not a WARC file",
}
"""The reasons a record is skipped, as the ``error`` column and the summary name them."""

_SCAN_CHUNK = 1 << 20
_GZIP_MAGIC = b"\x1f\x8b\x08"
_WARC_MAGIC = b"WARC/1."


@dataclass(slots=True)
class WarcPage:
    """An HTML response of status 200.

    Attributes:
        url: ``WARC-Target-URI``. record_id: ``WARC-Record-ID`` (``<urn:uuid:...>``).
        date: ``WARC-Date`` (timezone-aware) or ``None``. body: the HTTP payload, at most
        ``max_record_bytes``. charset: the charset of the HTTP ``Content-Type``, or ``None``.
        offset: where the record starts in the file (bytes; the gzip member's start in a
        ``.warc.gz``), -1 when unknown.
    """

    url: str
    record_id: str | None
    date: datetime | None
    body: bytes
    charset: str | None
    offset: int = -1


@dataclass(slots=True)
class Skipped:
    """A response record (or a stretch of a file) that is not cleaned.

    Attributes:
        reason: a key of :data:`SKIP_REASONS`. detail: what exactly (one line).
        url, record_id, date: of the record, where they could be read.
        offset: where the record starts in the file, -1 for a stretch that is no record
        (``corrupt``, a cut file).
    """

    reason: str
    detail: str
    url: str | None = None
    record_id: str | None = None
    date: datetime | None = None
    offset: int = -1

    @property
    def error(self) -> str:
        """The ``error`` column: ``"reason: detail"``."""
        return f"{self.reason}: {self.detail}"


def reader_name() -> str:
    """``"fastwarc"`` when it is installed, else ``"warcio"``.

    Raises:
        ImportError: neither is installed (``pip install 'pagesieve[batch]'``).
    """
    try:
        import fastwarc  # noqa: F401

        return "fastwarc"
    except ImportError:
        import warcio  # noqa: F401

        return "warcio"


def warc_files(inputs: list[str | Path]) -> list[Path]:
    """The WARC files named by ``inputs``: files as given, folders searched (recursively) for
    ``*.warc``, ``*.warc.gz``, ``*.arc.gz`` excluded. Sorted within a folder, duplicates once.

    Raises:
        FileNotFoundError: an input does not exist.
    """
    out: list[Path] = []
    for item in inputs:
        p = Path(item)
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.is_file() and q.name.endswith((".warc", ".warc.gz"))))
        elif p.exists():
            out.append(p)
        else:
            raise FileNotFoundError(f"no such file or folder: {item}")
    seen: set[Path] = set()
    unique = []
    for p in out:
        key = p.resolve()
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return unique


# ---------------------------------------------------------------------------------------- records


@dataclass(slots=True)
class _Record:
    """What :func:`_page_or_skip` needs of a response record, from either reader."""

    offset: int  # where the record starts in the file (compressed offset for gzip); -1 unknown
    url: str | None
    record_id: str | None
    date: datetime | None
    status: int | None
    content_type: str | None
    charset: str | None
    encoding: str | None
    length: int  # the WARC Content-Length (HTTP headers and body)
    read: object  # read(n) -> bytes of the HTTP body


def _fastwarc_records(f, start: int) -> Iterator[_Record]:
    from fastwarc.warc import ArchiveIterator, WarcRecordType

    f.seek(start)
    for r in ArchiveIterator(f, record_types=WarcRecordType.response, parse_http=True, auto_decode="none"):
        headers = r.headers
        http = r.http_headers
        yield _Record(
            offset=r.stream_pos,  # fastwarc counts from the file's start
            url=headers.get("WARC-Target-URI"),
            record_id=headers.get("WARC-Record-ID"),
            date=_date(headers.get("WARC-Date")),
            status=http.status_code if http is not None else None,
            content_type=r.http_content_type,
            charset=r.http_charset,
            encoding=http.get("Content-Encoding") if http is not None else None,
            length=_int(headers.get("Content-Length"), r.content_length),  # the WARC header's, as warcio's below
            read=r.reader.read,
        )


def _warcio_records(f, start: int) -> Iterator[_Record]:
    from warcio.archiveiterator import ArchiveIterator

    f.seek(start)
    it = ArchiveIterator(_EndGuard(f), no_record_parse=False, check_digests=False)
    for r in it:
        if r.rec_type != "response":
            continue
        http = r.http_headers
        ctype = http.get_header("Content-Type") if http is not None else None
        mime, charset = _split_content_type(ctype)
        status = None
        if http is not None:
            try:
                status = int(http.get_statuscode())
            except (TypeError, ValueError):
                status = None
        rec = _Record(
            offset=it.offset,  # the record's start, absolute (set again below once it is read)
            url=r.rec_headers.get_header("WARC-Target-URI"),
            record_id=r.rec_headers.get_header("WARC-Record-ID"),
            date=_date(r.rec_headers.get_header("WARC-Date")),
            status=status,
            content_type=mime,
            charset=charset,
            encoding=http.get_header("Content-Encoding") if http is not None else None,
            length=int(r.rec_headers.get_header("Content-Length") or 0),
            read=r.raw_stream.read,
        )
        yield rec
        try:
            rec.offset = it.get_record_offset()
        except Exception:  # noqa: BLE001 - a cut record: read_warc finds out
            pass


def _int(value: str | None, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _split_content_type(value: str | None) -> tuple[str | None, str | None]:
    if not value:
        return None, None
    parts = [p.strip() for p in value.split(";")]
    charset = None
    for p in parts[1:]:
        key, _, v = p.partition("=")
        if key.strip().lower() == "charset" and v:
            charset = v.strip().strip("\"'")
    return parts[0].lower() or None, charset


def _date(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def _inflate(data: bytes, encoding: str, limit: int) -> bytes | None:
    """``data`` with its gzip/deflate Content-Encoding undone, at most ``limit + 1`` bytes;
    ``None`` for an unknown or broken encoding."""
    wbits = {"gzip": 31, "x-gzip": 31, "deflate": 15}.get(encoding)
    if wbits is None:
        return None
    try:
        inflater = zlib.decompressobj(wbits)
        out = inflater.decompress(data, limit + 1)
    except zlib.error:
        if wbits != 15:
            return None
        try:  # "deflate" is often sent raw (RFC 9110 §8.4.1.2 notes the confusion)
            out = zlib.decompressobj(-15).decompress(data, limit + 1)
        except zlib.error:
            return None
    return out


def _page_or_skip(rec: _Record, max_bytes: int) -> WarcPage | Skipped:
    """The page of one response record, or why it is skipped. Reads the body only when the
    record is a page of an allowed size."""
    where = dict(url=rec.url, record_id=rec.record_id, date=rec.date, offset=rec.offset)
    if not rec.url:
        return Skipped("no_url", "response record without WARC-Target-URI", **where)
    if rec.status != 200:
        return Skipped("status", f"HTTP status {rec.status}", **where)
    mime = (rec.content_type or "").split(";")[0].strip().lower()
    if mime not in HTML_TYPES:
        return Skipped("not_html", f"content type {mime or 'missing'}", **where)
    if rec.length > max_bytes + 65536:  # the HTTP header block is inside the WARC length
        return Skipped("too_large", f"record of {rec.length} bytes, over the {max_bytes} byte limit", **where)
    body = rec.read(max_bytes + 1)
    encoding = (rec.encoding or "").strip().lower()
    if encoding and encoding != "identity":
        inflated = _inflate(body, encoding, max_bytes)
        if inflated is None:
            return Skipped("encoding", f"Content-Encoding {encoding!r} cannot be undone", **where)
        body = inflated
    if len(body) > max_bytes:
        return Skipped("too_large", f"body over the {max_bytes} byte limit", **where)
    return WarcPage(rec.url, rec.record_id, rec.date, body, rec.charset, rec.offset)


def _next_record_start(f, pos: int, compressed: bool) -> int | None:
    """The offset of the first record start at or after ``pos``: a gzip member whose first
    bytes inflate to ``WARC/``, or a ``WARC/1.`` line; ``None`` when there is none."""
    magic = _GZIP_MAGIC if compressed else _WARC_MAGIC
    while True:
        f.seek(pos)
        chunk = f.read(_SCAN_CHUNK + len(magic))
        if len(chunk) < len(magic):
            return None
        at = chunk.find(magic)
        while at >= 0:
            start = pos + at
            if _starts_record(f, start, compressed):
                return start
            at = chunk.find(magic, at + 1)
        if len(chunk) <= _SCAN_CHUNK:
            return None
        pos += _SCAN_CHUNK


def _starts_record(f, start: int, compressed: bool) -> bool:
    f.seek(start)
    head = f.read(4096)
    if not compressed:
        return head.startswith(_WARC_MAGIC) and (start == 0 or _line_start(f, start))
    try:
        return zlib.decompressobj(31).decompress(head, 16).startswith(b"WARC/")
    except zlib.error:
        return False


def _line_start(f, start: int) -> bool:
    f.seek(start - 1)
    return f.read(1) == b"\n"


def _is_gzip(f) -> bool:
    f.seek(0)
    return f.read(3) == _GZIP_MAGIC


def read_warc(path: str | Path, max_record_bytes: int = MAX_RECORD_BYTES, reader: str | None = None,
              start: int = 0, end: int | None = None) -> Iterator[WarcPage | Skipped]:
    """Every response record of a WARC file, as a page or a skip (see the module docstring).

    Args:
        path: a ``.warc`` or ``.warc.gz`` file.
        max_record_bytes: largest body read (see :data:`MAX_RECORD_BYTES`).
        reader: ``"fastwarc"`` or ``"warcio"`` (default: :func:`reader_name`).
        start, end: read only the records that start in ``[start, end)`` (bytes; ``end``
            ``None``: to the end of the file), ``start`` being a record start (an ``offset``
            this function gave): one part of a file (:mod:`pagesieve.crawl.parts`). The parts
            of a file cut at record starts together yield exactly what the whole file yields;
            an unreadable stretch belongs to the part in which it begins.

    Yields:
        :class:`WarcPage` or :class:`Skipped`, in file order. A record is yielded once the
        next one has started or the record was checked to end before the file does, so that
        a truncated last record is reported as ``truncated``, not cleaned half. Never raises
        for bad content; a file that cannot be opened yields one ``unreadable_file`` skip.
    """
    records = _fastwarc_records if (reader or reader_name()) == "fastwarc" else _warcio_records
    try:
        f = open(path, "rb")
    except OSError as exc:
        yield Skipped("unreadable_file", f"{path}: {exc.strerror or exc}")
        return
    with f:
        size = f.seek(0, 2)
        compressed = _is_gzip(f)
        pos = start
        stop = size + 1 if end is None or end > size else end  # no record starts past the file's end
        bad_from: int | None = None  # start of an unreadable stretch not yet reported
        held: tuple[_Record, WarcPage | Skipped] | None = None  # the last record, until known whole
        seen_record = False
        while True:
            error: Exception | None = None
            try:
                for rec in records(f, pos):
                    if held is not None:
                        yield held[1]
                        held = None
                    if bad_from is not None:
                        yield Skipped("corrupt", f"unreadable bytes after byte {bad_from} skipped up to the next record")
                        bad_from = None
                    if rec.offset >= stop:  # the next part's first record: this part is whole
                        return
                    try:
                        item = _page_or_skip(rec, max_record_bytes)
                    except Exception as exc:  # noqa: BLE001 - a body that cannot be read
                        item = Skipped("truncated", f"record body unreadable: {exc}", rec.url, rec.record_id, rec.date)
                    held = (rec, item)
            except Exception as exc:  # noqa: BLE001 - any reader failure is bad bytes, never a crash
                error = exc
            resume_after = pos - 1  # the scan for the next record starts after this byte
            if held is not None:
                rec, item = held
                held = None
                end = _record_end(f, rec, compressed, size)
                yield item if end is not None else Skipped(
                    "truncated", f"the file ends inside this record (byte {rec.offset})", rec.url, rec.record_id, rec.date)
                if error is None:
                    if end is not None and _rest_is_content(f, end):  # a last record cut before its headers
                        yield Skipped("truncated", f"the file ends inside a record after byte {end}")
                    return
                resume_after = rec.offset
                if end is not None:  # the bad bytes follow a whole record
                    bad_from = rec.offset
            elif error is None:
                if bad_from is not None:
                    yield Skipped("corrupt", f"unreadable bytes after byte {bad_from} skipped")
                elif _rest_is_content(f, pos):  # no record read from pos on: cut before a first whole one
                    if not seen_record and pos == 0 and not _starts_record(f, 0, compressed):
                        yield Skipped("unreadable_file", f"{path}: not a WARC file")
                    else:
                        yield Skipped("truncated", f"the file ends inside a record after byte {pos}")
                return
            elif bad_from is None:
                bad_from = pos
            seen_record = seen_record or resume_after >= pos
            # after a failure on the record at pos itself, the next start looked for is after it
            nxt = _next_record_start(f, max(resume_after, pos) + 1, compressed)
            if nxt is not None and nxt >= stop:  # the unreadable stretch runs into the next part
                if bad_from is not None:
                    yield Skipped("corrupt", f"unreadable bytes after byte {bad_from} skipped up to the next record")
                return
            if nxt is None:
                if not seen_record and pos == 0 and not _starts_record(f, 0, compressed):
                    yield Skipped("unreadable_file", f"{path}: not a WARC file ({error})")
                elif bad_from is not None:
                    yield Skipped("truncated", f"unreadable from byte {bad_from} to the end ({error})")
                return
            pos = nxt


def _rest_is_content(f, pos: int) -> bool:
    """True if the file holds anything but white space from ``pos`` on (the CRLF pairs that
    end a record are no content)."""
    f.seek(pos)
    while True:
        chunk = f.read(1 << 16)
        if not chunk:
            return False
        if chunk.strip():
            return True


def _record_end(f, rec: _Record, compressed: bool, size: int) -> int | None:
    """Where the record starting at ``rec.offset`` ends, if it ends before the file does: its
    gzip member inflates to its end, or (uncompressed) its header block and declared
    ``Content-Length`` fit in the file; ``None`` if it is cut (or its start is unknown)."""
    if rec.offset < 0:
        return None
    if not compressed:  # the WARC header block, then Content-Length bytes of content
        f.seek(rec.offset)
        end_of_headers = f.read(1 << 16).find(b"\r\n\r\n")
        end = rec.offset + end_of_headers + 4 + rec.length
        return end if end_of_headers >= 0 and end <= size else None
    inflater = zlib.decompressobj(31)
    f.seek(rec.offset)
    fed = 0
    try:
        while not inflater.eof:
            chunk = inflater.unconsumed_tail
            if not chunk:
                chunk = f.read(1 << 16)
                fed += len(chunk)
            if not chunk:
                return None
            inflater.decompress(chunk, 1 << 20)
    except zlib.error:
        return None
    return rec.offset + fed - len(inflater.unused_data) - len(inflater.unconsumed_tail)


class _EndGuard:
    """A file that raises ``EOFError`` when it is read again and again at its end: warcio
    (1.7) loops for ever on a gzip member cut short, reading empty bytes at the end of the
    file; this ends that loop, and the reading goes on as for any unreadable bytes."""

    MAX_EMPTY_READS = 8

    def __init__(self, f) -> None:
        self._f = f
        self._empty = 0

    def read(self, n: int = -1) -> bytes:
        data = self._f.read(n)
        if data or n == 0:
            self._empty = 0
        else:
            self._empty += 1
            if self._empty > self.MAX_EMPTY_READS:
                raise EOFError("the file ends inside a gzip member")
        return data

    def __getattr__(self, name: str):
        return getattr(self._f, name)
