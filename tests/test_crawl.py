"""``pagesieve batch``: WARC files made from the shared datasets in, Parquet / JSON lines out.

The WARC files are written with warcio from ``../shared/datasets`` pages
(:mod:`pagesieve_dev.evaluation.warc_fixture`); the tests skip when that folder is absent.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import random
import re
import sys
import tracemalloc
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("fastwarc", reason="the batch extra (pip install 'pagesieve[batch]') is not installed")
pytest.importorskip("distributed", reason="the batch extra (pip install 'pagesieve[batch]') is not installed")

import pyarrow.parquet as pq  # noqa: E402

from pagesieve.crawl.cluster import close_client, open_client  # noqa: E402
from pagesieve.crawl.job import BatchOptions, run_batch  # noqa: E402
from pagesieve.crawl.learn import learn_part  # noqa: E402
from pagesieve.crawl.output import PAGE_SCHEMA, read_part  # noqa: E402
from pagesieve.crawl.records import Skipped, WarcPage, read_warc  # noqa: E402
from pagesieve_dev.evaluation.datasets import load_dataset, read_page, read_truth  # noqa: E402
from pagesieve_dev.evaluation.metric import macro, prf  # noqa: E402
from pagesieve_dev.evaluation.warc_fixture import page_urls, write_dataset_warcs, write_record  # noqa: E402
from pagesieve.page.html import parse_html  # noqa: E402
from pagesieve.templates.learn import summarise  # noqa: E402
from pagesieve.templates.library import TemplateLibrary  # noqa: E402
from pagesieve.templates.store import TemplateStore  # noqa: E402
from pagesieve.templates.urls import site_of  # noqa: E402

PAGES_PER_SITE = 12


def _pick(dataset, sites: int, per_site: int) -> list[str]:
    """The first ``per_site`` pages of the ``sites`` sites with most pages."""
    groups = sorted(dataset.site_pages().items(), key=lambda kv: (-len(kv[1]), kv[0]))[:sites]
    return [i for _site, ids in groups for i in ids[:per_site]]


@pytest.fixture(scope="module")
def big9(datasets_dir):
    return load_dataset(datasets_dir / "big9")


@pytest.fixture(scope="module")
def crawl(big9, tmp_path_factory):
    """36 big9 pages of 3 sites, dealt over 3 WARC files: ``(folder, {id: url}, ids)``."""
    folder = tmp_path_factory.mktemp("crawl")
    ids = _pick(big9, 3, PAGES_PER_SITE)
    urls = write_dataset_warcs(big9, folder, parts=3, ids=ids)
    return folder, urls, ids


@pytest.fixture(scope="module")
def client():
    c = open_client(workers=2)
    yield c
    close_client(c)


def _rows(out: Path) -> list[dict]:
    rows = []
    for part in sorted((out / "parts").iterdir()):
        if part.name.endswith((".parquet", ".jsonl.gz")) and not part.name.startswith("."):
            rows.extend(read_part(part).to_pylist())
    return rows


def test_batch_end_to_end_templates_from_the_crawl(crawl, big9, client, tmp_path):
    folder, urls, ids = crawl
    out = tmp_path / "out"
    summary = run_batch(BatchOptions(inputs=[str(folder)], out_dir=out, progress=False), client=client)
    assert summary.inputs == 3 and summary.parts_written == 3 and not summary.parts_failed
    assert summary.records == summary.pages == len(ids)
    assert summary.skipped == {}
    assert summary.sites == summary.sites_learned == 3
    assert summary.template_pages == len(ids)  # every site has 12 pages: all learned, all used

    part = next((out / "parts").glob("*.parquet"))
    assert pq.read_schema(part).remove_metadata().equals(PAGE_SCHEMA)
    rows = _rows(out)
    by_url = {r["url"]: r for r in rows}
    assert set(by_url) == set(urls.values())
    scores = []
    for page_id in ids:
        row = by_url[urls[page_id]]
        assert row["error"] is None and row["template"] is True
        assert row["site"] == site_of(urls[page_id])
        assert row["n_chars"] == len(row["text"]) > 0
        assert row["warc_record_id"].startswith("<urn:uuid:") and row["warc_date"].year == 2026
        scores.append(prf(row["text"], read_truth(big9, page_id)))
    assert macro(scores)[2] > 0.9  # big9's single-page F1 is 0.97: the templates must not break it

    sites = {r["site"]: r for r in pq.read_table(out / "sites.parquet").to_pylist()}
    assert set(sites) == {site_of(u) for u in urls.values()}
    for s in sites.values():
        assert s["pages"] == s["template_pages"] == s["learned_pages"] == PAGES_PER_SITE
        assert s["template_entries"] > 0  # a batch of ten pages closed: seed 000's entries exist
    written = json.loads((out / "summary.json").read_text())
    assert written["pages"] == len(ids)


def test_learn_pass_is_the_store_learning_the_same_pages(crawl, big9, tmp_path):
    """One file's learning of a site equals ``pagesieve learn`` of the same pages in the same
    order into a template store: the same library code, the same thresholds."""
    folder, urls, ids = crawl
    first = sorted(folder.glob("*.warc.gz"))[0]
    learned = learn_part(first, {site_of(u) for u in urls.values()})
    pages = [item for item in read_warc(first) if isinstance(item, WarcPage)]
    with TemplateStore(tmp_path / "t.sqlite3") as store:
        for page in pages:
            store.learn(summarise(parse_html(page.body, url=page.url)))
        for site, state in learned.items():
            templates = store.templates_for(site, "https://x.invalid/")
            assert state.pages == templates.pages
            assert state.library.entries == templates.library.entries
            assert [(e.tag, e.text, e.frequency) for e in state.library.cache] == [
                (e.tag, e.text, e.frequency) for e in templates.library.cache]


def test_library_merge_of_whole_batches_equals_learning_in_one_go(big9):
    """Two parts of ten pages each (one whole batch each) merge to the library learned from
    the twenty pages in one go."""
    site, ids = max(big9.site_pages().items(), key=lambda kv: len(kv[1]))
    leaves = [summarise(parse_html(read_page(big9, i), url=f"https://{site}/{i}")).leaves for i in ids[:20]]
    whole = TemplateLibrary()
    a, b = TemplateLibrary(), TemplateLibrary()
    for k, page in enumerate(leaves):
        whole.learn(page)
        (a if k < 10 else b).learn(page)
    a.merge(b)
    assert sorted(a.entries) == sorted(whole.entries) and a.entries
    # open batches: 4 + 3 pages merge into one batch of 7, leaf frequencies added
    c, d, e = TemplateLibrary(), TemplateLibrary(), TemplateLibrary()
    for k, page in enumerate(leaves[:7]):
        e.learn(page)
        (c if k < 4 else d).learn(page)
    c.merge(d)
    assert c.pages_in_batch == 7 and not c.entries
    assert Counter({(x.tag, x.text): x.frequency for x in c.cache}) == Counter({(x.tag, x.text): x.frequency for x in e.cache})


def _corrupt_warc(path: Path, pages: list[tuple[str, bytes]]) -> dict[str, int]:
    """A WARC.gz with the given good pages and, between them, every kind of bad record;
    returns the skips expected by reason."""
    from warcio.warcwriter import WARCWriter

    def member(url, body, **kw) -> bytes:
        buf = io.BytesIO()
        write_record(WARCWriter(buf, gzip=True, warc_version="WARC/1.1"), url, body, **kw)
        return buf.getvalue()

    rng = random.Random(34)
    good = [member(u, b) for u, b in pages]
    bad = [
        gzip.compress(b"GARBAGE not a WARC record\r\n" * 50),  # a gzip member holding no record
        bytes(rng.randrange(256) for _ in range(3000)),  # raw bytes between two members
        member("https://big.example/huge", b"<html><body>" + b"<p>lorem ipsum</p>" * (50 * 1024 * 1024 // 18) + b"</body></html>"),
        member("https://img.example/a.png", b"\x89PNG\r\n\x1a\n" + bytes(2000), content_type="image/png"),
        member("https://gone.example/x", b"<html><body>Not found</body></html>", status="404 Not Found"),
        member("https://bin.example/x", bytes(rng.randrange(256) for _ in range(5000)), content_type="text/html"),
    ]
    data = b""
    for k, g in enumerate(good[:-1]):
        data += g
        if k < len(bad):
            data += bad[k]
    last = good[-1]
    data += last[: len(last) // 2]  # the download stopped inside the last record
    path.write_bytes(data)
    return {"corrupt": 2, "too_large": 1, "not_html": 1, "status": 1, "undecodable": 1, "truncated": 1}


def _corrupt_input(big9, tmp_path: Path) -> tuple[Path, list[tuple[str, bytes]], dict[str, int]]:
    """``tmp_path/in/corrupt.warc.gz`` (:func:`_corrupt_warc` of 10 big9 pages of 2 sites):
    ``(path, its good pages, the skips expected by reason)``."""
    ids = _pick(big9, 2, 5)
    urls = page_urls(big9)
    pages = [(urls[i], read_page(big9, i).encode("utf-8")) for i in ids]
    warc = tmp_path / "in" / "corrupt.warc.gz"
    warc.parent.mkdir()
    return warc, pages, _corrupt_warc(warc, pages)


def test_corrupt_warc_is_processed_to_the_end_with_the_skips_counted(big9, client, tmp_path):
    warc, pages, expected = _corrupt_input(big9, tmp_path)

    tracemalloc.start()
    items = list(read_warc(warc))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 16 * 1024 * 1024  # the 50 MB record is streamed past, never read into memory
    # the binary body typed text/html is a page here; its decoding fails in the extract pass
    assert [i.url for i in items if isinstance(i, WarcPage) and i.url != "https://bin.example/x"] == [u for u, _ in pages[:-1]]
    assert Counter(i.reason for i in items if isinstance(i, Skipped)) == Counter(
        {k: v for k, v in expected.items() if k != "undecodable"})  # undecodable is found by the extract pass

    out = tmp_path / "out"
    summary = run_batch(BatchOptions(inputs=[str(warc.parent)], out_dir=out, progress=False), client=client)
    assert not summary.parts_failed and summary.parts_written == 1
    assert summary.skipped == expected
    assert summary.pages == len(pages) - 1
    rows = _rows(out)
    errors = Counter(r["error"].split(":")[0] for r in rows if r["error"])
    assert errors == Counter(expected)
    good = [r for r in rows if not r["error"]]
    assert len(good) == len(pages) - 1 and all(r["text"] for r in good)


def test_resume_keeps_whole_parts_and_redoes_the_rest(crawl, client, tmp_path):
    folder, urls, ids = crawl
    out = tmp_path / "out"
    run_batch(BatchOptions(inputs=[str(folder)], out_dir=out, progress=False), client=client)
    parts = sorted((out / "parts").glob("*.parquet"))
    kept = {p: p.stat().st_mtime_ns for p in parts[1:]}
    parts[0].unlink()  # a part lost (as if the job had been killed before its rename)
    (out / "parts" / f".{parts[0].name}.abcd1234.tmp").write_bytes(b"half a part")  # and its leftover
    summary = run_batch(BatchOptions(inputs=[str(folder)], out_dir=out, resume=True, progress=False), client=client)
    assert summary.parts_resumed == 2 and summary.parts_written == 1
    assert summary.pages == len(ids)  # the resumed parts' pages are counted from their stats
    assert parts[0].exists()
    assert {p: p.stat().st_mtime_ns for p in parts[1:]} == kept
    assert len(_rows(out)) == len(ids)


def test_jsonl_through_the_command_line(crawl, tmp_path, capsys):
    from pagesieve.cli import main

    folder, urls, ids = crawl
    out = tmp_path / "out"
    code = main(["batch", str(folder), "--out", str(out), "--format", "jsonl", "--markdown",
                 "--workers", "1", "--no-progress"])
    printed = capsys.readouterr().out
    assert code == 0
    twice = re.search(rf"pages cleaned: {len(ids)} \({len(ids)} with their site's template; parsed twice: (\d+)\)", printed)
    assert twice and int(twice.group(1)) <= len(ids)  # --markdown: the pages the templates changed
    assert "skipped: none" in printed
    parts = sorted((out / "parts").glob("*.jsonl.gz"))
    assert len(parts) == 3 and not list((out / "parts").glob("*.parquet"))
    rows = []
    for p in parts:
        with gzip.open(p, "rt", encoding="utf-8") as f:
            rows.extend(json.loads(line) for line in f)
    assert len(rows) == len(ids)
    for row in rows:
        assert list(row) == PAGE_SCHEMA.names
        assert row["markdown"] and row["text"] and row["error"] is None
        if row["title"]:
            assert row["markdown"].startswith(f"# {row['title']}")
    assert os.path.exists(out / "sites.parquet")


def test_http_charset_comes_before_the_page_meta_and_encoded_bodies_are_inflated(tmp_path):
    """WHATWG order: the HTTP header's charset wins over a wrong <meta>; a gzip
    Content-Encoding is undone."""
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    text = "<html><head><meta charset='windows-1251'><title>Привет</title></head><body><p>" + "Съешь же ещё этих мягких французских булок. " * 20 + "</p></body></html>"
    koi8 = text.encode("koi8_r")
    warc = tmp_path / "charset.warc.gz"
    with open(warc, "wb") as f:
        w = WARCWriter(f, gzip=True)
        write_record(w, "https://ru.example/koi8", koi8, content_type="text/html; charset=KOI8-R")
        body = gzip.compress(text.encode("utf-8"))
        headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8"), ("Content-Encoding", "gzip"),
                                              ("Content-Length", str(len(body)))], protocol="HTTP/1.1")
        w.write_record(w.create_warc_record("https://ru.example/gz", "response", payload=io.BytesIO(body), http_headers=headers))
    from pagesieve.crawl.rows import extract_record

    items = list(read_warc(warc))
    assert [type(i) for i in items] == [WarcPage, WarcPage]
    assert items[0].charset.lower() == "koi8-r" and items[1].body == text.encode("utf-8")
    for item in items:
        row, _removed = extract_record(item, None)
        assert row["error"] is None and "мягких французских булок" in row["text"] and row["title"] == "Привет"


def test_warcio_reads_the_same_pages_as_fastwarc(crawl):
    folder, urls, ids = crawl
    first = sorted(folder.glob("*.warc.gz"))[0]
    fast = [(p.url, p.record_id, p.body) for p in read_warc(first, reader="fastwarc")]
    slow = [(p.url, p.record_id, p.body) for p in read_warc(first, reader="warcio")]
    assert fast == slow and len(fast) == len(ids) // 3


def test_scheduler_address_runs_the_job_on_that_cluster(crawl, client, tmp_path, capsys):
    """``--scheduler ADDRESS``: the command connects to a running cluster (started here as a
    scheduler with one worker process) instead of starting its own, and closes nothing of it;
    its scheduler has Dask's default ``worker-saturation`` (1.1), which the command notes."""
    import logging

    import dask
    from distributed import Client, LocalCluster

    from pagesieve.cli import main

    folder, urls, ids = crawl
    with dask.config.set({"distributed.scheduler.worker-saturation": 1.1}):  # Dask's default, said here
        cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0",
                               silence_logs=logging.ERROR)
    with cluster:
        code = main(["batch", str(folder), "--out", str(tmp_path / "out"), "--scheduler", cluster.scheduler_address,
                     "--no-progress"])
        captured = capsys.readouterr()
        printed = captured.out
        assert code == 0 and f"pages cleaned: {len(ids)} ({len(ids)} with their site's template; parsed twice: 0)" in printed
        assert "on 1 worker(s)" in printed
        # a cluster with Dask's default queuing (two parts a thread) is told how to hand out one
        assert "worker-saturation 1.1" in captured.err and "WORKER_SATURATION=1" in captured.err
        with Client(cluster.scheduler_address) as other:  # the cluster is still up
            assert len(other.scheduler_info()["workers"]) == 1
    stats = [json.loads(p.read_text()) for p in (tmp_path / "out" / "parts").glob("*.stats.json")]
    assert len(stats) == 3 and len({s["worker"] for s in stats}) == 1
    # the same rows as on a cluster of two workers: the learned templates do not depend on
    # which worker ran which part, nor in which order
    run_batch(BatchOptions(inputs=[str(folder)], out_dir=tmp_path / "two", progress=False), client=client)
    one = {r["url"]: (r["text"], r["template"]) for r in _rows(tmp_path / "out")}
    two = {r["url"]: (r["text"], r["template"]) for r in _rows(tmp_path / "two")}
    assert one == two and len(one) == len(ids)


