"""Messages between the extension and the host (``docs/protocol.md`` is the reference).

Every request is a JSON object ``{"v": 1, "id": ID, "type": TYPE, ...}``; every reply carries
the same ``v`` and ``id``, and either ``"ok": true`` with the answer or ``"ok": false`` with
``"error": {"code": N, "name": ..., "message": ...}`` (:class:`ErrorCode`). A request that
cannot be answered never stops the host: :class:`Host` turns every failure into an error reply.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from enum import IntEnum
from typing import Any

from pagesieve import __version__

PROTOCOL_VERSION = 1
"""The ``v`` of the envelope this host speaks."""

MESSAGE_TYPES = ("ping", "learn", "clean", "sites", "forget", "save", "label")
"""Request types (``save`` and ``label`` are reserved: see :class:`ErrorCode.NOT_AVAILABLE`)."""

log = logging.getLogger("pagesieve.host")


class ErrorCode(IntEnum):
    """Numbered errors of the protocol (stable: the extension matches on the number)."""

    INTERNAL = 1
    """A bug in the host; the message says what failed, the log has the traceback."""
    BAD_FRAME = 2
    """An empty frame (length 0)."""
    TOO_LARGE = 3
    """A request over 64 MiB; it was read and dropped."""
    BAD_JSON = 4
    """The body is not UTF-8 JSON."""
    BAD_ENVELOPE = 5
    """Not an object, wrong ``v``, or ``id``/``type`` missing or of the wrong kind."""
    UNKNOWN_TYPE = 6
    """A ``type`` this host does not know."""
    BAD_SNAPSHOT = 7
    """The snapshot breaks ``docs/snapshot.md`` (the message names the field)."""
    BAD_REQUEST = 8
    """A request field is missing or wrong (e.g. ``mode``)."""
    NOT_AVAILABLE = 9
    """A reserved type this version does not serve yet (``save``, ``label``)."""
    STORE = 10
    """The template store cannot be read or written."""
    MODEL = 11
    """The block classifier cannot be loaded."""


class ProtocolError(Exception):
    """A request answered with an error reply (``request_id`` when it could be read)."""

    def __init__(self, code: ErrorCode, message: str, request_id: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.request_id = request_id


def error_reply(request_id: Any, code: ErrorCode, message: str) -> dict:
    """``{"v", "id", "ok": false, "error": {"code", "name", "message"}}``."""
    return {
        "v": PROTOCOL_VERSION, "id": request_id, "ok": False,
        "error": {"code": int(code), "name": code.name.lower(), "message": message},
    }


def parse_request(body: bytes) -> dict:
    """The request object of a frame body.

    Raises:
        ProtocolError: BAD_JSON, BAD_ENVELOPE or UNKNOWN_TYPE.
    """
    try:
        message = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ProtocolError(ErrorCode.BAD_JSON, f"the message is not UTF-8 JSON: {exc}") from None
    if not isinstance(message, dict):
        raise ProtocolError(ErrorCode.BAD_ENVELOPE, "the message must be a JSON object")
    if message.get("v") != PROTOCOL_VERSION:
        raise ProtocolError(ErrorCode.BAD_ENVELOPE, f"\"v\" must be {PROTOCOL_VERSION}, got {message.get('v')!r}")
    request_id = message.get("id")
    if not isinstance(request_id, (str, int)) or isinstance(request_id, bool):
        raise ProtocolError(ErrorCode.BAD_ENVELOPE, "\"id\" must be a string or an integer")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(ErrorCode.BAD_ENVELOPE, "\"type\" must be a string", request_id)
    if kind not in MESSAGE_TYPES:
        raise ProtocolError(
            ErrorCode.UNKNOWN_TYPE, f"unknown type {kind!r}; this host serves {', '.join(MESSAGE_TYPES)}", request_id
        )
    return message


def _or_protocol_error(code: ErrorCode, make, *args):
    """``make(*args)``, with a pagesieve error turned into :class:`ProtocolError` ``code``."""
    from pagesieve.errors import PagesieveError

    try:
        return make(*args)
    except PagesieveError as exc:
        raise ProtocolError(code, str(exc)) from None


class Host:
    """Answers requests (one at a time) with the engine and the template store.

    Args:
        store_path: template store file (default: the user's); opened on first use.
        model_path: a model file instead of the shipped one.
    """

    def __init__(self, store_path=None, model_path=None) -> None:
        self._store_path = store_path
        self._model_path = model_path
        self._store = None
        self._model = None
        self._handlers: dict[str, Callable[[dict], dict]] = {
            "ping": self.ping, "learn": self.learn, "clean": self.clean,
            "sites": self.sites, "forget": self.forget,
            "save": self.not_available, "label": self.not_available,
        }

    def close(self) -> None:
        """Close the template store."""
        if self._store is not None:
            self._store.close()
            self._store = None

    # ------------------------------------------------------------------ plumbing

    def store(self):
        """The template store (opened once; STORE error if it cannot be)."""
        from pagesieve.templates.store import TemplateStore

        if self._store is None:
            self._store = _or_protocol_error(ErrorCode.STORE, TemplateStore, self._store_path)
        return self._store

    def model(self):
        """The block classifier (loaded once; MODEL error if it cannot be)."""
        from pagesieve.model_store import load_model

        if self._model is None:
            self._model = _or_protocol_error(ErrorCode.MODEL, load_model, self._model_path)
        return self._model

    @staticmethod
    def page(message: dict):
        """The page of ``message["snapshot"]``.

        Raises:
            ProtocolError: BAD_REQUEST without a snapshot, BAD_SNAPSHOT for a broken one.
        """
        from pagesieve.errors import InputError
        from pagesieve.page.snapshot import parse_snapshot

        snapshot = message.get("snapshot")
        if not isinstance(snapshot, dict):
            raise ProtocolError(ErrorCode.BAD_REQUEST, "\"snapshot\" must be an object (docs/snapshot.md)")
        try:
            return parse_snapshot(snapshot)
        except InputError as exc:
            raise ProtocolError(ErrorCode.BAD_SNAPSHOT, str(exc)) from None

    def handle(self, body: bytes) -> dict:
        """The reply to one frame body (never raises)."""
        request_id = None
        try:
            message = parse_request(body)
            request_id = message["id"]
            answer = self._handlers[message["type"]](message)
            return {"v": PROTOCOL_VERSION, "id": request_id, "ok": True, **answer}
        except ProtocolError as exc:
            if request_id is None:
                request_id = exc.request_id
            log.info("request %r refused: %s %s", request_id, exc.code.name, exc)
            return error_reply(request_id, exc.code, str(exc))
        except Exception as exc:  # noqa: BLE001 - a bug must not stop the host
            log.exception("request %r failed", request_id)
            return error_reply(request_id, ErrorCode.INTERNAL, f"{type(exc).__name__}: {exc}")

    # ------------------------------------------------------------------ handlers

    def ping(self, message: dict) -> dict:
        """``ping`` -> ``{"type": "pong", "version", "protocol"}``."""
        return {"type": "pong", "version": __version__, "protocol": PROTOCOL_VERSION}

    def learn(self, message: dict) -> dict:
        """``learn`` ``{"snapshot", "private"?}`` -> ``{"type": "learned", "site", "learned",
        "pages"}``; a private page (``"private": true``) is answered but never stored."""
        from pagesieve.errors import TemplateStoreError
        from pagesieve.templates.learn import summarise

        private = message.get("private", False)
        if not isinstance(private, bool):
            raise ProtocolError(ErrorCode.BAD_REQUEST, "\"private\" must be true or false")
        summary = summarise(self.page(message))
        if private or summary.site is None:
            return {"type": "learned", "site": summary.site, "learned": False, "pages": None}
        store = self.store()
        try:
            learned = store.learn(summary)
            pages = store.site_pages(summary.site)
        except TemplateStoreError as exc:
            raise ProtocolError(ErrorCode.STORE, str(exc)) from None
        return {"type": "learned", "site": summary.site, "learned": learned, "pages": pages}

    def clean(self, message: dict) -> dict:
        """``clean`` ``{"snapshot", "mode": "hide"|"reader", "templates"?}`` ->
        ``{"type": "cleaned", "mode", "hide": [node ids], "content": [node ids], "site",
        "site_pages", "article"?}``; ``article`` (metadata, html, text) in reader mode only."""
        from pagesieve.errors import TemplateStoreError
        from pagesieve.extract import extract_page, judge_page, verdict_ids
        from pagesieve.templates.urls import site_of

        mode = message.get("mode", "hide")
        if mode not in ("hide", "reader"):
            raise ProtocolError(ErrorCode.BAD_REQUEST, "\"mode\" must be \"hide\" or \"reader\"")
        use_templates = message.get("templates", True)
        started = time.perf_counter()
        page = self.page(message)
        parsed = time.perf_counter()
        site = site_of(page.url)
        templates = None
        if use_templates and site is not None:
            try:
                templates = self.store().templates_for(site, page.url)
            except TemplateStoreError as exc:
                raise ProtocolError(ErrorCode.STORE, str(exc)) from None
        if mode == "reader":
            article = extract_page(page, model=self.model(), templates=templates)
            content_ids, noise_ids = article.content_ids, article.noise_ids
        else:  # hiding needs the verdict only, not the rendered article
            analysis, keep = judge_page(page, model=self.model(), templates=templates)
            content_ids, noise_ids = verdict_ids(analysis.blocks, keep)
        reply = {
            "type": "cleaned", "mode": mode, "hide": noise_ids, "content": content_ids,
            "site": site, "site_pages": templates.pages if templates is not None else 0,
            "warnings": list(page.warnings),
            "host_ms": {"snapshot": round((parsed - started) * 1000, 1), "extract": round((time.perf_counter() - parsed) * 1000, 1)},
        }
        if mode == "reader":
            data = article.to_dict()
            reply["article"] = {k: v for k, v in data.items() if k not in ("content_ids", "noise_ids", "warnings")}
        return reply

    def sites(self, message: dict) -> dict:
        """``sites`` -> ``{"type": "sites", "sites": [{"site", "pages", "entries", "bytes",
        "last_used"}]}``, most recently used first (what the options page lists)."""
        from pagesieve.errors import TemplateStoreError

        try:
            found = self.store().sites()
        except TemplateStoreError as exc:
            raise ProtocolError(ErrorCode.STORE, str(exc)) from None
        return {"type": "sites", "sites": [
            {"site": s.site, "pages": s.pages, "entries": s.entries, "bytes": s.bytes, "last_used": s.last_used}
            for s in found
        ]}

    def forget(self, message: dict) -> dict:
        """``forget`` ``{"site"}`` or ``{"all": true}`` -> ``{"type": "forgotten", "sites": n}``."""
        from pagesieve.errors import TemplateStoreError

        site, everything = message.get("site"), message.get("all", False)
        if everything is not True and (not isinstance(site, str) or not site):
            raise ProtocolError(ErrorCode.BAD_REQUEST, "\"site\" must be a host name, or \"all\" true")
        try:
            store = self.store()
            count = store.forget_all() if everything is True else int(store.forget(site))
        except TemplateStoreError as exc:
            raise ProtocolError(ErrorCode.STORE, str(exc)) from None
        return {"type": "forgotten", "sites": count}

    def not_available(self, message: dict) -> dict:
        """``save`` and ``label``: reserved names, refused with NOT_AVAILABLE by this version."""
        raise ProtocolError(ErrorCode.NOT_AVAILABLE, f"{message['type']!r} is not served by pagesieve {__version__} yet")
