"""The label store: the user's right-click corrections, one SQLite file.

Default place: ``platformdirs.user_data_dir("pagesieve") / "labels.sqlite3"``.

Each correction is one **label**: the site and page URL, when it was made, the label (1 main
content, 0 noise), the structural :class:`~pagesieve.corrections.signature.Signature` of the
corrected block, a text snippet of it (unless the user turned snippets off), and the feature
rows (:mod:`pagesieve.blocks.features`) of the candidate blocks inside it: the labelled examples the
personal model trains on (:mod:`pagesieve.corrections.personal`), and the share of its text inside
links (:attr:`Label.link_share`: a list of links and a list of sentences can share one tag path,
:func:`pagesieve.corrections.signature.text_kind`).

Hygiene: a new label with the signature of an active label of the same site (same text anchor and
kind of text, :func:`same_kind`) *replaces* it (the newest wins); the replaced label stays in the
file, inactive, and is returned so the user is told. :meth:`LabelStore.undo` removes the newest label and brings back the one it replaced.

Safety as the template store: WAL journal, one ``BEGIN IMMEDIATE`` transaction per change, and
``synchronous=FULL`` so a label is on disk when :meth:`LabelStore.add` returns (the page says
"saved" only after that); versioned schema (``PRAGMA user_version``).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pagesieve.corrections.signature import Signature, picture_kind, text_kind
from pagesieve.errors import LabelStoreError
from pagesieve.blocks.features import FEATURE_NAMES, N_FEATURES
from pagesieve.storage.sqlite_schema import migrate, open_database, write_transaction

STORE_FILE = "labels.sqlite3"
BUSY_TIMEOUT_S = 10.0
SNIPPET_CHARS = 120
"""Characters of the corrected block's text kept to show the user what the label was."""

LABEL_NAMES = {0: "noise", 1: "content"}
LABEL_VALUES = {"noise": 0, "content": 1}

