"""``pagesieve-dev eval --history K|all``: extraction with site templates learned from other pages.

Protocol (issue "site templates"): one fresh temporary :class:`~pagesieve.templates.store.TemplateStore`
per run. Before page ``p`` of site ``s`` is extracted, the store's knowledge of ``s`` is erased
and it learns ``K`` other pages of ``s`` (drawn with a fixed seed from ``p``'s id), or all of
them with ``all``; never ``p`` itself. Pages without a site, or alone in their site, are
extracted with no history. Learning happens outside the timed call; looking the templates up
is timed with the extraction.

The site of a page is the dataset's ``site`` field (the datasets group pages by it); the
store's own key for it is :func:`~pagesieve.templates.urls.site_of` of the URL when there is
one, so that the reference-page choice by URL similarity works as it does live.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path
from urllib.parse import urldefrag

from pagesieve_dev.evaluation.datasets import Dataset, read_page
from pagesieve_dev.evaluation.scoring import Answer
from pagesieve.page.html import parse_html
from pagesieve.templates.evidence import DEFAULT_KINDS
from pagesieve.templates.learn import PageSummary, summarise
from pagesieve.templates.store import TemplateStore

HISTORY_SEED = 20261121
"""Seed of the choice of the K history pages (with the page id, so each page draws its own)."""


def parse_history(value: str) -> int | None:
    """``"all"`` -> ``None`` (every other page), ``"K"`` -> K >= 0.

    Raises:
        ValueError: anything else.
    """
    if value == "all":
        return None
    k = int(value)
    if k < 0:
        raise ValueError("history must be 'all' or a number >= 0")
    return k


class HistoryExtractor:
    """A ``(html, url) -> text`` extractor whose store is primed by :meth:`prepare`.

    Args:
        dataset: the dataset evaluated. history: K, or ``None`` for all other pages.
        kinds: evidence kinds to use (:data:`~pagesieve.templates.evidence.EVIDENCE_KINDS`).
        history_where: ``(field, value)``: only pages whose index field has that value (as
            text) are learned, e.g. ``("year", "2005")`` for the template-drift table.
        only: when given, only these page ids are ever learned (the training side of the
            split, for :mod:`pagesieve_dev.evaluation.evidence_stage`).
        stage: a fitted :class:`~pagesieve_dev.evaluation.evidence_stage.EvidenceStage`: pages with
            templates are judged by it (``--template-stage``) instead of by removal alone.
    """

    def __init__(
        self, dataset: Dataset, history: int | None, kinds: Iterable[str] = DEFAULT_KINDS,
        history_where: tuple[str, str] | None = None, only: frozenset[str] | None = None,
        stage=None,
    ) -> None:
        self.dataset = dataset
        self.only = only
        self.stage = stage
        self.history = history
        self.history_where = history_where
        self.kinds = tuple(kinds)
        self._dir = Path(tempfile.mkdtemp(prefix="pagesieve-history-"))
        self.store = TemplateStore(self._dir / "templates.sqlite3")
        self._summaries: dict[str, PageSummary] = {}
        self._site_pages = dataset.site_pages()
        self._key: str | None = None
        self.learned: list[str] = []
        self._bodies: dict[str, object] = {}
        self.corrections = None  # the SiteRules applied to the next pages (``--corrections``)

    def close(self) -> None:
        """Close and delete the temporary store."""
        self.store.close()
        shutil.rmtree(self._dir, ignore_errors=True)

    def history_of(self, page_id: str) -> list[str]:
        """The ids of the pages learned before ``page_id`` (see the module docstring)."""
        site = self.dataset.record(page_id).site
        if site is None:
            return []
        others = [i for i in self._site_pages[site] if i != page_id and (self.only is None or i in self.only)]
        if self.history_where is not None:
            key, value = self.history_where
            others = [i for i in others if str(self.dataset.record(i).row.get(key)) == value]
        if self.history is None:
            return others
        rng = random.Random(f"{HISTORY_SEED}:{page_id}")
        return rng.sample(others, min(self.history, len(others)))

    def _summary(self, page_id: str) -> PageSummary:
        found = self._summaries.get(page_id)
        if found is None:
            record = self.dataset.record(page_id)
            page = parse_html(read_page(self.dataset, page_id), url=record.url)
            found = summarise(page)
            if "sst" in self.kinds:
                self._bodies[page_id] = page.body
            if found.site is None and record.site is not None:
                found.site = record.site
            self._summaries[page_id] = found
        return found

    def prepare(self, page_id: str) -> None:
        """Reset the store to hold exactly the history of ``page_id`` (untimed)."""
        record = self.dataset.record(page_id)
        self.learned = self.history_of(page_id)
        key = None
        if self.learned:
            key = self._summary(self.learned[0]).site
        for site in {self._key, key} - {None}:
            self.store.forget(site)
        for other in self.learned:
            self.store.learn(self._summary(other))
        self._key = key
        self._url = record.url

    @property
    def site_key(self) -> str | None:
        """The site the store holds the prepared page's history under (``None`` without history)."""
        return self._key

    def templates(self, url: str | None):
        """What the store holds for the prepared page's site (``None`` without history)."""
        templates = self.store.templates_for(self._key, url) if self._key else None
        if templates is not None and "sst" in self.kinds:
            from pagesieve.templates.sst import SiteStyleTree

            templates.sst = SiteStyleTree()
            for other in self.learned:
                templates.sst.add(self._bodies[other])
            templates.sst.compute()
        return templates

    def judge(self, html: str, url: str | None):
        """``(analysis, keep)`` of :func:`pagesieve.extract.judge_page` for the prepared page,
        with its templates and without corrections (the simulated user of ``--corrections``)."""
        from pagesieve.extract import judge_page

        return judge_page(parse_html(html, url=url), templates=self.templates(url), evidence_kinds=self.kinds)

    def __call__(self, html: str, url: str | None) -> Answer:
        from pagesieve.extract import extract_page

        if self.stage is not None:
            from pagesieve.article.header import split_header
            from pagesieve.article.text import blocks_text
            from pagesieve.classify.model_store import default_model

            analysis, keep = self.stage.judge(parse_html(html, url=url), default_model(), self.templates(url), self.kinds)
            meta = analysis.metadata
            body, header, _rules = split_header(analysis.blocks, keep, meta.title, meta.byline, meta.published)
            return Answer(blocks_text(analysis.blocks, body), tuple(header))
        article = extract_page(parse_html(html, url=url), templates=self.templates(url), evidence_kinds=self.kinds,
                               corrections=self.corrections)
        return Answer(article.text, tuple(article.header))


