"""``pagesieve-dev reduce``: fewer kernel centres for the block SVM, with the same decisions.

The stage-1 SVM (:mod:`pagesieve_dev.training.train`) keeps every support vector: 4,455 for
the model of 2026-11-25, nearly all of them bounded (alpha = C) because the classes overlap. At
run time its kernel product (:meth:`pagesieve.classify.classifier.SvmArrays.decision`) costs
time in proportion to their number. With gamma = 0.003 over 53 standardised features the
kernel is wide (1 / sqrt(2 gamma) = 13 standard deviations), so the decision function is
smooth, and far fewer centres can give it again.

The **reduced set** (Burges 1996, "Simplified support vector decision rules", ICML; Schölkopf
et al. 1999, "Input space versus feature space in kernel-based methods", IEEE TNN 10(5) §IV):
``f'(z) = sum_j beta_j exp(-gamma |z - c_j|^2) + b'`` with the SVM's gamma, where

1. the ``m`` centres ``c_j`` are the k-means centres (scikit-learn ``KMeans``, one start, fixed
   seed) of the support vectors in the scaled space, each weighted by its ``|alpha_i|``;
2. ``beta`` and ``b'`` are fitted by weighted least squares, with a small ridge, so that
   ``f'`` matches the full SVM's decision ``f`` on real rows: the candidate blocks of the
   training pages (all of them, labelled or not: the rows the host meets), each weighted by
   :func:`row_weights`, which stresses the range that the verdicts and the context stage read.

Burges fits the centres to the SVM's weight vector in feature space; matching the decision on
the rows that occur instead spends the centres where the pages are (as Schölkopf et al. §V
note, the approximation only has to hold on the data). Measured figures (agreement, held-out
F1, speed) are in ``models/README.md``.

The result is stored in the skops archive beside the SVM (``FittedModel.reduced``) and, in the
compiled twin, in place of the support vectors: the host runs on it with no change of code.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

REDUCED_CENTRES = 1000
"""Default number of centres: a quarter of the 4,455 support vectors of the model of
2026-11-25 (``models/README.md``, "Reduced set", has the error at 500, 1,000 and 2,000)."""

RIDGE = 1e-8
"""Ridge of the least-squares fit, relative to the mean diagonal of the weighted normal
matrix. The wide kernel makes the centres' Gram matrix ill-conditioned; without a ridge the
weights grow to cancel each other, which single precision at run time cannot follow.
On the training rows of 2026-11-25 with 1,000 refined centres, 1e-8 and 1e-10 gave the same
mean error against the full SVM (0.0023 on 20,000 rows not fitted on) with sum |beta| 1,535
and 6,369 (the SVM's own sum |alpha| is 42,000); with k-means centres alone, 1e-6 doubled the
error of 1e-8 (0.164 against 0.041)."""

REFINE_ROWS = 30000
"""Rows (the first of the fit rows) on which :func:`refine_centres` moves the centres."""

REFINE_ITERATIONS = 150
"""L-BFGS iterations of :func:`refine_centres`: 470 s for 1,000 centres on 30,000 rows (one core of
the 2-core machine, shared). On 40,000 other training rows the mean error against the full SVM
fell from 0.0226 (k-means centres) to 0.0133 after 5 iterations and 0.0023 after 150."""

FIT_ROWS = 60000
"""Rows the weights are fitted on (drawn with the seed from the training pages' candidates)."""

BAND = (-1.5, 2.0)
"""The decisions where an error changes answers: the verdicts cut at
:data:`pagesieve.classify.classifier.SURE_NOISE_DECISION` (-1.0) and
:data:`~pagesieve.classify.classifier.SURE_CONTENT_DECISION` (1.5), the SVM-alone cut 0,
and the context stage's splits on decisions, which lie mostly within this range."""

BAND_WEIGHT = 5.0
"""Weight of a row whose full decision lies in :data:`BAND` (others weigh 1)."""


def row_weights(decision: np.ndarray) -> np.ndarray:
    """Least-squares weight of each row from its full SVM decision (``(n,)`` -> ``(n,)``):
    :data:`BAND_WEIGHT` inside :data:`BAND`, 1 outside."""
    inside = (decision > BAND[0]) & (decision < BAND[1])
    return np.where(inside, BAND_WEIGHT, 1.0)


def _kernel(z: np.ndarray, centres: np.ndarray, gamma: float) -> np.ndarray:
    d2 = (z * z).sum(axis=1)[:, None] + (centres * centres).sum(axis=1)[None, :] - 2.0 * z @ centres.T
    return np.exp(-gamma * np.maximum(d2, 0.0))


def full_decision(estimator, z: np.ndarray) -> np.ndarray:
    """The full SVM's decision of scaled rows ``z`` (``(n, n_features)`` -> ``(n,)``), float64."""
    svm = estimator.named_steps["svm"]
    out = np.empty(len(z))
    for start in range(0, len(z), 4096):
        out[start:start + 4096] = _kernel(z[start:start + 4096], svm.support_vectors_, svm._gamma) @ svm.dual_coef_[0]
    return out + float(svm.intercept_[0])


def fit_weights(z: np.ndarray, target: np.ndarray, weight: np.ndarray, centres: np.ndarray, gamma: float,
                ridge: float = RIDGE) -> tuple[np.ndarray, float]:
    """``(beta, intercept)`` minimising ``sum_i w_i (sum_j beta_j K(z_i, c_j) + b - t_i)^2 + ridge``
    (the ridge leaves the intercept alone), from the normal equations accumulated in chunks.

    Args:
        z: ``(n, d)`` scaled rows; target: ``(n,)`` decisions to match; weight: ``(n,)``;
        centres: ``(m, d)``; gamma: the RBF width; ridge: see :data:`RIDGE`.
    """
    m = len(centres)
    normal = np.zeros((m + 1, m + 1))
    right = np.zeros(m + 1)
    for start in range(0, len(z), 8192):
        k = _kernel(z[start:start + 8192], centres, gamma)
        k = np.hstack([k, np.ones((len(k), 1))])
        w = weight[start:start + 8192]
        normal += k.T @ (k * w[:, None])
        right += k.T @ (w * target[start:start + 8192])
    reg = ridge * np.trace(normal) / (m + 1) * np.eye(m + 1)
    reg[m, m] = 0.0
    solution = np.linalg.solve(normal + reg, right)
    return solution[:m], float(solution[m])


def refine_centres(z: np.ndarray, target: np.ndarray, weight: np.ndarray, centres: np.ndarray, gamma: float,
                   iterations: int = 150, ridge: float = RIDGE) -> np.ndarray:
    """The centres moved to lower the weighted squared error of :func:`fit_weights` (Burges 1996
    §3 moves each reduced-set vector by gradient descent; here all at once, by L-BFGS).

    The weights are eliminated (variable projection, Golub & Pereyra 1973): each evaluation
    solves them by least squares for the current centres, so the loss is a function of the
    centres alone and its gradient is the partial one at the solved weights,
    ``dL/dc_j = 2 gamma beta_j sum_i a_ij (z_i - c_j)`` with ``a_ij = w_i e_i K(z_i, c_j)``.

    Args:
        z, target, weight: as :func:`fit_weights` (about 30,000 rows: each evaluation costs
            ``n m^2`` for the normal matrix, about 3 s for 30,000 rows and 1,000 centres on one
            core of this machine); centres: ``(m, d)`` starting centres; iterations: L-BFGS
            iterations (each one or a few evaluations).

    Returns:
        ``(m, d)`` centres.
    """
    from scipy.optimize import minimize

    m, width = centres.shape

    def loss(flat: np.ndarray):
        c = flat.reshape(m, width)
        k = _kernel(z, c, gamma)
        kb = np.hstack([k, np.ones((len(k), 1))])
        normal = kb.T @ (kb * weight[:, None])
        reg = ridge * np.trace(normal) / (m + 1) * np.eye(m + 1)
        reg[m, m] = 0.0
        solution = np.linalg.solve(normal + reg, kb.T @ (weight * target))
        err = kb @ solution - target
        a = (weight * err)[:, None] * k
        grad = 2.0 * gamma * solution[:m, None] * (a.T @ z - a.sum(axis=0)[:, None] * c)
        return 0.5 * float(np.sum(weight * err * err)), grad.ravel()

    result = minimize(loss, centres.ravel(), jac=True, method="L-BFGS-B", options={"maxiter": iterations})
    return result.x.reshape(m, width)


def reduce_svm(estimator, x: np.ndarray, centres: int = REDUCED_CENTRES, seed: int = 0,
               fit_rows: int = FIT_ROWS, ridge: float = RIDGE, iterations: int = REFINE_ITERATIONS) -> tuple[dict, dict]:
    """The reduced set of a fitted ``Pipeline(StandardScaler, SVC(rbf))`` (module docstring).

    Args:
        estimator: the fitted pipeline; x: ``(n, n_features)`` unscaled rows of real pages (the
            training pages' candidate blocks), from which ``fit_rows`` are drawn for the fit and
            up to 20,000 others to check it; centres: how many (fewer than the support vectors).

    Returns:
        ``(reduced, info)``: ``{"centres", "beta", "intercept"}`` as
        :attr:`pagesieve.classify.model_store.FittedModel.reduced`, and JSON-able facts (sizes,
        ridge, and the error against the full SVM on the check rows: max and mean absolute
        difference overall and in :data:`BAND`, the share of rows whose sign differs).

    Raises:
        ValueError: ``centres`` is not below the number of support vectors, or ``x`` has fewer
            rows than ``centres``.
    """
    from sklearn.cluster import KMeans

    svm = estimator.named_steps["svm"]
    support, alpha, gamma = svm.support_vectors_, svm.dual_coef_[0], float(svm._gamma)
    if not 0 < centres < len(support):
        raise ValueError(f"centres must be between 1 and {len(support) - 1}, not {centres}")
    if len(x) < centres:
        raise ValueError(f"{len(x)} rows cannot fit {centres} centres")
    t0 = time.perf_counter()
    order = np.random.default_rng(seed).permutation(len(x))
    fit_idx, check_idx = order[:fit_rows], order[fit_rows:fit_rows + 20000]
    scaler = estimator.named_steps["scale"]
    z_fit = scaler.transform(x[fit_idx])
    target = full_decision(estimator, z_fit)
    kmeans = KMeans(centres, n_init=1, random_state=seed).fit(support, sample_weight=np.abs(alpha))
    c = np.ascontiguousarray(kmeans.cluster_centers_, dtype=np.float64)
    if iterations:
        part = slice(0, REFINE_ROWS)
        c = np.ascontiguousarray(refine_centres(z_fit[part], target[part], row_weights(target[part]), c, gamma,
                                                iterations, ridge))
    beta, intercept = fit_weights(z_fit, target, row_weights(target), c, gamma, ridge)
    reduced = {"centres": c, "beta": beta, "intercept": np.array(intercept)}
    info = {"centres": centres, "support_vectors": int(len(support)), "fit_rows": int(len(fit_idx)), "ridge": ridge,
            "band": list(BAND), "band_weight": BAND_WEIGHT, "centre_choice": "k-means of the support vectors weighted by |alpha|, then L-BFGS",
            "refine_iterations": iterations, "refine_rows": min(REFINE_ROWS, len(fit_idx)),
            "beta_abs_sum": round(float(np.abs(beta).sum()), 1), "seed": seed}
    if len(check_idx):
        z_check = scaler.transform(x[check_idx])
        full = full_decision(estimator, z_check)
        approx = _kernel(z_check, c, gamma) @ beta + intercept
        err = np.abs(approx - full)
        band = (full > BAND[0]) & (full < BAND[1])
        info["check"] = {
            "rows": int(len(check_idx)), "max_abs": round(float(err.max()), 5), "mean_abs": round(float(err.mean()), 6),
            "band_max_abs": round(float(err[band].max()), 5) if band.any() else None,
            "band_mean_abs": round(float(err[band].mean()), 6) if band.any() else None,
            "sign_changed": round(float(((full > 0) != (approx > 0)).mean()), 6),
        }
    info["seconds"] = round(time.perf_counter() - t0, 1)
    return reduced, info


def candidate_rows(pages) -> np.ndarray:
    """``(n, N_FEATURES)``: the first-pass rows of every candidate block of ``pages``
    (:class:`pagesieve_dev.training.train.PageData`), labelled or not."""
    from pagesieve.blocks.features import N_FEATURES

    rows = [pd.analysis.features[:, :N_FEATURES] for pd in pages if len(pd.analysis.candidates)]
    return np.vstack(rows) if rows else np.zeros((0, N_FEATURES))


HELD_OUT = ("big9", "cleaneval", "daniel", "dragnet", "l3s_gn1", "readability", "wcxb_dev", "zh_cwced")
"""The datasets whose held-out pages :func:`agreement` reads (those of ``pagesieve-dev eval``)."""


def agreement(old, new, datasets_dir: Path, split: dict, names=HELD_OUT, limit: int | None = None) -> list[str]:
    """How far two run-time models (:class:`pagesieve.classify.classifier.BlockClassifier`)
    differ on the held-out pages of ``split``: each page is analysed once, both SVMs' decisions
    are compared on its candidate blocks, and both models' final verdicts (classifier then
    :func:`pagesieve.extract.settle`, as :func:`pagesieve.extract.classify` makes them) on all
    its blocks. Returns the printed lines, one per dataset and one for all: max, mean and 99th
    percentile of the absolute decision difference, blocks and pages whose verdict changed."""
    from pagesieve.extract import analyse, classify
    from pagesieve.page.html import parse_html
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    lines, every = [], []
    blocks = changed = pages = pages_changed = 0
    for name in names:
        if not (datasets_dir / name).is_dir():
            continue
        dataset = load_dataset(datasets_dir / name)
        ids = split["datasets"].get(name, {}).get("test", [])[:limit] if limit else split["datasets"].get(name, {}).get("test", [])
        diffs, n_blocks, n_changed, n_pages = [], 0, 0, 0
        for page_id in ids:
            try:
                a = analyse(parse_html(read_page(dataset, page_id), url=dataset.record(page_id).url))
            except Exception as exc:  # noqa: BLE001 - a broken page is counted out, as eval does
                print(f"  {name}/{page_id}: skipped ({exc})", file=sys.stderr)
                continue
            if not a.candidates:
                continue
            diffs.append(np.abs(old.decision(a.features) - new.decision(a.features)))
            moved = sum(x != y for x, y in zip(classify(a, old), classify(a, new)))
            n_blocks += len(a.blocks)
            n_changed += moved
            n_pages += moved > 0
            pages += 1
        if not diffs:
            continue
        d = np.concatenate(diffs)
        every.append(d)
        blocks, changed, pages_changed = blocks + n_blocks, changed + n_changed, pages_changed + n_pages
        lines.append(f"{name}: {len(ids)} pages, {len(d)} candidate blocks; |decision difference| max {d.max():.4f} "
                     f"mean {d.mean():.5f} p99 {np.percentile(d, 99):.4f}; final verdicts changed {n_changed} of "
                     f"{n_blocks} blocks, on {n_pages} pages")
    if every:
        d = np.concatenate(every)
        lines.append(f"all: {len(d)} candidate blocks; |decision difference| max {d.max():.4f} mean {d.mean():.5f}; "
                     f"final verdicts changed {changed} of {blocks} blocks ({changed / max(blocks, 1):.5f}), "
                     f"on {pages_changed} of {pages} pages")
    return lines


def speed_ab(old, new, datasets_dir: Path, names=HELD_OUT, pages: int = 400, rounds: int = 8, seed: int = 7) -> list[str]:
    """Interleaved A/B timing of two run-time models in one process (the machine is shared: one
    run of each, one after the other, would measure the load): ``pages`` pages drawn with
    ``seed`` evenly from ``names`` (any split side), then ``rounds`` rounds, the models' order
    alternating, each timing :func:`pagesieve.extract.extract` over every page and
    :meth:`~pagesieve.classify.classifier.BlockClassifier.decision` over their feature rows
    (three times, averaged). Returns the printed lines: per round, then min and median per
    model in ms per page and the new/old ratios."""
    import random

    from pagesieve.extract import analyse, extract
    from pagesieve.page.html import parse_html
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    draw = random.Random(seed)
    sources = []
    for name in names:
        if (datasets_dir / name).is_dir():
            dataset = load_dataset(datasets_dir / name)
            for page_id in draw.sample(list(dataset.ids), min(len(dataset.ids), pages // len(names))):
                sources.append((read_page(dataset, page_id), dataset.record(page_id).url))
    rows = [analyse(parse_html(html, url=url)).features for html, url in sources]
    models = {"old": old, "new": new}
    for model in models.values():  # warm-up
        for html, url in sources[:20]:
            extract(html, url, model=model)
    took = {"old": [], "new": []}
    decided = {"old": [], "new": []}
    lines = [f"{len(sources)} pages, {sum(len(r) for r in rows)} candidate rows; centres old {len(old.svm.support)}, "
             f"new {len(new.svm.support)}"]
    for r in range(rounds):
        order = ("old", "new") if r % 2 == 0 else ("new", "old")
        for tag in order:
            t = time.perf_counter()
            for html, url in sources:
                extract(html, url, model=models[tag])
            took[tag].append((time.perf_counter() - t) * 1000 / len(sources))
        for tag in order:
            t = time.perf_counter()
            for _ in range(3):
                for x in rows:
                    models[tag].decision(x)
            decided[tag].append((time.perf_counter() - t) * 1000 / 3 / len(sources))
        lines.append(f"round {r}: extract old {took['old'][-1]:.2f} new {took['new'][-1]:.2f} ms/page; "
                     f"decision old {decided['old'][-1]:.3f} new {decided['new'][-1]:.3f} ms/page")
    for tag in ("old", "new"):
        lines.append(f"{tag}: extract min {min(took[tag]):.2f} median {np.median(took[tag]):.2f} ms/page; "
                     f"decision min {min(decided[tag]):.3f} median {np.median(decided[tag]):.3f} ms/page")
    ratio = np.array(took["new"]) / np.array(took["old"])
    lines.append(f"new/old: extract median {np.median(took['new']) / np.median(took['old']):.3f} (per round {np.median(ratio):.3f}); "
                 f"decision median {np.median(decided['new']) / np.median(decided['old']):.3f}")
    return lines


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``reduce`` options."""
    from pagesieve_dev.training.train import MODELS_DIR, SEED

    parser.add_argument("--model", type=Path, default=MODELS_DIR / "blocks.skops",
                        help="the skops archive whose SVM is reduced, rewritten in place with its twin (default models/blocks.skops)")
    parser.add_argument("--centres", type=int, default=REDUCED_CENTRES, help=f"kernel centres (default {REDUCED_CENTRES})")
    parser.add_argument("--datasets", type=Path, default=None, help="datasets folder (default: ../shared/datasets)")
    parser.add_argument("--split-file", type=Path, default=None, help="split whose training pages give the rows (default: the model's folder's split.json)")
    parser.add_argument("--limit", type=int, default=None, help="pages per dataset (quick runs)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--agreement", type=Path, default=None, metavar="OLD",
                        help="fit nothing: compare the model OLD (e.g. the archive before the reduction) with --model "
                        "on the held-out pages of the split (decision differences, verdicts changed)")
    parser.add_argument("--speed", type=int, default=None, metavar="PAGES",
                        help="with --agreement: time OLD and --model instead, interleaved in one process over PAGES "
                        "pages drawn from the eight datasets (8 rounds)")


def main(args: argparse.Namespace) -> int:
    """Run ``pagesieve-dev reduce``: with ``--agreement OLD``, print :func:`agreement` and stop;
    else fit the reduced set of ``--model``'s SVM on the candidate rows
    of the split's training pages, store it in the archive (and its compiled twin), record its
    facts under ``svm_reduced`` in the meta (and in ``training.json`` beside the model when there
    is one). Prints the check figures.

    Raises:
        DatasetError: no datasets folder. ModelError: the model cannot be read.
    """
    from pagesieve.classify.model_store import load_fitted, save_model
    from pagesieve.errors import DatasetError
    from pagesieve_dev.evaluation.datasets import default_datasets_dir
    from pagesieve_dev.training.train import collect

    datasets_dir = args.datasets or default_datasets_dir()
    if datasets_dir is None or not Path(datasets_dir).is_dir():
        raise DatasetError("datasets folder not found: pass --datasets or set PAGESIEVE_DATASETS")
    split_path = args.split_file or args.model.with_name("split.json")
    split = json.loads(Path(split_path).read_text(encoding="utf-8"))
    if args.agreement is not None:
        from pagesieve.classify.model_store import load_model

        old, new = load_model(args.agreement), load_model(args.model)
        if getattr(args, "speed", None):
            lines = speed_ab(old, new, Path(datasets_dir), pages=args.speed)
        else:
            lines = agreement(old, new, Path(datasets_dir), split, limit=args.limit)
        for line in lines:
            print(line, flush=True)
        return 0
    fitted = load_fitted(args.model)
    pages, _sources = collect(Path(datasets_dir), split, "train", args.limit)
    reduced, info = reduce_svm(fitted.estimator, candidate_rows(pages), args.centres, args.seed)
    fitted.reduced = reduced
    fitted.meta["svm_reduced"] = info
    save_model(fitted, args.model)
    record = args.model.with_name("training-boxes.json" if fitted.meta.get("rendered") else "training.json")
    if record.is_file():
        meta = json.loads(record.read_text(encoding="utf-8"))
        meta["svm_reduced"] = info
        record.write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {args.model}: {info['centres']} centres for {info['support_vectors']} support vectors; "
          f"check {json.dumps(info.get('check'))}")
    return 0
