"""``labels``: the user's corrections listed, or one deleted (the options page)."""

from __future__ import annotations

from pagesieve.native.envelope import ErrorCode, ProtocolError
from pagesieve.native.session import Session


def handle(session: Session, message: dict) -> dict:
    """``labels`` ``{"site"?, "delete"?: label id}`` -> ``{"type": "labels", "labels":
    [summaries], "sites": {site: n}, "deleted": n}`` (newest first; what the options page
    lists); each summary has the correction's ``reach`` among the site's learned pages now
    (:func:`~pagesieve.native.requests.label.reach_of`). ``delete`` erases that correction first (the options page's "remove"), and the
    personal model is retrained."""
    from pagesieve.errors import LabelStoreError
    from pagesieve.native.requests.label import reach_of

    site, delete = message.get("site"), message.get("delete")
    if site is not None and (not isinstance(site, str) or not site):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "\"site\" must be a host name")
    if delete is not None and (not isinstance(delete, int) or isinstance(delete, bool) or delete < 1):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "\"delete\" must be the id of a correction")
    try:
        store = session.label_store()
        deleted = store.delete(label_id=delete) if delete is not None else 0
        found = [{**lab.summary(), "reach": reach_of(session, lab, lab.url)} for lab in reversed(store.labels(site, features=False))]
        sites = store.sites()
    except LabelStoreError as exc:
        raise ProtocolError(ErrorCode.LABELS, str(exc)) from None
    if deleted:
        session.retrainer.request()
    return {"type": "labels", "labels": found, "sites": sites, "deleted": deleted}
