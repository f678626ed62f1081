"""``pagesieve-dev train``: build the block classifier from ``../shared/datasets``, reproducibly.

Steps:

1. **Split** (:func:`make_split`): for each training dataset, its *sites* are shuffled with a
   fixed seed and half of them go to ``train``; every page of a site lands on one side, so no
   site is both trained on and evaluated on. Datasets kept whole for evaluation (big9,
   zh_cwced, readability) are listed with every page in ``test``. Written to
   ``models/split.json``; ``pagesieve-dev eval`` evaluates only the ``test`` pages.
2. **Labels** (:mod:`pagesieve_dev.training.labels`): l3s_gn1 from its block labels, the others by
   aligning the truth text to the blocks.
3. **Sample**: noise blocks are down-sampled to the number of content blocks (seed 000 §6 (2)),
   then at most ``--max-samples`` rows are drawn, stratified, with the same seed.
4. **Fit stage 1**: ``Pipeline(StandardScaler, SVC(kernel="rbf", class_weight="balanced"))``; C
   and gamma by grid search with 10-fold cross-validation grouped by site (seed 000 §6 (4)); the
   best pair is refitted on the whole sample.
5. **Fit stage 2** (:mod:`pagesieve.classify.context`): the training sites are cut in two halves; an SVM
   with the chosen C and gamma is fitted on each half and gives the decisions of the other
   half's pages (cross-fitting, so stage 2 learns from decisions on unseen pages, as at run
   time). Its rows also hold the card columns (:mod:`pagesieve.blocks.signals`) and the page-type
   probabilities (:mod:`pagesieve.classify.page_type`: a logistic regression fitted on the labelled
   wcxb_dev pages, cross-fitted on the same halves) unless ``--no-cards`` / ``--no-page-type``;
   ``--balance-datasets`` weighs every dataset alike (models/README.md measures all three).
   A ``HistGradientBoostingClassifier`` is fitted on the context features of every
   labelled block, each weighted by the square root of its length (page F1 counts tokens, not
   blocks). Its 2-fold grouped CV score is recorded, and its probability cut is the one of
   :data:`THRESHOLD_GRID` with the best out-of-fold mean page F1 over the training datasets;
   pages predicted as another page type than an article get a second cut, chosen the same way
   on those pages alone (:func:`type_cuts`; ``--one-cut`` leaves it out).
6. **Reduce** (with ``--reduce-svm M``, :mod:`pagesieve_dev.training.reduce`): M kernel centres
   whose decisions match the SVM's on the training pages' blocks, which the host runs on.
7. **Store**: ``models/blocks.skops`` (skops, no pickle), its compiled twin ``models/blocks.npz``
   (:mod:`pagesieve.classify.model_store`) and ``models/training.json`` (data, split counts, CV scores,
   library versions), which ``models/README.md`` reports.

The steps live in modules of their own: the split in :mod:`pagesieve_dev.training.split`, the
pages and their labels in :mod:`pagesieve_dev.training.pages`, stage 1 in
:mod:`pagesieve_dev.training.stage1`, stage 2 in :mod:`pagesieve_dev.training.stage2` (its
page-type model in :mod:`pagesieve_dev.training.page_types`, its cuts in
:mod:`pagesieve_dev.training.cuts`) and the files in :mod:`pagesieve_dev.training.write`; this
module is the command, and the names it has always offered are importable from it still.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from pagesieve.blocks.features import N_FEATURES
from pagesieve.errors import DatasetError
from pagesieve_dev.evaluation.datasets import default_datasets_dir
from pagesieve_dev.training.cuts import OWN_CUT_TYPES, THRESHOLD_GRID, TYPE_CUT_GRID, peer_scores, type_cuts
from pagesieve_dev.training.page_types import fit_page_types, page_types_of
from pagesieve_dev.training.pages import NotRendered, PageData, collect, page_rows, stack_rows
from pagesieve_dev.training.split import (EVAL_ONLY_DATASETS, MODELS_DIR, REPO_ROOT, SEED, TRAIN_DATASETS, TRAIN_SHARE,
                                          fold_of, make_split, read_or_make_split, site_key)
from pagesieve_dev.training.stage1 import balanced_sample, fit, fit_stage_one, svm_pipeline
from pagesieve_dev.training.stage2 import (StageTwo, balanced_by_dataset, context_model, fit_context_stage, fit_two_stage,
                                           stack_context, stage_two_rows)
from pagesieve_dev.training.write import library_versions, model_meta, write_model

__all__ = [  # the command, and the names importable from here before the steps had modules of their own
    "EVAL_ONLY_DATASETS", "MODELS_DIR", "OWN_CUT_TYPES", "REPO_ROOT", "SEED", "THRESHOLD_GRID", "TRAIN_DATASETS",
    "TRAIN_SHARE", "TYPE_CUT_GRID", "NotRendered", "PageData", "add_arguments", "balanced_by_dataset",
    "balanced_sample", "collect", "context_model", "fit", "fit_page_types", "fit_two_stage", "fold_of",
    "library_versions", "main", "make_split", "page_rows", "page_types_of", "peer_scores", "site_key",
    "stack_context", "stack_rows", "stage_two_rows", "svm_pipeline", "type_cuts",
]


def _svm_params(value: str) -> tuple[float, float]:
    try:
        c, gamma = (float(v) for v in value.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected C,GAMMA (two numbers), got {value!r}") from None
    if c <= 0 or gamma <= 0:
        raise argparse.ArgumentTypeError("C and gamma must be positive")
    return c, gamma


def _cut(value: str) -> float:
    try:
        cut = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {value!r}") from None
    if not 0.0 < cut < 1.0:
        raise argparse.ArgumentTypeError(f"a cut lies in (0, 1), not {cut}")
    return cut


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``train`` options."""
    parser.add_argument("--datasets", type=Path, default=None, help="datasets folder (default: ../shared/datasets)")
    parser.add_argument("--out", type=Path, default=MODELS_DIR, help="where to write blocks.skops, training.json, split.json")
    parser.add_argument("--new-split", action="store_true", help="recompute models/split.json instead of reading it")
    parser.add_argument("--max-samples", type=int, default=20000, help="rows in the balanced SVM training sample (default 20000)")
    parser.add_argument("--cv-samples", type=int, default=6000, help="rows used for the C/gamma search (default 6000)")
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--limit", type=int, default=None, help="pages per dataset (quick runs)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--no-context", action="store_true", help="stage 1 (the SVM) only")
    parser.add_argument("--svm", type=_svm_params, default=None, metavar="C,GAMMA",
                        help="fix the SVM's C and gamma instead of searching them (e.g. the box-free model's, "
                        "so that a box-aware model differs from it in its second stage only)")
    parser.add_argument("--snapshots", type=Path, default=None, help="train the box-aware model (blocks-boxes.skops) on the "
                        "pages rendered by `pagesieve-dev render` into SNAPSHOTS/<dataset>/")
    parser.add_argument("--balance-datasets", action="store_true",
                        help="weigh every training dataset the same in the context stage")
    parser.add_argument("--no-cards", action="store_true", help="leave the card columns (pagesieve.blocks.signals) out of stage 2")
    parser.add_argument("--no-page-type", action="store_true", help="leave the page-type probabilities (pagesieve.classify.page_type) out of stage 2")
    parser.add_argument("--cut", type=_cut, metavar="CUT",
                        help="stage 2's main cut, given instead of chosen by the mean out-of-fold page F1 "
                             "(the shipped model: 0.4, the dev gate's configuration)")
    parser.add_argument("--one-cut", action="store_true",
                        help="cut every page type's stage-2 probabilities at one cut (default: pages predicted as another "
                             "type than article get a second cut, chosen out of fold; see type_cuts)")
    parser.add_argument("--reduce-svm", type=int, default=None, metavar="M",
                        help="store a reduced set of M kernel centres for the SVM (pagesieve_dev.training.reduce; "
                        "the shipped model: 1000); the same as `pagesieve-dev reduce --centres M` afterwards")
    parser.add_argument("--peers", default=None, help="comma-separated peers (trafilatura,readability) whose F1 on the "
                        "training pages sets the stage-2 cut (needs pip install -e '.[peers]')")


