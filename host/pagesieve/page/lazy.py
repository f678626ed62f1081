"""Pictures a lazy loader has not swapped in yet: the ``<img>`` shows a placeholder and the
loader's script keeps the real address in an attribute of its own.

The patterns that tell a placeholder and an image address are shared by the snapshot's sender
(``extension/content/snapshot.js`` writes the same ones, and :mod:`pagesieve.page.to_snapshot`
mirrors it), which sends that attribute beside the kept ones (docs/snapshot.md, "Lazy
pictures"), and by the article, which reads it (:func:`pagesieve.article.images.image_source`).
They follow Mozilla Readability's ``_fixLazyImages``.
"""

from __future__ import annotations

import re
from typing import Any

PLACEHOLDER_SRC = re.compile(r"^data:|blank|spacer|placeholder|pixel|1x1|transparent|grey\.gif|loading", re.IGNORECASE)
"""A ``src`` that is likely a stand-in for the picture: a lazy-loading attribute, when there is
one, is read instead."""

IMAGE_URL = re.compile(r"^\s*\S+\.(?:jpe?g|png|webp|gif|avif)(?:[?#]\S*)?\s*$", re.IGNORECASE)
"""An attribute value that is one image address (Readability.js ``_fixLazyImages``:
``/^\\s*\\S+\\.(jpg|jpeg|png|webp)\\S*\\s*$/``, with GIF and AVIF, which browsers show too)."""

IMAGE_SRCSET = re.compile(r"\.(?:jpe?g|png|webp|gif|avif)(?:[?#]\S*)?\s+\d+(?:\.\d+)?[wx]", re.IGNORECASE)
"""An attribute value that is a ``srcset`` of image addresses (Readability.js:
``/\\.(jpg|jpeg|png|webp)\\s+\\d/``)."""

NOT_ADDRESSES = frozenset({"src", "srcset", "alt", "title", "class", "id", "style", "width", "height", "sizes"})
"""Attributes that are never a loader's: the image's own, its description, its layout."""

KNOWN_LAZY_ATTRIBUTES = ("data-src", "data-srcset", "data-original", "data-lazy-src")
"""The loaders' attributes the snapshot always keeps (:data:`pagesieve.page.snapshot.KEPT_ATTRIBUTES`)."""

LAZY_NAME = re.compile(r"(?!xml|data-ps-)[a-z][a-z0-9._-]*")
"""An attribute name the sender may copy (full match): one XML takes as it is (no namespace
prefix, such as Vue's ``:src``), not the snapshot's own ``data-ps-*`` nor ``xml*``."""


def is_image_address(value: str) -> bool:
    """Whether an attribute value is an image address or a ``srcset`` of them (not a ``data:``
    URI): :data:`IMAGE_URL`, :data:`IMAGE_SRCSET`."""
    return bool(value) and not value.startswith("data:") and (
        IMAGE_SRCSET.search(value) is not None or IMAGE_URL.match(value) is not None)


def unsent_lazy_attribute(img: Any, kept: frozenset[str], shown: str | None) -> tuple[str, str] | None:
    """The attribute the snapshot's sender adds for ``img`` (an lxml or stand-in element with
    ``get`` and ``attrib``): when the picture it shows (``shown``: the browser's ``currentSrc``,
    or the ``src``) is missing or a placeholder (:data:`PLACEHOLDER_SRC`) and no known loader
    attribute is set (:data:`KNOWN_LAZY_ATTRIBUTES`), the first other attribute, outside
    ``kept`` and :data:`NOT_ADDRESSES`, with a plain name (:data:`LAZY_NAME`) whose value is an
    image address (:func:`is_image_address`), as ``(name, value)``; else ``None``."""
    if shown and not PLACEHOLDER_SRC.search(shown):
        return None
    if any(img.get(name) for name in KNOWN_LAZY_ATTRIBUTES):
        return None
    for name, value in img.attrib.items():
        if name in kept or name in NOT_ADDRESSES or not LAZY_NAME.fullmatch(name):
            continue
        if is_image_address(value):
            return name, value
    return None
