"""The host's side of an article over several pages (issue 53): the ``clean`` reader reply says
where the article goes on, and ``follow`` cleans each following page that the extension fetched,
without what an earlier page already showed. Pages are our own fixtures (pagination_fixtures)."""

from __future__ import annotations

import base64
import json

import pytest
from pagination_fixtures import STANDFIRST, next_article_story, path_story, query_story

from pagesieve.native.protocol import Host
from pagesieve.page.html import parse_html
from pagesieve.page.to_snapshot import page_to_snapshot

BASE = "https://coast.example"


@pytest.fixture
def host(tmp_path):
    h = Host(store_path=tmp_path / "t.sqlite3", library_dir=tmp_path / "lib", labels_path=tmp_path / "l.sqlite3")
    yield h
    h.close()


def ask(host, **message):
    return host.handle(json.dumps({"v": 1, "id": 1, **message}).encode())


def reader(host, html: str, url: str) -> dict:
    snapshot = page_to_snapshot(parse_html(html.encode(), url=url))
    snapshot["url"] = url
    reply = ask(host, type="clean", mode="reader", snapshot=snapshot)
    assert reply["ok"], reply
    return reply["article"]


def follow(host, html: str, url: str, title: str, seen: list[str], earlier: list[str]) -> dict:
    reply = ask(host, type="follow", url=url, data=base64.b64encode(html.encode()).decode(), title=title, seen=seen,
                earlier=earlier)
    assert reply["ok"], reply
    return reply


def paragraphs(text: str) -> list[int]:
    return [int(line.split()[1]) for line in text.split("\n") if line.startswith("Paragraph ")]


def test_the_reader_follows_a_query_paged_article_to_its_end_each_paragraph_once(host):
    first = reader(host, query_story(1), f"{BASE}/storm-series")
    assert first["next_page"]["url"] == f"{BASE}/storm-series?page=2" and first["next_page"]["rule"] == "rel-next"
    texts, seen, url = [first["text"]], [f"{BASE}/storm-series"], first["next_page"]["url"]
    rules = []
    for n in (2, 3):
        reply = follow(host, query_story(n), url, first["title"], seen, texts)
        assert reply["same_article"] and reply["article"]["html"].startswith("<div>")
        assert reply["repeated"] >= 1  # the standfirst, shown on page 1 already
        assert STANDFIRST not in reply["article"]["text"] and STANDFIRST not in reply["article"]["html"]
        texts.append(reply["article"]["text"])
        seen.append(url)
        rules.append(reply["next_page"]["rule"])
        url = reply["next_page"]["url"]
    assert url is None and rules == ["rel-next", "no-next-page"]
    assert paragraphs("\n".join(texts)) == list(range(1, 19))
    assert "\n".join(texts).count(STANDFIRST) == 1
    assert "Previous" not in "\n".join(texts)  # the pager is not part of any page's body


def test_a_path_paged_article_with_a_german_pager_is_followed_by_its_pager(host):
    first = reader(host, path_story(1), f"{BASE}/features/lantern-keepers/")
    assert first["next_page"]["url"] == f"{BASE}/features/lantern-keepers/2/" and first["next_page"]["rule"] == "pager"
    second = follow(host, path_story(2), first["next_page"]["url"], first["title"], [f"{BASE}/features/lantern-keepers/"],
                    [first["text"]])
    assert second["same_article"] and paragraphs(second["article"]["text"]) == list(range(7, 13))
    assert second["next_page"]["url"] == f"{BASE}/features/lantern-keepers/3/"


def test_the_next_article_is_not_followed_and_another_story_is_not_the_same_article(host):
    first = reader(host, next_article_story(), f"{BASE}/news/harbour-master-retires")
    assert first["next_page"]["url"] is None
    assert {n["rule"] for n in first["next_page"]["not_followed"]} == {"another-address"}
    # a page whose title is another story's, had it been asked: nothing of it is shown
    other = follow(host, query_story(2), f"{BASE}/storm-series?page=2", first["title"], [f"{BASE}/news/harbour-master-retires"],
                   [first["text"]])
    assert other["same_article"] is False and other["article"] is None


def test_a_follow_request_that_is_wrong_gets_an_error_and_the_host_keeps_serving(host):
    data = base64.b64encode(query_story(2).encode()).decode()
    for message, said in (
        ({"url": "ftp://coast.example/x", "data": data}, "url"),
        ({"url": f"{BASE}/x", "data": "not base64!"}, "base64"),
        ({"url": f"{BASE}/x", "data": data, "seen": "one"}, "seen"),
        ({"url": f"{BASE}/x", "data": data, "earlier": [1, 2]}, "earlier"),
        ({"url": f"{BASE}/x", "data": base64.b64encode(b"\x00\x01\x02").decode()}, f"{BASE}/x"),
    ):
        reply = ask(host, type="follow", **message)
        assert reply["ok"] is False and reply["error"]["code"] == 8 and said in reply["error"]["message"], reply
    assert ask(host, type="ping")["ok"]
