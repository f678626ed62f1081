"""What ``pagesieve batch`` writes, and how: every file whole or not at all.

Output folder::

    DIR/parts/<input stem>-<hash>-<NNNNN>.parquet     one per part of an input file
                                                      (pagesieve.crawl.parts): a row per response record
    DIR/parts/<input stem>-<hash>-<NNNNN>.stats.json  that part's counts (written just before the part)
    DIR/templates.parquet                     the learn pass: one row per learned site
    DIR/sites.parquet                         per site: pages, template entries, chars removed
    DIR/summary.json                          the run's summary (also printed)

With ``--format jsonl`` the parts are ``.jsonl.gz`` (gzip, one JSON object per line, the same
fields; dates as ISO 8601 strings). Each file is written to a temporary name in the same
folder, fsynced and renamed (POSIX rename is atomic), so a killed job leaves whole parts and
temporary files, never a half part under a final name; ``--resume`` keeps the parts whose
stats file and part file both exist. The schema (:data:`PAGE_SCHEMA`) is documented in
``docs/crawl.md``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pagesieve.crawl.learn import SiteLearning, rebuild_site
from pagesieve.storage.atomic import TEMP_SUFFIX, fsync_dir

PAGE_SCHEMA = pa.schema([
    pa.field("url", pa.string()),
    pa.field("warc_record_id", pa.string()),
    pa.field("warc_date", pa.timestamp("ms", tz="UTC")),  # Parquet stores no coarser unit
    pa.field("site", pa.string()),
    pa.field("title", pa.string()),
    pa.field("author", pa.string()),
    pa.field("published", pa.string()),
    pa.field("language", pa.string()),
    pa.field("text", pa.string()),
    pa.field("markdown", pa.string()),
    pa.field("n_chars", pa.int32()),
    pa.field("template", pa.bool_()),
    pa.field("error", pa.string()),
    pa.field("next_page", pa.string()),
])
"""One row per response record of the input (see ``docs/crawl.md`` for each column)."""

SITES_SCHEMA = pa.schema([
    pa.field("site", pa.string()),
    pa.field("pages", pa.int64()),
    pa.field("template_pages", pa.int64()),
    pa.field("learned_pages", pa.int64()),
    pa.field("template_entries", pa.int64()),
    pa.field("chars", pa.int64()),
    pa.field("chars_removed_by_template", pa.int64()),
])
"""``sites.parquet``: one row per site with at least one page."""

TEMPLATES_SCHEMA = pa.schema([
    pa.field("site", pa.string()),
    pa.field("pages", pa.int64()),
    pa.field("entry_tags", pa.list_(pa.string())),
    pa.field("entry_texts", pa.list_(pa.string())),
    pa.field("batch_pages", pa.int32()),
    pa.field("batch_tags", pa.list_(pa.string())),
    pa.field("batch_texts", pa.list_(pa.string())),
    pa.field("batch_frequencies", pa.list_(pa.int32())),
    pa.field("reference_urls", pa.list_(pa.string())),
    pa.field("reference_fingerprints", pa.list_(pa.binary())),
])
"""``templates.parquet``: a site's template library (entries and open batch, seed 000) and
reference pages (packed fingerprints, seed 004), as :class:`~pagesieve.crawl.learn.SiteLearning`
holds them."""

ROW_GROUP_ROWS = 1000
"""Rows buffered before a Parquet row group (or a JSON-lines chunk) is written: a worker holds
at most this many extracted pages."""

FORMATS = ("parquet", "jsonl")


def part_name(path: str | Path) -> str:
    """The part name of an input file: its name without ``.warc[.gz]`` and 8 hex digits of a
    hash of its absolute path (two inputs of the same name in two folders stay apart); its parts
    add their place in the file (:func:`~pagesieve.crawl.parts.cut_file`)."""
    p = Path(path)
    stem = p.name
    for suffix in (".gz", ".warc"):
        if stem.endswith(suffix):
            stem = stem[: -len(suffix)]
    digest = hashlib.sha1(str(p.resolve()).encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{stem}-{digest}"


def part_path(out_dir: Path, name: str, fmt: str) -> Path:
    """``DIR/parts/NAME.parquet`` or ``DIR/parts/NAME.jsonl.gz``."""
    return out_dir / "parts" / (f"{name}.parquet" if fmt == "parquet" else f"{name}.jsonl.gz")


def stats_path(out_dir: Path, name: str) -> Path:
    """``DIR/parts/NAME.stats.json``."""
    return out_dir / "parts" / f"{name}.stats.json"


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary path beside ``path`` to write; renamed onto ``path`` when the block ends
    without error (after an fsync of the file), removed when it raises."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        fd = os.open(tmp_path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(tmp_path, 0o644)
        os.replace(tmp_path, path)
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def write_json(path: Path, data: dict) -> None:
    """Write ``data`` as JSON, atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")


def _json_value(value):
    return value.isoformat() if isinstance(value, datetime) else value


