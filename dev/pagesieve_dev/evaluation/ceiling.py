"""``pagesieve-dev eval --template-ceiling``: how much site templates could add, at most.

Every template method of the issue removes text: seed 000 §7 deletes the leaves that match the
site's template library before classification, seed 004 §2.2 deletes the subtrees identical in
the reference page, seed 002 marks the noise nodes of the site style tree; pagesieve applies all
three as removals (:func:`pagesieve.templates.evidence.apply_evidence`). And a template can only
name text that recurs on other pages of the site. So no template, however well learned, does
better on a page than a perfect one that:

- removes every line of the single-page output whose text recurs on another page of the same
  site (the most generous reading of "recurs": the line's tokens, with every token holding a
  digit read as one digit, occur in a row anywhere in that page's text, markup of scripts and
  styles included), and
- never removes a line of the article: a line at least half of whose tokens are in the page's
  truth is kept (the ceiling reads the truth; it is a measurement, never an extractor).

:class:`TemplateCeiling` is that perfect template applied to pagesieve's single-page output,
with the other pages of the site being every other page of it in the dataset, as with
``--history all``. Its macro F1 bounds what ``--history all`` can reach with removal evidence;
``pagesieve-dev eval big9 dragnet daniel --min-site-pages 5 --template-ceiling`` prints it beside
single page.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lxml import etree

from pagesieve_dev.evaluation.datasets import Dataset, read_page, read_truth
from pagesieve_dev.evaluation.scoring import Answer
from pagesieve.tokens import tokens
from pagesieve.page.html import parse_html

TRUTH_SHARE = 0.5
"""A line with at least this share of its tokens in the page's truth counts as article text
and is never removed by the perfect template."""

_DIGIT = re.compile(r"\d")


def token_line(text: str) -> str:
    """``text`` as its :func:`~pagesieve.tokens.tokens`, a token holding a digit
    read as ``"0"`` (dates and counts change from page to page), each token framed by spaces:
    ``" a 0 b "``. One token sequence occurs in a row in another iff its form is a substring
    of the other's."""
    return " " + " ".join("0" if _DIGIT.search(t) else t for t in tokens(text)) + " "


class TemplateCeiling:
    """A ``(html, url) -> text`` extractor: ``extractor``'s output with a perfect template's
    removals (see the module docstring). Call :meth:`prepare` with the page id before each page.

    Args:
        dataset: the dataset evaluated; a page's site is its ``site`` field.
        extractor: the single-page extractor, ``(html, url) -> text`` one paragraph per line.

    Attributes:
        removed_lines: lines removed so far, over all pages.
    """

    def __init__(self, dataset: Dataset, extractor: Callable[[str, str | None], str]) -> None:
        self.dataset = dataset
        self.extractor = extractor
        self._site_pages = dataset.site_pages()
        self._page_text: dict[str, str] = {}
        self._page: str | None = None
        self.removed_lines = 0

    def _text_of(self, page_id: str) -> str:
        """The :func:`token_line` form of all text of a page (cached)."""
        text = self._page_text.get(page_id)
        if text is None:
            try:
                root = parse_html(read_page(self.dataset, page_id)).root
                text = token_line(" ".join(root.itertext(etree.Element)))
            except Exception:  # noqa: BLE001 - a page the parser refuses recurs nothing
                text = ""
            self._page_text[page_id] = text
        return text

    def prepare(self, page_id: str) -> None:
        """Name the page that the next call extracts."""
        self._page = page_id

    def __call__(self, html: str, url: str | None):
        answer = self.extractor(html, url)
        if isinstance(answer, Answer):  # the header is scored as the extractor gave it
            return Answer(self._removed(answer.body), answer.header)
        return self._removed(answer)

    def _removed(self, text: str) -> str:
        page_id, self._page = self._page, None
        site = self.dataset.record(page_id).site if page_id is not None else None
        others = [p for p in self._site_pages.get(site, []) if p != page_id] if site is not None else []
        if not others:
            return text
        truth = set(tokens(read_truth(self.dataset, page_id)))
        kept = []
        for line in text.splitlines():
            line_tokens = tokens(line)
            if line_tokens and sum(t in truth for t in line_tokens) < TRUTH_SHARE * len(line_tokens):
                form = token_line(line)
                if any(form in self._text_of(p) for p in others):
                    self.removed_lines += 1
                    continue
            kept.append(line)
        return "\n".join(kept)
