"""``pagesieve-dev eval``: token P/R/F1 and speed of the extractor on benchmark datasets.

::

    pagesieve-dev eval DATASET_DIR... [--predictions OUT_DIR] [--json]
                   [--compare trafilatura,readability] [--split heldout|all]
                   [--split-file PATH] [--limit N] [--min-site-pages N]
                   [--where FIELD=VALUE]
                   [--history K|all [--templates library,diff,sst|none] [--history-where FIELD=VALUE]]
                   [--cold-start] [--template-ceiling]

For every dataset folder (layout: ``../shared/datasets/README.md``; a bare name such as
``l3s_gn1`` is looked up in :func:`~pagesieve_dev.evaluation.datasets.default_datasets_dir`) the
extractor is run on every selected page and scored with
:func:`~pagesieve_dev.evaluation.metric.prf`; the dataset figures are macro means over pages.

Page selection, in this order:

1. ``--split heldout`` (default): if the split file (``<repo>/models/split.json`` or
   ``--split-file``) names the dataset, only its ``"test"`` ids count (the shipped model was
   trained on the ``"train"`` ids); datasets it does not name count whole. No split file: all
   pages, with a note. ``--split all``: all pages.
2. ``--min-site-pages N``: only pages whose ``site`` has at least N pages in the whole dataset
   index (a null site never qualifies).
3. ``--where FIELD=VALUE``: only pages whose ``index.jsonl`` field has that value (compared as
   text, e.g. ``year=2009``).
4. ``--limit N``: the first N of what is left, in index order.

Split file format::

    {"version": 1, "datasets": {"<dataset name>": {"train": [ids...], "test": [ids...]}}}

``--history K|all``: pagesieve runs with site templates learned from K (or all) other pages of
each page's site, as :mod:`pagesieve_dev.evaluation.history` describes; peers run as usual.
``--cold-start``: no history, but the reference page the extension's opt-in cold start would
fetch, where the dataset holds it (:class:`~pagesieve_dev.evaluation.history.ColdStartExtractor`).
``--template-ceiling``: one more row, the single-page output with a perfect site template's
removals, the bound on what ``--history`` can add (:mod:`pagesieve_dev.evaluation.ceiling`).

Timing: ``time.perf_counter`` around the extractor call alone, on the HTML string already
read and gunzipped, after one untimed warm-up call of each extractor (on the first selected
page, so that loading the model is not charged to one page); reported in milliseconds per page (median and 95th percentile, linear
interpolation between order statistics), over the pages that did not fail.

Scoring: each page's text is scored by its truth's convention
(:func:`~pagesieve_dev.evaluation.scoring.scored_text`: the header then the body where the
index's ``truth_has_headline`` is true, the body alone elsewhere; every system alike). Pages
whose truth has no token are run (and timed) but not scored; they are left out of the macro
means and counted as "unscored" (cleaneval has 7).

Failures: an extractor (or peer) exception on a page, or a result neither a ``str`` nor an
:class:`~pagesieve_dev.evaluation.scoring.Answer`, counts as empty
output for that page (so P = R = F1 = 0 unless the truth is empty too); the run goes on and
reports how many pages failed and the first error.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pagesieve.checkout import repo_root
from pagesieve.errors import DatasetError, PagesieveError, ReadError
from pagesieve_dev.evaluation.args import positive_int, resolve_dataset_dir
from pagesieve_dev.evaluation.datasets import (
    Dataset,
    default_datasets_dir,
    load_dataset,
    read_page,
    read_truth,
)
from pagesieve_dev.evaluation.metric import macro, prf_counts
from pagesieve_dev.evaluation.scoring import Answer, keeps_headline, scored_text
from pagesieve.tokens import tokens

#: ``(html, url) -> main text, one paragraph per line`` (a ``str``), or its body and header
#: (:class:`~pagesieve_dev.evaluation.scoring.Answer`), scored by the truth's convention.
Extractor = Callable[[str, "str | None"], "str | Answer"]

SPLIT_CHOICES = ("heldout", "all")


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
    """

    id: str
    site: str | None
    p: float
    r: float
    f1: float
    ms: float
    error: str | None = None
    truth_tokens: int = 1

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
            "signature", "anchored", "reach", "site_pages"}``, ``reach`` the site's history
            pages holding a block of its kind (as the host's template store counts them,
            :meth:`pagesieve.templates.store.TemplateStore.shape_pages`) of ``site_pages``.
    """

    dataset: str
    extractor: str
    rows: list[PageResult] = field(default_factory=list)
    corrections: int = 0
    site_corrections: dict[str, list[dict]] = field(default_factory=dict)

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
        ms_median, ms_p95, failures, first_error (NaN becomes ``None``)."""
        p, r, f = self.macro
        return {
            "pages": self.pages,
            "unscored": self.unscored,
            "precision": _num(p, 6),
            "recall": _num(r, 6),
            "f1": _num(f, 6),
            "ms_median": _num(self.ms_median, 3),
            "ms_p95": _num(self.ms_p95, 3),
            "failures": self.failures,
            "first_error": self.first_error,
        }


