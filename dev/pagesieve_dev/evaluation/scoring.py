"""What is scored on a page: the body, or the header followed by the body, as the page's truth
keeps them (issue 52, "Scoring compares like with like").

Datasets disagree on whether the article's header (headline, byline, dateline) is part of the
main text: the article-body benchmarks (WCXB; the 181-page article-body set) leave it out, the
older news sets (big9, dragnet, daniel, l3s_gn1) begin their truth with it. Every row of every
``index.jsonl`` of ``../shared/datasets`` says which with ``truth_has_headline`` (its README,
"Truth conventions": computed by matching the page's headline against the truth's first three
lines). The product's text is the body; so, for every system in a table alike:

- where ``truth_has_headline`` is true, the scored text is the header (the headline, then the
  byline and dateline lines as the page shows them) followed by the body;
- elsewhere, the body alone.

An extractor answers an :class:`Answer` (its body and its header lines); a peer's header is its
title (trafilatura's and readability-lxml's text leave the title out as ours now does). A plain
``str`` answer is scored as it is, whatever the truth keeps (an extractor that knows no header).
"""

from __future__ import annotations

from dataclasses import dataclass

from pagesieve_dev.evaluation.datasets import PageRecord


@dataclass(frozen=True, slots=True)
class Answer:
    """An extractor's answer on one page.

    Attributes:
        body: the main text, one paragraph per line, without the header.
        header: the header's lines, the headline first (pagesieve: :attr:`pagesieve.article.model.Article.header`;
            a peer: its title), empty when the extractor found none.
    """

    body: str
    header: tuple[str, ...] = ()


def keeps_headline(record: PageRecord) -> bool:
    """True when the page's truth begins with its header (the index's ``truth_has_headline``;
    a row without the field counts as false: the body alone is scored)."""
    return record.row.get("truth_has_headline") is True


def scored_text(answer: Answer | str | None, headline: bool) -> str:
    """The text scored against a truth that keeps the header (``headline``) or not: the header
    lines then the body, or the body alone (module docstring). A ``str`` answer is returned as
    it is, ``None`` as ``""``.

    Raises:
        TypeError: ``answer`` is neither an :class:`Answer`, a ``str`` nor ``None``.
    """
    if answer is None:
        return ""
    if isinstance(answer, str):
        return answer
    if not isinstance(answer, Answer):
        raise TypeError(f"extractor returned {type(answer).__name__}, not str or Answer")
    if headline:
        lines = [line for line in answer.header if line and line.strip()]
        if lines:
            return "\n".join(lines) + ("\n" + answer.body if answer.body else "")
    return answer.body
