"""Our own multi-page fixtures (issue 53): articles over three pages in two pager markups and
languages, and the traps that are not a next page. Served by :func:`serve` on 127.0.0.1.

Every fixture page is written here; no dataset page is copied.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

WORDS = ("harbour", "tide", "ferry", "keeper", "lantern", "gull", "pier", "storm", "rope", "sail", "anchor", "beacon")


def paragraph(story: str, k: int) -> str:
    """The k-th paragraph (0-based) of ``story``: its own words, so that each paragraph is found once."""
    w = WORDS[k % len(WORDS)]
    return (f"Paragraph {k + 1} of {story}: the {w} keeper counted the boats as the {WORDS[(k + 3) % 12]} turned, "
            f"and wrote in the log that the {WORDS[(k + 5) % 12]} held through the night while the town slept "
            f"under the {WORDS[(k + 7) % 12]}; number {k + 1} of eighteen.")


def _page(title: str, body: str, head: str = "", lang: str = "en") -> str:
    nav = "".join(f'<li><a href="/section/{s}/">{s.title()}</a></li>' for s in ("news", "sport", "weather", "culture"))
    footer = "<footer><p>Coast Times, 12 Harbour Road. All rights reserved.</p><a href='/about/'>About us</a></footer>"
    return (f"<!doctype html><html lang='{lang}'><head><meta charset='utf-8'><title>{title} | Coast Times</title>{head}"
            f"</head><body><header><a href='/'>Coast Times</a><nav><ul>{nav}</ul></nav></header>"
            f"<main>{body}</main>{footer}</body></html>")


def _article(title: str, paras: list[str], after: str = "", before: str = "") -> str:
    return (f"<article><h1>{title}</h1><p class='byline'>By Ana Ruiz</p>{before}"
            + "".join(f"<p>{p}</p>" for p in paras) + f"</article>{after}")


STANDFIRST = "The ferry service from the old harbour ends this winter after ninety years, the council said on Monday."


def query_story(n: int) -> str:
    """Story A, page n of 3: ``/storm-series?page=N`` (page 1 without it), ``<link rel=next>``,
    an English pager with numbers, "Previous" and "Next"; a standfirst repeated on every page."""
    title = "The last ferry of the old harbour"
    paras = [paragraph("the ferry story", (n - 1) * 6 + k) for k in range(6)]
    address = "/storm-series" + ("" if n == 1 else f"?page={n}")
    head = ""
    if n < 3:
        head += f'<link rel="next" href="/storm-series?page={n + 1}">'
    if n > 1:
        head += f'<link rel="prev" href="/storm-series{"" if n == 2 else f"?page={n - 1}"}">'
    numbers = "".join(f'<li><a href="/storm-series{"" if k == 1 else f"?page={k}"}">{k}</a></li>' if k != n else f"<li><span>{k}</span></li>"
                      for k in range(1, 4))
    prev = f'<li><a href="/storm-series{"" if n == 2 else f"?page={n - 1}"}">Previous</a></li>' if n > 1 else ""
    nxt = f'<li><a href="/storm-series?page={n + 1}">Next</a></li>' if n < 3 else ""
    pager = f"<nav class='pagination'><ul>{prev}{numbers}{nxt}</ul></nav>"
    related = ("<aside><h2>More from the coast</h2><ul><li><a href='/news/lighthouse-repairs'>Lighthouse repairs begin</a></li>"
               "<li><a href='/news/fish-market'>Fish market moves</a></li><li><a href='/news/sea-wall'>Sea wall vote</a></li></ul></aside>")
    assert address
    return _page(title, _article(title, paras, after=pager + related, before=f"<p><strong>{STANDFIRST}</strong></p>"), head)


def path_story(n: int) -> str:
    """Story B, page n of 3: ``/features/lantern-keepers/``, ``…/2/``, ``…/3/``; a German pager
    ("Seite", "Weiter", "Zurück") and no ``rel=next``."""
    title = "Die Laternenwärter von Hafenstadt"
    paras = [paragraph("the lantern story", (n - 1) * 6 + k) for k in range(6)]
    base = "/features/lantern-keepers/"
    links = []
    if n > 1:
        links.append(f'<a class="prev" href="{base if n == 2 else f"{base}{n - 1}/"}">« Zurück</a>')
    for k in range(1, 4):
        links.append(f'<a href="{base if k == 1 else f"{base}{k}/"}">{k}</a>' if k != n else f"<b>{k}</b>")
    if n < 3:
        links.append(f'<a class="next" href="{base}{n + 1}/">Weiter »</a>')
    pager = f"<div class='seiten'>Seite {' '.join(links)}</div>"
    return _page(title, _article(title, paras, after=pager), lang="de")


def next_article_story() -> str:
    """One page that ends with a "Next article" link and a ``rel=next`` to another story."""
    title = "Harbour master retires after forty years"
    paras = [paragraph("the retirement story", k) for k in range(6)]
    after = "<div class='story-nav'><a href='/news/new-harbour-master'>Next article: A new harbour master</a></div>"
    return _page(title, _article(title, paras, after=after), head='<link rel="next" href="/news/new-harbour-master">')


def comments_story(cpage: int = 1) -> str:
    """One page with paged comments: ``?cpage=2`` and ``/comment-page-2/`` links in the comments."""
    title = "Readers remember the old pier"
    paras = [paragraph("the pier story", k) for k in range(6)]
    comments = "".join(f"<li class='comment'><p class='comment-author'>Reader {k}</p><p>I remember the pier in {1950 + k}, "
                       f"when the boats came in at dawn and the gulls followed them.</p></li>" for k in range(5))
    pager = ("<div class='comment-navigation'><a href='/pier-memories?cpage=2#comments'>Older comments</a> "
             "<a href='/pier-memories/comment-page-2/'>2</a> <a href='/pier-memories/comment-page-3/'>3</a></div>")
    after = f"<section id='comments' class='comments'><h2>Comments</h2><ol class='comment-list'>{comments}</ol>{pager}</section>"
    return _page(title, _article(title, paras, after=after))


def listing(n: int = 1) -> str:
    """A blog's listing, page n: teasers, and "Older posts" to ``/blog/page/N+1/``."""
    teasers = "".join(f"<div class='post'><h2><a href='/blog/post-{n}-{k}/'>Post {k} of page {n}</a></h2>"
                      f"<p>A short teaser of post {k}, about the {WORDS[k % 12]}.</p><a href='/blog/post-{n}-{k}/'>Read more</a></div>"
                      for k in range(8))
    pager = (f"<div class='nav-links'><a href='/blog/page/{n + 1}/'>Older posts</a> "
             f"<a href='/blog/page/{n + 1}/'>{n + 1}</a> <a href='/blog/page/{n + 2}/'>{n + 2}</a></div>")
    return _page("Harbour blog", f"<h1>Harbour blog</h1>{teasers}{pager}")


