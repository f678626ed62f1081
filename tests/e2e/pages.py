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


COLD_START_RULE = "Comments may be no longer than 2000 characters"
"""Comment-form rules that dragnet R513 and R514 (blogs.nfl.com) share: kept on R513 alone,
hidden once R514 is its reference page."""

COLD_START_STORY = "showing off their best impressions of NFL players"
"""A sentence of R513's story, shown either way."""


def serve_cold_start_pair(serve_page, datasets_dir) -> dict[str, str]:
    """Serve dragnet R513 and R514 at their own paths with their links made local (R513's most
    similar link then points to R514 on the test server); the paths by page id."""
    from urllib.parse import urlsplit

    from pagesieve.evaluation.datasets import load_dataset, read_page

    dataset = load_dataset(datasets_dir / "dragnet")
    paths = {i: urlsplit(dataset.record(i).url).path for i in ("R513", "R514")}
    for page_id, path in paths.items():
        serve_page(path, read_page(dataset, page_id).replace("http://blogs.nfl.com/", "/"))
    return paths
