"""``pagesieve-dev eval --cv K DATASET``: site-grouped K-fold cross-validation, the dev gate.

A change to the classifier is kept when the cross-validated macro F1 rises, not when one page
improves (issue 31). The protocol, on a target dataset (``wcxb_dev``: the whole WCXB
development split, Foley 2026):

1. **Pool**: every page of the target, plus the training pages (``models/split.json``) of the
   other training datasets (:data:`pagesieve_dev.training.split.TRAIN_DATASETS`). Pages are read,
   analysed and labelled once (:func:`pagesieve_dev.training.pages.page_rows`'s labels).
2. **Folds**: every site gets a fold in 0..K-1 from a keyed SHA-256 of its group (dataset and
   site), so no site is on both sides of a fold, and the folds are the same on every run.
3. **Stage 1**: K SVMs with the shipped C and gamma (``models/training.json``), SVM k fitted on
   a balanced sample of the pages of the other folds (seed 000 §6). Every page's decisions come
   from the SVM that did not see its fold (out-of-fold).
4. **Stage 2, per fold k**: the context stage (:func:`pagesieve_dev.training.stage2.context_model`)
   is fitted on the out-of-fold decisions of every page but the target's fold-k pages, and
   judges those with SVM k's decisions, through the serving path
   (:class:`pagesieve.classify.classifier.BlockClassifier` on compiled arrays, then
   :func:`pagesieve.extract.settle`). Its rows hold the first-pass features plus, per variant,
   the card columns (:data:`pagesieve.blocks.signals.CARD_COLUMNS`) and the page-type probabilities
   (:mod:`pagesieve.classify.page_type`, a model fitted on the target's other folds).
   Approximation, said plainly: the SVMs whose decisions train stage 2 for fold k saw fold k's
   labels (one SVM per fold, not K x K); the fold-k pages themselves are judged only by
   models that never saw them.
5. **Score**: token F1 of the text against the truth (:mod:`pagesieve_dev.evaluation.metric`),
   macro over pages, per page type; the shipped model and ``--compare`` peers on the same pages.

Variants (``--cv-variants``): ``base`` (the shipped feature set), ``cards``, ``type``, ``all``;
each may carry ``+balanced`` (every dataset of the pool weighs the same in stage 2, as
``pagesieve-dev train --balance-datasets``) and ``@CUT`` (stage 2's cut, default 0.5): ``all+balanced@0.4``
is the configuration of a model trained with ``--balance-datasets`` whose cut came out 0.4.
``@CUT/OTHER`` cuts the pages whose out-of-fold predicted page type is not one of
:data:`pagesieve_dev.training.cuts.OWN_CUT_TYPES` at ``OTHER`` (``all+balanced@0.4/0.25``: a model
whose :attr:`~pagesieve.classify.classifier.BlockClassifier.type_thresholds` training set to 0.25);
``@CUT/OTHER:TYPE+TYPE`` cuts only the pages predicted as one of those types at ``OTHER``
(``all+balanced@0.4/0.3:collection+listing``), and each further ``/CUT:TYPE+TYPE`` cuts those
types' pages at its own cut (``all+balanced@0.4/0.3:collection+listing/0.45:article``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pagesieve.errors import DatasetError, ModelError

VARIANTS = ("base", "cards", "type", "all")


@dataclass(frozen=True, slots=True)
class VariantSpec:
    """One ``--cv-variants`` entry: ``columns`` (one of :data:`VARIANTS`), whether the datasets
    are weighed alike in stage 2 (``balanced``), stage 2's ``cut`` (a probability in (0, 1)), and
    the cut of the pages predicted as other types than an article (``other_cut``, ``None``: ``cut``),
    or, with ``other_types``, as one of those types only."""

    columns: str
    balanced: bool = False
    cut: float = 0.5
    other_cut: float | None = None
    other_types: tuple[str, ...] | None = None
    more_cuts: tuple[tuple[float, tuple[str, ...]], ...] = ()
    """Further ``(cut, types)``, each a ``/CUT:TYPE+TYPE`` after the second cut (later ones win)."""

    def type_thresholds(self) -> dict[str, float]:
        """The :attr:`~pagesieve.classify.classifier.BlockClassifier.type_thresholds` of this variant."""
        from pagesieve.classify.page_type import PAGE_TYPES
        from pagesieve_dev.training.cuts import OWN_CUT_TYPES

        if self.other_cut is None:
            return {}
        kinds = self.other_types or tuple(kind for kind in PAGE_TYPES if kind not in OWN_CUT_TYPES)
        cuts = {kind: self.other_cut for kind in kinds}
        for cut, types in self.more_cuts:
            cuts.update((kind, cut) for kind in types)
        return cuts


def parse_variant(spec: str) -> VariantSpec:
    """``"all+balanced@0.4"`` -> ``VariantSpec("all", True, 0.4)``; ``"all@0.4/0.25"`` ->
    ``VariantSpec("all", False, 0.4, 0.25)``; ``"all@0.4/0.3:collection+listing"``: the second cut
    for the pages predicted as a collection or a listing only.

    Raises:
        ValueError: unknown columns, flag or page type, or a cut outside (0, 1).
    """
    from pagesieve.classify.page_type import PAGE_TYPES

    text, _, cut_text = spec.strip().partition("@")
    columns, *flags = text.split("+")
    if columns not in VARIANTS or any(f != "balanced" for f in flags):
        raise ValueError(f"{spec!r}: a variant is one of {', '.join(VARIANTS)}, then +balanced and @CUT if wanted")
    cut_text, slash, other_text = cut_text.partition("/")
    other_text, *more_texts = other_text.split("/")
    other_text, colon, types_text = other_text.partition(":")
    cut = float(cut_text) if cut_text else 0.5
    other = float(other_text) if slash else None
    if not 0.0 < cut < 1.0 or (other is not None and not 0.0 < other < 1.0):
        raise ValueError(f"{spec!r}: the cut must lie in (0, 1)")
    types = tuple(types_text.split("+")) if colon else None
    if types is not None and (other is None or not types or any(t not in PAGE_TYPES for t in types)):
        raise ValueError(f"{spec!r}: after @CUT/OTHER, ':' names page types joined by '+' ({', '.join(PAGE_TYPES)})")
    more = []
    for part in more_texts:  # "/CUT:TYPE+TYPE": these types cut at CUT
        more_cut, colon, more_types = part.partition(":")
        kinds = tuple(more_types.split("+"))
        if not colon or not more_types or any(t not in PAGE_TYPES for t in kinds):
            raise ValueError(f"{spec!r}: a third cut and after is CUT:TYPE+TYPE ({', '.join(PAGE_TYPES)})")
        if not 0.0 < float(more_cut) < 1.0:
            raise ValueError(f"{spec!r}: the cut must lie in (0, 1)")
        more.append((float(more_cut), kinds))
    return VariantSpec(columns, bool(flags), cut, other, types, tuple(more))


@dataclass(slots=True)
class CvPage:
    """One page of the pool: its analysis and labels, fold, type and extra columns."""

    dataset: str
    page_id: str
    group: str
    fold: int
    target: bool
    page_type: str | None
    analysis: object
    y: np.ndarray
    truth: str
    url: str | None
    cards: np.ndarray | None = None
    signals: np.ndarray | None = None
    decision: np.ndarray | None = None
    tree: tuple | None = None
    extra: dict = field(default_factory=dict)


def fold_of(group: str, k: int) -> int:
    """The fold (0..k-1) of a site group, from a keyed SHA-256 (stable across runs)."""
    return int(hashlib.sha256(f"cv:{group}".encode()).hexdigest(), 16) % k


def collect_pool(datasets_dir: Path, split: dict, target: str, k: int, limit: int | None = None) -> list[CvPage]:
    """Every page of ``target`` and the training pages of the other training datasets, loaded
    (:func:`pagesieve_dev.training.pages.page_rows`), with fold, card columns and page signals. Broken pages are counted and
    left out (a line on stderr each)."""
    from pagesieve_dev.evaluation.datasets import load_dataset
    from pagesieve.blocks.signals import card_columns, page_signals
    from pagesieve_dev.training.pages import page_rows
    from pagesieve_dev.training.split import TRAIN_DATASETS, site_key

    pool: list[CvPage] = []
    names = [target] + [n for n in TRAIN_DATASETS if n != target]
    for name in names:
        if not (datasets_dir / name).is_dir():
            continue
        dataset = load_dataset(datasets_dir / name)
        ids = list(dataset.ids) if name == target else split["datasets"].get(name, {}).get("train", [])
        if limit:
            ids = ids[:limit]
        t0, failed = time.perf_counter(), 0
        for page_id in ids:
            record = dataset.record(page_id)
            try:
                analysis, y, truth = page_rows(dataset, page_id)
            except Exception as exc:  # noqa: BLE001 - a broken page is counted, not fatal
                failed += 1
                print(f"  {name}/{page_id}: skipped ({exc})", file=sys.stderr)
                continue
            group = f"{name}:{site_key(record)}"
            blocks = analysis.blocks
            pool.append(CvPage(
                name, page_id, group, fold_of(group, k), name == target,
                record.row.get("page_type"),
                analysis, y, truth, record.url,
                cards=card_columns(blocks, analysis.candidates, record.url),
                signals=page_signals(analysis.raw_signals or {}, blocks),
            ))
        print(f"  {name}: {len(ids) - failed} pages loaded in {time.perf_counter() - t0:.0f} s ({failed} skipped)", file=sys.stderr)
    if not any(p.target for p in pool):
        raise DatasetError(f"no page of {target} could be loaded from {datasets_dir}")
    return pool


def stack_labelled(pages: list[CvPage]):
    """``(X, y)``: the first-pass rows and labels of the labelled blocks of ``pages``."""
    from pagesieve_dev.training.labels import IGNORE

    xs, ys = [], []
    for p in pages:
        mask = p.y != IGNORE
        if mask.any():
            xs.append(p.analysis.features[mask])
            ys.append(p.y[mask])
    return np.vstack(xs), np.concatenate(ys).astype(np.int8)


def fit_svms(pool: list[CvPage], k: int, c: float, gamma: float, max_samples: int, seed: int,
             reduce: int | None = None) -> list:
    """K compiled SVMs (:class:`pagesieve.classify.classifier.SvmArrays`); SVM f is fitted on the pages
    of the other folds; sets every page's out-of-fold ``decision``. With ``reduce``, each SVM is
    replaced by its reduced set of that many centres (:func:`pagesieve_dev.training.reduce.reduce_svm`),
    fitted on the candidate rows of the same pages, as ``pagesieve-dev reduce`` does for the
    shipped model."""
    from pagesieve.classify.classifier import BlockClassifier
    from pagesieve.classify.context import tree_arrays
    from pagesieve.blocks.features import N_FEATURES
    from pagesieve.classify.model_store import compile_svm
    from pagesieve_dev.training.stage1 import balanced_sample, svm_pipeline

    svms = []
    for f in range(k):
        t0 = time.perf_counter()
        x, y = stack_labelled([p for p in pool if p.fold != f])
        rows = balanced_sample(y, max_samples, seed)
        fitted = svm_pipeline(c, gamma).fit(x[rows][:, :N_FEATURES], y[rows])
        reduced = None
        if reduce:
            from pagesieve_dev.training.reduce import reduce_svm

            seen = [p.analysis.features[:, :N_FEATURES] for p in pool if p.fold != f and len(p.analysis.candidates)]
            reduced, info = reduce_svm(fitted, np.vstack(seen), reduce, seed)
            print(f"  SVM {f + 1}/{k} reduced to {reduce} centres: check {info.get('check')}", file=sys.stderr)
        svm = compile_svm(fitted, reduced)
        svms.append(svm)
        judge = BlockClassifier(svm=svm, meta={})
        for p in pool:
            if p.fold == f:
                p.decision = judge.decision(p.analysis.features) if len(p.analysis.candidates) else np.zeros(0)
                p.tree = tree_arrays(p.analysis.blocks)
        print(f"  SVM {f + 1}/{k}: {len(rows)} rows, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return svms


def fit_page_types(pool: list[CvPage], k: int) -> None:
    """Out-of-fold page-type probabilities ``p.extra["type"]`` for every page: the model of fold
    f is fitted on the target's labelled pages outside fold f and judges the pages of fold f
    (any dataset; :func:`pagesieve.classify.page_type.cross_fitted`)."""
    from pagesieve.classify.page_type import cross_fitted

    labels = [p.page_type if p.target else None for p in pool]
    probabilities = cross_fitted(np.vstack([p.signals for p in pool]), labels, np.array([p.fold for p in pool]))
    for p, row in zip(pool, probabilities):
        p.extra["type"] = row


def rows_for(p: CvPage, variant: str) -> np.ndarray:
    """The feature rows of ``p``'s candidates for a variant: the first-pass features, then the
    card columns (``cards``, ``all``), then the page-type probabilities (``type``, ``all``)."""
    parts = [p.analysis.features]
    if variant in ("cards", "all"):
        parts.append(p.cards)
    if variant in ("type", "all"):
        parts.append(np.tile(p.extra["type"], (len(p.analysis.candidates), 1)))
    return np.hstack(parts) if len(parts) > 1 else parts[0]


def run_variant(pool: list[CvPage], svms: list, k: int, spec: str, seed: int,
                ablate: tuple[str, ...] = ()) -> dict[str, str]:
    """Texts of the target's pages (``"dataset/id" -> text``) judged by the fold models of one
    variant (``spec`` as :func:`parse_variant` reads it; see the module docstring).

    ``ablate``: names of :data:`pagesieve.extract.SETTLE_RULES`; for each, the same verdicts are
    also settled without that rule, under the keys ``"-RULE:dataset/id"`` (the rule's
    cross-validated gain is the variant's F1 less that column's).
    """
    from pagesieve.article.text import blocks_text
    from pagesieve.classify.classifier import BlockClassifier
    from pagesieve.classify.context import context_features
    from pagesieve.extract import settle
    from pagesieve.classify.model_store import compile_forest
    from pagesieve_dev.training.labels import IGNORE
    from pagesieve_dev.training.stage2 import balanced_by_dataset, context_model

    parsed = parse_variant(spec)
    variant, cut = parsed.columns, parsed.cut
    z_pages, weights = [], []
    for p in pool:
        if len(p.analysis.candidates) == 0:
            z_pages.append(None)
            weights.append(None)
            continue
        z_pages.append(context_features(p.tree, p.analysis.candidates, rows_for(p, variant), p.decision))
        chars = np.array([p.analysis.blocks[i].chars for i in p.analysis.candidates], dtype=np.float64)
        weights.append(np.sqrt(chars + 1.0))
    texts: dict[str, str] = {}
    for f in range(k):
        t0 = time.perf_counter()
        zs, ys, ws, names = [], [], [], []
        for p, z, w in zip(pool, z_pages, weights):
            if z is None or (p.target and p.fold == f):
                continue
            mask = p.y != IGNORE
            if mask.any():
                zs.append(z[mask])
                ys.append(p.y[mask])
                ws.append(w[mask])
                names.append(p.dataset)
        w_rows = np.concatenate(ws)
        if parsed.balanced:
            w_rows = balanced_by_dataset(np.repeat(names, [len(w) for w in ws]), w_rows)
        forest = context_model(seed).fit(np.vstack(zs), np.concatenate(ys), sample_weight=w_rows)
        judge = BlockClassifier(svm=svms[f], meta={}, context=compile_forest(forest), context_threshold=cut,
                                type_thresholds=parsed.type_thresholds())
        for p in pool:
            if not (p.target and p.fold == f):
                continue
            a = p.analysis
            keep = [False] * len(a.blocks)
            if a.candidates:
                flags, decision, _score, _fallback = judge.verdict(p.tree, a.candidates, rows_for(p, variant), p.extra.get("type"))
                for i, flag in zip(a.candidates, flags):
                    keep[i] = bool(flag)
                a.page_type = p.extra["type"] if variant in ("type", "all") else None  # as model_rows sets it
                for rule in ablate:
                    without = list(keep)
                    settle(a, without, skip=frozenset({rule}), decision=decision)
                    texts[f"-{rule}:{p.dataset}/{p.page_id}"] = blocks_text(a.blocks, without)
                settle(a, keep, decision=decision)
            else:
                for rule in ablate:
                    texts[f"-{rule}:{p.dataset}/{p.page_id}"] = ""
            texts[f"{p.dataset}/{p.page_id}"] = blocks_text(a.blocks, keep)
        print(f"  {variant}: fold {f + 1}/{k} in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return texts


def shipped_texts(pool: list[CvPage]) -> dict[str, str]:
    """Texts of the target's pages judged by the shipped model (:func:`pagesieve.extract.classify`
    on the same analyses)."""
    from pagesieve.article.text import blocks_text
    from pagesieve.classify.model_store import default_model
    from pagesieve.extract import classify

    model = default_model()
    return {f"{p.dataset}/{p.page_id}": blocks_text(p.analysis.blocks, classify(p.analysis, model)) for p in pool if p.target}


def peer_texts(pool: list[CvPage], datasets_dir: Path, peer: str) -> dict[str, str]:
    """Texts of the target's pages by a peer (``trafilatura``, ``readability``), from the raw
    HTML; a page the peer fails on gets an empty text."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page
    from pagesieve_dev.evaluation.peers import get_peer

    run = get_peer(peer, header=False)  # the text alone, as the pagesieve column's blocks_text
    out: dict[str, str] = {}
    datasets = {}
    for p in pool:
        if not p.target:
            continue
        ds = datasets.setdefault(p.dataset, load_dataset(datasets_dir / p.dataset))
        try:
            out[f"{p.dataset}/{p.page_id}"] = run(read_page(ds, p.page_id), p.url) or ""
        except Exception:  # noqa: BLE001 - a peer's failure on one page scores 0 there
            out[f"{p.dataset}/{p.page_id}"] = ""
    return out


