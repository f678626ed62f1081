"""Articles over several pages: which link of a judged page leads to the article's next page
(:func:`find_next_page`), and the article of all its pages joined (:func:`join_pages`).

Issue 53 (readers' request since mozilla/readability issue 12, 2015; Postlight Parser follows
``next_page_url``; FiveFilters and wallabag site configs name a ``next_page_link`` per site).

A link is the next page when its address is this page's address with the page number one higher
(:func:`page_step`: ``?page=2``, ``/2/``, ``/page/2``, ``-2.html``) and the page says so by
place: ``<link rel="next">``, a link in the page's pager (a group of links to numbered pages of
the same address), or a link whose text is that number. The word on a "next" link is never
read: a pager in any language is a pager. What is not followed, each with its rule:

- another article (``rel="next"`` or a "Next article" link whose address is not this one's with
  a page number): no page step, so never a candidate;
- older comments (an address that names comments, ``?cpage=2``, ``/comment-page-2/``, or a link
  inside the comment section);
- a listing's older posts (a page whose content is a list of links to other pages);
- a gallery's next slide (an address that names a slide or photo, or a page of less text than
  :data:`MIN_ARTICLE_CHARS`);
- a page already seen (a loop: here, and in :func:`pagesieve.multipage.read_pages` for a page
  that redirects to one read before).

A single-page or print version that the page links (:func:`single_page_version`) is the whole
article in one page: read instead of following the pages.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urldefrag, urljoin, urlsplit, urlunsplit

from lxml import etree

PAGE_PARAMS = frozenset({"page", "p", "pg", "paged", "pagina", "seite", "pagenum", "pageno", "page_no", "currentpage",
                         "pn", "pagenumber", "strona", "sida", "side"})
"""Query parameters that hold a page number where this page has none (a page 1 without the
parameter): WordPress ``paged``/``page``, vBulletin ``page``, Drupal ``page``; German ``seite``,
Italian/Spanish ``pagina``, Polish ``strona``, Scandinavian ``sida``/``side``. A parameter of
another name counts only where this page's address has it with the number one lower."""

MAX_PAGES = 10
"""The most pages one article is read from (the issue's bar: one at a time, at most 10)."""

MIN_ARTICLE_CHARS = 500
"""Characters of kept text below which a page is not taken for an article page whose next page
is worth fetching (a gallery's slide, a listing's stub): Readability's ``charThreshold``."""

_SEGMENT_RE = re.compile(r"^(?P<base>.*?)/(?:page/|p/|seite/|pagina/)?(?P<n>\d{1,3})/?$")
"""A path ending in a page number segment: ``/story/2``, ``/story/2/``, ``/story/page/2``."""

_SUFFIX_RE = re.compile(r"^(?P<base>.*?[^/\d])[-_](?P<n>\d{1,3})(?P<ext>\.s?html?|\.php|\.aspx?|/)?$")
"""A path whose last name ends in ``-N`` or ``_N``: ``/story-2.html``, ``/story_2``, ``/story-2/``."""

_COMMENTS_RE = re.compile(r"comment|cpage|replytocom|kommentar|commentaire", re.IGNORECASE)
"""An address that names comments: WordPress ``comment-page-2`` and ``cpage``, ``replytocom``."""

_GALLERY_RE = re.compile(r"(?:^|[/_\-.=?&])(?:slide|slides|slideshow|photo|photos|gallery|galleries|image|images|pic|pics)(?:$|[/_\-.=?&\d])",
                         re.IGNORECASE)
"""An address that names a slide, a photo or a gallery (``/gallery/…/3``, ``?slide=3``)."""

_SINGLE_QUERY = {("view", "all"), ("page", "all"), ("single", "1"), ("showall", "1"), ("show_all", "1"), ("print", "1"),
                 ("output", "print"), ("all", "1"), ("pagewanted", "all"), ("singlepage", "1"), ("onepage", "1")}
