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

MESSAGE_TYPES = ("ping", "learn", "clean", "sites", "forget", "save", "library", "label")
"""Request types (``label`` is reserved: see :class:`ErrorCode.NOT_AVAILABLE`)."""

MAX_SAVE_IMAGES = 500
"""Images a ``save`` request may carry. The library inlines at most what its size caps allow
(:data:`pagesieve.library.html_file.MAX_INLINE_BYTES`); the extension stops well before."""

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
    """A reserved type this version does not serve yet (``label``)."""
    STORE = 10
    """The template store cannot be read or written."""
    MODEL = 11
    """The block classifier cannot be loaded."""
    LIBRARY = 12
    """The article library cannot be written (folder, files or index)."""
    NOTHING_TO_SAVE = 13
    """The article to save has no text and no image."""


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
        library_dir: the folder of saved articles (default: ``$PAGESIEVE_LIBRARY_DIR``, else
            the user's documents folder; :func:`pagesieve.library.folder.library_dir`).
    """

    def __init__(self, store_path=None, model_path=None, library_dir=None) -> None:
        self._store_path = store_path
        self._model_path = model_path
        self._store = None
        self._model = None
        self._handlers: dict[str, Callable[[dict], dict]] = {
            "ping": self.ping, "learn": self.learn, "clean": self.clean,
            "sites": self.sites, "forget": self.forget,
            "save": self.save, "library": self.library, "label": self.not_available,
        }
        self.library_dir = library_dir  # the article library folder (None: the user's default)
        self._windows: list = []  # library window processes started (reaped when they end)

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

    def model(self, page=None):
        """The block classifier for ``page`` (loaded once; MODEL error if it cannot be): the
        model file given to the host, else the shipped model that suits the page (box-aware
        for a snapshot with layout, :func:`pagesieve.classifier.model_for`)."""
        from pagesieve.classifier import model_for
        from pagesieve.model_store import load_model

        if self._model_path is None and page is not None:
            return _or_protocol_error(ErrorCode.MODEL, model_for, page)
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
            return {**answer, "v": PROTOCOL_VERSION, "id": request_id, "ok": True}  # the envelope wins
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
        "site_pages", "model" ("box-aware" or "box-free"), "article"?}``; ``article`` (metadata, html, text) in reader mode only."""
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
        model = self.model(page)
        if mode == "reader":
            article = extract_page(page, model=model, templates=templates)
            content_ids, noise_ids = article.content_ids, article.noise_ids
        else:  # hiding needs the verdict only, not the rendered article
            analysis, keep = judge_page(page, model=model, templates=templates)
            content_ids, noise_ids = verdict_ids(analysis.blocks, keep)
        reply = {
            "type": "cleaned", "mode": mode, "hide": noise_ids, "content": content_ids,
            "site": site, "site_pages": templates.pages if templates is not None else 0,
            "model": "box-aware" if model.uses_boxes else "box-free",
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

    def save(self, message: dict) -> dict:
        """``save`` ``{"article", "images"?, "tags"?, "folder"?}`` -> ``{"type": "saved", "entry", "title",
        "markdown", "html" (file paths), "updated", "images_inlined", "images_linked"}``.

        ``article`` is the reader view's article as ``clean`` returned it (``title``, ``html``,
        ``text``, ``url`` required; ``byline``, ``published``, ``site_name``, ``language``,
        ``lead_image``, ``description`` optional); its HTML is sanitised again here, so a
        request cannot put anything into the files that the reader view would not show.
        ``images`` maps absolute image URLs to ``{"type": MIME type, "data": base64}`` (fetched
        by the extension with the page's permissions; inlined within the library's caps, the
        others stay links). Saving a URL again updates its entry (pagesieve.library).

        Raises:
            ProtocolError: BAD_REQUEST (a field missing or of the wrong type, bad base64),
                NOTHING_TO_SAVE, LIBRARY.
        """
        import base64
        import binascii

        from pagesieve.article.model import Article, Metadata
        from pagesieve.article.render import sanitise
        from pagesieve.errors import InputError, LibraryError
        from pagesieve.library.save import save_article

        data = message.get("article")
        if not isinstance(data, dict):
            raise ProtocolError(ErrorCode.BAD_REQUEST, "\"article\" must be an object (the reader article of a clean reply)")
        for key in ("title", "html", "text"):
            if not isinstance(data.get(key), str):
                raise ProtocolError(ErrorCode.BAD_REQUEST, f"article.{key} must be a string")
        url = data.get("url")
        if not isinstance(url, str) or not url.startswith(("http://", "https://", "file:")):
            raise ProtocolError(ErrorCode.BAD_REQUEST, "article.url must be the page's http(s) or file URL")
        optional = {}
        for key in ("byline", "published", "site_name", "lead_image", "language", "description"):
            value = data.get(key)
            if value is not None and not isinstance(value, str):
                raise ProtocolError(ErrorCode.BAD_REQUEST, f"article.{key} must be a string or null")
            optional[key] = value or None
        tags = message.get("tags", [])
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            raise ProtocolError(ErrorCode.BAD_REQUEST, "\"tags\" must be a list of strings")
        raw_images = message.get("images") or {}
        if not isinstance(raw_images, dict) or len(raw_images) > MAX_SAVE_IMAGES:
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"\"images\" must be an object of at most {MAX_SAVE_IMAGES} images")
        images = {}
        for image_url, image in raw_images.items():
            if not isinstance(image, dict) or not isinstance(image.get("type"), str) or not isinstance(image.get("data"), str):
                raise ProtocolError(ErrorCode.BAD_REQUEST, f"image {image_url[:80]!r} must be {{\"type\": MIME type, \"data\": base64}}")
            try:
                images[image_url] = (image["type"], base64.b64decode(image["data"], validate=True))
            except (binascii.Error, ValueError):
                raise ProtocolError(ErrorCode.BAD_REQUEST, f"image {image_url[:80]!r}: \"data\" is not base64") from None
        article = Article(metadata=Metadata(title=data["title"], **optional), url=url, html=f"<div>{sanitise(data['html'])}</div>", text=data["text"])
        folder = self._folder(message)
        try:
            saved = save_article(article, folder, tags, images)
        except InputError as exc:
            raise ProtocolError(ErrorCode.NOTHING_TO_SAVE, str(exc)) from None
        except LibraryError as exc:
            raise ProtocolError(ErrorCode.LIBRARY, str(exc)) from None
        return {
            "type": "saved", "entry": saved.id, "title": saved.title, "markdown": str(saved.md_path),
            "html": str(saved.html_path), "updated": saved.updated,
            "images_inlined": saved.images_inlined, "images_linked": saved.images_linked,
        }

    def library(self, message: dict) -> dict:
        """``library`` -> ``{"type": "library", "pid"}``: opens the library window
        (``pagesieve library``) as a process of its own; the host goes on serving.

        Raises:
            ProtocolError: LIBRARY when the window cannot be started.
        """
        import subprocess
        import sys

        self._windows = [w for w in self._windows if w.poll() is None]  # reap closed windows
        command = [sys.executable, "-m", "pagesieve", "library"]
        folder = self._folder(message)
        if folder is not None:
            command += ["--dir", str(folder)]
        try:
            # Its own session, no stdin/stdout: the window must never write into the frame stream
            # and must outlive the host when the browser closes the port.
            process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True, close_fds=True,
            )
        except OSError as exc:
            raise ProtocolError(ErrorCode.LIBRARY, f"cannot start the library window: {exc}") from None
        self._windows.append(process)
        return {"type": "library", "pid": process.pid}

    def _folder(self, message: dict):
        """The library folder of a ``save``/``library`` request: its ``folder`` (the one the
        user chose on the options page; an absolute path, ``~`` allowed), else the host's.

        Raises:
            ProtocolError: BAD_REQUEST when ``folder`` is not an absolute path.
        """
        from pathlib import Path

        folder = message.get("folder")
        if folder is None:
            return self.library_dir
        if not isinstance(folder, str) or not Path(folder).expanduser().is_absolute():
            raise ProtocolError(ErrorCode.BAD_REQUEST, "\"folder\" must be an absolute path")
        return Path(folder).expanduser()

    def not_available(self, message: dict) -> dict:
        """``label``: a reserved name, refused with NOT_AVAILABLE by this version."""
        raise ProtocolError(ErrorCode.NOT_AVAILABLE, f"{message['type']!r} is not served by pagesieve {__version__} yet")
