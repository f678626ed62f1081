"""A heading left at the end of the body with nothing under it goes (host/pagesieve/rules/headings.py,
issue 62: orphan headings)."""

from __future__ import annotations

from pagesieve.blocks.segment import segment
from pagesieve.extract import SETTLE_RULES, extract
from pagesieve.page.html import parse_html
from pagesieve.removal import RemovalLog
from pagesieve.rules.headings import drop_trailing_heading

STORY = "<p>The council met on Tuesday and voted to reopen the mill after forty years.</p>"


def _judged(body: str) -> tuple[list, list[bool]]:
    blocks = segment(parse_html(f"<html><body><div>{body}</div></body></html>").root)
    return blocks, [b.chars > 0 and not b.children for b in blocks]


def _kept(blocks, keep) -> list[str]:
    return [b.text for b in blocks if keep[b.index]]


def test_a_lone_heading_at_the_end_of_the_body_goes():
    blocks, keep = _judged(f"<h2>The mill</h2>{STORY}<h3>Join our newsletter</h3>")
    log = RemovalLog()
    assert drop_trailing_heading(blocks, keep, log)
    assert _kept(blocks, keep)[-1].startswith("The council met")
    assert "The mill" in _kept(blocks, keep)  # the heading over a section stays
    dropped = [i for i in range(len(blocks)) if log.reason(i) is not None]
    assert [log.reason(i).rule for i in dropped] == ["trailing-heading"]


def test_headings_in_a_run_a_heading_alone_and_a_heading_with_its_section_stay():
    # a run of headings at the end: a list of items written as headings (category tiles)
    blocks, keep = _judged(f"{STORY}<h2>Radios (4)</h2><h2>Power banks (158)</h2>")
    assert not drop_trailing_heading(blocks, keep)
    assert _kept(blocks, keep)[-2:] == ["Radios (4)", "Power banks (158)"]
    # nothing but the heading is kept
    blocks, keep = _judged("<h2>Opening hours</h2>")
    assert not drop_trailing_heading(blocks, keep)
    # the last heading's section is kept: it does not end the body
    blocks, keep = _judged(f"<h2>The mill</h2>{STORY}<h3>Opening hours</h3><p>Daily from nine.</p>")
    assert not drop_trailing_heading(blocks, keep)
    # the page's title (an h1) is for the header rules
    blocks, keep = _judged(f"{STORY}<h1>The mill</h1>")
    assert not drop_trailing_heading(blocks, keep)


def test_the_rule_runs_with_the_page_rules_on_a_real_page(datasets_dir):
    """wcxb_dev/0153 (restaurantbusinessonline.com, an article): the body ended with "Want
    breaking news at your fingertips?", the heading of a newsletter box the classifier removed."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    assert "trailing" in SETTLE_RULES
    ds = load_dataset(datasets_dir / "wcxb_dev")
    article = extract(read_page(ds, "0153"), ds.record("0153").url)
    assert "breaking news at your fingertips" not in article.text
    assert "breaking news at your fingertips" not in article.html
    assert article.text.rstrip().endswith("independent restaurants and emerging chain concepts.")


def test_the_rule_is_for_articles():
    import numpy as np

    from pagesieve.classify.page_type import PAGE_TYPES
    from pagesieve.rules.headings import is_article

    one_hot = {t: np.eye(len(PAGE_TYPES))[PAGE_TYPES.index(t)] for t in PAGE_TYPES}
    assert is_article(one_hot["article"]) and is_article(None)
    assert not any(is_article(one_hot[t]) for t in ("product", "service", "listing", "collection"))
