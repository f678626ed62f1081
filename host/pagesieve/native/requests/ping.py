"""``ping``: the health check (docs/protocol.md)."""

from __future__ import annotations

from pagesieve import __version__
from pagesieve.native.envelope import PROTOCOL_VERSION
from pagesieve.native.session import Session


def handle(session: Session, message: dict) -> dict:
    """``ping`` -> ``{"type": "pong", "version", "protocol", "personal": {"state", "message",
    "corrections"}}``: ``personal`` is the state of the user's personal model
    (:func:`pagesieve.corrections.personal.personal_status`; the popup shows its ``message``)."""
    return {"type": "pong", "version": __version__, "protocol": PROTOCOL_VERSION, "personal": session.personal_status()}
