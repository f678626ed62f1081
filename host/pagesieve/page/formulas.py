"""Formulas of a page read back to one MathML ``<math>`` element each, before pre-processing.

Pages show mathematics in four ways, and each but the first carries it twice:

* plain MathML (``<math>``, MathML Core / MathML 3), which browsers draw themselves;
* KaTeX (``<span class="katex">``): a hidden MathML copy in ``span.katex-mathml`` (with the TeX
  in ``<annotation encoding="application/x-tex">``) beside the visual copy ``span.katex-html``
  (``aria-hidden``), made of positioned spans ("a²+b²" read as text: ``a2+b2``);
* MathJax 3 (``<mjx-container>``): the visual copy ``<mjx-math>`` (CHTML, whose glyphs are CSS
  content and hold no text at all) or an ``<svg>``, and the assistive MathML in
  ``<mjx-assistive-mml>``; MathJax 2 (``span.MathJax``, ``MathJax_Display``, ``MathJax_SVG``)
  puts the source after its output in ``<script type="math/tex">`` (``; mode=display`` for a
  display formula), its MathML in ``span.MJX_Assistive_MathML``; a page read as HTML before
  MathJax ran holds the ``<script>`` alone;
* MediaWiki (``span.mwe-math-element``): MathML in a ``display: none`` span and a fallback
  ``<img>`` whose ``alt`` is the TeX.

:func:`normalise_formulas` keeps one clean MathML ``<math>`` per formula for the article (the
visual copy is never shown with it, so no formula is there twice): plain tag names, the TeX
source, when the page gives it, in :data:`TEX_ATTRIBUTE`, annotations and the white space
between MathML elements removed (MathML Core §2.1.1 trims it). The tree that extraction judges
stays as pre-processing made it before, which deleted ``<math>`` and kept the visual copies:
the formula is kept aside in attributes (:mod:`pagesieve.page.stash`). Read as MathML
characters in the blocks, formulas changed the features of their blocks, and the article of
readability/mathjax, whose text runs around many formulas, was lost. The rendering of the
article (:func:`pagesieve.article.render.finish_html`) puts the formulas back with the TeX as a
MathML ``<annotation>`` (:func:`restore_formulas`), which Markdown writes as ``$...$``.
"""

from __future__ import annotations

import re

from lxml import etree

from pagesieve.page.stash import MARK_ATTRIBUTE, mark, stash
from pagesieve.page.tree import remove_keep_tail

TEX_ATTRIBUTE = "data-ps-tex"
"""Attribute of a ``<math>`` element holding the formula's TeX source while the page is judged."""

TEX_ENCODINGS = frozenset({"application/x-tex", "application/x-latex", "text/x-tex", "tex", "latex"})
"""``encoding`` values of a MathML ``<annotation>`` that hold TeX (KaTeX and MediaWiki write the first)."""

MATHML_NS = "http://www.w3.org/1998/Math/MathML"

_TEX_SCRIPT_TYPES = ("math/tex", "math/latex")
_MML_SCRIPT_TYPE = "math/mml"

_HAS_CLASS = "contains(concat(' ', normalize-space(@class), ' '), ' {} ')"

_WRAPPER_CLASSES = ("katex", "katex-display", "mwe-math-element", "MathJax", "MathJax_Display", "MathJax_SVG",
                    "MathJax_SVG_Display", "MathJax_CHTML", "MathJax_MathML")

_WRAPPERS = etree.XPath(
    "/descendant::*[self::mjx-container or (@class"
    " and (contains(@class, 'katex') or contains(@class, 'MathJax') or contains(@class, 'mwe-math-element'))"
    " and (" + " or ".join(_HAS_CLASS.format(c) for c in _WRAPPER_CLASSES) + "))]"
)
"""Outer elements of KaTeX, MediaWiki and MathJax formulas (an outer one first: document order),
in the whole document. A class attribute holding one of the names holds its text, so the plain
substring tests go first and the token test (``concat``/``normalize-space``) runs only on the
few elements they let through: a fifth of the cost of the token test on every element (2.8 to
0.6 ms a page on big9, dragnet and daniel)."""

_FORMULA_SCRIPTS = etree.XPath("//script[starts-with(normalize-space(translate(@type, 'MATHLX', 'mathlx')), 'math/')]")


def _classes(element: etree._Element) -> list[str]:
    return (element.get("class") or "").split()