"""Query parameters of a whole-article or print view (``?view=all``, ``?pagewanted=all`` of the
New York Times, ``?singlepage=1`` of Ars Technica's archive, ``?print=1``)."""

_SINGLE_HINT_LINKS = etree.XPath("//a[" + " or ".join(f"contains(@href, '{w}')" for w in ("all", "print", "ingle", "ull", "nepage")) + "]")
"""The page's links whose address holds a word of a whole-article view (:data:`_SINGLE_QUERY`,
:data:`_SINGLE_PATH_RE`; lower case, as addresses write them): picked by libxml2, so that the
page's other links are never parsed here."""

_NUMBERED_LINKS = etree.XPath("//a[translate(@href, '0123456789', '') != @href]")
"""The page's links whose address holds a digit: the only ones that can name a page number
(:func:`page_step`, :func:`_numbered`); picked by libxml2."""

_SINGLE_PATH_RE = re.compile(r"/(?:all|print|single|singlepage|single-page|full|fullpage)/?$", re.IGNORECASE)
"""A path of a whole-article or print view (``/story/all/``, ``/story/print``)."""


def clean_url(url: str) -> str:
    """``url`` without its fragment and with a path of at least ``/``."""
    url = urldefrag(url)[0]
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc.lower(), parts.path or "/", parts.query, ""))


def _same_origin(a: str, b: str) -> bool:
    pa, pb = urlsplit(a), urlsplit(b)
    return (pa.scheme, pa.netloc.lower()) == (pb.scheme, pb.netloc.lower())


def _path_forms(path: str) -> dict[str, tuple[str, int | None]]:
    """The ways a path may hold a page number: ``{form: (the path without it, the number)}``,
    and each form with the path itself and ``None`` (this page is that form's page 1)."""
    out: dict[str, tuple[str, int | None]] = {}
    m = _SEGMENT_RE.match(path)
    if m:
        out["segment"] = (m.group("base").rstrip("/") or "/", int(m.group("n")))
    m = _SUFFIX_RE.match(path)
    if m:
        out["suffix"] = (m.group("base") + (m.group("ext") or ""), int(m.group("n")))
    return out


def page_step(url: str, candidate: str) -> dict | None:
    """How ``candidate`` is ``url``'s next page by address, or ``None``.

    Both absolute. Same scheme and host, and one of:

    - a query parameter: the candidate's is this page's plus one (any name), or the candidate
      has one of :data:`PAGE_PARAMS` with 2 where this page has none;
    - a path segment: ``/story/2`` after ``/story`` (or ``/story/1``), ``/story/page/3`` after
      ``/story/page/2``;
    - a suffix: ``/story-2.html`` after ``/story.html``, ``/story_3`` after ``/story_2``;

    the rest of the address alike. Returns ``{"pattern", "from", "to"}``.
    """
    if not _same_origin(url, candidate):
        return None
    u, c = urlsplit(clean_url(url)), urlsplit(clean_url(candidate))
    uq, cq = parse_qsl(u.query, keep_blank_values=True), parse_qsl(c.query, keep_blank_values=True)
    if u.path == c.path and uq != cq:
        ud, cd = dict(uq), dict(cq)
        changed = [k for k in set(ud) | set(cd) if ud.get(k) != cd.get(k)]
        if len(changed) == 1:
            name = changed[0]
            new, old = cd.get(name), ud.get(name)
            if new is not None and new.isdigit():
                if old is not None and old.isdigit() and int(new) == int(old) + 1:
                    return {"pattern": f"?{name}=", "from": int(old), "to": int(new)}
                if old is None and name.lower() in PAGE_PARAMS and int(new) == 2:
                    return {"pattern": f"?{name}=", "from": 1, "to": 2}
        return None
    if uq != cq:
        return None
    cf = _path_forms(c.path)
    uf = _path_forms(u.path)
    for form, (base, n) in cf.items():
        if form in uf and uf[form][0].rstrip("/") == base.rstrip("/") and n == uf[form][1] + 1:
            return {"pattern": form, "from": uf[form][1], "to": n}
        if n == 2 and u.path.rstrip("/") == base.rstrip("/"):
            return {"pattern": form, "from": 1, "to": 2}
    return None