def score_table(pool: list[CvPage], columns: dict[str, dict[str, str]]) -> dict[str, dict[str, tuple[float, float, float, int]]]:
    """Per column and page type (and ``"all"``), macro ``(P, R, F1, pages)`` over the target's
    pages whose truth has tokens."""
    from collections import Counter

    from pagesieve_dev.evaluation.metric import prf_counts
    from pagesieve.tokens import tokens

    truths = {f"{p.dataset}/{p.page_id}": Counter(tokens(p.truth)) for p in pool if p.target}
    kinds = {f"{p.dataset}/{p.page_id}": p.page_type or "unknown" for p in pool if p.target}
    out: dict[str, dict] = {}
    for name, texts in columns.items():
        per: dict[str, list] = defaultdict(list)
        for key, truth in truths.items():
            if not truth:
                continue
            s = prf_counts(Counter(tokens(texts.get(key, ""))), truth)
            per[kinds[key]].append(s)
            per["all"].append(s)
        out[name] = {kind: (*np.mean(v, axis=0).tolist(), len(v)) for kind, v in per.items()}
    return out


def format_cv_table(table: dict, order: list[str]) -> str:
    """The table: one row per page type (pages, then F1 per column; P/R of the first and last)."""
    kinds = sorted({kind for col in table.values() for kind in col if kind != "all"}) + ["all"]
    widths = [max(len(name) + 2, 10) for name in order]
    head = f"{'page type':<14}{'pages':>6}" + "".join(f"{name:>{w}}" for name, w in zip(order, widths))
    lines = [head, "-" * len(head)]
    for kind in kinds:
        pages = next(iter(table.values())).get(kind, (0, 0, 0, 0))[3]
        cells = "".join(f"{table[name].get(kind, (0, 0, 0))[2]:>{w}.4f}" for name, w in zip(order, widths))
        lines.append(f"{kind:<14}{pages:>6}{cells}")
    lines.append("")
    lines.append("precision / recall (all): " + ", ".join(
        f"{name} {table[name]['all'][0]:.4f} / {table[name]['all'][1]:.4f}" for name in order))
    return "\n".join(lines)


