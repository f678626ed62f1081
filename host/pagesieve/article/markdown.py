"""Markdown of the article's sanitised HTML: markdownify, with the elements it has no Markdown
for written the way Markdown readers (Obsidian, GitHub, CommonMark renderers) take them.

* Formulas (``<math>``): ``$TeX$`` inline, ``$$TeX$$`` on lines of their own for a display
  formula, from the TeX ``<annotation>`` (:func:`pagesieve.page.formulas.tex_annotations`);
  without one, TeX written from the MathML (:func:`mathml_tex`): its characters, with the
  fractions, scripts and roots that its text alone would lose (``x=ba`` for x = b/a).
* Code blocks: fenced, the fence's info string the ``language-X`` class (CommonMark §4.5).
* ``<kbd>``, ``<abbr title>``, ``<sub>``, ``<sup>``, ``<details>``/``<summary>``: kept as
  inline HTML, which CommonMark passes through (§6.6 "Raw HTML"); a ``<details>``' content stays
  Markdown between blank lines inside it.
* Tables: ``colspan`` repeats no text (markdownify pads the row with empty cells), and a
  ``rowspan`` cell is followed by empty cells in the rows below it (:func:`flatten_row_spans`),
  so every row has its cells in the right columns, as Pandoc writes such tables.
"""

from __future__ import annotations

import html
import re

from lxml import etree
from lxml import html as lxml_html
from markdownify import MarkdownConverter

from pagesieve.article.tables import unwrap_layout_tables
from pagesieve.page.formulas import TEX_ENCODINGS

MAX_SPAN = 1000
"""Largest ``colspan`` / ``rowspan`` honoured (HTML Living Standard §4.9.11 caps ``colspan`` at
1,000 and ``rowspan`` at 65,534; more than 1,000 rows of padding is never a real table)."""


def _span(cell: etree._Element, name: str) -> int:
    value = (cell.get(name) or "").strip()
    return max(1, min(MAX_SPAN, int(value))) if value.isdigit() else 1


def flatten_row_spans(root: etree._Element) -> int:
    """Give, in place, the rows below each ``rowspan`` cell of the tables under ``root`` an
    empty cell (as wide as its ``colspan``) in its column, and drop the ``rowspan``; returns
    how many cells spanned rows. Rows are those of the cell's own table section."""
    count = 0
    for table in root.iter("table"):
        sections = [s for s in table if s.tag in ("thead", "tbody", "tfoot")] or [table]
        for section in sections:
            rows = [tr for tr in section if tr.tag == "tr"]
            pending: dict[int, tuple[int, int]] = {}  # column -> (rows still covered, colspan)
            for tr in rows:
                column = 0
                cells = [c for c in tr if c.tag in ("td", "th")]
                position = 0
                out: list[tuple[int, etree._Element | None, int]] = []
                while position < len(cells) or any(col >= column for col in pending):
                    if column in pending:
                        left, width = pending[column]
                        out.append((column, None, width))
                        if left <= 1:
                            del pending[column]
                        else:
                            pending[column] = (left - 1, width)
                        column += width
                        continue
                    if position >= len(cells):
                        column = min(col for col in pending if col >= column)
                        continue
                    cell = cells[position]
                    position += 1
                    width = _span(cell, "colspan")
                    down = _span(cell, "rowspan")
                    if down > 1:
                        pending[column] = (down - 1, width)
                        del cell.attrib["rowspan"]
                        count += 1
                    out.append((column, cell, width))
                    column += width
                anchor = None
                for _col, cell, width in out:
                    if cell is None:
                        filler = etree.Element("td")
                        if width > 1:
                            filler.set("colspan", str(width))
                        if anchor is None:
                            tr.insert(0, filler)
                        else:
                            anchor.addnext(filler)
                        anchor = filler
                    else:
                        anchor = cell
    return count


