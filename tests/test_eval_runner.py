"""pagesieve_dev.evaluation: dataset reader, evaluate(), page selection and the eval command.

Uses the first 10 pages of ``../shared/datasets/l3s_gn1`` (skipped when the datasets folder is
absent) and small callables in place of the real extractor, which is not needed here.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
from pathlib import Path

import pytest

from conftest import shared_dataset
from pagesieve.errors import DatasetError
from pagesieve_dev.evaluation import runner
from pagesieve_dev.evaluation.datasets import load_dataset, read_page, read_truth
from pagesieve_dev.evaluation.results import evaluate, percentile
from pagesieve_dev.evaluation.selection import load_split, select_ids

N = 10


@pytest.fixture(scope="module")
def l3s(datasets_dir):
    return shared_dataset(datasets_dir, "l3s_gn1")


@pytest.fixture(scope="module")
def ids10(l3s):
    return l3s.ids[:N]


def truth_extractor(dataset):
    """A perfect extractor: returns the truth of the page whose HTML it is given."""
    by_html = {read_page(dataset, i): read_truth(dataset, i) for i in dataset.ids[:N]}

    def extract(html: str, url: str | None) -> str:
        return by_html[html]

    return extract


def empty_extractor(html: str, url: str | None) -> str:
    return ""


# --------------------------------------------------------------------------- datasets


def test_load_dataset_reads_index(l3s):
    assert l3s.name == "l3s_gn1"
    assert len(l3s) > N
    rec = l3s.rows[0]
    assert rec.id and rec.row["id"] == rec.id
    assert "<" in read_page(l3s, rec.id)
    assert read_truth(l3s, rec.id).strip()


def test_unknown_id_is_a_dataset_error(l3s):
    with pytest.raises(DatasetError, match="no page"):
        read_page(l3s, "no-such-id")


def _mini_dataset(root: Path, rows: list[dict] | None = None) -> Path:
    rows = rows if rows is not None else [{"id": "a", "site": "x.org", "url": None, "lang": "en"}]
    (root / "pages").mkdir(parents=True)
    (root / "truth").mkdir()
    (root / "index.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    for r in rows:
        (root / "pages" / f"{r['id']}.html.gz").write_bytes(gzip.compress(b"<p>hi</p>"))
        (root / "truth" / f"{r['id']}.txt").write_text("hi", encoding="utf-8")
    return root


def test_dataset_error_on_missing_index(tmp_path):
    (tmp_path / "pages").mkdir()
    (tmp_path / "truth").mkdir()
    with pytest.raises(DatasetError, match="index.jsonl"):
        load_dataset(tmp_path)


def test_dataset_error_on_missing_folder(tmp_path):
    with pytest.raises(DatasetError, match="no such directory"):
        load_dataset(tmp_path / "nope")


def test_dataset_error_on_missing_truth_dir(tmp_path):
    root = _mini_dataset(tmp_path / "ds")
    (root / "truth" / "a.txt").unlink()
    (root / "truth").rmdir()
    with pytest.raises(DatasetError, match="truth/"):
        load_dataset(root)


def test_dataset_error_on_malformed_row(tmp_path):
    root = _mini_dataset(tmp_path / "ds")
    with open(root / "index.jsonl", "a", encoding="utf-8") as fh:
        fh.write("{not json\n")
    with pytest.raises(DatasetError, match=r"index.jsonl:2"):
        load_dataset(root)


def test_dataset_error_on_row_without_id(tmp_path):
    root = _mini_dataset(tmp_path / "ds")
    (root / "index.jsonl").write_text('{"site": "x"}\n', encoding="utf-8")
    with pytest.raises(DatasetError, match="'id'"):
        load_dataset(root)


def test_dataset_error_on_missing_page_file(tmp_path):
    root = _mini_dataset(tmp_path / "ds")
    (root / "pages" / "a.html.gz").unlink()
    with pytest.raises(DatasetError, match="pages/a.html.gz"):
        load_dataset(root)


def test_mini_dataset_loads(tmp_path):
    ds = load_dataset(_mini_dataset(tmp_path / "ds"))
    assert ds.ids == ["a"] and read_page(ds, "a") == "<p>hi</p>"


# --------------------------------------------------------------------------- evaluate


def test_truth_extractor_scores_one(l3s, ids10):
    res = evaluate(l3s, truth_extractor(l3s), ids10)
    assert res.pages == N
    assert res.failures == 0
    assert res.f1 == 1.0 and res.precision == 1.0 and res.recall == 1.0
    assert [r.id for r in res.rows] == ids10
    assert all(r.ms >= 0 for r in res.rows)
    assert res.ms_median >= 0 and res.ms_p95 >= res.ms_median


def test_empty_extractor_scores_zero(l3s, ids10):
    res = evaluate(l3s, empty_extractor, ids10, name="empty")
    assert res.extractor == "empty"
    assert res.f1 == 0.0 and res.recall == 0.0 and res.precision == 0.0
    assert res.failures == 0


def test_raising_extractor_is_counted_not_fatal(l3s, ids10):
    calls = []

    def flaky(html: str, url: str | None) -> str:
        calls.append(url)
        if len(calls) % 2 == 0:
            raise RuntimeError("boom")
        return html

    res = evaluate(l3s, flaky, ids10)
    assert res.pages == N
    assert res.failures == N // 2
    assert res.first_error == f"{ids10[1]}: RuntimeError: boom"
    failed = [r for r in res.rows if r.error]
    assert all(r.f1 == 0.0 for r in failed)
    assert len(res._times) == N - N // 2  # failed pages are left out of the timings


def test_non_string_result_counts_as_failure(l3s, ids10):
    res = evaluate(l3s, lambda html, url: 42, ids10[:2])
    assert res.failures == 2 and "TypeError" in res.first_error


def test_predictions_are_written(l3s, ids10, tmp_path):
    out = tmp_path / "pred" / "l3s_gn1"
    res = evaluate(l3s, truth_extractor(l3s), ids10[:3], predictions_dir=out)
    assert res.f1 == 1.0
    files = sorted(p.name for p in out.iterdir())
    assert files == sorted(f"{i}.txt" for i in ids10[:3])
    assert (out / f"{ids10[0]}.txt").read_text(encoding="utf-8") == read_truth(l3s, ids10[0])


def test_percentile():
    assert percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert percentile([0.0, 10.0], 95) == pytest.approx(9.5)
    assert math.isnan(percentile([], 50))


# --------------------------------------------------------------------------- selection


def test_split_keeps_only_test_ids(l3s, tmp_path):
    split_file = tmp_path / "split.json"
    test_ids = [l3s.ids[3], l3s.ids[1]]
    split_file.write_text(json.dumps({
        "version": 1,
        "datasets": {"l3s_gn1": {"train": l3s.ids[4:], "test": test_ids + ["not-there"]}},
    }))
    notes: list[str] = []
    ids = select_ids(l3s, load_split(split_file), notes=notes)
    assert ids == [l3s.ids[1], l3s.ids[3]]  # index order
    assert any("not in the dataset" in n for n in notes)


def test_split_leaves_unnamed_datasets_whole(l3s):
    split = {"other": {"train": [], "test": []}}
    assert select_ids(l3s, split) == l3s.ids


def test_malformed_split_file(tmp_path):
    bad = tmp_path / "split.json"
    bad.write_text('{"version": 2}')
    with pytest.raises(DatasetError):
        load_split(bad)


def test_min_site_pages_and_limit(l3s):
    per_site: dict[str, int] = {}
    for r in l3s.rows:
        if r.site is not None:
            per_site[r.site] = per_site.get(r.site, 0) + 1
    ids = select_ids(l3s, min_site_pages=5)
    assert ids and all(per_site.get(l3s.record(i).site, 0) >= 5 for i in ids)
    assert select_ids(l3s, min_site_pages=5, limit=3) == ids[:3]
    assert select_ids(l3s, limit=4) == l3s.ids[:4]


# --------------------------------------------------------------------------- command


def _run_eval(argv: list[str], monkeypatch, extractor) -> int:
    monkeypatch.setattr(runner, "pagesieve_extractor", lambda: extractor)
    parser = argparse.ArgumentParser()
    runner.add_arguments(parser)
    return runner.main(parser.parse_args(argv))


def test_cli_json_predictions_and_split_file(l3s, tmp_path, monkeypatch, capsys):
    split_file = tmp_path / "split.json"
    split_file.write_text(json.dumps(
        {"version": 1, "datasets": {"l3s_gn1": {"train": l3s.ids[5:], "test": l3s.ids[:5]}}}
    ))
    out = tmp_path / "pred"
    code = _run_eval(
        [str(l3s.path), "--json", "--predictions", str(out), "--split-file", str(split_file), "--limit", "3"],
        monkeypatch, truth_extractor(l3s),
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    (entry,) = report["datasets"]
    assert entry["name"] == "l3s_gn1" and entry["pages"] == 3 and entry["f1"] == 1.0
    assert {"precision", "recall", "ms_median", "ms_p95", "peers"} <= set(entry)
    assert sorted(p.name for p in (out / "l3s_gn1").iterdir()) == sorted(f"{i}.txt" for i in l3s.ids[:3])


def test_cli_table_split_all(l3s, tmp_path, monkeypatch, capsys):
    code = _run_eval([str(l3s.path), "--split", "all", "--limit", "2"], monkeypatch, empty_extractor)
    assert code == 0
    out = capsys.readouterr().out
    assert "l3s_gn1" in out and "0.000" in out and "ms median" in out


def test_cli_missing_split_file_is_a_read_error(l3s, tmp_path, monkeypatch):
    from pagesieve.errors import ReadError

    with pytest.raises(ReadError):
        _run_eval([str(l3s.path), "--split-file", str(tmp_path / "nope.json")], monkeypatch, empty_extractor)


def test_cli_broken_dataset_folder(tmp_path, monkeypatch):
    (tmp_path / "broken").mkdir()
    with pytest.raises(DatasetError) as exc_info:
        _run_eval([str(tmp_path / "broken")], monkeypatch, empty_extractor)
    assert exc_info.value.exit_code == 6


# --------------------------------------------------------------------------- peers and bench


def test_missing_peer_names_the_install_command(monkeypatch):
    import sys

    from pagesieve_dev.evaluation.peers import MissingPeerError, get_peer

    monkeypatch.setitem(sys.modules, "trafilatura", None)  # makes `import trafilatura` fail
    with pytest.raises(MissingPeerError, match=r"pip install -e '\.\[peers\]'") as exc_info:
        get_peer("trafilatura")
    assert exc_info.value.exit_code == 7


def test_readability_peer_returns_the_article_text():
    from pagesieve_dev.evaluation.peers import get_peer

    pytest.importorskip("readability")
    body = "".join(f"<p>Paragraph {i} of the story, with enough words to count as text.</p>" for i in range(8))
    html = f"<html><body><div class='nav'><a href='/'>Home</a></div><div class='article'>{body}</div></body></html>"
    answer = get_peer("readability")(html, None)
    assert "Paragraph 0 of the story" in answer.body and "Home" not in answer.body
    assert get_peer("readability", header=False)(html, None) == answer.body  # the text alone, for timings
    titled = get_peer("readability")(html.replace("<body>", "<head><title>Harbour news</title></head><body>"), None)
    assert titled.header == ("Harbour news",) and titled.body == answer.body


def test_run_bench_times_every_page_and_counts_failures():
    from pagesieve_dev.evaluation.bench import BenchPages, run_bench

    calls = []

    def extract(html, url):
        calls.append(html)
        if html == "bad":
            raise ValueError("nope")
        return html.upper()

    pages = [BenchPages("d", [("1", "a", None), ("2", "bad", None), ("3", "c", "http://x")])]
    rows = run_bench(pages, extract, repeat=2, warmup=1)
    assert [r.name for r in rows] == ["d", "all"]
    assert rows[0].pages == 3 and rows[0].failures == 1 and len(rows[0].ms) == 2
    assert rows[0].first_error.startswith("2: ValueError")
    assert rows[0].peak_rss_mb > 0
    # 1 warm-up call, then 2 repeats of 3 pages (the failing page is not retried)
    assert len(calls) == 1 + 3 + 2


def test_run_bench_pauses_the_collector_around_each_call_as_the_host_does():
    import gc

    from pagesieve_dev.evaluation.bench import BenchPages, run_bench

    seen = []

    def extract(html, url):
        seen.append(gc.isenabled())
        return html

    assert gc.isenabled()
    run_bench([BenchPages("d", [("1", "a", None), ("2", "b", None)])], extract, warmup=0)
    assert seen == [False, False] and gc.isenabled()
    seen.clear()
    run_bench([BenchPages("d", [("1", "a", None)])], extract, warmup=0, collector="on")
    assert seen == [True]
    with pytest.raises(ValueError, match="collector"):
        run_bench([], extract, collector="off")


def test_each_page_is_scored_by_its_truths_convention(tmp_path):
    """Issue 52: where the index says the truth keeps the headline, the header goes in front of
    the body before scoring; elsewhere the body alone is scored; a plain ``str`` answer is
    scored as it is."""
    import gzip
    import json

    from pagesieve_dev.evaluation.datasets import load_dataset
    from pagesieve_dev.evaluation.results import evaluate
    from pagesieve_dev.evaluation.scoring import Answer, scored_text

    folder = tmp_path / "two"
    (folder / "pages").mkdir(parents=True)
    (folder / "truth").mkdir()
    rows = [{"id": "kept", "site": "a.example", "url": None, "lang": "en", "truth_has_headline": True},
            {"id": "body", "site": "b.example", "url": None, "lang": "en", "truth_has_headline": False}]
    (folder / "index.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    for r in rows:
        (folder / "pages" / f"{r['id']}.html.gz").write_bytes(gzip.compress(b"<html><body><p>x</p></body></html>"))
    (folder / "truth" / "kept.txt").write_text("Storm closes the harbour\nBy Ana Ruiz\nThe boats stay in.\n")
    (folder / "truth" / "body.txt").write_text("The boats stay in.\n")
    answer = Answer("The boats stay in.", ("Storm closes the harbour", "By Ana Ruiz"))
    result = evaluate(load_dataset(folder), lambda html, url: answer)
    assert [(row.id, row.f1) for row in result.rows] == [("kept", 1.0), ("body", 1.0)]
    # the same text as one str is scored as it is: the header is noise where the truth is the body
    flat = evaluate(load_dataset(folder), lambda html, url: scored_text(answer, True))
    assert flat.rows[0].f1 == 1.0 and flat.rows[1].p == 4 / 11
    assert scored_text(Answer("", ("T",)), True) == "T" and scored_text(None, True) == ""
    with pytest.raises(TypeError):
        scored_text(3, False)