def test_uncompressed_warc_garbage_is_skipped_and_a_non_warc_file_named(tmp_path):
    from warcio.warcwriter import WARCWriter

    def record(url: str) -> bytes:
        buf = io.BytesIO()
        body = f"<html><body><article><p>{url} " + "text of the page " * 30 + "</p></article></body></html>"
        write_record(WARCWriter(buf, gzip=False), url, body.encode("utf-8"))
        return buf.getvalue()

    a, b, c = record("https://a.example/1"), record("https://a.example/2"), record("https://a.example/3")
    warc = tmp_path / "plain.warc"
    warc.write_bytes(a + b"\r\nnot a record at all\r\n\r\n" * 3 + b + c[:-100])
    items = list(read_warc(warc))
    assert [(type(i).__name__, i.url if isinstance(i, WarcPage) else i.reason) for i in items] == [
        ("WarcPage", "https://a.example/1"), ("Skipped", "corrupt"), ("WarcPage", "https://a.example/2"),
        ("Skipped", "truncated")]
    # cut at byte offsets (no gzip members here) into parts of one record: the same items, each once
    from pagesieve.crawl.parts import cut_file

    cut = cut_file(warc, "plain", part_records=1)
    # the second page's record starts the second part; the garbage stays with the first, the
    # cut last record (no readable start) with the second
    assert [(p.start, p.records) for p in cut.parts] == [(0, 2), (items[2].offset, 2)]
    assert warc.read_bytes()[items[2].offset:].startswith(b"WARC/1.")
    assert [(type(i).__name__, i.url if isinstance(i, WarcPage) else i.reason) for p in cut.parts
            for i in read_warc(warc, start=p.start, end=p.end)] == [
        (type(i).__name__, i.url if isinstance(i, WarcPage) else i.reason) for i in items]

    other = tmp_path / "notes.warc.gz"
    other.write_bytes(gzip.compress(b"just some notes, no WARC records"))
    [only] = list(read_warc(other))
    assert only.reason == "unreadable_file"


