"""The picture each ``<img>`` of the article shows, and the images that show none.

Pages load many pictures late: the ``<img>`` holds a placeholder in ``src`` (an empty SVG the
size of the picture, a transparent pixel) and a script swaps in the address it keeps in another
attribute once the image nears the window. The article has no script, so the address is read
here (:func:`image_source`), as Mozilla Readability's ``_fixLazyImages`` reads it: known
lazy-loading attributes first, then any attribute whose value is an image address. An image
with no address at all, or whose only picture is a placeholder that draws nothing
(:func:`shows_nothing`), is left out of the article (:func:`resolve_images`): the reader showed a
blank box the size of the picture (wcxb_dev's travel blogs, 1,024 x 768 pixels each).
"""

from __future__ import annotations

import base64
import re
from urllib.parse import unquote, urljoin

from lxml import etree

from pagesieve.article.media import best_candidate, parse_srcset, pick_candidate
from pagesieve.page.lazy import IMAGE_SRCSET, NOT_ADDRESSES, PLACEHOLDER_SRC, is_image_address
from pagesieve.page.preprocess import remove_keep_tail

LAZY_SRC_ATTRIBUTES = ("data-src", "data-original", "data-lazy-src", "data-url", "data-hi-res-src", "data-full-src")
"""Attributes where lazy-loading scripts keep the real image URL (read before ``src``)."""

BLANK_PIXELS = 2
"""Width and height (pixels) up to which a GIF or PNG data URI is a spacer, not a picture: the
transparent 1 x 1 GIF of lazy loaders and reaction sprites, and the 2 x 2 some CMSs write."""


def lazy_source(img: etree._Element) -> str | None:
    """The image address a lazy-loading script keeps in an attribute other than the known ones
    (``nitro-lazy-src``, ``data-lzl-src``, ``data-lazy-srcset`` ...), in attribute order: the
    largest reasonable candidate of a ``srcset``-like value, else a value that is one image
    address (:func:`~pagesieve.page.lazy.is_image_address`); ``None`` when no attribute holds one."""
    for name, value in img.attrib.items():
        if name in NOT_ADDRESSES or not is_image_address(value):
            continue
        if not IMAGE_SRCSET.search(value):
            return value.strip()  # one address (IMAGE_URL)
        best = pick_candidate(parse_srcset(value))
        if best:
            return best
    return None


def image_source(img: etree._Element) -> str | None:
    """The address of the picture ``img`` shows: the largest reasonable candidate of its
    ``srcset`` and of its ``<picture>``'s sources (:func:`pagesieve.article.media.best_candidate`),
    else its ``src`` unless that is a placeholder (:data:`PLACEHOLDER_SRC`), else a lazy-loading
    attribute (:data:`LAZY_SRC_ATTRIBUTES`, then :func:`lazy_source`), else the placeholder
    ``src``; ``None`` when it has none."""
    best = best_candidate(img)
    if best:
        return best
    src = img.get("src")
    if not src or PLACEHOLDER_SRC.search(src):
        for attr in LAZY_SRC_ATTRIBUTES:
            value = img.get(attr)
            if value and not value.startswith("data:"):
                return value.strip()
        lazy = lazy_source(img)
        if lazy:
            return lazy
    return src.strip() if src and src.strip() else None


def shows_nothing(src: str) -> bool:
    """Whether ``src`` is a ``data:`` URI (RFC 2397) of a picture that draws nothing: an SVG whose
    root holds no element and no text (``<svg viewBox='0 0 1024 768'></svg>``, the size-keeping
    placeholder of WordPress lazy loaders), or a GIF or PNG of at most :data:`BLANK_PIXELS`
    pixels each way (read from the GIF logical screen descriptor, GIF89a §18, and the PNG IHDR
    chunk, PNG §11.2.2). A data URI that cannot be decoded or parsed, and every other address, is
    taken to show something."""
    if not src.startswith("data:"):
        return False
    header, _, payload = src[5:].partition(",")
    kind = header.split(";")[0].strip().lower()
    if kind not in ("image/svg+xml", "image/gif", "image/png"):
        return False
    try:
        if ";base64" in header.lower():
            payload = re.sub(r"\s+", "", payload)
            data = base64.b64decode(payload + "=" * (-len(payload) % 4))
        else:
            data = unquote(payload).encode("utf-8")
    except ValueError:
        return False
    if kind == "image/svg+xml":
        try:
            root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
        except etree.XMLSyntaxError:
            return False
        return not any(isinstance(child.tag, str) for child in root) and not (root.text or "").strip()
    if kind == "image/gif" and data[:3] == b"GIF" and len(data) >= 10:
        width, height = int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")
    elif kind == "image/png" and data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    else:
        return False
    return width <= BLANK_PIXELS and height <= BLANK_PIXELS


def resolve_images(body: etree._Element, base: str | None) -> int:
    """Give each ``<img>`` under ``body`` the address of its picture (:func:`image_source`,
    resolved against ``base`` when given), in place, and remove, tails kept, the ones with no
    address or whose picture draws nothing (:func:`shows_nothing`); returns how many went."""
    gone = 0
    for img in list(body.iter("img")):
        src = image_source(img)
        if src is None or shows_nothing(src):
            remove_keep_tail(img)
            gone += 1
            continue
        img.set("src", urljoin(base, src) if base else src)
    return gone
