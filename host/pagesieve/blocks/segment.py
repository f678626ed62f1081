"""Block segmentation: a page tree cut into blocks, each with its own text and counts.

A **block** is an element whose tag is in the block set; its *own content* is the text and
inline elements under it that are not inside a nested block (Yan & Wang 2020, seed 000 §5:
"when computing the features of a block-level tag, the content of the block-level tags nested
in it is left out"). Seed 000 names ``body``, ``section`` and ``div``; real pages put
paragraphs, list items and table cells in their own tags, so the default set
(:data:`BLOCK_TAGS`) is the HTML block-level and sectioning elements. Pass
``block_tags=SEED000_BLOCK_TAGS`` to reproduce the paper's worked example exactly.

Text length counts the characters of each text node after its runs of white space are
collapsed to one space and its ends trimmed. This is what reproduces the paper's Table 3
(the record line of its Figure 2 counts its inner spaces: 65 characters).

One iterative pass over the tree (``lxml``'s ``iter``, no recursion), so deep nesting cannot
overflow the Python stack; O(number of elements + characters).
"""

from __future__ import annotations

import os
import re
import struct
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from itertools import chain

from lxml import etree

from pagesieve.page.model import NODE_ID_ATTR

BLOCK_TAGS = frozenset(
    """body div section article main header footer nav aside p h1 h2 h3 h4 h5 h6 ul ol li
    dl dt dd table thead tbody tfoot tr td th caption blockquote pre figure figcaption
    address details summary hgroup menu""".split()
)
"""Tags that start a block (HTML Living Standard §4: flow content that forms its own box)."""

HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
"""The heading elements (HTML Living Standard §4.3.6): the title is looked for among them
(:func:`pagesieve.article.header.title_heading_block`), and one named as comments opens a
comment section (:func:`pagesieve.rules.comments.heading_section`)."""

SEED000_BLOCK_TAGS = frozenset({"body", "section", "div"})
"""The block tags of seed 000 §5 ("网页中块级标签主要包括: body 标签、section 标签、div 标签")."""


@dataclass(slots=True)
class Block:
    """One block of a page.

    Attributes:
        element: the lxml element of the block.
        index: position in document order among the page's blocks (0 = body or first block).
        parent: index of the enclosing block, ``-1`` for the outermost.
        depth: element depth below the root ``<html>`` (html = 0, body = 1).
        pieces: the block's own text pieces, in order, as they stand in the source.
        chars: length of own text (see the module docstring; seed 000 "innerLen").
        link_chars: of those, characters inside ``<a>`` ("innerLinkLen").
        links: ``<a>`` elements in own content ("innerLinkNum").
        images: ``<img>`` elements in own content ("innerPicNum").
        inline_tags: inline elements in own content (for text density, CETD).
        children: indices of the blocks directly nested in this one.
        sub_chars, sub_link_chars, sub_tags, sub_links, sub_images: the same counts over the
            whole subtree, nested blocks included (block elements count as tags).
        pre: True when the block is or lies in ``<pre>`` (white space is content).
    """

    element: etree._Element
    index: int
    parent: int
    depth: int
    pieces: list[str] = field(default_factory=list)
    chars: int = 0
    link_chars: int = 0
    links: int = 0
    images: int = 0
    inline_tags: int = 0
    children: list[int] = field(default_factory=list)
    sub_chars: int = 0
    sub_link_chars: int = 0
    sub_tags: int = 0
    sub_links: int = 0
    sub_images: int = 0
    pre: bool = False
    _text: str | None = field(default=None, repr=False, compare=False)
    _signature: tuple[str, str] | None = field(default=None, repr=False, compare=False)
    _class: str | None | bool = field(default=False, repr=False, compare=False)  # False: not read yet
    _comment_mark: bool | None = field(default=None, repr=False, compare=False)  # pagesieve.blocks.features.comment_mark
    _node_id: int | None = field(default=None, repr=False, compare=False)  # from segment()'s positions

    @property
    def tag(self) -> str:
        """The block's tag name, lower case."""
        return self.element.tag

    @property
    def node_id(self) -> int:
        """The node id of the block element (:meth:`pagesieve.page.model.Page.node_id`): given by
        :func:`segment` for a page parsed from HTML, else its ``data-ps-id``; ``-1`` if it has none."""
        if self._node_id is not None:
            return self._node_id
        value = self.element.get(NODE_ID_ATTR)
        return int(value) if value is not None else -1

    @property
    def text(self) -> str:
        """Own text with white space collapsed (verbatim inside ``<pre>``). Made once, when
        first asked for (features, template lookups and fingerprints all read it): ``pieces``
        must not change after :func:`segment` has filled them."""
        text = self._text
        if text is None:
            text = "".join(self.pieces) if self.pre else " ".join("".join(self.pieces).split())
            self._text = text
        return text

    @property
    def class_attr(self) -> str | None:
        """The block element's ``class`` attribute (``None`` without one), read once: the features
        (:func:`pagesieve.blocks.features.block_features`) and :attr:`signature` both need it, and
        lxml's ``get`` costs as much as the rest of a block's class evidence."""
        cls = self._class
        if cls is False:
            cls = self._class = self.element.get("class")
        return cls

    @property
    def signature(self) -> tuple[str, str]:
        """``(tag, class)`` with the class's runs of digits removed, so that ``comment-17`` and
        ``comment-18`` match: what look-alike sibling blocks share (comments, forum posts,
        cards; :func:`pagesieve.blocks.features.sibling_runs`, :func:`pagesieve.blocks.signals.card_items`).
        Made once, when first asked for."""
        signature = self._signature
        if signature is None:
            cls = self.class_attr
            if cls:
                stripped = _CLASS_SIGNATURES.get(cls)
                if stripped is None:
                    if len(_CLASS_SIGNATURES) >= 4096:
                        _CLASS_SIGNATURES.clear()
                    stripped = _CLASS_SIGNATURES[cls] = _strip_digits(cls)
            else:
                stripped = ""
            signature = self._signature = (self.element.tag, stripped)
        return signature