def test_extract_pass_from_the_judged_pages_gives_the_rows_of_a_fresh_extraction(datasets_dir, client, tmp_path):
    """The learn pass judges each page once and the extract pass applies the site's templates
    to what it kept (no second parse): every row is the one a fresh extraction of the page
    with the same templates gives (library and diff evidence, Markdown too). On daniel's four
    largest sites, where the crawl's templates remove most (docs/crawl.md's accuracy table); of
    the three largest, the templates remove nothing since the page rules drop their breadcrumb
    trails themselves (pagesieve.rules.asides), so biolog.pl is the fourth."""
    from pagesieve.crawl.output import read_templates
    from pagesieve.crawl.pages import extract_part

    daniel = load_dataset(datasets_dir / "daniel")
    folder = tmp_path / "crawl"
    folder.mkdir()
    ids = _pick(daniel, 4, PAGES_PER_SITE)
    write_dataset_warcs(daniel, folder, parts=3, ids=ids)
    out = tmp_path / "out"
    summary = run_batch(BatchOptions(inputs=[str(folder)], out_dir=out, markdown=True, kinds=("library", "diff"),
                                     progress=False), client=client)
    assert summary.pages == len(ids) and summary.template_pages == len(ids)
    assert not (out / "judged").exists()  # the judged pages are removed once their part is written
    templates = read_templates(out / "templates.parquet")
    fresh = tmp_path / "fresh"
    for warc in sorted(folder.glob("*.warc.gz")):
        extract_part(warc, fresh, templates, markdown=True, kinds=("library", "diff"), page_timeout=None)
    judged = {r["url"]: r for r in _rows(out)}
    again = {r["url"]: r for r in _rows(fresh)}
    assert judged == again and len(judged) == len(ids)
    stats = [json.loads(p.read_text()) for p in (out / "parts").glob("*.stats.json")]
    fresh_stats = [json.loads(p.read_text()) for p in (fresh / "parts").glob("*.stats.json")]
    assert {s["input"]: s["sites"] for s in stats} == {s["input"]: s["sites"] for s in fresh_stats}
    removed = sum(c[3] for s in stats for c in s["sites"].values())
    assert removed > 0  # the templates did remove something, so the facts path was exercised
    # Only with --markdown is a page parsed twice, and only one whose verdicts the templates changed
    from pagesieve.crawl.rows import extract_html

    urls = page_urls(daniel)
    changed = sum(1 for i in ids if extract_html(read_page(daniel, i), urls[i], templates.get(site_of(urls[i])),
                                                 ("library", "diff"))[1] > 0)
    assert 0 < summary.parsed_again == changed <= summary.template_pages
    plain = run_batch(BatchOptions(inputs=[str(folder)], out_dir=tmp_path / "plain", kinds=("library", "diff"),
                                   progress=False), client=client)
    assert plain.parsed_again == 0 and "parsed twice: 0" in "\n".join(plain.lines())
    assert {r["url"]: r["text"] for r in _rows(tmp_path / "plain")} == {u: r["text"] for u, r in judged.items()}


