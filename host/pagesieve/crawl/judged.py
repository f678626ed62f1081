"""The judged pages kept between the two passes of ``pagesieve batch``: one file per part.

The learn pass judges every page of its input file once (parse, classify, and the site's
summary for the template library from the same tree); what the extract pass needs of each page
is written here, so that the extract pass applies the site's templates without parsing the
page again: the page's row as a single page, its verdicts, and the facts the template evidence
reads (:class:`~pagesieve.templates.evidence.PageFacts`). A page whose verdicts the templates
change gets its new text from the same facts (:func:`~pagesieve.article.text.blocks_text`);
only with ``--markdown`` is such a page read and extracted again.

File: ``DIR/judged/NAME.judged``: frames of ``<u32 compressed size><u32 size><LZ4 block>``, each
a pickle; the first is the header (:func:`header`), then one per response record in file
order, ``(row, keep, facts)``. Written whole or not at all (a temporary name, renamed), read
back only when its header matches the run's options; removed once its part is written.
"""

from __future__ import annotations

import pickle
import struct
from collections.abc import Iterator
from pathlib import Path

from pagesieve.crawl.output import atomic_path

FORMAT_VERSION = 5
"""Bumped whenever what a frame holds changes: an older file is then not read (2: the facts
hold each block's parent, for the captions the text leaves out; 3: and each block's classifier
score, which the template evidence does not override when confident; 4: and the blocks marked
as a byline, for the header the text leaves out; 5: and the runs of own text between child
blocks, for the text's order)."""

_FRAME = struct.Struct("<II")


class JudgedFileError(ValueError):
    """A judged file is damaged (cut, or bytes that do not decompress or unpickle)."""


def judged_path(out_dir: Path, name: str) -> Path:
    """``DIR/judged/NAME.judged``."""
    return Path(out_dir) / "judged" / f"{name}.judged"


def header(input_path: str, markdown: bool, fingerprints: bool, max_record_bytes: int, page_timeout: float | None,
           start: int = 0, end: int | None = None) -> dict:
    """What a judged file must have been written with to serve a run (compared as a whole):
    the options, and the byte range ``[start, end)`` of its part of the input file."""
    return {"version": FORMAT_VERSION, "input": str(Path(input_path).resolve()), "markdown": bool(markdown),
            "fingerprints": bool(fingerprints), "max_record_bytes": int(max_record_bytes),
            "page_timeout": float(page_timeout or 0), "start": int(start), "end": end}


def _codec():
    import pyarrow as pa

    return pa.Codec("lz4")


def frame(obj) -> bytes:
    """One frame: ``obj`` pickled and LZ4-compressed, with its sizes in front."""
    raw = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    packed = _codec().compress(raw, asbytes=True)
    return _FRAME.pack(len(packed), len(raw)) + packed


class JudgedWriter:
    """Writes a judged file: :meth:`write_frame` for each record, :meth:`commit` at the end.
    Leaving the ``with`` block with an error removes the temporary file."""

    def __init__(self, path: Path, head: dict) -> None:
        self._ctx = atomic_path(path)
        self._tmp = self._ctx.__enter__()
        self._file = open(self._tmp, "wb")
        self.write_frame(frame(head))

    def __enter__(self) -> JudgedWriter:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None:
            self._file.close()
            try:
                self._ctx.__exit__(exc_type, exc, tb)
            except BaseException:  # noqa: BLE001 - atomic_path re-raises the error it was given
                pass

    def write_frame(self, data: bytes) -> None:
        """Append a frame made by :func:`frame`."""
        self._file.write(data)

    def commit(self) -> None:
        """Close and rename into place."""
        self._file.close()
        self._ctx.__exit__(None, None, None)


def read_judged(path: Path, head: dict) -> Iterator[tuple[dict, list[bool] | None, object]] | None:
    """The records of a judged file, or ``None`` when it is missing, unreadable, or was written
    with other options than ``head``. The iterator raises :class:`JudgedFileError` on a
    damaged frame."""
    try:
        f = open(path, "rb")
    except OSError:
        return None
    try:
        first = read_frame(f)
    except (JudgedFileError, EOFError):
        f.close()
        return None
    if first != head:
        f.close()
        return None
    return _frames(f)


def _frames(f) -> Iterator:
    with f:
        while True:
            try:
                item = read_frame(f)
            except EOFError:
                return
            yield item


def read_frame(f):
    """The next frame of the open binary file ``f``, unpickled.

    Raises:
        EOFError: at the file's end. JudgedFileError: a cut or damaged frame.
    """
    sizes = f.read(_FRAME.size)
    if not sizes:
        raise EOFError
    if len(sizes) < _FRAME.size:
        raise JudgedFileError("judged file: cut frame header")
    packed_size, raw_size = _FRAME.unpack(sizes)
    packed = f.read(packed_size)
    if len(packed) < packed_size:
        raise JudgedFileError("judged file: cut frame")
    try:
        return pickle.loads(_codec().decompress(packed, decompressed_size=raw_size, asbytes=True))
    except Exception as exc:  # noqa: BLE001 - LZ4 or pickle errors of damaged bytes
        raise JudgedFileError(f"judged file: damaged frame ({type(exc).__name__}: {exc})") from None