def _num(x: float, digits: int) -> float | None:
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
        result.rows.append(
            PageResult(page_id, record.site, p, r, f, (t1 - t0) * 1000.0, error, true_counts.total())
        )
        if out_dir is not None:
            try:
                (out_dir / f"{page_id}.txt").write_text(text, encoding="utf-8")
            except OSError as exc:
                raise ReadError(f"{out_dir}: cannot write prediction: {exc}") from exc
    return result


# --------------------------------------------------------------------------- page selection


def default_split_file() -> Path | None:
    """``<repo>/models/split.json`` (whether or not it exists), ``None`` outside a checkout."""
    root = repo_root()
    return None if root is None else root / "models" / "split.json"


def load_split(path: str | Path) -> dict[str, dict[str, list[str]]]:
    """Read a split file; returns ``{dataset name: {"train": [ids], "test": [ids]}}``.

    Raises:
        ReadError: the file cannot be read.
        DatasetError: it is not valid JSON or not of the documented shape (version 1).
    """
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ReadError(f"{path}: cannot read split file: {exc}") from exc
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{path}: split file is not valid JSON ({exc.msg})") from exc
    if not isinstance(data, dict) or data.get("version") != 1 or not isinstance(data.get("datasets"), dict):
        raise DatasetError(f"{path}: split file must be {{\"version\": 1, \"datasets\": {{...}}}}")
    out: dict[str, dict[str, list[str]]] = {}
    for ds_name, parts in data["datasets"].items():
        if not isinstance(parts, dict):
            raise DatasetError(f"{path}: split of dataset {ds_name!r} must be an object")
        entry: dict[str, list[str]] = {}
        for key in ("train", "test"):
            ids = parts.get(key, [])
            if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
                raise DatasetError(f"{path}: {ds_name}.{key} must be a list of id strings")
            entry[key] = ids
        out[ds_name] = entry
    return out


def select_ids(
    dataset: Dataset,
    split: dict[str, dict[str, list[str]]] | None = None,
    *,
    min_site_pages: int | None = None,
    limit: int | None = None,
    notes: list[str] | None = None,
    where: tuple[str, str] | None = None,
) -> list[str]:
    """The ids to evaluate, in index order (selection steps: see the module docstring).

    ``split`` is the content of a split file (``None``: no split, every page). Split test ids
    that are not in the dataset are ignored, with a line appended to ``notes``.
    """
    ids = dataset.ids
    if split is not None and dataset.name in split:
        test = set(split[dataset.name]["test"])
        unknown = len(test - set(ids))
        if unknown and notes is not None:
            notes.append(f"{dataset.name}: {unknown} test id(s) of the split file are not in the dataset; ignored")
        ids = [i for i in ids if i in test]
    if min_site_pages is not None:
        per_site = Counter(r.site for r in dataset.rows if r.site is not None)
        ids = [i for i in ids if (s := dataset.record(i).site) is not None and per_site[s] >= min_site_pages]
    if where is not None:
        key, value = where
        ids = [i for i in ids if str(dataset.record(i).row.get(key)) == value]
    if limit is not None:
        ids = ids[:limit]
    return ids