SLOW_URL = "https://slow.example/page"
"""The page made slow by construction: the page process waits on it (``STALL_URL_ENV``, the
test hook of :mod:`pagesieve.crawl.guard`) until the per-page limit ends it."""

LIMIT = 5.0
"""The per-page limit of these tests (seconds): the dataset pages take 2 to 60 ms on this
project's machine, so a machine 3 times slower under load is far below it, and the stalled page
never finishes whatever the machine's speed."""


def _slow_page() -> bytes:
    """An ordinary small page (the stall is the hook's, not the page's)."""
    return ("<html><head><title>Slow</title></head><body><article><h1>Slow</h1>"
            + "<p>A short line of text that is the whole of this page, in a paragraph.</p>" * 5
            + "</article></body></html>").encode("utf-8")


@pytest.fixture
def stalled(monkeypatch):
    """The page processes forked from here (and from workers started from here) stall on SLOW_URL."""
    from pagesieve.crawl.guard import STALL_URL_ENV

    monkeypatch.setenv(STALL_URL_ENV, SLOW_URL)
    return STALL_URL_ENV


def _timeout_warc(path: Path, big9) -> list[str]:
    from warcio.warcwriter import WARCWriter

    ids = _pick(big9, 1, 2)
    urls = page_urls(big9)
    with open(path, "wb") as f:
        w = WARCWriter(f, gzip=True, warc_version="WARC/1.1")
        write_record(w, urls[ids[0]], read_page(big9, ids[0]).encode("utf-8"))
        write_record(w, SLOW_URL, _slow_page())
        write_record(w, urls[ids[1]], read_page(big9, ids[1]).encode("utf-8"))
    return [urls[ids[0]], SLOW_URL, urls[ids[1]]]


