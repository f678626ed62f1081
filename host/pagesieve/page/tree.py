"""Edits of a page tree that keep its text where it was."""

from __future__ import annotations

from lxml import etree


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
