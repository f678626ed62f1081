"""``pagesieve-dev gate``: F1 per dataset with its standard error over site-grouped folds, the
mean over datasets and the worst dataset; a gate that does not flatter (issue 47).

::

    pagesieve-dev gate DATASET... [--folds K] [--compare trafilatura] [--json] [--against FILE]
                       [--split heldout|all] [--split-file PATH] [--limit N] [--min-site-pages N] [--where FIELD=VALUE]

For an extraction change that involves no training, cross-validation needs no refitting: the
folds are site-grouped partitions of each dataset's pages, and each fold's figure is the macro F1
of its pages. The pages are those ``pagesieve-dev eval`` scores (held-out split by default, the
same options: :func:`pagesieve_dev.evaluation.selection.select_pages`), each run once and scored by
:func:`pagesieve_dev.evaluation.results.evaluate`; the folds only regroup the per-page results.

- **Folds** (:func:`site_folds`): pages are grouped by the index's ``site`` (a page without a site
  is a group of its own, :func:`pagesieve_dev.training.split.site_key`), and the groups, largest
  first, each go to the fold with the fewest pages so far (ties: the lower fold), the groups of
  one size in the order of a keyed SHA-256 of the group (as
  :func:`pagesieve_dev.evaluation.cv.fold_of` keys it), so the folds are the same on every run. Not the dev gate's hash alone: big9 has 7 sites and daniel's largest
  sites hold a sixth of its pages each, and a hash leaves folds empty or lopsided there. A
  dataset with fewer groups than K gets one fold per group.
- **Figures**: a dataset's F1 is the macro F1 of its pages (eval's figure); its standard error
  is the standard deviation of the fold means (``ddof=1``) over ``sqrt(K)``. The mean over
  datasets is the plain mean of their F1 (each dataset weighs alike, as the issue's bars are
  per dataset), its standard error ``sqrt(sum SE_d^2) / n``; the worst dataset is the one with
  the lowest F1.
- **Verdict** (``--against FILE``, the ``--json`` output of an earlier run): per dataset the
  change in F1 beside its standard error; the change is kept when the mean rises and no dataset
  falls by more than its standard error (issue 47, "A gate that does not flatter"). The
  standard error used is this run's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from pagesieve.errors import DatasetError, ReadError
from pagesieve.table import format_table
from pagesieve_dev.evaluation.args import positive_int
from pagesieve_dev.evaluation.datasets import Dataset
from pagesieve_dev.evaluation.results import EvalResult, evaluate
from pagesieve_dev.evaluation.runner import add_output_arguments, add_selection_arguments, pagesieve_extractor
from pagesieve_dev.evaluation.selection import select_pages
from pagesieve_dev.training.split import site_key

DEFAULT_FOLDS = 5
"""K, as the dev gate's ``--cv 5``."""


def _order_key(group: str) -> str:
    return hashlib.sha256(f"cv:{group}".encode()).hexdigest()


def site_folds(dataset: Dataset, ids: list[str], k: int) -> list[list[str]]:
    """The pages ``ids`` of ``dataset`` cut into ``min(k, number of site groups)`` folds by
    site, balanced by page count (module docstring); each fold's ids in the order given.

    Raises:
        DatasetError: ``k`` below 2.
    """
    if k < 2:
        raise DatasetError(f"--folds must be at least 2, got {k}")
    groups: dict[str, list[str]] = defaultdict(list)
    for page_id in ids:
        groups[site_key(dataset.record(page_id))].append(page_id)
    n = min(k, len(groups))
    sizes = [0] * n
    fold_of: dict[str, int] = {}
    for group in sorted(groups, key=lambda g: (-len(groups[g]), _order_key(g))):
        f = min(range(n), key=lambda i: (sizes[i], i))
        fold_of[group] = f
        sizes[f] += len(groups[group])
    folds: list[list[str]] = [[] for _ in range(n)]
    for page_id in ids:
        folds[fold_of[site_key(dataset.record(page_id))]].append(page_id)
    return folds


