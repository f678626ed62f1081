"""Code blocks of an article: their language, and their text without the page's controls.

The language is read where highlighters and site generators write it (first found wins):

* ``class="language-X"`` / ``lang-X`` on ``<code>`` or ``<pre>`` (the HTML Living Standard's
  suggestion for ``<code>``, §4.5.15; Prism, highlight.js, CommonMark renderers, Hugo, Jekyll);
* ``data-lang`` / ``data-language`` / ``lang`` on either (Hugo's Chroma, Jekyll's Rouge, GitLab);
* ``class="brush: X"`` (SyntaxHighlighter);
* the same classes and ``highlight-X`` / ``highlight-source-X`` on the wrappers around the
  ``<pre>`` (up to :data:`WRAPPER_DEPTH` levels: Sphinx ``div.highlight-python > div.highlight >
  pre``, MkDocs ``div.language-python.highlight``, GitHub ``div.highlight-source-python``).

The reader gets it as ``<code class="language-X">`` and Markdown as the fence's info string
(CommonMark §4.5). Line-number gutters (Pygments ``linenos`` tables, Chroma ``lnt``,
highlight.js line numbers, Prism ``line-numbers-rows``, GitHub's ``blob-num``) and copy buttons
are no part of the code and are taken out of the article's HTML (:func:`clean_code_blocks`).
"""

from __future__ import annotations

import re

from lxml import etree

from pagesieve.page.preprocess import remove_keep_tail

WRAPPER_DEPTH = 3
"""Levels of ancestors of a ``<pre>`` searched for the language (Sphinx puts it two levels up,
inside a third ``div`` when the block has a caption)."""

NO_LANGUAGE = frozenset({
    "none", "text", "plain", "plaintext", "txt", "nohighlight", "no-highlight", "default", "source", "output",
})
"""Names that say "not highlighted" rather than a language (Sphinx ``highlight-default`` is
Python 3 or plain text, undecidable)."""

_LANGUAGE_CLASS = re.compile(r"(?:language|lang|highlight(?:-source)?|brush)-?:?\s*([A-Za-z0-9][A-Za-z0-9+#._-]{0,29})$")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9+#._-]{0,29}")

GUTTER_CLASSES = frozenset({
    "linenos", "lineno", "linenodiv", "line-numbers-rows", "line-number", "line-numbers-wrapper", "lnt",
    "ln", "hljs-ln-numbers", "hljs-ln-n", "blob-num", "gutter", "code-line-number",
})
"""Classes of line-number gutters (Pygments, Chroma, Prism, highlight.js-line-numbers, GitHub,
CodeMirror, VitePress)."""

COPY_CLASSES = re.compile(r"(?:^|[-_])(?:copy|clipboard|copybtn)(?:[-_]|$)", re.IGNORECASE)
"""Class tokens of copy-to-clipboard controls (``copybtn`` of sphinx-copybutton, ``copy-button``,
``clipboard-copy``, ``md-clipboard``)."""

COPY_MAX_CHARS = 20
"""Longest text of a copy control ("Copy", "Copy code", "Copied!"): an element with a copy class
and more text is taken for content."""

CODE_TABLES = {
    "highlighttable": "code", "linenotable": "code", "lntable": "lntd", "hljs-ln": "hljs-ln-code",
}
"""Tables that lay out a gutter beside the code -> the class of the cells holding the code (the
last such cell of a row, for Chroma's ``lntd``)."""


def _classes(element: etree._Element) -> list[str]:
    return (element.get("class") or "").split()


def _from_element(element: etree._Element, wrapper: bool) -> str | None:
    for name in ("data-lang", "data-language", "lang") if not wrapper else ("data-lang", "data-language"):
        value = (element.get(name) or "").strip()
        if _NAME.fullmatch(value):
            return value
    classes = element.get("class") or ""
    brush = re.search(r"brush\s*:\s*([A-Za-z0-9+#._-]+)", classes)
    if brush:
        return brush.group(1)
    for token in classes.split():
        match = _LANGUAGE_CLASS.match(token)
        if match and (wrapper or not token.startswith("highlight")):
            return match.group(1)
    return None


def code_language(pre: etree._Element) -> str | None:
    """The language of the code block ``pre`` (see the module docstring), lower case, or
    ``None`` when the page does not say or says "plain text" (:data:`NO_LANGUAGE`)."""
    code = next((c for c in pre if c.tag == "code"), None)
    found = None
    for element in (code, pre):
        if element is not None:
            found = _from_element(element, False)
            if found:
                break
    if not found:
        for depth, ancestor in enumerate(pre.iterancestors()):
            if depth >= WRAPPER_DEPTH:
                break
            found = _from_element(ancestor, True)
            if found:
                break
    if not found:
        return None
    found = found.lower()
    return None if found in NO_LANGUAGE else found


