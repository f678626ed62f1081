"""Pre-processing of a page tree before segmentation (Yang, Li & Geng 2015, seed 004 §2.2 (a)).

Seed 004 drops ``script, noscript, style, link, meta``, the interaction elements (``form,
fieldset, legend, input, select, menu, optgroup, option, textarea, map, area, applet, object,
param, button, label``), invisible elements (``display:none``, ``visibility:hidden``), comments
and empty elements. We follow it with three changes, each measured or forced by real pages:

* ``form``, ``fieldset`` and ``label`` are *unwrapped* (tag dropped, children kept), not
  deleted: ASP.NET pages wrap the whole body in one ``<form>`` (seen in cleaneval and dragnet),
  and deleting it would delete the article.
* ``noscript`` is unwrapped when it holds real text (:data:`NOSCRIPT_MIN_CHARS`): it is what a
  browser without scripts shows, and some sites put their whole page there for crawlers.
* ``menu`` is kept as a list container: HTML5 made it a synonym of ``ul``.
* Elements that carry content without text are kept: ``img`` (with a source), ``br``, ``hr``,
  ``video``/``audio``/``picture`` with sources, table cells (keep the table's grid), and the
  whitespace inside ``pre`` is never touched.

Invisible means, for HTML pages: the ``hidden`` attribute or an inline style with
``display:none`` / ``visibility:hidden`` (stylesheets are not evaluated: only a browser can). For snapshots
the browser's own ``checkVisibility()`` result is used (:class:`~pagesieve.page.model.NodeStyle`).
"""

from __future__ import annotations

import re

from lxml import etree

from pagesieve.page.model import NODE_ID_ATTR, Page

REMOVED_TAGS = frozenset(
    """script style link meta template svg math canvas iframe frame frameset
    input select optgroup option textarea button map area applet object embed param
    dialog datalist output progress meter head title base""".split()
)
"""Elements deleted with their content (seed 004 §2.2 (a), plus non-text embeds)."""

UNWRAPPED_TAGS = frozenset({"form", "fieldset", "label", "legend", "font", "center", "nobr", "o:p"})
"""Elements whose tag is dropped but whose children and text stay (see the module docstring)."""

CONTENT_LEAVES = frozenset({"img", "br", "hr", "video", "audio", "picture", "source", "td", "th", "col", "colgroup"})
"""Elements kept even when they have no text: they carry content or layout of content."""

_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


_NOT_HIDDEN_TESTED = REMOVED_TAGS | UNWRAPPED_TAGS | {"noscript"}
"""Tags handled by their name alone (removed or unwrapped whatever their visibility)."""

_MAY_BE_HIDDEN = etree.XPath("descendant-or-self::*[@hidden or @style]")
"""Elements that :func:`is_hidden` can find hidden on a page without computed styles."""

NOSCRIPT_MIN_CHARS = 200
"""A ``<noscript>`` with at least this much text is kept as content (unwrapped), else removed."""


def _text_length(element: etree._Element) -> int:
    """Characters of text under ``element`` that are not white space."""
    return sum(len(t) - t.count(" ") - t.count("\n") for t in element.itertext())


def is_hidden(element: etree._Element, styles: dict | None = None) -> bool:
    """True if ``element`` is invisible (see the module docstring for the rules)."""
    if element.get("hidden") is not None:
        return True
    style = element.get("style")
    if style and _HIDDEN_STYLE.search(style):
        return True
    if styles is not None:
        node_id = element.get(NODE_ID_ATTR)
        if node_id is not None:
            node_style = styles.get(int(node_id))
            if node_style is not None and not node_style.visible:
                return True
    return False


