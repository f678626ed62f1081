"""The page summaries of the learn pass, grouped by site across the parts of the crawl.

A site's template library learns its pages one after the other in batches of ten (seed 000),
so what it learns depends on where a batch begins: learned part by part and merged, a site
spread over parts would get other templates than learned in one go. So the learn pass is two
steps. Each part's task (:func:`~pagesieve.crawl.pages.judge_part`) writes the summaries of
its pages (:class:`~pagesieve.templates.learn.PageSummary`: leaves and block fingerprints, what
:meth:`~pagesieve.crawl.learn.SiteLearning.learn` reads) to ``DIR/judged/NAME.summaries``,
grouped by site bucket (:func:`bucket_of`); then one task per bucket (:func:`learn_bucket`)
reads its stretch of every part's file in crawl order (input files in order, a file's parts
in file order) and learns each of its sites page by page. Every site is thus learned from all
its pages in crawl order, however the crawl is cut into parts and whichever worker ran them:
the same templates as one part per file gives (``tests/test_crawl.py``).

File: frames of :func:`~pagesieve.crawl.judged.frame` (pickled, LZ4), each ``(site, url key,
summary)``, the frames of a bucket together; the task returns where each bucket's stretch is
(``{bucket: (offset, length)}``). Written whole or not at all; removed once the learn pass ends.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from pagesieve.crawl.judged import frame, read_frame
from pagesieve.crawl.learn import SiteLearning, learn_summaries, part_summaries
from pagesieve.crawl.output import atomic_path
from pagesieve.templates.learn import PageSummary


def summaries_path(out_dir: str | Path, name: str) -> Path:
    """``DIR/judged/NAME.summaries``."""
    return Path(out_dir) / "judged" / f"{name}.summaries"


def bucket_of(site: str, buckets: int) -> int:
    """The bucket (0 to ``buckets - 1``) of ``site``: CRC-32 of its name, the same on every
    worker and run (Python's ``hash`` of a string is salted per process)."""
    return zlib.crc32(site.encode("utf-8", "surrogatepass")) % buckets


class SummaryBuckets:
    """The summaries of one part, by bucket, until :meth:`write` (held in memory, LZ4-packed:
    at most ``--part-records`` pages' leaves).

    Args:
        buckets: number of buckets (>= 1).

    Raises:
        ValueError: ``buckets`` below 1.
    """

    def __init__(self, buckets: int) -> None:
        if buckets < 1:
            raise ValueError(f"buckets must be at least 1, not {buckets}")
        self.buckets = buckets
        self._frames: dict[int, list[bytes]] = {}

    def add(self, site: str, key: bytes, summary: PageSummary) -> None:
        """One page's summary (``key``: its :func:`~pagesieve.templates.store.url_key`)."""
        self._frames.setdefault(bucket_of(site, self.buckets), []).append(frame((site, key, summary)))

    def write(self, path: Path) -> dict[int, tuple[int, int]]:
        """Write the file (atomically; nothing when no page was added) and return
        ``{bucket: (offset, length)}`` of each bucket's frames in it (bytes)."""
        if not self._frames:
            return {}
        index: dict[int, tuple[int, int]] = {}
        with atomic_path(path) as tmp, open(tmp, "wb") as f:
            for bucket in sorted(self._frames):
                data = b"".join(self._frames[bucket])
                index[bucket] = (f.tell(), len(data))
                f.write(data)
        self._frames = {}
        return index


def _stretch(path: str, offset: int, length: int) -> Iterator[tuple[str, bytes, PageSummary]]:
    with open(path, "rb") as f:
        f.seek(offset)
        data = io.BytesIO(f.read(length))
    while True:
        try:
            yield read_frame(data)
        except EOFError:
            return


def learn_bucket(sources: Iterable[tuple[str, int, int]]) -> dict[str, SiteLearning]:
    """Learn the sites of one bucket from the parts' summary files, in the order of ``sources``
    (crawl order): ``(path, offset, length)`` of the bucket's stretch of each file.

    Returns:
        ``{site: SiteLearning}``, as :func:`~pagesieve.crawl.learn.learn_summaries` of all the
        bucket's pages in that order.

    Raises:
        OSError: a file is missing. JudgedFileError: a stretch is damaged.
    """
    return learn_summaries(item for path, offset, length in sources for item in _stretch(path, offset, length))


def summarise_part(path: str | Path, out_dir: str | Path, name: str, sites: set[str] | frozenset[str],
                   max_record_bytes: int, fingerprints: bool, start: int = 0, end: int | None = None,
                   buckets: int = 1) -> dict[int, tuple[int, int]]:
    """The learn task of a part whose part file is already written (``--resume`` with the
    templates to learn again): only the summaries of its pages of ``sites``
    (:func:`~pagesieve.crawl.learn.part_summaries`, no page judged), written as
    :func:`~pagesieve.crawl.pages.judge_part` writes them.

    Returns:
        ``{bucket: (offset, length)}`` of :func:`summaries_path` (empty: no page learned).

    Raises:
        OSError: the file cannot be written (then none is left behind).
    """
    out = SummaryBuckets(buckets)
    for site, key, summary in part_summaries(path, sites, max_record_bytes, fingerprints, start, end):
        out.add(site, key, summary)
    return out.write(summaries_path(out_dir, name))
