"""The element tree both snapshot formats build: element classes, boxes, and text no one sees.

Shared by :mod:`pagesieve.page.snapshot` (version 1) and :mod:`pagesieve.page.markup` (version
2), below both: the lxml class lookup their trees are made with (:data:`ELEMENT_LOOKUP`), the
fast way to fill a :class:`~pagesieve.page.model.Box` (:data:`FAST_BOX`, :data:`BOX_SETTERS`),
and the "visually hidden" rule (:func:`visually_hidden`) both apply to the rendered boxes.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import lxml.etree
import lxml.html

from pagesieve.page.model import NODE_ID_ATTR, Box

# Elements get their Python class through C-level lookups, the same classes as lxml.html's own
# parser gives (HtmlElement, FormElement, InputElement ...): lxml.html.html_parser's lookup is a
# Python callback run for every element proxy created, about 30 % slower to build a tree with.
ELEMENT_LOOKUP = lxml.etree.ElementNamespaceClassLookup(
    lxml.etree.ElementDefaultClassLookup(
        element=lxml.html.HtmlElement,
        comment=lxml.html.HtmlComment,
        pi=lxml.html.HtmlProcessingInstruction,
        entity=lxml.html.HtmlEntity,
    )
)
"""The lxml class lookup of the snapshot trees: the element classes lxml.html's parser gives."""
for _tag, _cls in (
    ("form", lxml.html.FormElement),
    ("input", lxml.html.InputElement),
    ("select", lxml.html.SelectElement),
    ("textarea", lxml.html.TextareaElement),
    ("label", lxml.html.LabelElement),
):
    ELEMENT_LOOKUP.get_namespace(None)[_tag] = _cls


# Box is a frozen dataclass: its __init__ sets each field through object.__setattr__, which
# is half of the cost of a box. When Box is the plain four-field class, the loop fills the
# slots directly (the same object; tests check it equals Box(x, y, width, height)).
FAST_BOX = (
    tuple(field.name for field in dataclasses.fields(Box)) == ("x", "y", "width", "height")
    and getattr(Box, "__slots__", None) == ("x", "y", "width", "height")
    and not hasattr(Box, "__post_init__")
)
"""True when :class:`~pagesieve.page.model.Box` is the plain four-slot class (see above)."""

BOX_SETTERS = (
    tuple(getattr(Box, name).__set__ for name in ("x", "y", "width", "height"))
    if FAST_BOX
    else (None, None, None, None)
)
"""The slot setters of ``x``, ``y``, ``width``, ``height`` when :data:`FAST_BOX`, else ``None``s."""


TINY_BOX_PX = 1
"""Width and height (CSS px) up to which a rendered box shows nothing: the "visually hidden"
pattern (:func:`visually_hidden`)."""

_VISIBLY_BOXLESS = frozenset({"html", "head", "body"})


def class_and_id(element: Any) -> str:
    """The ``class`` and ``id`` attributes of ``element`` joined by a space (either may be
    missing; ``""`` when both are): the names a page gives its parts, which the rules that find
    a caption's credit, a byline or an aside by its name match their patterns against."""
    cls, ident = element.get("class"), element.get("id")
    if cls and ident:
        return f"{cls} {ident}"
    return cls or ident or ""


def visually_hidden(candidates: list[Any], boxes: dict[int, Box]) -> list[Any]:
    """The elements of ``candidates`` (elements whose box is at most :data:`TINY_BOX_PX` square)
    that hold text no one sees: text in the subtree, and no descendant with a bigger box.

    This is how pages write text for screen readers only (Bootstrap's and Tailwind's
    ``sr-only``, WordPress's ``screen-reader-text``, the W3C's "visually hidden" technique
    C7: ``position: absolute; width: 1px; height: 1px; overflow: hidden; clip: ...``): "Skip
    to content", "Search for:", "Opens in a new window", "Image". The browser lays them out, so
    they are rendered, but a sighted reader never sees them, and a reader view should not show
    them. No class name is needed: the rendered box says it (only a browser snapshot has one).
    An element whose box is tiny but that holds bigger boxes (a 1 px wrapper of an icon or a
    menu that overflows it) is not one. ``html``, ``head`` and ``body`` never are. Returns the
    outermost such elements, in the order of ``candidates``.
    """
    out: list[Any] = []
    chosen: set[Any] = set()
    for element in candidates:  # document order: an element comes before what it holds
        if not len(element):  # a leaf (most are empty anchors and images): its own text alone
            text = element.text
            if not text or text.isspace():
                continue
        elif not "".join(element.itertext()).strip():
            continue
        if element.tag in _VISIBLY_BOXLESS:
            continue
        if chosen and any(ancestor in chosen for ancestor in element.iterancestors()):
            continue  # inside one already found
        for inner in element.iterdescendants():
            value = inner.get(NODE_ID_ATTR)
            box = boxes.get(int(value)) if value is not None else None
            if box is not None and (box.width > TINY_BOX_PX or box.height > TINY_BOX_PX):
                break
        else:
            out.append(element)
            chosen.add(element)
    return out
