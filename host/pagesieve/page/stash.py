"""Elements the article shows but extraction must not see: kept aside in attributes of the page
tree while the page is judged, put back when the article is rendered.

Formulas and the players of embedded videos carry no text that extraction was built on:
pre-processing deleted ``<math>`` and ``<iframe>`` (seed 004 §2.2 (a)), and the classifier's
features (text lengths, tag counts, block counts) were measured on trees without them. Kept in
the tree, even as an empty element, they change those features: on readability/mathjax, one
more inline tag per formula lost the article's paragraphs. So the tree the classifier sees is
left exactly as before, and what the article needs is written into attributes, which no
feature reads:

* :func:`mark`: an element that stays in the tree (a KaTeX wrapper with its visual copy) stands
  for another element (its MathML); the article shows the latter in its place.
* :func:`stash`: an element deleted as before (a ``<math>``, a player ``<iframe>``), its place
  written on the element whose text or tail its own tail joins (:data:`STASH_ATTRIBUTE`: a JSON
  list of ``[slot, offset, markup]``, ``slot`` ``"text"`` or ``"tail"``, ``offset`` the length
  of that text when it was deleted).
* :func:`carry`: an element that pre-processing deletes as empty hands its marks and stashed
  elements on to the place its tail goes, so a display formula alone in its ``<p>`` is not lost
  with the paragraph.
* :func:`unstash`: the article's tree (pruned) gets the elements back, in place.

Text appended to a slot later (other deletions keep their tails there) leaves the offsets right;
an element that pre-processing unwraps or deletes as hidden takes its stash with it, as it took
the element before.
"""

from __future__ import annotations

import json

from lxml import etree

from pagesieve.page.tree import remove_keep_tail

MARK_ATTRIBUTE = "data-ps-stands-for"
"""Attribute of an element in the tree holding the markup of the element shown in its place."""

STASH_ATTRIBUTE = "data-ps-stash"
"""Attribute holding the elements deleted after this element's text (slot ``"text"``) or tail
(``"tail"``), as JSON."""


def _markup(element: etree._Element) -> str:
    return etree.tostring(element, encoding="unicode", with_tail=False)


def _records(element: etree._Element) -> list[list]:
    data = element.get(STASH_ATTRIBUTE)
    return json.loads(data) if data else []


def _add(anchor: etree._Element, records: list[list]) -> None:
    if records:
        anchor.set(STASH_ATTRIBUTE, json.dumps(_records(anchor) + records, ensure_ascii=False))


def mark(element: etree._Element, shown: etree._Element) -> None:
    """Let ``element`` (which stays in the tree) stand for ``shown`` in the article."""
    element.set(MARK_ATTRIBUTE, _markup(shown))


def _place(element: etree._Element) -> tuple[etree._Element, str, int] | None:
    """Where the tail of ``element`` goes when it is deleted: ``(anchor, slot, offset)``."""
    parent = element.getparent()
    if parent is None:
        return None
    previous = element.getprevious()
    if previous is not None:
        return previous, "tail", len(previous.tail or "")
    return parent, "text", len(parent.text or "")


def stash(element: etree._Element, shown: etree._Element | None = None) -> None:
    """Delete ``element`` from the tree (its tail kept), and keep ``shown`` (default: the
    element itself, as it is now) for the article at that place."""
    place = _place(element)
    if place is None:
        return
    anchor, slot, offset = place
    _add(anchor, [[slot, offset, _markup(element if shown is None else shown)]])
    remove_keep_tail(element)


def carry(element: etree._Element) -> None:
    """Before ``element`` is deleted as empty (its tail kept where :func:`_place` says): hand
    what it stands for and what is stashed on it on to that place, in order."""
    shown = element.get(MARK_ATTRIBUTE)
    records = _records(element)
    if shown is None and not records:
        return
    place = _place(element)
    if place is None:
        return
    anchor, slot, offset = place
    lead = len(element.text or "") if element.text and element.text.isspace() else 0
    moved = [[slot, offset + r[1], r[2]] for r in records if r[0] == "text"]
    if shown is not None:
        moved.append([slot, offset + lead, shown])
    moved += [[slot, offset + lead + r[1], r[2]] for r in records if r[0] == "tail"]
    _add(anchor, moved)


def _parse(markup: str) -> etree._Element | None:
    try:
        return etree.fromstring(markup)
    except etree.XMLSyntaxError:
        return None


_STASHED = etree.XPath(f"descendant-or-self::*/@{STASH_ATTRIBUTE}/..")
_MARKED = etree.XPath(f"descendant-or-self::*/@{MARK_ATTRIBUTE}/..")
"""The elements under a root (itself included) that carry :data:`STASH_ATTRIBUTE`, or
:data:`MARK_ATTRIBUTE`, document order, found within libxml2 (:func:`unstash`: the elements its
walks over every element acted on, in the same order; few pages have any)."""


def unstash(root: etree._Element) -> int:
    """Put back, in place, every element that an element under ``root`` stands for
    (:func:`mark`) or that is stashed on one (:func:`stash`), and remove the attributes. Returns
    how many elements came back."""
    count = 0
    for element in _STASHED(root):
        data = element.attrib.pop(STASH_ATTRIBUTE, None)
        if data:
            records = list(enumerate(json.loads(data)))
            # last first, so that each insertion leaves the earlier offsets right
            for _i, (slot, offset, markup) in sorted(records, key=lambda r: (-r[1][1], -r[0])):
                node = _parse(markup)
                if node is None:
                    continue
                if slot == "tail":
                    if element.getparent() is None:
                        continue
                    text = element.tail or ""
                    element.addnext(node)
                    element.tail, node.tail = text[:offset] or None, text[offset:] or None
                else:
                    text = element.text or ""
                    element.insert(0, node)
                    element.text, node.tail = text[:offset] or None, text[offset:] or None
                count += 1
    for element in _MARKED(root):
        shown = element.get(MARK_ATTRIBUTE)
        if shown is None:
            continue
        node = _parse(shown)
        if node is None or element.getparent() is None:
            del element.attrib[MARK_ATTRIBUTE]
            continue
        node.tail = element.tail
        element.addprevious(node)
        element.getparent().remove(element)
        count += 1
    return count
