"""One call to save an article (or a page) into the library; used by ``pagesieve save`` and by
the native host's ``save`` message."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from pagesieve.article.model import Article
from pagesieve.library.catalog import Library
from pagesieve.library.entry import SavedEntry
from pagesieve.library.html_file import Images


def save_article(
    article: Article,
    folder: str | os.PathLike[str] | None = None,
    tags: Iterable[str] = (),
    images: Images | None = None,
    *,
    url: str | None = None,
) -> SavedEntry:
    """Save ``article`` into the library at ``folder`` (default: see
    :func:`pagesieve.library.folder.library_dir`); see :meth:`Library.save` for ``tags``,
    ``images`` and ``url``, what is written, and the errors raised (InputError, LibraryError)."""
    with Library(folder) as library:
        return library.save(article, tags=tags, images=images, url=url)


def save_page(
    source: str | os.PathLike[str] | bytes,
    url: str | None = None,
    folder: str | os.PathLike[str] | None = None,
    tags: Iterable[str] = (),
    images: Images | None = None,
    *,
    model=None,
) -> SavedEntry:
    """Extract the article of a page and save it (:func:`save_article`).

    Args:
        source: the page: a file path (``str`` or path-like), or its HTML as ``bytes``.
        url: the page's address (resolves relative links and keys the entry). For a file saved
            without ``url`` the entry is keyed by the file's ``file://`` URI, so saving the
            same file again updates its entry; bytes without ``url`` always make a new entry.
        folder, tags, images: as for :func:`save_article`.
        model: a block classifier instead of the shipped model.

    Raises:
        ReadError: the file cannot be read. InputError: not HTML, or no article in it.
        ModelError: no usable model. LibraryError: the library cannot be written.
    """
    from pagesieve.extract import extract
    from pagesieve.extract_cli import read_source

    key = url
    if isinstance(source, bytes):
        data = source
    else:
        path = Path(source)
        data = read_source(os.fspath(path))
        if key is None:
            key = path.resolve().as_uri()
    article = extract(data, url=url, model=model)
    return save_article(article, folder, tags, images, url=key)
