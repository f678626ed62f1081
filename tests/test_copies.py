"""A short line shown twice in a row leaves the article once (host/pagesieve/rules/copies.py, issue 62:
captions and credits kept twice)."""

from __future__ import annotations

from pagesieve.blocks.segment import segment
from pagesieve.extract import SETTLE_RULES, extract
from pagesieve.page.html import parse_html
from pagesieve.removal import RemovalLog
from pagesieve.rules.copies import COPY_MAX_CHARS, COPY_MIN_CHARS, drop_adjacent_copies

CAPTION = "The mill wheel turning again after forty years."


def _blocks(html):
    page = parse_html(html)
    return segment(page.root)


def test_a_caption_repeated_on_the_next_line_is_kept_once():
    blocks = _blocks(f"<html><body><div><p>{CAPTION}</p><p>{CAPTION}</p><p>The council met on Tuesday.</p></div></body></html>")
    keep = [b.element.tag == "p" for b in blocks]
    log = RemovalLog()
    assert drop_adjacent_copies(blocks, keep, log) == 1
    kept = [b.text for b in blocks if keep[b.index]]
    assert kept == [CAPTION, "The council met on Tuesday."]
    dropped = [i for i in range(len(blocks)) if log.reason(i) is not None]
    assert [log.reason(i).rule for i in dropped] == ["adjacent-copy"]


def test_copies_apart_long_or_short_and_dropped_lines_stay():
    long_line = "A paragraph that a page repeats on purpose, as a refrain. " * 5
    short = "Share"
    html = ("<html><body><div>"
            f"<p>{CAPTION}</p><p>Between them, a line of its own.</p><p>{CAPTION}</p>"
            f"<p>{long_line}</p><p>{long_line}</p>"
            f"<p>{short}</p><p>{short}</p>"
            "</div></body></html>")
    blocks = _blocks(html)
    assert len(" ".join(long_line.split())) > COPY_MAX_CHARS and len(short) < COPY_MIN_CHARS
    keep = [b.element.tag == "p" for b in blocks]
    assert drop_adjacent_copies(blocks, keep) == 0
    # a copy whose first showing the page dropped is the one the reader sees
    blocks = _blocks(f"<html><body><div><p>{CAPTION}</p><p>{CAPTION}</p></div></body></html>")
    keep = [b.element.tag == "p" for b in blocks]
    first = next(b.index for b in blocks if b.text == CAPTION)
    keep[first] = False
    assert drop_adjacent_copies(blocks, keep) == 0
    assert [b.text for b in blocks if keep[b.index]] == [CAPTION]


def test_the_rule_runs_with_the_page_rules_on_a_real_page(datasets_dir):
    """big9's 2005_angelina_1 (Fox News): the photo's caption is in the page twice, one after the
    other; the reader showed it twice under the header (tests/e2e: chromium-reader-real-byline.png)."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    assert "copies" in SETTLE_RULES
    ds = load_dataset(datasets_dir / "big9")
    article = extract(read_page(ds, "2005_angelina_1"), ds.record("2005_angelina_1").url)
    assert article.text.count("May 21: Brad Pitt and Angelina Jolie arrive in Cannes, France.") == 1
    assert "had its first screening Monday morning at the Cannes Film Festival" in article.text
