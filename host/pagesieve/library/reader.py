"""The reading view of a saved article: one HTML document for the library window's sandboxed
``<iframe srcdoc>``.

It is built from the article's saved HTML file (:mod:`pagesieve.library.html_file`): the
``<article>`` of that file, its content passed through the article sanitiser again
(:func:`pagesieve.article.render.sanitise`: the file is the user's and may have been edited
since), under a header rebuilt from the index entry, with the saved file's reader stylesheet and
Content Security Policy (no script, nothing fetched but images). When the HTML file is missing
or unreadable the text of the Markdown file is shown instead, one paragraph per line.

The window shows it in an ``<iframe sandbox>`` without ``allow-scripts`` or ``allow-same-origin``:
nothing in an article can run or reach the window's JavaScript API. Links open in the system
browser (``<base target="_blank">``).
"""

from __future__ import annotations

import html
from pathlib import Path

from lxml import etree
from lxml import html as lxml_html

from pagesieve.article.render import sanitise
from pagesieve.errors import LibraryError
from pagesieve.library.entry import Entry
from pagesieve.library.html_file import CSP, STYLESHEET
from pagesieve.library.markdown_file import body_text, read_markdown_document

THEME_MARKER = '<style id="pagesieve-theme"></style>'
"""An empty ``<style>`` in the document's ``<head>``, once, before anything of the article: the
window replaces it with the CSS of the theme and text size the reader picked."""


def _inner_html(element: etree._Element) -> str:
    """The HTML inside ``element`` (its text and its children with their tails)."""
    return html.escape(element.text or "") + "".join(
        etree.tostring(child, encoding="unicode", method="html", with_tail=True) for child in element
    )


def _from_html_file(path: Path) -> tuple[str, str] | None:
    """``(meta line HTML, content HTML)`` of a saved HTML file, both sanitised; ``None`` when the
    file cannot be read or has no article in it."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if not text.strip():
        return None
    try:
        root = lxml_html.document_fromstring(text)
    except (etree.ParserError, ValueError):
        return None
    article = root.find(".//article")
    if article is None:
        article = root.find(".//body")
    if article is None:
        return None
    meta = ""
    header = article.find("header")
    if header is not None:
        line = header.find("p")
        if line is not None:
            meta = sanitise(_inner_html(line))
        if header.tail and header.tail.strip():
            article.text = (article.text or "") + header.tail
        article.remove(header)
    return meta, sanitise(_inner_html(article))


def _from_markdown_file(entry: Entry) -> str:
    """The text of the Markdown file as escaped paragraphs.

    Raises:
        LibraryError: the Markdown file cannot be read or is not a saved article.
    """
    try:
        parsed = read_markdown_document(entry.md_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise LibraryError(f"cannot read {entry.md_path}: {getattr(exc, 'strerror', None) or exc}") from None
    if parsed is None:
        raise LibraryError(f"{entry.md_path} is not a saved article any more (no front matter with url and saved)")
    return "".join(f"<p>{html.escape(line)}</p>\n" for line in body_text(parsed[1], entry.title).split("\n") if line)


def _meta_fallback(entry: Entry) -> str:
    """A meta line from the index entry, for a file without one."""
    parts = [html.escape(p) for p in (entry.byline, entry.site) if p]
    parts.append(f"saved {html.escape(entry.saved[:10])}")
    return " · ".join(parts)


def reader_document(entry: Entry) -> str:
    """The reading view of ``entry`` as one HTML document (see the module docstring): UTF-8
    text holding :data:`THEME_MARKER` once, in ``<head>``.

    Raises:
        LibraryError: neither the HTML file nor the Markdown file of the entry can be read.
    """
    found = _from_html_file(entry.html_path) if entry.html_path is not None else None
    if found is not None:
        meta, content = found
        meta = meta or _meta_fallback(entry)
    else:
        meta = _meta_fallback(entry) + " · shown from the Markdown file: the HTML file is missing"
        content = _from_markdown_file(entry)
    title = html.escape(" ".join(entry.title.split()) or "Untitled")
    lang = f' lang="{html.escape(entry.language)}"' if entry.language else ""
    return (
        f"<!DOCTYPE html>\n<html{lang}>\n<head>\n<meta charset=\"utf-8\">\n"
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        f'<base target="_blank">\n<title>{title}</title>\n'
        f"<style>\n{STYLESHEET}</style>\n{THEME_MARKER}\n</head>\n<body>\n<article>\n"
        f'<header>\n<h1>{title}</h1>\n<p class="meta">{meta}</p>\n</header>\n{content}\n</article>\n</body>\n</html>\n'
    )
