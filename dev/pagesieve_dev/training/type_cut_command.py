"""``pagesieve-dev type-cut``: set a model's second stage-2 cut, for the pages it does not take
for articles, without retraining it.

::

    pagesieve-dev type-cut --others 0.3 [--types collection,listing] [--cut article=0.45] [--model models/blocks.skops]

The pages whose most probable page type (:mod:`pagesieve.classify.page_type`) is not one of
:data:`pagesieve_dev.training.cuts.OWN_CUT_TYPES` (with ``--types``: is one of those types) are
cut at ``--others``, and each ``--cut TYPE=CUT`` cuts that type's pages at its own cut
(:attr:`pagesieve.classify.classifier.BlockClassifier.type_thresholds`); the others keep the model's
main cut. ``pagesieve-dev train`` chooses the second cut itself, out of fold on its training
pages (:func:`pagesieve_dev.training.cuts.type_cuts`); this command gives it by hand, as ``train
--svm`` gives C and gamma, when the cut is chosen on the dev gate (``models/README.md`` says
which, and why). The archive and its compiled twin are rewritten atomically
(:func:`pagesieve.classify.model_store.save_model`); the cut is recorded in the meta under
``context.type_thresholds`` with ``context.type_cut_given``, and in ``training.json`` beside the
model when there is one. ``--others 0`` removes the second cut.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``type-cut`` options."""
    from pagesieve_dev.training.split import MODELS_DIR

    parser.add_argument("--model", type=Path, default=MODELS_DIR / "blocks.skops",
                        help="the skops archive to change, rewritten in place with its twin (default models/blocks.skops)")
    parser.add_argument("--others", type=float, required=True,
                        help="stage 2's cut for the pages whose predicted page type is not an article, in (0, 1); 0 removes it")
    parser.add_argument("--types", type=_types, default=None, metavar="TYPE,...",
                        help="the page types that get the second cut (default: every type but article)")
    parser.add_argument("--cut", type=_type_cut, action="append", default=[], metavar="TYPE=CUT",
                        help="the pages taken for this page type cut at CUT, over --others (repeatable: "
                             "--cut article=0.45)")
    parser.add_argument("--why", default="", help="recorded beside the cut in the meta (where the cut was chosen)")


def _types(value: str) -> tuple[str, ...]:
    from pagesieve.classify.page_type import PAGE_TYPES

    kinds = tuple(t.strip() for t in value.split(",") if t.strip())
    bad = [t for t in kinds if t not in PAGE_TYPES]
    if not kinds or bad:
        raise argparse.ArgumentTypeError(f"page types are {', '.join(PAGE_TYPES)}; got {value!r}")
    return kinds


def _type_cut(value: str) -> tuple[str, float]:
    kind, equals, cut = value.partition("=")
    (kind,) = _types(kind) if equals else ("",)
    try:
        number = float(cut)
    except ValueError:
        number = -1.0
    if not equals or not 0.0 < number < 1.0:
        raise argparse.ArgumentTypeError(f"TYPE=CUT with CUT in (0, 1); got {value!r}")
    return kind, number


def main(args: argparse.Namespace) -> int:
    """Run ``pagesieve-dev type-cut``; prints the cuts written.

    Raises:
        ModelError: the model cannot be read, has no page-type stage, or the cut is outside [0, 1).
    """
    from pagesieve.classify.model_store import atomic_write, load_fitted, save_model
    from pagesieve.classify.page_type import PAGE_TYPES
    from pagesieve.errors import ModelError
    from pagesieve_dev.training.cuts import OWN_CUT_TYPES

    if not 0.0 <= args.others < 1.0:
        raise ModelError(f"--others must lie in [0, 1), not {args.others}")
    fitted = load_fitted(args.model)
    if fitted.page_type is None or fitted.context is None:
        raise ModelError(f"{args.model} has no page-type stage and context stage: one cut is all it can have")
    kinds = getattr(args, "types", None) or tuple(kind for kind in PAGE_TYPES if kind not in OWN_CUT_TYPES)
    cuts = {kind: float(args.others) for kind in kinds} if args.others else {}
    more = dict(getattr(args, "cut", None) or ())
    cuts.update(more)
    second = list(kinds) if args.others else []
    given = ({"others": float(args.others), "types": second, "own_cut_types": [k for k in PAGE_TYPES if k not in cuts],
              "why": args.why} if cuts else None)
    if given is not None and more:
        given["cuts"] = more
    fitted.type_thresholds = cuts
    context = fitted.meta["context"] = dict(fitted.meta.get("context") or {})
    context["type_thresholds"] = cuts
    context["type_cut_given"] = given
    save_model(fitted, args.model)
    record = args.model.with_name("training-boxes.json" if fitted.meta.get("rendered") else "training.json")
    if record.is_file():
        meta = json.loads(record.read_text(encoding="utf-8"))
        meta.setdefault("context", {})
        meta["context"]["type_thresholds"] = cuts
        meta["context"]["type_cut_given"] = given
        text = json.dumps(meta, indent=1, sort_keys=True) + "\n"
        atomic_write(record, lambda handle: handle.write(text.encode("utf-8")))
    print(f"wrote {args.model}: main cut {fitted.context_threshold}; "
          + (f"pages taken for {', '.join(kinds)} cut at {args.others}" if args.others else "")
          + "".join(f"; {kind} at {cut}" for kind, cut in more.items())
          + ("" if cuts else "one cut for every page type"))
    return 0
