"""Cold start (issue "site templates", opt-in): the reference page fetched for a site with no
history, its link rule, its guard, and the ``history`` / ``clean`` protocol fields."""

from __future__ import annotations

import base64
import json

import pytest

from pagesieve_dev.evaluation.metric import prf
from pagesieve.native.protocol import Host
from pagesieve.page.html import parse_html
from pagesieve.page.to_snapshot import page_to_snapshot
from pagesieve.templates import evidence
from pagesieve.templates.cold_start import page_hrefs, reference_link

PAGE = "https://news.example/2024/05/12/rain-returns/"


def test_the_reference_link_is_the_most_similar_page_of_the_same_origin():
    hrefs = [
        "/",                                      # similarity 0
        "/2024/05/11/dry-spell/",                 # 2 of 4 segments
        "https://news.example/2024/05/12/rain-returns/?page=2",  # the page itself, next page
        "#comments",
        "/2024/05/12/rain-returns/print.pdf",     # a file
        "https://other.example/2024/05/12/x/",    # another origin
        "http://news.example/2024/05/12/y/",      # another scheme
        "/2024/05/12/flood-warning/#top",         # 3 of 4: the best, fragment dropped
        "mailto:desk@news.example",
        "javascript:void(0)",
        "/2024/05/12/storm/",                     # 3 of 4 too: a tie goes to the first
    ]
    assert reference_link(PAGE, hrefs) == "https://news.example/2024/05/12/flood-warning/"
    assert reference_link(PAGE, hrefs[:7]) == "https://news.example/2024/05/11/dry-spell/"
    assert reference_link(PAGE, ["#a", "?page=2", "x.jpg"]) is None
    assert reference_link("file:///tmp/a.html", ["b.html"]) is None


def _dragnet(datasets_dir, page_id):
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page, read_truth

    ds = load_dataset(datasets_dir / "dragnet")
    record = ds.record(page_id)
    return ds, record.url, read_page(ds, page_id), read_truth(ds, page_id)


def _ask(host, message):
    reply = host.handle(json.dumps({"v": 1, "id": 1, **message}).encode())
    assert reply is not None
    return reply


def _clean(host, url, html, reference=None, mode="hide"):
    snapshot = page_to_snapshot(parse_html(html, url=url))
    message = {"type": "clean", "mode": mode, "snapshot": snapshot}
    if reference is not None:
        message["reference"] = reference
    return snapshot, _ask(host, message)


def _text_of(snapshot, node_id):
    from pagesieve.page.snapshot import parse_snapshot

    page = parse_snapshot(snapshot)
    found = page.root.xpath(f"//*[@data-ps-id='{node_id}']")
    return " ".join(found[0].itertext()) if found else ""


@pytest.fixture
def host(tmp_path):
    h = Host(store_path=tmp_path / "t.sqlite3", labels_path=tmp_path / "labels.sqlite3", library_dir=tmp_path / "lib")
    yield h
    h.close()


def test_a_fetched_reference_page_hides_what_the_two_pages_share(host, datasets_dir):
    # dragnet R573 (thecarconnection.com) links to R571; both carry the site's reader counters
    # ("45 COMMENTS POSTED", "#10 LEADERBOARD RANK"), which the classifier keeps on R573 without
    # confidence and the diff with R571 hides (dragnet's truth lacks them).
    ds, url, html, truth = _dragnet(datasets_dir, "R573")
    link = reference_link(url, page_hrefs(parse_html(html, url=url).root))
    assert link == ds.record("R571").url
    from pagesieve_dev.evaluation.datasets import read_page

    assert _ask(host, {"type": "history", "url": url}) == {
        "v": 1, "id": 1, "ok": True, "type": "history", "site": "thecarconnection.com", "pages": 0, "reference": False}
    data = base64.b64encode(read_page(ds, "R571").encode()).decode()
    snapshot, alone = _clean(host, url, html)
    _, cold = _clean(host, url, html, {"url": link, "data": data})
    assert alone["ok"] and cold["ok"] and alone["reference"] is None and cold["reference"] == link
    newly = [_text_of(snapshot, n) for n in set(cold["hide"]) - set(alone["hide"])]
    assert any("LEADERBOARD RANK" in text for text in newly)
    assert "leaderboard" not in truth.lower()
    assert set(cold["content"]) < set(alone["content"])