TEX_OPERATORS = {
    "\u2212": "-", "\u00b1": "\\pm", "\u2213": "\\mp", "\u00d7": "\\times", "\u00f7": "\\div", "\u22c5": "\\cdot",
    "\u2260": "\\neq", "\u2264": "\\leq", "\u2265": "\\geq", "\u2248": "\\approx", "\u2261": "\\equiv",
    "\u2192": "\\to", "\u21d2": "\\Rightarrow", "\u27fa": "\\iff", "\u21d4": "\\Leftrightarrow", "\u221e": "\\infty",
    "\u2211": "\\sum", "\u220f": "\\prod", "\u222b": "\\int", "\u2202": "\\partial", "\u2207": "\\nabla",
    "\u2208": "\\in", "\u2209": "\\notin", "\u2282": "\\subset", "\u2286": "\\subseteq", "\u222a": "\\cup",
    "\u2229": "\\cap", "\u2200": "\\forall", "\u2203": "\\exists", "\u2026": "\\ldots", "\u22ef": "\\cdots",
    "{": "\\{", "}": "\\}", "\u2061": "", "\u2062": "", "\u2063": "",
}
"""MathML operator characters written as TeX commands by :func:`mathml_tex` (the commands of the
LaTeX symbol list that KaTeX and MathJax both read); invisible function application and times
write nothing."""

_TEX_SPECIAL = re.compile(r"([#$%&_{}])")


def _tex_text(text: str) -> str:
    return _TEX_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def _group(tex: str) -> str:
    return tex if len(tex) == 1 else "{" + tex + "}"


def mathml_tex(el) -> str:
    """TeX for a MathML element (a BeautifulSoup tag) that carries no TeX of its own: token
    elements as their characters (:data:`TEX_OPERATORS` as commands, several letters in an
    ``<mi>`` as ``\\mathrm``, ``<mtext>`` as ``\\text``), scripts, fractions, roots, under- and
    over-scripts and tables by their TeX constructs; other elements by their children."""
    from bs4 import Tag

    name = el.name
    kids = [c for c in el.children if isinstance(c, Tag)]
    if name in ("mi", "mn", "mo", "ms"):
        text = " ".join(el.get_text().split())
        if name == "mo":
            return TEX_OPERATORS.get(text, _tex_text(text))
        if name == "mi" and len(text) > 1:
            return f"\\mathrm{{{_tex_text(text)}}}"
        return TEX_OPERATORS.get(text, _tex_text(text))
    if name == "mtext":
        text = " ".join(el.get_text().split())
        return f"\\text{{{_tex_text(text)}}}" if text else ""
    if name == "mspace":
        return "\\ "
    if name in ("annotation", "annotation-xml"):
        return ""
    parts = [mathml_tex(k) for k in kids]
    if name in ("msup", "msub") and len(parts) == 2:
        return f"{_group(parts[0])}{'^' if name == 'msup' else '_'}{_group(parts[1])}"
    if name in ("msubsup", "munderover") and len(parts) == 3:
        return f"{_group(parts[0])}_{_group(parts[1])}^{_group(parts[2])}"
    if name in ("munder", "mover") and len(parts) == 2:
        return f"\\{'underset' if name == 'munder' else 'overset'}{{{parts[1]}}}{{{parts[0]}}}"
    if name == "mfrac" and len(parts) == 2:
        return f"\\frac{{{parts[0]}}}{{{parts[1]}}}"
    if name == "msqrt":
        return f"\\sqrt{{{''.join(parts)}}}"
    if name == "mroot" and len(parts) == 2:
        return f"\\sqrt[{parts[1]}]{{{parts[0]}}}"
    if name == "mfenced":
        return f"\\left{el.get('open', '(')}{(el.get('separators') or ',')[:1].join(parts)}\\right{el.get('close', ')')}"
    if name == "mtable":
        rows = [" & ".join(mathml_tex(c) for c in row.children if isinstance(c, Tag)) for row in kids]
        return "\\begin{matrix}" + " \\\\ ".join(rows) + "\\end{matrix}"
    return "".join(parts)


