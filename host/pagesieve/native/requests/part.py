"""``part``: the next part of a snapshot streamed ahead of the request that completes it
(docs/protocol.md, "Streaming a snapshot")."""

from __future__ import annotations

import time

from pagesieve.native.envelope import ErrorCode, ProtocolError, flag
from pagesieve.native.session import Session

MAX_STREAMS = 4
"""Snapshots being received in parts at once (``part``); a fifth drops the one least recently
fed. One tab's click is one stream, and it ends within the second."""

STREAM_IDLE_S = 120.0
"""A stream that got no part for this long (seconds) is dropped when the next part comes."""


def handle(session: Session, message: dict) -> dict | None:
    """``part`` ``{"stream", "seq", "nodes", "ack"?}`` (snapshot version 1) or ``{"stream",
    "seq", "markup", "boxes", "fonts", "ack"?}`` (version 2) -> ``{"type": "part", "stream",
    "seq", "nodes" or "chars" (received so far)}``, or no reply at all (``None``) for a part
    taken with ``"ack": false``: the next part of a snapshot that a later request (with the
    same ``stream``) completes. ``seq`` counts the stream's parts from 0. The nodes are
    added to the stream's tree at once, so the tree is built while the browser still walks
    the page. A part that breaks the schema ends the stream: its error is the reply (with
    or without ``ack``), and the reply to the completing request. (docs/protocol.md,
    "Streaming a snapshot")"""
    from pagesieve.errors import InputError
    from pagesieve.page.snapshot import SnapshotError, SnapshotStream

    name, seq, ack = message.get("stream"), message.get("seq"), flag(message, "ack", True)
    if not isinstance(name, str) or not name or len(name) > 200:
        raise ProtocolError(ErrorCode.BAD_REQUEST, "\"stream\" must be a non-empty string (at most 200 characters)")
    if type(seq) is not int or seq < 0:
        raise ProtocolError(ErrorCode.BAD_REQUEST, "\"seq\" must be an integer >= 0")
    now = time.monotonic()
    for other, (_s, _n, fed) in list(session.streams.items()):
        if now - fed > STREAM_IDLE_S:
            del session.streams[other]
    entry = session.streams.pop(name, None)
    if seq == 0:
        entry = None  # part 0 starts the stream afresh (a name may come again after the sender restarts)
    if entry is None:
        if seq != 0:
            raise ProtocolError(ErrorCode.NO_STREAM, f"part {seq} of stream {name!r}, whose first parts were not received")
        entry = (SnapshotStream(), 0, now)
        while len(session.streams) >= MAX_STREAMS:
            del session.streams[next(iter(session.streams))]  # the least recently fed
    stream, parts, _fed = entry
    session.streams[name] = (stream, parts + 1, now)  # kept even when broken: the last request gets the error
    try:
        if seq != parts:
            stream.error = SnapshotError(f"part {seq} of stream {name!r} came after {parts} parts; parts were lost", field="nodes")
        if "markup" in message:  # snapshot version 2
            stream.feed_markup(message.get("markup"), message.get("boxes"), message.get("fonts"))
        else:
            stream.feed(message.get("nodes"))
    except InputError as exc:
        raise ProtocolError(ErrorCode.BAD_SNAPSHOT, str(exc)) from None
    if not ack:
        return None
    return {"type": "part", "stream": name, "seq": seq, ("chars" if "markup" in message else "nodes"): stream.nodes}