def test_a_page_over_the_page_timeout_is_skipped_and_the_part_goes_on(big9, tmp_path, stalled):
    import time

    from pagesieve.crawl.pages import extract_part

    warc = tmp_path / "slow.warc.gz"
    order = _timeout_warc(warc, big9)
    t0 = time.perf_counter()
    stats = extract_part(warc, tmp_path / "out", {}, page_timeout=LIMIT)
    seconds = time.perf_counter() - t0
    rows = _rows(tmp_path / "out")
    assert [r["url"] for r in rows] == order
    assert rows[1]["error"] == "timeout: over 5 s" and rows[1]["text"] is None
    assert not rows[0]["error"] and not rows[2]["error"] and rows[0]["text"] and rows[2]["text"]
    assert stats.skipped == {"timeout": 1} and stats.pages == 2
    assert seconds < 600  # the stalled page (an hour) was stopped at its limit, not run to its end
    # without a limit the same page is extracted in this process (the hook stalls page processes only)
    plain = extract_part(warc, tmp_path / "nolimit", {}, page_timeout=None)
    assert plain.skipped == {} and plain.pages == 3


def test_page_timeout_through_the_command_line_in_both_passes(big9, tmp_path, capsys, stalled):
    from pagesieve.cli import main

    warc = tmp_path / "in" / "slow.warc.gz"
    warc.parent.mkdir()
    _timeout_warc(warc, big9)
    for extra in ([], ["--single-page"]):  # the learn pass judges the pages, or the extract pass does
        out = tmp_path / f"out{len(extra)}"
        code = main(["batch", str(warc.parent), "--out", str(out), "--page-timeout", "5", "--workers", "1",
                     "--no-progress", *extra])
        printed = capsys.readouterr().out
        assert code == 0
        assert "pages cleaned: 2" in printed and "skipped: timeout 1" in printed
        assert [r["error"] for r in _rows(out)] == [None, "timeout: over 5 s", None]


def _cut_sweep(gz: bool) -> tuple[bytes, bytes]:
    from warcio.warcwriter import WARCWriter

    def record(url: str) -> bytes:
        buf = io.BytesIO()
        body = f"<html><body><article><p>{url} " + "text of the page " * 30 + "</p></article></body></html>"
        write_record(WARCWriter(buf, gzip=gz), url, body.encode("utf-8"))
        return buf.getvalue()

    return record("https://a.example/1"), record("https://a.example/2")


def _items(path: Path, reader: str | None = None) -> list[tuple[str, str]]:
    return [(type(i).__name__, i.url if isinstance(i, WarcPage) else i.reason) for i in read_warc(path, reader=reader)]


def test_without_fastwarc_the_warcio_reader_reports_truncated_files_alike(big9, tmp_path, monkeypatch):
    """With fastwarc missing (its import made to fail), the warcio reader is used and reports
    every cut download as ``truncated``, as fastwarc's path does: a file cut at any byte of
    its last record (gzip or plain; warcio alone loops for ever on a cut gzip member), and the
    corrupt WARC of the test above, whose part counts the same skips."""
    from pagesieve.crawl.pages import extract_part
    from pagesieve.crawl.records import reader_name

    ids = _pick(big9, 2, 5)
    urls = page_urls(big9)
    corrupt = tmp_path / "corrupt.warc.gz"
    expected = _corrupt_warc(corrupt, [(urls[i], read_page(big9, i).encode("utf-8")) for i in ids])
    cuts = []
    for gz in (True, False):
        a, b = _cut_sweep(gz)
        for cut in range(1, len(b) - 4, 5):  # the last 4 bytes are the CRLF pairs after the record
            path = tmp_path / f"cut-{int(gz)}-{cut}.warc{'.gz' if gz else ''}"
            path.write_bytes(a + b[:cut])
            cuts.append(path)
    assert reader_name() == "fastwarc"
    fast_corrupt = _items(corrupt)
    fast_cuts = [_items(p) for p in cuts]

    monkeypatch.setitem(sys.modules, "fastwarc", None)  # import fastwarc now raises ImportError
    monkeypatch.delitem(sys.modules, "fastwarc.warc", raising=False)
    assert reader_name() == "warcio"
    assert _items(corrupt) == fast_corrupt
    assert Counter(r for kind, r in fast_corrupt if kind == "Skipped")["truncated"] == 1
    for path, fast in zip(cuts, fast_cuts):
        assert _items(path) == fast == [("WarcPage", "https://a.example/1"), ("Skipped", "truncated")], path.name
    stats = extract_part(corrupt, tmp_path / "out", {}, page_timeout=None)
    assert stats.skipped == expected


