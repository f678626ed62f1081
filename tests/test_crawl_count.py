"""The count pass begun in a forked child while the local cluster starts (pagesieve.crawl.count),
on WARC files of real big9 pages."""

from __future__ import annotations

import os
import signal
import sys

import pytest

pytest.importorskip("distributed", reason="pagesieve batch needs the batch extra: pip install 'pagesieve[batch]'")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the early count forks (Linux only)")

from pagesieve.crawl.count import EarlyCount  # noqa: E402
from pagesieve.crawl.cluster import close_client, open_client  # noqa: E402
from pagesieve.crawl.job import BatchOptions, _count  # noqa: E402
from pagesieve.crawl.report import BatchSummary  # noqa: E402
from pagesieve.crawl.output import part_name  # noqa: E402
from pagesieve.crawl.parts import cut_file  # noqa: E402
from pagesieve_dev.evaluation.datasets import load_dataset  # noqa: E402
from pagesieve_dev.evaluation.warc_fixture import write_dataset_warcs  # noqa: E402


@pytest.fixture(scope="module")
def files(datasets_dir, tmp_path_factory):
    """48 big9 pages of 4 sites dealt over 4 WARC files, in input order."""
    big9 = load_dataset(datasets_dir / "big9")
    groups = sorted(big9.site_pages().items(), key=lambda kv: (-len(kv[1]), kv[0]))[:4]
    ids = [i for _site, page_ids in groups for i in page_ids[:12]]
    folder = tmp_path_factory.mktemp("count")
    write_dataset_warcs(big9, folder, parts=4, ids=ids)
    return sorted(folder.glob("*.warc.gz"))


def _same(a, b) -> bool:
    return a.parts == b.parts and a.sites == b.sites and a.part_sites == b.part_sites


def test_the_child_counts_every_file_as_the_count_task_does(files):
    expected = [cut_file(f, part_name(f), 5) for f in files]
    assert sum(len(c.parts) for c in expected) > len(files)  # each file cut into several parts
    with EarlyCount([(str(f), part_name(f)) for f in files], 5, 8 << 20, 4) as early:
        counted = early.finish()  # not stopped: the child counts every file, then ends
        assert early.take() == []  # every file begun: nothing left to count elsewhere
    assert sorted(counted) == list(range(len(files)))
    assert all(_same(counted[i], expected[i]) for i in range(len(files)))


def test_stopped_at_once_the_child_leaves_the_files_it_has_not_begun(files):
    """Whatever the child managed before the stop, the files it had not begun are said, the
    others are counted whole, and together they are every file."""
    expected = [cut_file(f, part_name(f), 5) for f in files]
    with EarlyCount([(str(f), part_name(f)) for f in files], 5, 8 << 20, 4) as early:
        pending = early.take()
        counted = early.finish()
    assert pending == list(range(len(files) - len(pending), len(files)))  # the files after those begun
    assert set(counted) | set(pending) == set(range(len(files)))
    assert all(_same(cut, expected[i]) for i, cut in counted.items())


def test_what_cut_file_raises_comes_back_as_the_count_of_that_file(files):
    with EarlyCount([(str(f), part_name(f)) for f in files[:2]], 0, 8 << 20, 4) as early:  # part_records 0
        counted = early.finish()
    assert sorted(counted) == [0, 1]
    assert all(isinstance(c, ValueError) and "part_records" in str(c) for c in counted.values())


def test_a_killed_child_leaves_its_files_to_the_cluster(files, tmp_path):
    """The count pass of a job ends whole when the early child dies: the files it did not
    finish are counted on the cluster, and the cuts are those of the count task."""
    client = open_client(workers=1)
    try:
        opts = BatchOptions(inputs=[str(f) for f in files], out_dir=tmp_path, part_records=5, progress=False)
        early = EarlyCount([(str(f), part_name(f)) for f in files], 5, 8 << 20, 4)
        os.kill(early._pid, signal.SIGKILL)  # the child this test started, by its id
        summary = BatchSummary(inputs=len(files), out_dir=str(tmp_path), part_records=5)
        cuts = _count(client, files, opts, summary, 4, early)
    finally:
        close_client(client)
    assert list(cuts) == [part_name(f) for f in files] and not summary.parts_failed
    assert all(_same(cuts[part_name(f)], cut_file(f, part_name(f), 5)) for f in files)


def test_a_job_whose_early_count_cannot_fork_counts_on_its_cluster(files, tmp_path, monkeypatch):
    """No process to be had for the early count (fork fails): the job counts on its own local
    cluster and gives the cuts and rows it always gives."""
    import pagesieve.crawl.job as job

    def no_fork(*args):  # what os.fork raises when the system has no process to give
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(job, "EarlyCount", no_fork)  # the job's early count only: Dask still forks its workers
    run_batch = job.run_batch
    summary = run_batch(BatchOptions(inputs=[str(f) for f in files], out_dir=tmp_path / "out", part_records=5,
                                     workers=1, progress=False))
    assert summary.inputs == len(files) and not summary.parts_failed
    assert summary.parts == sum(len(cut_file(f, part_name(f), 5).parts) for f in files)
    assert summary.pages == 48
