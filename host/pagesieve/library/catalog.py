"""The library: saved articles as files, and the index that lists and searches them.

:class:`Library` is what the CLI, the native host and the library window use. Every change
runs inside one index transaction (:meth:`LibraryIndex.transaction`), so two processes saving at
once are serialised and never pick the same file name; files are written atomically
(:mod:`pagesieve.storage.atomic`) before the index row, so a failed save leaves both the files and
the index as they were.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from pathlib import Path

from pagesieve.article.model import Article
from pagesieve.errors import InputError, LibraryError
from pagesieve.library import trash
from pagesieve.storage.atomic import is_temp_name, remove_stale_temps, write_files
from pagesieve.library.entry import Deletion, Entry, EntryMeta, SavedEntry, SearchHit
from pagesieve.library.folder import inside, library_dir
from pagesieve.library.html_file import MAX_IMAGE_BYTES, MAX_INLINE_BYTES, Images, html_document
from pagesieve.library.index import IndexRecord, LibraryIndex, is_corruption
from pagesieve.library.markdown_file import body_text, markdown_document, read_markdown_document, with_tags
from pagesieve.library.names import is_numbered_form, safe_stem, unique_stem
from pagesieve.templates.urls import url_key

MAX_TAGS = 64
"""Most tags on one entry (a guard against a runaway caller, far above any real use)."""

MAX_TAG_CHARS = 200
"""Longest tag, in characters."""


def utc_now() -> str:
    """The current time as ISO 8601 UTC to the second (``2026-03-14T08:30:00Z``)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def clean_tags(tags: Iterable[str]) -> tuple[str, ...]:
    """``tags`` stripped, white space folded, empty ones and repeats (ignoring case) dropped,
    order kept.

    Raises:
        InputError: a tag is not a string, or over :data:`MAX_TAG_CHARS`, or more than
            :data:`MAX_TAGS` tags.
    """
    if isinstance(tags, str):
        tags = [tags]
    out: list[str] = []
    seen: set[str] = set()
    for tag in tags:
        if not isinstance(tag, str):
            raise InputError(f"a tag must be text, got {type(tag).__name__}")
        tag = " ".join(tag.split())
        if len(tag) > MAX_TAG_CHARS:
            raise InputError(f"tag of {len(tag)} characters; at most {MAX_TAG_CHARS}")
        if tag and tag.casefold() not in seen:
            seen.add(tag.casefold())
            out.append(tag)
    if len(out) > MAX_TAGS:
        raise InputError(f"{len(out)} tags; at most {MAX_TAGS}")
    return tuple(out)


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LibraryError(f"{path} is gone (run `pagesieve saved --rebuild` to drop it from the index)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LibraryError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None


def _same_file(a: Path, b: Path) -> bool:
    """True if ``a`` and ``b`` are one file (``Storm.md`` and ``storm.md`` on a file system that
    ignores case, as macOS and Windows do by default)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


class Library:
    """A library folder: save articles, list, search, tag and delete them.

    Args:
        folder: the library folder; default ``$PAGESIEVE_LIBRARY_DIR``, else
            ``user_documents_dir()/pagesieve`` (:func:`pagesieve.library.folder.library_dir`).
            Created if missing.

    Attributes:
        folder: the folder, absolute. index: its :class:`LibraryIndex`.

    Opening rebuilds the index from the Markdown files when the index file was missing or
    corrupt, and removes temporary files left by a crash over an hour ago.

    Raises:
        LibraryError: the folder or the index cannot be opened or created.
    """

    def __init__(self, folder: str | os.PathLike[str] | None = None) -> None:
        self.folder = library_dir(folder)
        self.index = LibraryIndex(self.folder)
        remove_stale_temps(self.folder)
        if self.index.fresh:
            self.rebuild()

    def close(self) -> None:
        """Close the index."""
        self.index.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _taken(self, own: Iterable[str | None] = ()) -> set[str]:
        """File names in use in the folder or by the index, except ``own`` (compared ignoring case)."""
        try:
            names = set(os.listdir(self.folder))
        except OSError as exc:
            raise LibraryError(f"cannot list {self.folder}: {exc.strerror or exc}") from exc
        names |= self.index.file_names()
        mine = {n.casefold() for n in own if n}
        return {n for n in names if n.casefold() not in mine}

    # ------------------------------------------------------------------ saving

    def save(
        self,
        article: Article,
        tags: Iterable[str] = (),
        images: Images | None = None,
        *,
        url: str | None = None,
        max_image_bytes: int = MAX_IMAGE_BYTES,
        max_total_bytes: int = MAX_INLINE_BYTES,
    ) -> SavedEntry:
        """Save ``article`` as ``TITLE.md`` and ``TITLE.html`` and index it.

        An entry of the same URL (fragment and tracking parameters ignored) is updated instead:
        its two files are rewritten (renamed when the title changed), its tags are kept and
        ``tags`` added to them, its ``saved`` time becomes now.

        Args:
            article: from :func:`pagesieve.extract.extract` or
                :func:`~pagesieve.extract.extract_page`.
            tags: tags to add (see :func:`clean_tags`).
            images: images already fetched, ``{absolute URL: (MIME type, bytes)}``, embedded in
                the HTML file within ``max_image_bytes`` each and ``max_total_bytes`` in all
                (:data:`~pagesieve.library.html_file.MAX_IMAGE_BYTES`,
                :data:`~pagesieve.library.html_file.MAX_INLINE_BYTES`); the others stay links.
            url: the URL to key and record the entry by (default ``article.url``).

        Returns:
            :class:`SavedEntry` (``updated`` tells a new entry from an updated one).

        Raises:
            InputError: the article has no text and no image (nothing to save), or bad tags.
            LibraryError: a file or the index cannot be written; nothing was changed.
        """
        if not article.text.strip() and "<img" not in article.html:
            raise InputError("no article found in the page: nothing to save")
        new_tags = clean_tags(tags)
        url = url if url is not None else article.url
        md = article.metadata
        with self.index.transaction() as tx:
            old = tx.find_url(url)
            meta = EntryMeta(
                title=" ".join(md.title.split()), byline=md.byline, published=md.published, site=md.site_name,
                url=url, language=md.language, saved=utc_now(),
                tags=clean_tags((old.tags if old else ()) + new_tags),
            )
            md_text = markdown_document(meta, article.markdown)
            html_text, report = html_document(
                meta, article.html, images, max_image_bytes=max_image_bytes, max_total_bytes=max_total_bytes
            )
            own = (old.md_path.name, old.html_path.name if old.html_path else None) if old else ()
            taken = self._taken(own)
            base = safe_stem(meta.title)
            old_stem = old.md_path.stem if old else None
            if old_stem is not None and is_numbered_form(old_stem, base) and unique_stem(old_stem, taken) == old_stem:
                stem = old_stem  # saved again under the same title: same files
            else:
                stem = unique_stem(base, taken)
            md_path = inside(self.folder, stem + ".md")
            html_path = inside(self.folder, stem + ".html")
            write_files([(html_path, html_text.encode("utf-8")), (md_path, md_text.encode("utf-8"))])
            record = IndexRecord(meta, md_path.name, html_path.name, body_text(read_markdown_document(md_text)[1], meta.title))
            try:
                entry_id = tx.put(record, old.id if old else None)
            except Exception:
                if old is None:  # a new entry's files go again; an update's files are the new version
                    md_path.unlink(missing_ok=True)
                    html_path.unlink(missing_ok=True)
                raise
        if old is not None:
            for gone, new in ((old.md_path, md_path), (old.html_path, html_path)):
                if gone is not None and gone.name != new.name and not _same_file(gone, new):
                    gone.unlink(missing_ok=True)  # renamed: the old name goes
        entry = self.index.get(entry_id)
        assert entry is not None
        return SavedEntry(
            id=entry_id, md_path=md_path, html_path=html_path, url=url, title=meta.title,
            updated=old is not None, images_inlined=report.inlined, images_linked=report.linked, entry=entry,
        )

    # ------------------------------------------------------------------ reading

    def get(self, entry_id: int) -> Entry | None:
        """The entry ``entry_id``, or ``None``."""
        return self.index.get(entry_id)

    def find(self, url: str) -> Entry | None:
        """The entry saved from ``url`` (fragment and tracking parameters ignored), or ``None``."""
        return self.index.find_url(url)

    def list(self, limit: int = 50, offset: int = 0) -> list[Entry]:
        """Entries newest first, ``limit`` of them after the first ``offset``."""
        return self.index.list(limit, offset)

    def count(self) -> int:
        """Number of entries."""
        return self.index.count()

    def search(self, query: str, limit: int = 50, offset: int = 0, mark: tuple[str, str] = ("[", "]")) -> list[SearchHit]:
        """Full-text search of titles, tags and texts; see :meth:`LibraryIndex.search`. Any user
        text is safe (quotes, ``*``, ``-``, ``AND`` are searched as text)."""
        return self.index.search(query, limit, offset, mark)

    # ------------------------------------------------------------------ changing

    def set_tags(self, entry_id: int, tags: Iterable[str]) -> Entry:
        """Replace the tags of entry ``entry_id`` (in its Markdown front matter, rewritten
        atomically with the rest of the file untouched, and in the index).

        Raises:
            InputError: bad tags (see :func:`clean_tags`).
            LibraryError: no such entry, or its Markdown file is gone or cannot be written.
        """
        new_tags = clean_tags(tags)
        with self.index.transaction() as tx:
            entry = tx.get(entry_id)
            if entry is None:
                raise LibraryError(f"no saved article with id {entry_id}")
            text = _read_text(entry.md_path)
            try:
                updated = with_tags(text, new_tags)
            except ValueError:
                raise LibraryError(f"{entry.md_path} has no front matter any more; cannot set its tags") from None
            write_files([(entry.md_path, updated.encode("utf-8"))])
            tx.set_tags(entry_id, new_tags)
        entry = self.index.get(entry_id)
        assert entry is not None
        return entry

    def delete(self, entry_id: int, *, system_trash: bool = True) -> Deletion:
        """Delete entry ``entry_id``: its two files go to the system trash (when ``system_trash``
        and ``send2trash`` can), else to the library's ``.trash/`` folder, from where
        :meth:`undo_delete` brings them back; the entry leaves the index.

        Raises:
            LibraryError: no such entry, or the files cannot be moved (nothing is changed).
        """
        with self.index.transaction() as tx:
            entry = tx.get(entry_id)
            if entry is None:
                raise LibraryError(f"no saved article with id {entry_id}")
            paths = [p for p in (entry.md_path, entry.html_path) if p is not None]
            token = None
            moved = system_trash and trash.to_system_trash(paths)
            if not moved:
                token = trash.to_library_trash(self.folder, paths)
            tx.remove(entry_id)
        return Deletion(entry=entry, system_trash=moved, token=token)

    def undo_delete(self, token: str) -> Entry:
        """Bring back an entry deleted to the library trash (:attr:`Deletion.token`): its files
        return to the folder (as ``NAME (2)`` if ``NAME`` was taken since) and it is indexed
        again from its Markdown file.

        Raises:
            LibraryError: unknown token, or the same URL was saved again since (the deleted copy
                then stays in the trash), or a file cannot be moved.
        """
        with self.index.transaction() as tx:
            folder = trash.trash_folder(self.folder, token)
            md_files = [p for p in folder.iterdir() if p.suffix == ".md"]
            parsed = read_markdown_document(_read_text(md_files[0])) if len(md_files) == 1 else None
            if parsed is None:
                raise LibraryError(f"{folder} holds no saved article")
            meta, _ = parsed
            if tx.find_url(meta.url) is not None:
                raise LibraryError(f"{meta.url} was saved again since it was deleted; the deleted copy stays in {folder}")
            restored = trash.restore(self.folder, token, self._taken())
            md_path = next(p for p in restored if p.suffix == ".md")
            html_path = next((p for p in restored if p.suffix == ".html"), None)
            entry_id = tx.put(self._record(md_path, html_path))
        entry = self.index.get(entry_id)
        assert entry is not None
        return entry

    def _record(self, md_path: Path, html_path: Path | None) -> IndexRecord:
        parsed = read_markdown_document(_read_text(md_path))
        if parsed is None:
            raise LibraryError(f"{md_path} is not a saved article (no front matter with url and saved)")
        meta, body = parsed
        return IndexRecord(meta, md_path.name, html_path.name if html_path else None, body_text(body, meta.title))

    def rebuild(self) -> int:
        """Rebuild the index from the Markdown files of the folder (their front matter and
        body); returns the number of entries. Markdown files that are not saved articles, or
        cannot be read, are left alone. Of two files with the same URL (a crash between writing
        a renamed entry and removing its old files), the one saved last is indexed.

        Raises:
            LibraryError: the folder cannot be listed or the index written.
        """
        try:
            return self._rebuild()
        except LibraryError as exc:
            if not is_corruption(exc):
                raise
        self.index.reset()  # the index file itself is damaged: start it anew
        return self._rebuild()

    def _rebuild(self) -> int:
        with self.index.transaction() as tx:
            try:
                names = sorted(n for n in os.listdir(self.folder) if n.endswith(".md") and not n.startswith("."))
            except OSError as exc:
                raise LibraryError(f"cannot list {self.folder}: {exc.strerror or exc}") from exc
            by_url: dict[str | None, list[IndexRecord]] = {}
            for name in names:
                md_path = self.folder / name
                html_path = md_path.with_suffix(".html")
                if not md_path.is_file() or is_temp_name(name):
                    continue
                try:
                    record = self._record(md_path, html_path if html_path.is_file() else None)
                except LibraryError:
                    continue
                key = url_key(record.meta.url).hex() if record.meta.url else None
                by_url.setdefault(key if key else f"\0{name}", []).append(record)
            records = [max(group, key=lambda r: r.meta.saved) for group in by_url.values()]
            records.sort(key=lambda r: (r.meta.saved, r.md_file))
            tx.clear()
            for record in records:
                tx.put(record)
        return len(records)
