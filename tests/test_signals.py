"""Card columns, page signals and the page-type model (pagesieve.blocks.signals, pagesieve.classify.page_type),
on a hand-built news page and on wcxb_dev's real pages."""

from __future__ import annotations

import numpy as np
import pytest

from pagesieve.blocks.segment import segment
from pagesieve.page.html import parse_html
from pagesieve.page.preprocess import preprocess
from pagesieve.classify.page_type import PAGE_TYPES, compile_page_type, fit_page_type
from pagesieve.blocks.signals import CARD_COLUMNS, PAGE_SIGNALS, card_columns, card_items, page_signals, raw_page_signals

STORY = " ".join(f"Sentence {k} of the harbour story tells what the council decided about the old wall." for k in range(12))
CARD = '<li class="card"><a href="/2026/05/{slug}">{title}</a><p>A short excerpt of {title}.</p></li>'
PAGE = f"""<html><head><title>Harbour wall</title>
<meta property="og:type" content="article">
<script type="application/ld+json">{{"@context": "https://schema.org", "@graph": [{{"@type": "NewsArticle"}}]}}</script>
<script type="application/ld+json">{{ not json </script>
</head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>Harbour wall</h1><p class="byline">By Ann Lee, ann.lee@harbour.example</p>
<p>{STORY}</p><p>{STORY}</p></article>
<section class="related"><h2>Related</h2><ul>
{"".join(CARD.format(slug=f"story-{k}", title=f"Other story number {k}") for k in range(4))}
</ul></section>
</body></html>"""


@pytest.fixture(scope="module")
def news():
    page = parse_html(PAGE, url="https://harbour.example/2026/05/harbour-wall")
    raw = raw_page_signals(page.root, page.url)
    preprocess(page)
    blocks = segment(page.root)
    return page, raw, blocks


def _block(blocks, text):
    return next(b for b in blocks if b.chars and text in b.text)


def test_related_cards_are_cards_and_the_story_is_not(news):
    page, _raw, blocks = news
    card, runs = card_items(blocks)
    excerpt = _block(blocks, "A short excerpt of Other story number 2")
    story = _block(blocks, "Sentence 3 of the harbour story")
    assert card[excerpt.index] >= 0 and runs[excerpt.index] == 4
    assert card[story.index] == -1
    rows = card_columns(blocks, [excerpt.index, story.index], page.url)
    col = {name: k for k, name in enumerate(CARD_COLUMNS)}
    assert rows[0, col["in_card"]] == 1 and rows[1, col["in_card"]] == 0
    assert rows[0, col["after_main"]] == 1 and rows[1, col["after_main"]] == 0
    assert rows[1, col["log_chars_from_main"]] == 0 and rows[0, col["log_chars_from_main"]] > 0
    assert rows[0, col["same_site_links"]] == 1.0  # its headline links to another article of the site
    assert 0 < rows[0, col["card_share"]] < 0.2


def test_email_and_byline(news):
    page, _raw, blocks = news
    byline = _block(blocks, "By Ann Lee")
    story = _block(blocks, "Sentence 3 of the harbour story")
    rows = card_columns(blocks, [byline.index, story.index], page.url)
    col = {name: k for k, name in enumerate(CARD_COLUMNS)}
    assert rows[0, col["has_email"]] == 1 and rows[0, col["byline_like"]] == 1
    assert rows[1, col["has_email"]] == 0 and rows[1, col["byline_like"]] == 0


def test_raw_signals_read_json_ld_and_skip_malformed(news):
    _page, raw, blocks = news
    assert raw["og_article"] == 1 and raw["ld_article"] == 1 and raw["ld_product"] == 0
    assert raw["url_date"] == 1 and raw["url_depth"] == 3
    v = page_signals(raw, blocks)
    assert v.shape == (len(PAGE_SIGNALS),)
    assert v[PAGE_SIGNALS.index("cards_log")] == pytest.approx(np.log1p(4))