def test_a_fetched_reference_page_does_not_hide_what_the_classifier_is_confident_of(host, datasets_dir):
    # dragnet R513 (blogs.nfl.com) links to R514 of the same day; both carry the site's
    # comment-form rules, which dragnet's truth counts as content and the classifier keeps on
    # R513 with a probability above CONFIDENT_CONTENT: the diff names them, the guard keeps them.
    from pagesieve.extract import judge_page
    from pagesieve.templates.cold_start import reference_templates
    from pagesieve.templates.learn import summarise
    from pagesieve_dev.evaluation.datasets import read_page

    ds, url, html, truth = _dragnet(datasets_dir, "R513")
    link = reference_link(url, page_hrefs(parse_html(html, url=url).root))
    assert link == ds.record("R514").url
    rules = "Comments may be no longer than 2000 characters"
    assert rules in truth
    reference = summarise(parse_html(read_page(ds, "R514"), url=link)).fingerprints
    templates = reference_templates("blogs.nfl.com", link, reference)
    analysis, keep = judge_page(parse_html(html, url=url))
    [block] = [b.index for b in analysis.blocks if b.text.startswith(rules)]
    kinds = ("library", "diff")
    named = evidence.page_evidence(analysis.blocks, templates, kinds)
    assert named.in_reference[block] and keep[block]
    assert analysis.content_scores[block] >= evidence.CONFIDENT_CONTENT
    data = base64.b64encode(read_page(ds, "R514").encode()).decode()
    snapshot, alone = _clean(host, url, html)
    _, cold = _clean(host, url, html, {"url": link, "data": data})
    assert cold["reference"] == link
    assert not any(rules in _text_of(snapshot, n) for n in cold["hide"])
    assert any(rules in _text_of(snapshot, n) for n in cold["content"])


def test_a_reference_holding_the_same_text_is_not_used(host, datasets_dir, monkeypatch):
    # dragnet 176 and 273 (paulocoelhoblog.com) are two short posts of one day that link to
    # each other; half of 176's kept text is on 273 too, and all of it is the post.
    ds, url, html, truth = _dragnet(datasets_dir, "176")
    from pagesieve_dev.evaluation.datasets import read_page

    reference = {"url": ds.record("273").url, "data": base64.b64encode(read_page(ds, "273").encode()).decode()}
    _, reply = _clean(host, url, html, reference, mode="reader")
    assert reply["reference"] == reference["url"]
    # the truth keeps the post's header: scored as the header then the body (issue 52)
    assert prf("\n".join(reply["article"]["header"] + [reply["article"]["text"]]), truth)[2] > 0.95
    monkeypatch.setattr(evidence, "COLD_START_DUPLICATE_SHARE", evidence.DUPLICATE_SHARE)
    _, unguarded = _clean(host, url, html, reference, mode="reader")
    assert prf("\n".join(unguarded["article"]["header"] + [unguarded["article"]["text"]]), truth)[2] < 0.6


def test_learned_history_wins_over_a_fetched_reference(host, datasets_dir):
    ds, url, html, _truth = _dragnet(datasets_dir, "R513")
    from pagesieve_dev.evaluation.datasets import read_page

    other = ds.record("R515").url
    learned = _ask(host, {"type": "learn", "snapshot": page_to_snapshot(parse_html(read_page(ds, "R515"), url=other))})
    assert learned["learned"] is True
    assert _ask(host, {"type": "history", "url": url})["reference"] is True
    assert _ask(host, {"type": "history", "url": other})["reference"] is False  # the page itself is no reference
    data = base64.b64encode(read_page(ds, "R514").encode()).decode()
    _, reply = _clean(host, url, html, {"url": ds.record("R514").url, "data": data})
    assert reply["ok"] and reply["reference"] is None and reply["site_pages"] == 1


def test_a_bad_reference_gets_an_error_or_a_warning_and_the_page_its_answer(host, example_page):
    html = example_page.read_text()
    url = "https://hillkitchen.example/posts/sourdough-altitude/"
    for bad, code in (("x", 8), ({"url": "ftp://hillkitchen.example/a"}, 8),
                      ({"url": "https://hillkitchen.example/a", "data": "not base64!"}, 8)):
        _, reply = _clean(host, url, html, bad)
        assert not reply["ok"] and reply["error"]["code"] == code
    for reference, reason in (
        ({"url": "https://elsewhere.example/a", "data": base64.b64encode(b"<p>hi</p>").decode()}, "is not a page of"),
        ({"url": "https://hillkitchen.example/a", "data": base64.b64encode(b"\x00\x01\x02" * 100).decode()}, "binary"),
        ({"url": url + "#top", "data": base64.b64encode(html.encode()).decode()}, "the page itself"),
    ):
        _, reply = _clean(host, url, html, reference)
        assert reply["ok"] and reply["reference"] is None and reply["hide"]
        assert any(reason in w for w in reply["warnings"]), reply["warnings"]
    assert _ask(host, {"type": "history"})["error"]["code"] == 8
    assert _ask(host, {"type": "ping"})["ok"]
