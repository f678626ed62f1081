"""``clean``: the page judged, its noise ids to hide (with why) or its reader article; the judging
that ``explain`` shares (docs/protocol.md)."""

from __future__ import annotations

import time

from pagesieve.native.envelope import ErrorCode, ProtocolError, flag
from pagesieve.native.requests.learn import learn_judged
from pagesieve.native.session import Session

MAX_REFERENCE_BYTES = 8 * 1024 * 1024
"""Bytes of a cold-start reference page (``clean``'s ``reference``) the host reads; the
extension does not send a larger one."""


def handle(session: Session, message: dict) -> dict:
    """``clean`` ``{"snapshot", "mode": "hide"|"reader"|"corrections", "templates"?,
    "learn"?, "private"?, "reference"?}`` -> ``{"type": "cleaned", "mode", "hide": [node
    ids], "why": [reason per hidden id], "content": [node ids], "site", "site_pages", "model",
    "corrections", "learned", "reference", "warnings", "host_ms", "article"?}``; ``article``
    (metadata, html, text, and ``next_page``: where the article goes on,
    :meth:`pagesieve.article.pagination.NextPage.to_json`, which the extension follows with
    ``follow`` requests) in reader mode only. ``why[k]`` is ``[stage, rule, evidence]``
    (:meth:`pagesieve.removal.Removal.compact`) of ``hide[k]``
    (:func:`pagesieve.explain.hidden_reasons`), or ``null`` when it has none; in "hide" mode
    the elements inside kept blocks that the user's corrections hide follow the blocks
    (:func:`with_parts`); the layers over
    the page judged noise come last, each hidden whole (:func:`pagesieve.rules.layers.hidden_with_layers`). With
    ``"learn": true`` the page is also learned, as a ``learn`` request would (not when
    ``"private": true``), after it was judged. ``reference``
    (cold start, :mod:`pagesieve.templates.cold_start`): a page of the site fetched by the
    extension, used when the store has no reference page for this one; the reply's
    ``reference`` is its URL when it was used, else ``null`` (docs/protocol.md)."""
    from pagesieve.explain import hidden_reasons
    from pagesieve.extract import next_page, render_article, verdict_ids
    from pagesieve.rules.layers import hidden_with_layers

    mode = message.get("mode", "hide")
    if mode not in ("hide", "reader", "corrections"):
        raise ProtocolError(ErrorCode.BAD_REQUEST, "\"mode\" must be \"hide\", \"reader\" or \"corrections\"")
    learn, private = flag(message, "learn"), flag(message, "private")
    started = time.perf_counter()
    judged = judge(session, message, mode, started, learn, private)
    if isinstance(judged, dict):  # mode "corrections", answered
        return judged
    page, site, rules, templates, model, analysis, keep, learned, warnings, parsed = judged
    if mode == "reader":
        following = next_page(analysis, keep, seen=[page.url] if page.url else ())  # before the tree is pruned
        article = render_article(analysis, keep)
        content_ids, noise_ids = article.content_ids, article.noise_ids
    else:
        content_ids, noise_ids = verdict_ids(analysis.blocks, keep)
        session.hold((page, analysis, keep))  # freed after the reply is written (release())
    why = [r.compact() if r is not None else None for r in hidden_reasons(analysis, keep)]
    if mode == "hide":
        noise_ids, why = with_parts(page, noise_ids, why, analysis.hidden_parts)
    noise_ids, why = hidden_with_layers(noise_ids, why, analysis.hidden_layers, analysis.layers)
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
        reply["article"]["next_page"] = following.to_json()
    return reply