class PartWriter:
    """Writes one part's rows to a temporary file; :meth:`commit` renames it into place.

    Args:
        path: the final part file. fmt: ``"parquet"`` or ``"jsonl"``.

    Use as a context manager: leaving the block with an error removes the temporary file.
    """

    def __init__(self, path: Path, fmt: str) -> None:
        if fmt not in FORMATS:
            raise ValueError(f"unknown format {fmt!r}")
        self.path = path
        self.fmt = fmt
        self.rows = 0
        self._buffer: list[dict] = []
        self._ctx = atomic_path(path)
        self._tmp = self._ctx.__enter__()
        if fmt == "parquet":
            self._writer = pq.ParquetWriter(self._tmp, PAGE_SCHEMA, compression="zstd")
        else:
            self._writer = gzip.open(self._tmp, "wt", encoding="utf-8", compresslevel=6)

    def __enter__(self) -> PartWriter:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None:
            self.abort(exc_type, exc, tb)

    def write(self, row: dict) -> None:
        """Add one row (a dict with the keys of :data:`PAGE_SCHEMA`)."""
        self._buffer.append(row)
        self.rows += 1
        if len(self._buffer) >= ROW_GROUP_ROWS:
            self._flush()

    def _flush(self) -> None:
        if not self._buffer:
            return
        if self.fmt == "parquet":
            self._writer.write_table(pa.Table.from_pylist(self._buffer, schema=PAGE_SCHEMA))
        else:
            for row in self._buffer:
                self._writer.write(json.dumps({k: _json_value(v) for k, v in row.items()}, ensure_ascii=False))
                self._writer.write("\n")
        self._buffer = []

    def commit(self) -> None:
        """Write what is buffered, close, and rename the file into place."""
        self._flush()
        self._writer.close()
        self._ctx.__exit__(None, None, None)

    def abort(self, *exc_info) -> None:
        """Close and remove the temporary file; the final path is left as it was."""
        try:
            self._writer.close()
        except Exception:  # noqa: BLE001 - the file is thrown away anyway
            pass
        try:
            self._ctx.__exit__(*(exc_info or (RuntimeError, RuntimeError("aborted"), None)))
        except BaseException:  # noqa: BLE001 - atomic_path re-raises the error it was given
            pass


def read_part(path: Path) -> pa.Table:
    """A part file (Parquet or gzipped JSON lines) as a table of :data:`PAGE_SCHEMA`."""
    if path.name.endswith(".parquet"):
        table = pq.read_table(path)
        for name in PAGE_SCHEMA.names:  # a part of an older version: a column it did not have is null
            if name not in table.column_names:
                table = table.append_column(PAGE_SCHEMA.field(name), pa.nulls(table.num_rows, PAGE_SCHEMA.field(name).type))
        return table.select(PAGE_SCHEMA.names).cast(PAGE_SCHEMA)
    rows = []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if row.get("warc_date"):
                row["warc_date"] = datetime.fromisoformat(row["warc_date"])
            rows.append({name: row.get(name) for name in PAGE_SCHEMA.names})
    return pa.Table.from_pylist(rows, schema=PAGE_SCHEMA)


# ------------------------------------------------------------------------------ templates file


def write_templates(path: Path, learned: dict[str, SiteLearning]) -> None:
    """Write the learned sites to ``templates.parquet`` (atomically), sorted by site."""
    rows = []
    for site in sorted(learned):
        s = learned[site]
        lib = s.library
        rows.append({
            "site": site, "pages": s.pages,
            "entry_tags": [t for t, _ in lib.entries], "entry_texts": [x for _, x in lib.entries],
            "batch_pages": lib.pages_in_batch,
            "batch_tags": [e.tag for e in lib.cache], "batch_texts": [e.text for e in lib.cache],
            "batch_frequencies": [e.frequency for e in lib.cache],
            "reference_urls": [u for u, _ in s.references], "reference_fingerprints": [b for _, b in s.references],
        })
    with atomic_path(path) as tmp:
        pq.write_table(pa.Table.from_pylist(rows, schema=TEMPLATES_SCHEMA), tmp, compression="zstd")


def read_templates(path: Path, sites: list[str] | None = None) -> dict[str, SiteLearning]:
    """``templates.parquet`` back as ``{site: SiteLearning}``; only ``sites`` when given.

    Raises:
        OSError / pyarrow.ArrowInvalid: the file is missing or not such a file.
    """
    filters = [("site", "in", list(sites))] if sites is not None else None
    if sites is not None and not sites:
        return {}
    table = pq.read_table(path, schema=TEMPLATES_SCHEMA, filters=filters)
    out = {}
    for row in table.to_pylist():
        out[row["site"]] = rebuild_site(
            row["site"], list(zip(row["batch_tags"], row["batch_texts"], row["batch_frequencies"])), row["batch_pages"],
            list(zip(row["entry_tags"], row["entry_texts"])), row["pages"],
            list(zip(row["reference_urls"], row["reference_fingerprints"])))
    return out


def write_sites(path: Path, rows: list[dict]) -> None:
    """Write ``sites.parquet`` (rows with the keys of :data:`SITES_SCHEMA`), atomically."""
    with atomic_path(path) as tmp:
        pq.write_table(pa.Table.from_pylist(rows, schema=SITES_SCHEMA), tmp, compression="zstd")
