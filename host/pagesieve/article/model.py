"""The :class:`Article` returned by :func:`pagesieve.extract.extract`."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass(slots=True)
class Metadata:
    """Facts about a page that are not its body text.

    Attributes:
        title: the article headline (site-name suffix removed), ``""`` if none found.
        byline: author name(s) as shown to readers, or ``None``.
        published: publication date-time as ISO 8601 (``YYYY-MM-DD`` or with time), or ``None``.
        site_name: the publication's name (e.g. ``og:site_name``), or ``None``.
        lead_image: absolute URL of the lead image (relative URLs resolved against the page
            URL when it is known), or ``None``.
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
        text: the main content as plain text, one paragraph per line.
        content_ids: node ids of the blocks kept as main content, document order.
        noise_ids: node ids of what "hide noise" hides: the outermost blocks with no main content
            inside (see :func:`pagesieve.extract.hideable_blocks`), document order.
        warnings: oddities of the input that were worked around.
    """

    metadata: Metadata
    url: str | None = None
    html: str = ""
    text: str = ""
    content_ids: list[int] = field(default_factory=list)
    noise_ids: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def markdown(self) -> str:
        """The main content as Markdown (ATX headings), converted from :attr:`html` by markdownify."""
        from pagesieve.article.render import html_to_markdown

        return html_to_markdown(self.html)

    def to_dict(self) -> dict:
        """JSON-ready dict: metadata fields, url, html, text, markdown, node ids, warnings."""
        data = asdict(self.metadata)
        data.update(
            url=self.url,
            html=self.html,
            text=self.text,
            markdown=self.markdown,
            content_ids=self.content_ids,
            noise_ids=self.noise_ids,
            warnings=self.warnings,
        )
        return data