@dataclass(frozen=True, slots=True)
class FoldedScore:
    """One extractor on one dataset, over site-grouped folds.

    Attributes:
        f1: macro F1 over the scored pages (eval's figure). se: standard error over the folds
            (``nan`` with fewer than 2 folds). folds: macro F1 of each fold, in fold order.
        pages: scored pages; groups: their site groups.
    """

    f1: float
    se: float
    folds: tuple[float, ...]
    pages: int
    groups: int

    def to_json(self) -> dict:
        """JSON-ready dict (NaN as ``None``)."""
        return {"f1": _num(self.f1), "se": _num(self.se), "folds": [_num(x) for x in self.folds],
                "pages": self.pages, "groups": self.groups}


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 6)


def folded_score(result: EvalResult, dataset: Dataset, k: int) -> FoldedScore:
    """The :class:`FoldedScore` of ``result`` (its scored pages cut by :func:`site_folds`)."""
    rows = {r.id: r for r in result.rows if r.scored}
    ids = list(rows)
    if not ids:
        return FoldedScore(math.nan, math.nan, (), 0, 0)
    folds = [f for f in site_folds(dataset, ids, k) if f]
    means = tuple(sum(rows[i].f1 for i in fold) / len(fold) for fold in folds)
    se = math.nan
    if len(means) >= 2:
        mean = sum(means) / len(means)
        sd = math.sqrt(sum((m - mean) ** 2 for m in means) / (len(means) - 1))
        se = sd / math.sqrt(len(means))
    groups = len({site_key(dataset.record(i)) for i in ids})
    return FoldedScore(sum(r.f1 for r in rows.values()) / len(rows), se, means, len(ids), groups)


def summary(scores: dict[str, FoldedScore]) -> dict:
    """``{"mean", "mean_se", "worst", "worst_f1"}`` over the datasets of ``scores`` (module
    docstring); NaN figures are left out."""
    valid = {n: s for n, s in scores.items() if not math.isnan(s.f1)}
    if not valid:
        return {"mean": None, "mean_se": None, "worst": None, "worst_f1": None}
    mean = sum(s.f1 for s in valid.values()) / len(valid)
    ses = [s.se for s in valid.values() if not math.isnan(s.se)]
    mean_se = math.sqrt(sum(x * x for x in ses)) / len(valid) if ses else math.nan
    worst = min(valid, key=lambda n: valid[n].f1)
    return {"mean": _num(mean), "mean_se": _num(mean_se), "worst": worst, "worst_f1": _num(valid[worst].f1)}


def verdict(now: dict[str, FoldedScore], before: dict) -> tuple[list[list[str]], bool, str]:
    """Compare this run's pagesieve scores ``now`` with an earlier ``--json`` report's
    (``before``): table rows ``[dataset, before, now, change, SE, fell?]``, whether the change is
    kept, and why.

    Raises:
        DatasetError: ``before`` is not a gate report, or shares no dataset with this run.
    """
    try:
        old = {d["name"]: d["extractors"]["pagesieve"]["f1"] for d in before["datasets"]}
    except (KeyError, TypeError) as exc:
        raise DatasetError(f"--against: not a `pagesieve-dev gate --json` report ({exc})") from None
    common = [n for n in now if n in old and old[n] is not None and not math.isnan(now[n].f1)]
    if not common:
        raise DatasetError("--against: the earlier report has none of these datasets")
    rows = [["dataset", "before", "now", "change", "SE", "verdict"]]
    fell = []
    for name in common:
        change = round(now[name].f1, 6) - old[name]  # the report holds six decimals
        se = now[name].se
        worse = not math.isnan(se) and change < -se
        if worse:
            fell.append(name)
        rows.append([name, f"{old[name]:.4f}", f"{now[name].f1:.4f}", f"{change:+.4f}", f"{se:.4f}",
                     "fell by more than SE" if worse else "ok"])
    mean_change = sum(round(now[n].f1, 6) - old[n] for n in common) / len(common)
    rows.append(["mean", f"{sum(old[n] for n in common) / len(common):.4f}",
                 f"{sum(now[n].f1 for n in common) / len(common):.4f}", f"{mean_change:+.4f}", "", ""])
    if fell:
        return rows, False, f"refused: {', '.join(fell)} fell by more than its standard error"
    if mean_change <= 0:
        return rows, False, f"refused: the mean over datasets did not rise ({mean_change:+.4f})"
    return rows, True, f"kept: the mean rose by {mean_change:+.4f} and no dataset fell by more than its standard error"