def main(args: argparse.Namespace) -> int:
    """Run ``pagesieve-dev train``; prints progress to stderr and a summary to stdout."""
    datasets_dir = _datasets_dir(args.datasets)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    split = read_or_make_split(out / "split.json", datasets_dir, args.seed, args.new_split)
    t0 = time.perf_counter()
    pages, sources = collect(datasets_dir, split, "train", args.limit, args.snapshots)
    x, y, groups, _owner = stack_rows(pages)
    t_collect = time.perf_counter() - t0
    rows = balanced_sample(y, args.max_samples, args.seed)
    x_s, y_s, g_s = x[rows][:, :N_FEATURES], y[rows], groups[rows]  # the SVM: first-pass features only
    cv_rows = balanced_sample(y_s, args.cv_samples, args.seed + 1)
    t1 = time.perf_counter()
    best, cv_info = fit_stage_one(x_s, y_s, g_s, cv_rows, getattr(args, "svm", None), args.folds, args.seed)
    stage_two = _stage_two(args, pages, datasets_dir, split, cv_info["best"])
    reduced, reduced_info = _reduced(args, best, pages)
    t_fit = time.perf_counter() - t1
    meta = model_meta(rendered=args.snapshots is not None, stage_two=stage_two, sources=sources, y=y, rows=rows,
                      cv_rows=cv_rows, seed=args.seed, cv_info=cv_info, svm=best, reduced_info=reduced_info,
                      seconds={"collect": t_collect, "fit": t_fit})
    model_path = write_model(out, bool(args.snapshots), best, meta, stage_two, reduced)
    print(f"wrote {model_path}: CV F1 {cv_info['best_f1']} with {cv_info['best']}, {meta['support_vectors']} support vectors")
    return 0