def test_page_type_twin_matches_scikit_learn():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(140, len(PAGE_SIGNALS)))
    labels = [PAGE_TYPES[k % 7] for k in range(140)]
    x[:, 0] += np.arange(140) % 7  # one informative column
    fitted = fit_page_type(x, labels)
    twin = compile_page_type(fitted)
    expected = fitted.predict_proba(x)  # columns in fitted.classes_ order, which is sorted
    got = twin.probabilities(x)
    order = [PAGE_TYPES.index(c) for c in fitted.classes_]
    np.testing.assert_allclose(got[:, order], expected, rtol=1e-9, atol=1e-12)
    binary = compile_page_type(fit_page_type(x[:40], ["forum" if k % 2 else "article" for k in range(40)]))
    p = binary.probabilities(x[:40])
    assert np.allclose(p.sum(axis=1), 1) and (p[:, PAGE_TYPES.index("listing")] == 0).all()


def test_cards_on_wcxb_articles_hold_less_truth_than_the_rest(datasets_dir):
    """On real 2025-26 article pages, text inside cards is far less often main content than
    text outside them (what makes the card columns worth reading)."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page, read_truth
    from pagesieve.tokens import tokens

    folder = datasets_dir / "wcxb_dev"
    if not folder.is_dir():
        pytest.skip("wcxb_dev not found")
    dataset = load_dataset(folder)
    ids = [r.id for r in dataset if r.row.get("page_type") == "article"][:60]
    inside = [0, 0]
    outside = [0, 0]
    for page_id in ids:
        page = parse_html(read_page(dataset, page_id), url=dataset.record(page_id).url)
        preprocess(page)
        blocks = segment(page.root)
        truth = set(tokens(read_truth(dataset, page_id)))
        card, _runs = card_items(blocks)
        for b in blocks:
            if not b.chars:
                continue
            toks = tokens(b.text)
            hit = sum(t in truth for t in toks)
            side = inside if card[b.index] >= 0 else outside
            side[0] += hit
            side[1] += len(toks)
    assert inside[1] > 1000, "too few card tokens to compare"
    assert inside[0] / inside[1] < 0.8 * outside[0] / outside[1], (inside, outside)


def test_raw_signals_read_dates_authors_prices_counts_and_the_slug():
    """The signals added for the page-type model: ``<meta>`` dates, authors and prices, element
    counts, and the URL's slug, query, ``.html`` ending and long digit runs."""
    story = parse_html("""<html><head>
<meta property="article:published_time" content="2025-09-04T08:00:00Z">
<meta name="author" content="Ann Lee"></head><body>
<nav><a href="/">Home</a></nav><article><h1>Fall trends</h1><time datetime="2025-09-04">4 Sep</time>
<p>Text.</p></article><aside>More</aside></body></html>""",
                       url="https://food.example/2025/09/04/top-nutrition-trends-for-fall-2025.html")
    raw = raw_page_signals(story.root, story.url)
    assert raw["meta_date"] == 1 and raw["meta_author"] == 1 and raw["meta_price"] == 0
    assert raw["times_log"] == pytest.approx(np.log1p(1)) and raw["articles_log"] == pytest.approx(np.log1p(1))
    assert raw["h1_log"] == pytest.approx(np.log1p(1)) and raw["navs_log"] == pytest.approx(np.log1p(1))
    assert raw["asides_log"] == pytest.approx(np.log1p(1)) and raw["buttons_log"] == 0 and raw["tables_log"] == 0
    assert raw["slug_words"] == 6 and raw["slug_long"] == 1  # ".html" is not a word
    assert raw["url_html"] == 1 and raw["url_query"] == 0 and raw["url_digits"] == 0

    shop = parse_html("""<html><head><meta itemprop="price" content="169"></head><body>
<h1>Microphone</h1><table><tr><td>Pattern</td><td>Cardioid</td></tr></table>
<button>Add to basket</button><button>Wish list</button></body></html>""",
                      url="https://shop.example/p/1234567?colour=black")
    raw = raw_page_signals(shop.root, shop.url)
    assert raw["meta_price"] == 1 and raw["meta_date"] == 0 and raw["meta_author"] == 0
    assert raw["buttons_log"] == pytest.approx(np.log1p(2)) and raw["tables_log"] == pytest.approx(np.log1p(1))
    assert raw["slug_words"] == 1 and raw["slug_long"] == 0
    assert raw["url_query"] == 1 and raw["url_digits"] == 1 and raw["url_html"] == 0
    assert set(raw) <= set(PAGE_SIGNALS)
    assert raw_page_signals(shop.root, None)["slug_words"] == 0