def test_a_site_bucket_that_fails_leaves_its_sites_single_page(crawl, tmp_path):
    """The task of a site bucket whose summaries are damaged returns no site and the reason,
    and the extract task given that result writes its part with every page as a single page,
    the rows of a run without templates."""
    from pagesieve.crawl.tasks import bucket_task, extract_task
    from pagesieve.crawl.pages import extract_part, judge_part
    from pagesieve.crawl.records import MAX_RECORD_BYTES
    from pagesieve.crawl.summaries import summaries_path

    folder, urls, ids = crawl
    warc = sorted(folder.glob("*.warc.gz"))[0]
    sites = sorted({site_of(u) for u in urls.values()})
    index = judge_part(warc, tmp_path / "a", "part", set(sites), page_timeout=None)
    source = (str(summaries_path(tmp_path / "a", "part")), *index[0])
    learned, why = bucket_task([source])
    assert learned and why is None
    path = summaries_path(tmp_path / "a", "part")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])  # cut inside a frame
    failed, why = bucket_task([source])
    assert failed == {} and "Error" in why
    stats = extract_task(str(warc), str(tmp_path / "b"), None, sites, "parquet", False, ("library",), MAX_RECORD_BYTES,
                         "part", None, None, 0, None, [({}, "JudgedFileError: damaged")])
    plain = extract_part(warc, tmp_path / "c", {}, name="part", page_timeout=None)
    assert stats.template_pages == plain.template_pages == 0 and stats.pages == plain.pages > 0
    assert _rows(tmp_path / "b") == _rows(tmp_path / "c")
    with_sites = extract_task(str(warc), str(tmp_path / "d"), None, sites, "parquet", False, ("library",),
                              MAX_RECORD_BYTES, "part", None, None, 0, None, [(learned, None)])
    assert with_sites.template_pages > 0


def test_a_damaged_judged_file_is_given_up_for_the_warc_file(crawl, tmp_path):
    from pagesieve.crawl.judged import header, judged_path
    from pagesieve.crawl.pages import extract_part, judge_part
    from pagesieve.crawl.records import MAX_RECORD_BYTES
    from pagesieve.crawl.summaries import learn_bucket, summaries_path

    folder, urls, ids = crawl
    warc = sorted(folder.glob("*.warc.gz"))[0]
    index = judge_part(warc, tmp_path / "a", "part", {site_of(u) for u in urls.values()}, page_timeout=None)
    learned = learn_bucket([(str(summaries_path(tmp_path / "a", "part")), *index[0])])
    assert learned and all(s.usable for s in learned.values())
    path = judged_path(tmp_path / "a", "part")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 2 // 3])  # cut inside a frame
    head = header(str(warc), False, True, MAX_RECORD_BYTES, None)
    damaged = extract_part(warc, tmp_path / "a", learned, name="part", page_timeout=None, judged=head)
    fresh = extract_part(warc, tmp_path / "b", learned, name="part", page_timeout=None)
    assert not path.exists()
    assert _rows(tmp_path / "a") == _rows(tmp_path / "b") and damaged.pages == fresh.pages == len(ids) // 3
    assert damaged.template_pages == damaged.pages


def _started_at(path: str) -> tuple[str, int]:
    import time as _time

    _time.sleep(0.05)
    return path, _time.monotonic_ns()


def test_parts_start_largest_first_on_the_cluster(tmp_path):
    """The pass's tasks start in the order of :func:`largest_first` (longest processing time
    first): without explicit priorities, Dask started tasks submitted within 100 ms of each
    other nearly in reverse, the smallest parts first."""
    from distributed import Client, LocalCluster

    from pagesieve.crawl.cluster import largest_first, run_pass

    paths = []
    for i, size in enumerate([5, 40, 15, 30, 10, 35, 20, 25, 45, 1]):
        p = tmp_path / f"part-{i}.warc.gz"
        p.write_bytes(b"x" * size * 1000)
        paths.append(str(p))
    # keys as the job names its tasks (one task group per dataset: Dask assigns such tasks to
    # workers at once rather than queueing them)
    names = [f"{'abcde'[i % 5]}set-{i:02d}" for i in range(len(paths))]
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster, \
            Client(cluster) as c:
        results = run_pass(c, _started_at, [(p,) for p in paths], "order", progress=False, keys=names)
    started = [path for path, _t in sorted(results, key=lambda r: r[1])]
    assert started == [paths[i] for i in largest_first(paths)]
    # by pages when the count pass gave them: the order of the work, not of the bytes
    work = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster, \
            Client(cluster) as c:
        results = run_pass(c, _started_at, [(p,) for p in paths], "order", progress=False, keys=names, work=work)
    assert [path for path, _t in sorted(results, key=lambda r: r[1])] == paths[::-1]


