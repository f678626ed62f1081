"""The scores of one extractor on one dataset's pages: :func:`evaluate` runs it on each page,
timed, and scores its text against the truth (:class:`PageResult` a page, :class:`EvalResult`
the dataset, with macro P/R/F1 and speed); timing, scoring and failures as
:mod:`pagesieve_dev.evaluation.runner` (``pagesieve-dev eval``) describes.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pagesieve.errors import ReadError
from pagesieve_dev.evaluation.datasets import Dataset, read_page, read_truth
from pagesieve_dev.evaluation.metric import macro, prf_counts
from pagesieve_dev.evaluation.scoring import Answer, keeps_headline, scored_text
from pagesieve_dev.evaluation.wcxb import WcxbScore, mean_scores, read_snippets, score_page
from pagesieve.tokens import tokens

#: ``(html, url) -> main text, one paragraph per line`` (a ``str``), or its body and header
#: (:class:`~pagesieve_dev.evaluation.scoring.Answer`), scored by the truth's convention.
Extractor = Callable[[str, "str | None"], "str | Answer"]


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class PageResult:
    """Score of one page.

    Attributes:
        id: page id; site: its host name or ``None``.
        p, r, f1: token precision, recall, F1 in [0, 1] (see :func:`~pagesieve_dev.evaluation.metric.prf`).
        ms: wall time of the extractor call in milliseconds.
        error: ``"ExcType: message"`` if the extractor failed on this page (scored as empty
            output), else ``None``.
        truth_tokens: number of tokens in the truth; a page with 0 is not scored (left out of
            the macro means, see :mod:`pagesieve_dev.evaluation.metric`).
        wcxb: the page by WCXB's own measures (:mod:`pagesieve_dev.evaluation.wcxb`) when the
            dataset gives it snippets (wcxb_dev), else ``None``.
    """

    id: str
    site: str | None
    p: float
    r: float
    f1: float
    ms: float
    error: str | None = None
    truth_tokens: int = 1
    wcxb: WcxbScore | None = None

    @property
    def scored(self) -> bool:
        """Whether the page counts in the macro P/R/F1 (its truth has at least one token)."""
        return self.truth_tokens > 0


@dataclass(slots=True)
class EvalResult:
    """One extractor on one dataset.

    Attributes:
        dataset: dataset name; extractor: the extractor's label (``"pagesieve"``, a peer name).
        rows: one :class:`PageResult` per evaluated page, in evaluation order.
        corrections: corrections the simulated user made before the run (``--corrections``).
        site_corrections: per site, each correction made (``--corrections``): ``{"label",
            "signature", "anchored", "part", "reach", "site_pages"}`` (``part``: it names an
            element inside a block, :mod:`pagesieve.corrections.parts`), ``reach`` the site's history
            pages holding a block of its kind (as the host's template store counts them,
            :meth:`pagesieve.templates.store.TemplateStore.shape_pages`) of ``site_pages``.
        undone: corrections the simulated user made, looked at and undid because they made its
            pages worse (:meth:`pagesieve_dev.evaluation.oracle.Oracle.correct_site`).
    """

    dataset: str
    extractor: str
    rows: list[PageResult] = field(default_factory=list)
    corrections: int = 0
    site_corrections: dict[str, list[dict]] = field(default_factory=dict)
    undone: int = 0

    @property
    def pages(self) -> int:
        """Number of pages scored: evaluated (failed ones included) with a non-empty truth."""
        return sum(1 for r in self.rows if r.scored)

    @property
    def unscored(self) -> int:
        """Pages evaluated but not scored because their truth has no token."""
        return sum(1 for r in self.rows if not r.scored)

    @property
    def macro(self) -> tuple[float, float, float]:
        """Mean per-page (P, R, F1) over the scored pages; ``(nan, nan, nan)`` when none."""
        scored = [(r.p, r.r, r.f1) for r in self.rows if r.scored]
        if not scored:
            return (math.nan, math.nan, math.nan)
        return macro(scored)

    @property
    def precision(self) -> float:
        return self.macro[0]

    @property
    def recall(self) -> float:
        return self.macro[1]

    @property
    def f1(self) -> float:
        return self.macro[2]

    @property
    def wcxb(self) -> dict[str, float | int] | None:
        """WCXB's measures averaged over the scored pages that have snippets
        (:func:`~pagesieve_dev.evaluation.wcxb.mean_scores`), or ``None`` when no page has any."""
        scores = [r.wcxb for r in self.rows if r.scored and r.wcxb is not None]
        return mean_scores(scores) if scores else None

    @property
    def failures(self) -> int:
        """Pages on which the extractor raised (or returned a non-string)."""
        return sum(1 for r in self.rows if r.error is not None)

    @property
    def first_error(self) -> str | None:
        """``"<page id>: ExcType: message"`` of the first failure, or ``None``."""
        for r in self.rows:
            if r.error is not None:
                return f"{r.id}: {r.error}"
        return None

    @property
    def _times(self) -> list[float]:
        return [r.ms for r in self.rows if r.error is None]

    @property
    def ms_median(self) -> float:
        """Median ms per page over the pages that did not fail (``nan`` if none)."""
        return percentile(self._times, 50)

    @property
    def ms_p95(self) -> float:
        """95th percentile of ms per page over the pages that did not fail (``nan`` if none)."""
        return percentile(self._times, 95)

    def summary(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict: pages (scored), unscored, precision, recall, f1,
        ms_median, ms_p95, failures, first_error (NaN becomes ``None``), and ``wcxb`` (pages,
        word_f1, with_found, without_found) where the pages have WCXB snippets."""
        p, r, f = self.macro
        wcxb = self.wcxb
        extra = {} if wcxb is None else {"wcxb": {k: v if k == "pages" else json_number(v, 6) for k, v in wcxb.items()}}
        return {
            "pages": self.pages,
            "unscored": self.unscored,
            "precision": json_number(p, 6),
            "recall": json_number(r, 6),
            "f1": json_number(f, 6),
            "ms_median": json_number(self.ms_median, 3),
            "ms_p95": json_number(self.ms_p95, 3),
            "failures": self.failures,
            "first_error": self.first_error,
            **extra,
        }


