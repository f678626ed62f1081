"""The Markdown file of a saved article: YAML front matter (Obsidian / MarkDownload style)
followed by the article as Markdown under an H1 title; and the way back, front matter and body
to an :class:`~pagesieve.library.entry.EntryMeta` and the plain text the index searches.

Front matter keys, in order: ``title``, ``author``, ``published``, ``site``, ``url``,
``language``, ``saved``, ``tags``. A file is taken for a saved article when its front matter
has both ``url`` and ``saved``.
"""

from __future__ import annotations

import re

from pagesieve.tokens import tokens
from pagesieve.library import frontmatter
from pagesieve.library.entry import EntryMeta

KEYS = ("title", "author", "published", "site", "url", "language", "saved", "tags")
"""Front matter keys written, in order (``author`` holds :attr:`EntryMeta.byline`)."""

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")


def _same_text(a: str, b: str) -> bool:
    ta = tokens(a)
    return bool(ta) and ta == tokens(b)


def markdown_document(meta: EntryMeta, article_markdown: str) -> str:
    """The whole Markdown file: front matter, a blank line, ``# title`` (when there is a title),
    and ``article_markdown``. A first heading of the article that repeats the title is replaced
    by the H1 instead of being kept under it."""
    head = frontmatter.emit([
        ("title", meta.title), ("author", meta.byline), ("published", meta.published),
        ("site", meta.site), ("url", meta.url), ("language", meta.language),
        ("saved", meta.saved), ("tags", list(meta.tags)),
    ])
    body = article_markdown.strip("\n")
    lines = body.split("\n")
    m = _HEADING.match(lines[0]) if lines else None
    if m and meta.title and _same_text(m.group(2), meta.title):
        body = "\n".join(lines[1:]).lstrip("\n")
    title = " ".join(meta.title.split())  # a heading is one line
    if title:
        body = f"# {title}\n\n{body}" if body else f"# {title}"
    return f"{head}\n{body}\n"


def _str(value: frontmatter.Value) -> str | None:
    if value is None:
        return None
    if isinstance(value, list):
        return ", ".join(value) if value else None
    return value


def _tags(value: frontmatter.Value) -> tuple[str, ...]:
    if value is None:
        return ()
    items = [value] if isinstance(value, str) else value
    out: list[str] = []
    for item in items:
        for tag in (item.split(",") if isinstance(value, str) else [item]):
            tag = tag.strip()
            if tag and tag not in out:
                out.append(tag)
    return tuple(out)


def read_markdown_document(text: str) -> tuple[EntryMeta, str] | None:
    """``(meta, body)`` of a saved article's Markdown file, or ``None`` if it is not one (no
    front matter, or no ``url`` and ``saved`` keys). ``body`` is the Markdown after the front
    matter, H1 title included."""
    parts = frontmatter.split(text)
    if parts is None:
        return None
    lines, body = parts
    fields = frontmatter.parse(lines)
    if "url" not in fields or "saved" not in fields:
        return None
    meta = EntryMeta(
        title=_str(fields.get("title")) or "",
        byline=_str(fields.get("author", fields.get("byline"))),
        published=_str(fields.get("published")),
        site=_str(fields.get("site")),
        url=_str(fields.get("url")),
        language=_str(fields.get("language")),
        saved=_str(fields.get("saved")) or "",
        tags=_tags(fields.get("tags")),
    )
    return meta, body


_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)")
_ESCAPED = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~<])")
_LINE_MARK = re.compile(r"^[ \t]*(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+|\d+[.)][ \t]+)+")


def body_text(body: str, title: str = "") -> str:
    """The plain text the index searches and counts: ``body`` (Markdown) without its H1 title
    line, with link and image syntax reduced to their text, heading, quote and list marks,
    emphasis marks, code fences, table rules and backslash escapes removed. One line per
    non-empty Markdown line."""
    lines = body.strip("\n").split("\n")
    if lines and lines[0].startswith("# ") and title and _same_text(lines[0][2:], title):
        lines = lines[1:]
    out = []
    for line in lines:
        if re.fullmatch(r"[ \t]*(?:```.*|~~~.*|[-*_ \t]{3,}|\|?[ \t:|-]+\|[ \t:|-]*)", line):
            continue
        line = _IMAGE.sub(r"\1", line)
        line = _LINK.sub(r"\1", line)
        line = _LINE_MARK.sub("", line)
        line = re.sub(r"\*\*|__|(?<!\\)[*`]", "", line)
        line = line.replace("|", " ")
        line = _ESCAPED.sub(r"\1", line)
        line = " ".join(line.split())
        if line:
            out.append(line)
    return "\n".join(out)


def with_tags(document: str, tags: tuple[str, ...]) -> str:
    """``document`` with its front matter ``tags`` set to ``tags``; the rest is untouched.

    Raises:
        ValueError: the document has no front matter.
    """
    return frontmatter.replace_key(document, "tags", list(tags))