def test_closing_the_local_cluster_silences_dask_in_its_processes_first():
    """A worker's heartbeat under way when the scheduler has gone logs a traceback at ERROR:
    by the time the cluster closes, its workers and the command's process log only CRITICAL,
    and the command's level comes back after."""
    import logging

    c = open_client(None, 1)
    here = logging.getLogger("distributed")
    before = here.level
    seen = {}
    close = c.close

    def spying_close(*args, **kwargs):
        c.close = close  # once: the client's __del__ closes it again
        seen["workers"] = set(c.run(lambda: logging.getLogger("distributed").level).values())
        seen["here"] = here.level
        return close(*args, **kwargs)

    c.close = spying_close
    close_client(c)
    assert seen == {"workers": {logging.CRITICAL}, "here": logging.CRITICAL}
    assert before < logging.CRITICAL and here.level == before


def _waiting_here(path: str) -> int:
    """Tasks that wait on this worker (ready to run) while this one runs."""
    import time as _time

    from distributed import get_worker

    _time.sleep(0.2)
    return len(get_worker().state.ready)


def test_a_pass_queues_its_parts_at_the_scheduler_not_on_the_workers(tmp_path):
    """On the job's own cluster (:func:`local_cluster`), a worker is handed one part at a time
    and the others wait at the scheduler for whichever worker frees first: with Dask's default
    (two a thread), or with keys that made one small task group per dataset, parts waited
    behind a running one on one worker while the other stood idle at the end of the pass."""
    from distributed import Client
    from distributed.utils import key_split

    from pagesieve.crawl.cluster import local_cluster, run_pass, saturation_hint, task_key

    names = [f"{ds}-{i:02d}-{i:08x}" for ds in ("big9", "daniel", "dragnet") for i in range(4)]
    assert {key_split(task_key(label, n)) for label in ("count", "learn") for n in names} == {"count", "learn"}
    paths = []
    for i, name in enumerate(names):
        p = tmp_path / f"{name}.warc.gz"
        p.write_bytes(b"x" * (i + 1) * 100)
        paths.append(str(p))
    with Client(local_cluster(2)) as c:
        assert saturation_hint(c) is None  # nothing to note on the job's own cluster
        # the forked workers and the scheduler check their loops and memory at CLUSTER_INTERVALS
        every = c.run(lambda dask_worker: {k: v.callback_time for k, v in dask_worker.periodic_callbacks.items()})
        every["scheduler"] = c.run_on_scheduler(lambda dask_scheduler: {k: v.callback_time for k, v in
                                                                        dask_scheduler.periodic_callbacks.items()})
        assert all(ms["tick"] == 1000 and ms["monitor"] == 5000 for ms in every.values()), every
        assert all(ms["memory_monitor"] == 1000 for name, ms in every.items() if name != "scheduler"), every
        waiting = run_pass(c, _waiting_here, [(p,) for p in paths], "learn", progress=False, keys=names)
        c.cluster.close()
    assert waiting == [0] * len(names)


@pytest.fixture(scope="module")
def one_file(big9, tmp_path_factory):
    """60 big9 pages of 4 sites in ONE WARC file, in the dataset's order: ``(path, ids)``."""
    folder = tmp_path_factory.mktemp("one")
    ids = _pick(big9, 4, 15)
    write_dataset_warcs(big9, folder, parts=1, ids=ids)
    return next(folder.glob("*.warc.gz")), ids


def test_one_file_cut_into_parts_gives_the_rows_of_one_part(one_file, client, tmp_path):
    """The count pass cuts one file into parts of 7 records, its tail into parts of 2, which
    both workers share; the sites are learned across the parts in file order, so the rows
    (same pages, same text, same template use) and templates.parquet are those of the same
    file run as one part."""
    from pagesieve.crawl.parts import cut_file

    warc, ids = one_file
    cut = cut_file(warc, "x", part_records=7)
    # the last full part and the 4 records after it: 11 records in parts of ceil(7 / 4) = 2
    assert [p.records for p in cut.parts] == [7] * 7 + [2] * 5 + [1]
    assert [p.records for p in cut_file(warc, "x", part_records=7, tail_split=1).parts] == [7] * 8 + [4]
    assert [p.start for p in cut.parts[1:]] == [p.end for p in cut.parts[:-1]] and cut.parts[-1].end is None
    # the parts read by seeking to their start give the records of the whole file, each once
    whole = [(type(i).__name__, i.url) for i in read_warc(warc)]
    assert [(type(i).__name__, i.url) for p in cut.parts for i in read_warc(warc, start=p.start, end=p.end)] == whole

    many = run_batch(BatchOptions(inputs=[str(warc)], out_dir=tmp_path / "many", part_records=7, progress=False),
                     client=client)
    one = run_batch(BatchOptions(inputs=[str(warc)], out_dir=tmp_path / "one", part_records=10_000, progress=False),
                    client=client)
    assert (many.inputs, many.parts, many.most_parts_in_a_file, many.parts_written) == (1, 13, 13, 13)
    assert (one.parts, one.parts_written) == (1, 1)
    assert "1 file(s) cut into 13 parts of at most 7 records (up to 13 parts from one file)" in many.lines()[0]
    assert many.pages == one.pages == len(ids) and many.template_pages == one.template_pages == len(ids)
    rows_many, rows_one = _rows(tmp_path / "many"), _rows(tmp_path / "one")
    assert [r["url"] for r in rows_many] == [r["url"] for r in rows_one] and len(rows_many) == len(ids)
    assert rows_many == rows_one
    assert pq.read_table(tmp_path / "many" / "templates.parquet").equals(pq.read_table(tmp_path / "one" / "templates.parquet"))
    stats = [json.loads(p.read_text()) for p in (tmp_path / "many" / "parts").glob("*.stats.json")]
    assert len(stats) == 13 and len({s["worker"] for s in stats}) == 2  # both workers wrote parts of the one file
    assert not (tmp_path / "many" / "judged").exists()  # judged and summary files removed