@dataclass(slots=True)
class Selection:
    """The pages a command runs on (:func:`select_pages`).

    Attributes:
        datasets: the loaded datasets, in the order named; ids: per dataset, the selected ids.
        split: the split file's content (``None``: no split, every page counts).
        split_path: the split file read, or ``None``.
    """

    datasets: list[Dataset]
    ids: list[list[str]]
    split: dict[str, dict[str, list[str]]] | None
    split_path: Path | None


def select_pages(args: argparse.Namespace, notes: list[str]) -> Selection:
    """Load the datasets of ``args`` (options of :func:`add_selection_arguments`) and select
    their pages as the module docstring says; a note is appended to ``notes`` when there is no
    split file (every page counts) or split ids are unknown.

    Raises:
        DatasetError: a dataset folder or the split file is malformed.
        ReadError: ``--split-file`` cannot be read.
    """
    datasets = [load_dataset(resolve_dataset_dir(d)) for d in args.datasets]
    split: dict[str, dict[str, list[str]]] | None = None
    split_path: Path | None = None
    if args.split == "heldout":
        split_path = args.split_file if args.split_file is not None else default_split_file()
        if args.split_file is not None or (split_path is not None and split_path.is_file()):
            split = load_split(split_path)
        else:
            notes.append(
                f"no split file ({split_path or 'models/split.json'}): evaluating all pages, "
                "including any the model was trained on"
            )
            split_path = None
    selected = [
        select_ids(ds, split, min_site_pages=getattr(args, "min_site_pages", None), limit=args.limit, notes=notes,
                   where=getattr(args, "where", None))
        for ds in datasets
    ]
    return Selection(datasets, selected, split, split_path)


# --------------------------------------------------------------------------- CLI


