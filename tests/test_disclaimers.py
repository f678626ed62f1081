"""Small print the page names a disclaimer leaves the text
(pagesieve.rules.disclaimers)."""

from __future__ import annotations

from pagesieve.extract import SETTLE_RULES, extract

STORY = "<p>" + "The report goes on with details the reader came for, sentence after sentence. " * 5 + "</p>"


def _article(inside: str, after: str = ""):
    return extract(f"""<html><head><title>Storm closes the old harbour</title></head><body><article>
    <h1>Storm closes the old harbour</h1>{inside}</article>{after}</body></html>""")


def test_small_print_named_a_disclaimer_leaves_the_text():
    shown = _article(
        STORY + '<div class="article-disclaimer"><p>Opinions expressed by our contributors are their own '
        'and not those of the harbour trust.</p></div>' + STORY
        + '<div class="promo text--disclaimer"><p>Offer valid 03/12/26 through 03/16/26 on orders over $50; '
        'one use per customer.</p></div>')
    assert "disclaimers" in SETTLE_RULES
    assert "details the reader came for" in shown.text
    assert "Opinions expressed" not in shown.text
    assert "Offer valid" not in shown.text


def test_a_wrapper_named_so_that_holds_the_article_keeps_it():
    # over half of what is kept: the article itself, whatever its wrapper is called (wcxb_dev/4431)
    shown = _article(f'<div class="entry has-disclaimer">{STORY}{STORY}{STORY}</div>{STORY}')
    assert shown.text.count("details the reader came for") >= 15
    # the same small print without the name stays: only the page's own name says what it is
    plain = _article(STORY + '<p>Opinions expressed by our contributors are their own and not those '
                     'of the harbour trust.</p>' + STORY)
    assert "Opinions expressed" in plain.text


def test_the_forbes_contributors_disclaimer_leaves_a_real_story(datasets_dir):
    """big9's 2017_brand_1 (Forbes): the body carried "Opinions expressed by Forbes Contributors
    are their own." and "The author is a Forbes contributor. The opinions expressed are those of
    the writer." (``<p class="short legal-disclaimer">``), lines its truth leaves out."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    ds = load_dataset(datasets_dir / "big9")
    article = extract(read_page(ds, "2017_brand_1"), ds.record("2017_brand_1").url)
    assert "Opinions expressed by Forbes Contributors" not in article.text
    assert "The author is a Forbes contributor" not in article.text
    assert len(article.text.split()) > 300
