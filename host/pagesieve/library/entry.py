"""The records of the library: what the front matter holds, an index entry, a save's result,
a search hit and a deletion."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class EntryMeta:
    """What a saved article's Markdown front matter holds; the index is rebuilt from it.

    Attributes:
        title: the article title (``""`` when the page had none).
        byline: author(s) as shown to readers, or ``None`` (front matter key ``author``).
        published: publication date-time as the page gave it (ISO 8601), or ``None``.
        site: the publication's name, or ``None``.
        url: the address the page was saved from, or ``None`` (unknown source).
        language: BCP 47 tag (``en``, ``zh-CN``), or ``None``.
        saved: when it was saved, ISO 8601 UTC to the second (``2026-03-14T08:30:00Z``).
        tags: the user's tags, in the order given, without duplicates.
    """

    title: str
    byline: str | None
    published: str | None
    site: str | None
    url: str | None
    language: str | None
    saved: str
    tags: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Entry(EntryMeta):
    """One saved article as the index lists it (the :class:`EntryMeta` fields, and):

    Attributes:
        id: the index's id of the entry (stable while the index lives; a rebuilt index
            numbers entries anew, oldest first).
        md_path: absolute path of the Markdown file.
        html_path: absolute path of the HTML file, or ``None`` when it is missing (an index
            rebuilt from a folder where only the Markdown file was left).
        words: number of words of the text (:func:`pagesieve.tokens.tokens`: a CJK
            character counts as one).
    """

    id: int
    md_path: Path
    html_path: Path | None
    words: int

    def to_dict(self) -> dict:
        """JSON-ready dict of every field (paths as strings, tags as a list)."""
        data = asdict(self)
        data["tags"] = list(self.tags)
        data["md_path"] = str(self.md_path)
        data["html_path"] = str(self.html_path) if self.html_path is not None else None
        return data


@dataclass(frozen=True, slots=True)
class SavedEntry:
    """The result of saving an article.

    Attributes:
        id: the entry's index id. md_path, html_path: absolute paths of the two files written.
        url: the URL the entry is keyed by (``None`` when unknown). title: its title.
        updated: True when an entry of the same URL existed and was rewritten, False when the
            entry is new.
        images_inlined: images embedded in the HTML file as ``data:`` URIs.
        images_linked: images left as links (not handed over, or over a size cap).
        entry: the full index entry.
    """

    id: int
    md_path: Path
    html_path: Path
    url: str | None
    title: str
    updated: bool
    images_inlined: int
    images_linked: int
    entry: Entry


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One full-text search result.

    Attributes:
        entry: the matching entry.
        snippet: a short excerpt of its text (about 16 words) with each matched word between the
            two marks the caller chose (plain text, not HTML-escaped).
        rank: FTS5 bm25 score (lower is better; results come best first).
    """

    entry: Entry
    snippet: str
    rank: float


@dataclass(frozen=True, slots=True)
class Deletion:
    """What :meth:`pagesieve.library.catalog.Library.delete` did.

    Attributes:
        entry: the entry as it was before deletion.
        system_trash: True if the files went to the system trash (restore them from there);
            False if they went to the library's own ``.trash/`` folder.
        token: for the library trash, the name to pass to
            :meth:`~pagesieve.library.catalog.Library.undo_delete`; ``None`` otherwise.
    """

    entry: Entry
    system_trash: bool
    token: str | None
