"""Pictures and players in the article's HTML: the image candidate a reader should get, and the
figures that stand for embedded players and for ``<video>`` / ``<audio>`` elements.

Image candidates are read as the HTML Living Standard defines them (§4.8.4.3, "srcset"
attributes: comma-separated URLs each with an optional width ``Nw`` or density ``Nx``
descriptor; ``<picture>``'s ``<source>`` elements are tried before its ``<img>``). A reader view
is at most about 40 em wide (the reader stylesheet: 40 rem, 640 CSS px) and screens go up to
3 device pixels per CSS pixel, so the largest candidate up to :data:`MAX_IMAGE_WIDTH` pixels wide
is taken: sharp on every screen, without the 5,000-pixel originals some sites list.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

from lxml import etree

from pagesieve.page.elements import class_and_id
from pagesieve.page.embeds import embed_of, frame_address, frame_title
from pagesieve.page.preprocess import remove_keep_tail

MAX_IMAGE_WIDTH = 2048
"""Widest image candidate taken (pixels): 640 CSS px of reader column at a device pixel ratio of
3 is 1,920; 2,048 is the next common rendition size."""

MAX_DENSITY = 3.0
"""Highest pixel density descriptor taken (``3x``), as :data:`MAX_IMAGE_WIDTH`."""

SKIPPED_TYPES = frozenset({"image/avif", "image/jxl", "image/heic", "image/heif"})
"""``<source type>`` not taken: formats that e-readers and older browsers do not show (the
``<img>``'s own candidates, or a WebP, stand in for them)."""

_CANDIDATE = re.compile(r"\s*([^\s,][^\s]*?)(?:\s+(\d+(?:\.\d+)?)([wxh]))?\s*(?:,|$)")


def parse_srcset(srcset: str) -> list[tuple[str, float, str]]:
    """``(url, value, unit)`` per candidate of a ``srcset`` (unit ``"w"``, ``"x"``, or ``"x"``
    with value 1 for a candidate without descriptor). ``data:`` candidates are left out.
    A URL with a comma inside it (rare, allowed only without descriptors) is cut there."""
    out = []
    for match in _CANDIDATE.finditer(srcset or ""):
        url = match.group(1).rstrip(",")
        if not url or url.startswith("data:"):
            continue
        value = float(match.group(2)) if match.group(2) else 1.0
        unit = match.group(3) or "x"
        if unit == "h":
            continue
        out.append((url, value, unit))
    return out


def pick_candidate(candidates: list[tuple[str, float, str]]) -> str | None:
    """The largest reasonable candidate (width ones first, see the module docstring)."""
    widths = [c for c in candidates if c[2] == "w"]
    pool, cap = (widths, MAX_IMAGE_WIDTH) if widths else (candidates, MAX_DENSITY)
    if not pool:
        return None
    fitting = [c for c in pool if c[1] <= cap]
    if fitting:
        return max(fitting, key=lambda c: c[1])[0]
    return min(pool, key=lambda c: c[1])[0]


def best_candidate(img: etree._Element) -> str | None:
    """The image address an ``<img>`` should show in the article: the largest reasonable
    candidate of its ``srcset`` / ``data-srcset`` and, inside a ``<picture>``, of the ``srcset``
    of its ``<source>`` elements meant for wide screens (no ``media``, or a ``min-width`` one)
    and of a type every reader shows (not :data:`SKIPPED_TYPES`). ``None`` when there is no
    candidate (the ``src`` is then all there is)."""
    candidates = parse_srcset(img.get("data-srcset") or img.get("srcset") or "")
    parent = img.getparent()
    if parent is not None and parent.tag == "picture":
        for source in parent.iter("source"):
            kind = (source.get("type") or "").strip().lower()
            media = (source.get("media") or "").lower()
            if kind in SKIPPED_TYPES or ("max-width" in media and "min-width" not in media):
                continue
            candidates += parse_srcset(source.get("data-srcset") or source.get("srcset") or "")
    return pick_candidate(candidates)


def _figure(href: str, label: str) -> etree._Element:
    figure = etree.Element("figure")
    figure.set("class", "embed")
    link = etree.SubElement(figure, "a", href=href)
    link.text = label
    return figure


def _put(figure: etree._Element, old: etree._Element) -> None:
    """Put ``figure`` in place of ``old``: of its parent paragraph when ``old`` is all that the
    paragraph holds (a ``<figure>`` may not sit in a ``<p>``), else just after that paragraph."""
    parent = old.getparent()
    figure.tail = None
    lone = (
        parent is not None and parent.tag == "p" and len(parent) == 1
        and not (parent.text or "").strip() and not (old.tail or "").strip()
    )
    if lone:
        figure.tail = parent.tail
        parent.addprevious(figure)
        parent.getparent().remove(parent)
        return
    if parent is not None and parent.tag == "p" and parent.getparent() is not None:
        parent.addnext(figure)
    else:
        old.addprevious(figure)
    remove_keep_tail(old)


def decorative_video(media: etree._Element) -> bool:
    """True if ``media`` is a ``<video>`` that plays by itself, muted, with no controls: the
    stand-in for an animated GIF ("Replace animated GIFs with video", web.dev), a moving
    background or product loop, not a film the reader is meant to watch (wcxb_dev 0085, 0117,
    0413). Browsers autoplay only muted videos (HTML Living Standard §4.8.11.7; Chrome and
    Firefox autoplay policies), so ``autoplay`` with ``muted`` and without ``controls`` is that
    pattern."""
    return (
        media.tag == "video" and media.get("autoplay") is not None and media.get("muted") is not None
        and media.get("controls") is None
    )


def _media_address(media: etree._Element) -> str | None:
    src = (media.get("src") or "").strip()
    if src and not src.startswith(("data:", "blob:")):
        return src
    for source in media.iter("source"):
        src = (source.get("src") or "").strip()
        if src and not src.startswith(("data:", "blob:")):
            return src
    return None


def embed_figures(body: etree._Element, url: str | None) -> int:
    """Replace, in place, each player frame of a known host (:func:`pagesieve.page.embeds.embed_of`)
    and each ``<video>`` / ``<audio>`` with a source by ``<figure class="embed"><a href=...>``:
    the link goes to the video or track (addresses resolved against ``url``), its text is the
    frame's title and the host ("Title (YouTube)"), or for a media element its title or file
    name ("Video: clip.mp4"). Nothing is loaded: the reader shows a link. Other frames are
    removed, and so are decorative videos (:func:`decorative_video`) when the sanitiser unwraps
    them. Returns how many figures were made."""
    made = 0
    for frame in list(body.iter("iframe")):
        embed = embed_of(frame_address(frame, url))
        if embed is None:
            remove_keep_tail(frame)
            continue
        title = frame_title(frame)
        label = f"{title} ({embed.provider})" if title else f"{embed.provider} {embed.kind}"
        _put(_figure(embed.url, label), frame)
        made += 1
    for media in list(body.iter("video", "audio")):
        address = _media_address(media)
        if not address or decorative_video(media):
            continue
        href = urljoin(url, address) if url else address
        title = frame_title(media)
        name = title or (urlsplit(href).path.rsplit("/", 1)[-1] or href)
        _put(_figure(href, f"{media.tag.capitalize()}: {name}"), media)
        made += 1
    return made


CREDIT_CLASS = re.compile(r"(?:^|[\s_-])(?:credit|copyright|photographer|attribution|courtesy|source)", re.IGNORECASE)
"""Class or id words of the part of a figure caption that names who made the picture
("``<span class="credit">Reuters</span>``" of WordPress news themes, "``caption__source``",
``image-credit``, ``photo-copyright``): a word that begins
one of these, at the start of the attribute or after a space, ``_`` or ``-``. Inside a
``<figcaption>`` only, where a "source" is the picture's."""


def caption_credits(body: etree._Element) -> int:
    """Set each figure caption's credit apart, in place; returns how many.

    A site's stylesheet puts a photo credit on a line of its own, but in the markup it often
    follows the caption with nothing between (``<span>... in Raqqa.</span><span
    class="credit">Reuters</span>``), and the sanitised article, which keeps no class nor
    stylesheet, read "in Raqqa.Reuters". An element inside a ``<figcaption>``
    whose class or id names a credit (:data:`CREDIT_CLASS`) becomes ``<small>``, the HTML
    Living Standard's element for "attribution" (§4.5.4), after a space. Serves the class of
    pages whose figure captions carry their credit in an element of its own (news and magazine
    sites: WordPress's credit spans, ``caption__source`` elements). Only the article's HTML (and the Markdown made
    from it) changes; its text leaves captions out anyway
    (:func:`pagesieve.article.text.blocks_text`), so it cannot move the dev gate's text F1:
    what it serves is the reader's HTML."""
    done = 0
    for caption in body.iter("figcaption"):
        for element in list(caption.iterdescendants()):
            if not isinstance(element.tag, str):
                continue
            names = class_and_id(element)
            if not names or not CREDIT_CLASS.search(names):
                continue
            element.tag = "small"
            previous = element.getprevious()
            if previous is not None:
                if previous.tail and not previous.tail[-1:].isspace():
                    previous.tail += " "
                elif not previous.tail:
                    previous.tail = " "
            else:
                parent = element.getparent()
                if parent.text and not parent.text[-1:].isspace():
                    parent.text += " "
            done += 1
    return done
