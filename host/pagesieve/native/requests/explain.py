"""``explain``: why one node is shown or hidden, judged as ``clean`` judges it (docs/protocol.md, "Explain")."""

from __future__ import annotations

import time

from pagesieve.native.envelope import ErrorCode, ProtocolError
from pagesieve.native.requests.clean import judge
from pagesieve.native.session import Session


def handle(session: Session, message: dict) -> dict:
    """``explain`` ``{"snapshot", "node": id, "templates"?, "reference"?}`` -> ``{"type":
    "explained", "node", "verdict": "content"|"noise"|"removed"|"unknown", "block", "tag",
    "text", "reason": {"stage", "rule", "evidence"}|null, "site"}``: why the node is shown
    or hidden when the page is judged as a ``clean`` in mode ``hide`` judges it (the same
    templates, corrections and model; nothing is learned):
    :func:`pagesieve.explain.node_reason`. (docs/protocol.md, "Explain")

    Raises:
        ProtocolError: BAD_REQUEST when ``node`` is not a node id; as ``clean`` otherwise.
    """
    from pagesieve.explain import node_reason

    node = message.get("node")
    if not isinstance(node, int) or isinstance(node, bool) or node < 0:
        raise ProtocolError(ErrorCode.BAD_REQUEST, "\"node\" must be the node id of an element of the snapshot")
    page, site, _rules, _templates, _model, analysis, keep, _learned, _warnings, _parsed = judge(session, 
        message, "hide", time.perf_counter(), explain=True)
    return {"type": "explained", **node_reason(analysis, keep, node), "site": site}