MAX_BLOCKS_PER_LABEL = 2000
"""Feature rows kept per correction (a "hide" on a whole page column can hold thousands)."""

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE labels (
        id INTEGER PRIMARY KEY,
        site TEXT NOT NULL,
        url TEXT,
        created REAL NOT NULL,
        label INTEGER NOT NULL CHECK (label IN (0, 1)),
        path TEXT NOT NULL,
        path_key TEXT NOT NULL,
        zone TEXT,
        anchor TEXT,
        snippet TEXT,
        features BLOB NOT NULL,
        rows INTEGER NOT NULL,
        feature_count INTEGER NOT NULL,
        replaced INTEGER,
        active INTEGER NOT NULL DEFAULT 1
    );
    CREATE INDEX labels_site ON labels (site, active, created)
    """,
    # 2: the share of the corrected block's text inside links (NULL: not known, labels made before).
    "ALTER TABLE labels ADD COLUMN link_share REAL",
    # 3: how many of the path's last steps name an element inside the block (0: the block itself).
    "ALTER TABLE labels ADD COLUMN part INTEGER NOT NULL DEFAULT 0",
    # 4: how many pictures the corrected block holds (NULL: not known, labels made before).
    "ALTER TABLE labels ADD COLUMN pictures INTEGER",
)


def default_store_path() -> Path:
    """``platformdirs.user_data_dir("pagesieve") / labels.sqlite3``."""
    import platformdirs

    return Path(platformdirs.user_data_dir("pagesieve", appauthor=False)) / STORE_FILE


@dataclass(slots=True)
class Label:
    """One stored correction.

    Attributes:
        id: row id (0 before it is stored). site: host name. url: the page it was made on.
        created: Unix time (s). label: 1 content, 0 noise. signature: of the corrected block.
        anchor: ``None`` for a rule on every block with the signature; else the text anchor
            (:func:`~pagesieve.corrections.signature.text_anchor`) a block must also have: the
            user hid one paragraph among look-alikes the classifier keeps (a copyright line among
            the story's paragraphs), so the rule names that text, not the kind of block.
        snippet: the start of its text, or ``None``. features: ``(rows, N_FEATURES)`` float32,
            the candidate blocks inside the corrected block. replaced: id of the label this one
            replaced, or ``None``. active: False once replaced by a newer label.
        link_share: the share (0 to 1) of the corrected block's text, its subtree's, inside
            ``<a>``; ``None`` when not known (no text, or a label stored before it was kept).
            The rule matches only blocks of the same kind of text, a list of links or a
            run of sentences (:func:`~pagesieve.corrections.signature.text_kind`).
        part: 0 for a correction of a whole block; else how many of the signature's last steps
            name an element inside the block the rest of the path names (a credit ``span`` in a
            caption paragraph, a "More…" link): the rule hides those elements only, and its
            anchor and kind of text are the element's (:mod:`pagesieve.corrections.parts`).
        pictures: how many pictures the corrected block's subtree holds
            (:func:`~pagesieve.corrections.signature.picture_count`); ``None`` when not known (a
            part, or a label stored before it was kept). A "noise" rule matches only blocks of the
            same kind by pictures (:func:`~pagesieve.corrections.signature.picture_kind`), where
            both have one.
    """

    site: str
    url: str | None
    label: int
    signature: Signature
    features: np.ndarray
    snippet: str | None = None
    anchor: str | None = None
    created: float = 0.0
    id: int = 0
    replaced: int | None = None
    active: bool = True
    link_share: float | None = None
    part: int = 0
    pictures: int | None = None

    @property
    def block_key(self) -> str:
        """The tag path of the corrected block as one string: the signature's key without the
        :attr:`part` steps (what the template store counts the reach of a correction by)."""
        path = self.signature.path
        return " > ".join(path[:len(path) - self.part]) if self.part else self.signature.key

    @property
    def name(self) -> str:
        """``"noise"`` or ``"content"``."""
        return LABEL_NAMES[self.label]

    def to_json(self) -> dict:
        """The label as one JSON object (the ``labels export`` line format; features as lists)."""
        return {
            "site": self.site, "url": self.url, "created": self.created, "label": self.name,
            "path": list(self.signature.path), "zone": self.signature.zone, "anchor": self.anchor, "snippet": self.snippet,
            "link_share": self.link_share, "part": self.part, "pictures": self.pictures,
            "feature_names": list(FEATURE_NAMES), "features": [[round(float(v), 6) for v in row] for row in self.features],
        }

    def summary(self) -> dict:
        """What the extension and ``labels list`` show: id, site, label, where, snippet, when."""
        return {
            "id": self.id, "site": self.site, "url": self.url, "label": self.name, "created": self.created,
            "signature": self.signature.describe() + (" (this text only)" if self.anchor else ""), "snippet": self.snippet, "blocks": int(len(self.features)),
            "active": self.active, "part": self.part > 0,
        }


def label_from_json(data: dict) -> Label:
    """A :class:`Label` from one ``labels export`` object.

    Raises:
        LabelStoreError: a field is missing or of the wrong kind, or the features were made
            with other feature columns than this pagesieve's.
    """
    if not isinstance(data, dict):
        raise LabelStoreError("a label must be a JSON object")
    try:
        site, label, path = data["site"], data["label"], data["path"]
    except KeyError as exc:
        raise LabelStoreError(f"a label lacks the field {exc.args[0]!r}") from None
    if not isinstance(site, str) or not site:
        raise LabelStoreError("\"site\" must be a host name")
    if label not in LABEL_VALUES:
        raise LabelStoreError("\"label\" must be \"noise\" or \"content\"")
    if not isinstance(path, list) or not all(isinstance(s, str) for s in path):
        raise LabelStoreError("\"path\" must be a list of steps")
    names = data.get("feature_names", list(FEATURE_NAMES))
    if names != list(FEATURE_NAMES):
        raise LabelStoreError("the label's features have other columns than this pagesieve's; they cannot be imported")
    try:
        features = np.asarray(data.get("features", []), dtype=np.float32).reshape(-1, N_FEATURES)
    except (TypeError, ValueError):
        raise LabelStoreError(f"\"features\" must be rows of {N_FEATURES} numbers") from None
    if not np.isfinite(features).all():
        raise LabelStoreError("\"features\" must be finite numbers")
    zone, snippet, url, anchor = data.get("zone"), data.get("snippet"), data.get("url"), data.get("anchor")
    created = data.get("created", 0.0)
    for name, value in (("zone", zone), ("snippet", snippet), ("url", url), ("anchor", anchor)):
        if value is not None and not isinstance(value, str):
            raise LabelStoreError(f"\"{name}\" must be a string or null")
    if not isinstance(created, (int, float)) or isinstance(created, bool):
        raise LabelStoreError("\"created\" must be a number (Unix time)")
    link_share = data.get("link_share")
    if link_share is not None and (not isinstance(link_share, (int, float)) or isinstance(link_share, bool)
                                   or not 0.0 <= link_share <= 1.0):
        raise LabelStoreError("\"link_share\" must be a number from 0 to 1 or null")
    part = data.get("part", 0)
    if not isinstance(part, int) or isinstance(part, bool) or not 0 <= part < max(len(path), 1):
        raise LabelStoreError("\"part\" must be a whole number of steps, less than the path's")
    pictures = data.get("pictures")
    if pictures is not None and (not isinstance(pictures, int) or isinstance(pictures, bool) or pictures < 0):
        raise LabelStoreError("\"pictures\" must be a whole number from 0, or null")
    return Label(site=site, url=url, label=LABEL_VALUES[label], signature=Signature(tuple(path), zone),
                 features=features, snippet=snippet, anchor=anchor, created=float(created),
                 link_share=None if link_share is None else float(link_share), part=part, pictures=pictures)


def same_kind(a: Label, b: Label) -> bool:
    """True when labels ``a`` and ``b`` name the same kind of text (:func:`text_kind` of their
    :attr:`Label.link_share`) and the same kind by pictures (:func:`picture_kind` of their
    :attr:`Label.pictures`), where both are known: two labels with one signature and text anchor
    replace each other only then, since a rule on a list of links and a rule on sentences with
    the same tag path act on different blocks, as do a rule on a captioned photo and one on a
    fact box."""
    ka, kb = text_kind(a.link_share), text_kind(b.link_share)
    pa, pb = picture_kind(a.pictures), picture_kind(b.pictures)
    return (ka is None or kb is None or ka == kb) and (pa is None or pb is None or pa == pb)


@dataclass(slots=True)
class SiteRules:
    """A site's active corrections, oldest first (so that applying them in order lets the newest
    win where two overlap). Their ``features`` are left empty: matching needs the signatures only."""

    site: str
    labels: list[Label] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.labels)


class LabelStore:
    """The SQLite label store (see the module docstring).

    Args:
        path: the database file (created with its folder if missing); default
            :func:`default_store_path`.

    Raises:
        LabelStoreError: the file cannot be opened, is not a label store, or was written by a
            newer pagesieve.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_store_path()
        try:
            self._db = open_database(self.path, timeout=BUSY_TIMEOUT_S, synchronous="FULL")
            migrate(self._db, MIGRATIONS, self._error)
        except (sqlite3.Error, OSError) as exc:
            raise LabelStoreError(f"label store {self.path}: {exc}") from exc

    def close(self) -> None:
        """Close the database connection."""
        self._db.close()

    def __enter__(self) -> LabelStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _error(self, message: str) -> LabelStoreError:
        return LabelStoreError(f"label store {self.path}: {message}")

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:
        return write_transaction(self._db, self._error)

    # ------------------------------------------------------------------ reading

    @staticmethod
    def _row(row) -> Label:
        (id_, site, url, created, label, path, zone, anchor, snippet, features, rows, count, replaced, active, link_share, part,
         pictures) = row
        feats = np.frombuffer(features, dtype=np.float32).reshape(rows, count) if rows else np.zeros((0, count), np.float32)
        return Label(site=site, url=url, label=label, signature=Signature(tuple(json.loads(path)), zone),
                     features=feats, snippet=snippet, anchor=anchor, created=created, id=id_, replaced=replaced, active=bool(active),
                     link_share=link_share, part=part, pictures=pictures)

    _COLUMNS = ("id, site, url, created, label, path, zone, anchor, snippet, features, rows, feature_count, replaced, active, link_share,"
                " part, pictures")

    def labels(self, site: str | None = None, *, active_only: bool = True, features: bool = True) -> list[Label]:
        """Labels, oldest first; of one site or all; active ones only unless asked; without their
        feature rows (``(0, N_FEATURES)``) when ``features`` is False.

        Raises:
            LabelStoreError: the file cannot be read.
        """
        where, args = [], []
        if site is not None:
            where.append("site = ?")
            args.append(site)
        if active_only:
            where.append("active = 1")
        columns = self._COLUMNS if features else self._COLUMNS.replace("features, rows", "x'', 0")
        sql = f"SELECT {columns} FROM labels" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY created, id"
        try:
            return [self._row(r) for r in self._db.execute(sql, args)]
        except sqlite3.Error as exc:
            raise self._error(str(exc)) from exc

    def rules_for(self, site: str | None) -> SiteRules | None:
        """The active corrections of ``site`` as :class:`SiteRules`, ``None`` when it has none."""
        if site is None:
            return None
        labels = self.labels(site, features=False)  # read on every page of the site: signatures only
        return SiteRules(site, labels) if labels else None

    def sites(self) -> dict[str, int]:
        """``{site: active labels}`` for every site with one."""
        rows = self._db.execute("SELECT site, COUNT(*) FROM labels WHERE active = 1 GROUP BY site ORDER BY site")
        return {site: n for site, n in rows}

    def count(self) -> int:
        """Active labels in all."""
        return int(self._db.execute("SELECT COUNT(*) FROM labels WHERE active = 1").fetchone()[0])

    def training_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """``(x, y)``: every feature row of every active label (``(n, N_FEATURES)`` float64) and
        its label (``(n,)`` int8), for :mod:`pagesieve.corrections.personal`."""
        xs, ys = [], []
        for label in self.labels():
            if len(label.features) and label.features.shape[1] == N_FEATURES:
                xs.append(label.features.astype(np.float64))
                ys.append(np.full(len(label.features), label.label, dtype=np.int8))
        if not xs:
            return np.zeros((0, N_FEATURES)), np.zeros(0, dtype=np.int8)
        return np.vstack(xs), np.concatenate(ys)

    # ------------------------------------------------------------------ writing

    def add(self, label: Label, *, now: float | None = None) -> tuple[Label, Label | None]:
        """Store ``label`` (one transaction, on disk when this returns).

        An active label of the same site whose signature equals this one's (same path, text
        anchor and kind of text, :func:`same_kind`; zones equal or one of them unknown) is
        replaced: made inactive and returned.

        Returns:
            ``(stored label with its id and time, replaced label or None)``.

        Raises:
            LabelStoreError: the file cannot be written.
        """
        if label.label not in LABEL_NAMES:
            raise LabelStoreError("a label is 0 (noise) or 1 (content)")
        created = label.created or (time.time() if now is None else now)
        feats = np.ascontiguousarray(np.asarray(label.features, dtype=np.float32)[:MAX_BLOCKS_PER_LABEL])
        if feats.ndim != 2:
            feats = feats.reshape(0, N_FEATURES)
        sig = label.signature
        with self._write() as db:
            replaced = None
            for row in db.execute(f"SELECT {self._COLUMNS} FROM labels WHERE site = ? AND path_key = ? AND anchor IS ? AND active = 1"
                                  " ORDER BY created DESC", (label.site, sig.key, label.anchor)).fetchall():
                old = self._row(row)
                if (old.signature.zone is None or sig.zone is None or old.signature.zone == sig.zone) and same_kind(old, label):
                    db.execute("UPDATE labels SET active = 0 WHERE id = ?", (old.id,))
                    old.active = False
                    replaced = replaced or old
            cur = db.execute(
                "INSERT INTO labels (site, url, created, label, path, path_key, zone, anchor, snippet, features, rows, feature_count, replaced,"
                " active, link_share, part, pictures) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)",
                (label.site, label.url, created, label.label, json.dumps(list(sig.path), ensure_ascii=False), sig.key, sig.zone,
                 label.anchor, label.snippet, feats.tobytes(), len(feats), feats.shape[1], replaced.id if replaced else None,
                 label.link_share, label.part, label.pictures),
            )
            stored = Label(site=label.site, url=label.url, label=label.label, signature=sig, features=feats,
                           snippet=label.snippet, anchor=label.anchor, created=created, id=int(cur.lastrowid),
                           replaced=replaced.id if replaced else None, link_share=label.link_share, part=label.part,
                           pictures=label.pictures)
        return stored, replaced

    def undo(self, site: str | None = None) -> tuple[Label | None, Label | None]:
        """Remove the newest active label (of ``site``, or of any site) and make the label it
        replaced active again.

        Returns:
            ``(removed label or None when there is none, label made active again or None)``.
        """
        sql = f"SELECT {self._COLUMNS} FROM labels WHERE active = 1" + (" AND site = ?" if site else "") + " ORDER BY created DESC, id DESC LIMIT 1"
        with self._write() as db:
            row = db.execute(sql, (site,) if site else ()).fetchone()
            if row is None:
                return None, None
            newest = self._row(row)
            db.execute("DELETE FROM labels WHERE id = ?", (newest.id,))
            back = None
            if newest.replaced is not None:
                again = db.execute(f"SELECT {self._COLUMNS} FROM labels WHERE id = ?", (newest.replaced,)).fetchone()
                if again is not None:
                    db.execute("UPDATE labels SET active = 1 WHERE id = ?", (newest.replaced,))
                    back = self._row(again)
                    back.active = True
        return newest, back

    def delete(self, *, site: str | None = None, label_id: int | None = None, everything: bool = False) -> int:
        """Erase labels: one by id, every label of a site, or all. Returns how many went."""
        with self._write() as db:
            if everything:
                cur = db.execute("DELETE FROM labels")
            elif label_id is not None:
                cur = db.execute("DELETE FROM labels WHERE id = ?", (label_id,))
            elif site is not None:
                cur = db.execute("DELETE FROM labels WHERE site = ?", (site,))
            else:
                raise LabelStoreError("say which labels to delete: an id, a site, or all")
            return cur.rowcount

    def import_labels(self, labels: Iterable[Label]) -> int:
        """Add labels made elsewhere (``labels import``), oldest first, each as :meth:`add`
        would (so the newest of two with one signature stays active). All or nothing."""
        ordered = sorted(labels, key=lambda lab: lab.created)
        count = 0
        with self._write() as db:
            for label in ordered:
                sig = label.signature
                for row in db.execute(f"SELECT {self._COLUMNS} FROM labels WHERE site = ? AND path_key = ? AND anchor IS ? AND active = 1"
                                      " AND (zone IS NULL OR ? IS NULL OR zone = ?)",
                                      (label.site, sig.key, label.anchor, sig.zone, sig.zone)).fetchall():
                    if same_kind(self._row(row), label):
                        db.execute("UPDATE labels SET active = 0 WHERE id = ?", (row[0],))
                feats = np.ascontiguousarray(np.asarray(label.features, dtype=np.float32).reshape(-1, N_FEATURES)[:MAX_BLOCKS_PER_LABEL])
                db.execute(
                    "INSERT INTO labels (site, url, created, label, path, path_key, zone, anchor, snippet, features, rows, feature_count,"
                    " replaced, active, link_share, part, pictures) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, 1, ?, ?, ?)",
                    (label.site, label.url, label.created or time.time(), label.label, json.dumps(list(sig.path), ensure_ascii=False),
                     sig.key, sig.zone, label.anchor, label.snippet, feats.tobytes(), len(feats), N_FEATURES, label.link_share,
                     label.part, label.pictures),
                )
                count += 1
        return count


def read_jsonl(lines: Iterable[str]) -> Iterator[Label]:
    """Labels from ``labels export`` lines (blank lines skipped).

    Raises:
        LabelStoreError: a line is not JSON or not a label (the message names the line).
    """
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except ValueError as exc:
            raise LabelStoreError(f"line {number}: not JSON: {exc}") from None
        try:
            yield label_from_json(data)
        except LabelStoreError as exc:
            raise LabelStoreError(f"line {number}: {exc}") from None
