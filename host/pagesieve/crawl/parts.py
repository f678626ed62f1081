"""The parts of ``pagesieve batch``: every input file cut into runs of a bounded number of records.

The count pass (:func:`cut_file`) reads each file once without parsing a page, counts the
pages of each site and notes where every :data:`PART_RECORDS`-th response record starts (the
gzip member's offset in a ``.warc.gz``, the byte offset in a plain ``.warc``); a :class:`Part`
is the byte range from one such start to the next. The learn and extract passes read a part by
seeking to its start (:func:`~pagesieve.crawl.records.read_warc` with ``start`` and ``end``), so
any number of workers share one file, and each part is written (and resumed) on its own.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pagesieve.crawl.records import MAX_RECORD_BYTES, WarcPage, read_warc
from pagesieve.templates.urls import site_of

PART_RECORDS = 100
"""Default response records per part (``--part-records``), by measurement (``docs/crawl.md``,
"Parts within a file"; one WARC file of 926 mixed pages, 2 workers, 2026-11-27). A pass ends
when its last part does, so a worker may stand idle for up to one part's time at the end: with
250 records the file gave 4 parts, and one worker waited 4.0 s of a 17.7 s learn pass
(``distributed.get_task_stream``); with 100, 10 parts, the two workers' last learn tasks ended
1.5 s apart. A part's fixed costs (a Dask task per pass, a forked page process, its part,
stats, judged and summary files) are about 0.1 s, some 3 % of the 2 to 4 s that 100 records
take one core here. A Common Crawl file of about 28,000 records gives 280 parts; on a large
cluster raise it (a few thousand) to bound the number of tasks and part files."""

TAIL_SPLIT = 4
"""A file's tail (its last full part and the records after it) is cut into parts of about
``part_records / TAIL_SPLIT`` records (:func:`tail_sizes`). The passes run the largest parts
first (:func:`~pagesieve.crawl.cluster.largest_first`), so these small parts come last and fill
the gaps while the other workers end their last big part: the list scheduling of decreasing
task sizes (Graham 1969; the idea of guided self-scheduling, Polychronopoulos and Kuck 1987).
Parts of the same number of records take unequal times (2.3 to 3.9 s for the 100-record
parts of ``pagesieve-dev bench-batch --one-file``'s file), and with the plain cut the two
workers' last learn tasks ended 1.2 s apart (``distributed.get_task_stream``, 2026-11-27)."""


@dataclass(frozen=True, slots=True)
class Part:
    """A run of records of one input file: the unit of work of the learn and extract passes.

    Attributes:
        path: the WARC file. name: the part's name (``<file part name>-<index, 5 digits>``,
        the names of its output files). index: its place in the file (0 first). start: the
        byte where its first record starts (0 for the first part). end: where the next part
        starts, ``None`` for the file's last part. records: response records (and unreadable
        stretches) counted in it. pages: its HTML pages of status 200.
    """

    path: str
    name: str
    index: int
    start: int
    end: int | None
    records: int
    pages: int


@dataclass(slots=True)
class FileCut:
    """What the count pass found in one file: its parts and the pages of each site.

    Attributes:
        sites: ``{site: pages}`` of the whole file. parts: its :class:`Part` list, in file
        order. part_sites: ``{site: pages}`` of each part, in the same order.
    """

    sites: Counter[str] = field(default_factory=Counter)
    parts: list[Part] = field(default_factory=list)
    part_sites: list[Counter[str]] = field(default_factory=list)


def tail_sizes(records: int, part_records: int, tail_split: int = TAIL_SPLIT) -> list[int]:
    """Records of each part of a file of ``records`` records: parts of ``part_records``, the
    file's tail (its last full part and what follows it) cut into parts of about
    ``part_records / tail_split`` (:data:`TAIL_SPLIT`), as equal as they can be. A file of at
    most ``part_records`` records is one part, and ``tail_split`` 1 gives the plain cut (the
    cut of runs made before the tail was cut finer, commit 6c1d169, kept for ``--resume``).

    >>> tail_sizes(926, 100)
    [100, 100, 100, 100, 100, 100, 100, 100, 21, 21, 21, 21, 21, 21]
    >>> tail_sizes(926, 100, 1)
    [100, 100, 100, 100, 100, 100, 100, 100, 100, 26]

    Raises:
        ValueError: ``part_records`` or ``tail_split`` below 1.
    """
    if part_records < 1 or tail_split < 1:
        raise ValueError(f"part_records and tail_split must be at least 1, not {part_records} and {tail_split}")
    if records <= part_records:
        return [records]
    full, rest = divmod(records, part_records)
    if tail_split == 1:
        return [part_records] * full + ([rest] if rest else [])
    tail = part_records + rest
    pieces = -(-tail // -(-part_records // tail_split))  # ceil(tail / ceil(part_records / tail_split))
    small, extra = divmod(tail, pieces)
    return [part_records] * (full - 1) + [small + 1] * extra + [small] * (pieces - extra)


def cut_file(path: str | Path, name: str, part_records: int = PART_RECORDS,
             max_record_bytes: int = MAX_RECORD_BYTES, tail_split: int = TAIL_SPLIT) -> FileCut:
    """The count pass of one file: read its records once (no page parsed) and cut it into
    parts of at most ``part_records`` records each, the file's tail in smaller ones
    (:func:`tail_sizes`).

    Args:
        path: the WARC file. name: its part name (:func:`~pagesieve.crawl.output.part_name`).
        part_records: records per part (>= 1). max_record_bytes: see
        :data:`~pagesieve.crawl.records.MAX_RECORD_BYTES`. tail_split: see :data:`TAIL_SPLIT`.

    Returns:
        the :class:`FileCut`; a file with no record (empty, unreadable) gives one part.

    Raises:
        ValueError: ``part_records`` or ``tail_split`` below 1.
    """
    if part_records < 1 or tail_split < 1:
        raise ValueError(f"part_records and tail_split must be at least 1, not {part_records} and {tail_split}")
    items = [(item.offset, site_of(item.url) if isinstance(item, WarcPage) else None, isinstance(item, WarcPage))
             for item in read_warc(path, max_record_bytes)]
    sizes = tail_sizes(len(items), part_records, tail_split)
    cut = FileCut()
    starts = [0]
    records: list[int] = [0]
    pages: list[int] = [0]
    sites: list[Counter[str]] = [Counter()]
    for offset, site, page in items:
        # a new part begins at a record (never at an unreadable stretch) once this one is full
        if records[-1] >= sizes[min(len(starts) - 1, len(sizes) - 1)] and offset > starts[-1]:
            starts.append(offset)
            records.append(0)
            pages.append(0)
            sites.append(Counter())
        records[-1] += 1
        if page:
            pages[-1] += 1
            if site:
                sites[-1][site] += 1
                cut.sites[site] += 1
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else None
        cut.parts.append(Part(str(path), f"{name}-{k:05d}", k, start, end, records[k], pages[k]))
    cut.part_sites = sites
    return cut
