"""WCXB's own measures in ``pagesieve-dev eval`` (pagesieve_dev.evaluation.wcxb): word F1 by the
benchmark's tokenizer and the shares of its "with" and "without" snippets found, on real
wcxb_dev pages (skipped when the datasets folder is absent)."""

from __future__ import annotations

import argparse
import json

import pytest

from conftest import shared_dataset
from pagesieve.errors import DatasetError
from pagesieve_dev.evaluation import runner
from pagesieve_dev.evaluation.datasets import load_dataset, read_page, read_truth
from pagesieve_dev.evaluation.metric import prf
from pagesieve_dev.evaluation.results import evaluate
from pagesieve_dev.evaluation.wcxb import Snippets, found_share, read_snippets, score_page, word_prf


@pytest.fixture(scope="module")
def wcxb(datasets_dir):
    return shared_dataset(datasets_dir, "wcxb_dev")


@pytest.fixture(scope="module")
def ids(wcxb):
    """Twelve pages with snippets whose truth holds every 'with' snippet and no 'without' one."""
    picked = []
    for rec in wcxb.rows:
        sn = read_snippets(wcxb, rec)
        truth = read_truth(wcxb, rec.id).lower()
        if sn and sn.with_ and sn.without and all(s.lower() in truth for s in sn.with_) \
                and not any(s.lower() in truth for s in sn.without):
            picked.append(rec.id)
        if len(picked) == 12:
            break
    return picked


def test_word_f1_splits_as_wcxb_does_not_as_the_bag_f1():
    # an underscore joins a WCXB token, and a CJK run is one token; the bag F1 splits both
    assert word_prf("snake_case", "snake case") == (0.0, 0.0, 0.0)
    assert prf("snake_case", "snake case")[2] == 1.0
    assert word_prf("東京", "東 京")[2] == 0.0 and prf("東京", "東 京")[2] == 1.0
    # curly and straight apostrophes both split a word, so typography does not move it
    assert word_prf("the attorney\u2019s rate", "The attorney's rate.")[2] == 1.0
    # conventions of the benchmark's script for empty sides
    assert word_prf("", "") == (1.0, 1.0, 1.0)
    assert word_prf("noise", "") == (0.0, 0.0, 0.0)
    assert word_prf("", "truth") == (0.0, 0.0, 0.0)


def test_snippets_are_found_as_lower_cased_substrings():
    assert found_share("Menu\nThe Story Begins here.", ["the story begins", "absent"]) == 0.5
    assert found_share("anything", []) == 1.0
    # a curly apostrophe on the page does not match a snippet written with a straight one:
    # WCXB's check is literal, so it is kept literal here
    assert found_share("attorney\u2019s rate", ["attorney's rate"]) == 0.0
    score = score_page("Home\nThe body.", "The body.", Snippets(("the body",), ("home", "login")))
    assert score.with_found == 1.0 and score.without_found == 0.5 and 0 < score.f1 < 1


def test_truth_and_a_whole_page_dump_score_as_they_should(wcxb, ids):
    assert len(ids) == 12
    by_html = {read_page(wcxb, i): read_truth(wcxb, i) for i in ids}
    perfect = evaluate(wcxb, lambda html, url: by_html[html], ids)
    assert perfect.wcxb == {"pages": 12, "word_f1": 1.0, "with_found": 1.0, "without_found": 0.0}
    # the page's whole markup holds the main content and its boilerplate: every 'without'
    # snippet that is plain text on the page is found, and precision is low
    dump = evaluate(wcxb, lambda html, url: html, ids, name="dump").wcxb
    assert dump["without_found"] > 0.5 and dump["word_f1"] < 0.5
    empty = evaluate(wcxb, lambda html, url: "", ids, name="empty").wcxb
    assert empty == {"pages": 12, "word_f1": 0.0, "with_found": 0.0, "without_found": 0.0}


def test_datasets_without_snippets_get_no_wcxb_figures(datasets_dir):
    ds = shared_dataset(datasets_dir, "l3s_gn1")
    res = evaluate(ds, lambda html, url: "", ds.ids[:2])
    assert res.wcxb is None and "wcxb" not in res.summary()


def test_a_broken_snippets_file_is_a_dataset_error(tmp_path):
    root = tmp_path / "ds"
    (root / "pages").mkdir(parents=True)
    (root / "truth").mkdir()
    (root / "labels").mkdir()
    (root / "index.jsonl").write_text(json.dumps({"id": "a", "snippets_file": "labels/a.snippets.json"}) + "\n")
    (root / "truth" / "a.txt").write_text("hi")
    import gzip

    (root / "pages" / "a.html.gz").write_bytes(gzip.compress(b"<p>hi</p>"))
    ds = load_dataset(root)
    assert read_snippets(ds, ds.record("a")) is None  # named but absent: no snippets
    (root / "labels" / "a.snippets.json").write_text("{not json")
    with pytest.raises(DatasetError, match="not a snippets file"):
        read_snippets(ds, ds.record("a"))


def test_eval_prints_and_reports_the_wcxb_figures(wcxb, monkeypatch, capsys):
    first = wcxb.ids[:12]
    by_html = {read_page(wcxb, i): read_truth(wcxb, i) for i in first}
    monkeypatch.setattr(runner, "pagesieve_extractor", lambda: lambda html, url: by_html[html])
    parser = argparse.ArgumentParser()
    runner.add_arguments(parser)
    assert runner.main(parser.parse_args([str(wcxb.path), "--split", "all", "--limit", "12", "--json"])) == 0
    (entry,) = json.loads(capsys.readouterr().out)["datasets"]
    snippets = [read_snippets(wcxb, wcxb.record(i)) for i in first]
    with_found = [found_share(read_truth(wcxb, i), s.with_) for i, s in zip(first, snippets) if s]
    assert entry["wcxb"]["pages"] == len(with_found) > 0 and entry["wcxb"]["word_f1"] == 1.0
    assert entry["wcxb"]["with_found"] == pytest.approx(sum(with_found) / len(with_found), abs=1e-6)
    assert runner.main(parser.parse_args([str(wcxb.path), "--split", "all", "--limit", "12"])) == 0
    out = capsys.readouterr().out
    assert f"wcxb_dev / pagesieve: WCXB word F1 1.000; snippets found: 'with' {sum(with_found) / len(with_found):.3f}" in out