def gallery(n: int = 1) -> str:
    """A photo gallery's slide n: a picture, a caption and "Next slide" to ``/gallery/boats/N+1``."""
    return _page("Boats of the harbour", f"<h1>Boats of the harbour</h1><figure><img src='/img/boat{n}.jpg' width='800' height='600'>"
                 f"<figcaption>Boat {n} at dawn.</figcaption></figure><div class='slides'><a href='/gallery/boats/{n + 1}'>Next slide</a> "
                 f"<a href='/gallery/boats/1'>1</a> <a href='/gallery/boats/2'>2</a> <a href='/gallery/boats/3'>3</a></div>")


def loop_story(n: int) -> str:
    """A page whose next page (``/tides/2/``, in its pager and ``rel=next``) redirects back to it:
    a loop (:data:`REDIRECTS`)."""
    title = "Tides of the autumn"
    paras = [paragraph("the tide story", (n - 1) * 6 + k) for k in range(6)]
    target = "/tides/2/" if n == 1 else "/tides/"
    pager = f"<div class='pager'><a href='/tides/'>1</a> <a href='/tides/2/'>2</a> <a href='{target}'>Next</a></div>"
    head = f'<link rel="next" href="{target}">'
    return _page(title, _article(title, paras, after=pager), head)


def single_version_story(n: int, whole: bool = False) -> str:
    """An article over two pages whose pages link "View as one page" (``?view=all``)."""
    title = "Salt and the sea wall"
    count = 12 if whole else 6
    start = 0 if whole else (n - 1) * 6
    paras = [paragraph("the salt story", start + k) for k in range(count)]
    pager = "" if whole else (f"<div class='pager'><a href='/salt/'>1</a> <a href='/salt/2/'>2</a>"
                              f" <a href='/salt/?view=all'>View as one page</a></div>")
    return _page(title, _article(title, paras, after=pager))


ROUTES = {
    "/storm-series": lambda q: query_story(int(q.get("page", "1"))),
    "/features/lantern-keepers/": lambda q: path_story(1),
    "/features/lantern-keepers/2/": lambda q: path_story(2),
    "/features/lantern-keepers/3/": lambda q: path_story(3),
    "/news/harbour-master-retires": lambda q: next_article_story(),
    "/news/new-harbour-master": lambda q: _page("A new harbour master", _article("A new harbour master",
                                                [paragraph("the new master story", k) for k in range(6)])),
    "/pier-memories": lambda q: comments_story(int(q.get("cpage", "1"))),
    "/blog/": lambda q: listing(1),
    "/blog/page/2/": lambda q: listing(2),
    "/gallery/boats/1": lambda q: gallery(1),
    "/gallery/boats/2": lambda q: gallery(2),
    "/tides/": lambda q: loop_story(1),
    "/salt/": lambda q: single_version_story(1, whole=q.get("view") == "all"),
    "/salt/2/": lambda q: single_version_story(2),
}
"""Address path -> the page (its query as a dict)."""

REDIRECTS = {"/tides/2/": "/tides/"}
"""Address path -> where it redirects (302)."""


class Server:
    """The fixtures on ``http://127.0.0.1:PORT``; ``fail`` holds paths answered with 503 (a
    network failure on that page) and ``requests`` every path asked for, in order."""

    def __init__(self) -> None:
        self.fail: set[str] = set()
        self.requests: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):  # noqa: N802 - http.server's name
                parts = urlsplit(self.path)
                server.requests.append(self.path)
                query = dict(p.split("=", 1) for p in parts.query.split("&") if "=" in p)
                route = ROUTES.get(parts.path)
                if parts.path in REDIRECTS:
                    self.send_response(302)
                    self.send_header("Location", REDIRECTS[parts.path])
                    self.end_headers()
                    return
                if parts.path in server.fail or self.path in server.fail:
                    self.send_response(503)
                    self.end_headers()
                    return
                if route is None:
                    self.send_response(404)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                    self.end_headers()
                    self.wfile.write(b"<html><body><p>not here</p></body></html>")
                    return
                body = route(query).encode("utf-8")
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> "Server":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
