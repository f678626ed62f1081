"""Messages between the extension and the host (``docs/protocol.md`` is the reference).

Every request is a JSON object ``{"v": 1, "id": ID, "type": TYPE, ...}``; every reply carries
the same ``v`` and ``id``, and either ``"ok": true`` with the answer or ``"ok": false`` with
``"error": {"code": N, "name": ..., "message": ...}`` (:class:`ErrorCode`). A request that
cannot be answered never stops the host: :class:`Host` turns every failure into an error reply.
"""

from __future__ import annotations

import gc
import json
import logging
import time
from collections.abc import Callable
from enum import IntEnum
from typing import Any

from pagesieve import __version__

PROTOCOL_VERSION = 1
"""The ``v`` of the envelope this host speaks."""

MESSAGE_TYPES = ("ping", "learn", "clean", "history", "sites", "forget", "save", "library", "label", "labels", "part", "explain")
"""Request types."""

MAX_STREAMS = 4
"""Snapshots being received in parts at once (``part``); a fifth drops the one least recently
fed. One tab's click is one stream, and it ends within the second."""

STREAM_IDLE_S = 120.0
"""A stream that got no part for this long (seconds) is dropped when the next part comes."""

MAX_REFERENCE_BYTES = 8 * 1024 * 1024
"""Bytes of a cold-start reference page (``clean``'s ``reference``) the host reads; the
extension does not send a larger one."""

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
    """A type this version does not serve (none at present; kept so the number stays taken)."""
    STORE = 10
    """The template store cannot be read or written."""
    MODEL = 11
    """The block classifier cannot be loaded."""
    LIBRARY = 12
    """The article library cannot be written (folder, files or index)."""
    NOTHING_TO_SAVE = 13
    """The article to save has no text and no image."""
    LABELS = 14
    """The label store (the user's corrections) cannot be read or written."""
    NO_BLOCK = 15
    """A correction names a node that is not in any block of the page (removed as invisible,
    or outside the body)."""
    NO_STREAM = 16
    """A request names a ``stream`` whose parts this host has not got (it restarted after
    they were sent, or the stream was dropped): send the whole snapshot again."""


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


def _flag(message: dict, name: str, default: bool = False) -> bool:
    """The boolean field ``name`` of a request (``default`` when absent).

    Raises:
        ProtocolError: BAD_REQUEST when it is there but not ``true`` or ``false``.
    """
    value = message.get(name, default)
    if not isinstance(value, bool):
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"\"{name}\" must be true or false")
    return value


def _reference(message: dict) -> tuple[str, bytes] | None:
    """``(url, page bytes)`` of a ``clean`` request's cold-start ``reference`` ``{"url",
    "data"}`` (``data``: the fetched page, base64), or ``None`` when there is none.

    Raises:
        ProtocolError: BAD_REQUEST when it is malformed, not http(s), or over
            :data:`MAX_REFERENCE_BYTES`.
    """
    import base64
    import binascii

    reference = message.get("reference")
    if reference is None:
        return None
    if not isinstance(reference, dict):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "\"reference\" must be an object {\"url\", \"data\"}")
    url, data = reference.get("url"), reference.get("data")
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "\"reference.url\" must be an http(s) URL")
    if not isinstance(data, str) or len(data) > (MAX_REFERENCE_BYTES + 2) // 3 * 4:
        raise ProtocolError(ErrorCode.BAD_REQUEST,
                            f"\"reference.data\" must be the page as base64, at most {MAX_REFERENCE_BYTES} bytes")
    try:
        return url, base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "\"reference.data\" is not base64") from None