_DIGITS_RE = re.compile(r"\d+")
_ASCII_DIGITS = b"0123456789"


def _strip_digits(cls: str) -> str:
    """``_DIGITS_RE.sub("", cls)``: an ASCII class (all of the 40,683 class attributes of 180
    small dataset pages) has only ASCII digits, deleted from its bytes, and one without any
    is itself; 0.3 of the regular expression's time (10,748 distinct classes, 2.0 -> 0.6 us each)."""
    if cls.isascii():
        raw = cls.encode()
        kept = raw.translate(None, _ASCII_DIGITS)
        return cls if len(kept) == len(raw) else kept.decode()
    return _DIGITS_RE.sub("", cls)


_CLASS_SIGNATURES: dict[str, str] = {}
"""Class attribute -> the same without its digits (pages repeat their classes; emptied at 4,096)."""


class _WalkEnd:
    """The mark :func:`segment` chains after the last element: its parent is the walk's top, so
    every element still open is left and its tail placed."""

    __slots__ = ("top",)

    def __init__(self, top: etree._Element) -> None:
        self.top = top

    def getparent(self) -> etree._Element:
        """The walk's top element."""
        return self.top


def segment(root: etree._Element, block_tags: frozenset[str] = BLOCK_TAGS, positions: dict | None = None) -> list[Block]:
    """Cut the tree under ``root`` into blocks, in document order.

    Args:
        root: the ``<html>`` (or any) element; its ``<body>`` is used when present. Text
            outside every block tag is attributed to a synthetic block for ``root`` itself.
        block_tags: which tags start a block.
        positions: the node ids of a page parsed from HTML
            (:meth:`pagesieve.page.model.Page.positions`), which give each block its
            :attr:`Block.node_id`; ``None`` for a snapshot (ids in ``data-ps-id``).

    Returns:
        The list of :class:`Block`; ``blocks[0]`` is the outermost block (``body``).
        Subtree counts (``sub_*``) are filled in.

    The compiled walk (:mod:`pagesieve.blocks._segment`, see :func:`_load_compiled`) gives these
    blocks where it can (each block element with a live lxml proxy, as every element of a page
    parsed from HTML has, :attr:`pagesieve.page.model.Page.proxies`; no namespaced or non-ASCII
    tag, entity reference or XInclude mark); elsewhere, or with :data:`PURE_PYTHON_ENV` set, the
    Python walk below does, to the same blocks field for field.
    """
    body = root.find("body") if root.tag == "html" else None
    top = body if body is not None else root
    if _compiled is not None and block_tags.__class__ is frozenset:
        names = _BLOCK_NAMES.get(block_tags)
        if names is None:
            names = _BLOCK_NAMES[block_tags] = _block_names(block_tags)
        if names and isinstance(top, etree._Element) and (positions is None or positions.__class__ is dict):
            blocks = _compiled.segment(top, names, 1 if body is not None else 0, positions, top.tag == "pre", FILL_TEXT)
            if blocks is not None:
                COUNTS[0] += 1
                return blocks
            COUNTS[1] += 1
    return _segment_python(top, body is not None, block_tags, positions)


