"""Messages between the extension and the host (``docs/protocol.md`` is the reference): dispatch.

:class:`Host` reads one request (:func:`~pagesieve.native.envelope.parse_request`), hands it to
the module of its ``type`` under :mod:`pagesieve.native.requests` with the host's
:class:`~pagesieve.native.session.Session`, and wraps the answer in the envelope. A request that
cannot be answered never stops the host: every failure becomes an error reply
(:func:`~pagesieve.native.envelope.error_reply`).
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable

from pagesieve.native.envelope import PROTOCOL_VERSION, ErrorCode, ProtocolError, error_reply, parse_request
from pagesieve.native.requests import clean, explain, forget, history, label, labels, learn, library, part, ping, save, sites
from pagesieve.native.session import Session

log = logging.getLogger("pagesieve.host")

HANDLERS: dict[str, Callable[[Session, dict], dict | None]] = {
    "ping": ping.handle, "learn": learn.handle, "clean": clean.handle, "history": history.handle,
    "sites": sites.handle, "forget": forget.handle, "save": save.handle, "library": library.handle,
    "label": label.handle, "labels": labels.handle, "part": part.handle, "explain": explain.handle,
}
"""Request type -> its handler (one per :data:`~pagesieve.native.envelope.MESSAGE_TYPES`)."""


class Host(Session):
    """Answers requests (one at a time): a :class:`~pagesieve.native.session.Session` (its
    arguments) that dispatches each request to its handler."""

    def handle(self, body: bytes) -> dict | None:
        """The reply to one frame body (never raises); ``None`` when the request wants none (a
        ``part`` sent with ``"ack": false`` and taken).

        Python's cyclic garbage collector is paused while a request is answered: the decoded
        snapshot alone is some 100,000 young objects, and the collections they set off while the
        page is analysed cost 10 to 25 ms of a 5,000-element "hide" (70-75 ms with the collector
        paused against 80-100 ms without, measured in-process on wcxb_dev/3062). Nothing is
        lost: the request's objects are freed by reference counting, and any cycles at the next
        collection after the reply.
        """
        paused = gc.isenabled()
        if paused:
            gc.disable()
        try:
            return self._handle(body)
        finally:
            if paused:
                gc.enable()

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
