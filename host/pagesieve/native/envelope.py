"""The envelope of every message between the extension and the host, and its errors.

Every request is a JSON object ``{"v": 1, "id": ID, "type": TYPE, ...}``; every reply carries
the same ``v`` and ``id``, and either ``"ok": true`` with the answer or ``"ok": false`` with
``"error": {"code": N, "name": ..., "message": ...}`` (:class:`ErrorCode`). ``docs/protocol.md``
is the reference; :mod:`pagesieve.native.protocol` dispatches each request to its module under
:mod:`pagesieve.native.requests`, which raise :class:`ProtocolError` for what they refuse.
"""

from __future__ import annotations

import json
from enum import IntEnum
from typing import Any

PROTOCOL_VERSION = 1
"""The ``v`` of the envelope this host speaks."""

MAX_ID_CHARS = 200
"""Longest string ``id`` accepted: every chunk of a chunked reply repeats the id, so a longer one
could not fit the browser's 1 MiB limit (the extension's ids are short counters)."""

MESSAGE_TYPES = ("ping", "learn", "clean", "history", "sites", "forget", "save", "library", "label", "labels", "part", "explain", "follow")
"""Request types."""


class ErrorCode(IntEnum):
    """Numbered errors of the protocol (stable: the extension matches on the number)."""

    INTERNAL = 1
    """A bug in the host; the message says what failed, the log has the traceback."""
    BAD_FRAME = 2
    """An empty frame (length 0)."""
    TOO_LARGE = 3
    """A request over 64 MiB; it was read and dropped."""
    BAD_JSON = 4
    """The body is not UTF-8 JSON."""
    BAD_ENVELOPE = 5
    """Not an object, wrong ``v``, or ``id``/``type`` missing or of the wrong kind."""
    UNKNOWN_TYPE = 6
    """A ``type`` this host does not know."""
    BAD_SNAPSHOT = 7
    """The snapshot breaks ``docs/snapshot.md`` (the message names the field)."""
    BAD_REQUEST = 8
    """A request field is missing or wrong (e.g. ``mode``)."""
    NOT_AVAILABLE = 9
    """A type this version does not serve (none at present; kept so the number stays taken)."""
    STORE = 10
    """The template store cannot be read or written."""
    MODEL = 11
    """The block classifier cannot be loaded."""
    LIBRARY = 12
    """The article library cannot be written (folder, files or index)."""
    NOTHING_TO_SAVE = 13
    """The article to save has no text and no image."""
    LABELS = 14
    """The label store (the user's corrections) cannot be read or written."""
    NO_BLOCK = 15
    """A correction names a node that is not in any block of the page (removed as invisible,
    or outside the body)."""
    NO_STREAM = 16
    """A request names a ``stream`` whose parts this host has not got (it restarted after
    they were sent, or the stream was dropped): send the whole snapshot again."""


class ProtocolError(Exception):
    """A request answered with an error reply (``request_id`` when it could be read)."""

    def __init__(self, code: ErrorCode, message: str, request_id: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.request_id = request_id


def error_reply(request_id: Any, code: ErrorCode, message: str) -> dict:
    """``{"v", "id", "ok": false, "error": {"code", "name", "message"}}``."""
    return {
        "v": PROTOCOL_VERSION, "id": request_id, "ok": False,
        "error": {"code": int(code), "name": code.name.lower(), "message": message},
    }


def parse_request(body: bytes) -> dict:
    """The request object of a frame body.

    Raises:
        ProtocolError: BAD_JSON, BAD_ENVELOPE or UNKNOWN_TYPE.
    """
    try:
        message = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ProtocolError(ErrorCode.BAD_JSON, f"the message is not UTF-8 JSON: {exc}") from None
    if not isinstance(message, dict):
        raise ProtocolError(ErrorCode.BAD_ENVELOPE, "the message must be a JSON object")
    if message.get("v") != PROTOCOL_VERSION:
        raise ProtocolError(ErrorCode.BAD_ENVELOPE, f"\"v\" must be {PROTOCOL_VERSION}, got {message.get('v')!r}")
    request_id = message.get("id")
    if not isinstance(request_id, (str, int)) or isinstance(request_id, bool):
        raise ProtocolError(ErrorCode.BAD_ENVELOPE, "\"id\" must be a string or an integer")
    if isinstance(request_id, str) and len(request_id) > MAX_ID_CHARS:
        raise ProtocolError(ErrorCode.BAD_ENVELOPE, f"\"id\" must be at most {MAX_ID_CHARS} characters")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(ErrorCode.BAD_ENVELOPE, "\"type\" must be a string", request_id)
    if kind not in MESSAGE_TYPES:
        raise ProtocolError(
            ErrorCode.UNKNOWN_TYPE, f"unknown type {kind!r}; this host serves {', '.join(MESSAGE_TYPES)}", request_id
        )
    return message


def or_protocol_error(code: ErrorCode, make, *args):
    """``make(*args)``, with a :class:`~pagesieve.errors.PagesieveError` it raises turned into a
    :class:`ProtocolError` of ``code`` (the error's message kept).

    Raises:
        ProtocolError: ``code``, when ``make`` raised a pagesieve error.
    """
    from pagesieve.errors import PagesieveError

    try:
        return make(*args)
    except PagesieveError as exc:
        raise ProtocolError(code, str(exc)) from None


def flag(message: dict, name: str, default: bool = False) -> bool:
    """The boolean field ``name`` of a request (``default`` when absent).

    Raises:
        ProtocolError: BAD_REQUEST when it is there but not ``true`` or ``false``.
    """
    value = message.get(name, default)
    if not isinstance(value, bool):
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"\"{name}\" must be true or false")
    return value