def _local(tag: object) -> str:
    """The local name of a tag (``{ns}math`` -> ``math``); ``""`` for comments and the like."""
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _tex_of(math: etree._Element) -> str | None:
    """The TeX of a ``<math>`` element: its TeX ``<annotation>``, else a TeX-looking ``alttext``."""
    for annotation in math.iter():
        if _local(annotation.tag) == "annotation" and (annotation.get("encoding") or "").strip().lower() in TEX_ENCODINGS:
            text = (annotation.text or "").strip()
            if text:
                return text
    return None


def _compact(math: etree._Element) -> None:
    """Remove, in place, the annotations of ``math`` and the white space between its elements
    (but inside token elements: ``<mtext>``, ``<mi>``, ``<mo>``, ``<mn>``, ``<ms>``); keep the
    presentation child of each ``<semantics>``."""
    for element in list(math.iter()):
        if _local(element.tag) in ("annotation", "annotation-xml"):
            remove_keep_tail(element)
    for element in list(math.iter()):
        if _local(element.tag) == "semantics":
            _unwrap(element)
    for element in math.iter():
        if _local(element.tag) not in ("mtext", "mi", "mo", "mn", "ms") and element.text and not element.text.strip():
            element.text = None
        if element is not math and element.tail and not element.tail.strip():
            element.tail = None


def _unwrap(element: etree._Element) -> None:
    parent = element.getparent()
    if parent is None:
        return
    index = parent.index(element)
    for offset, child in enumerate(list(element)):
        parent.insert(index + offset, child)
    remove_keep_tail(element)


def formula(math: etree._Element, tex: str | None = None, display: bool | None = None) -> etree._Element:
    """A clean ``<math>`` element made from the MathML element ``math`` (moved, not copied):
    plain tag names, no namespace, its TeX (``tex`` or its own annotation) in
    :data:`TEX_ATTRIBUTE`, ``display="block"`` when ``display`` is true (its own value when
    ``display`` is ``None``), annotations and insignificant white space removed."""
    tex = tex or _tex_of(math)
    if tex:
        inside = _DISPLAYSTYLE.fullmatch(tex.strip())
        tex = inside.group(1).strip() if inside else tex.strip()
    for element in math.iter():
        if isinstance(element.tag, str) and element.tag.startswith("{"):
            element.tag = _local(element.tag)
    _compact(math)
    for name in list(math.attrib):
        if name not in ("display", "alttext", "dir"):
            del math.attrib[name]
    if display is not None:
        if display:
            math.set("display", "block")
        else:
            math.attrib.pop("display", None)
    if tex:
        math.set(TEX_ATTRIBUTE, tex)
    return math


def _tex_formula(tex: str, display: bool) -> etree._Element:
    """A ``<math>`` for a formula known only by its TeX: the TeX as its text (``<mtext>``), as a
    browser without MathJax would show the page."""
    math = etree.Element("math")
    mtext = etree.SubElement(math, "mtext")
    mtext.text = tex
    return formula(math, tex, display)


def _replace(old: etree._Element, new: etree._Element) -> None:
    """Put ``new`` where ``old`` is (``old``'s tail stays after it)."""
    new.tail = old.tail
    old.tail = None
    old.addprevious(new)
    old.getparent().remove(old)


def _is_display(wrapper: etree._Element) -> bool | None:
    """True when the wrapper shows a display formula (KaTeX ``katex-display``, MathJax 2
    ``*_Display``, MathJax 3 ``display="true"``), ``None`` when it does not say."""
    classes = _classes(wrapper)
    if "katex-display" in classes or any(c.endswith("_Display") for c in classes):
        return True
    if wrapper.get("display") in ("true", "block"):
        return True
    parent = wrapper.getparent()
    if parent is not None and "katex-display" in _classes(parent):
        return True
    if wrapper.tag == "mjx-container" or "katex" in classes:
        return False
    return None


_DISPLAYSTYLE = re.compile(r"\{\\displaystyle\s+(.*)\}", re.DOTALL)
"""MediaWiki's TeX annotation, ``{\\displaystyle E=mc^{2}}``: the formula is the group's inside."""


def _attached(element: etree._Element, top: etree._Element) -> bool:
    """True if ``element`` is still in the tree whose root is ``top``."""
    last = element
    for last in element.iterancestors():
        pass
    return last is top


def _script_formula(script: etree._Element) -> tuple[str, bool] | None:
    """``(source, display)`` of a MathJax 2 ``<script type="math/...">``, ``None`` when empty."""
    kind = (script.get("type") or "").strip().lower()
    source = (script.text or "").strip()
    if not source:
        return None
    return source, "mode=display" in kind.replace(" ", "")


