"""EPUB export of a saved article: an e-book of one chapter for e-readers (Kobo, Kindle through
its EPUB import, Apple Books, KOReader).

Built with EbookLib from the article's HTML file, so the book holds what that file holds: the
sanitised article and the pictures that were put inside it. Those pictures are unpacked from
their ``data:`` URIs into files of the book. An e-reader fetches nothing (EPUB 3.3, "Resource
locations": remote resources are allowed for audio, video and fonts only), so a picture that
stayed a link to the web becomes a link with its alternative text. So does an embedded picture
of a type outside :data:`CORE_IMAGE_TYPES`. The book's metadata is the entry's (EPUB 3.3,
"Metadata section": ``dc:identifier``, ``dc:title``, ``dc:language``, ``dc:creator``,
``dc:date``, ``dc:source``, ``dc:publisher``, ``dc:subject``). Its identifier
is a UUID derived from the article's URL, or from its title and save time, so exporting the
same article again gives the same book to a reader's library.
"""

from __future__ import annotations

import base64
import binascii
import html
import io
import re
import uuid

from lxml import etree
from lxml import html as lxml_html

from pagesieve.errors import LibraryError
from pagesieve.library.entry import Entry
from pagesieve.library.formats import export_source
from pagesieve.page.preprocess import remove_keep_tail

CORE_IMAGE_TYPES = {"image/gif": "gif", "image/jpeg": "jpg", "image/png": "png", "image/svg+xml": "svg"}
"""Image MIME types every EPUB reading system shows (the core media types of EPUB 3.2 and 3.3)
-> file suffix. WebP, a core type since EPUB 3.3 only, is left out with the others: EPUB 3.2
readers need a fallback for it, and epubcheck 4.2 refuses it without one."""

EPUB_STYLESHEET = """\
body{margin:0 5%;line-height:1.5}
h1{font-size:1.6em;line-height:1.2;margin:1em 0 .3em}
p.meta{font-size:.85em;margin:0 0 1.5em;color:#555}
img{max-width:100%;height:auto}
figure{margin:1em 0}figcaption{font-size:.85em}
pre{white-space:pre-wrap;font-size:.85em}
blockquote{margin:1em 0 1em 1em;padding-left:.8em;border-left:2px solid #999}
table{border-collapse:collapse}td,th{border:1px solid #999;padding:.2em .4em}
"""
"""A small stylesheet: the reading system's own fonts, sizes and colours stay in charge."""

_DATA_URI = re.compile(r"data:([^;,]*)((?:;[^;,]*)*),(.*)", re.DOTALL)

_NAMESPACE = uuid.UUID("6f0b4c1e-53a8-4d0e-9a39-7b1f2d6c9e11")
"""Namespace of the books' UUIDs (RFC 9562 §5.5, name-based with SHA-1)."""


MATHML_NS = "http://www.w3.org/1998/Math/MathML"
XHTML_NS = "http://www.w3.org/1999/xhtml"


def _in_mathml(element: etree._Element, parent: etree._Element | None) -> etree._Element:
    """A copy of ``element`` and its subtree in the MathML namespace (as the default namespace,
    declared once on the copy's root), appended to ``parent`` when given."""
    local = etree.QName(element).localname
    copy = etree.Element(f"{{{MATHML_NS}}}{local}", nsmap={None: MATHML_NS}) if parent is None else etree.SubElement(parent, f"{{{MATHML_NS}}}{local}")
    for name, value in element.attrib.items():
        if not name.startswith("{"):
            copy.set(name, value)
    copy.text = element.text
    copy.tail = element.tail
    for child in element:
        if isinstance(child.tag, str):
            _in_mathml(child, copy)
    return copy


def mathml_namespaced(xhtml: bytes) -> bytes:
    """The XHTML document ``xhtml`` with its ``<math>`` elements (parsed as HTML, so in the XHTML
    namespace) moved to the MathML namespace, where EPUB 3.3 ("MathML", content documents)
    requires them; unchanged when it has none."""
    if b"<math" not in xhtml:
        return xhtml
    root = etree.fromstring(xhtml)
    for math in list(root.iter(f"{{{XHTML_NS}}}math", "math")):
        if math.getparent() is None or any(etree.QName(a).localname == "math" for a in math.iterancestors()):
            continue
        copy = _in_mathml(math, None)
        math.addprevious(copy)
        math.getparent().remove(math)
    return etree.tostring(root.getroottree(), pretty_print=True, encoding="utf-8", xml_declaration=True, doctype="<!DOCTYPE html>")


def _decode_data_uri(src: str) -> tuple[str, bytes] | None:
    """``(MIME type, bytes)`` of a ``data:`` URI (RFC 2397), or ``None`` when it is broken."""
    match = _DATA_URI.fullmatch(src.strip())
    if match is None:
        return None
    mime = match.group(1).strip().lower() or "text/plain"
    payload = match.group(3)
    try:
        if ";base64" in match.group(2).lower():
            data = base64.b64decode(re.sub(r"\s+", "", payload), validate=True)
        else:
            from urllib.parse import unquote_to_bytes

            data = unquote_to_bytes(payload)
    except (binascii.Error, ValueError):
        return None
    return mime, data


