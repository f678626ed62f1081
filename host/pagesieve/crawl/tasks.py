"""The tasks of ``pagesieve batch`` (:mod:`pagesieve.crawl.job`) as its workers run them:
a part's learn task (:func:`learn_task`), a site bucket's (:func:`bucket_task`) and a part's
extract task (:func:`extract_task`), with the learned sites a worker keeps between its extract
tasks (:func:`worker_templates`).
"""

from __future__ import annotations

from pathlib import Path

from pagesieve.crawl.learn import SiteLearning
from pagesieve.crawl.output import read_templates
from pagesieve.crawl.pages import PartStats, extract_part, judge_part
from pagesieve.crawl.summaries import learn_bucket, summarise_part


MAX_CACHED_SITES = 5000
"""Learned sites a worker keeps between its extract tasks (:func:`worker_templates`). A site's
learning takes about 30 KB (big9, dragnet, daniel: 109 sites, 3 MB pickled), so at most about
150 MB a worker."""

_worker_cache: dict = {"key": None, "sites": {}}


def worker_templates(templates_file: Path, sites: list[str]) -> dict[str, SiteLearning]:
    """The learning of ``sites`` from ``templates.parquet``, read once per worker process: the
    sites already read by an earlier task of the same run (the same file: path, size and
    modification time) are reused, the others read (:func:`~pagesieve.crawl.output.read_templates`
    of those sites only). Reading and indexing every site of the fixture crawl costs 0.17 s, so
    reading them again for each part cost more than a part's own template work. The cache is
    emptied when it would hold more than :data:`MAX_CACHED_SITES` sites."""
    stat = templates_file.stat()
    key = (str(templates_file.resolve()), stat.st_size, stat.st_mtime_ns)
    cache = _worker_cache
    if cache["key"] != key:
        cache["key"], cache["sites"] = key, {}
    known = cache["sites"]
    missing = [s for s in sites if s not in known]
    if missing:
        if len(known) + len(missing) > MAX_CACHED_SITES:
            known.clear()
            missing = list(sites)
        known.update(read_templates(templates_file, missing))
    return {s: known[s] for s in sites if s in known}


def extract_task(path: str, out_dir: str, templates_file: str | None, sites: list[str], fmt: str, markdown: bool,
                 kinds: tuple[str, ...], max_record_bytes: int, name: str, page_timeout: float | None,
                 judged: dict | None, start: int, end: int | None,
                 learned: list[tuple[dict[str, SiteLearning], str | None]] | None = None) -> PartStats:
    """The extract task of one part: take its sites from ``learned`` (the results of the
    :func:`bucket_task` of its sites' buckets) or else from ``templates.parquet``
    (:func:`worker_templates`), and write the part (from the judged file of the learn pass when
    there is one with the header ``judged``)."""
    templates: dict[str, SiteLearning] = {}
    if learned is not None:
        templates = {s: bucket[s] for bucket, _ in learned for s in sites if s in bucket}
    elif templates_file and sites:
        templates = worker_templates(Path(templates_file), sites)
    return extract_part(path, out_dir, templates, fmt, markdown, kinds, max_record_bytes, name, page_timeout, judged,
                        start, end)


def learn_task(judge: bool, path: str, out_dir: str, name: str, sites: frozenset[str], markdown: bool, diff: bool,
               max_record_bytes: int, page_timeout: float | None, start: int, end: int | None,
               buckets: int) -> dict[int, tuple[int, int]]:
    """The learn task of one part: :func:`~pagesieve.crawl.pages.judge_part` when ``judge``
    (its part is still to be written), else :func:`~pagesieve.crawl.summaries.summarise_part`;
    both return where each site bucket's summaries are. One function for both, so that a
    pass is one ``map`` (:func:`~pagesieve.crawl.cluster.submit_pass`)."""
    if judge:
        return judge_part(path, out_dir, name, sites, markdown, diff, max_record_bytes, page_timeout, start, end, buckets)
    return summarise_part(path, out_dir, name, sites, max_record_bytes, diff, start, end, buckets)


def bucket_task(sources: list[tuple[str, int, int]]) -> tuple[dict[str, SiteLearning], str | None]:
    """The task of one site bucket: ``(learn_bucket(sources), None)``, or ``({}, why)`` when its
    learning failed (a damaged summary file), so that the extract tasks given its result go
    on with their pages as single pages, as they would without a template."""
    try:
        return learn_bucket(sources), None
    except Exception as exc:  # noqa: BLE001 - a bucket's sites are then not learned; the job goes on
        return {}, f"{type(exc).__name__}: {exc}"
