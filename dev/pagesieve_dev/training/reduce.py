"""The reduced set: fewer kernel centres for the block SVM, with the same decisions.

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
``pagesieve-dev reduce`` (:mod:`pagesieve_dev.training.reduce_command`) and ``pagesieve-dev
train --reduce-svm`` fit it.
"""

from __future__ import annotations

import time

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
            training pages' candidate blocks), from which ``fit_rows`` (at most four fifths) are
            drawn for the fit and up to 20,000 others to check it; centres: how many (fewer than the support vectors).

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
    n_fit = max(centres, min(fit_rows, int(len(x) * 0.8)))  # a fifth of a small sample is kept to check
    fit_idx, check_idx = order[:n_fit], order[n_fit:n_fit + 20000]
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
    (:class:`pagesieve_dev.training.pages.PageData`), labelled or not."""
    from pagesieve.blocks.features import N_FEATURES

    rows = [pd.analysis.features[:, :N_FEATURES] for pd in pages if len(pd.analysis.candidates)]
    return np.vstack(rows) if rows else np.zeros((0, N_FEATURES))
