"""Per-site rules from corrections: a site's labels applied to a page, before any retraining.

A label's signature (:mod:`pagesieve.corrections.signature`) names a kind of block. On a page
of the same site, every block whose element has that signature is *matched*, and the whole
subtree of each match takes the label: "noise" makes every block in it noise, "content" makes
every block in it with text or an image main content. Labels apply oldest first, so where two
overlap the newest wins (the same hygiene as the store: the user's latest word counts).

A "noise" label is **anchored** on its block's text (:func:`~pagesieve.corrections.signature.text_anchor`)
when, on the page it was made on, other blocks with the same signature still hold content: the
user hid one paragraph among look-alikes (a copyright line among the story's paragraphs), not
the kind. An anchored label matches only blocks with the signature *and* that text.

A label matches only blocks of its own **kind of text** (:func:`~pagesieve.corrections.signature.text_kind`:
a list of links or sentences), when both are known: a "noise" label on a list of related links
must not hide the story's bullet points written with the same markup (bbc.co.uk, issue 64), nor a
"content" label on those bullet points keep the related links. A "noise" label on a block with
pictures matches only blocks without pictures or with as many
(:func:`~pagesieve.corrections.signature.picture_kind`: one, several): a "hide" on a photo's
caption must not hide the fact boxes the same markup holds (bbc.co.uk's ``td.storybody >
table``). "Keep" labels are not held to it: a story body is kept whatever its pictures.

This runs after the classifier and the template evidence (:func:`pagesieve.extract.judge_page`):
a correction is the user's explicit verdict and overrides both, on the page it was made on. On
the site's other pages a rule **stays local** where it would take the page's main content away
(:func:`stays_local`): a "hide" that would remove most of what the page keeps, or a "keep" that
would more than double it, names a wrapper of the article there (the whole page's ``div#body``,
a comment thread), not the caption or promo the user meant (issue 64: "it never makes a site
worse").
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from pagesieve.blocks.segment import Block, subtree_ends
from pagesieve.corrections.signature import (
    PathIndex, legacy_index, link_share, path_keys, picture_count, picture_kind, text_anchor, text_kind,
)
from pagesieve.corrections.store import SNIPPET_CHARS, Label, SiteRules
from pagesieve.page.model import Page
from pagesieve.removal import Removal, RemovalLog
from pagesieve.rules.credits import is_photo_credit
from pagesieve.templates.urls import site_of


@dataclass(slots=True)
class RuleMatch:
    """One label matched on a page: the label and the indices of the blocks it matched."""

    label: Label
    blocks: list[int]


def match_rules(page: Page, blocks: list[Block], rules: SiteRules | None, paths: PathIndex | None = None) -> list[RuleMatch]:
    """The labels of ``rules`` that match blocks of ``page``, oldest label first.

    A block matches a label when it has the label's signature (tag path; zone when both are
    known), its text anchor if the label has one, its kind of text (:func:`block_kind`)
    when both kinds are known, and, for a "noise" label, its kind by pictures when both are known. Labels of an element inside a block (``part > 0``) are matched
    by :func:`pagesieve.corrections.parts.match_parts` instead.

    Cost: one tag-path key per block (memoised on the parent, so O(elements)) and a dict lookup.
    """
    if not rules:
        return []
    by_key: dict[str, list[Label]] = defaultdict(list)
    for label in rules.labels:
        if not label.part:  # a label of an element inside a block: pagesieve.corrections.parts
            by_key[label.signature.key].append(label)
    paths = paths or PathIndex(page)
    legacy = legacy_index(page, [lab.signature.path for labs in by_key.values() for lab in labs])
    found: dict[int, list[int]] = defaultdict(list)
    last = None
    for b in blocks:
        candidates = [lab for key in path_keys(b.element, paths, legacy) for lab in by_key.get(key, ())]
        if not candidates:
            continue
        zone = paths.zone(b.element) if any(lab.signature.zone for lab in candidates) else None
        anchor = None
        if any(lab.anchor for lab in candidates):
            last = last or subtree_ends(blocks)
            anchor = text_anchor(subtree_text(blocks, b.index, last[b.index]))
        kind = block_kind(b)
        pictures = picture_kind(picture_count(b.element)) if any(lab.pictures and not lab.label for lab in candidates) else None
        for label in candidates:
            if label.anchor is not None and label.anchor != anchor:
                continue
            wanted = text_kind(label.link_share)
            if wanted is not None and kind is not None and wanted != kind:
                continue
            shown = picture_kind(label.pictures) if label.label == 0 else None  # "hide" labels only
            if shown is not None and pictures is not None and shown != pictures:
                continue
            if label.signature.zone is None or zone is None or zone == label.signature.zone:
                found[label.id if label.id else id(label)].append(b.index)
    out = []
    for label in rules.labels:
        hits = found.get(label.id if label.id else id(label))
        if hits:
            out.append(RuleMatch(label, hits))
    return out


def apply_rules(page: Page, blocks: list[Block], keep: list[bool], rules: SiteRules | None,
                log: RemovalLog | None = None) -> list[RuleMatch]:
    """Apply the site's labels to ``keep`` (per block, True = main content), in place; each block
    a "noise" label makes noise is logged in ``log`` (:func:`correction_removal`), whatever the
    earlier stages said of it: the user's word is the reason it is hidden.

    A "content" label brings back every block of its subtree with text or an image, except a
    photo's credit line inside it (:func:`~pagesieve.rules.credits.is_photo_credit`): "keep
    this" on a photo's wrapper means the photo and its caption, not the credit beside it
    (dragnet's www.nytimes.com, issue 64: "keep" on ``div.articleSpanImage`` brought back "Ian
    Willms for The New York Times" on the site's other pages). The block the label names is
    always brought back: a "keep" on the credit itself keeps it.

    Returns:
        The matches applied (for the reply and for tests).
    """
    matches = match_rules(page, blocks, rules)
    if not matches:
        return matches
    last = subtree_ends(blocks)
    applied = []
    for match in matches:
        content = match.label.label == 1
        if stays_local(match, blocks, keep, last, page.url):
            continue
        applied.append(match)
        removal = correction_removal(match.label) if log is not None and not content else None
        for start in match.blocks:
            for i in range(start, last[start] + 1):
                if not content:
                    keep[i] = False
                    if removal is not None:
                        log.drop(i, removal)
                elif (blocks[i].chars > 0 or blocks[i].images > 0) and (i == start or not is_photo_credit(blocks[i])):
                    keep[i] = True
    return applied


LOCAL_HIDE_SHARE = 0.5
"""Share of a page's kept characters from which a "hide" rule made on another page stays off
that page: it would remove most of the article. Measured with ``pagesieve-dev eval
{daniel,dragnet} --split all --history all --corrections 3`` (2026-12-05): at 0.5 the sites made
worse by corrections went from 5 to 4 (daniel) and 8 to 5 (dragnet): www.we-dwoje.pl's
``div#body`` (F1 0.049 -> 0.888, as without corrections), www.videocopilot.net's ``div.wrapper``
(0.244 -> 0.640), paulocoelhoblog.com's ``div.entry-content`` (0.455 -> 0.803). At 0.8 and 0.9
paulocoelhoblog.com stays worse (0.724 against 0.784), while two sites whose classifier kept a
sidebar or a press box as most of the page keep their gain (thecuriousbrain.com 0.370 against
0.909, www.engadget.com 0.551 against 1.000): the half is the side that never makes a site worse."""

LOCAL_KEEP_RATIO = 1.0
"""A "keep" rule made on another page stays off a page where the text it brings back exceeds
this multiple of what the page keeps (it would more than double the article): a comment thread
or a whole column kept on one page is not the article of the next (dragnet's
www.fourhourworkweek.com and randfishkin.com: "keep" on ``#comments``)."""


def stays_local(match: RuleMatch, blocks: list[Block], keep: list[bool], last: list[int], url: str | None) -> bool:
    """True when the rule of ``match`` stays off this page (see the module docstring): the page
    is not the one the label was made on (``label.url`` against ``url``, fragments ignored), and
    the matched subtrees hold more than :data:`LOCAL_HIDE_SHARE` of the page's kept characters
    (a "noise" label), or more characters not kept than :data:`LOCAL_KEEP_RATIO` times the kept
    ones (a "content" label). ``keep`` is the verdict before this label; ``last`` from
    :func:`~pagesieve.blocks.segment.subtree_ends`. A page that keeps nothing is never guarded."""
    label = match.label
    if label.url is not None and url is not None and label.url.split("#")[0] == url.split("#")[0]:
        return False
    kept = sum(b.chars for b, k in zip(blocks, keep) if k)
    if kept == 0:
        return False
    inside = [i for start in match.blocks for i in range(start, last[start] + 1)]
    if label.label == 0:
        return sum(blocks[i].chars for i in set(inside) if keep[i]) > LOCAL_HIDE_SHARE * kept
    return sum(blocks[i].chars for i in set(inside) if not keep[i]) > LOCAL_KEEP_RATIO * kept


def correction_removal(label: Label) -> Removal:
    """The :class:`~pagesieve.removal.Removal` of a block hidden by the "noise" ``label``: stage
    ``"correction"``, rule ``"hide-this"`` (``"hide-this-text"`` for a label anchored on one
    block's text); evidence: the label's ``id``, when it was made (``created``, Unix time in
    seconds), the kind of block (``signature``) and the start of its text (``snippet``)."""
    return Removal("correction", "hide-this-text" if label.anchor else "hide-this", {
        "id": label.id, "created": round(label.created), "signature": label.signature.describe(),
        "snippet": (label.snippet or "")[:80],
    })


def noise_rule_ids(blocks: list[Block], matches: list[RuleMatch]) -> list[int]:
    """Node ids to hide for the "noise" labels alone (the extension's "corrections" mode, when
    the user has not asked for hide or reader): the outermost matched blocks, document order,
    minus those a newer "content" label re-opens."""
    last = subtree_ends(blocks)
    hidden = np.zeros(len(blocks), dtype=np.int8)  # 1 hidden, 2 re-opened by content
    for match in matches:
        for start in match.blocks:
            hidden[start:last[start] + 1] = 1 if match.label.label == 0 else 2
    out, i = [], 0
    while i < len(blocks):
        if hidden[i] == 1 and blocks[i].parent >= 0 and not (hidden[i:last[i] + 1] == 2).any():
            out.append(blocks[i].node_id)
            i = last[i] + 1
        else:
            i += 1
    return [n for n in out if n >= 0]


def noise_rule_reasons(blocks: list[Block], matches: list[RuleMatch]) -> dict[int, Removal]:
    """Node id -> :func:`correction_removal` of the newest "noise" label matching the block of
    that id (what :func:`noise_rule_ids` hides in the "corrections" mode is hidden for it)."""
    last = subtree_ends(blocks)
    out: dict[int, Removal] = {}
    for match in matches:
        if match.label.label != 0:
            continue
        removal = correction_removal(match.label)
        for start in match.blocks:
            for i in range(start, last[start] + 1):
                out[blocks[i].node_id] = removal
    return out


def target_block(blocks: list[Block], element_of_node, node_id: int) -> int | None:
    """Index of the block a correction on node ``node_id`` applies to: the block of that element,
    else of its nearest ancestor that is a block (a click on a link or a word names its
    paragraph). ``element_of_node`` maps node ids to elements (:meth:`Page.element_by_id`).
    ``None`` when the node is not in the page or lies outside every block but the body."""
    element = element_of_node.get(node_id)
    if element is None:
        return None
    index = {id(b.element): b.index for b in blocks}
    node = element
    while node is not None:
        found = index.get(id(node))
        if found is not None:
            return found
        node = node.getparent()
    return None


def subtree_text(blocks: list[Block], start: int, end: int) -> str:
    """The text of blocks ``start..end`` (a block's subtree), joined with spaces."""
    return " ".join(t for t in (blocks[i].text for i in range(start, end + 1)) if t)


def block_kind(block: Block) -> str | None:
    """The kind of text of ``block``'s subtree: ``"links"``, ``"text"`` or ``None`` (no text);
    :func:`~pagesieve.corrections.signature.text_kind` of its
    :func:`~pagesieve.corrections.signature.link_share`."""
    return text_kind(link_share(block))


def needs_anchor(blocks: list[Block], keep: list[bool], block: int, paths: PathIndex) -> bool:
    """True when a "noise" label on ``blocks[block]`` must be anchored on its text: another
    block of the page with the same signature, a kind of text and a kind by pictures the label
    would match (:func:`block_kind`, :func:`~pagesieve.corrections.signature.picture_kind`),
    outside this block's subtree, holds a kept block."""
    last = subtree_ends(blocks)
    path = paths.path(blocks[block].element)
    kind = block_kind(blocks[block])
    pictures = picture_kind(picture_count(blocks[block].element))
    for b in blocks:
        if b.index == block or block <= b.index <= last[block] or paths.path(b.element) != path:
            continue
        other = block_kind(b)
        if kind is not None and other is not None and other != kind:
            continue
        other_pictures = picture_kind(picture_count(b.element))
        if pictures is not None and other_pictures is not None and other_pictures != pictures:
            continue
        if any(keep[b.index:last[b.index] + 1]):
            return True
    return False


def make_label(page: Page, blocks: list[Block], candidates: list[int], features: np.ndarray, block: int, label: int,
               *, keep: list[bool] | None = None, snippets: bool = True, paths: PathIndex | None = None) -> Label:
    """The :class:`Label` of a correction on ``blocks[block]``: its signature, the feature rows of
    the candidate blocks in its subtree (``features`` are the page's candidate rows, in the order
    of ``candidates``), and, when ``snippets``, the start of its text.

    ``keep`` is the page's current verdict per block: with it, a "noise" label is anchored on the
    block's text where :func:`needs_anchor` says so (see the module docstring). The label keeps
    the block's :func:`~pagesieve.corrections.signature.link_share` (its kind of text) and its
    :func:`~pagesieve.corrections.signature.picture_count`."""
    paths = paths or PathIndex(page)
    last = subtree_ends(blocks)[block]
    rows = [r for r, i in enumerate(candidates) if block <= i <= last]
    text = subtree_text(blocks, block, last)
    snippet = (text[:SNIPPET_CHARS] + ("…" if len(text) > SNIPPET_CHARS else "")) if snippets and text else None
    anchor = None
    if label == 0 and keep is not None and needs_anchor(blocks, keep, block, paths):
        anchor = text_anchor(text)
    return Label(
        site=site_of(page.url) or "", url=page.url, label=label, signature=paths.signature(blocks[block].element),
        features=np.asarray(features[rows], dtype=np.float32), snippet=snippet, anchor=anchor,
        link_share=link_share(blocks[block]), pictures=picture_count(blocks[block].element),
    )