def single_page_version(root: etree._Element, url: str, base: str | None = None) -> str | None:
    """The address of the whole article on one page (or its print version) that the page links
    (:data:`_SINGLE_QUERY`, :data:`_SINGLE_PATH_RE`): the same host and, but for that
    parameter or last segment, this page's path (``url``; its links resolved against ``base``,
    the document base URL, or ``url`` when ``None``); else ``None``."""
    own = urlsplit(clean_url(url))
    for a in _SINGLE_HINT_LINKS(root):
        href = (a.get("href") or "").strip()
        if href.startswith(("#", "javascript:", "mailto:")):
            continue
        target = clean_url(urljoin(base or url, href))
        if not _same_origin(url, target) or target == clean_url(url):
            continue
        t = urlsplit(target)
        query = parse_qsl(t.query, keep_blank_values=True)
        extra = [(k.lower(), v.lower()) for k, v in query if (k, v) not in parse_qsl(own.query, keep_blank_values=True)]
        if t.path.rstrip("/") == own.path.rstrip("/") and len(extra) == 1 and extra[0] in _SINGLE_QUERY:
            return target
        m = _SINGLE_PATH_RE.search(t.path)
        if m and not t.query and t.path[:m.start()].rstrip("/") == own.path.rstrip("/"):
            return target
    return None


@dataclass(slots=True)
class NextPage:
    """What :func:`find_next_page` decided for one page.

    Attributes:
        url: the next page's address, or ``None`` (this page is the article's last, or its only).
        rule: why it is the next page (``rel-next``, ``pager``, ``page-number-link``), or why
            there is none (``not-an-article``, ``too-little-text``, ``no-next-page``).
        evidence: the address step (:func:`page_step`) and what placed the link.
        not_followed: ``[{"url", "rule", "text"}]``: the links that looked like a next page and
            why each is not one (``comments``, ``gallery``, ``seen``, ``another-article``).
        single_page: the whole-article page the page links (:func:`single_page_version`), or ``None``.
    """

    url: str | None
    rule: str
    evidence: dict = field(default_factory=dict)
    not_followed: list[dict] = field(default_factory=list)
    single_page: str | None = None

    def to_json(self) -> dict:
        """``{"stage": "pages", "url", "rule", "evidence", "not_followed", "single_page"}``."""
        return {"stage": "pages", "url": self.url, "rule": self.rule, "evidence": self.evidence,
                "not_followed": self.not_followed, "single_page": self.single_page}


def _pager_of(a: etree._Element, url: str, depth: int = 3) -> etree._Element | None:
    """The nearest ancestor of ``a`` (at most ``depth`` up) that holds at least two links to
    numbered pages of this address (each a :func:`page_step` away from a page of it, or with a
    number for its text): the page's pager, or ``None``."""
    element = a.getparent()
    for _ in range(depth):
        if element is None:
            return None
        numbered = 0
        for link in element.iter("a"):
            text = "".join(link.itertext()).strip()
            if text.isdigit() and len(text) <= 3:
                numbered += 1
        if numbered >= 2:
            return element
        element = element.getparent()
    return None


def _numbered(url: str) -> bool:
    """True if ``url`` names a page number of 2 or more: a query parameter whose name holds
    "page" (``page``, ``cpage``, ``paged``) or is one of :data:`PAGE_PARAMS`, or a path form of
    :func:`_path_forms` (``/2/``, ``-2.html``, ``/comment-page-2/``)."""
    parts = urlsplit(url)
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        if value.isdigit() and int(value) >= 2 and ("page" in name.lower() or name.lower() in PAGE_PARAMS):
            return True
    return any(n is not None and n >= 2 for _base, n in _path_forms(parts.path).values())