def _segment_python(top: etree._Element, in_body: bool, block_tags: frozenset[str], positions: dict | None) -> list[Block]:
    """The walk of :func:`segment` in Python (the reference the compiled walk is checked against):
    ``top`` is the body, or the root when ``in_body`` is False."""
    first = Block(top, 0, -1, 1 if in_body else 0)
    blocks: list[Block] = [first]
    in_pre = top.tag == "pre"
    first.pre = in_pre
    # The open elements, outermost first, each with the context its children inherit: (element,
    # block, inside <a>, inside <pre>). Elements come in document order (``iter``); the parent of
    # each is on this stack (``getparent`` gives the proxy held there), and the elements above it
    # have been left: each one's tail, which follows its subtree, goes to the block that holds
    # it. The end events of ``iterwalk`` without walking them: 0.83x the time of ``iterwalk``
    # (240 dataset pages, interleaved), and only the open elements are held, not every one met.
    stack: list[tuple[etree._Element, Block, bool, bool]] = [(top, first, False, in_pre)]
    text = top.text
    if text:
        first.pieces.append(text)
        first.chars += len(" ".join(text.split()))  # white space collapsed, ends trimmed (module docstring)
    elements = top.iter()
    next(elements)  # top itself
    end = _WalkEnd(top)
    for element in chain(elements, (end,)):
        parent = element.getparent()
        while stack[-1][0] is not parent:
            tail = stack.pop()[0].tail
            if tail:
                _element, owner, owner_link, _pre = stack[-1]
                owner.pieces.append(tail)
                words = tail.split()
                if words:
                    n = len(" ".join(words))
                    owner.chars += n
                    if owner_link:
                        owner.link_chars += n
        if element is end:
            break
        _element, block, in_link, in_pre = stack[-1]
        tag = element.tag
        if tag.__class__ is not str:  # a comment or processing instruction: its tail alone counts
            stack.append((element, block, in_link, in_pre))
            continue
        if tag == "pre":
            in_pre = True
        if tag in block_tags:
            child = Block(element, len(blocks), block.index, first.depth + len(stack))  # positional: 2x faster than keywords
            if in_pre:
                child.pre = True
            block.children.append(child.index)
            blocks.append(child)
            block = child
        else:
            block.inline_tags += 1
            if tag == "a":
                block.links += 1
                in_link = True
            elif tag == "img":
                block.images += 1
        stack.append((element, block, in_link, in_pre))
        text = element.text
        if text:
            block.pieces.append(text)
            n = len(" ".join(text.split()))
            if n:
                block.chars += n
                if in_link:
                    block.link_chars += n
    if positions is not None:
        get = positions.get
        for block in blocks:
            block._node_id = get(block.element, -1)
    _add_subtree_totals(blocks)
    return blocks


def _add_subtree_totals(blocks: list[Block]) -> None:
    """Fill each block's ``sub_*`` counts (its own counts plus its nested blocks'), in place, in
    one pass, children before parents (children have larger indices): when a block is reached,
    its nested blocks have already added their totals to it."""
    for block in reversed(blocks):
        block.sub_chars += block.chars
        block.sub_link_chars += block.link_chars
        block.sub_tags += block.inline_tags + 1
        block.sub_links += block.links
        block.sub_images += block.images
        if block.parent >= 0:
            parent = blocks[block.parent]
            parent.sub_chars += block.sub_chars
            parent.sub_link_chars += block.sub_link_chars
            parent.sub_tags += block.sub_tags
            parent.sub_links += block.sub_links
            parent.sub_images += block.sub_images


def holds_content(blocks: list[Block], keep: list[bool]) -> list[bool]:
    """Per block, True if it or a block nested in it is kept (``keep``: per block, document
    order). One pass, children before parents (children have larger indices)."""
    out = list(keep)
    for b in reversed(blocks):
        if b.parent >= 0 and out[b.index]:
            out[b.parent] = True
    return out


