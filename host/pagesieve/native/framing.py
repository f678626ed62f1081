"""Native-messaging framing: a 32-bit length in native byte order, then that many bytes of
UTF-8 JSON (Chrome's and Firefox's native messaging, the same on both).

Browsers refuse a message from the host over 1 MiB, so replies over :data:`MAX_REPLY_BYTES` are
cut into chunk messages (:func:`chunk_reply`); requests over :data:`MAX_REQUEST_BYTES` are read
and dropped, never held in memory whole, and answered with an error.
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass
from typing import BinaryIO

MAX_REQUEST_BYTES = 64 * 1024 * 1024
"""Requests larger than this (64 MiB, what Chrome allows a page to send) are refused."""

MAX_REPLY_BYTES = 1_000_000
"""Largest frame the host writes (browsers refuse host messages over 1 MiB = 1,048,576 bytes)."""

CHUNK_DATA_BYTES = 450_000
"""UTF-8 bytes of reply text per chunk: JSON escaping at most doubles them (quotes, backslashes),
which keeps every chunk frame under :data:`MAX_REPLY_BYTES` with its envelope."""

_LENGTH = struct.Struct("=I")


class FrameError(Exception):
    """The input stream broke a frame: it ended inside a length or a body."""


@dataclass(slots=True)
class Frame:
    """One request frame: ``body`` (bytes), or ``oversized`` with the declared length when the
    body was over :data:`MAX_REQUEST_BYTES` and was dropped."""

    body: bytes | None
    declared: int
    oversized: bool = False


def _read_exactly(stream: BinaryIO, n: int) -> bytes:
    parts = []
    while n:
        part = stream.read(n)
        if not part:
            raise FrameError("the stream ended inside a message")
        parts.append(part)
        n -= len(part)
    return b"".join(parts)


def read_frame(stream: BinaryIO) -> Frame | None:
    """The next frame, or ``None`` at a clean end of the stream (the browser closed the port).

    Raises:
        FrameError: the stream ended inside a length prefix or a body.
    """
    head = stream.read(_LENGTH.size)
    if not head:
        return None
    if len(head) < _LENGTH.size:
        head += _read_exactly(stream, _LENGTH.size - len(head))
    (length,) = _LENGTH.unpack(head)
    if length > MAX_REQUEST_BYTES:
        remaining = length
        while remaining:  # drop the body without holding it
            part = stream.read(min(remaining, 1 << 20))
            if not part:
                raise FrameError("the stream ended inside an oversized message")
            remaining -= len(part)
        return Frame(None, length, oversized=True)
    return Frame(_read_exactly(stream, length), length)


def encode(message: dict) -> bytes:
    """``message`` as compact UTF-8 JSON."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def write_frame(stream: BinaryIO, body: bytes) -> None:
    """Write one frame and flush."""
    stream.write(_LENGTH.pack(len(body)))
    stream.write(body)
    stream.flush()


def chunk_reply(body: bytes, envelope: dict) -> list[bytes]:
    """Frames for a reply ``body``: itself when it fits :data:`MAX_REPLY_BYTES`, else chunk
    messages ``{**envelope, "type": "chunk", "index": i, "count": n, "data": text}`` whose
    ``data`` strings, joined in ``index`` order, are the reply's JSON text.

    Cuts fall on UTF-8 character boundaries, so every ``data`` is valid text.
    """
    if len(body) <= MAX_REPLY_BYTES:
        return [body]
    cuts = [0]
    while cuts[-1] < len(body):
        end = min(cuts[-1] + CHUNK_DATA_BYTES, len(body))
        while end < len(body) and (body[end] & 0xC0) == 0x80:  # not inside a character
            end -= 1
        cuts.append(end)
    count = len(cuts) - 1
    frames = []
    for index, (start, end) in enumerate(zip(cuts, cuts[1:])):
        frame = encode({**envelope, "type": "chunk", "index": index, "count": count,
                        "data": body[start:end].decode("utf-8")})
        assert len(frame) <= MAX_REPLY_BYTES, "a chunk frame outgrew the browser's limit"
        frames.append(frame)
    return frames
