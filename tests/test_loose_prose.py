"""A paragraph written loose in a story's container is kept with the story
(host/pagesieve/rules/loose.py, issue 62: the reader reads the body)."""

from __future__ import annotations

from pagesieve.blocks.segment import segment
from pagesieve.extract import SETTLE_RULES, extract
from pagesieve.page.html import parse_html
from pagesieve.removal import Removal, RemovalLog
from pagesieve.rules.loose import keep_loose_prose

LEAD = "HOUSTON - Hurricane Rita closed in on the Texas Gulf Coast with howling winds on Thursday night."
STORY = ("<p>The storm's march toward land sent hundreds of thousands of people fleeing the city.</p>"
         "<p>In all, nearly two million people along the coasts were urged to get out of the way.</p>")


def _judged(body: str) -> tuple[list, list[bool]]:
    """The blocks of ``body`` in a story container, with the blocks that hold no other block kept
    (the paragraphs) and the containers not (as the classifier left big9's 2005_rita)."""
    blocks = segment(parse_html(f"<html><body><div id='storybody'>{body}</div></body></html>").root)
    return blocks, [b.chars > 0 and not b.children for b in blocks]


def _container(blocks):
    [story] = [b for b in blocks if b.element.get("id") == "storybody"]
    return story


def test_a_lead_written_loose_in_the_story_container_is_kept():
    blocks, keep = _judged(f"<div class='storyhdr'><p>By Mike Graczyk</p></div>{LEAD}{STORY}")
    story = _container(blocks)
    assert story.text.startswith("HOUSTON") and not keep[story.index]
    log = RemovalLog()
    assert keep_loose_prose(blocks, keep, log) == [story.index]
    assert keep[story.index] and log.kept_by[story.index] == "loose"


def test_loose_text_that_is_no_paragraph_of_the_story_stays_out():
    # a caption, a run of links, a short label, text that ends as no sentence ends
    for body in (f"<figure><img src='a.jpg'><figcaption>{LEAD}<p>Photo: Reuters.</p></figcaption></figure>",
                 f"<a href='/a'>{LEAD}</a> More. {STORY}",
                 f"Updated 9:41 am. {STORY}",
                 f"{LEAD[:-1]} and more from our partners {STORY}"):
        blocks, keep = _judged(body)
        before = list(keep)
        assert keep_loose_prose(blocks, keep) == [], body
        assert keep == before
    # the story's paragraphs were not kept: the container is no story body
    blocks, keep = _judged(f"{LEAD}{STORY}<ul><li>{'Related story one, and two. ' * 20}</li></ul>")
    keep = [False] * len(blocks)
    assert keep_loose_prose(blocks, keep) == []


def test_what_a_page_rule_removed_stays_removed():
    blocks, keep = _judged(f"{LEAD}{STORY}")
    story = _container(blocks)
    log = RemovalLog()
    log.drop(story.index, Removal("post-rule", "notice", {}))
    assert keep_loose_prose(blocks, keep, log) == []
    assert not keep[story.index]


def test_the_lead_of_a_real_yahoo_story_reaches_the_reader(datasets_dir):
    """big9 2005_rita (news.yahoo.com, 2005): the AP story's first paragraph is bare text in
    ``div#storybody``; the reader opened with the second."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page, read_truth

    assert "loose" in SETTLE_RULES
    ds = load_dataset(datasets_dir / "big9")
    article = extract(read_page(ds, "2005_rita"), ds.record("2005_rita").url)
    lead = "HOUSTON - Hurricane Rita closed in on the Texas Gulf Coast"
    assert lead in read_truth(ds, "2005_rita")
    assert lead in article.text and lead in article.html
    assert article.text.startswith(lead)  # the byline line above it is the header's
    assert article.html.index(lead) < article.html.index("The storm's march toward land")
    assert article.header[1].startswith("By MIKE GRACZYK")
