"""Test pages written for the browser tests (served by the ``serve_page`` fixture)."""

NEWS_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title} - Harbour Daily</title></head>
<body><header class="masthead"><a href="/">Harbour Daily</a> <nav><a href="/news/">News</a> <a href="/sport/">Sport</a></nav></header>
<div class="layout css-{hash}"><article class="story"><h1>{title}</h1>
<p>{lead} The council met on Tuesday evening to discuss the harbour wall, which has been closed since the storms of last winter.</p>
<p>Engineers told the meeting that the repairs would take at least six more months, and that the cost had risen by a third since the first estimate in spring.</p>
<p>Residents who live along the front said they had waited long enough, and asked for a temporary walkway to be built while the work goes on.</p>
</article>
<div class="promo sc-{hash2}"><p>{promo}</p><p><a href="/subscribe">Subscribe now</a></p></div>
</div><footer><p>Harbour Daily, 1 Quay Street.</p></footer></body></html>"""
"""A small news page: story, promo box (class hashes filled in per page) and footer."""


CAPTION_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title} - Harbour Daily</title></head>
<body><header class="masthead"><a href="/">Harbour Daily</a></header>
<article class="story"><h1>{title}</h1>
<div class="picture"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="600" height="300" alt="">
<p class="caption">{caption} <span class="credit">Photo: Harbour Daily / {photographer}</span></p></div>
<p>The council met on Tuesday evening to discuss the harbour wall, which has been closed since the storms of last winter.</p>
<p>Engineers told the meeting that the repairs would take at least six more months, and that the cost had risen by a third.</p>
<p>Residents who live along the front said they had waited long enough, and asked for a temporary walkway.</p>
</article><footer><p>Harbour Daily, 1 Quay Street.</p></footer></body></html>"""
"""A news page whose caption paragraph ends in a photo credit ``span``."""


COLD_START_RULE = "LEADERBOARD RANK"
"""Reader counters that dragnet R573 and R571 (thecarconnection.com) share ("#10 LEADERBOARD
RANK"), which dragnet's truth lacks: the classifier keeps them on R573 alone, without
confidence, and the diff with R571 hides them once R571 is its reference page. (Until the
template guard of 2026-11-27 the pair was R513 and R514 of blogs.nfl.com and their comment
rules; the classifier keeps those with confidence, so no template overrules it now.)"""

COLD_START_STORY = "which automakers helped victims of Hurricane Sandy"
"""A sentence of R573's story, shown either way."""

COLD_START_PAGES = ("R573", "R571")
"""The page and the reference page it links to (its most similar link)."""


def serve_cold_start_pair(serve_page, datasets_dir) -> dict[str, str]:
    """Serve dragnet R573 and R571 at their own paths with their links made local (R573's most
    similar link then points to R571 on the test server); the paths by page id."""
    from urllib.parse import urlsplit

    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    dataset = load_dataset(datasets_dir / "dragnet")
    paths = {i: urlsplit(dataset.record(i).url).path for i in COLD_START_PAGES}
    for page_id, path in paths.items():  # the test server keys its pages by "/path/"
        serve_page(path.rstrip("/") + "/", read_page(dataset, page_id).replace("http://www.thecarconnection.com/", "/"))
    return paths


EXPLAIN_NOTE = "Every recipe on The Hill Kitchen is tested at 2,400 metres before we publish it."
"""A line every post of the "Show hidden" site carries in its article: the classifier keeps it,
the site's template (learned from three other posts) hides it."""

EXPLAIN_FIX = "Left: the sea-level recipe at altitude."
"""The start of the example page's figure caption, which the "Show hidden" tests hide with a
correction (the figure keeps its picture, so the caption is hidden on its own)."""


def explain_site_pages(posts: int = 4) -> dict[str, str]:
    """``{path: html}`` of ``posts`` posts of one site (``/why/0/`` ...): the example page with
    :data:`EXPLAIN_NOTE` just after its article, and, but for the last post, the article's own
    texts replaced by the post's own (the byline and the note stay), as another post of the
    site would be. The last post is the example page itself with the note."""
    from lxml import etree

    from .conftest import REPO

    html = (REPO / "examples" / "article.html").read_bytes().decode("utf-8")
    # just after the article, where the classifier keeps the note without confidence, so that
    # the site's template decides it (pagesieve.templates.evidence.CONFIDENT_CONTENT)
    html = html.replace("</article>", f'</article><aside class="note"><p class="note">{EXPLAIN_NOTE}</p></aside>')
    pages = {}
    for n in range(posts):
        if n < posts - 1:
            root = etree.HTML(html)
            for k, el in enumerate(root.find(".//article").iter("h1", "h2", "p", "li", "td", "th", "figcaption", "code")):
                if el.get("class") not in ("byline", "note"):
                    el.text = f"Post {n} says thing number {k} of its own"
            pages[f"/why/{n}/"] = "<!doctype html>" + etree.tostring(root, method="html", encoding="unicode")
        else:
            pages[f"/why/{n}/"] = html
    return pages


def check_reason_labels(labels: list[str], focused: str | None, picker: list[str], made) -> None:
    """What both browsers' "Show hidden" tests assert of the labels on the last post of
    :func:`explain_site_pages` (four posts learned, one correction made at ``made``, a
    ``datetime``): every label gives a reason; the template's, the correction's (its date) and the
    classifier's are there; Tab reached a label (``focused``: its class and text); the picker on
    the note named the template (``picker``: the reason lines of the picker bars)."""
    import re

    template = "hidden: seen on 4 of 4 pages of this site"
    assert labels and all(label.startswith("hidden: ") for label in labels), labels
    assert template in labels and f"hidden: by your correction of {made.day} {made:%B}" in labels, labels
    assert any(re.fullmatch(r"hidden: the classifier is sure it is noise \(score -\d+(\.\d+)? < -1\)(; \d+ blocks)?", label)
               for label in labels), labels
    assert focused is not None and focused.startswith("why hidden: "), focused
    assert picker == [template], picker
