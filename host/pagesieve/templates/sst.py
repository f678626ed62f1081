"""Site style tree (Yi, Liu & Li, KDD 2003; seed 002): the pages of a site merged into one tree.

An *element node* ``E = (TAG, Attr, Ss)`` stands for an element at one place of the site's
layout; its *style nodes* ``s = (ES, n)`` are the distinct sequences ``ES`` of child elements
found under it, each with the number ``n`` of pages that had exactly that sequence. Pages are
merged top-down from ``<body>``: a page's element follows the style node of its child sequence,
and its ``k``-th child merges into that style node's ``k``-th element node. We take an element's
``Attr`` to be its ``class`` with digits removed (pages style by class; the paper used
presentation attributes of its time).

Importance (seed 002, eq. 1-5), with ``m`` the pages containing ``E`` and ``l`` its style nodes:

- ``NodeImp(E) = -sum_i p_i log_m p_i``, ``p_i = n_i / m`` (0 when ``m = 1``);
- internal node: ``CompImp(E) = (1 - g^l) NodeImp(E) + g^l sum_i p_i CompImp(s_i)``,
  ``g = GAMMA = 0.9``; ``CompImp(s) = mean of CompImp over its element nodes``;
- leaf node (no child elements on any page): its content is split into *features* (words of
  its text, the ``src`` of an image, the ``href`` of a link); ``H(a) = -sum_j p_j log_m p_j``
  over the pages ``j`` where feature ``a`` occurs, ``p_j`` its share of ``a``'s occurrences;
  ``CompImp(E) = 1 - sum_a H(a) / l`` over its ``l`` features (1 without features or when
  ``m = 1``, where every ``H`` is 0).

A node is **noise** iff its ``CompImp`` and that of every descendant are below a threshold
(:data:`NOISE_THRESHOLD`, measured, see :func:`pagesieve.templates.evidence`).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from lxml import etree

GAMMA = 0.9
"""The attenuating factor of eq. 2 (seed 002: "设置为0.9")."""

NOISE_THRESHOLD = 0.5
"""CompImp below which a node (with all its descendants) is noise; the paper leaves it to be
measured (see the table in :mod:`pagesieve.templates.evidence`)."""

_DIGITS = re.compile(r"\d+")
_WORD = re.compile(r"\w+")


def element_key(element: etree._Element) -> tuple[str, str]:
    """``(TAG, Attr)`` of an element: its tag and its class with digits removed."""
    return (element.tag, _DIGITS.sub("", " ".join((element.get("class") or "").split())))


def content_features(element: etree._Element) -> list[str]:
    """The features of a leaf element: lower-cased words of its text, ``src`` of an image,
    ``href`` of a link (seed 002: "对文本分词后来提取特征")."""
    words = _WORD.findall((element.text or "").lower())
    if element.tag == "img" and element.get("src"):
        words.append("src:" + element.get("src"))
    if element.tag == "a" and element.get("href"):
        words.append("href:" + element.get("href"))
    return words


@dataclass(slots=True)
class StyleNode:
    """``(ES, n)``: the element nodes of one child sequence and the pages that had it."""

    elements: list[ElementNode]
    pages: int = 0


@dataclass(slots=True)
class ElementNode:
    """``(TAG, Attr, Ss)`` plus what importance needs.

    Attributes:
        key: ``(tag, class)``. styles: child sequence -> :class:`StyleNode`. pages: ``m``.
        features: feature -> {page number: occurrences}, for leaf content.
        importance: ``CompImp`` once :meth:`SiteStyleTree.compute` has run. noise: the noise
        verdict (node and all descendants below the threshold).
    """

    key: tuple[str, str]
    styles: dict[tuple, StyleNode] = field(default_factory=dict)
    pages: int = 0
    features: dict[str, Counter] = field(default_factory=dict)
    importance: float = 1.0
    noise: bool = False

    @property
    def is_leaf(self) -> bool:
        """No child element on any page."""
        return all(not seq for seq in self.styles)


def _log(x: float, base: int) -> float:
    return math.log(x) / math.log(base)


def node_importance(node: ElementNode) -> float:
    """``NodeImp(E)`` (seed 002 eq. 1)."""
    m = node.pages
    if m <= 1:
        return 0.0
    return -sum((s.pages / m) * _log(s.pages / m, m) for s in node.styles.values() if s.pages)


def leaf_importance(node: ElementNode) -> float:
    """``CompImp`` of a leaf (seed 002 eq. 4-5)."""
    m = node.pages
    if m <= 1 or not node.features:
        return 1.0
    total_h = 0.0
    for per_page in node.features.values():
        count = sum(per_page.values())
        total_h -= sum((c / count) * _log(c / count, m) for c in per_page.values())
    return 1.0 - total_h / len(node.features)


class SiteStyleTree:
    """The style tree of one site, built page by page (:meth:`add`), then :meth:`compute`."""

    def __init__(self, gamma: float = GAMMA) -> None:
        self.gamma = gamma
        self.root = ElementNode(("body", ""))
        self.pages = 0

    def add(self, body: etree._Element) -> None:
        """Merge one page (its pre-processed ``<body>``) into the tree."""
        self.pages += 1
        page = self.pages
        stack = [(body, self.root)]
        while stack:
            element, node = stack.pop()
            node.pages += 1
            children = [c for c in element if isinstance(c.tag, str)]
            seq = tuple(element_key(c) for c in children)
            style = node.styles.get(seq)
            if style is None:
                style = node.styles[seq] = StyleNode([ElementNode(k) for k in seq])
            style.pages += 1
            if not children:
                for feature in content_features(element):
                    node.features.setdefault(feature, Counter())[page] += 1
            for child, child_node in zip(children, style.elements):
                stack.append((child, child_node))

    def compute(self, threshold: float = NOISE_THRESHOLD) -> None:
        """Fill ``importance`` (``CompImp``, bottom-up) and ``noise`` of every node."""
        order: list[ElementNode] = []
        stack = [self.root]
        while stack:
            node = stack.pop()
            order.append(node)
            for style in node.styles.values():
                stack.extend(style.elements)
        for node in reversed(order):  # children before parents
            if node.is_leaf:
                node.importance = leaf_importance(node)
                node.noise = node.importance < threshold
                continue
            l = len(node.styles)
            m = max(node.pages, 1)
            weight = self.gamma ** l
            below = 0.0
            for style in node.styles.values():
                if style.elements:
                    below += (style.pages / m) * sum(e.importance for e in style.elements) / len(style.elements)
                else:  # pages where E had no child element: its content, as for a leaf
                    below += (style.pages / m) * leaf_importance(node)
            node.importance = (1 - weight) * node_importance(node) + weight * below
            node.noise = node.importance < threshold and all(
                e.noise for s in node.styles.values() for e in s.elements
            )

    def map_page(self, body: etree._Element) -> dict[etree._Element, ElementNode]:
        """The SST node of each element of a new page (its ``<body>``) that lands on the tree:
        an element follows the style node of its child sequence; elements under a sequence the
        site never had are left out (they are new, hence not known noise)."""
        out: dict[etree._Element, ElementNode] = {}
        stack = [(body, self.root)]
        while stack:
            element, node = stack.pop()
            out[element] = node
            children = [c for c in element if isinstance(c.tag, str)]
            style = node.styles.get(tuple(element_key(c) for c in children))
            if style is None:
                continue
            stack.extend(zip(children, style.elements))
        return out