def _cell_lines(text: str) -> str:
    """A table cell's Markdown on one line, as a GFM table row needs it: its paragraphs, list
    items and hard breaks joined by ``<br>`` (GitHub Flavored Markdown §4.10 allows inline HTML
    in a cell), where markdownify joined them with spaces ("£89 Sold by the chandlery", "- Easy
    to set - Quiet")."""
    return "<br>".join(line.strip() for line in text.strip().split("\n") if line.strip())


class ArticleConverter(MarkdownConverter):
    """markdownify's converter with the conversions of the module docstring."""

    def convert_math(self, el, text, parent_tags):
        tex = None
        for annotation in el.find_all("annotation"):
            if (annotation.get("encoding") or "").strip().lower() in TEX_ENCODINGS and annotation.get_text().strip():
                tex = " ".join(annotation.get_text().split())
                break
        display = (el.get("display") or "").lower() == "block" and "_inline" not in parent_tags
        if tex is None:
            tex = mathml_tex(el)
        if not tex.strip():
            return ""
        if "_inline" in parent_tags:
            tex = tex.replace("|", "\\|")
        if display:
            return f"\n\n$$\n{tex}\n$$\n\n"
        return f"${tex}$"

    def convert_p(self, el, text, parent_tags):
        if "td" in parent_tags or "th" in parent_tags:  # a paragraph of a cell: a line of it
            return "\n" + text.strip() + "\n"
        return super().convert_p(el, text, parent_tags)

    def convert_td(self, el, text, parent_tags):
        return super().convert_td(el, _cell_lines(text), parent_tags)

    def convert_th(self, el, text, parent_tags):
        return super().convert_th(el, _cell_lines(text), parent_tags)

    def convert_kbd(self, el, text, parent_tags):
        return f"<kbd>{html.escape(el.get_text())}</kbd>" if el.get_text().strip() else ""

    def convert_abbr(self, el, text, parent_tags):
        title = " ".join((el.get("title") or "").split())
        if not title or not text.strip():
            return text
        return f'<abbr title="{html.escape(title)}">{text}</abbr>'

    def convert_summary(self, el, text, parent_tags):
        return f"<summary>{' '.join(text.split())}</summary>\n\n"

    def convert_details(self, el, text, parent_tags):
        opened = " open" if el.has_attr("open") else ""
        return f"\n\n<details{opened}>\n{text.strip()}\n\n</details>\n\n"


def _code_language(pre) -> str | None:
    """The fence's info string: the ``language-X`` class of the ``<pre>``'s ``<code>``."""
    code = pre.find("code")
    for cls in (code.get("class") or []) if code is not None else []:
        if cls.startswith("language-") and len(cls) > len("language-"):
            return cls[len("language-"):]
    return None


def html_to_markdown(html_text: str) -> str:
    """Markdown of sanitised article HTML (ATX headings, ``-`` bullets, see the module
    docstring). Layout tables become paragraphs first
    (:func:`~pagesieve.article.tables.unwrap_layout_tables`); data tables stay tables."""
    if "<table" in html_text:
        fragment = lxml_html.fragment_fromstring(html_text, create_parent="div")
        changed = unwrap_layout_tables(fragment)
        changed += flatten_row_spans(fragment)
        if changed:
            html_text = "".join(etree.tostring(child, encoding="unicode", method="html") for child in fragment)
            if fragment.text:
                html_text = html.escape(fragment.text) + html_text
    md = ArticleConverter(
        heading_style="ATX", bullets="-", strip=["div"], sub_symbol="<sub>", sup_symbol="<sup>",
        code_language_callback=_code_language,
    ).convert(html_text)
    return re.sub(r"\n{3,}", "\n\n", md).strip() + "\n"