def format_gate(scores: dict[str, dict[str, FoldedScore]], k: int) -> str:
    """The table: a row per dataset (pages, site groups, folds, then F1 ± SE per extractor),
    the mean over datasets and the worst dataset."""
    extractors = list(next(iter(scores.values())))
    rows = [["dataset", "pages", "sites", "folds", *[f"{e} F1 ± SE" for e in extractors]]]
    for name, per in scores.items():
        first = per[extractors[0]]
        rows.append([name, str(first.pages), str(first.groups), str(len(first.folds)),
                     *[_pm(per[e].f1, per[e].se) for e in extractors]])
    sums = {e: summary({n: per[e] for n, per in scores.items()}) for e in extractors}
    rows.append(["mean", "", "", "", *[_pm(_f(sums[e]["mean"]), _f(sums[e]["mean_se"])) for e in extractors]])
    rows.append(["worst", "", "", "", *[f"{sums[e]['worst']} {_f(sums[e]['worst_f1']):.4f}" if sums[e]["worst"] else "-"
                                        for e in extractors]])
    return f"site-grouped {k}-fold figures (F1 = macro over pages; SE = sd of fold means / sqrt(folds))\n" + format_table(rows)


def _f(x: float | None) -> float:
    return math.nan if x is None else x


def _pm(f1: float, se: float) -> str:
    if math.isnan(f1):
        return "-"
    return f"{f1:.4f} ± {se:.4f}" if not math.isnan(se) else f"{f1:.4f} ± -"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``gate`` options on ``parser``."""
    add_selection_arguments(parser)
    parser.add_argument("--folds", metavar="K", type=positive_int, default=DEFAULT_FOLDS,
                        help=f"site-grouped folds per dataset (default {DEFAULT_FOLDS}; fewer when a dataset has fewer sites)")
    add_output_arguments(parser, "comma-separated peers scored on the same pages and folds: trafilatura, readability",
                         "print one JSON object (what --against reads)")
    parser.add_argument("--against", metavar="FILE", type=Path, default=None,
                        help="an earlier run's --json output: print each dataset's change beside its SE and the verdict")


def main(args: argparse.Namespace) -> int:
    """Run ``pagesieve-dev gate``; prints the table (or JSON) on stdout; returns 0, or 1 when
    ``--against`` refuses the change.

    Raises:
        DatasetError: a dataset or the split file is malformed, fewer than 2 folds, or a bad
            ``--against`` report (exit code 6).
        ReadError: ``--split-file`` or ``--against`` cannot be read (4).
        MissingPeerError: a ``--compare`` peer is not installed (7).
    """
    from pagesieve_dev.evaluation.peers import get_peer

    if args.folds < 2:
        raise DatasetError(f"--folds must be at least 2, got {args.folds}")
    before = None
    if args.against is not None:
        try:
            before = json.loads(args.against.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ReadError(f"{args.against}: cannot read: {exc}") from exc
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{args.against}: not valid JSON ({exc.msg})") from exc
    notes: list[str] = []
    selection = select_pages(args, notes)
    for note in notes:
        print(f"pagesieve-dev gate: note: {note}", file=sys.stderr)
    extractors = [("pagesieve", pagesieve_extractor())] + [(n, get_peer(n)) for n in (args.compare or [])]
    scores: dict[str, dict[str, FoldedScore]] = {}
    for ds, ids in zip(selection.datasets, selection.ids):
        scores[ds.name] = {name: folded_score(evaluate(ds, extract, ids, name=name), ds, args.folds)
                           for name, extract in extractors}
    code = 0
    if args.json:
        report = {
            "folds": args.folds, "split": args.split,
            "datasets": [{"name": n, "extractors": {e: s.to_json() for e, s in per.items()}} for n, per in scores.items()],
            "summary": {e: summary({n: per[e] for n, per in scores.items()}) for e, _x in extractors},
        }
        print(json.dumps(report, indent=1))
    else:
        print(format_gate(scores, args.folds))
    if before is not None:
        rows, kept, why = verdict({n: per["pagesieve"] for n, per in scores.items()}, before)
        out = sys.stderr if args.json else sys.stdout
        print("\nagainst " + str(args.against) + "\n" + format_table(rows) + "\n" + why, file=out)
        code = 0 if kept else 1
    return code
