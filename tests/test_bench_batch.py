"""``pagesieve-dev bench-batch --one-file``: its mixed WARC file and trafilatura's process pool."""

from __future__ import annotations

import pytest

pytest.importorskip("fastwarc", reason="the batch extra (pip install 'pagesieve[batch]') is not installed")
pytest.importorskip("trafilatura", reason="trafilatura (the peer) is not installed")

from pagesieve.crawl.records import WarcPage, read_warc  # noqa: E402
from pagesieve_dev.evaluation.datasets import load_dataset  # noqa: E402
from pagesieve_dev.evaluation.warc_fixture import write_mixed_warc  # noqa: E402


def test_the_mixed_file_deals_the_datasets_in_turn_and_the_pool_reads_every_page_once(datasets_dir, tmp_path):
    from pagesieve_dev.evaluation.bench_batch import trafilatura_pool

    big9, dragnet = load_dataset(datasets_dir / "big9"), load_dataset(datasets_dir / "dragnet")
    path = tmp_path / "ONE.warc.gz"
    urls = write_mixed_warc([(big9, 6), (dragnet, 3)], path)
    keys = list(urls)
    assert [name for name, _ in keys] == ["big9", "dragnet"] * 3 + ["big9"] * 3
    assert len({i for name, i in keys if name == "big9"}) == 6
    assert [p.url for p in read_warc(path) if isinstance(p, WarcPage)] == list(urls.values())
    with pytest.raises(ValueError, match="has 280 pages"):
        write_mixed_warc([(big9, 281)], tmp_path / "too_many.warc.gz")

    pool = trafilatura_pool(str(path), workers=2, part_records=2)  # 5 parts over 2 processes
    assert pool["pages"] == 9
    assert 1 <= len(pool["rss_mib"]) <= 2 and all(v > 0 for v in pool["rss_mib"])


def test_round_ratios_pair_the_runs_of_each_round():
    """The table divides the fastest runs, which may come from different rounds; the round by
    round ratios divide the runs made one right after the other."""
    from pagesieve_dev.evaluation.bench_batch import round_ratios

    def row(extractor, workers, rounds):
        return {"extractor": extractor, "workers": workers, "round_seconds": rounds, "seconds": min(rounds)}

    rows = [row("pagesieve batch (templates)", 1, [20.0, 30.0, 24.0]), row("trafilatura 2.3.1", 1, [40.0, 60.0, 48.0]),
            row("pagesieve batch (templates)", 2, [16.0, 15.0, 12.0]), row("trafilatura 2.3.1", 2, [20.0, 30.0, 24.0])]
    two, one = round_ratios(rows)[1], round_ratios(rows)[0]
    assert one["x_fewest"] is None and one["x_trafilatura"] == [2.0, 2.0, 2.0]
    assert two["x_fewest"] == [1.25, 2.0, 2.0] and two["x_fewest_median"] == 2.0
    assert two["x_trafilatura"] == [1.25, 2.0, 2.0]
    assert min(rows[0]["round_seconds"]) / min(rows[2]["round_seconds"]) == 20.0 / 12.0  # the fastest runs: 1.67
    with pytest.raises(ValueError, match="same number of rounds"):
        round_ratios([row("pagesieve batch (templates)", 1, [1.0]), row("trafilatura 2.3.1", 1, [1.0, 2.0])])
