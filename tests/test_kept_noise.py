"""pagesieve-dev kept-noise: the output lines the truth lacks, traced and classed
(dev/pagesieve_dev/evaluation/kept_lines.py, noise_classes.py, kept_noise.py)."""

from __future__ import annotations

import json

import pytest

from pagesieve.article.model import Metadata
from pagesieve_dev.evaluation.kept_lines import PageTrace, noise_lines
from pagesieve_dev.evaluation.noise_classes import block_facts, classify_line


def _page(datasets_dir, name: str, page_id: str):
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page, read_truth

    path = datasets_dir / name
    if not path.is_dir():
        pytest.skip(f"dataset {name} not found under {datasets_dir}")
    ds = load_dataset(path)
    return read_page(ds, page_id), ds.record(page_id).url, read_truth(ds, page_id)


def test_the_second_copy_of_a_truth_line_is_noise_and_repeated():
    total, lines = noise_lines("Harbour wall rebuilt\nThe wall falls.\nHarbour wall rebuilt\nSubscribe now",
                               "Harbour wall rebuilt\nThe wall falls.")
    assert total == 11
    assert [(k, line, repeated) for k, line, _n, _noise, repeated in lines] == [
        (2, "Harbour wall rebuilt", True), (3, "Subscribe now", False)]
    assert [noise for *_rest, noise, _r in lines] == [3, 2]


def test_the_photo_captions_of_a_real_page_stay_out_of_the_text_and_its_headline_is_the_headers(datasets_dir):
    """wcxb_dev/0009 (a travel blog): its figures' captions are not in the truth; pagesieve keeps
    them with their figures in the HTML (complete_structures) and out of the text
    (:func:`pagesieve.article.text.blocks_text`), so the report finds no caption line of ours;
    the headline, which the truth leaves out, is the header's, not the text's."""
    html, url, truth = _page(datasets_dir, "wcxb_dev", "0009")
    trace = PageTrace(html, url)
    _total, lines = trace.own_noise(truth)
    by_text = {line.text: line for line in lines}
    assert "Madeira Airport is the best for plane spotting" not in by_text
    assert sum(1 for line in lines if line.cls == "caption") == 0
    # the truth leaves the headline out, and so does the text now: it is the header's (issue 52)
    assert "How To Book a Flight For Beginners" not in by_text
    # the article's first paragraph is in the truth: not kept noise
    assert all(line.cls != "other" or line.noise_tokens for line in lines)


def test_a_peers_line_is_traced_to_the_page_block_it_came_from(datasets_dir):
    html, url, truth = _page(datasets_dir, "wcxb_dev", "0009")
    trace = PageTrace(html, url)
    # the peer's output: the whole truth, then a caption and a line of no page block
    peer_text = truth + "\nMadeira Airport is the best for plane spotting\nSome words no page holds at all"
    _total, lines = trace.peer_noise(peer_text, truth)
    assert [(line.cls, line.tag) for line in lines] == [("caption", "figcaption"), ("other", None)]


def _facts_of(html: str, url: str = "https://news.example/2024/story-one"):
    from pagesieve.extract import analyse
    from pagesieve.page.html import parse_html

    analysis = analyse(parse_html(html, url=url))
    facts = block_facts(analysis.blocks, url)
    return {b.text: f for b, f in zip(analysis.blocks, facts) if f is not None}


def test_link_led_cards_of_the_same_site_are_teasers_and_external_ones_are_not():
    cards = "".join(f'<div class="card c{i}"><a href="/2024/story-{i}">Story {i} headline</a>'
                    f'<p>Summary number {i} of a story told at length.</p></div>' for i in range(4))
    shop = "".join(f'<div class="ad"><a href="https://shop.example/item-{i}">Item {i}</a>'
                   f'<p>Shop blurb {i} here.</p></div>' for i in range(4))
    facts = _facts_of(f"<html><body><article><p>Body text.</p></article><section>{cards}</section>"
                      f"<section>{shop}</section></body></html>")
    assert classify_line("Summary number 2 of a story told at length.", facts["Summary number 2 of a story told at length."],
                         None, False) == ("teaser", "link-led run")
    assert classify_line("Shop blurb 1 here.", facts["Shop blurb 1 here."], None, False)[0] != "teaser"


def test_text_cues_hold_without_structure():
    meta = Metadata(title="Harbour wall to be rebuilt after winter storms", byline="Ann Lee")
    assert classify_line("Harbour wall to be rebuilt after winter storms", None, meta, False) == ("header", "title")
    assert classify_line("Ann Lee, Coast Times", None, meta, False) == ("header", "byline")
    assert classify_line("10 March 2015", None, meta, False) == ("header", "date")
    assert classify_line("Write to ann@coast.example with tips", None, meta, False) == ("contact", "email")
    assert classify_line("3 / 8", None, meta, False) == ("caption", "counter")
    assert classify_line("A sentence of the body", None, meta, True) == ("duplicate", "repeated")
    assert classify_line("A sentence of the body", None, meta, False) == ("other", "")


def test_the_command_prints_the_classes_and_the_json_adds_up(datasets_dir, capsys):
    from pagesieve_dev.cli import main

    if not (datasets_dir / "wcxb_dev").is_dir():
        pytest.skip("dataset wcxb_dev not found")
    assert main(["kept-noise", str(datasets_dir / "wcxb_dev"), "--limit", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ours = out["datasets"][0]["extractors"]["pagesieve"]
    assert ours["pages"] == 2
    assert ours["classes"]["total"]["tokens"] == sum(line["noise_tokens"] for line in ours["lines"])
    assert set(ours["by_type"]) >= {"article"}
    assert main(["kept-noise", str(datasets_dir / "wcxb_dev"), "--limit", "2"]) == 0
    text = capsys.readouterr().out
    assert "caption (captions, credits, gallery chrome)" in text and "by what kept them" in text


def test_a_longer_line_naming_one_of_the_authors_is_a_contribution_line():
    meta = Metadata(title="Phones of the year", byline="Jared Newman, Sam Singleton")
    bio = "Jared Newman has been a freelance technology journalist for more than 15 years and writes a newsletter"
    assert classify_line(bio, None, meta, False) == ("contact", "names the author")
    assert classify_line("By Sam Singleton", None, meta, False) == ("header", "byline")
    assert classify_line("Jared is a name alone", None, Metadata(byline="Jared"), False) == ("other", "")