def run_cv(datasets_dir: Path, target: str, k: int, variants: list[str], peers: list[str], split: dict,
           limit: int | None = None, json_out: Path | None = None, ablate: tuple[str, ...] = (),
           reduce: int | None = None) -> str:
    """The whole protocol of the module docstring; returns the printed table (with timings).
    ``reduce``: each fold's SVM runs on a reduced set of that many centres (:func:`fit_svms`).
    ``ablate``: rules of :func:`pagesieve.extract.settle` to leave out in turn, on the last
    variant (columns ``"VARIANT -RULE"``, see :func:`run_variant`).

    Raises:
        DatasetError: the target cannot be loaded.
    """
    from pagesieve_dev.training.split import MODELS_DIR, SEED

    meta = json.loads((MODELS_DIR / "training.json").read_text(encoding="utf-8"))
    c, gamma = meta["cv"]["best"]["C"], meta["cv"]["best"]["gamma"]
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    print(f"cv: loading {target} and the training pages of the other datasets", file=sys.stderr)
    pool = collect_pool(datasets_dir, split, target, k, limit)
    timings["load"] = time.perf_counter() - t0
    t = time.perf_counter()
    svms = fit_svms(pool, k, c, gamma, 20000, SEED, reduce)
    fit_page_types(pool, k)
    timings["stage 1"] = time.perf_counter() - t
    columns: dict[str, dict[str, str]] = {}
    t = time.perf_counter()
    try:
        columns["shipped"] = shipped_texts(pool)
        timings["shipped"] = time.perf_counter() - t
    except ModelError as exc:  # a model of other signals than this code's: the folds still say what the code does
        print(f"pagesieve-dev eval: note: no 'shipped' column: {exc}", file=sys.stderr)
    for n, variant in enumerate(variants):
        t = time.perf_counter()
        texts = run_variant(pool, svms, k, variant, SEED, ablate if n == len(variants) - 1 else ())
        columns[f"cv:{variant}"] = {key: text for key, text in texts.items() if not key.startswith("-")}
        for rule in ablate if n == len(variants) - 1 else ():
            prefix = f"-{rule}:"
            columns[f"cv:{variant} -{rule}"] = {key[len(prefix):]: text for key, text in texts.items() if key.startswith(prefix)}
        timings[f"cv:{variant}"] = time.perf_counter() - t
    for peer in peers:
        t = time.perf_counter()
        columns[peer] = peer_texts(pool, datasets_dir, peer)
        timings[peer] = time.perf_counter() - t
    table = score_table(pool, columns)
    n_target = sum(p.target for p in pool)
    sites = len({p.group for p in pool if p.target})
    text = (f"{target}: {k}-fold site-grouped CV, {n_target} pages of {sites} sites; each fold's model also "
            f"trains on {sum(not p.target for p in pool)} training pages of the other datasets\n"
            f"('shipped' is models/blocks.skops on the same pages: it trained on some of them)\n\n"
            + format_cv_table(table, list(columns)) + "\n\ntime: "
            + ", ".join(f"{name} {sec:.0f} s" for name, sec in timings.items())
            + f"; total {time.perf_counter() - t0:.0f} s")
    if json_out is not None:
        json_out.write_text(json.dumps({"table": table, "timings": timings, "pages": n_target}, indent=1), encoding="utf-8")
    # page-type accuracy of the out-of-fold page-type model, on the target
    typed = [p for p in pool if p.target and p.page_type and "type" in p.extra]
    if typed:
        from pagesieve.classify.page_type import PAGE_TYPES

        right = sum(PAGE_TYPES[int(np.argmax(p.extra["type"]))] == p.page_type for p in typed)
        text += f"\npage type predicted right (out of fold): {right} of {len(typed)} ({right / len(typed):.3f})"
    return text