def preprocess(page: Page) -> Page:
    """Clean ``page.root`` in place, as seed 004 §2.2 (a) with the changes named above.

    Removes the tags of :data:`REMOVED_TAGS` with their content, unwraps
    :data:`UNWRAPPED_TAGS`, removes invisible elements, then removes elements left empty
    (no text, no :data:`CONTENT_LEAVES` inside). Text of removed elements' tails is kept.

    Returns:
        the same ``page`` (for chaining).
    """
    root = page.root
    styles = page.styles
    # The tag tests run inside libxml2 (``iter`` with tag names, one XPath for the attributes)
    # instead of a Python test per element: the same elements, in a third of the time.
    doomed: list[etree._Element] = list(root.iter(etree.Comment, etree.ProcessingInstruction, etree.Entity))
    to_unwrap: list[etree._Element] = []
    for element in root.iter("noscript"):
        # What a browser with scripts off shows: crawler views of script-rendered sites
        # (Discourse forums in wcxb_dev) hold the whole page there. Short ones ("enable
        # JavaScript", tracking pixels) go. A live snapshot never contains noscript text.
        if page.source == "html" and _text_length(element) >= NOSCRIPT_MIN_CHARS:
            to_unwrap.append(element)
        else:
            doomed.append(element)
    doomed.extend(root.iter(*REMOVED_TAGS))
    to_unwrap.extend(root.iter(*UNWRAPPED_TAGS))
    if page.hidden is not None:
        # a snapshot lists its unrendered elements; the attribute tests run as for HTML
        listed = [element for element in page.hidden if element.tag not in _NOT_HIDDEN_TESTED]
        doomed.extend(listed)
        listed = set(listed)
        doomed.extend(
            element for element in _MAY_BE_HIDDEN(root)
            if element.tag not in _NOT_HIDDEN_TESTED and element not in listed and is_hidden(element)
        )
    elif styles is not None:
        doomed.extend(
            element for element in root.iter(etree.Element)
            if element.tag not in _NOT_HIDDEN_TESTED and is_hidden(element, styles)
        )
    else:
        doomed.extend(
            element for element in _MAY_BE_HIDDEN(root)
            if element.tag not in _NOT_HIDDEN_TESTED and is_hidden(element)
        )
    for element in doomed:
        remove_keep_tail(element)
    for element in to_unwrap:
        if element.getparent() is not None:
            unwrap(element)
    _remove_empty(root)
    return page


def unwrap(element: etree._Element) -> None:
    """Replace ``element`` by its content: text, children and tail stay where they were."""
    parent = element.getparent()
    if parent is None:
        return
    index = parent.index(element)
    previous = element.getprevious()
    lead = (element.text or "")
    if lead:
        if previous is not None:
            previous.tail = (previous.tail or "") + lead
        else:
            parent.text = (parent.text or "") + lead
    children = list(element)
    tail = element.tail
    if children:
        last = children[-1]
        if tail:
            last.tail = (last.tail or "") + tail
    elif tail:
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    element.tail = None
    parent.remove(element)
    for offset, child in enumerate(children):
        parent.insert(index + offset, child)


def remove_keep_tail(element: etree._Element) -> None:
    """Delete ``element`` and its subtree but keep the text that follows it (its tail)."""
    parent = element.getparent()
    if parent is None:
        return
    tail = element.tail
    if tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    parent.remove(element)


def _remove_empty(root: etree._Element) -> None:
    """Remove elements with no text and no content-bearing descendants (post-order, iterative)."""
    # Empty leaves first (collected, then removed, so the walk is not disturbed); parents left
    # empty by their removal are found by the loop below, level by level.
    empty: list[etree._Element] = []
    for element in root.iter(etree.Element):
        if len(element) == 0 and not (element.text and element.text.strip()):
            if element is not root and element.tag not in CONTENT_LEAVES and element.tag != "body":
                empty.append(element)
    changed = True
    while empty and changed:
        changed = False
        parents = []
        for element in empty:
            parent = element.getparent()
            if parent is None:
                continue
            remove_keep_tail(element)
            changed = True
            parents.append(parent)
        empty = [
            p for p in parents
            if p is not root and p.tag != "body" and p.tag not in CONTENT_LEAVES and len(p) == 0
            and not (p.text and p.text.strip()) and p.getparent() is not None
        ]
