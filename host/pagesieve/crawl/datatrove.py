"""pagesieve as an extractor step of datatrove pipelines (the FineWeb pipeline's library).

A FineWeb-style pipeline swaps its Trafilatura step for pagesieve with one line::

    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter
    from pagesieve.crawl.datatrove import PagesieveExtractor

    LocalPipelineExecutor(pipeline=[
        WarcReader("crawl/", glob_pattern="*.warc.gz"),
        PagesieveExtractor(),                        # was: Trafilatura(favour_precision=True)
        JsonlWriter("clean/"),
    ], tasks=4).run()

By default each page is extracted as a single page. ``PagesieveExtractor(templates=
"tpl/templates.parquet")`` uses the site templates of a ``pagesieve batch CRAWL --out tpl
--learn-only`` run: a page of a learned site is extracted with them, as ``pagesieve batch``
does (:func:`pagesieve.crawl.rows.extract_html`). The URL is the document's
``metadata["url"]`` (datatrove's WarcReader sets it from ``WARC-Target-URI``).

datatrove runs :meth:`~PagesieveExtractor.extract` in a child process with a per-document
timeout (its ``ExtractorSandbox``); a page that fails or times out is dropped and counted in the
step's stats, as with its own extractors. Needs the ``batch`` extra and ``datatrove``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from datatrove.data import DocumentsPipeline
from datatrove.pipeline.extractors.base import BaseExtractor

from pagesieve.templates.evidence import DEFAULT_KINDS

WARM_UP_HTML = ("<html><head><title>pagesieve</title></head><body><article><p>"
                + "The extractor loads its model before the first document. " * 8 + "</p></article></body></html>")
"""A small page extracted when the sandbox process starts, so that loading the classifier is
not charged to the first document's timeout."""


class PagesieveExtractor(BaseExtractor):
    """datatrove extractor step: ``doc.text`` (HTML) becomes the article text.

    Args:
        templates: a ``templates.parquet`` of ``pagesieve batch --learn-only`` (``None``:
            every page as a single page).
        timeout: seconds per document (datatrove's sandbox; pagesieve takes tens of
            milliseconds on most pages).
        kinds: template evidence kinds (:data:`~pagesieve.templates.evidence.DEFAULT_KINDS`).
    """

    name = "🧹 pagesieve"
    _requires_dependencies = ["pyarrow"]

    def __init__(self, templates: str | Path | None = None, timeout: float = 5, kinds: Iterable[str] = DEFAULT_KINDS) -> None:
        super().__init__(timeout)
        self.templates_path = str(templates) if templates is not None else None
        self.kinds = tuple(kinds)
        self._templates = None

    def _site_templates(self):
        if self._templates is None:
            self._templates = {}
            if self.templates_path:
                from pagesieve.crawl.output import read_templates

                self._templates = read_templates(Path(self.templates_path))
        return self._templates

    def extract(self, text: str, url: str | None = None) -> str:
        """The article text of one page (``""`` when it has none).

        Args:
            text: the page's HTML. url: its URL (site of the templates, links).
        """
        from pagesieve.crawl.rows import extract_html
        from pagesieve.templates.urls import site_of

        templates = self._site_templates()
        if not text:  # datatrove's warm-up call: load the model (and templates) now
            extract_html(WARM_UP_HTML, "https://warm.up/", None)
            return ""
        site = site_of(url)
        fields, _removed = extract_html(text, url, templates.get(site) if site else None, self.kinds)
        return fields["text"]

    def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1) -> DocumentsPipeline:
        """As :meth:`BaseExtractor.run`, with each document's URL passed to :meth:`extract`
        (the sandbox calls ``extract(*args)`` for a tuple)."""

        def with_url(docs: DocumentsPipeline) -> DocumentsPipeline:
            for doc in docs:
                doc.text = (doc.text, doc.metadata.get("url"))
                yield doc

        yield from super().run(with_url(data), rank, world_size)
