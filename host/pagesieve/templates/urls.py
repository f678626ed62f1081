"""Sites and URL similarity (Yang, Li & Geng 2015, seed 004 §2.2 d).

A *site* is the host name of a page's URL, lower-cased, without a leading ``www.``. Pages of a
site that mix layouts (an article, a gallery, a forum) are told apart by URL similarity: the
reference page for a new page is the stored page of the same site whose URL is most similar.
"""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit


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
