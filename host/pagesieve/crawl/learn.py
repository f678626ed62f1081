"""The learn pass of ``pagesieve batch``: each site's templates, learned from the crawl.

For one part of the crawl (:mod:`pagesieve.crawl.parts`), every HTML page of a site that has at least
:data:`MIN_SITE_PAGES` pages in the whole crawl is summarised and learned exactly as
``pagesieve learn`` learns a visited page: :func:`~pagesieve.page.html.parse_html`, then
:func:`~pagesieve.templates.learn.summarise` (pre-processing, segmentation, leaves and block
fingerprints), then :meth:`~pagesieve.templates.library.TemplateLibrary.learn` (seed 000's
library, batches of ten pages) and the site's newest reference pages for the layout diff
(seed 004), kept to :data:`~pagesieve.templates.store.MAX_REFERENCES` as the template store
keeps them. Pages are streamed: a site's state is its library (the entries and at most one
open batch of ten pages' leaves) and five fingerprint arrays, never its pages.

The pages of a site are learned one after the other in crawl order, whichever part of which
file holds them (:func:`learn_summaries`, fed by :mod:`pagesieve.crawl.summaries`): a library
learned in batches of ten pages depends on where its batches begin, so parts are not learned
apart and merged.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pagesieve.crawl.records import MAX_RECORD_BYTES, WarcPage, read_warc
from pagesieve.page.decode import decode_html
from pagesieve.page.html import parse_html
from pagesieve.templates.diff import pack_fingerprints, unpack_fingerprints
from pagesieve.templates.learn import PageSummary, summarise
from pagesieve.templates.library import MIN_FREQUENCY, LeafEntry, TemplateLibrary
from pagesieve.templates.store import MAX_REFERENCES, SiteTemplates
from pagesieve.templates.urls import best_reference, url_key
from pagesieve.templates.urls import site_of

MIN_SITE_PAGES = MIN_FREQUENCY
"""A site needs this many pages in the crawl to be learned; the others are extracted as single
pages. It is seed 000's N2 = 3: with fewer pages no leaf can reach the page frequency that
makes a template entry, and the open batch is not used before it holds N2 pages
(:meth:`~pagesieve.templates.library.TemplateLibrary.is_template`)."""


@dataclass(slots=True)
class SiteLearning:
    """What the crawl taught of one site.

    Attributes:
        site: :func:`~pagesieve.templates.urls.site_of` the pages' URLs.
        library: the seed-000 template library.
        pages: pages learned.
        references: ``(url, packed fingerprints)`` of the newest
            :data:`~pagesieve.templates.store.MAX_REFERENCES` pages, oldest first
            (:func:`~pagesieve.templates.diff.pack_fingerprints`).
    """

    site: str
    library: TemplateLibrary = field(default_factory=TemplateLibrary)
    pages: int = 0
    references: list[tuple[str, bytes]] = field(default_factory=list)

    def __reduce__(self):
        """Pickled without the library's lookup indexes (rebuilt on load): half the bytes a
        learn result costs between Dask workers."""
        lib = self.library
        return (rebuild_site, (self.site, [(e.tag, e.text, e.frequency) for e in lib.cache], lib.pages_in_batch,
                           lib.entries, self.pages, self.references))

    def learn(self, summary: PageSummary) -> None:
        """Count one page in (as :meth:`~pagesieve.templates.store.TemplateStore.learn` does)."""
        self.library.learn(summary.leaves)
        self.pages += 1
        if summary.url:
            self.references.append((summary.url, pack_fingerprints(summary.fingerprints)))
            del self.references[:-MAX_REFERENCES]

    @property
    def usable(self) -> bool:
        """True when the library can name a leaf as template (entries, or an open batch of at
        least N2 pages), so that extraction with it differs from a single page."""
        lib = self.library
        return bool(lib.entries) or lib.pages_in_batch >= lib.min_frequency

    def templates_for(self, url: str | None) -> SiteTemplates:
        """The :class:`~pagesieve.templates.store.SiteTemplates` for extracting the page at
        ``url``: the library, and the reference page chosen as the store chooses it
        (:func:`~pagesieve.templates.store.best_reference`)."""
        ref_url, blob = best_reference(url, reversed(self.references))
        return SiteTemplates(self.site, self.library, ref_url, unpack_fingerprints(blob or b""), self.pages)


def rebuild_site(site: str, cache: list[tuple[str, str, int]], pages_in_batch: int, entries: list[tuple[str, str]],
             pages: int, references: list[tuple[str, bytes]]) -> SiteLearning:
    """Inverse of :meth:`SiteLearning.__reduce__` (and of the rows of ``templates.parquet``)."""
    library = TemplateLibrary(cache=[LeafEntry(t, x, f) for t, x, f in cache], pages_in_batch=pages_in_batch,
                              entries=list(entries))
    return SiteLearning(site, library, pages, list(references))


def part_summaries(path: str | Path, sites: set[str] | frozenset[str], max_record_bytes: int = MAX_RECORD_BYTES,
                   fingerprints: bool = True, start: int = 0, end: int | None = None) -> Iterator[tuple[str, bytes, PageSummary]]:
    """The summaries the learn pass takes of the pages of ``sites`` in one WARC file (or the
    part of it in ``[start, end)``, :func:`~pagesieve.crawl.records.read_warc`), in file order:
    ``(site, url key, summary)``, a URL once (:func:`~pagesieve.templates.store.url_key`, as
    the store refuses a page visited again).

    ``fingerprints=False`` skips the layout fingerprints (a job whose evidence kinds leave out
    the diff). A page that cannot be decoded or parsed gives none (the extract pass reports it).
    """
    seen: set[bytes] = set()
    for item in read_warc(path, max_record_bytes, start=start, end=end):
        if not isinstance(item, WarcPage):
            continue
        site = site_of(item.url)
        if site not in sites:
            continue
        key = url_key(item.url)
        if key in seen:
            continue
        seen.add(key)
        try:
            text, _codec = decode_html(item.body, item.charset)
            summary = summarise(parse_html(text, url=item.url), fingerprints=fingerprints, shapes=False)
        except Exception:  # noqa: BLE001 - counted by the extract pass, which meets the same page
            continue
        yield site, key, summary


def learn_summaries(summaries: Iterable[tuple[str, bytes, PageSummary]],
                    learned: dict[str, SiteLearning] | None = None) -> dict[str, SiteLearning]:
    """Learn ``(site, url key, summary)`` in the order given, a URL key once, into ``learned``
    (a new dict by default), exactly as :meth:`~pagesieve.templates.store.TemplateStore.learn`
    learns visited pages one after the other. Returns ``learned``: ``{site: SiteLearning}``
    for the sites with at least one page learned."""
    learned = {} if learned is None else learned
    seen: set[bytes] = set()
    for site, key, summary in summaries:
        if key in seen:
            continue
        seen.add(key)
        state = learned.get(site)
        if state is None:
            state = learned[site] = SiteLearning(site)
        state.learn(summary)
    return learned


def learn_part(path: str | Path, sites: set[str] | frozenset[str], max_record_bytes: int = MAX_RECORD_BYTES,
               fingerprints: bool = True) -> dict[str, SiteLearning]:
    """Learn the pages of ``sites`` in one WARC file, in file order (:func:`part_summaries`,
    :func:`learn_summaries`).

    Returns:
        ``{site: SiteLearning}`` for the sites with at least one page learned here.
    """
    return learn_summaries(part_summaries(path, sites, max_record_bytes, fingerprints))
