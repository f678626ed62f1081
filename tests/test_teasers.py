"""Teaser runs around an article (issue 47, kept noise class 2; host/pagesieve/rules/teasers.py): on an
article page the "headline + summary" cards led by links to the site's other pages leave the
article; a collection's cards, and a list of links inside the article's body, stay."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pytest

from pagesieve.classify.page_type import PAGE_TYPES
from pagesieve.crawl.rows import extract_html
from pagesieve.explain import log_lines, removal_log
from pagesieve.extract import SETTLE_RULES, extract, judge_page
from pagesieve.blocks.signals import main_text_run
from pagesieve.page.html import parse_html
from pagesieve.rules.teasers import drop_teaser_runs, link_led, other_page_of_site, teaser_runs

ARTICLE = np.eye(len(PAGE_TYPES))[PAGE_TYPES.index("article")]
COLLECTION = np.eye(len(PAGE_TYPES))[PAGE_TYPES.index("collection")]
URL = "https://news.example.org/2025/06/harbour-reopens"
BODY = [
    "The harbour reopened on Tuesday after three weeks of repairs to the northern sea wall, which a winter storm had breached.",
    "Fishing boats queued at dawn to unload their first full catch since the closure, and the market opened an hour early.",
    "Engineers said the new wall stands a metre higher than the old one and should hold against a storm twice as strong.",
    "The council will pay for the repairs from its reserve fund and has asked the national government for a grant.",
    "Harbour traders said the closure had cost them most of the spring season, when visitors usually return to the town.",
    "A public meeting on the future of the harbour will be held at the town hall next Thursday evening at seven.",
]
TEASERS = [
    ("/2025/06/bridge-vote", "Council delays the bridge vote", "Members asked for a new traffic study before they decide."),
    ("/2025/06/ferry-timetable", "Summer ferry timetable announced", "Extra sailings on weekends from the first of July."),
    ("/2025/05/lifeboat-crew", "Lifeboat crew honoured for rescue", "Five volunteers saved two walkers cut off by the tide."),
    ("/2025/05/market-hall", "Market hall to get a new roof", "Work starts in September and will take four months."),
]


def _cards(teasers, href_prefix: str = "") -> str:
    return "".join(f'<div class="card card-{k}"><h3><a href="{href_prefix}{href}">{title}</a></h3><p>{summary}</p></div>'
                   for k, (href, title, summary) in enumerate(teasers))


def _page(around: str = "", inside: str = "") -> str:
    body = "".join(f"<p>{s}</p>" for s in BODY)
    return (f"<html><head><title>Harbour reopens</title></head><body><article><h1>Harbour reopens</h1>{body}{inside}"
            f"</article>{around}</body></html>")


def test_link_led_reads_the_first_text_of_a_card():
    host = "news.example.org"
    led = parse_html('<div><a href="/a/b"><img src="x.jpg"></a><h3><a href="https://elsewhere.com/x">Title</a></h3></div>')
    assert link_led(led.root.find(".//div"), host)  # a picture link to the site leads
    said = parse_html('<div>Sponsored: <a href="/a/b">Title</a></div>')
    assert not link_led(said.root.find(".//div"), host)  # text before the link
    away = parse_html('<div><a href="https://elsewhere.com/story">Title</a> and a summary</div>')
    assert not link_led(away.root.find(".//div"), host)
    assert other_page_of_site("https://www.news.example.org/2025/x", host)
    assert not other_page_of_site("/", host) and not other_page_of_site("#top", host)
    assert not other_page_of_site("mailto:desk@news.example.org", host)


def test_a_run_of_cards_after_the_article_leaves_it_and_says_why():
    analysis, keep = judge_page(parse_html(_page(around=f"<aside><h2>More stories</h2>{_cards(TEASERS)}</aside>"), url=URL),
                                title_only=False)
    kept = [b.text for b in analysis.blocks if keep[b.index]]
    found = teaser_runs(analysis.blocks, URL)
    assert [len(led) for _members, led in found] == [4]
    for block in analysis.blocks:
        if block.text.startswith(("Council delays", "Members asked")):
            assert not keep[block.index]
    # the rule itself on these verdicts: every card text the classifier kept goes, the body stays
    again = [True] * len(analysis.blocks)
    dropped = drop_teaser_runs(analysis.blocks, again, URL, ARTICLE, analysis.removals)
    assert dropped >= 8
    left = [b.text for b in analysis.blocks if again[b.index] and b.text]
    assert all(s in left for s in BODY) and not any(t in left for _h, t, s in TEASERS)
    reason = analysis.removals.reason(next(b.index for b in analysis.blocks if b.text == TEASERS[0][2]))
    assert reason.rule == "teaser-run" and reason.evidence == {"run": 4, "parent": "aside", "side": "after"}
    assert all(s in kept for s in BODY)


def test_cards_stay_inside_the_body_on_other_sites_and_on_a_collection():
    blocks_of = lambda html: judge_page(parse_html(html, url=URL), title_only=False)[0].blocks  # noqa: E731
    inside = blocks_of(_page(inside=_cards(TEASERS)))  # a "read also" run inside the article's text
    keep = [True] * len(inside)
    assert teaser_runs(inside, URL) and drop_teaser_runs(inside, keep, URL, ARTICLE) == 0
    away = blocks_of(_page(around=_cards(TEASERS, "https://other.example.com")))  # links to another site
    keep = [True] * len(away)
    assert not teaser_runs(away, URL) and drop_teaser_runs(away, keep, URL, ARTICLE) == 0
    around = blocks_of(_page(around=_cards(TEASERS)))
    keep = [True] * len(around)
    assert drop_teaser_runs(around, keep, URL, COLLECTION) == 0 and all(keep)  # a collection's cards are its content
    assert drop_teaser_runs(around, keep, URL, None) == 0  # no page-type stage: left alone
    first, last = main_text_run(around)
    no_body = [not first <= i <= last for i in range(len(around))]
    assert drop_teaser_runs(around, no_body, URL, ARTICLE) == 0  # the body not kept: no "around" it
    assert drop_teaser_runs(around, keep, URL, ARTICLE) > 0  # the same run on an article page goes


def test_the_rule_is_one_the_gate_can_leave_out():
    assert "teasers" in SETTLE_RULES


# --------------------------------------------------------------------------- real pages


def _dataset_page(datasets_dir, dataset: str, page_id: str):
    folder = datasets_dir / dataset
    row = next(json.loads(line) for line in (folder / "index.jsonl").open(encoding="utf-8") if f'"id": "{page_id}"' in line)
    html = gzip.decompress((folder / "pages" / f"{page_id}.html.gz").read_bytes()).decode("utf-8", "replace")
    truth = (folder / "truth" / f"{page_id}.txt").read_text(encoding="utf-8")
    return row, html, truth


def test_an_article_s_teasers_leave_it_on_a_real_page(datasets_dir):
    # wcxb_dev 0254 (massive.io, an article; a training page of models/split.json): three
    # "headline + summary" cards of the site's other posts, kept by the classifier, none in the truth
    row, html, truth = _dataset_page(datasets_dir, "wcxb_dev", "0254")
    assert row["page_type"] == "article"
    analysis, keep = judge_page(parse_html(html, url=row["url"]), title_only=False, explain=True)
    teasers = [b for b in analysis.blocks if b.tag in ("h2", "p")
               and b.text.startswith(("Automating a Secure AI Data Ingest", "Video proxies for teams"))]
    assert len(teasers) == 2 and not any(t.text in truth for t in teasers)
    assert all(not keep[b.index] and analysis.removals.reason(b.index).rule == "teaser-run" for b in teasers)
    assert any("teaser-run" in line and "side before" in line for line in log_lines(removal_log(analysis, keep)))
    text = extract(html, row["url"]).text
    first_lines = truth.splitlines()[:3]
    assert all(line in text for line in first_lines)  # the article's own body stays
    assert "Automating a Secure AI Data Ingest" not in text
    assert extract_html(html, row["url"], None)[0]["text"] == text  # the crawl path answers the same


def test_a_collection_s_cards_stay_on_a_real_page(datasets_dir):
    # wcxb_dev 4351 (johnsonfitness.com, a collection): its cards are led by links to the site's
    # other pages and lie outside its longest text run, as teasers do; the truth holds them
    row, html, truth = _dataset_page(datasets_dir, "wcxb_dev", "4351")
    assert row["page_type"] == "collection"
    analysis, keep = judge_page(parse_html(html, url=row["url"]), title_only=False)
    assert PAGE_TYPES[int(np.argmax(analysis.page_type))] != "article"
    cards = {"Elevated Savings on Force USA Gyms", "Peloton's New Cross Training Series"}
    in_runs = {analysis.blocks[i].text for _members, led in teaser_runs(analysis.blocks, row["url"])
               for m in led for i in range(m, m + 4) if i < len(analysis.blocks)}
    assert cards <= in_runs and all(c in truth for c in cards)
    as_article = list(keep)
    assert drop_teaser_runs(analysis.blocks, as_article, row["url"], ARTICLE) > 0  # were it an article, they would go
    assert all(c in extract(html, row["url"]).text for c in cards)
