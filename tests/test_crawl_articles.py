"""``pagesieve batch --join-pages`` (issue 53): where a crawl holds an article's other pages, one
row per article with its page count and addresses; the traps stay rows of their own. The WARC file
is written here from our own multi-page fixtures (tests/pagination_fixtures.py)."""

from __future__ import annotations

import gzip
import json

import pytest

pytest.importorskip("fastwarc", reason="the batch extra (pip install 'pagesieve[batch]') is not installed")
pytest.importorskip("distributed", reason="the batch extra (pip install 'pagesieve[batch]') is not installed")

from pagination_fixtures import (  # noqa: E402
    STANDFIRST, comments_story, listing, next_article_story, path_story, query_story,
)

from pagesieve.crawl.output import PAGE_SCHEMA  # noqa: E402

BASE = "https://coast.example"

PAGES = [  # (address, page): out of order, as a crawl meets them
    (f"{BASE}/features/lantern-keepers/3/", path_story(3)),
    (f"{BASE}/storm-series", query_story(1)),
    (f"{BASE}/news/harbour-master-retires", next_article_story()),
    (f"{BASE}/features/lantern-keepers/", path_story(1)),
    (f"{BASE}/storm-series?page=3", query_story(3)),
    (f"{BASE}/pier-memories", comments_story(1)),
    (f"{BASE}/pier-memories?cpage=2", comments_story(2)),
    (f"{BASE}/blog/", listing(1)),
    (f"{BASE}/blog/page/2/", listing(2)),
    (f"{BASE}/storm-series?page=2", query_story(2)),
    (f"{BASE}/features/lantern-keepers/2/", path_story(2)),
]


@pytest.fixture(scope="module")
def crawl(tmp_path_factory):
    from warcio.warcwriter import WARCWriter

    from pagesieve_dev.evaluation.warc_fixture import write_record

    folder = tmp_path_factory.mktemp("paged-crawl")
    with open(folder / "coast.warc.gz", "wb") as f:
        writer = WARCWriter(f, gzip=True)
        for url, html in PAGES:
            write_record(writer, url, html.encode("utf-8"))
    return folder


def _articles(out) -> list[dict]:
    with gzip.open(out / "articles.jsonl.gz", "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def test_join_pages_writes_one_row_per_article_in_page_order(crawl, tmp_path, capsys):
    from pagesieve.cli import main

    out = tmp_path / "out"
    code = main(["batch", str(crawl), "--out", str(out), "--format", "jsonl", "--join-pages", "--workers", "1",
                 "--no-progress"])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "articles: 7 (2 over several pages, joined)" in printed, printed
    articles = {a["url"]: a for a in _articles(out)}
    storm = articles[f"{BASE}/storm-series"]
    assert storm["n_pages"] == 3 and storm["page_urls"] == [f"{BASE}/storm-series", f"{BASE}/storm-series?page=2",
                                                             f"{BASE}/storm-series?page=3"]
    numbers = [int(line.split()[1]) for line in storm["text"].split("\n") if line.startswith("Paragraph ")]
    assert numbers == list(range(1, 19)) and storm["text"].count(STANDFIRST) == 1
    assert storm["n_chars"] == len(storm["text"]) and len(storm["warc_record_ids"]) == 3
    lantern = articles[f"{BASE}/features/lantern-keepers/"]
    assert lantern["n_pages"] == 3 and lantern["page_urls"][-1] == f"{BASE}/features/lantern-keepers/3/"
    # the traps: the next article, older comments and a listing's older posts stay articles of their own
    for url in ("/news/harbour-master-retires", "/pier-memories", "/pier-memories?cpage=2", "/blog/", "/blog/page/2/"):
        assert articles[BASE + url]["n_pages"] == 1, url
    # every record is in exactly one article
    assert sorted(u for a in articles.values() for u in a["page_urls"]) == sorted(u for u, _ in PAGES)
    # the parts keep one row per record, each with where its article goes on
    rows = []
    for part in sorted((out / "parts").glob("*.jsonl.gz")):
        with gzip.open(part, "rt", encoding="utf-8") as f:
            rows.extend(json.loads(line) for line in f)
    assert len(rows) == len(PAGES) and all(list(row) == PAGE_SCHEMA.names for row in rows)
    follows = {row["url"]: row["next_page"] for row in rows}
    assert follows[f"{BASE}/storm-series?page=2"] == f"{BASE}/storm-series?page=3"
    assert follows[f"{BASE}/news/harbour-master-retires"] is None and follows[f"{BASE}/blog/"] is None


def test_without_join_pages_no_articles_file_is_written(crawl, tmp_path, capsys):
    from pagesieve.cli import main

    out = tmp_path / "out"
    assert main(["batch", str(crawl), "--out", str(out), "--format", "jsonl", "--workers", "1", "--no-progress"]) == 0
    assert "articles:" not in capsys.readouterr().out
    assert not (out / "articles.jsonl.gz").exists() and not (out / "articles.parquet").exists()
