"""``ping``: the health check (docs/protocol.md)."""

from __future__ import annotations

from pagesieve import __version__
from pagesieve.native.envelope import PROTOCOL_VERSION
from pagesieve.native.session import Session


def handle(session: Session, message: dict) -> dict:
    """``ping`` -> ``{"type": "pong", "version", "protocol"}``."""
    return {"type": "pong", "version": __version__, "protocol": PROTOCOL_VERSION}
