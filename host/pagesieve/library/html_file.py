"""The HTML file of a saved article: one self-contained document that opens in any browser
offline, years later.

It holds the metadata in ``<head>`` (``<meta charset>``, ``<title>``, ``author``, ``date``,
``<link rel="canonical">``), a small reader stylesheet (light and dark), a Content Security
Policy that allows no script and no fetch other than images, and the sanitised article. Images
the caller already fetched (the extension fetches them with the page's permissions; the host
never touches the network) are embedded as ``data:`` URIs within :data:`MAX_IMAGE_BYTES` each
and :data:`MAX_INLINE_BYTES` in all, in document order; the others stay links to their absolute
URL.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Mapping
from dataclasses import dataclass

from lxml import etree
from lxml import html as lxml_html

from pagesieve.article.render import sanitise
from pagesieve.tokens import tokens
from pagesieve.library.entry import EntryMeta

MAX_IMAGE_BYTES = 5 * 1024 * 1024
"""Largest image embedded (5 MiB, raw bytes). Article photos are 50 KB to 1 MB and a full-size
12-megapixel JPEG is 3 to 5 MB; what is larger is mostly an animated GIF standing in for a
video, better left as a link than tripling the file."""

MAX_INLINE_BYTES = 24 * 1024 * 1024
"""Most image bytes embedded in one file (24 MiB raw, 32 MiB once base64-encoded). That is half
of the 64 MiB a browser lets an extension send its native host in one message
(:data:`pagesieve.native.framing.MAX_REQUEST_BYTES`), so the page and its images fit one save
request, and the file still opens in a second."""

Images = Mapping[str, tuple[str, bytes]]
"""Fetched images: absolute image URL -> (MIME type such as ``image/jpeg``, the bytes)."""

_IMAGE_MIME = re.compile(r"image/[a-z0-9][a-z0-9.+-]*")

STYLESHEET = """\
:root{color-scheme:light dark}
body{margin:0;background:#fbfaf7;color:#1d1d1b;font:1.125rem/1.65 Charter,"Iowan Old Style",Georgia,"Noto Serif",serif}
article{max-width:40rem;margin:0 auto;padding:2.5rem 1.25rem 4rem;overflow-wrap:break-word}
h1{font-size:2rem;line-height:1.2;margin:0 0 .5rem}
h2,h3,h4{line-height:1.3;margin:2rem 0 .5rem}
.meta{color:#6b6b66;font:.9rem/1.5 system-ui,sans-serif;margin:0 0 2rem}
img{max-width:100%;height:auto}
figure{margin:1.5rem 0}figcaption{color:#6b6b66;font-size:.9rem}
pre{overflow:auto;background:#f0eee8;padding:.75rem;font-size:.9rem}
code,kbd,samp{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em}
blockquote{margin:1.5rem 0;padding-left:1rem;border-left:3px solid #d6d3ca;color:#44443f}
table{border-collapse:collapse;display:block;overflow-x:auto}td,th{border:1px solid #d6d3ca;padding:.3rem .5rem}
kbd{border:1px solid #d6d3ca;border-radius:3px;padding:0 .25em}figure.embed a::before{content:"\\25B6\\FE0E  "}
math[display=block]{margin:1rem 0}details{margin:1rem 0}summary{cursor:pointer}
a{color:#1f5fa8}
@media (prefers-color-scheme:dark){body{background:#1b1b1d;color:#e6e4df}.meta,figcaption{color:#a3a29c}
pre{background:#2a2a2d}blockquote{border-color:#444;color:#c9c7c1}a{color:#8ab4f8}td,th{border-color:#444}}
@media print{body{background:#fff;color:#000}article{max-width:none}}
"""
"""The reader stylesheet embedded in every HTML file."""

CSP = "default-src 'none'; img-src data: http: https:; style-src 'unsafe-inline'"
"""Content Security Policy of the saved file: no script, no frame, nothing fetched but images."""


@dataclass(frozen=True, slots=True)
class InlineReport:
    """How the images of one HTML file were handled.

    Attributes:
        inlined: ``<img>`` elements embedded as ``data:`` URIs. linked: left as links.
        inlined_bytes: raw image bytes embedded (before base64).
    """

    inlined: int
    linked: int
    inlined_bytes: int


def _usable(image: object) -> tuple[str, bytes] | None:
    if not isinstance(image, tuple) or len(image) != 2:
        return None
    mime, data = image
    if not isinstance(mime, str) or not isinstance(data, (bytes, bytearray, memoryview)):
        return None
    mime = mime.split(";")[0].strip().lower()
    if not _IMAGE_MIME.fullmatch(mime) or not len(data):
        return None
    return mime, bytes(data)


def inline_images(
    root: etree._Element,
    images: Images | None,
    max_image_bytes: int = MAX_IMAGE_BYTES,
    max_total_bytes: int = MAX_INLINE_BYTES,
) -> InlineReport:
    """Replace, in place, the ``src`` of each ``<img>`` under ``root`` whose URL is in
    ``images`` by a ``data:`` URI, in document order, while the image is at most
    ``max_image_bytes`` and the running total at most ``max_total_bytes`` (an image that does
    not fit is skipped, later smaller ones may still fit). Entries with a MIME type other than
    ``image/*`` or no bytes are ignored."""
    inlined = linked = total = 0
    for img in root.iter("img"):
        src = (img.get("src") or "").strip()
        if not src or src.startswith("data:"):
            continue
        found = _usable(images.get(src) if images else None)
        if found is None or len(found[1]) > max_image_bytes or total + len(found[1]) > max_total_bytes:
            linked += 1
            continue
        mime, data = found
        img.set("src", f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}")
        inlined += 1
        total += len(data)
    return InlineReport(inlined, linked, total)


def _drop_title_heading(root: etree._Element, title: str) -> None:
    """Remove the article's first element when it is a heading repeating the title (the
    document's own ``<h1>`` shows it)."""
    first = next(iter(root), None)
    if first is not None and first.tag in ("h1", "h2", "h3") and title and tokens(first.text_content()) == tokens(title):
        if first.tail and first.tail.strip():
            prev = first.getprevious()
            parent = first.getparent()
            if prev is not None:
                prev.tail = (prev.tail or "") + first.tail
            else:
                parent.text = (parent.text or "") + first.tail
        first.getparent().remove(first)


def _meta_line(meta: EntryMeta) -> str:
    parts = []
    if meta.byline:
        parts.append(html.escape(meta.byline))
    if meta.site:
        parts.append(html.escape(meta.site))
    if meta.published:
        parts.append(f'<time datetime="{html.escape(meta.published)}">{html.escape(meta.published[:10])}</time>')
    if meta.url and meta.url.lower().startswith(("http://", "https://")):
        parts.append(f'<a href="{html.escape(meta.url)}">original</a>')
    parts.append(f"saved {html.escape(meta.saved[:10])}")
    return " · ".join(parts)


def html_document(
    meta: EntryMeta,
    article_html: str,
    images: Images | None = None,
    *,
    max_image_bytes: int = MAX_IMAGE_BYTES,
    max_total_bytes: int = MAX_INLINE_BYTES,
) -> tuple[str, InlineReport]:
    """The whole HTML file of an article, and what happened to its images.

    Args:
        meta: the entry's metadata (title, author, dates, URL ...).
        article_html: the article as HTML (:attr:`pagesieve.article.model.Article.html`); it is
            sanitised again here, so a caller-built article cannot bring a script in.
        images: fetched images, see :data:`Images`; ``None`` keeps every image a link.
        max_image_bytes, max_total_bytes: the caps (default :data:`MAX_IMAGE_BYTES`,
            :data:`MAX_INLINE_BYTES`).

    Returns:
        ``(document, report)``: the UTF-8 document text and an :class:`InlineReport`.
    """
    body = lxml_html.fragment_fromstring(sanitise(article_html), create_parent="div")  # (the article's <div> is unwrapped)
    _drop_title_heading(body, meta.title)
    report = inline_images(body, images, max_image_bytes, max_total_bytes)
    content = (body.text and html.escape(body.text) or "") + "".join(
        etree.tostring(child, encoding="unicode", method="html") for child in body
    )
    title = html.escape(" ".join(meta.title.split()) or "Untitled")
    head = [
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{title}</title>",
    ]
    if meta.byline:
        head.append(f'<meta name="author" content="{html.escape(meta.byline)}">')
    if meta.published:
        head.append(f'<meta name="date" content="{html.escape(meta.published)}">')
    if meta.site:
        head.append(f'<meta property="og:site_name" content="{html.escape(meta.site)}">')
    head.append(f'<meta name="pagesieve:saved" content="{html.escape(meta.saved)}">')
    if meta.url:
        head.append(f'<link rel="canonical" href="{html.escape(meta.url)}">')
    head.append(f"<style>\n{STYLESHEET}</style>")
    lang = f' lang="{html.escape(meta.language)}"' if meta.language else ""
    doc = (
        f"<!DOCTYPE html>\n<html{lang}>\n<head>\n" + "\n".join(head) + "\n</head>\n<body>\n<article>\n"
        f'<header>\n<h1>{title}</h1>\n<p class="meta">{_meta_line(meta)}</p>\n</header>\n'
        f"{content}\n</article>\n</body>\n</html>\n"
    )
    return doc, report
