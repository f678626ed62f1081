"""WCXB's own measures, beside the project's bag F1: word F1 by the benchmark's tokenizer and the
share of its "with" and "without" snippets found in the text.

Source: the WCXB benchmark (Foley 2026, "WCXB: A Multi-Type Web Content Extraction Benchmark",
arXiv 2605.21097) and its evaluation script ``evaluate.py`` in the dataset's Hugging Face
repository ``murrough-foley/web-content-extraction-benchmark``, which defines:

* **word F1**: the text and the reference are lower-cased and split into the runs matched by the
  regular expression ``\\w+`` (so an underscore joins a token and a run of CJK characters is one
  token, unlike :func:`pagesieve.tokens.tokens`); precision, recall and F1 compare the two token
  multisets. An empty reference scores 1 against an empty text and 0 otherwise; an empty text
  scores 0. The figures published for the benchmark (rs-trafilatura's 0.893 on the test split,
  issue 62's bar) are the mean of this F1 over pages.
* **snippet checks**: each page's ``labels/<id>.snippets.json`` (``snippets_file`` in the index)
  holds ``"with"``, passages of the main content, and ``"without"``, boilerplate of the page. A
  snippet is found when it is a substring of the text, both lower-cased; a page's share is the
  found snippets over its snippets, and 1.0 for a page with none (as the script has it). A good
  extractor finds all of ``with`` and none of ``without``.

Only ``wcxb_dev`` carries snippet files among the shared datasets; other datasets get no WCXB
figures (:func:`read_snippets` returns ``None``). The text scored is the one bag F1 scores
(:func:`~pagesieve_dev.evaluation.scoring.scored_text`): its truth keeps the headline on 294 of
wcxb_dev's 1,497 pages, and there the header goes in front, for every system alike.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from pagesieve.errors import DatasetError
from pagesieve_dev.evaluation.datasets import Dataset, PageRecord

#: WCXB's tokenizer: maximal runs of word characters of the lower-cased text (``evaluate.py``).
WORD_RE = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class Snippets:
    """A page's snippets: ``with_`` passages of its main content, ``without`` of its boilerplate."""

    with_: tuple[str, ...]
    without: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class WcxbScore:
    """One page by WCXB's measures.

    Attributes:
        f1: word F1 in [0, 1] (:func:`word_prf`).
        with_found: share in [0, 1] of the page's ``with`` snippets found in the text (higher is better).
        without_found: share in [0, 1] of its ``without`` snippets found (lower is better).
    """

    f1: float
    with_found: float
    without_found: float


def word_prf(predicted: str, reference: str) -> tuple[float, float, float]:
    """Word precision, recall and F1 (each in [0, 1]) of ``predicted`` against ``reference``, by
    WCXB's tokenizer (:data:`WORD_RE` on lower-cased text) and its conventions for empty sides
    (module docstring)."""
    pred = Counter(WORD_RE.findall(predicted.lower()))
    ref = Counter(WORD_RE.findall(reference.lower()))
    if not ref:
        return (1.0, 1.0, 1.0) if not pred else (0.0, 0.0, 0.0)
    if not pred:
        return (0.0, 0.0, 0.0)
    overlap = sum((pred & ref).values())
    p = overlap / pred.total()
    r = overlap / ref.total()
    return (p, r, 2 * p * r / (p + r) if p + r else 0.0)


def found_share(text: str, snippets: Iterable[str]) -> float:
    """Share in [0, 1] of ``snippets`` that are substrings of ``text``, both lower-cased; 1.0 when
    there are none (WCXB's ``snippet_check``)."""
    wanted = [s.lower() for s in snippets]
    if not wanted:
        return 1.0
    low = text.lower()
    return sum(1 for s in wanted if s in low) / len(wanted)


def read_snippets(dataset: Dataset, record: PageRecord) -> Snippets | None:
    """The page's snippets, from the file its index row names as ``snippets_file`` (a path inside
    the dataset folder); ``None`` when the row names none or the file is absent (15 wcxb_dev pages).

    Raises:
        DatasetError: the file exists but is not JSON holding lists of strings.
    """
    name = record.row.get("snippets_file")
    if not name:
        return None
    path = dataset.path / name
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        with_ = tuple(str(s) for s in data.get("with") or ())
        without = tuple(str(s) for s in data.get("without") or ())
    except (OSError, ValueError, AttributeError, TypeError) as exc:
        raise DatasetError(f"{path}: not a snippets file: {exc}") from exc
    return Snippets(with_, without)


def score_page(text: str, truth: str, snippets: Snippets) -> WcxbScore:
    """``text`` by WCXB's measures: word F1 against ``truth``, and the shares of ``snippets`` found."""
    return WcxbScore(word_prf(text, truth)[2], found_share(text, snippets.with_), found_share(text, snippets.without))


def mean_scores(scores: Iterable[WcxbScore]) -> dict[str, float | int]:
    """The means over pages as a dict: ``pages``, ``word_f1``, ``with_found``, ``without_found``
    (``nan`` for no pages)."""
    rows = list(scores)
    n = len(rows)

    def mean(values: list[float]) -> float:
        return sum(values) / n if n else math.nan

    return {
        "pages": n,
        "word_f1": mean([s.f1 for s in rows]),
        "with_found": mean([s.with_found for s in rows]),
        "without_found": mean([s.without_found for s in rows]),
    }
