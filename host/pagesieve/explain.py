"""Reading the removal log of a judged page: why a hidden node is hidden, why one node is not
shown, and the whole log of what left the article (``pagesieve extract --explain``).

The reasons themselves are recorded by the stages as they decide (:mod:`pagesieve.removal`);
this module only reads them, after :func:`pagesieve.extract.judge_page` (and, for the article,
:func:`pagesieve.extract.render_article`).
"""

from __future__ import annotations

from collections import defaultdict

from lxml import etree

from pagesieve.blocks.segment import subtree_ends
from pagesieve.extract import Analysis, hideable_blocks
from pagesieve.removal import Removal

TEXT_START_CHARS = 60
"""Characters of a block's text the log shows (its start, white space collapsed)."""

UNSEEN_TAGS = frozenset({"head", "title", "meta", "link", "base", "script", "style", "template"})
"""Elements pre-processing removes that a browser never shows: left out of the log."""


def block_reason(analysis: Analysis, keep: list[bool], index: int, ends: list[int] | None = None) -> Removal | None:
    """Why block ``index`` (judged noise in ``keep``) is hidden: its own reason from the log
    (:meth:`~pagesieve.removal.RemovalLog.reason`); for a block without one (a container that
    holds no text of its own, which no stage judges), the reason that removed most of the text
    inside it, with ``"blocks"``: how many blocks inside were removed for that stage and rule.
    ``None`` when nothing inside has a reason (a container of empty blocks). ``ends``:
    :func:`pagesieve.blocks.segment.subtree_ends` of the blocks, when the caller has it."""
    log = analysis.removals
    own = log.reason(index)
    if own is not None:
        return own
    ends = ends if ends is not None else subtree_ends(analysis.blocks)
    blocks = analysis.blocks
    weight: dict[tuple[str, str], int] = defaultdict(int)
    count: dict[tuple[str, str], int] = defaultdict(int)
    largest: dict[tuple[str, str], tuple[int, int]] = {}  # key -> (chars, index) of its largest block
    for i in range(index + 1, ends[index] + 1):
        if keep[i]:
            continue
        key = log.key(i)
        if key is None:
            continue
        chars = blocks[i].chars + blocks[i].images
        weight[key] += chars
        count[key] += 1
        if key not in largest or chars > largest[key][0]:
            largest[key] = (chars, i)
    if not weight:
        return None
    key = max(weight, key=lambda k: (weight[k], count[k]))
    found = log.reason(largest[key][1])
    return Removal(found.stage, found.rule, {**found.evidence, "blocks": count[key]})


def hidden_reasons(analysis: Analysis, keep: list[bool]) -> list[Removal | None]:
    """The reason of each block "hide noise" hides (:func:`pagesieve.extract.hideable_blocks`:
    the ``hide`` list of a ``clean`` reply, :func:`pagesieve.extract.verdict_ids`), in the same
    order (:func:`block_reason`). About 2 ms for the 34 hidden blocks of dragnet/T51 (1,614
    blocks; judging the page takes some 120 ms here), timed in-process on this 2-core machine."""
    ends = subtree_ends(analysis.blocks)
    return [block_reason(analysis, keep, i, ends) for i in hideable_blocks(analysis.blocks, keep)]


