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
means and counted as "unscored" (cleaneval has 7). Where the index names a snippets file
(wcxb_dev), the same text is also scored by WCXB's own measures and printed under the table:
word F1 by the benchmark's tokenizer and the shares of its "with" and "without" snippets found
(:mod:`pagesieve_dev.evaluation.wcxb`).

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
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pagesieve.errors import DatasetError, PagesieveError
from pagesieve_dev.evaluation.args import positive_int
from pagesieve_dev.evaluation.datasets import Dataset, default_datasets_dir, read_page
from pagesieve_dev.evaluation.results import EvalResult, Extractor, evaluate, json_number
from pagesieve_dev.evaluation.scoring import Answer
from pagesieve_dev.evaluation.selection import select_pages
from pagesieve_dev.evaluation.sites import evaluate_corrections, evaluate_history, site_f1, site_f1_median

SPLIT_CHOICES = ("heldout", "all")


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
    (``kept-noise``); :func:`~pagesieve_dev.evaluation.selection.select_pages` reads them."""
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
                        " @CUT/OTHER for a second cut on the pages not taken for articles, @CUT/OTHER:TYPE+TYPE on those types"
                        " only, /CUT:TYPE+TYPE for each further cut, e.g. all+balanced@0.4/0.3:collection+listing (default base,all)")
    parser.add_argument("--cv-ablate", default="", metavar="RULES",
                        help="with --cv: comma-separated rules of the page-level settling ("
                        "headline, structures, records, comments, labels, templates, notices, teasers, credits, copies, listing, asides,"
                        " loose, trailing: pagesieve.extract.SETTLE_RULES"
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
        "--block-corrections", action="store_true",
        help="with --corrections: the simulated user names blocks only, never an element inside one "
        "(as corrections were before pagesieve.corrections.parts)",
    )
    parser.add_argument(
        "--blind-user", action="store_true",
        help="with --corrections: the simulated user never looks at the pages after a click, so never "
        "undoes one that made one of its correction pages worse (token gains alone; see pagesieve_dev.evaluation.oracle)",
    )
    parser.add_argument(
        "--correction-ceiling", action="store_true",
        help="with --corrections: the simulated user chooses by the gain over all of a site's pages, "
        "the scored ones too (it reads their truth: the most N clicks can add, not a user; "
        "see pagesieve_dev.evaluation.oracle)",
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


def _evaluate_pagesieve(ds: Dataset, ids: list[str], args: argparse.Namespace, pred_dir: Path | None,
                        extractor: Extractor, stage, notes: list[str]) -> tuple[EvalResult, list[str]]:
    """pagesieve's result on one dataset as the options ask (``--corrections``, ``--history``,
    ``--cold-start``, else the single page), and the ids it scored; notes go to ``notes``."""
    if getattr(args, "corrections", None) is not None:
        own, ids = evaluate_corrections(ds, ids, args, pred_dir)
        notes.append(f"{ds.name}: {own.corrections} correction(s) made, {own.undone} undone; {len(ids)} page(s) scored")
    elif getattr(args, "history", None) is not None:
        own = evaluate_history(ds, ids, args, pred_dir, stage)
    elif getattr(args, "cold_start", False):
        from pagesieve_dev.evaluation.history import ColdStartExtractor

        cold = ColdStartExtractor(ds)
        own = evaluate(ds, cold, ids, name="pagesieve+cold", predictions_dir=pred_dir)
        notes.append(f"{ds.name}: {len(cold.referenced)} of {len(ids)} page(s) got a reference page "
                     "(the others link to none the dataset holds)")
    else:
        own = evaluate(ds, extractor, ids, name="pagesieve", predictions_dir=pred_dir)
    return own, ids


def _evaluate_dataset(ds: Dataset, ids: list[str], args: argparse.Namespace, extractor: Extractor,
                      peers: Sequence[tuple[str, Extractor]], stage, split: dict | None,
                      notes: list[str]) -> tuple[list[EvalResult], dict[str, Any]]:
    """The results of one dataset (pagesieve's, the template ceiling's, each peer's) and its
    entry of the JSON report; notes go to ``notes``."""
    if split is not None and ds.name in split:
        notes.append(f"{ds.name}: held-out split, {len(split[ds.name]['test'])} test ids")
    elif split is not None:
        notes.append(f"{ds.name}: not in the split file, all pages count")
    pred_dir = None if args.predictions is None else args.predictions / ds.name
    own, ids = _evaluate_pagesieve(ds, ids, args, pred_dir, extractor, stage, notes)
    results = [own]
    entry: dict[str, Any] = {"name": ds.name, **own.summary(), "peers": {}}
    median, sites = site_f1_median(own)
    entry["site_f1_median"], entry["sites"] = json_number(median, 6), sites
    entry["site_f1"] = {site: json_number(f1, 6) for site, f1 in site_f1(own).items()}
    if own.site_corrections:
        entry["site_corrections"] = own.site_corrections
        entry["undone"] = own.undone
    if getattr(args, "template_ceiling", False):
        from pagesieve_dev.evaluation.ceiling import TemplateCeiling

        ceiling = TemplateCeiling(ds, extractor)
        bound = evaluate(ds, ceiling, ids, name="template ceiling", before_page=ceiling.prepare)
        results.append(bound)
        entry["template_ceiling"] = {**bound.summary(), "site_f1_median": json_number(site_f1_median(bound)[0], 6),
                                     "removed_lines": ceiling.removed_lines}
    for peer_name, peer in peers:
        res = evaluate(ds, peer, ids, name=peer_name)
        results.append(res)
        entry["peers"][peer_name] = {**res.summary(), "site_f1_median": json_number(site_f1_median(res)[0], 6)}
    return results, entry


def _print_table(args: argparse.Namespace, results: Sequence[EvalResult]) -> None:
    """The human report on stdout: :func:`format_table`, then the per-site medians (with
    ``--corrections`` or ``--min-site-pages``), unscored and failed pages, the predictions' folder."""
    print(format_table(results))
    if getattr(args, "corrections", None) is not None or args.min_site_pages is not None:
        for res in results:
            median, sites = site_f1_median(res)
            print(f"{res.dataset} / {res.extractor}: median per-site F1 {_fmt(median, 3)} over {sites} site(s)")
    for res in results:
        wcxb = res.wcxb
        if wcxb is not None:
            print(f"{res.dataset} / {res.extractor}: WCXB word F1 {_fmt(wcxb['word_f1'], 3)}; snippets found: "
                  f"'with' {_fmt(wcxb['with_found'], 3)}, 'without' {_fmt(wcxb['without_found'], 3)} (lower is better);"
                  f" {wcxb['pages']} page(s) with snippets")
    for res in results:
        if res.unscored and res.extractor == "pagesieve":
            print(f"{res.dataset}: {res.unscored} page(s) with an empty truth not scored")
        if res.failures:
            print(f"{res.dataset} / {res.extractor}: {res.failures} page(s) failed; first: {res.first_error}")
    if args.predictions is not None:
        print(f"predictions written to {args.predictions}/<dataset>/<id>.txt")


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
        dataset_results, entry = _evaluate_dataset(ds, ids, args, extractor, peers, stage, split, notes)
        results.extend(dataset_results)
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
        _print_table(args, results)
    return 0