def _fetched_templates(site: str, page_url: str | None, reference: tuple[str, bytes], learned, warnings: list[str]):
    """Cold start: :class:`~pagesieve.templates.store.SiteTemplates` whose reference page is
    the fetched ``reference`` (with the ``learned`` library of the site, if any), or ``None``
    with the reason in ``warnings`` when it cannot serve (another site, the page itself, not a
    readable HTML page)."""
    from pagesieve.errors import InputError
    from pagesieve.page.html import parse_html
    from pagesieve.templates.cold_start import reference_templates
    from pagesieve.templates.learn import summarise
    from pagesieve.templates.urls import site_of

    url, data = reference
    if site_of(url) != site:
        warnings.append(f"reference page not used: {url} is not a page of {site}")
        return None
    if page_url is not None and url.split("#")[0] == page_url.split("#")[0]:
        warnings.append("reference page not used: it is the page itself")
        return None
    try:
        summary = summarise(parse_html(data, url=url))
    except InputError as exc:
        warnings.append(f"reference page not used: {exc}")
        return None
    return reference_templates(site, url, summary.fingerprints, learned.library if learned is not None else None,
                               learned.pages if learned is not None else 0)


class Host:
    """Answers requests (one at a time) with the engine and the template store.

    Args:
        store_path: template store file (default: the user's); opened on first use.
        model_path: a model file instead of the shipped one.
        library_dir: the folder of saved articles (default: ``$PAGESIEVE_LIBRARY_DIR``, else
            the user's documents folder; :func:`pagesieve.library.folder.library_dir`).
    """

    def __init__(self, store_path=None, model_path=None, library_dir=None, labels_path=None) -> None:
        from pagesieve.corrections.personal import PersonalModel, Retrainer

        self._store_path = store_path
        self._model_path = model_path
        self._labels_path = labels_path
        self._store = None
        self._labels = None
        self._model = None
        self.personal = PersonalModel()
        self.retrainer = Retrainer(labels_path, None)
        self._handlers: dict[str, Callable[[dict], dict]] = {
            "ping": self.ping, "learn": self.learn, "clean": self.clean, "history": self.history,
            "sites": self.sites, "forget": self.forget,
            "save": self.save, "library": self.library, "label": self.label, "labels": self.labels,
            "part": self.part, "explain": self.explain,
        }
        self._streams: dict[str, tuple] = {}  # stream -> (SnapshotStream, parts so far, last fed)
        self.library_dir = library_dir  # the article library folder (None: the user's default)
        self._windows: list = []  # library window processes started (reaped when they end)
        self._spent: tuple = ()  # what the last "clean" answer was made from (see release())

    def close(self) -> None:
        """Close the template and label stores."""
        if self._store is not None:
            self._store.close()
            self._store = None
        if self._labels is not None:
            self._labels.close()
            self._labels = None

    def release(self) -> None:
        """Free what the last ``clean`` was made from: the page's tree, blocks and features.

        Freeing them takes some 4 ms for a 5,000-element page (measured in-process on
        dragnet/T51), so :func:`pagesieve.native.host.serve` calls this once the reply is
        written, while the browser applies it, instead of the reply waiting for it. A caller
        that never calls it keeps one request's objects alive until the next ``clean``.
        """
        self._spent = ()

    # ------------------------------------------------------------------ plumbing

    def store(self):
        """The template store (opened once; STORE error if it cannot be)."""
        from pagesieve.templates.store import TemplateStore

        if self._store is None:
            self._store = _or_protocol_error(ErrorCode.STORE, TemplateStore, self._store_path)
        return self._store

    def label_store(self):
        """The label store (opened once; LABELS error if it cannot be)."""
        from pagesieve.corrections.store import LabelStore

        if self._labels is None:
            self._labels = _or_protocol_error(ErrorCode.LABELS, LabelStore, self._labels_path)
        return self._labels

    def rules(self, site):
        """The corrections of ``site`` (:class:`~pagesieve.corrections.store.SiteRules`) or ``None``."""
        from pagesieve.errors import LabelStoreError

        if site is None:
            return None
        try:
            return self.label_store().rules_for(site)
        except LabelStoreError as exc:
            raise ProtocolError(ErrorCode.LABELS, str(exc)) from None

    def model(self, page=None):
        """The block classifier for ``page`` (loaded once; MODEL error if it cannot be): the
        model file given to the host; else the personal model when the user has one
        (:mod:`pagesieve.corrections.personal`, reloaded when retrained); else the shipped model
        that suits the page (box-aware for a snapshot with layout,
        :func:`pagesieve.model_store.model_for`)."""
        from pagesieve.model_store import load_model, model_for

        if self._model_path is None and page is not None:
            self.retrainer.poll()
            personal = self.personal.get()
            if personal is not None:
                return personal
            return _or_protocol_error(ErrorCode.MODEL, model_for, page)
        if self._model is None:
            self._model = _or_protocol_error(ErrorCode.MODEL, load_model, self._model_path)
        return self._model

    def page(self, message: dict):
        """The page of ``message["snapshot"]``; with ``message["stream"]``, the snapshot's
        earlier nodes came in ``part`` requests and ``snapshot["nodes"]`` holds the rest.

        Raises:
            ProtocolError: BAD_REQUEST without a snapshot, BAD_SNAPSHOT for a broken one,
                NO_STREAM for a stream this host has not got.
        """
        from pagesieve.errors import InputError
        from pagesieve.page.snapshot import SnapshotStream, parse_snapshot

        snapshot = message.get("snapshot")
        if not isinstance(snapshot, dict):
            raise ProtocolError(ErrorCode.BAD_REQUEST, "\"snapshot\" must be an object (docs/snapshot.md)")
        name = message.get("stream")
        if name is not None:
            if not isinstance(name, str):
                raise ProtocolError(ErrorCode.BAD_REQUEST, "\"stream\" must be a string")
            entry = self._streams.pop(name, None)
            if entry is None:
                raise ProtocolError(ErrorCode.NO_STREAM, f"no parts of stream {name!r} were received; send the whole snapshot")
        try:
            if name is None:
                return parse_snapshot(snapshot)
            stream: SnapshotStream = entry[0]
            return stream.finish(snapshot)
        except InputError as exc:
            raise ProtocolError(ErrorCode.BAD_SNAPSHOT, str(exc)) from None

    def handle(self, body: bytes) -> dict | None:
        """The reply to one frame body (never raises); ``None`` when the request wants none (a
        ``part`` sent with ``"ack": false`` and taken).

        Python's cyclic garbage collector is paused while a request is answered: the decoded
        snapshot alone is some 100,000 young objects, and the collections they set off while the
        page is analysed cost 10 to 25 ms of a 5,000-element "hide" (70-75 ms with the collector
        paused against 80-100 ms without, measured in-process on wcxb_dev/3062). Nothing is
        lost: the request's objects are freed by reference counting, and any cycles at the next
        collection after the reply.
        """
        paused = gc.isenabled()
        if paused:
            gc.disable()
        try:
            return self._handle(body)
        finally:
            if paused:
                gc.enable()

    def _handle(self, body: bytes) -> dict | None:
        request_id = None
        try:
            message = parse_request(body)
            request_id = message["id"]
            answer = self._handlers[message["type"]](message)
            if answer is None:  # a part that asked for no acknowledgement
                return None
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

    def part(self, message: dict) -> dict | None:
        """``part`` ``{"stream", "seq", "nodes", "ack"?}`` (snapshot version 1) or ``{"stream",
        "seq", "markup", "boxes", "fonts", "ack"?}`` (version 2) -> ``{"type": "part", "stream",
        "seq", "nodes" or "chars" (received so far)}``, or no reply at all (``None``) for a part
        taken with ``"ack": false``: the next part of a snapshot that a later request (with the
        same ``stream``) completes. ``seq`` counts the stream's parts from 0. The nodes are
        added to the stream's tree at once, so the tree is built while the browser still walks
        the page. A part that breaks the schema ends the stream: its error is the reply (with
        or without ``ack``), and the reply to the completing request. (docs/protocol.md,
        "Streaming a snapshot")"""
        from pagesieve.errors import InputError
        from pagesieve.page.snapshot import SnapshotError, SnapshotStream

        name, seq, ack = message.get("stream"), message.get("seq"), _flag(message, "ack", True)
        if not isinstance(name, str) or not name or len(name) > 200:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "\"stream\" must be a non-empty string (at most 200 characters)")
        if type(seq) is not int or seq < 0:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "\"seq\" must be an integer >= 0")
        now = time.monotonic()
        for other, (_s, _n, fed) in list(self._streams.items()):
            if now - fed > STREAM_IDLE_S:
                del self._streams[other]
        entry = self._streams.pop(name, None)
        if seq == 0:
            entry = None  # part 0 starts the stream afresh (a name may come again after the sender restarts)
        if entry is None:
            if seq != 0:
                raise ProtocolError(ErrorCode.NO_STREAM, f"part {seq} of stream {name!r}, whose first parts were not received")
            entry = (SnapshotStream(), 0, now)
            while len(self._streams) >= MAX_STREAMS:
                del self._streams[next(iter(self._streams))]  # the least recently fed
        stream, parts, _fed = entry
        self._streams[name] = (stream, parts + 1, now)  # kept even when broken: the last request gets the error
        try:
            if seq != parts:
                stream.error = SnapshotError(f"part {seq} of stream {name!r} came after {parts} parts; parts were lost", field="nodes")
            if "markup" in message:  # snapshot version 2
                stream.feed_markup(message.get("markup"), message.get("boxes"), message.get("fonts"))
            else:
                stream.feed(message.get("nodes"))
        except InputError as exc:
            raise ProtocolError(ErrorCode.BAD_SNAPSHOT, str(exc)) from None
        if not ack:
            return None
        return {"type": "part", "stream": name, "seq": seq, ("chars" if "markup" in message else "nodes"): stream.nodes}

    def learn(self, message: dict) -> dict:
        """``learn`` ``{"snapshot", "private"?}`` -> ``{"type": "learned", "site", "learned",
        "pages"}``; a private page (``"private": true``) is answered but never stored."""
        from pagesieve.templates.learn import summarise

        private = _flag(message, "private")
        summary = summarise(self.page(message))
        learned, pages = self._learn_summary(summary, private)
        return {"type": "learned", "site": summary.site, "learned": learned, "pages": pages}

    def _learn_summary(self, summary, private: bool) -> tuple[bool, int | None]:
        """Store a page's template summary unless ``private`` or without a site: ``(stored,
        the site's pages now)`` (``(False, None)`` when nothing was asked of the store).

        Raises:
            ProtocolError: STORE when the template store cannot be opened or written.
        """
        from pagesieve.errors import TemplateStoreError

        if private or summary.site is None:
            return False, None
        store = self.store()
        try:
            learned = store.learn(summary)
            pages = store.site_pages(summary.site)
        except TemplateStoreError as exc:
            raise ProtocolError(ErrorCode.STORE, str(exc)) from None
        return learned, pages

    def _learn_judged(self, page, blocks, private: bool, warnings: list[str]) -> bool:
        """``clean`` with ``"learn": true``: learn the page from the tree and blocks it was just
        judged on (one walk and one parse for both). Called after the verdict, so the page is
        never part of its own template (as ``pagesieve-dev eval --history`` never lets it be), and
        before the reader article prunes the tree. A store that cannot be written costs the
        learning only: the verdict is still answered, with the reason in ``warnings``."""
        from pagesieve.templates.learn import summarise

        try:
            learned, _pages = self._learn_summary(summarise(page, blocks), private)
        except ProtocolError as exc:
            warnings.append(f"not learned: {exc}")
            return False
        return learned

    def clean(self, message: dict) -> dict:
        """``clean`` ``{"snapshot", "mode": "hide"|"reader"|"corrections", "templates"?,
        "learn"?, "private"?, "reference"?}`` -> ``{"type": "cleaned", "mode", "hide": [node
        ids], "why": [reason per hidden id], "content": [node ids], "site", "site_pages", "model",
        "corrections", "learned", "reference", "warnings", "host_ms", "article"?}``; ``article``
        (metadata, html, text) in reader mode only. ``why[k]`` is ``[stage, rule, evidence]``
        (:meth:`pagesieve.removal.Removal.compact`) of ``hide[k]``
        (:func:`pagesieve.explain.hidden_reasons`), or ``null`` when it has none. With
        ``"learn": true`` the page is also learned, as a ``learn`` request would (not when
        ``"private": true``), after it was judged. ``reference``
        (cold start, :mod:`pagesieve.templates.cold_start`): a page of the site fetched by the
        extension, used when the store has no reference page for this one; the reply's
        ``reference`` is its URL when it was used, else ``null`` (docs/protocol.md)."""
        from pagesieve.explain import hidden_reasons
        from pagesieve.extract import render_article, verdict_ids

        mode = message.get("mode", "hide")
        if mode not in ("hide", "reader", "corrections"):
            raise ProtocolError(ErrorCode.BAD_REQUEST, "\"mode\" must be \"hide\", \"reader\" or \"corrections\"")
        learn, private = _flag(message, "learn"), _flag(message, "private")
        started = time.perf_counter()
        judged = self._judge(message, mode, started, learn, private)
        if isinstance(judged, dict):  # mode "corrections", answered
            return judged
        page, site, rules, templates, model, analysis, keep, learned, warnings, parsed = judged
        if mode == "reader":
            article = render_article(analysis, keep)
            content_ids, noise_ids = article.content_ids, article.noise_ids
        else:
            content_ids, noise_ids = verdict_ids(analysis.blocks, keep)
            self._spent = (page, analysis, keep)  # freed after the reply is written (release())
        why = [r.compact() if r is not None else None for r in hidden_reasons(analysis, keep)]
        reply = {
            "type": "cleaned", "mode": mode, "hide": noise_ids, "why": why, "content": content_ids,
            "site": site, "site_pages": templates.pages if templates is not None else 0,
            "model": "personal" if "personal" in model.meta else ("box-aware" if model.uses_boxes else "box-free"),
            "corrections": len(rules.labels) if rules else 0,
            "learned": learned,
            "reference": templates.reference_url if templates is not None and templates.fetched else None,
            "warnings": warnings,
            "host_ms": {"snapshot": round((parsed - started) * 1000, 1), "extract": round((time.perf_counter() - parsed) * 1000, 1)},
        }
        if mode == "reader":
            data = article.to_dict()
            reply["article"] = {k: v for k, v in data.items() if k not in ("content_ids", "noise_ids", "warnings")}
        return reply

    def _judge(self, message: dict, mode: str, started: float, learn: bool = False, private: bool = False,
               explain: bool = False):
        """The page of a ``clean`` or ``explain`` request judged as ``clean`` judges it (the
        site's templates unless ``"templates": false``, a cold-start ``reference``, the user's
        corrections, the model for the page), and learned with ``learn``: ``(page, site, rules,
        templates, model, analysis, keep, learned, warnings, parsed)``; in ``mode``
        ``"corrections"`` the ``clean`` reply itself (:meth:`_corrections_only`). With
        ``explain``, pre-processing logs its removals (:func:`pagesieve.extract.judge_page`).

        Raises:
            ProtocolError: as :meth:`page`, :meth:`rules`, :meth:`model`; STORE.
        """
        from pagesieve.errors import TemplateStoreError
        from pagesieve.extract import judge_page
        from pagesieve.templates.evidence import DEFAULT_KINDS
        from pagesieve.templates.urls import site_of

        use_templates = message.get("templates", True)
        reference = _reference(message)
        page = self.page(message)
        parsed = time.perf_counter()
        site = site_of(page.url)
        rules = self.rules(site)
        warnings = list(page.warnings)
        if mode == "corrections":
            return self._corrections_only(page, site, rules, started, parsed, learn, private, warnings)
        templates = None
        if use_templates and site is not None:
            try:
                templates = self.store().templates_for(site, page.url)
            except TemplateStoreError as exc:
                raise ProtocolError(ErrorCode.STORE, str(exc)) from None
        kinds = DEFAULT_KINDS
        if reference is not None and use_templates and site is not None and (templates is None or templates.reference_url is None):
            fetched = _fetched_templates(site, page.url, reference, templates, warnings)
            if fetched is not None:
                templates, kinds = fetched, DEFAULT_KINDS + ("diff",)
        model = self.model(page)
        # hiding needs the verdict only: no byline, date or lead image, no rendered article
        analysis, keep = judge_page(page, model=model, templates=templates, evidence_kinds=kinds, corrections=rules,
                                    title_only=mode == "hide", explain=explain)
        learned = learn and self._learn_judged(page, analysis.blocks, private, warnings)
        return page, site, rules, templates, model, analysis, keep, learned, warnings, parsed

    def explain(self, message: dict) -> dict:
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
        page, site, _rules, _templates, _model, analysis, keep, _learned, _warnings, _parsed = self._judge(
            message, "hide", time.perf_counter(), explain=True)
        return {"type": "explained", **node_reason(analysis, keep, node), "site": site}

    def _corrections_only(self, page, site, rules, started, parsed, learn, private, warnings) -> dict:
        """``clean`` in mode ``corrections``: only what the user's "hide this" corrections hide
        (no classifier): for pages the user has not asked to clean, where a correction must
        still hold (like a cosmetic filter). With ``learn``, the page is learned too."""
        from pagesieve.blocks import segment
        from pagesieve.corrections.rules import match_rules, noise_rule_ids, noise_rule_reasons
        from pagesieve.page.preprocess import preprocess

        hide: list[int] = []
        why: list = []
        learned = False
        if rules or learn:
            preprocess(page)
            blocks = segment(page.root)
            if rules:
                matches = match_rules(page, blocks, rules)
                hide = noise_rule_ids(blocks, matches)
                reasons = noise_rule_reasons(blocks, matches)
                why = [reasons[n].compact() if n in reasons else None for n in hide]
            learned = learn and self._learn_judged(page, blocks, private, warnings)
        return {
            "type": "cleaned", "mode": "corrections", "hide": hide, "why": why, "content": [], "site": site, "site_pages": 0,
            "model": None, "corrections": len(rules.labels) if rules else 0, "learned": learned, "warnings": warnings,
            "host_ms": {"snapshot": round((parsed - started) * 1000, 1), "extract": round((time.perf_counter() - parsed) * 1000, 1)},
        }

    def label(self, message: dict) -> dict:
        """``label``: a right-click correction, or its undo.

        ``{"snapshot", "node": id, "label": "noise"|"content", "snippets"?: bool}`` (refused with
        ``"private": true``: nothing of a private window is stored) ->
        ``{"type": "labelled", "label": {...}, "replaced": {...}|null, "site", "corrections": n}``;
        the label is on disk before the reply is sent. ``{"undo": true, "site"?}`` ->
        ``{"type": "unlabelled", "removed": {...}|null, "restored": {...}|null, "site"}``.
        Either way the personal model is retrained in the background.
        """
        from pagesieve.corrections.rules import make_label, target_block
        from pagesieve.corrections.store import LABEL_VALUES
        from pagesieve.errors import LabelStoreError
        from pagesieve.extract import judge_page
        from pagesieve.templates.urls import site_of

        if message.get("undo") is True:
            site = message.get("site")
            if site is not None and (not isinstance(site, str) or not site):
                raise ProtocolError(ErrorCode.BAD_REQUEST, "\"site\" must be a host name")
            try:
                removed, restored = self.label_store().undo(site)
            except LabelStoreError as exc:
                raise ProtocolError(ErrorCode.LABELS, str(exc)) from None
            if removed is not None:
                self.retrainer.request()
            return {"type": "unlabelled", "site": site, "removed": removed.summary() if removed else None,
                    "restored": restored.summary() if restored else None}
        if message.get("private", False) is not False:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "corrections are not saved from private windows")
        name, node = message.get("label"), message.get("node")
        if name not in LABEL_VALUES:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "\"label\" must be \"noise\" or \"content\"")
        if not isinstance(node, int) or isinstance(node, bool) or node < 0:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "\"node\" must be the node id of the picked element")
        snippets = _flag(message, "snippets", True)
        page = self.page(message)
        site = site_of(page.url)
        if site is None:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "a correction needs the page's URL with a host name (the site it applies to)")
        model = self.model(page)
        analysis, keep = judge_page(page, model=model, corrections=self.rules(site))
        block = target_block(analysis.blocks, analysis.page.element_by_id(), node)
        if block is None or analysis.blocks[block].parent < 0:
            raise ProtocolError(ErrorCode.NO_BLOCK, f"node {node} is not in a block of the page's content (hidden, or the whole body)")
        made = make_label(analysis.page, analysis.blocks, analysis.candidates, analysis.features, block,
                          LABEL_VALUES[name], keep=keep, snippets=snippets)
        try:
            store = self.label_store()
            stored, replaced = store.add(made)
            count = len(store.labels(site, features=False))
        except LabelStoreError as exc:
            raise ProtocolError(ErrorCode.LABELS, str(exc)) from None
        self.retrainer.request()
        return {"type": "labelled", "site": site, "label": {**stored.summary(), "node": analysis.blocks[block].node_id},
                "replaced": replaced.summary() if replaced else None, "corrections": count}

    def labels(self, message: dict) -> dict:
        """``labels`` ``{"site"?, "delete"?: label id}`` -> ``{"type": "labels", "labels":
        [summaries], "sites": {site: n}, "deleted": n}`` (newest first; what the options page
        lists). ``delete`` erases that correction first (the options page's "remove"), and the
        personal model is retrained."""
        from pagesieve.errors import LabelStoreError

        site, delete = message.get("site"), message.get("delete")
        if site is not None and (not isinstance(site, str) or not site):
            raise ProtocolError(ErrorCode.BAD_REQUEST, "\"site\" must be a host name")
        if delete is not None and (not isinstance(delete, int) or isinstance(delete, bool) or delete < 1):
            raise ProtocolError(ErrorCode.BAD_REQUEST, "\"delete\" must be the id of a correction")
        try:
            store = self.label_store()
            deleted = store.delete(label_id=delete) if delete is not None else 0
            found = [lab.summary() for lab in reversed(store.labels(site))]
            sites = store.sites()
        except LabelStoreError as exc:
            raise ProtocolError(ErrorCode.LABELS, str(exc)) from None
        if deleted:
            self.retrainer.request()
        return {"type": "labels", "labels": found, "sites": sites, "deleted": deleted}

    def history(self, message: dict) -> dict:
        """``history`` ``{"url"}`` -> ``{"type": "history", "site", "pages", "reference"}``:
        what the store learned of the page's site; ``reference`` is true when it holds a page of
        the site other than ``url``, so a ``clean`` of that page needs no fetched reference
        (cold start, :mod:`pagesieve.templates.cold_start`)."""
        from pagesieve.errors import TemplateStoreError
        from pagesieve.templates.urls import site_of

        url = message.get("url")
        if not isinstance(url, str) or not url:
            raise ProtocolError(ErrorCode.BAD_REQUEST, "\"url\" must be the page's URL")
        site = site_of(url)
        if site is None:
            return {"type": "history", "site": None, "pages": 0, "reference": False}
        try:
            store = self.store()
            pages, has_reference = store.site_pages(site), store.has_reference(site, url)
        except TemplateStoreError as exc:
            raise ProtocolError(ErrorCode.STORE, str(exc)) from None
        return {"type": "history", "site": site, "pages": pages, "reference": has_reference}

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