def _has_number_link(root: etree._Element) -> bool:
    """True if a link of the page has a number of one to three digits for its text (a pager's,
    or the next page's number): without one, and without ``rel=next``, the page has no next page
    to follow. The link's own text is read, or, when it has none, the text of its children (a
    number in a ``<span>``); a Python walk that stops at the first, cheaper than an XPath over
    every link (0.4-1.0% of :func:`pagesieve.extract.judge_page`'s time on 200 wcxb_dev pages,
    against 2.2-2.8%)."""
    for a in root.iter("a"):
        text = a.text
        if (text is None or not text.strip()) and len(a):
            text = "".join(a.itertext())
        if text and len(text) < 200:
            text = text.strip()
            if len(text) <= 3 and text.isdigit() and a.get("href"):
                return True
    return False


def _is(flag: bool | Callable[[], bool]) -> bool:
    return flag() if callable(flag) else bool(flag)


def find_next_page(root: etree._Element, url: str | None, rel_next: str | None, kept_chars: int,
                   listing: bool | Callable[[], bool] = False, seen: Sequence[str] = (), comment_elements: Sequence = (),
                   whole_view: bool = True, base: str | None = None) -> NextPage:
    """The next page of the article on this judged page (module docstring).

    Args:
        root: the page tree (after judging, before the article is rendered: its links in place).
        url: the page's address (``None``: nothing can be followed). rel_next: the ``href`` of
            its ``<link rel="next">`` (read before pre-processing), or ``None``.
        kept_chars: characters of the page's main content.
        listing: the page's content is a list of links to other pages (a listing's posts:
            :func:`pagesieve.extract.next_page` counts them), not an article; or a function that
            says so, called only when it matters (a link could be followed).
        seen: the addresses already read (this page's among them or not).
        comment_elements: the elements of the page's comment sections (links inside are older
            comments, never the article's next page).
        whole_view: look for a single-page version too (:func:`single_page_version`); a crawl,
            which reads no other page, does not.
        base: the document base URL (:func:`pagesieve.page.base.document_base_url`) the page's
            links are resolved against; ``None``: ``url``.

    Every link that names a page number (:func:`_numbered`) or is a page step away
    (:func:`page_step`) is a candidate; a candidate is not followed, with its rule, when it
    names comments or sits in the comment section (``comments``), names a slide or photo
    (``gallery``), was read already (``seen``), is not a page step from here
    (``another-address``), or is neither ``rel="next"``, in a pager, nor the next number
    (``not-in-a-pager``); every candidate of a listing (``listing``) or of a page with less text
    than :data:`MIN_ARTICLE_CHARS` (``too-little-text``) is not followed.

    Returns:
        :class:`NextPage`: the best candidate (``rel-next`` over ``pager`` over
        ``page-number-link``, then the lowest number), or none with the page's reason.
    """
    if not url:
        return NextPage(None, "no-address")
    base = base or url
    single = single_page_version(root, url, base) if whole_view else None
    if not rel_next and not _has_number_link(root):
        # no rel=next and no link whose text is a page number: no pager and no next number, so
        # no link can be followed (the page's other links are not looked at)
        if kept_chars < MIN_ARTICLE_CHARS:
            return NextPage(None, "too-little-text", {"chars": kept_chars, "least": MIN_ARTICLE_CHARS})
        return NextPage(None, "no-next-page", {}, [], single)
    here = clean_url(url)
    done = {clean_url(s) for s in seen} | {here}
    in_comments = set()
    for element in comment_elements:
        in_comments.update(element.iter("a"))
    found, not_followed = _judge_candidates(_candidates(root, base, rel_next), here, done, in_comments)
    return _choose(found, not_followed, kept_chars, listing, single)


