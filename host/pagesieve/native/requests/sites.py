"""``sites``: the learned sites, most recently used first (the options page)."""

from __future__ import annotations

from pagesieve.native.envelope import ErrorCode, ProtocolError
from pagesieve.native.session import Session


def handle(session: Session, message: dict) -> dict:
    """``sites`` -> ``{"type": "sites", "sites": [{"site", "pages", "entries", "bytes",
    "last_used"}]}``, most recently used first (what the options page lists)."""
    from pagesieve.errors import TemplateStoreError

    try:
        found = session.store().sites()
    except TemplateStoreError as exc:
        raise ProtocolError(ErrorCode.STORE, str(exc)) from None
    return {"type": "sites", "sites": [
        {"site": s.site, "pages": s.pages, "entries": s.entries, "bytes": s.bytes, "last_used": s.last_used}
        for s in found
    ]}