def inside_tag(blocks: Sequence[Any], tag: str) -> list[bool]:
    """Per block (document order): True for a block of tag ``tag`` and every block inside one.
    One pass: ``tag`` being a block tag, a block inside such an element has it on its parent
    chain. ``blocks``: objects with ``index``, ``tag`` and ``parent`` (a :class:`Block` or a
    :class:`~pagesieve.templates.evidence.BlockFacts`)."""
    out = [False] * len(blocks)
    for b in blocks:
        out[b.index] = b.tag == tag or (b.parent >= 0 and out[b.parent])
    return out


def sibling_groups(blocks: list[Block]) -> list[list[int]]:
    """The groups of two or more sibling blocks of one shape: per block (document order), its
    child blocks that share tag and class, digits removed (:attr:`Block.signature`), each group
    a list of block indices in document order, the groups of one parent in the order of their
    first member. Made once per page (:func:`pagesieve.extract.analyse`) and read by
    :func:`pagesieve.blocks.features.sibling_runs`, :func:`pagesieve.blocks.signals.sibling_runs`
    (the card items, :func:`pagesieve.blocks.signals.card_items`) and the teaser runs
    (:func:`pagesieve.rules.teasers.teaser_runs`), which each grouped the children again.
    The lists are shared: their readers must not change them."""
    out = []
    for b in blocks:
        children = b.children
        if len(children) < 2:
            continue
        groups: dict[tuple[str, str], list[int]] = {}
        for c in children:
            child = blocks[c]
            groups.setdefault(child._signature or child.signature, []).append(c)  # the property once per block
        if len(groups) < len(children):  # some group has two members or more
            out.extend(members for members in groups.values() if len(members) > 1)
    return out


def subtree_ends(blocks: list[Block]) -> list[int]:
    """Per block, the index of the last block inside it: block ``k``'s subtree is the blocks
    ``k .. ends[k]``, because blocks are numbered in document order. O(number of blocks)."""
    ends = list(range(len(blocks)))
    for i in range(len(blocks) - 1, 0, -1):
        p = blocks[i].parent
        if p >= 0 and ends[i] > ends[p]:
            ends[p] = ends[i]
    return ends


PURE_PYTHON_ENV = "PAGESIEVE_PURE_PYTHON"
"""Set (not empty, not ``0``) when this module is imported: :func:`segment` always walks in Python
(the same switch as :data:`pagesieve.classify.classifier.PURE_PYTHON_ENV`)."""

FILL_TEXT = True
"""The compiled walk fills each block's :attr:`Block.text` as it goes (the collapsed text from the
same bytes, cheaper than joining and splitting the pieces later; the extraction reads it for
almost every block)."""

COUNTS = [0, 0]
"""Calls of :func:`segment` the compiled walk answered, and calls it handed back to the Python walk
(a block element without a live proxy, or a node it does not read); for measurements."""

_BLOCK_NAMES: dict[frozenset, tuple[bytes, ...]] = {}
"""Block tag set -> its names as the compiled walk compares them (ASCII bytes); ``()`` for a set it
cannot use (a name that is not an ASCII str), which the Python walk then serves, as it serves a
``block_tags`` that is not a frozenset."""

_VERIFIED_LXML_MAJOR = (6,)
"""lxml major versions whose ``_Element`` layout the compiled walk was checked against (6.1.3)."""

_VERIFIED_UNICODE = ("14.0.0", "15.0.0", "15.1.0")
"""Unicode versions of Python 3.11, 3.12 and 3.13, whose ``str.isspace`` was compared with the
compiled walk's white space for every code point; under another one the comparison runs at import."""

_CHECK_PAGE = (
    b"<html><head><title>t</title></head><body>lead <b>bold</b><div id=a> one\xc2\xa0two <a href=x>link "
    b"<img src=i> <a>inner</a> tail</a>\xe3\x80\x80<p>para<!-- c -->after <?pi x?>pi tail</p> "
    b"<pre> keep  <b> this </b><div>in pre</div>  </pre></div><ul><li>\xe6\x97\xa5\xe6\x9c\xac "
    b"<em> x\x0by </em></li><li></li></ul> end<table><tr><td>cell</td></tr></table></body></html>"
)
"""A page whose segmentation both walks must agree on before the compiled one is used: nested
links, an image, a comment and a processing instruction with tails, ``<pre>`` with a block in it,
non-ASCII text and white space, empty blocks, text between blocks."""