def judge(session: Session, message: dict, mode: str, started: float, learn: bool = False, private: bool = False,
           explain: bool = False):
    """The page of a ``clean`` or ``explain`` request judged as ``clean`` judges it (the
    site's templates unless ``"templates": false``, a cold-start ``reference``, the user's
    corrections, the model for the page), and learned with ``learn``: ``(page, site, rules,
    templates, model, analysis, keep, learned, warnings, parsed)``; in ``mode``
    ``"corrections"`` the ``clean`` reply itself (:func:`corrections_only`). With
    ``explain``, pre-processing logs its removals (:func:`pagesieve.extract.judge_page`).

    Raises:
        ProtocolError: as :meth:`~pagesieve.native.session.Session.page`, ``rules``, ``model``; STORE.
    """
    from pagesieve.errors import TemplateStoreError
    from pagesieve.extract import judge_page
    from pagesieve.templates.evidence import DEFAULT_KINDS
    from pagesieve.templates.urls import site_of

    use_templates = message.get("templates", True)
    reference = read_reference(message)
    page = session.page(message)
    parsed = time.perf_counter()
    site = site_of(page.url)
    rules = session.rules(site)
    warnings = list(page.warnings)
    if mode == "corrections":
        return corrections_only(session, page, site, rules, started, parsed, learn, private, warnings)
    templates = None
    if use_templates and site is not None:
        try:
            templates = session.store().templates_for(site, page.url)
        except TemplateStoreError as exc:
            raise ProtocolError(ErrorCode.STORE, str(exc)) from None
    kinds = DEFAULT_KINDS
    if reference is not None and use_templates and site is not None and (templates is None or templates.reference_url is None):
        fetched = fetched_templates(site, page.url, reference, templates, warnings)
        if fetched is not None:
            templates, kinds = fetched, DEFAULT_KINDS + ("diff",)
    model = session.model(page)
    # hiding needs the verdict only: no byline, date or lead image, no rendered article
    analysis, keep = judge_page(page, model=model, templates=templates, evidence_kinds=kinds, corrections=rules,
                                title_only=mode == "hide", explain=explain)
    learned = learn and learn_judged(session, page, analysis.blocks, private, warnings, keep)
    return page, site, rules, templates, model, analysis, keep, learned, warnings, parsed


def corrections_only(session: Session, page, site, rules, started, parsed, learn, private, warnings) -> dict:
    """``clean`` in mode ``corrections``: only what the user's "hide this" corrections hide
    (no classifier): for pages the user has not asked to clean, where a correction must
    still hold (like a cosmetic filter). With ``learn``, the page is learned too."""
    from pagesieve.blocks.segment import segment
    from pagesieve.corrections.parts import hidden_parts
    from pagesieve.corrections.rules import match_rules, noise_rule_ids, noise_rule_reasons
    from pagesieve.page.preprocess import preprocess

    hide: list[int] = []
    why: list = []
    learned = False
    if rules or learn:
        preprocess(page)
        blocks = segment(page.root, positions=page.positions())
        if rules:
            matches = match_rules(page, blocks, rules)
            hide = noise_rule_ids(blocks, matches)
            reasons = noise_rule_reasons(blocks, matches)
            why = [reasons[n].compact() if n in reasons else None for n in hide]
            hidden = set(hide)
            parts = [p for p in hidden_parts(page, blocks, [True] * len(blocks), rules) if blocks[p[0]].node_id not in hidden]
            hide, why = with_parts(page, hide, why, parts)
        learned = learn and learn_judged(session, page, blocks, private, warnings)
    return {
        "type": "cleaned", "mode": "corrections", "hide": hide, "why": why, "content": [], "site": site, "site_pages": 0,
        "model": None, "corrections": len(rules.labels) if rules else 0, "learned": learned, "warnings": warnings,
        "host_ms": {"snapshot": round((parsed - started) * 1000, 1), "extract": round((time.perf_counter() - parsed) * 1000, 1)},
    }


def read_reference(message: dict) -> tuple[str, bytes] | None:
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


def fetched_templates(site: str, page_url: str | None, reference: tuple[str, bytes], learned, warnings: list[str]):
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


def with_parts(page, hide: list[int], why: list, parts: list) -> tuple[list[int], list]:
    """``hide`` and ``why`` with the node ids of ``parts`` (``(block index, element, Removal)``
    of :func:`pagesieve.corrections.parts.hidden_parts`) and their reasons after them; an
    element without a node id (added after load) is left out."""
    hide, why = list(hide), list(why)
    for _block, element, removal in parts:
        node = page.node_id(element)
        if node >= 0:
            hide.append(node)
            why.append(removal.compact())
    return hide, why
