"""What the page names an aside (a disclaimer, an author's bio, related links, a share bar, a
newsletter's box) leaves the text (pagesieve.rules.asides)."""

from __future__ import annotations

from pagesieve.extract import SETTLE_RULES, extract

STORY = "<p>" + "The report goes on with details the reader came for, sentence after sentence. " * 5 + "</p>"


def _article(inside: str):
    return extract(f"""<html><head><title>Storm closes the old harbour</title></head><body><article>
    <h1>Storm closes the old harbour</h1>{inside}</article></body></html>""")


def test_asides_named_so_leave_the_text():
    shown = _article(
        STORY + '<div class="article-disclaimer"><p>Opinions expressed by our contributors are their own '
        'and not those of the harbour trust.</p></div>' + STORY
        + '<div class="promo text--disclaimer"><p>Offer valid 03/12/26 through 03/16/26 on orders over $50; '
        'one use per customer.</p></div>'
        + '<section class="author-bio"><p>Jane Doe has covered the harbour and its trust for the '
        'county paper since 2009, and lives by the old wall.</p></section>'
        + '<div id="newsletter-signup"><p>Get the harbour report in your inbox every Friday morning, '
        'with the tides and the week ahead.</p></div>')
    assert "asides" in SETTLE_RULES
    assert "details the reader came for" in shown.text
    for gone in ("Opinions expressed", "Offer valid", "Jane Doe has covered", "harbour report in your inbox"):
        assert gone not in shown.text


def test_a_wrapper_named_so_that_holds_the_article_keeps_it():
    # over half of what is kept: the article itself, whatever its wrapper is called (wcxb_dev/4431)
    shown = _article(f'<div class="entry has-disclaimer">{STORY}{STORY}{STORY}</div>{STORY}')
    assert shown.text.count("details the reader came for") >= 15
    # the same aside without the name stays: only the page's own name says what it is
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


def test_a_real_blogs_author_box_leaves_the_review(datasets_dir):
    """dragnet's T119: a Halo 4 news post ended with "About Nicholas Griffin" and the blog
    founder's story, an author box its truth leaves out (precision 0.50 -> 1.00)."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    ds = load_dataset(datasets_dir / "dragnet")
    article = extract(read_page(ds, "T119"), ds.record("T119").url)
    assert "Halo 4 will be released on November 26th for Xbox 360." in article.text
    assert "About Nicholas Griffin" not in article.text
    assert "I founded this blog" not in article.text


def test_a_real_posts_breadcrumb_trail_leaves_the_body(datasets_dir):
    """dragnet's T6: the body's second line was the trail "You Are Here: Home » Comics »
    Fraction, Bagley And Allred Confirmed On Fantastic Four…" (in an element whose class names
    a breadcrumb), which its truth leaves out."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    ds = load_dataset(datasets_dir / "dragnet")
    article = extract(read_page(ds, "T6"), ds.record("T6").url)
    assert "You Are Here" not in article.text and "Home »" not in article.text
    assert len(article.text.split()) > 200


def test_every_word_that_names_an_aside_holds_one_of_the_cues_read_first():
    """aside_kind passes over a class or id holding none of ASIDE_CUES before it tries the
    pattern: a word added to ASIDE_WORDS without a cue would never be found. The same for a
    product's page (PRODUCT_ASIDE_WORDS, PRODUCT_ASIDE_CUES)."""
    from pagesieve.rules.asides import (
        ASIDE_CLASS, ASIDE_CUES, ASIDE_WORDS, PRODUCT_ASIDE_CLASS, PRODUCT_ASIDE_CUES, PRODUCT_ASIDE_WORDS,
    )

    for pattern, cues, named in ((ASIDE_CLASS, ASIDE_CUES, ASIDE_WORDS),
                                 (PRODUCT_ASIDE_CLASS, PRODUCT_ASIDE_CUES, {**ASIDE_WORDS, **PRODUCT_ASIDE_WORDS})):
        for kind, words in named.items():
            for word in words.split("|"):
                for form in {word.replace("-?", ""), word.replace("-?", "-")}:
                    assert pattern.search(form).lastgroup == kind.replace("-", "_")
                    assert any(cue in form for cue in cues), form
    assert ASIDE_CLASS.search("customer-reviews") is None  # only a product's page reads the reviews' names


def test_a_products_reviews_leave_its_page_and_no_other():
    """On a product's page (``product``, the page-type stage's likeliest type) the customers'
    reviews are named asides; on another page type the same names stay (a movers' directory's
    reviews are what the page is for)."""
    from pagesieve.blocks.segment import segment
    from pagesieve.page.html import parse_html
    from pagesieve.rules.asides import drop_named_asides

    description = "<p>" + "A large-diaphragm condenser with a gold-plated capsule and a quiet preamp. " * 4 + "</p>"
    review = "<p>Bought this to replace my old microphone; it arrived quickly and sounds a little better.</p>"
    html = (f"<html><body><main><h1>NT1 5th Generation</h1>{description}"
            f"<section class='customer-review js-review'>{review}</section></main></body></html>")
    for product, kept_review in ((True, False), (False, True)):
        blocks = segment(parse_html(html).root)
        keep = [bool(b.chars) for b in blocks]
        drop_named_asides(blocks, keep, product=product)
        kept = " ".join(b.text for b in blocks if keep[b.index])
        assert "gold-plated capsule" in kept
        assert ("Bought this to replace" in kept) is kept_review


def test_a_real_shops_product_page_reads_without_its_reviews(datasets_dir):
    """wcxb_dev 2985 (thomann, a microphone's page): four customers' reviews, one shown twice,
    followed the product's specifications in the text (F1 0.75; 0.99 without them)."""
    from conftest import shared_dataset
    from pagesieve_dev.evaluation.datasets import read_page

    wcxb = shared_dataset(datasets_dir, "wcxb_dev")
    article = extract(read_page(wcxb, "2985"), wcxb.record("2985").url)
    assert "Large Diaphragm Condenser Microphone" in article.text
    assert "Gold-plated 1\" capsule" in article.text
    for review in ("Rode hit the jackpot", "Bought this to replace my elderly", "I use this microphone for Zoom meetings"):
        assert review not in article.text and review not in article.html
