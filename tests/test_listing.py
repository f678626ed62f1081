"""A listing page left with its heading alone keeps its grid of items (issue 62, "the body is
never empty"; host/pagesieve/rules/listing.py)."""

from __future__ import annotations

from collections import Counter

import pagesieve.extract as extract_module
from pagesieve.extract import SETTLE_RULES, extract

from conftest import shared_dataset


def _extract(datasets_dir, dataset: str, page_id: str):
    """``(article, token F1 against the truth)`` of a shared dataset page."""
    from pagesieve_dev.evaluation.datasets import read_page, read_truth
    from pagesieve_dev.evaluation.metric import prf_counts
    from pagesieve.tokens import tokens

    ds = shared_dataset(datasets_dir, dataset)
    article = extract(read_page(ds, page_id), ds.record(page_id).url)
    return article, prf_counts(Counter(tokens(article.text)), Counter(tokens(read_truth(ds, page_id))))[2]


def test_a_best_seller_list_shows_its_books_not_its_heading_alone(datasets_dir, monkeypatch):
    """wcxb_dev/2922 (Amazon's books best-sellers): every item's title, author and price has
    the features of a teaser card, and the reader showed "Amazon Best Sellers" over three
    short lines. The page's largest run of items outside its header is the list; the
    header's popover cards, a larger run, are not."""
    article, f1 = _extract(datasets_dir, "wcxb_dev", "2922")
    lines = article.text.splitlines()
    assert "A Court of Thorns and Roses 6" in lines
    assert "Project Hail Mary: A Novel" in lines
    assert f1 > 0.6
    monkeypatch.setattr(extract_module, "widen_thin_listing", lambda *args, **kwargs: 0)
    without, f1_without = _extract(datasets_dir, "wcxb_dev", "2922")
    assert "A Court of Thorns and Roses 6" not in without.text.splitlines()
    assert f1_without < 0.1
    assert "listing" in SETTLE_RULES


def test_a_short_story_the_page_type_calls_a_listing_keeps_its_story_alone(datasets_dir):
    """daniel's chinanews.com page: a story of 245 characters, which the page-type stage calls
    a listing (0.68); its kept blocks hold a sentence, so it is a story, and the run of
    related links below it stays out (F1 0.98; 0.21 when it came in)."""
    _article, f1 = _extract(datasets_dir, "daniel", "20111209_www.chinanews.com_c33212fef73852f3")
    assert f1 > 0.9