def _candidates(root: etree._Element, base: str,
                rel_next: str | None) -> list[tuple[str, str, str, etree._Element | None]]:
    """The links of the page that could name its next page, in page order after ``rel=next``
    (resolved against ``base``, the document base URL):
    ``(address, link text, how, anchor)``, ``how`` being ``rel-next`` (its anchor ``None``) or
    ``link``; only links whose address holds a digit (one naming a page number) are read."""
    candidates: list[tuple[str, str, str, etree._Element | None]] = []
    if rel_next:
        candidates.append((urljoin(base, rel_next.strip()), "", "rel-next", None))
    for a in _NUMBERED_LINKS(root):  # an address without a digit names no page number
        href = (a.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:", "mailto:")):
            continue
        candidates.append((urljoin(base, href), " ".join("".join(a.itertext()).split()), "link", a))
    return candidates


def _judge_candidates(candidates: Sequence[tuple[str, str, str, etree._Element | None]], here: str, done: set[str],
                      in_comments: set) -> tuple[list[tuple[int, str, str, dict]], list[dict]]:
    """Judges each candidate of :func:`_candidates` (rules of :func:`find_next_page`): the ones
    that could be followed, ``(rank, url, rule, evidence)`` (rank 0 ``rel-next``, 1 ``pager``,
    2 ``page-number-link``), and the ones not followed, ``{"url", "rule", "text"}``; a candidate
    that is this page, of another site, or no page of anything is in neither."""
    found: list[tuple[int, str, str, dict]] = []
    not_followed: list[dict] = []
    for target, text, how, anchor in candidates:
        target = clean_url(target)
        if target == here or not _same_origin(here, target):
            continue
        step = page_step(here, target)
        if step is None and how != "rel-next" and not _numbered(target):
            continue  # not a page of anything
        where = urlsplit(target).path + "?" + urlsplit(target).query
        rule = None
        if _COMMENTS_RE.search(where) or (anchor is not None and anchor in in_comments):
            rule = "comments"
        elif _GALLERY_RE.search(where):
            rule = "gallery"
        elif target in done:
            rule = "seen"
        elif step is None:
            rule = "another-address"
        if rule is not None:
            not_followed.append({"url": target, "rule": rule, "text": text[:40]})
            continue
        if how == "rel-next":
            found.append((0, target, "rel-next", step))
            continue
        pager = _pager_of(anchor, here)
        if pager is not None:
            found.append((1, target, "pager", {**step, "pager": pager.tag, "link": text[:40]}))
        elif text.strip() == str(step["to"]):
            found.append((2, target, "page-number-link", {**step, "link": text[:40]}))
        else:
            not_followed.append({"url": target, "rule": "not-in-a-pager", "text": text[:40]})
    return found, not_followed


def _choose(found: list[tuple[int, str, str, dict]], not_followed: list[dict], kept_chars: int,
            listing: bool | Callable[[], bool], single: str | None) -> NextPage:
    """The :class:`NextPage` of the judged candidates: none of them followed on a listing or a
    page with too little text; else the best found (lowest rank, then lowest number), with the
    links not followed once each (a found address not among them)."""
    page_rule = "listing" if found and _is(listing) else "too-little-text" if kept_chars < MIN_ARTICLE_CHARS else None
    if page_rule is not None:
        not_followed = [{"url": f[1], "rule": page_rule, "text": f[3].get("link", "")} for f in found] + not_followed
        found = []
    unique: list[dict] = []
    for entry in not_followed:
        if entry["url"] not in {u["url"] for u in unique} and entry["url"] not in {f[1] for f in found}:
            unique.append(entry)
    if not found:
        evidence = {"chars": kept_chars, "least": MIN_ARTICLE_CHARS} if page_rule == "too-little-text" else {}
        return NextPage(None, page_rule or "no-next-page", evidence, unique, None if page_rule else single)
    rank, target, rule, evidence = min(found, key=lambda f: (f[0], f[3]["to"]))
    return NextPage(target, rule, evidence, unique, single)


def repeated_lines(texts: Sequence[str]) -> list[set[str]]:
    """Per page after the first, the lines (spaces collapsed) an earlier page already holds: a
    recap or standfirst repeated on every page, shown once (issue 53)."""
    seen: set[str] = set()
    out = []
    for k, text in enumerate(texts):
        lines = {" ".join(line.split()) for line in text.split("\n") if line.strip()}
        out.append(lines & seen if k else set())
        seen |= lines
    return out[1:]


def same_article(title: str, first: str) -> bool:
    """True if a later page's title says the first page's title (:func:`names_the_title` over
    their tokens: the same words, or a run of at least three of them that is at least half), or
    either is empty: a page whose title is another's is not the same article (issue 53's "not the
    same article" stop)."""
    from pagesieve.article.header import names_the_title
    from pagesieve.tokens import tokens

    if not title or not first:
        return True
    return names_the_title(tokens(title), tokens(first))


REPEATABLE_TAGS = ("p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "blockquote")
"""Elements of a later page's HTML that are left out when an earlier page holds their text."""


def drop_repeated(html: str, text: str, earlier: Sequence[str]) -> tuple[str, str, int]:
    """A later page's body without what ``earlier`` pages' texts already hold (a recap, a
    standfirst repeated on every page: shown once, issue 53): ``(html, text, lines left out)``.

    ``html``: the page's article HTML (``<div>…</div>``); ``text``: its text; a line of the text
    (spaces collapsed) that a line of an earlier text equals is left out, and so is an element
    of :data:`REPEATABLE_TAGS` whose whole text is such a line. The HTML comes back unwrapped
    (the inside of its ``<div>``) and not sanitised again."""
    from lxml import html as lxml_html

    repeat = repeated_lines([*earlier, text])[-1] if earlier else set()
    kept = [line for line in text.split("\n") if " ".join(line.split()) not in repeat]
    fragment = lxml_html.fragment_fromstring(html or "<div></div>", create_parent="div")
    if repeat:
        for child in list(fragment.iter()):
            if child is fragment or child.getparent() is None:
                continue
            if child.tag in REPEATABLE_TAGS and " ".join("".join(child.itertext()).split()) in repeat:
                child.drop_tree()
    left_out = len(text.split("\n")) - len(kept)
    return _inner(etree.tostring(fragment, encoding="unicode", method="html")), "\n".join(kept), left_out


def join_pages(articles: Sequence, urls: Sequence[str], failed: Sequence[tuple[str, str]] = ()):
    """The :class:`~pagesieve.article.model.Article` of an article's pages in order: the first
    page's metadata and header; the text of every page, a line that an earlier page holds left
    out (:func:`repeated_lines`); the HTML of every page, each after a quiet page mark
    (``<hr><p><small>Page k of n</small></p>``) and without the repeated paragraphs; ``pages``
    the addresses read; the warnings of every page, and one per page that failed (``failed``:
    ``(url, reason)``), named so that a reader can say so.

    Raises:
        ValueError: no article given.
    """
    from pagesieve.article.model import Article
    from pagesieve.article.render import sanitise

    if not articles:
        raise ValueError("join_pages needs at least one page")
    first = articles[0]
    if len(articles) == 1 and not failed:
        return first
    texts = [first.text]
    parts = [_inner(first.html)]
    n = len(articles)
    for k, article in enumerate(articles[1:], 2):
        html, text, _left_out = drop_repeated(article.html, article.text, [a.text for a in articles[:k - 1]])
        texts.append(text)
        parts.append(f"<hr><p><small>Page {k} of {n}</small></p>" + html)
    warnings = [w for a in articles for w in a.warnings]
    warnings += [f"page {u} could not be read: {why}" for u, why in failed]
    return Article(metadata=first.metadata, url=first.url, html=f"<div>{sanitise(''.join(parts))}</div>",
                   text="\n".join(t for t in texts if t), header=list(first.header), content_ids=list(first.content_ids),
                   noise_ids=list(first.noise_ids), warnings=warnings, pages=list(urls))


def _inner(html: str) -> str:
    """The inside of an article's ``<div>…</div>`` HTML (nested ``<div>`` wrappers from lxml too)."""
    html = html.strip()
    while html.startswith("<div>") and html.endswith("</div>"):
        html = html[5:-6]
    return html