def _history(value: str) -> int | str:
    from pagesieve_dev.evaluation.history import parse_history

    try:
        k = parse_history(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be 'all' or a number >= 0: {value!r}") from None
    return "all" if k is None else k


def _history_count(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {value!r}")
    return n


def _field_value(value: str) -> tuple[str, str]:
    key, sep, wanted = value.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected FIELD=VALUE: {value!r}")
    return key, wanted


def _kinds(value: str) -> tuple[str, ...]:
    from pagesieve.templates.evidence import EVIDENCE_KINDS

    if value == "none":
        return ()
    names = tuple(dict.fromkeys(n.strip() for n in value.split(",") if n.strip()))
    bad = [n for n in names if n not in EVIDENCE_KINDS]
    if bad or not names:
        raise argparse.ArgumentTypeError(f"unknown template evidence {', '.join(bad) or value!r}; known: {', '.join(EVIDENCE_KINDS)}, none")
    return names


def peer_list(value: str) -> list[str]:
    """``--compare``'s value as peer names (an argparse ``type``): comma-separated names of
    :data:`pagesieve_dev.evaluation.peers.PEERS`, duplicates dropped.

    Raises:
        argparse.ArgumentTypeError: no name, or an unknown one.
    """
    from pagesieve_dev.evaluation.peers import PEERS

    names = [n.strip() for n in value.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError("no peer named")
    bad = [n for n in names if n not in PEERS]
    if bad:
        raise argparse.ArgumentTypeError(f"unknown peer(s) {', '.join(bad)}; known: {', '.join(PEERS)}")
    return list(dict.fromkeys(names))


def add_selection_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the page-selection options on ``parser`` (the datasets, ``--split``,
    ``--split-file``, ``--limit``, ``--min-site-pages``, ``--where``; the module docstring says
    how they select), shared by ``eval`` and the commands that run on the pages it would score
    (``kept-noise``); :func:`select_pages` reads them."""
    parser.add_argument(
        "datasets", nargs="+", metavar="DATASET_DIR",
        help="dataset folder(s) as in ../shared/datasets/README.md, or a dataset name found there",
    )
    parser.add_argument(
        "--split", choices=SPLIT_CHOICES, default="heldout",
        help="heldout (default): skip the pages the shipped model was trained on; all: every page",
    )
    parser.add_argument(
        "--split-file", metavar="PATH", type=Path,
        help="split file to use with --split heldout (default: <repo>/models/split.json)",
    )
    selection = (
        ("--limit", "N", positive_int, "only the first N selected pages per dataset"),
        ("--min-site-pages", "N", positive_int, "only pages whose site has at least N pages in the dataset"),
        ("--where", "FIELD=VALUE", _field_value, "only pages whose index.jsonl field has this value (e.g. year=2009)"),
    )
    for flag, metavar, kind, help_text in selection:
        parser.add_argument(flag, metavar=metavar, type=kind, help=help_text)


def add_output_arguments(parser: argparse.ArgumentParser, compare_help: str, json_help: str) -> None:
    """Register ``--compare PEERS`` (:func:`peer_list`) and ``--json`` on ``parser``, with the
    command's own help texts."""
    parser.add_argument("--compare", metavar="PEERS", type=peer_list, default=[], help=compare_help)
    parser.add_argument("--json", action="store_true", help=json_help)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``eval`` options on ``parser``."""
    add_selection_arguments(parser)
    parser.add_argument(
        "--predictions", metavar="OUT_DIR", type=Path,
        help="write the extracted text of every evaluated page to OUT_DIR/<dataset>/<id>.txt",
    )
    add_output_arguments(parser, "comma-separated peers to score on the same pages: trafilatura, readability "
                         "(needs pip install -e '.[peers]')", "print one JSON object instead of the table")
    parser.add_argument("--cv", type=positive_int, default=None, metavar="K",
                        help="site-grouped K-fold cross-validation on the one DATASET (all its pages; each fold also "
                        "trains on the other datasets' training pages): the dev gate, per page type "
                        "(see pagesieve_dev.evaluation.cv)")
    parser.add_argument("--cv-variants", default="base,all", metavar="LIST",
                        help="with --cv: comma-separated classifier variants of " + ", ".join(("base", "cards", "type", "all"))
                        + ", each with +balanced (datasets weighed alike in stage 2) and @CUT (stage 2's cut) if wanted,"
                        " @CUT/OTHER for a second cut on the pages not taken for articles, @CUT/OTHER:TYPE+TYPE on"
                        " those types only, e.g. all+balanced@0.4/0.3:collection+listing (default base,all)")
    parser.add_argument("--cv-ablate", default="", metavar="RULES",
                        help="with --cv: comma-separated rules of the page-level settling ("
                        "headline, structures, comments, labels, templates, notices, teasers: pagesieve.extract.SETTLE_RULES"
                        + ") to leave out in turn on the last variant, each scored as a column of its own")
    parser.add_argument("--cv-reduce", type=positive_int, default=None, metavar="M",
                        help="with --cv: each fold's SVM runs on a reduced set of M kernel centres, fitted as "
                        "`pagesieve-dev reduce` fits the shipped model's (pagesieve_dev.training.reduce)")
    parser.add_argument("--cv-json", type=Path, default=None, metavar="FILE", help="with --cv: also write the table as JSON")
    selection = (
        ("--history", "K|all", _history,
         "learn K (or all) other pages of each page's site first, in a fresh temporary template store"),
        ("--history-where", "FIELD=VALUE", _field_value,
         "with --history: learn only pages whose index.jsonl field has this value (e.g. year=2005)"),
    )
    for flag, metavar, kind, help_text in selection:
        parser.add_argument(flag, metavar=metavar, type=kind, help=help_text)
    parser.add_argument(
        "--corrections", metavar="N", type=_history_count, default=None,
        help="a simulated user makes up to N corrections per site on its first pages (not scored); "
        "F1 on the site's other pages (see pagesieve_dev.evaluation.oracle)",
    )
    parser.add_argument(
        "--correction-pages", metavar="C", type=positive_int, default=None,
        help="with --corrections: pages per site the simulated user corrects (default 3)",
    )
    parser.add_argument(
        "--cold-start", action="store_true",
        help="no history, but each page's reference page is the link the extension would fetch "
        "(pagesieve.templates.cold_start), when the dataset holds it",
    )
    parser.add_argument(
        "--template-ceiling", action="store_true",
        help="also score the single-page output with a perfect site template's removals (reads the "
        "truth: the most that --history can add, see pagesieve_dev.evaluation.ceiling)",
    )
    parser.add_argument(
        "--template-stage", choices=("evidence", "scores"), default=None,
        help="with --history: pages with templates are judged by a third stage fitted on the training "
        "pages of daniel and dragnet, reading the template evidence as features (evidence) or, as a "
        "control, the classifier's scores alone (scores); see pagesieve_dev.evaluation.evidence_stage",
    )
    parser.add_argument(
        "--templates", metavar="KINDS", type=_kinds, default=None,
        help="template evidence used with --history: comma-separated of library, diff, sst (default: library); 'none' for none",
    )


def pagesieve_extractor() -> Extractor:
    """``(html, url) ->`` the :class:`~pagesieve_dev.evaluation.scoring.Answer` of
    ``pagesieve.extract.extract(html, url)`` (its text and header), imported now.

    Raises:
        PagesieveError: :mod:`pagesieve.extract` cannot be imported.
    """
    try:
        from pagesieve.extract import extract
    except ImportError as exc:
        raise PagesieveError(f"the extractor pagesieve.extract cannot be imported: {exc}") from exc

    def run(html: str, url: str | None) -> Answer:
        article = extract(html, url)
        return Answer(article.text, tuple(article.header))

    return run


def _warm_up(extractors: Sequence[Extractor], datasets: Sequence[Dataset], selected: Sequence[list[str]]) -> None:
    """Call every extractor once, untimed and unscored, on the first selected page, so that
    loading a model or lazy imports do not land in the first page's time."""
    for ds, ids in zip(datasets, selected):
        if ids:
            html, url = read_page(ds, ids[0]), ds.record(ids[0]).url
            for extract in extractors:
                try:
                    extract(html, url)
                except Exception:  # noqa: BLE001 - the timed pass reports it
                    pass
            return


def _fmt(x: float, digits: int) -> str:
    return "-" if math.isnan(x) else f"{x:.{digits}f}"


def format_table(results: Sequence[EvalResult]) -> str:
    """The human table: a row per (dataset, extractor); P/R/F1 to 3 decimals, ms to 1."""
    header = ("dataset", "extractor", "pages", "P", "R", "F1", "ms median", "ms p95", "failed")
    rows = [header]
    for res in results:
        p, r, f = res.macro
        rows.append((
            res.dataset, res.extractor, str(res.pages), _fmt(p, 3), _fmt(r, 3), _fmt(f, 3),
            _fmt(res.ms_median, 1), _fmt(res.ms_p95, 1), str(res.failures),
        ))
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = []
    for n, row in enumerate(rows):
        cells = [c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _evaluate_history(ds: Dataset, ids: list[str], args: argparse.Namespace, pred_dir: Path | None,
                      stage=None) -> EvalResult:
    """:func:`evaluate` with a :class:`~pagesieve_dev.evaluation.history.HistoryExtractor` (judged by
    ``stage``, an :class:`~pagesieve_dev.evaluation.evidence_stage.EvidenceStage`, when given)."""
    from pagesieve_dev.evaluation.history import HistoryExtractor
    from pagesieve.templates.evidence import DEFAULT_KINDS

    kinds = DEFAULT_KINDS if args.templates is None else args.templates
    history = HistoryExtractor(
        ds, None if args.history == "all" else args.history, kinds, getattr(args, "history_where", None),
        stage=stage,
    )
    try:
        label = f"pagesieve+{args.history}" + ("" if stage is None else f"+stage({args.template_stage})")
        return evaluate(ds, history, ids, name=label, predictions_dir=pred_dir, before_page=history.prepare)
    finally:
        history.close()


def _evaluate_corrections(ds: Dataset, ids: list[str], args: argparse.Namespace, pred_dir: Path | None) -> tuple[EvalResult, list[str]]:
    """:func:`evaluate` after a simulated user corrected each site's first pages
    (:mod:`pagesieve_dev.evaluation.oracle`); returns the result and the scored ids."""
    from pagesieve_dev.evaluation.history import HistoryExtractor
    from pagesieve_dev.evaluation.oracle import CORRECTION_PAGES, Oracle, plan
    from pagesieve.templates.evidence import DEFAULT_KINDS

    kinds = DEFAULT_KINDS if args.templates is None else args.templates
    history_arg = getattr(args, "history", None)
    history = HistoryExtractor(ds, 0 if history_arg is None else (None if history_arg == "all" else history_arg), kinds,
                               getattr(args, "history_where", None))
    try:
        pages, scored = plan(ds, ids, args.correction_pages or CORRECTION_PAGES)
        oracle = Oracle(ds, args.corrections, history.prepare, history.judge)
        rules = {site: oracle.correct_site(site, page_ids) for site, page_ids in pages.items()}
        made = {site: _reach_of(history, site_rules, pages[site][0]) for site, site_rules in rules.items() if site_rules.labels}

        def before(page_id: str) -> None:
            history.prepare(page_id)
            history.corrections = rules.get(ds.record(page_id).site)

        label = "pagesieve" + (f"+{history_arg}" if history_arg is not None else "") + f"+c{args.corrections}"
        result = evaluate(ds, history, scored, name=label, predictions_dir=pred_dir, before_page=before)
        result.corrections = sum(len(r.labels) for r in rules.values())
        result.site_corrections = made
        return result, scored
    finally:
        history.close()


def _reach_of(history, rules, page_id: str) -> list[dict]:
    """The corrections of one site with their reach (see :attr:`EvalResult.site_corrections`),
    read from the history store prepared for ``page_id`` (one of the site's correction pages)."""
    history.prepare(page_id)
    key = getattr(history, "site_key", None)
    site_pages = history.store.site_pages(key) if key else 0
    return [{"label": lab.name, "signature": lab.signature.describe(), "anchored": lab.anchor is not None,
             "reach": history.store.shape_pages(key, lab.signature.key) if key else 0, "site_pages": site_pages}
            for lab in rules.labels]


def site_f1(result: EvalResult) -> dict[str, float]:
    """``{site: the macro F1 of its scored pages}`` of a result, for the pages with a site
    (the per-site table of ``eval --corrections``; the JSON's ``site_f1``)."""
    per_site: dict[str, list[float]] = {}
    for row in result.rows:
        if row.scored and row.site is not None:
            per_site.setdefault(row.site, []).append(row.f1)
    return {site: sum(v) / len(v) for site, v in sorted(per_site.items())}


def site_f1_median(result: EvalResult) -> tuple[float, int]:
    """``(median over sites of the site's macro F1, number of sites)`` of a result's scored
    pages with a site (``(nan, 0)`` when none)."""
    means = sorted(site_f1(result).values())
    if not means:
        return math.nan, 0
    return percentile(means, 50), len(means)


def _template_stage(args: argparse.Namespace, split: dict | None, datasets: Sequence[Dataset]):
    """The stage of ``--template-stage``, fitted on the training side of ``split`` (datasets
    beside the first one evaluated, else the default folder).

    Raises:
        DatasetError: no ``--history``, no held-out split, or no training dataset found.
    """
    from pagesieve.classify.model_store import default_model
    from pagesieve_dev.evaluation.evidence_stage import TRAIN_DATASETS, stage_for

    if getattr(args, "history", None) is None:
        raise DatasetError("--template-stage needs --history")
    if split is None:
        raise DatasetError("--template-stage needs the held-out split (its training side trains the stage)")
    for base in [datasets[0].path.parent, default_datasets_dir()]:
        if base is not None and all((base / name).is_dir() for name in TRAIN_DATASETS):
            return stage_for(base, split, default_model(), with_evidence=args.template_stage == "evidence")
    raise DatasetError(f"--template-stage: the training datasets {', '.join(TRAIN_DATASETS)} are not found")


def main(args: argparse.Namespace) -> int:
    """Run ``pagesieve-dev eval``; prints the table (or JSON) on stdout, notes on stderr; returns 0.

    Raises:
        DatasetError: a dataset folder or the split file is malformed (exit code 6).
        ReadError: ``--split-file`` cannot be read, or predictions cannot be written (4).
        MissingPeerError: a ``--compare`` peer is not installed (7).
    """
    notes: list[str] = []
    pages = select_pages(args, notes)
    datasets, selected, split, split_path = pages.datasets, pages.ids, pages.split, pages.split_path
    names = [d.name for d in datasets]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes and args.predictions is not None:
        raise DatasetError(f"two dataset folders share the name {dupes[0]!r}; their predictions would collide")

    from pagesieve_dev.evaluation.peers import get_peer

    peers = [(n, get_peer(n)) for n in (args.compare or [])]
    extractor = pagesieve_extractor()

    _warm_up([extractor] + [p for _, p in peers], datasets, selected)

    stage = None
    if getattr(args, "template_stage", None) is not None:
        stage = _template_stage(args, split, datasets)

    results: list[EvalResult] = []
    report: list[dict[str, Any]] = []
    for ds, ids in zip(datasets, selected):
        if split is not None and ds.name in split:
            notes.append(f"{ds.name}: held-out split, {len(split[ds.name]['test'])} test ids")
        elif split is not None:
            notes.append(f"{ds.name}: not in the split file, all pages count")
        pred_dir = None if args.predictions is None else args.predictions / ds.name
        if getattr(args, "corrections", None) is not None:
            own, ids = _evaluate_corrections(ds, ids, args, pred_dir)
            notes.append(f"{ds.name}: {own.corrections} correction(s) made; {len(ids)} page(s) scored")
        elif getattr(args, "history", None) is not None:
            own = _evaluate_history(ds, ids, args, pred_dir, stage)
        elif getattr(args, "cold_start", False):
            from pagesieve_dev.evaluation.history import ColdStartExtractor

            cold = ColdStartExtractor(ds)
            own = evaluate(ds, cold, ids, name="pagesieve+cold", predictions_dir=pred_dir)
            notes.append(f"{ds.name}: {len(cold.referenced)} of {len(ids)} page(s) got a reference page "
                         "(the others link to none the dataset holds)")
        else:
            own = evaluate(ds, extractor, ids, name="pagesieve", predictions_dir=pred_dir)
        results.append(own)
        entry: dict[str, Any] = {"name": ds.name, **own.summary(), "peers": {}}
        median, sites = site_f1_median(own)
        entry["site_f1_median"], entry["sites"] = _num(median, 6), sites
        entry["site_f1"] = {site: _num(f1, 6) for site, f1 in site_f1(own).items()}
        if own.site_corrections:
            entry["site_corrections"] = own.site_corrections
        if getattr(args, "template_ceiling", False):
            from pagesieve_dev.evaluation.ceiling import TemplateCeiling

            ceiling = TemplateCeiling(ds, extractor)
            bound = evaluate(ds, ceiling, ids, name="template ceiling", before_page=ceiling.prepare)
            results.append(bound)
            entry["template_ceiling"] = {**bound.summary(), "site_f1_median": _num(site_f1_median(bound)[0], 6),
                                         "removed_lines": ceiling.removed_lines}
        for peer_name, peer in peers:
            res = evaluate(ds, peer, ids, name=peer_name)
            results.append(res)
            entry["peers"][peer_name] = {**res.summary(), "site_f1_median": _num(site_f1_median(res)[0], 6)}
        report.append(entry)

    for note in notes:
        print(f"pagesieve-dev eval: note: {note}", file=sys.stderr)
    if args.json:
        out = {
            "split": args.split,
            "split_file": None if split_path is None else str(split_path),
            "datasets": report,
        }
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        print(format_table(results))
        if getattr(args, "corrections", None) is not None or args.min_site_pages is not None:
            for res in results:
                median, sites = site_f1_median(res)
                print(f"{res.dataset} / {res.extractor}: median per-site F1 {_fmt(median, 3)} over {sites} site(s)")
        for res in results:
            if res.unscored and res.extractor == "pagesieve":
                print(f"{res.dataset}: {res.unscored} page(s) with an empty truth not scored")
            if res.failures:
                print(f"{res.dataset} / {res.extractor}: {res.failures} page(s) failed; first: {res.first_error}")
        if args.predictions is not None:
            print(f"predictions written to {args.predictions}/<dataset>/<id>.txt")
    return 0

