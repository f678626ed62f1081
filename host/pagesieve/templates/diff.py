"""Layout-similarity diff (Yang, Li & Geng 2015, seed 004 §2.2): identical subtrees of two
layout-similar pages of a site are its template, hence noise.

The paper compares the pre-processed DOM of a page with that of a *reference page* (the most
URL-similar page of the site, :func:`pagesieve.templates.urls.url_similarity`) and deletes
every subtree of the page that has an *identical* twin in the reference (same tag, same
attributes, same text and children, recursively). We keep, per reference page, only a
fingerprint of each block subtree (:func:`block_fingerprints`), never its text: a block whose
fingerprint is in the reference's set has an identical twin there. This is the paper's test at
block granularity (the unit the classifier judges) and lets the store keep reference pages
without keeping what the user read.

Fingerprint of a block = BLAKE2b-64 over its tag, its ``class`` and ``id``, its own text (white
space collapsed) and the fingerprints of its child blocks in order; so two blocks share one
exactly when their whole subtrees agree on all of these (up to hash collisions, about one in
2^64 per pair).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from pagesieve.blocks.segment import Block


def block_fingerprints(blocks: Sequence[Block]) -> list[int]:
    """Per block (document order), the unsigned 64-bit fingerprint of its subtree."""
    n = len(blocks)
    out = [0] * n
    for b in reversed(blocks):  # children (larger indices) first
        element = b.element
        head = "\x1f".join((element.tag, element.get("class") or "", element.get("id") or "", b.text))
        digest = hashlib.blake2b(head.encode("utf-8", "surrogatepass"), digest_size=8)
        if b.children:
            digest.update(np.array([out[c] for c in b.children], dtype=np.uint64).tobytes())
        out[b.index] = int.from_bytes(digest.digest(), "little")
    return out


def pack_fingerprints(fingerprints: Sequence[int]) -> bytes:
    """The set of ``fingerprints`` as sorted little-endian uint64 bytes (for storage)."""
    return np.unique(np.array(fingerprints, dtype=np.uint64)).astype("<u8").tobytes()


def unpack_fingerprints(data: bytes) -> np.ndarray:
    """Inverse of :func:`pack_fingerprints`: a sorted ``uint64`` array."""
    return np.frombuffer(data, dtype="<u8").astype(np.uint64)


def identical_blocks(fingerprints: Sequence[int], reference: np.ndarray) -> list[bool]:
    """Per block, True when its subtree has an identical twin in the reference page whose
    sorted fingerprint array is ``reference``."""
    if len(reference) == 0 or not fingerprints:
        return [False] * len(fingerprints)
    mine = np.array(fingerprints, dtype=np.uint64)
    pos = np.searchsorted(reference, mine)
    pos[pos >= len(reference)] = 0
    return (reference[pos] == mine).tolist()