def _block_names(block_tags: frozenset[str]) -> tuple[bytes, ...]:
    """The names of ``block_tags`` for the compiled walk (which compares them as C strings); ``()``
    if one is not a non-empty ASCII str without NUL."""
    if not all(isinstance(tag, str) and tag.isascii() and tag and "\x00" not in tag for tag in block_tags):
        return ()
    return tuple(sorted(tag.encode("ascii") for tag in block_tags))


def _same_blocks(a: list[Block], b: list[Block]) -> bool:
    """True if two segmentations agree in every field :func:`segment` fills (elements by identity)."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if x.element is not y.element or x._node_id != y._node_id or x.text != y.text:
            return False
        for name in _FIELDS:
            if name not in ("element", "_text", "_node_id") and getattr(x, name) != getattr(y, name):
                return False
    return True


_FIELDS = tuple(Block.__dataclass_fields__)


def _load_compiled():
    """:mod:`pagesieve.blocks._segment`, configured and checked, or ``None`` (then :func:`segment`
    always walks in Python): when :data:`PURE_PYTHON_ENV` is set, the module is not built (no C
    compiler at install; setup.py), lxml's major version is not one it was checked with
    (:data:`_VERIFIED_LXML_MAJOR`), or any of these checks fails:

    - lxml's ``_Element`` is ``PyObject_HEAD`` and three pointers (``_doc``, ``_c_node``, ``_tag``:
      lxml.etree.h, ``struct LxmlElement``), and on a parsed page each element's node points back
      at its proxy (``_private``), has type 1 (libxml2 ``XML_ELEMENT_NODE``), its tag as name and
      no namespace;
    - :class:`Block`'s slots are found where the module writes them (each filled with a known
      object and looked for) and it has no other storage;
    - the module's white space is ``str.isspace`` (compared for every code point when Python's
      Unicode version is not one of :data:`_VERIFIED_UNICODE`);
    - both walks give the same blocks on :data:`_CHECK_PAGE`.

    Why it exists: the Python walk spends most of its time asking lxml for each node's proxy,
    tag, text, tail and parent; the compiled one reads the nodes. Checked to give the same blocks
    field for field and the same extraction on all 4,783 dataset pages
    (tests/test_segment_compiled.py; models/README.md, "Compiled segmentation", for the figures).
    """
    if os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0"):
        return None
    try:
        import pagesieve.blocks._segment as _segment  # the compiled module itself (a .so, no Python names)
    except ImportError:
        return None
    if etree.LXML_VERSION[0] not in _VERIFIED_LXML_MAJOR:
        return None
    if etree._Element.__basicsize__ != object.__basicsize__ + 3 * struct.calcsize("P"):
        return None
    names = tuple(f for f in _FIELDS)
    if sorted(Block.__slots__) != sorted(names) or Block.__basicsize__ != object.__basicsize__ + len(names) * struct.calcsize("P"):
        return None
    marks = tuple(object() for _ in names)
    offsets = _segment.slot_offsets(Block(*marks), marks, Block.__basicsize__)
    if min(offsets) < 0 or len(set(offsets)) != len(offsets):
        return None
    _segment.configure(Block, offsets)
    if unicodedata.unidata_version not in _VERIFIED_UNICODE:
        if _segment.spaces() != [c for c in range(0x110000) if chr(c).isspace()]:
            return None
    root = etree.fromstring(_CHECK_PAGE, etree.HTMLParser(encoding="utf-8"))
    proxies = list(root.iter())  # held, as Page.proxies holds them
    for element in proxies:
        if isinstance(element.tag, str) and _segment.node_info(element) != (True, 1, element.tag.encode(), True):
            return None
    body = root.find("body")
    positions = dict(zip(proxies, range(len(proxies))))
    for fill in (False, True):
        for where, ids in ((body, positions), (body, None), (body.find("div"), positions)):
            got = _segment.segment(where, _block_names(BLOCK_TAGS), 1, ids, where.tag == "pre", fill)
            if got is None or (not fill and any(b._text is not None for b in got)):
                return None
            if not _same_blocks(got, _segment_python(where, True, BLOCK_TAGS, ids)):
                return None
    return _segment


_compiled = _load_compiled()