def _gutter(element: etree._Element) -> bool:
    return any(c in GUTTER_CLASSES for c in _classes(element))


def _copy_control(element: etree._Element) -> bool:
    return any(COPY_CLASSES.search(c) for c in _classes(element))


def _unlayout(table: etree._Element, code_class: str) -> None:
    """Replace a gutter table by its code: one ``<pre>`` of the code cells' lines."""
    rows = [tr for tr in table.iter("tr")]
    cells = [[td for td in tr if code_class in _classes(td)] for tr in rows]
    cells = [row[-1] for row in cells if row]
    if not cells:
        return
    if len(cells) == 1:
        inner = next(cells[0].iter("pre"), None)
        if inner is not None:
            inner.tail = table.tail
            table.addprevious(inner)
            table.getparent().remove(table)
            return
    text = "\n".join("".join(cell.itertext()).rstrip("\n") for cell in cells)
    if next(table.iterancestors("pre"), None) is not None:
        # already inside the code block (highlight.js line numbers): the lines are its text
        table.tail = text + (table.tail or "")
        remove_keep_tail(table)
        return
    pre = etree.Element("pre")
    pre.text = text
    pre.tail = table.tail
    table.addprevious(pre)
    table.getparent().remove(table)


_CLASSED = etree.XPath("descendant-or-self::*/@class/..")
"""The elements under a root (itself included) that have a ``class`` attribute, document order:
of those of a walk over every element, the only ones :func:`_gutter` or :func:`_copy_control`
can take (their tests read class tokens), found within libxml2. :func:`_remove_controls` reads
each scope through it (the tests compare it with a walk over every element)."""


def clean_code_blocks(root: etree._Element) -> int:
    """Under ``root``, in place: replace gutter tables by their code (:data:`CODE_TABLES`),
    remove line-number gutters and copy controls in and beside code blocks, and give each
    ``<pre>`` whose language is known a ``<code class="language-X">`` holding its content.
    Returns how many code blocks got a language."""
    for table in list(root.iter("table")):
        for cls, code_class in CODE_TABLES.items():
            if cls in _classes(table) and table.getparent() is not None:
                _unlayout(table, code_class)
                break
    pres = [pre for pre in root.iter("pre") if next(pre.iterancestors("pre"), None) is None]
    _remove_controls(pres)
    languages = 0
    for pre in pres:
        language = code_language(pre)
        if language is None:
            continue
        code = pre[0] if len(pre) == 1 and pre[0].tag == "code" and not (pre.text or "").strip() and not (pre[0].tail or "").strip() else None
        if code is None:
            code = etree.Element("code")
            code.text, pre.text = pre.text, None
            for child in list(pre):
                code.append(child)
            pre.append(code)
        code.set("class", f"language-{language}")
        languages += 1
    return languages


def _remove_controls(pres: list[etree._Element]) -> None:
    """Remove the gutters and copy controls beside and inside the code blocks ``pres``
    (outermost ``<pre>`` elements, document order): every element under a block's parent (its
    *scope*) but the scope itself and the block itself, when it has a gutter class
    (:data:`GUTTER_CLASSES`) or is a copy control (:data:`COPY_CLASSES`, text of at most
    :data:`COPY_MAX_CHARS` characters).

    Each scope is walked once, however many blocks it holds. Walking it once per block made
    cleaning quadratic in the blocks of a scope, on documentation and tutorial pages whose code
    blocks sit side by side in one element: one such page of wcxb_dev (2879, 146 kB) walked
    66,000 elements, and its extraction fell from 342 to 95 ms (best of 3, interleaved,
    2026-11-26). The removals are the same (the articles of the 190 dataset pages with a
    ``<pre>`` are byte-identical), so the dev gate's figures do not move. A block that shares its scope with another block, or lies in
    another block's scope, is itself looked at, as it was when each block's scope was walked in
    turn (``tests/test_code_blocks.py`` compares the two walks on wcxb_dev pages).
    """
    scopes: dict[etree._Element, list[etree._Element]] = {}
    for pre in pres:
        parent = pre.getparent()
        scopes.setdefault(parent if parent is not None else pre, []).append(pre)
    covered: set[etree._Element] = set()  # blocks that some other block's scope walk looks at
    for scope, own in scopes.items():
        if len(own) > 1:
            covered.update(own)
    for scope in scopes:
        for ancestor in scope.iterancestors():
            if ancestor in scopes:
                covered.update(scopes[scope])
                break
    for scope, own in scopes.items():
        spared = {pre for pre in own if pre not in covered}
        spared.add(scope)
        for element in _CLASSED(scope):  # a gutter or a copy control has a class
            if element in spared:
                continue
            if _gutter(element) or (_copy_control(element) and len("".join(element.itertext()).strip()) <= COPY_MAX_CHARS):
                if element.getparent() is not None:
                    remove_keep_tail(element)