def test_resume_works_part_by_part_within_a_file(one_file, client, tmp_path):
    from pagesieve.errors import UsageError

    warc, ids = one_file
    out = tmp_path / "out"
    run_batch(BatchOptions(inputs=[str(warc)], out_dir=out, part_records=7, progress=False), client=client)
    before = _rows(out)
    parts = sorted((out / "parts").glob("*.parquet"))
    assert len(parts) == 13
    kept = {p: p.stat().st_mtime_ns for p in parts if p != parts[4]}
    parts[4].unlink()  # one part of the file lost, as if its worker had been killed before the rename
    summary = run_batch(BatchOptions(inputs=[str(warc)], out_dir=out, part_records=7, resume=True, progress=False),
                        client=client)
    assert (summary.parts_resumed, summary.parts_written) == (12, 1)
    assert summary.pages == len(ids)
    assert {p: p.stat().st_mtime_ns for p in kept} == kept
    assert _rows(out) == before
    # another cut would give other parts under the same names: refused
    with pytest.raises(UsageError, match="--part-records 7"):
        run_batch(BatchOptions(inputs=[str(warc)], out_dir=out, part_records=5, resume=True, progress=False),
                  client=client)


def test_resume_keeps_the_cut_of_a_run_made_before_the_tail_was_cut_finer(one_file, client, tmp_path, monkeypatch):
    """A run of an earlier version cut every file into plain parts and its parts.json did not
    name the cut; resumed now, it is cut the same way, so its parts keep their names and
    records: one lost part is written again and the rows are those of the first run."""
    import pagesieve.crawl.job as job

    warc, ids = one_file
    out = tmp_path / "out"
    monkeypatch.setattr(job, "TAIL_SPLIT", 1)
    run_batch(BatchOptions(inputs=[str(warc)], out_dir=out, part_records=7, progress=False), client=client)
    monkeypatch.undo()
    before = _rows(out)
    cut = json.loads((out / "parts.json").read_text())
    assert cut.pop("tail_split") == 1 and [p[4] for p in cut["parts"]] == [7] * 8 + [4]
    (out / "parts.json").write_text(json.dumps(cut))  # as the earlier version wrote it
    parts = sorted((out / "parts").glob("*.parquet"))
    parts[8].unlink()
    summary = run_batch(BatchOptions(inputs=[str(warc)], out_dir=out, part_records=7, resume=True, progress=False),
                        client=client)
    assert (summary.parts, summary.parts_resumed, summary.parts_written) == (9, 8, 1)
    assert _rows(out) == before and summary.pages == len(ids)
    assert json.loads((out / "parts.json").read_text())["tail_split"] == 1
    # a new run into a new folder gets the finer tail
    fresh = run_batch(BatchOptions(inputs=[str(warc)], out_dir=tmp_path / "fresh", part_records=7, progress=False),
                      client=client)
    assert fresh.parts == 13 and _rows(tmp_path / "fresh") == before


def test_a_corrupt_file_in_parts_counts_every_skip_once_and_times_out_a_page(big9, client, tmp_path, stalled):
    """The corrupt WARC of the test above with a page that stalls its page process (the hook, set
    in the cluster's workers too), cut into parts of 3 records: each bad stretch is counted once
    (in the part where it begins), the slow page is a ``timeout`` row, and the parts' other rows
    are cleaned."""
    from warcio.warcwriter import WARCWriter

    warc, pages, expected = _corrupt_input(big9, tmp_path)
    buf = io.BytesIO()
    write_record(WARCWriter(buf, gzip=True, warc_version="WARC/1.1"), SLOW_URL, _slow_page())
    warc.write_bytes(buf.getvalue() + warc.read_bytes())  # the slow page first, then the corrupt file
    whole = [(type(i).__name__, i.url, getattr(i, "reason", None)) for i in read_warc(warc)]
    from pagesieve.crawl.parts import cut_file

    cut = cut_file(warc, "x", part_records=3)
    assert len(cut.parts) > 3
    assert [(type(i).__name__, i.url, getattr(i, "reason", None)) for p in cut.parts
            for i in read_warc(warc, start=p.start, end=p.end)] == whole

    out = tmp_path / "out"
    # the workers were started before this test: the hook is set in them, and unset after
    client.run(exec, f"import os; os.environ[{stalled!r}] = {SLOW_URL!r}")
    try:
        summary = run_batch(BatchOptions(inputs=[str(warc)], out_dir=out, part_records=3, page_timeout=LIMIT, progress=False),
                            client=client)
    finally:
        client.run(exec, f"import os; os.environ.pop({stalled!r}, None)")
    assert not summary.parts_failed and summary.parts_written == summary.parts == len(cut.parts)
    assert summary.skipped == {**expected, "timeout": 1}
    assert summary.pages == len(pages) - 1
    rows = _rows(out)
    assert rows[0]["url"] == SLOW_URL and rows[0]["error"] == "timeout: over 5 s"
    assert Counter(r["error"].split(":")[0] for r in rows if r["error"]) == Counter({**expected, "timeout": 1})
    assert all(r["text"] for r in rows if not r["error"])
