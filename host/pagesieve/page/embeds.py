"""Embedded video and audio players of known hosts: which ``<iframe>`` is one, and the address of
what it plays.

A player frame in an article ("the video below shows ...") is part of what the author wrote; the
frame itself is never shown by pagesieve (it would load the host's scripts and trackers), so it
becomes a figure with a link to the video or track (:func:`pagesieve.article.render.finish_html`).
Other frames (advertisements, comment widgets, share buttons) are removed as before
(:mod:`pagesieve.page.preprocess`).

The hosts and their embed addresses are the ones each documents for its player: YouTube
("Embed videos and playlists", ``/embed/ID``, also ``youtube-nocookie.com``), Vimeo
(``player.vimeo.com/video/ID``), Dailymotion (``/embed/video/ID`` and
``geo.dailymotion.com/player.html?video=ID``), PeerTube (any instance, ``/videos/embed/ID``),
SoundCloud (``w.soundcloud.com/player/?url=...``) and Spotify (``open.spotify.com/embed/...``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qs, urljoin, urlsplit

LAZY_FRAME_ATTRIBUTES = ("src", "data-src", "data-lazy-src", "data-url")
"""Attributes holding a frame's address, in order (lazy-loading scripts keep it in ``data-*``)."""


@dataclass(frozen=True, slots=True)
class Embed:
    """A player frame of a known host.

    Attributes:
        provider: the host's name as readers know it (``"YouTube"``).
        url: the address of the video or track itself (its page on the host, ``https``).
        kind: ``"video"`` or ``"audio"``.
    """

    provider: str
    url: str
    kind: str


_YOUTUBE_ID = re.compile(r"/embed/([A-Za-z0-9_-]{6,})")
_VIMEO_ID = re.compile(r"/video/(\d+)")
_DAILYMOTION_ID = re.compile(r"/embed/video/([A-Za-z0-9]+)")
_PEERTUBE_ID = re.compile(r"/videos/embed/([A-Za-z0-9-]{6,})")
_SPOTIFY_PATH = re.compile(r"/embed(?:-podcast)?/(track|album|playlist|episode|show|artist)/([A-Za-z0-9]+)")


def frame_address(frame, base: str | None = None) -> str | None:
    """The address a frame loads (``src`` or a lazy-loading attribute, resolved against ``base``),
    ``None`` when it has none."""
    for name in LAZY_FRAME_ATTRIBUTES:
        value = (frame.get(name) or "").strip()
        if value and not value.startswith(("about:", "javascript:", "data:")):
            if value.startswith("//"):
                value = "https:" + value
            return urljoin(base, value) if base else value
    return None


def embed_of(address: str | None) -> Embed | None:
    """The :class:`Embed` that a frame address plays, or ``None`` when it is not a player of a
    known host (see the module docstring)."""
    if not address:
        return None
    try:
        parts = urlsplit(address if "//" in address else "https://" + address.lstrip("/"))
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    if host.startswith("www."):
        host = host[4:]
    path = parts.path
    query = parse_qs(parts.query)
    if host in ("youtube.com", "m.youtube.com", "youtube-nocookie.com"):
        if path.startswith("/embed/videoseries") and query.get("list"):
            return Embed("YouTube", f"https://www.youtube.com/playlist?list={query['list'][0]}", "video")
        match = _YOUTUBE_ID.match(path)
        if match:
            return Embed("YouTube", f"https://www.youtube.com/watch?v={match.group(1)}", "video")
        return None
    if host == "player.vimeo.com":
        match = _VIMEO_ID.match(path)
        return Embed("Vimeo", f"https://vimeo.com/{match.group(1)}", "video") if match else None
    if host in ("dailymotion.com", "geo.dailymotion.com"):
        match = _DAILYMOTION_ID.match(path)
        video = match.group(1) if match else (query.get("video") or [None])[0]
        return Embed("Dailymotion", f"https://www.dailymotion.com/video/{video}", "video") if video else None
    if host == "w.soundcloud.com" and path.startswith("/player"):
        target = (query.get("url") or [None])[0]
        if not target:
            return None
        target_host = (urlsplit(target).hostname or "").lower()
        # api.soundcloud.com addresses are not pages; the player's own address is
        url = target if target_host in ("soundcloud.com", "www.soundcloud.com") else address
        return Embed("SoundCloud", url, "audio")
    if host == "open.spotify.com":
        match = _SPOTIFY_PATH.match(path)
        if match:
            return Embed("Spotify", f"https://open.spotify.com/{match.group(1)}/{match.group(2)}", "audio")
        return None
    match = _PEERTUBE_ID.match(path)
    if match and parts.scheme in ("http", "https", ""):
        return Embed("PeerTube", f"https://{parts.netloc}/videos/watch/{match.group(1)}", "video")
    return None


def frame_title(frame) -> str:
    """The title a frame gives its content (``title``, else ``aria-label``), white space
    collapsed; ``""`` when it gives none."""
    for name in ("title", "aria-label"):
        value = " ".join((frame.get(name) or "").split())
        if value:
            return value
    return ""
