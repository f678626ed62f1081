"""The host's dispatch table: every request type of the envelope has its handler, in the module of
its own name under pagesieve.native.requests (one module per request type)."""

from __future__ import annotations

from pagesieve.native.envelope import MESSAGE_TYPES
from pagesieve.native.protocol import HANDLERS


def test_every_request_type_has_its_own_module():
    assert sorted(HANDLERS) == sorted(MESSAGE_TYPES)
    for kind, handler in HANDLERS.items():
        assert handler.__module__ == f"pagesieve.native.requests.{kind}", (kind, handler.__module__)
        assert handler.__name__ == "handle"


def test_a_request_is_answered_with_the_collector_paused_and_it_runs_again_after(tmp_path, monkeypatch):
    import gc
    import json

    from pagesieve.native import protocol
    from pagesieve.native.collector import collector_paused

    seen = []
    monkeypatch.setitem(protocol.HANDLERS, "ping", lambda session, message: seen.append(gc.isenabled()) or {})
    host = protocol.Host(store_path=tmp_path / "t.sqlite3", library_dir=tmp_path / "lib", labels_path=tmp_path / "l.sqlite3")
    reply = host.handle(json.dumps({"v": 1, "id": 7, "type": "ping"}).encode())
    assert reply["ok"] and reply["id"] == 7
    assert seen == [False] and gc.isenabled()

    def boom(session, message):
        raise RuntimeError("a bug")

    monkeypatch.setitem(protocol.HANDLERS, "ping", boom)
    assert host.handle(json.dumps({"v": 1, "id": 8, "type": "ping"}).encode())["ok"] is False
    assert gc.isenabled()  # enabled again after a failed request
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # one disabled by someone else stays disabled
    finally:
        gc.enable()
