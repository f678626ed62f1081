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