class ColdStartExtractor:
    """``pagesieve-dev eval --cold-start``: each page is extracted with no history but a reference
    page "fetched" as the extension would (:mod:`pagesieve.templates.cold_start`).

    The link the extension would fetch is picked from the page's own links by
    :func:`~pagesieve.templates.cold_start.reference_link`; when the dataset holds the page it
    links to (same URL without fragment), that page is the reference, else the page is
    extracted with none (as live when the fetch fails). Evidence: the layout diff against it,
    with the guard :data:`~pagesieve.templates.cold_start.COLD_START_DUPLICATE_SHARE`.

    Attributes:
        referenced: ids of the pages that got a reference page (for the run's notes).
    """

    def __init__(self, dataset: Dataset) -> None:
        self.dataset = dataset
        self._by_url = {urldefrag(r.url)[0]: r.id for r in dataset.rows if r.url}
        self._fingerprints: dict[str, list[int]] = {}
        self.referenced: list[str] = []

    def templates(self, page, page_id: str | None = None):
        """The cold-start :class:`~pagesieve.templates.store.SiteTemplates` of a parsed
        ``page`` (``None`` when its chosen link is not a page of the dataset)."""
        from pagesieve.templates.cold_start import page_hrefs, reference_link, reference_templates
        from pagesieve.templates.urls import site_of

        if not page.url:
            return None
        link = reference_link(page.url, page_hrefs(page.root))
        ref = self._by_url.get(link) if link else None
        if ref is None or ref == page_id:
            return None
        found = self._fingerprints.get(ref)
        if found is None:
            record = self.dataset.record(ref)
            found = summarise(parse_html(read_page(self.dataset, ref), url=record.url)).fingerprints
            self._fingerprints[ref] = found
        if page_id is not None:
            self.referenced.append(page_id)
        return reference_templates(site_of(page.url) or "", link, found)

    def __call__(self, html: str, url: str | None) -> Answer:
        from pagesieve.extract import extract_page

        page = parse_html(html, url=url)
        page_id = self._by_url.get(url) if url else None
        article = extract_page(page, templates=self.templates(page, page_id), evidence_kinds=("library", "diff"))
        return Answer(article.text, tuple(article.header))
