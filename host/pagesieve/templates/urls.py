"""Sites and URL similarity (Yang, Li & Geng 2015, seed 004 §2.2 d).

A *site* is the host name of a page's URL, lower-cased, without a leading ``www.``. Pages of a
site that mix layouts (an article, a gallery, a forum) are told apart by URL similarity: the
reference page for a new page is the stored page of the same site whose URL is most similar
(:func:`best_reference`). A page is known by :func:`url_key`, the hash of its URL without
tracking parameters.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

T = TypeVar("T")


def site_of(url: str | None) -> str | None:
    """The site of ``url``: its host name, lower case, ``www.`` removed; ``None`` when the URL
    has no host (a file, ``about:blank``, no URL at all)."""
    if not url:
        return None
    try:
        host = urlsplit(url.strip()).hostname
    except ValueError:
        return None
    if not host:
        return None
    return host[4:] if host.startswith("www.") else host


def path_segments(path: str) -> list[str]:
    """The non-empty segments of a URL path: ``"/a//b/"`` -> ``["a", "b"]``."""
    return [s for s in path.split("/") if s]


def url_similarity(a: str, b: str) -> float:
    """Seed 004 §2.2 (d): ``cl / max(la, lb)`` in [0, 1].

    ``cl`` is the number of equal leading path segments and ``la``, ``lb`` the numbers of
    segments of each path. When the two paths are equal (``/view.php?id=1`` and ``?id=2``),
    the query decides instead: equal key-value pairs over the larger number of pairs. URLs of
    different schemes or hosts have similarity 0; a URL compared with itself has 1.
    """
    try:
        ua, ub = urlsplit(a), urlsplit(b)
    except ValueError:
        return 0.0
    if ua.scheme != ub.scheme or (ua.hostname or "") != (ub.hostname or ""):
        return 0.0
    sa, sb = path_segments(ua.path), path_segments(ub.path)
    if sa == sb:
        qa, qb = parse_qsl(ua.query), parse_qsl(ub.query)
        if not qa and not qb:
            return 1.0
        common = len(set(qa) & set(qb))
        return common / max(len(qa), len(qb))
    common = 0
    for x, y in zip(sa, sb):
        if x != y:
            break
        common += 1
    return common / max(len(sa), len(sb))


_TRACKING_PARAMS = ("utm_", "fbclid", "gclid", "mc_cid", "mc_eid")


def url_key(url: str) -> bytes:
    """16-byte key of a page URL for "already learned": SHA-256 of the URL without its fragment
    and without tracking parameters (``utm_*``, ``fbclid`` ...), so that the same article reached
    from two links counts once. Only the hash is stored."""
    parts = urlsplit(url.strip())
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not k.lower().startswith(_TRACKING_PARAMS)]
    clean = urlunsplit((parts.scheme.lower(), (parts.netloc or "").lower(), parts.path, urlencode(query), ""))
    return hashlib.sha256(clean.encode("utf-8", "surrogatepass")).digest()[:16]


def best_reference(url: str | None, references: Iterable[tuple[str, T]]) -> tuple[str | None, T | None]:
    """The reference page for extracting the page at ``url``: of ``references`` (``(url,
    fingerprints)``, newest first), the one whose URL is most similar to ``url``
    (:func:`~pagesieve.templates.urls.url_similarity`, seed 004 §2.2 d), never ``url`` itself;
    ties go to the newest. ``(None, None)`` when there is none."""
    best_url, best_value, best_score = None, None, -1.0
    for ref_url, value in references:
        if url is not None and ref_url == url:
            continue
        score = url_similarity(url, ref_url) if url else 0.0
        if score > best_score:
            best_url, best_value, best_score = ref_url, value, score
    return best_url, best_value
