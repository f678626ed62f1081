"""``pagesieve-dev bench --compare/--stages``: the interleaved per-page comparison and the stage
clock, on real dataset pages. No figure here is a timing bar: the tests check what is timed,
in which order, and that timing changes no answer."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pagesieve_dev.evaluation.bench import load_pages
from pagesieve_dev.evaluation.bench_peers import run_pairs
from pagesieve_dev.evaluation.bench_stages import STAGES, StageClock


def _pages(datasets_dir, n=4):
    return load_pages([datasets_dir / "big9"], n)


def test_pairs_alternate_order_and_pair_the_same_pages(datasets_dir):
    calls = []

    def ours(html, url):
        calls.append(("ours", html))
        return len(html)

    def theirs(html, url):
        calls.append(("theirs", html))
        if html is listed[3][1]:
            raise ValueError("peer failed")
        return len(html)

    pages = _pages(datasets_dir)
    listed = list(pages[0].pages)
    pages[0].pages = listed
    rows = run_pairs(pages, ours, theirs)
    order = [who for who, _url in calls]
    # page 0: ours first; page 1: the peer first; page 2: ours first; page 3: the peer first (it fails)
    assert order[:6] == ["ours", "theirs", "theirs", "ours", "ours", "theirs"]
    assert [html for _who, html in calls[:4]] == [listed[0][1]] * 2 + [listed[1][1]] * 2
    big9, total = rows
    assert len(big9.ours) == len(big9.theirs) == 3 and big9.failures == 1
    assert total.ours == big9.ours and total.failures == 1


def test_stage_clock_changes_no_answer_and_puts_the_stages_back(datasets_dir):
    import pagesieve.extract as ex
    from pagesieve.classify.classifier import BlockClassifier

    originals = (ex.parse_html, ex.segment, ex.settle, BlockClassifier.verdict)
    pages = list(_pages(datasets_dir, 3)[0].pages)
    plain = [ex.extract(html, url) for _pid, html, url in pages]
    clock = StageClock()
    timed = []
    for _pid, html, url in pages:
        with clock.timing():
            timed.append(ex.extract(html, url))
    assert [a.text for a in timed] == [a.text for a in plain]
    assert [a.noise_ids for a in timed] == [a.noise_ids for a in plain]
    assert (ex.parse_html, ex.segment, ex.settle, BlockClassifier.verdict) == originals
    for stage in ("parse", "preprocess", "segment", "features", "classify", "settle", "render"):
        assert clock.seconds[stage] > 0, stage
    assert set(clock.seconds) <= set(STAGES)


def test_stage_clock_counts_nested_time_once():
    clock = StageClock()
    import time

    def inner():
        time.sleep(0.02)

    def outer():
        time.sleep(0.02)
        wrapped_inner()

    wrapped_inner = clock._wrap("segment", inner)
    t0 = time.perf_counter()
    clock._wrap("parse", outer)()
    wall = time.perf_counter() - t0
    assert clock.seconds["segment"] >= 0.02 and clock.seconds["parse"] >= 0.02
    assert 0.04 <= clock.seconds["parse"] + clock.seconds["segment"] <= wall
    assert clock.seconds["parse"] < wall - 0.015  # the inner stage's time is not in the outer's


def test_bench_command_prints_the_ratio_and_the_stages(datasets_dir):
    pytest.importorskip("trafilatura", reason="trafilatura is not installed (pip install -e '.[peers]')")
    out = subprocess.run([sys.executable, "-m", "pagesieve_dev", "bench", str(datasets_dir / "big9"), "--limit", "7",
                          "--compare", "trafilatura", "--stages"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "ratio of sums" in out.stdout and "median ratio" in out.stdout
    lines = {line.split()[0]: line for line in out.stdout.splitlines() if line.strip()}
    assert lines["big9"].split()[1] == "7"  # pages timed after the 5 warm-up pages, which are timed too
    for stage in STAGES:
        assert stage.split()[0] in lines


def test_repeated_passes_keep_each_pages_median_and_report_every_pass(datasets_dir):
    """With repeat, every page is timed once per whole pass; its time is the median of its
    passes, and each pass's figures over all pages are kept."""
    import time as _time

    seen: list[str] = []
    slow = {}

    def ours(html, url):
        seen.append(html)
        _time.sleep(slow.get(len(seen), 0.002))  # 2 ms a call; the 2nd call of the run 50 ms
        return len(html)

    def theirs(html, url):
        _time.sleep(0.002)
        return len(html)

    pages = _pages(datasets_dir, 3)  # read lazily: the passes must still see every page
    slow[2] = 0.05
    rows = run_pairs(pages, ours, theirs, repeat=3)
    big9, total = rows
    assert len(seen) == 9 and seen[:3] == seen[3:6] == seen[6:]  # 3 passes over the same 3 pages
    assert len(big9.ours) == len(big9.theirs) == 3 and len(total.passes) == 3
    assert max(big9.ours) < 40  # the page slow in one pass only: its median is not the slow time
    sums = [p[0] for p in total.passes]
    assert sums[0] > 5 and sums[1] < 5 and sums[2] < 5  # the first pass, with the slow call, shows it
