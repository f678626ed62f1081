"""Messages between the extension and the host (``docs/protocol.md`` is the reference): dispatch.

:class:`Host` reads one request (:func:`~pagesieve.native.envelope.parse_request`), hands it to
the module of its ``type`` under :mod:`pagesieve.native.requests` with the host's
:class:`~pagesieve.native.session.Session`, and wraps the answer in the envelope. A request that
cannot be answered never stops the host: every failure becomes an error reply
(:func:`~pagesieve.native.envelope.error_reply`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from pagesieve.native.collector import collector_paused
from pagesieve.native.envelope import PROTOCOL_VERSION, ErrorCode, ProtocolError, error_reply, parse_request
from pagesieve.native.requests import clean, explain, follow, forget, history, label, labels, learn, library, part, ping, save, sites
from pagesieve.native.session import Session

log = logging.getLogger("pagesieve.host")

HANDLERS: dict[str, Callable[[Session, dict], dict | None]] = {
    "ping": ping.handle, "learn": learn.handle, "clean": clean.handle, "history": history.handle,
    "sites": sites.handle, "forget": forget.handle, "save": save.handle, "library": library.handle,
    "label": label.handle, "labels": labels.handle, "part": part.handle, "explain": explain.handle,
    "follow": follow.handle,
}
"""Request type -> its handler (one per :data:`~pagesieve.native.envelope.MESSAGE_TYPES`)."""


class Host(Session):
    """Answers requests (one at a time): a :class:`~pagesieve.native.session.Session` (its
    arguments) that dispatches each request to its handler."""

    def handle(self, body: bytes) -> dict | None:
        """The reply to one frame body (never raises); ``None`` when the request wants none (a
        ``part`` sent with ``"ack": false`` and taken). Answered with Python's cyclic garbage
        collector paused (:func:`~pagesieve.native.collector.collector_paused`: 70-75 ms against
        80-100 ms for a 5,000-element "hide")."""
        with collector_paused():
            return self._handle(body)

    def _handle(self, body: bytes) -> dict | None:
        request_id = None
        try:
            message = parse_request(body)
            request_id = message["id"]
            answer = HANDLERS[message["type"]](self, message)
            if answer is None:  # a part that asked for no acknowledgement
                return None
            return {**answer, "v": PROTOCOL_VERSION, "id": request_id, "ok": True}  # the envelope wins
        except ProtocolError as exc:
            if request_id is None:
                request_id = exc.request_id
            log.info("request %r refused: %s %s", request_id, exc.code.name, exc)
            return error_reply(request_id, exc.code, str(exc))
        except Exception as exc:  # noqa: BLE001 - a bug must not stop the host
            log.exception("request %r failed", request_id)
            return error_reply(request_id, ErrorCode.INTERNAL, f"{type(exc).__name__}: {exc}")
