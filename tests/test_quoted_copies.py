"""A post quoted again in a reply leaves the thread's text once (host/pagesieve/rules/quotes.py,
issue 62: kept noise of class "duplicate" on forum pages)."""

from __future__ import annotations

from pathlib import Path

from lxml import html as lxml_html

from conftest import shared_dataset
from pagesieve.blocks.segment import segment
from pagesieve.extract import SETTLE_RULES, extract
from pagesieve.page.html import parse_html
from pagesieve.removal import RemovalLog
from pagesieve.rules.quotes import QUOTE_MIN_CHARS, copies_shown, drop_quoted_copies
from pagesieve_dev.evaluation.datasets import read_page

POST = "I upgraded last spring and the battery still lasts two full days with the screen on."
REPLY = "Same here, although mine lost a little after the last update."


def _blocks(html: str):
    return segment(parse_html(html).root)


def _thread(*posts: str) -> str:
    return "<html><body><div class='thread'>" + "".join(f"<article class='post'>{p}</article>" for p in posts) + "</div></body></html>"


def test_a_reply_quoting_an_earlier_post_keeps_its_own_words_and_not_the_copy():
    blocks = _blocks(_thread(f"<p>{POST}</p>", f"<blockquote><p>{POST}</p></blockquote><p>{REPLY}</p>"))
    keep = [b.tag == "p" for b in blocks]
    log = RemovalLog()
    assert drop_quoted_copies(blocks, keep, log) == 1
    assert [b.text for b in blocks if keep[b.index]] == [POST, REPLY]
    dropped = next(b.index for b in blocks if b.tag == "p" and not keep[b.index])
    assert log.reason(dropped).rule == "quoted-copy"


def test_a_quote_with_the_forums_addition_or_cut_short_is_a_copy_too():
    """XenForo quotes a post with its attachment's mention ("View attachment 2028258", wcxb_dev
    0513); a quote may hold the post's beginning alone. A quote that adds more than a fifth of
    its own is no copy."""
    post = POST + " Still, the charger gets warm and I keep it off the bed at night."
    own = POST + " And then a whole new paragraph of my own, nearly as long as the post itself."
    blocks = _blocks(_thread(f"<p>{post}</p>",
                             f"<blockquote><p>{post} View attachment 2028258</p></blockquote><p>{REPLY}</p>",
                             f"<blockquote><p>{POST}</p></blockquote>",  # the post's beginning
                             f"<blockquote><p>{own}</p></blockquote>"))
    keep = [b.tag == "p" for b in blocks]
    assert drop_quoted_copies(blocks, keep) == 2
    assert [b.text for b in blocks if keep[b.index]] == [post, REPLY, own]
    assert copies_shown(post[:60], {post}) and not copies_shown(REPLY + " " + POST, {POST})


def test_quotes_of_nothing_shown_before_short_quotes_and_copies_of_quotes_stay():
    short = "Thanks, that fixed it for me too."
    assert len(short) < QUOTE_MIN_CHARS
    html = _thread(
        f"<blockquote><p>{POST}</p></blockquote><p>{REPLY}</p>",  # quoted first: its first showing
        f"<blockquote><p>{POST}</p></blockquote>",  # a copy of a text that is itself in a quote
        f"<p>{short}</p>", f"<blockquote><p>{short}</p></blockquote>",
    )
    blocks = _blocks(html)
    keep = [b.tag == "p" for b in blocks]
    assert drop_quoted_copies(blocks, keep) == 0
    # a copy whose first showing the page dropped is the one the reader sees
    blocks = _blocks(_thread(f"<p>{POST}</p>", f"<blockquote><p>{POST}</p></blockquote>"))
    keep = [b.tag == "p" for b in blocks]
    keep[next(b.index for b in blocks if b.tag == "p")] = False
    assert drop_quoted_copies(blocks, keep) == 0
    assert "quotes" in SETTLE_RULES


def test_a_xenforo_thread_shows_the_quoted_post_once(datasets_dir: Path):
    """wcxb_dev 2081 (a XenForo thread): the question's three paragraphs were in the text twice,
    once as the first post and once in the reply that quotes it (``blockquote.bbCodeBlock``); on
    0513 the quote of a post with a picture ends "View attachment 2028258"."""
    wcxb = shared_dataset(datasets_dir, "wcxb_dev")
    article = extract(read_page(wcxb, "2081"), url=wcxb.record("2081").url)
    opening = "Hello, my name is Tomas and I come from the Czech Republic."
    assert article.text.count(opening) == 1
    shown = " ".join(lxml_html.fromstring(article.html).text_content().split())  # what the reader shows
    assert shown.count(opening) == 1
    # XenForo again (forums.macrumors.com): the quote adds the post's attachment to its text
    article = extract(read_page(wcxb, "0513"), url=wcxb.record("0513").url)
    assert article.text.count("Keep in mind you need to turn Messages in iCloud off on all your devices") == 1
