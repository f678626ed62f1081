"""The bounds of a DOM snapshot and the error that breaking them raises.

Shared by the two snapshot formats: :mod:`pagesieve.page.snapshot` (version 1, one JSON object
per node) and :mod:`pagesieve.page.markup` (version 2, XML markup beside flat arrays); it sits
below both, so neither imports the other for them. ``docs/snapshot.md`` is the reference.
"""

from __future__ import annotations

from typing import Any

from pagesieve.errors import InputError

MAX_ID = 2**53 - 1
"""Largest node id (JavaScript's ``Number.MAX_SAFE_INTEGER``); ids are integers ``>= 0``."""

MAX_COORD = 1e9
"""Largest absolute value of a box coordinate or size, in CSS px (browsers clamp far below)."""

TOP_KEYS = {
    "version": "format version",
    "url": "page URL",
    "title": "document.title",
    "viewport": "viewport size",
    "document": "document size",
    "dpr": "device pixel ratio",
    "nodes": "node list",
    "markup": "the elements and text as XML",
    "boxes": "flat array of id, x, y, width, height",
    "fonts": "flat array of id, font size, font weight",
    "cleaned": "texts and values with characters replaced",
    "flattened": "elements flattened below the depth limit",
}
"""Top-level fields of a snapshot -> what they hold (named in :class:`SnapshotError` messages)."""
NODE_KEYS = {
    "i": "node id",
    "p": "parent id",
    "t": "tag",
    "a": "attributes",
    "b": "box",
    "v": "visible",
    "fs": "font size",
    "fw": "font weight",
    "x": "text",
}
"""Fields of a version-1 node -> what they hold (named in :class:`SnapshotError` messages)."""


class SnapshotError(InputError):
    """The DOM snapshot does not follow ``docs/snapshot.md``.

    Attributes:
        index: the index in ``nodes`` of the node that broke the schema, or ``None`` for the
            snapshot's top-level fields.
        field: the key that broke it (``"p"``, ``"viewport"`` ...), or ``None``.
    """

    def __init__(self, message: str, *, index: int | None = None, field: str | None = None) -> None:
        self.index = index
        self.field = field
        where = "snapshot" if index is None else f"snapshot node {index} (nodes[{index}])"
        if field is not None:
            meaning = (NODE_KEYS if index is not None else TOP_KEYS).get(field)
            where += f", field {field!r}" + (f" ({meaning})" if meaning else "")
        super().__init__(f"invalid {where}: {message}")


def show(value: Any) -> str:
    """A short repr of ``value`` for error messages: at most 60 characters, cut with ``...``."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def type_name(value: Any) -> str:
    """The JSON type name of ``value`` (what the sender would recognise): ``null``, ``boolean``,
    ``number``, ``string``, ``array``, ``object``, else the Python type's name."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__
