"""``label``: a right-click correction stored, or the last one undone (docs/protocol.md)."""

from __future__ import annotations

from pagesieve.native.envelope import ErrorCode, ProtocolError, flag
from pagesieve.native.session import Session


def handle(session: Session, message: dict) -> dict:
    """``label``: a right-click correction, or its undo.

    ``{"snapshot", "node": id, "label": "noise"|"content", "snippets"?: bool}`` (refused with
    ``"private": true``: nothing of a private window is stored) ->
    ``{"type": "labelled", "label": {...}, "replaced": {...}|null, "site", "corrections": n,
    "reach": {...}}`` (:func:`reach_of`);
    the label is on disk before the reply is sent. ``{"undo": true, "site"?}`` ->
    ``{"type": "unlabelled", "removed": {...}|null, "restored": {...}|null, "site"}``.
    Either way the personal model is retrained in the background.

    A "noise" correction on an inline element inside a kept block (a credit ``span``, a "More…"
    link: :func:`pagesieve.corrections.parts.is_part`) names that element, not its block
    (:func:`~pagesieve.corrections.parts.make_part_label`; the reply's ``label.part`` is true);
    "content", or an element of a block judged noise, names the block.
    """
    from pagesieve.corrections.parts import is_part, make_part_label
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
            removed, restored = session.label_store().undo(site)
        except LabelStoreError as exc:
            raise ProtocolError(ErrorCode.LABELS, str(exc)) from None
        if removed is not None:
            session.retrainer.request()
        return {"type": "unlabelled", "site": site, "removed": removed.summary() if removed else None,
                "restored": restored.summary() if restored else None}
    if message.get("private", False) is not False:
        raise ProtocolError(ErrorCode.BAD_REQUEST, "corrections are not saved from private windows")
    name, node = message.get("label"), message.get("node")
    if name not in LABEL_VALUES:
        raise ProtocolError(ErrorCode.BAD_REQUEST, "\"label\" must be \"noise\" or \"content\"")
    if not isinstance(node, int) or isinstance(node, bool) or node < 0:
        raise ProtocolError(ErrorCode.BAD_REQUEST, "\"node\" must be the node id of the picked element")
    snippets = flag(message, "snippets", True)
    page = session.page(message)
    site = site_of(page.url)
    if site is None:
        raise ProtocolError(ErrorCode.BAD_REQUEST, "a correction needs the page's URL with a host name (the site it applies to)")
    model = session.model(page)
    analysis, keep = judge_page(page, model=model, corrections=session.rules(site))
    elements = analysis.page.element_by_id()
    block = target_block(analysis.blocks, elements, node)
    if block is None or analysis.blocks[block].parent < 0:
        raise ProtocolError(ErrorCode.NO_BLOCK, f"node {node} is not in a block of the page's content (hidden, or the whole body)")
    element = elements.get(node)
    if LABEL_VALUES[name] == 0 and element is not None and is_part(element) and keep[block]:
        made = make_part_label(analysis.page, analysis.blocks, element, keep=keep, snippets=snippets)
    else:
        made = make_label(analysis.page, analysis.blocks, analysis.candidates, analysis.features, block,
                          LABEL_VALUES[name], keep=keep, snippets=snippets)
    try:
        store = session.label_store()
        stored, replaced = store.add(made)
        count = len(store.labels(site, features=False))
    except LabelStoreError as exc:
        raise ProtocolError(ErrorCode.LABELS, str(exc)) from None
    session.retrainer.request()
    return {"type": "labelled", "site": site, "label": {**stored.summary(), "node": analysis.blocks[block].node_id},
            "replaced": replaced.summary() if replaced else None, "corrections": count,
            "reach": reach_of(session, stored, page.url, _holds_article(analysis, keep, stored))}


def _holds_article(analysis, keep: list[bool], label) -> bool:
    """Whether the kind of block ``label`` names held the article on the page it was made on
    (:func:`~pagesieve.templates.learn.article_shapes` of the verdict before the correction)."""
    from pagesieve.templates.learn import article_shapes, shape_key

    return shape_key(label.block_key) in article_shapes(analysis.page, analysis.blocks, keep)


def reach_of(session: Session, label, url: str | None, held_here: bool = False) -> dict:
    """How far the correction ``label`` (made on the page at ``url``) reaches among the pages of
    its site the host has learned (issue 54): ``{"pages": n, "site_pages": m, "anchored": bool,
    "stays_off": k}``.

    ``n`` is the learned pages holding a block of the label's kind (its tag path, counted by
    :meth:`~pagesieve.templates.store.TemplateStore.shape_pages`; for a label of an element inside a
    block, the block's tag path), the page itself counted once
    whether it was learned or not; ``m`` the site's learned pages (at least ``n``). The rule
    applies to every page of that kind, these and later ones; an ``anchored`` label only where
    the same text is found too (:mod:`pagesieve.corrections.rules`). ``k`` (a "hide" of a whole
    block only, else 0) is those of the ``n`` pages, other than this one, on which that kind of
    block held the article when the host judged them
    (:meth:`~pagesieve.templates.store.TemplateStore.shape_article_pages`): the rule is checked
    against the pages seen before it applies, and stays off pages like them
    (:func:`~pagesieve.corrections.rules.stays_local`), so it reaches ``n - k``. ``held_here``:
    the kind held the article on the label's own page too, which the store counted if that page
    was learned (with its verdict; the rule always applies there, so it is not among the ``k``;
    a page learned without a verdict, before the site's first correction, makes ``k`` one short
    in that odd case: a "hide" on the article's own wrapper). A store that
    cannot be read gives ``n = 1, m = 1, k = 0``: the reach is then unknown, and the reply
    still says "saved".
    """
    from pagesieve.errors import TemplateStoreError

    pages, site_pages, stays_off = 1, 1, 0
    try:
        store = session.store()
        seen = store.shape_pages(label.site, label.block_key)
        learned = bool(url) and store.has_learned(label.site, url)
        pages = max(1, seen + (0 if learned else 1))
        site_pages = max(pages, store.site_pages(label.site) + (0 if learned else 1))
        if label.label == 0 and not label.part:
            held = store.shape_article_pages(label.site, label.block_key)
            stays_off = min(pages - 1, max(0, held - (1 if learned and held_here else 0)))
    except (TemplateStoreError, ProtocolError):
        pass
    return {"pages": pages, "site_pages": site_pages, "anchored": label.anchor is not None, "stays_off": stays_off}