def json_number(x: float, digits: int) -> float | None:
    """``x`` rounded to ``digits`` for a JSON report; ``None`` for ``nan``."""
    return None if math.isnan(x) else round(x, digits)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values``, linear interpolation between order
    statistics (numpy's default); ``nan`` for an empty sequence."""
    if not values:
        return math.nan
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


# --------------------------------------------------------------------------- evaluate


def _describe(exc: BaseException) -> str:
    msg = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {msg}" if msg else type(exc).__name__


def evaluate(
    dataset: Dataset,
    extractor: Extractor,
    ids: Iterable[str] | None = None,
    *,
    name: str = "pagesieve",
    predictions_dir: str | Path | None = None,
    before_page: Callable[[str], None] | None = None,
) -> EvalResult:
    """Run ``extractor`` on pages of ``dataset`` and score each against its truth.

    Args:
        dataset: from :func:`~pagesieve_dev.evaluation.datasets.load_dataset`.
        extractor: ``(html, url) -> text``; called once per page with the page HTML as a
            ``str`` and the index URL (or ``None``). Exceptions are caught per page.
        ids: the pages to evaluate, in this order; ``None`` for every page in index order.
        name: label of the extractor in the result.
        predictions_dir: if given, the text of every page is written to
            ``<predictions_dir>/<id>.txt`` (UTF-8; empty for a failed page).
        before_page: called with the page id before each page, untimed (``--history`` uses it
            to teach the template store the page's history).

    Returns:
        An :class:`EvalResult` with a :class:`PageResult` per page; pages whose truth has no
        token are kept in ``rows`` but left out of the macro P/R/F1.

    Raises:
        DatasetError: an id is not in the dataset, or a page or truth file cannot be read.
        ReadError: a prediction file cannot be written.
    """
    page_ids = dataset.ids if ids is None else list(ids)
    out_dir = Path(predictions_dir) if predictions_dir is not None else None
    if out_dir is not None:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ReadError(f"{out_dir}: cannot create predictions folder: {exc}") from exc
    result = EvalResult(dataset=dataset.name, extractor=name)
    for page_id in page_ids:
        record = dataset.record(page_id)
        html = read_page(dataset, page_id)
        truth = read_truth(dataset, page_id)
        error: str | None = None
        if before_page is not None:
            before_page(page_id)
        t0 = time.perf_counter()
        try:
            answer = extractor(html, record.url)
        except Exception as exc:  # noqa: BLE001 - one page must not abort the run
            t1 = time.perf_counter()
            text, error = "", _describe(exc)
        else:
            t1 = time.perf_counter()
            try:
                text = scored_text(answer, keeps_headline(record))
            except TypeError as exc:
                text, error = "", f"TypeError: {exc}"
        true_counts = Counter(tokens(truth))
        p, r, f = prf_counts(Counter(tokens(text)), true_counts)
        snippets = read_snippets(dataset, record)
        wcxb = None if snippets is None else score_page(text, truth, snippets)
        result.rows.append(
            PageResult(page_id, record.site, p, r, f, (t1 - t0) * 1000.0, error, true_counts.total(), wcxb)
        )
        if out_dir is not None:
            try:
                (out_dir / f"{page_id}.txt").write_text(text, encoding="utf-8")
            except OSError as exc:
                raise ReadError(f"{out_dir}: cannot write prediction: {exc}") from exc
    return result