def _datasets_dir(given: Path | None) -> Path:
    """``--datasets``, else the default datasets folder.

    Raises:
        DatasetError: neither names an existing folder.
    """
    datasets_dir = given or default_datasets_dir()
    if datasets_dir is None or not Path(datasets_dir).is_dir():
        raise DatasetError("datasets folder not found: pass --datasets or set PAGESIEVE_DATASETS")
    return Path(datasets_dir)


def _stage_two(args: argparse.Namespace, pages: list[PageData], datasets_dir: Path, split: dict,
               svm_params: dict) -> StageTwo:
    """The context stage as the options ask (none with ``--no-context``)."""
    if args.no_context:
        return StageTwo()
    return fit_context_stage(
        pages, datasets_dir, split, svm_params["C"], svm_params["gamma"], max_samples=args.max_samples, seed=args.seed,
        cards=not getattr(args, "no_cards", False), typed=not getattr(args, "no_page_type", False), peers=args.peers,
        limit=args.limit, balance_datasets=getattr(args, "balance_datasets", False),
        one_cut=getattr(args, "one_cut", False), given_cut=getattr(args, "cut", None))


def _reduced(args: argparse.Namespace, svm, pages: list[PageData]):
    """With ``--reduce-svm M``, the reduced set of M kernel centres of ``svm`` and its record
    (:func:`pagesieve_dev.training.reduce.reduce_svm`); else ``(None, None)``."""
    if not getattr(args, "reduce_svm", None):
        return None, None
    from pagesieve_dev.training.reduce import candidate_rows, reduce_svm

    print(f"reducing the SVM to {args.reduce_svm} centres", file=sys.stderr)
    return reduce_svm(svm, candidate_rows(pages), args.reduce_svm, args.seed)