def main(args: argparse.Namespace) -> int:
    """``pagesieve-dev eval --cv K DATASET`` (the options of
    :func:`pagesieve_dev.evaluation.runner.add_arguments`): :func:`run_cv`, table on stdout; returns 0.

    Raises:
        DatasetError: not exactly one dataset, an unknown variant, or a missing split file.
    """
    from pagesieve.extract import SETTLE_RULES
    from pagesieve_dev.evaluation.args import resolve_dataset_dir
    from pagesieve_dev.evaluation.selection import default_split_file

    if len(args.datasets) != 1:
        raise DatasetError("--cv takes exactly one dataset (e.g. pagesieve-dev eval --cv 5 wcxb_dev)")
    if args.cv < 2:
        raise DatasetError("--cv needs at least 2 folds")
    variants = [v.strip() for v in args.cv_variants.split(",") if v.strip()]
    for v in variants:
        try:
            parse_variant(v)
        except ValueError as exc:
            raise DatasetError(f"--cv-variants: {exc}") from None
    ablate = tuple(r.strip() for r in args.cv_ablate.split(",") if r.strip())
    if set(ablate) - set(SETTLE_RULES):
        raise DatasetError(f"--cv-ablate: rules are {', '.join(SETTLE_RULES)}, not {', '.join(sorted(set(ablate) - set(SETTLE_RULES)))}")
    path = resolve_dataset_dir(args.datasets[0])
    split_path = args.split_file if args.split_file is not None else default_split_file()
    if split_path is None or not Path(split_path).is_file():
        raise DatasetError("--cv needs the split file (models/split.json) for the other datasets' training pages")
    split = json.loads(Path(split_path).read_text(encoding="utf-8"))
    table = run_cv(path.parent, path.name, args.cv, variants, list(args.compare or []), split,
                  limit=args.limit, json_out=args.cv_json, ablate=ablate, reduce=getattr(args, "cv_reduce", None))
    print(table)
    return 0
