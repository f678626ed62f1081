"""Client-side template expressions a script never filled in (:func:`drop_unrendered_templates`)."""

from __future__ import annotations

import re

from pagesieve.blocks.segment import Block
from pagesieve.removal import Removal, RemovalLog

TEMPLATE_PLACEHOLDER_RE = re.compile(
    r"(?<!\{)\{\{\s*(?=[\w$.]*[._])[A-Za-z_$][\w$]*(?:\.[\w$]+)*\s*(?:\|[^{}]*)?\}\}(?!\})"
)
"""An expression of a client-side template left unrendered: ``{{article.magazine.pubName}}``,
``{{ item.title | uppercase }}`` (the double-brace interpolation of Mustache, Handlebars,
AngularJS and Vue). A script fills it in; read as HTML, the page shows the expression. The
expression must be a property path or a name with an underscore, in exactly two braces: a
reader's "{{{{ Michelle }}}}" (hugs, in a condolence message of cleaneval dev_34) is text."""

CODE_TAGS = ("code", "kbd", "samp", "tt", "var")
"""Phrasing elements that hold computer text (HTML Living Standard §4.5.15-19, and the old
``<tt>``): a template expression inside them is quoted, not left unrendered."""


def drop_unrendered_templates(blocks: list[Block], keep: list[bool], log: RemovalLog | None = None) -> int:
    """Judge noise, in place, the kept blocks whose own text holds an unrendered template
    expression (:data:`TEMPLATE_PLACEHOLDER_RE`); returns how many.

    A reader never wants to see ``This story appears in the
    {{article.article.magazine.pretty_date}} issue of ...`` (forbes.com pages of 2017 in big9,
    saved before their scripts ran): the block is the frame of a value the page never got. A
    block in ``<pre>`` or holding :data:`CODE_TAGS` quotes template syntax (Django's
    documentation of ``{{ form }}``) and stays. Each drop is logged in ``log`` as post-rule
    ``"unrendered-template"`` with the expression.

    Dev gate (``--cv-ablate templates``, 2026-11-25 model): wcxb_dev CV unchanged to four
    decimals (no page of it holds such text); it serves big9's forbes.com pages (+0.0007 held
    out, with the previous model).
    """
    dropped = 0
    for b in blocks:
        if keep[b.index] and not b.pre and b.chars:
            text = b.text
            if "{{" in text and (found := TEMPLATE_PLACEHOLDER_RE.search(text)) and next(b.element.iter(*CODE_TAGS), None) is None:
                keep[b.index] = False
                dropped += 1
                if log is not None:
                    log.drop(b.index, Removal("post-rule", "unrendered-template", {"expression": found.group(0)[:80]}))
    return dropped
