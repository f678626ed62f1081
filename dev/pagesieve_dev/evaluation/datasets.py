"""Read the benchmark datasets laid out as in ``../shared/datasets/README.md``.

A dataset is a folder::

    <name>/index.jsonl          one JSON object per page: {"id", "site", "url", "lang", ...}
    <name>/pages/<id>.html.gz   the page, gzip-compressed UTF-8 HTML
    <name>/truth/<id>.txt       the ground-truth main text, UTF-8, one paragraph per line

The datasets are third-party research data: they are read in place at run time and never
copied into the repository. :func:`default_datasets_dir` finds them.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pagesieve.checkout import repo_root
from pagesieve.errors import DatasetError

#: Environment variable that overrides where the datasets live.
DATASETS_ENV = "PAGESIEVE_DATASETS"


@dataclass(frozen=True, slots=True)
class PageRecord:
    """One row of ``index.jsonl``.

    Attributes:
        id: the page id; names ``pages/<id>.html.gz`` and ``truth/<id>.txt``.
        site: host name of the page (e.g. ``"www.un.org"``), or ``None`` when unknown.
        url: the page URL, or ``None`` when the source did not record it.
        lang: language code (``"en"``, ``"zh"`` ...), or ``None``.
        row: the whole JSON object as read, including the dataset-specific fields
            (``n_chars_truth``, ``year``, ``page_type`` ...).
    """

    id: str
    site: str | None
    url: str | None
    lang: str | None
    row: dict[str, Any] = field(repr=False, compare=False)


@dataclass(slots=True)
class Dataset:
    """A dataset folder and its index.

    Attributes:
        name: the folder name (``"l3s_gn1"``); the key used in ``models/split.json``.
        path: absolute path of the folder.
        rows: the pages in ``index.jsonl`` order.
    """

    name: str
    path: Path
    rows: list[PageRecord]
    _by_id: dict[str, PageRecord] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not self._by_id:
            self._by_id = {r.id: r for r in self.rows}

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[PageRecord]:
        return iter(self.rows)

    def __contains__(self, page_id: object) -> bool:
        return page_id in self._by_id

    @property
    def ids(self) -> list[str]:
        """Page ids in index order."""
        return [r.id for r in self.rows]

    def site_pages(self) -> dict[str, list[str]]:
        """``{site: page ids in index order}`` over the whole index; pages with no site are
        in no group."""
        groups: dict[str, list[str]] = {}
        for r in self.rows:
            if r.site is not None:
                groups.setdefault(r.site, []).append(r.id)
        return groups

    def record(self, page_id: str) -> PageRecord:
        """The index row of ``page_id``; :class:`DatasetError` if the dataset has no such page."""
        try:
            return self._by_id[page_id]
        except KeyError:
            raise DatasetError(f"dataset {self.name!r} has no page with id {page_id!r}") from None

    def page_path(self, page_id: str) -> Path:
        """``<path>/pages/<id>.html.gz``."""
        return self.path / "pages" / f"{page_id}.html.gz"

    def truth_path(self, page_id: str) -> Path:
        """``<path>/truth/<id>.txt``."""
        return self.path / "truth" / f"{page_id}.txt"


def default_datasets_dir() -> Path | None:
    """Where the datasets live: ``$PAGESIEVE_DATASETS``, else ``<repo>/../shared/datasets``.

    Returns ``None`` when neither names an existing folder.
    """
    env = os.environ.get(DATASETS_ENV)
    if env:
        p = Path(env).expanduser()
        if p.is_dir():
            return p.resolve()
    root = repo_root()
    if root is not None:
        p = root.parent / "shared" / "datasets"
        if p.is_dir():
            return p.resolve()
    return None


def _opt_str(row: dict[str, Any], key: str, where: str) -> str | None:
    value = row.get(key)
    if value is None or isinstance(value, str):
        return value
    raise DatasetError(f"{where}: field {key!r} must be a string or null, got {type(value).__name__}")


def load_dataset(path: str | os.PathLike[str]) -> Dataset:
    """Read the index of the dataset folder ``path`` and check its layout.

    Checks that ``index.jsonl``, ``pages/`` and ``truth/`` exist, that every line of the index
    is a JSON object with a non-empty string ``id`` (unique, usable as a file name) and
    string-or-null ``site``/``url``/``lang``, and that every indexed page has its page and truth
    file.

    Raises:
        DatasetError: anything above is not so; the message names the folder and the problem.
    """
    folder = Path(path).expanduser()
    if not folder.is_dir():
        raise DatasetError(f"{folder}: not a dataset folder (no such directory)")
    folder = folder.resolve()
    index = folder / "index.jsonl"
    if not index.is_file():
        raise DatasetError(f"{folder}: missing index.jsonl (see ../shared/datasets/README.md)")
    for sub in ("pages", "truth"):
        if not (folder / sub).is_dir():
            raise DatasetError(f"{folder}: missing {sub}/ folder (see ../shared/datasets/README.md)")

    rows: list[PageRecord] = []
    seen: set[str] = set()
    try:
        lines = index.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetError(f"{index}: cannot read: {exc}") from exc
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{index}:{lineno}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{where}: not valid JSON ({exc.msg})") from exc
        if not isinstance(row, dict):
            raise DatasetError(f"{where}: expected a JSON object, got {type(row).__name__}")
        page_id = row.get("id")
        if not isinstance(page_id, str) or not page_id:
            raise DatasetError(f"{where}: missing or empty string field 'id'")
        if "/" in page_id or "\\" in page_id or page_id.startswith(".") or "\0" in page_id:
            raise DatasetError(f"{where}: id {page_id!r} is not usable as a file name")
        if page_id in seen:
            raise DatasetError(f"{where}: duplicate id {page_id!r}")
        seen.add(page_id)
        rows.append(
            PageRecord(
                id=page_id,
                site=_opt_str(row, "site", where),
                url=_opt_str(row, "url", where),
                lang=_opt_str(row, "lang", where),
                row=row,
            )
        )
    if not rows:
        raise DatasetError(f"{index}: no pages in the index")

    pages = set(os.listdir(folder / "pages"))
    truths = set(os.listdir(folder / "truth"))
    missing = [f"pages/{r.id}.html.gz" for r in rows if f"{r.id}.html.gz" not in pages]
    missing += [f"truth/{r.id}.txt" for r in rows if f"{r.id}.txt" not in truths]
    if missing:
        shown = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
        raise DatasetError(f"{folder}: indexed files missing: {shown}")
    return Dataset(name=folder.name, path=folder, rows=rows)


def read_page(dataset: Dataset, page_id: str) -> str:
    """The HTML of page ``page_id``: ``pages/<id>.html.gz`` gunzipped and decoded as UTF-8.

    Raises:
        DatasetError: unknown id, missing file, bad gzip or invalid UTF-8.
    """
    dataset.record(page_id)
    path = dataset.page_path(page_id)
    try:
        return gzip.decompress(path.read_bytes()).decode("utf-8")
    except (OSError, EOFError, gzip.BadGzipFile, UnicodeDecodeError) as exc:
        raise DatasetError(f"{path}: cannot read page: {exc}") from exc


def read_truth(dataset: Dataset, page_id: str) -> str:
    """The ground-truth main text of ``page_id`` (``truth/<id>.txt``, UTF-8, paragraph per line).

    Raises:
        DatasetError: unknown id, missing file or invalid UTF-8.
    """
    dataset.record(page_id)
    path = dataset.truth_path(page_id)
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetError(f"{path}: cannot read truth: {exc}") from exc