def _has_content(math: etree._Element) -> bool:
    """True if the MathML element holds a formula (a snapshot sends ``<math>`` without content)."""
    return len(math) > 0 or bool((math.text or "").strip())


FORMULA_MARKERS = ("katex", "mathjax", "mwe-math-element", "mjx-container", "math/", "<math")
"""Lower-cased strings of which a page's source holds one wherever :func:`normalise_formulas`
finds a formula: a wrapper's class or tag (:data:`_WRAPPERS`), a MathJax script type
(``math/tex``, ``math/mml``), a ``<math>`` element."""


def may_hold_formulas(source: str) -> bool:
    """False when the HTML ``source`` holds none of :data:`FORMULA_MARKERS` (case-insensitive),
    so :func:`normalise_formulas` would find nothing: the parser's cheap test (a few substring
    searches, ~0.1 ms on a 100 kB page) that spares pre-processing the three tree searches
    (~1 ms). The source is lower-cased 64 k characters at a time (each slice overlapping the
    last by a marker's length), so a page of megabytes is not copied whole. Markup written with
    character references (``&#109;ath/tex``) is not seen."""
    overlap = max(map(len, FORMULA_MARKERS)) - 1
    for start in range(0, len(source), _MARKER_SLICE):
        piece = source[max(0, start - overlap):start + _MARKER_SLICE].lower()
        if any(marker in piece for marker in FORMULA_MARKERS):
            return True
    return False


_MARKER_SLICE = 1 << 16
"""Characters of the source lower-cased at once by :func:`may_hold_formulas` (bytes, by
:func:`utf8_may_hold_formulas`)."""

_MARKER_BYTES = tuple(marker.encode("ascii") for marker in FORMULA_MARKERS)

_MATH_MARKERS = tuple((marker, marker.index(b"math")) for marker in _MARKER_BYTES if b"math" in marker)
"""The markers that hold ``math`` (once), each with the position of ``math`` in it."""

_OTHER_MARKERS = tuple(marker for marker in _MARKER_BYTES if b"math" not in marker)

_KELVIN_SIGN = "\u212a"
"""The one character outside ASCII whose lower case (``str.lower``) is a letter of a marker
(``"k"``, of ``katex``); the only other whose lower case holds an ASCII letter, U+0130, lowers
to ``"i"`` and a combining dot, which no marker holds after its ``i``."""


def utf8_may_hold_formulas(source: str, data: bytes) -> bool:
    """:func:`may_hold_formulas` of ``source``, the same answer, searched in ``data``, its UTF-8
    encoding (``source.encode("utf-8", errors="replace")``).

    ``bytes.lower`` lowers the ASCII letters alone, as ``str.lower`` lowers them, and a byte
    below 0x80 in UTF-8 is always an ASCII character, so the markers (ASCII) are found in the
    lowered bytes exactly where they are in the lowered text, but through a character outside
    ASCII that lowers to a marker's letter (:data:`_KELVIN_SIGN`, looked for in ``source``: a
    tenth of the time of a search of the bytes): a page holding one is searched as text. A lone surrogate, replaced by ``?`` in ``data``, is part of no marker
    either way. On a page outside ASCII, the bytes (one byte a character, lowered by a table)
    are searched in half the time of the text: ``pagesieve-dev`` datasets, 371 such pages of
    504, 0.99 -> 0.54 ms a page; ASCII pages 0.18 ms either way.

    Four of the six markers hold ``math`` (:data:`_MATH_MARKERS`): each slice is searched for
    the other two and for ``math``, and each ``math`` found is read in its place as one of the
    four, three searches of the slice instead of six, each marker still found only where it lies
    whole in a slice (the tests compare it with :func:`may_hold_formulas` on dataset pages and
    on markers at the edges of the slices): 0.67 -> 0.44 ms a page on 480 dataset pages
    (interleaved in one process, 2026-11-26)."""
    overlap = max(map(len, _MARKER_BYTES)) - 1
    for start in range(0, len(data), _MARKER_SLICE):
        piece = data[max(0, start - overlap):start + _MARKER_SLICE].lower()
        if any(marker in piece for marker in _OTHER_MARKERS):
            return True
        at = piece.find(b"math")
        while at >= 0:
            if any(at >= lead and piece.startswith(marker, at - lead) for marker, lead in _MATH_MARKERS):
                return True
            at = piece.find(b"math", at + 4)
    return _KELVIN_SIGN in source and may_hold_formulas(source)


