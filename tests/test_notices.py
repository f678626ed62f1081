"""Consent notices and newsletter offers from HTML alone (issue 48; host/pagesieve/rules/notices.py):
outside the article they leave it, inside it they stay; every overlay fixture read by ``extract``
keeps the whole story and none of its layers' text."""

from __future__ import annotations

import pytest

from e2e.overlays import FIXTURES, STORY, page_html
from pagesieve.extract import extract, judge_page
from pagesieve.page.html import parse_html
from pagesieve.rules.notices import notice_kind


@pytest.mark.parametrize("name", list(FIXTURES))
def test_extract_keeps_the_story_and_none_of_the_layers_text(name):
    article = extract(page_html(name))
    assert all(sentence in article.text for sentence in STORY)
    assert not [t for t in FIXTURES[name].texts if t[:40] in article.text]


@pytest.mark.parametrize("text, kind", [
    ("We use cookies to personalise content and ads, and share information with our partners.", "consent-notice"),
    ("Wir verwenden Cookies. Mit Ihrer Einwilligung teilen wir Daten mit Partnern (Datenschutz).", "consent-notice"),
    ("本网站使用Cookie。继续浏览即表示您同意我们的隐私政策。", "consent-notice"),
    ("Get the latest technology news delivered to your inbox.", "newsletter-offer"),
    ("Bake the cookies for twelve minutes, until the edges turn golden.", None),
    ("The cookies were a gift from our partners at the bakery.", None),  # one cue is no notice
    ("Our newsletter archive goes back to 1998.", None),
])
def test_what_a_notice_says(text, kind):
    found = notice_kind(text)
    assert (found[0] if found else None) == kind


def test_a_consent_notice_inside_the_article_is_the_article_s():
    # a story about consent banners quotes one: inside the main region it stays
    quote = "We and our partners use cookies to store and access personal data on your device, with your consent."
    story = "".join(f"<p>{s}</p>" for s in STORY)
    html = f"<html><body><article><h1>Banners</h1>{story}<p>{quote}</p></article><div><p>{quote} (footer)</p></div></body></html>"
    page = parse_html(html)
    analysis, keep = judge_page(page, title_only=False)
    kept = " ".join(b.text for b in analysis.blocks if keep[b.index])
    assert quote in kept and f"{quote} (footer)" not in kept
    dropped = [analysis.removals.reason(b.index) for b in analysis.blocks if b.text.endswith("(footer)")]
    assert dropped and dropped[0].rule == "consent-notice" and "cookies" in dropped[0].evidence["words"]
