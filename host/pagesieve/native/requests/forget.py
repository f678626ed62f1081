"""``forget``: erase what is learned of a site, or of all sites."""

from __future__ import annotations

from pagesieve.native.envelope import ErrorCode, ProtocolError
from pagesieve.native.session import Session


def handle(session: Session, message: dict) -> dict:
    """``forget`` ``{"site"}`` or ``{"all": true}`` -> ``{"type": "forgotten", "sites": n}``."""
    from pagesieve.errors import TemplateStoreError

    site, everything = message.get("site"), message.get("all", False)
    if everything is not True and (not isinstance(site, str) or not site):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "\"site\" must be a host name, or \"all\" true")
    try:
        store = session.store()
        count = store.forget_all() if everything is True else int(store.forget(site))
    except TemplateStoreError as exc:
        raise ProtocolError(ErrorCode.STORE, str(exc)) from None
    return {"type": "forgotten", "sites": count}
