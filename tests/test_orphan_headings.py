"""Headings whose section every stage removed leave the article (issue 52: "Share this page"
opened a WCXB article's reader body); headings with their own text after them stay."""

from __future__ import annotations

from pagesieve.blocks.segment import segment
from pagesieve.extract import extract
from pagesieve.page.html import parse_html
from pagesieve.rules.orphans import drop_orphan_headings
from pagesieve.removal import RemovalLog

STORY = "<p>" + "The harbour stays closed while the storm passes over the coast tonight. " * 6 + "</p>"


def _blocks(html: str):
    page = parse_html(html)
    return segment(page.root)


def _keep(blocks, noise_words=("Share", "Twitter", "Related", "teaser")):
    return [not any(w in b.text for w in noise_words) or b.tag.startswith("h") for b in blocks]


def test_a_heading_over_a_removed_section_goes_and_says_why():
    blocks = _blocks(f"""<html><body><article><div><h2>Share this page</h2><ul><li><a href="/t">Twitter share</a></li>
    <li><a href="/f">Share on Facebook</a></li></ul></div>{STORY}<h2>What comes next</h2>{STORY}
    <h3>Related stories</h3><ul><li>Related teaser one</li><li>Related teaser two</li></ul></article></body></html>""")
    keep = _keep(blocks)
    log = RemovalLog()
    assert drop_orphan_headings(blocks, keep, log) == 2
    kept_headings = [b.text for b in blocks if keep[b.index] and b.tag in ("h2", "h3")]
    assert kept_headings == ["What comes next"]
    share = next(b for b in blocks if b.text == "Share this page")
    assert log.reason(share.index).rule == "orphan-heading" and log.reason(share.index).evidence["section_chars"] > 0


def test_headings_that_are_the_content_stay():
    # a listing's headlines one after another: no removed block under them, nothing to orphan
    listing = _blocks("<html><body><main>" + "".join(f"<h3>Headline number {i} of the day</h3>" for i in range(6))
                      + "</main></body></html>")
    keep = [True] * len(listing)
    assert drop_orphan_headings(listing, keep) == 0 and all(keep)
    # a heading whose section has a kept subsection with text stays, as does the subsection's;
    # a heading over the story that follows its own box is not that box's
    nested = _blocks(f"<html><body><h2>Background</h2><p>Share this widget</p><h3>Earlier storms</h3>{STORY}</body></html>")
    keep = _keep(nested)
    assert drop_orphan_headings(nested, keep) == 0
    assert [b.text for b in nested if keep[b.index] and b.tag.startswith("h")] == ["Background", "Earlier storms"]


def test_the_reader_body_does_not_open_with_an_orphan_heading():
    article = extract(f"""<html><head><title>Storm closes the harbour</title></head><body><article>
    <h1>Storm closes the harbour</h1><div class="sharing"><h2>Share this page</h2>
    <ul class="share-bar"><li><a href="https://twitter.com/share">Twitter</a></li><li><a href="https://facebook.com/share">Facebook</a></li>
    <li><a href="mailto:?subject=storm">Email</a></li></ul></div>{STORY}{STORY}</article></body></html>""", url="https://news.example/storm")
    assert "Share this page" not in article.html and "Share this page" not in article.text
    assert article.text.startswith("The harbour stays closed")
