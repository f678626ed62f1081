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