def normalise_formulas(root: etree._Element) -> int:
    """Keep aside, for the article, one clean MathML ``<math>`` (:func:`formula`) for every
    formula under ``root`` (KaTeX, MathJax, MediaWiki, plain MathML), and change the tree as
    pre-processing changed it before (see the module docstring): a wrapper keeps its visual copy
    and stands for the formula (:func:`pagesieve.page.stash.mark`), its MathML is deleted; a
    plain ``<math>`` and a MathJax source without output are deleted, the formula stashed at
    their place (:func:`pagesieve.page.stash.stash`). :func:`restore_formulas` makes them
    MathML in the article. Returns how many formulas there are. A wrapper with neither MathML
    nor TeX inside is left as it is (its visual copy is then all there is).
    """
    count = 0
    read: set[etree._Element] = set()
    top = root.getroottree().getroot()
    for wrapper in _WRAPPERS(root):
        if wrapper.getparent() is None or not _attached(wrapper, top) or wrapper.get(MARK_ATTRIBUTE) is not None:
            continue
        math = next((e for e in wrapper.iter() if _local(e.tag) == "math"), None)
        if math is not None and not _has_content(math):
            math = None
        tex = None
        script = wrapper.getnext()
        if script is not None and script.tag == "script" and (script.get("type") or "").lower().startswith("math/"):
            found = _script_formula(script)
            if found and not (script.get("type") or "").lower().startswith(_MML_SCRIPT_TYPE):
                tex = found[0]
            read.add(script)  # not a formula of its own
        if math is None:
            data = wrapper.get("data-mathml")
            if data:
                try:
                    math = etree.fromstring(data)
                except etree.XMLSyntaxError:
                    math = None
        if math is None and tex is None:
            img = next((e for e in wrapper.iter("img") if (e.get("alt") or "").strip()), None)
            if img is None or "mwe-math-element" not in _classes(wrapper):
                continue
            tex = img.get("alt").strip()
        display = _is_display(wrapper)
        if math is not None and math.getparent() is not None:
            remove_keep_tail(math)  # pre-processing deletes MathML
        target = wrapper.getparent() if "katex-display" in _classes(wrapper.getparent()) else wrapper
        mark(target, formula(math, tex, display) if math is not None else _tex_formula(tex, display))
        count += 1
    for script in _FORMULA_SCRIPTS(root):
        # MathJax 2 sources without output (the page read before MathJax ran)
        found = _script_formula(script)
        if script.getparent() is None or found is None or script in read:
            continue
        kind = (script.get("type") or "").lower()
        if kind.startswith(_MML_SCRIPT_TYPE):
            try:
                new = formula(etree.fromstring(found[0]), None, found[1] or None)
            except etree.XMLSyntaxError:
                continue
        elif kind.startswith(_TEX_SCRIPT_TYPES):
            new = _tex_formula(found[0], found[1])
        else:
            continue
        stash(script, new)
        count += 1
    for math in list(root.iter("math", "{%s}math" % MATHML_NS)):
        if math.getparent() is None or any(_local(a.tag) == "math" for a in math.iterancestors()) or not _has_content(math):
            continue
        stash(math, formula(math))
        count += 1
    return count


def restore_formulas(root: etree._Element) -> int:
    """Give, in place, each ``<math>`` under ``root`` its TeX as a MathML annotation
    (:func:`tex_annotations`), once :func:`pagesieve.page.stash.unstash` has put the formulas
    back; returns how many got one."""
    return tex_annotations(root)


def tex_annotations(root: etree._Element) -> int:
    """Put, in place, the TeX of each ``<math>`` under ``root`` (its :data:`TEX_ATTRIBUTE`, which
    is removed) back as MathML: ``<math><semantics>CONTENT<annotation
    encoding="application/x-tex">TeX</annotation></semantics></math>``, the form KaTeX and
    MediaWiki write (MathML Core §5.1: an annotation is not drawn; Markdown reads it). The
    content is wrapped in one ``<mrow>`` when it is more than one element, as ``<semantics>``
    takes one presentation child. Returns how many got one."""
    count = 0
    for math in root.iter("math"):
        tex = math.attrib.pop(TEX_ATTRIBUTE, None)
        if not tex:
            continue
        children = list(math)
        if len(children) == 1 and not (math.text or "").strip():
            content = children[0]
        else:
            content = etree.Element("mrow")
            content.text, math.text = math.text, None
            for child in children:
                content.append(child)
        semantics = etree.SubElement(math, "semantics")
        semantics.append(content)
        annotation = etree.SubElement(semantics, "annotation", encoding="application/x-tex")
        annotation.text = tex
        count += 1
    return count