def _as_link(img: etree._Element, href: str | None) -> None:
    """Put a link (or, without a usable address, the bare alternative text) where ``img`` was."""
    alt = " ".join((img.get("alt") or "").split())
    label = f"[picture: {alt}]" if alt else "[picture]"
    if href and href.lower().startswith(("http://", "https://")):
        replacement = etree.Element("a", href=href)
        replacement.text = label
    elif alt:
        replacement = etree.Element("span")
        replacement.text = label
    else:
        replacement = None
    if replacement is not None:
        replacement.tail = img.tail
        img.tail = None
        img.addprevious(replacement)
    remove_keep_tail(img)


def book_identifier(entry: Entry) -> str:
    """``urn:uuid:...`` of the book of ``entry``: the same for every export of the same article
    (from its URL, else from its title and save time)."""
    name = entry.url or f"{entry.title}\n{entry.saved}"
    return f"urn:uuid:{uuid.uuid5(_NAMESPACE, name)}"


def epub_bytes(entry: Entry) -> bytes:
    """The EPUB 3 book of one saved article (a ZIP archive, EPUB 3.3 "Open Container Format").

    Raises:
        LibraryError: the entry has no HTML file, or it cannot be read or holds no article.
    """
    from ebooklib import epub

    source = export_source(entry, "epub")  # the HTML file (a clear error when it is gone)
    try:
        document = lxml_html.fromstring(source.read_bytes())
    except OSError as exc:
        raise LibraryError(f"cannot read {source}: {exc.strerror or exc}") from None
    except etree.ParserError:
        document = None
    article = document.find(".//article") if document is not None else None
    if article is None:
        raise LibraryError(f"{source} holds no article (was it edited?)")
    header = article.find("header")
    if header is not None:  # the book's own header below is built from the entry
        article.remove(header)

    book = epub.EpubBook()
    title = " ".join(entry.title.split()) or "Untitled"
    language = entry.language or "und"
    book.set_identifier(book_identifier(entry))
    book.set_title(title)
    book.set_language(language)
    if entry.byline:
        book.add_author(entry.byline)
    if entry.published:
        book.add_metadata("DC", "date", entry.published)
    if entry.url:
        book.add_metadata("DC", "source", entry.url)
    if entry.site:
        book.add_metadata("DC", "publisher", entry.site)
    for tag in entry.tags:
        book.add_metadata("DC", "subject", tag)

    pictures = 0
    for img in list(article.iter("img")):
        for name in ("srcset", "sizes", "loading", "decoding"):
            img.attrib.pop(name, None)
        src = (img.get("src") or "").strip()
        found = _decode_data_uri(src) if src.startswith("data:") else None
        suffix = CORE_IMAGE_TYPES.get(found[0]) if found else None
        if found is None or suffix is None or not found[1]:
            _as_link(img, None if src.startswith("data:") else src)
            continue
        pictures += 1
        file_name = f"images/picture-{pictures:03d}.{suffix}"
        book.add_item(epub.EpubImage(uid=f"picture-{pictures:03d}", file_name=file_name, media_type=found[0], content=found[1]))
        img.set("src", file_name)
        if img.get("alt") is None:
            img.set("alt", "")
    for anchor in article.iter("a"):  # a link whose address was dropped: attributes only a link may have
        if anchor.get("href") is None:
            for name in ("rel", "target", "hreflang", "type", "download", "ping", "referrerpolicy"):
                anchor.attrib.pop(name, None)
    for source in list(article.iter("source")):  # <picture> candidates: the <img> is the picture
        source.getparent().remove(source)

    style = epub.EpubItem(uid="style", file_name="style/article.css", media_type="text/css", content=EPUB_STYLESHEET.encode())
    book.add_item(style)
    meta = [html.escape(part) for part in (entry.byline, entry.site, (entry.published or "")[:10]) if part]
    body = (article.text and html.escape(article.text) or "") + "".join(
        etree.tostring(child, encoding="unicode", method="html") for child in article
    )
    class Chapter(epub.EpubHtml):
        """The article's chapter: EbookLib's XHTML, formulas in the MathML namespace."""

        def get_content(self, default=None):
            return mathml_namespaced(super().get_content(default))

    chapter = Chapter(title=title, file_name="article.xhtml", lang=language)
    if next(article.iter("math"), None) is not None:
        chapter.properties.append("mathml")  # EPUB 3.3 "Manifest item properties"
    chapter.content = (
        f"<html><body><h1>{html.escape(title)}</h1>"
        + (f'<p class="meta">{" · ".join(meta)}</p>' if meta else "")
        + body + "</body></html>"
    )
    chapter.add_item(style)
    book.add_item(chapter)
    book.toc = [epub.Link("article.xhtml", title, "article")]
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = [chapter]
    out = io.BytesIO()
    epub.write_epub(out, book)
    return out.getvalue()
