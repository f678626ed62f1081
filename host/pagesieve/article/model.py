"""The :class:`Article` returned by :func:`pagesieve.extract.extract`."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field


READING_SPEED = {
    "en": (987, 118), "ar": (612, 88), "de": (920, 86), "es": (1025, 127), "fi": (1078, 121),
    "fr": (998, 126), "he": (833, 130), "it": (950, 140), "ja": (357, 56), "nl": (978, 143),
    "pl": (916, 126), "pt": (913, 145), "ru": (986, 175), "sl": (885, 145), "sv": (917, 156),
    "tr": (1054, 156), "zh": (255, 29),
}
"""Reading speed by language: (mean, standard deviation) in characters a minute, measured with
the International Reading Speed Texts (Trauzettel-Klosinski & Dietz, "Standardized Assessment
of Reading Performance: The New International Reading Speed Texts IReST", IOVS 53(9), 2012),
as Firefox's ReaderMode (``_getReadingSpeedForLanguage``) uses them."""


@dataclass(slots=True)
class Metadata:
    """Facts about a page that are not its body text.

    Attributes:
        title: the article headline (site-name suffix removed), ``""`` if none found.
        byline: author name(s) as shown to readers, or ``None``.
        published: publication date-time as ISO 8601 (``YYYY-MM-DD`` or with time), or ``None``.
        site_name: the publication's name (e.g. ``og:site_name``), or ``None``.
        lead_image: absolute URL of the lead image (relative URLs resolved against the document
            base URL, :func:`pagesieve.page.base.document_base_url`, when it is known), or ``None``.
        language: BCP 47 language tag (``en``, ``zh-CN`` ...), or ``None``.
        description: the page's own summary (``og:description`` / meta description), or ``None``.
    """

    title: str = ""
    byline: str | None = None
    published: str | None = None
    site_name: str | None = None
    lead_image: str | None = None
    language: str | None = None
    description: str | None = None


@dataclass(slots=True)
class Article:
    """The main content of a page with its metadata.

    Attributes:
        metadata: see :class:`Metadata`.
        url: the page URL given by the caller, or ``None``.
        html: the main content as sanitised HTML (a ``<div>`` fragment; nh3-cleaned).
        text: the main content as plain text, one paragraph per line: the body, without the
            header (issue 52).
        header: the header's lines as the page shows them, which the body leaves out: the
            headline (the page's title heading, else the metadata's title), then the byline
            and dateline lines in page order
            (:func:`pagesieve.article.header.split_header`); ``[]`` without a title.
        content_ids: node ids of the blocks kept as main content, document order.
        noise_ids: node ids of what "hide noise" hides: the outermost blocks with no main content
            inside (see :func:`pagesieve.extract.hideable_blocks`), document order.
        warnings: oddities of the input that were worked around.
        pages: the addresses of the pages the article was read from, in order, when it spans
            several (:func:`pagesieve.article.pagination.join_pages`); ``[]`` for one page.
    """

    metadata: Metadata
    url: str | None = None
    html: str = ""
    text: str = ""
    header: list[str] = field(default_factory=list)
    content_ids: list[int] = field(default_factory=list)
    noise_ids: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    pages: list[str] = field(default_factory=list)

    @property
    def reading_minutes(self) -> tuple[int, int]:
        """How long the article takes to read: ``(fast, slow)`` whole minutes, for readers one
        standard deviation faster and slower than the mean of its language (:data:`READING_SPEED`,
        English for a language not there), from the number of characters of :attr:`text`.
        ``(0, 0)`` for an article without text. Firefox Reader View estimates its range the
        same way."""
        length = len(self.text)
        if not length:
            return 0, 0
        language = (self.metadata.language or "en").replace("_", "-").split("-")[0].lower()
        cpm, spread = READING_SPEED.get(language, READING_SPEED["en"])
        return math.ceil(length / (cpm + spread)), math.ceil(length / (cpm - spread))

    @property
    def markdown(self) -> str:
        """The main content as Markdown (ATX headings), converted from :attr:`html` by
        :func:`pagesieve.article.markdown.html_to_markdown` (markdownify)."""
        from pagesieve.article.markdown import html_to_markdown

        return html_to_markdown(self.html)

    def to_dict(self) -> dict:
        """JSON-ready dict: metadata fields, url, html, text, header, markdown, reading_minutes
        (``[fast, slow]``), node ids, warnings, pages."""
        data = asdict(self.metadata)
        data.update(
            url=self.url,
            html=self.html,
            text=self.text,
            header=self.header,
            markdown=self.markdown,
            reading_minutes=list(self.reading_minutes),
            content_ids=self.content_ids,
            noise_ids=self.noise_ids,
            warnings=self.warnings,
            pages=self.pages,
        )
        return data