def text_start(text: str, limit: int = TEXT_START_CHARS) -> str:
    """The first ``limit`` characters of ``text`` with its white space collapsed (``…`` when cut)."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def node_reason(analysis: Analysis, keep: list[bool], node_id: int) -> dict:
    """Why node ``node_id`` is (or is not) shown, for the protocol's ``explain`` request.

    Returns ``{"node", "verdict", "block", "tag", "text", "reason"}``: ``verdict`` is
    ``"content"`` (its block is kept; ``reason`` null), ``"noise"`` (its block, or an enclosing
    one, is judged noise: ``reason`` is :func:`block_reason` of the outermost hidden block
    around it), ``"removed"`` (pre-processing removed it or an element around it: the
    pre-processing reason; needs the page judged with ``explain``) or ``"unknown"`` (not in
    the page, or outside every block but the body). ``block`` is the node id of the block the
    verdict is about (``null`` when there is none), ``tag`` and ``text`` its tag and text start.
    A node in a layer over the page judged noise (:func:`layer_reason`) is ``"noise"`` with the
    layer's reason, its ``block`` the layer element (hidden whole, as ``clean`` hides it).
    """
    from pagesieve.corrections.rules import target_block

    blocks = analysis.blocks
    out = {"node": node_id, "verdict": "unknown", "block": None, "tag": None, "text": "", "reason": None}
    layer = layer_reason(analysis, node_id)
    if layer is not None:
        out.update(layer)
        return out
    index = target_block(blocks, analysis.page.element_by_id(), node_id)
    if index is not None and blocks[index].parent >= 0:
        # the outermost block around it that is hidden whole (what "hide noise" hides)
        ends = subtree_ends(blocks)
        outer = None
        i = index
        while i >= 0 and blocks[i].parent >= 0:
            if not any(keep[i:ends[i] + 1]):
                outer = i
            i = blocks[i].parent
        if outer is None:
            chosen = blocks[index]
            out.update(verdict="content" if keep[index] else "noise", block=chosen.node_id, tag=chosen.tag,
                       text=text_start(chosen.text))
            if not keep[index]:  # a noise container around content: its own text goes
                reason = block_reason(analysis, keep, index, ends)
                out["reason"] = reason.to_json() if reason is not None else None
            return out
        chosen = blocks[outer]
        reason = block_reason(analysis, keep, outer, ends)
        out.update(verdict="noise", block=chosen.node_id, tag=chosen.tag, text=text_start(subtree_text(analysis, outer, ends)),
                   reason=reason.to_json() if reason is not None else None)
        return out
    page = analysis.page
    for element, removal in analysis.removals.preprocessed or ():
        if any(page.node_id(e) == node_id for e in element.iter(etree.Element)):
            node = page.node_id(element)
            out.update(verdict="removed", block=node if node >= 0 else None, tag=element.tag,
                       text=text_start("".join(element.itertext())), reason=removal.to_json())
            return out
    return out


def layer_reason(analysis: Analysis, node_id: int) -> dict | None:
    """``{"verdict": "noise", "block", "tag", "text", "reason"}`` for a node inside a layer
    judged noise (:attr:`pagesieve.extract.Analysis.hidden_layers`; ``block`` the layer's node
    id, ``text`` the start of the layer's text when it is still in the tree), else ``None``."""
    reasons = dict(analysis.hidden_layers)
    for found in analysis.layers:
        if found.node_id in reasons and node_id in found.inside:
            element = analysis.page.element_by_id().get(found.node_id)
            text = text_start("".join(element.itertext())) if element is not None else ""
            return {"verdict": "noise", "block": found.node_id, "tag": found.tag, "text": text,
                    "reason": reasons[found.node_id].to_json()}
    return None


def subtree_text(analysis: Analysis, index: int, ends: list[int]) -> str:
    """The own texts of block ``index`` and the blocks inside it, joined with spaces."""
    return " ".join(t for t in (analysis.blocks[i].text for i in range(index, ends[index] + 1)) if t)


def removal_log(analysis: Analysis, keep: list[bool]) -> list[dict]:
    """The removal log of a judged page, for ``pagesieve extract --explain``: one entry per block
    with text or an image of its own that is not in the article (``keep`` false), per block the
    article's HTML leaves out for its header (after :func:`pagesieve.extract.render_article`),
    and per element with text that pre-processing removed (when judged with ``explain``;
    elements of :data:`UNSEEN_TAGS` and those inside another removed element left out).

    Each entry: ``{"block": block index or null, "node": node id or null, "tag", "text": its
    start, "stage", "rule", "evidence"}``, blocks in document order, then the pre-processing
    removals in the order they were found.
    """
    log = analysis.removals
    out = []
    for b in analysis.blocks:
        if not (b.chars or b.images):
            continue
        if keep[b.index]:
            reason = log.header.get(b.index)
        else:
            reason = log.reason(b.index)
        if reason is None:
            continue
        out.append({"block": b.index, "node": b.node_id if b.node_id >= 0 else None, "tag": b.tag,
                    "text": text_start(b.text), **reason.to_json()})
    removed = {element for element, _r in log.preprocessed or ()}
    for element, reason in log.preprocessed or ():
        if element.tag in UNSEEN_TAGS or any(a in removed for a in element.iterancestors()):
            continue
        text = text_start("".join(element.itertext()))
        if not text and element.tag not in ("input", "select", "textarea", "button", "iframe", "img", "svg", "canvas", "video"):
            continue
        node = analysis.page.node_id(element)
        out.append({"block": None, "node": node if node >= 0 else None, "tag": element.tag, "text": text,
                    **reason.to_json()})
    return out


def log_lines(entries: list[dict]) -> list[str]:
    """The removal log as text, one line per entry: block (``-`` for a pre-processed element),
    tag, the text start in quotes, stage, rule and evidence (``key value`` pairs)."""
    from pagesieve.removal import evidence_text

    lines = [f"{'block':>5}  {'tag':<8}  {'text':<42}  {'stage':<10}  {'rule':<18}  evidence"]
    for entry in entries:
        block = "-" if entry["block"] is None else str(entry["block"])
        text = text_start(entry["text"], 40)
        lines.append(f"{block:>5}  {entry['tag']:<8}  {'“' + text + '”':<42}  {entry['stage']:<10}  {entry['rule']:<18}  "
                     f"{evidence_text(entry['evidence'])}")
    return lines
