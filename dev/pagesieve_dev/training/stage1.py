"""Stage 1 of the block classifier: the RBF SVM on the first-pass features (steps 3 and 4 of
``pagesieve-dev train``).

Noise blocks are down-sampled to the number of content blocks (seed 000 §6 (2)), then at most
``--max-samples`` rows are drawn, stratified, with the same seed (:func:`balanced_sample`). The
estimator is ``Pipeline(StandardScaler, SVC(kernel="rbf", class_weight="balanced"))``; C and
gamma by grid search with 10-fold cross-validation grouped by site (seed 000 §6 (4), :func:`fit`),
or given (``--svm``); the chosen pair is refitted on the whole sample (:func:`fit_stage_one`).
"""

from __future__ import annotations

import numpy as np

from pagesieve_dev.training.split import SEED


def svm_pipeline(c: float, gamma: float):
    """The stage-1 estimator: scaling then an RBF SVM with balanced class weights."""
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    return Pipeline([("scale", StandardScaler()), ("svm", SVC(kernel="rbf", C=c, gamma=gamma, class_weight="balanced", cache_size=1000))])


def balanced_sample(y: np.ndarray, max_samples: int, seed: int = SEED) -> np.ndarray:
    """Row indices: noise down-sampled to the content count (seed 000 §6 (2)), capped in total."""
    rng = np.random.default_rng(seed)
    pos = np.flatnonzero(y == 1)
    neg = np.flatnonzero(y == 0)
    k = min(len(pos), len(neg), max_samples // 2)
    chosen = np.concatenate([rng.choice(pos, k, replace=False), rng.choice(neg, k, replace=False)])
    chosen.sort()
    return chosen


def fit(x: np.ndarray, y: np.ndarray, groups: np.ndarray, folds: int = 10, seed: int = SEED,
        c_grid=(1.0, 3.0, 10.0), gamma_grid=(0.001, 0.003, 0.01), n_jobs: int = 2):
    """Grid search of C and gamma by grouped k-fold CV, refit on all rows.

    Returns:
        ``(estimator, cv)``: the fitted pipeline and a dict of CV results (best params, mean
        and std F1 of the content class per grid point).
    """
    from sklearn.model_selection import GridSearchCV, GroupKFold

    pipe = svm_pipeline(c_grid[0], gamma_grid[0])  # C and gamma are set by the grid
    n_groups = len(set(groups.tolist()))
    cv = GroupKFold(n_splits=min(folds, n_groups))
    search = GridSearchCV(
        pipe,
        {"svm__C": list(c_grid), "svm__gamma": list(gamma_grid)},
        scoring="f1",
        cv=cv,
        n_jobs=n_jobs,
        refit=True,
    )
    search.fit(x, y, groups=groups)
    results = search.cv_results_
    grid = [
        {"C": p["svm__C"], "gamma": p["svm__gamma"], "f1_mean": round(float(m), 4), "f1_std": round(float(s), 4)}
        for p, m, s in zip(results["params"], results["mean_test_score"], results["std_test_score"])
    ]
    cv_info = {
        "folds": cv.get_n_splits(),
        "grouped_by": "site",
        "scoring": "F1 of the content class",
        "best": {"C": search.best_params_["svm__C"], "gamma": search.best_params_["svm__gamma"]},
        "best_f1": round(float(search.best_score_), 4),
        "grid": grid,
    }
    return search.best_estimator_, cv_info


def fit_stage_one(x: np.ndarray, y: np.ndarray, groups: np.ndarray, cv_rows: np.ndarray,
                  given: tuple[float, float] | None = None, folds: int = 10, seed: int = SEED):
    """The stage-1 SVM: C and gamma ``given`` (``--svm``), else searched by :func:`fit` on the rows
    ``cv_rows`` only; either way refitted on all of ``x``.

    Args:
        x: ``(rows, N_FEATURES)`` the balanced sample's first-pass features; y: ``(rows,)`` its
            labels (1 content, 0 noise); groups: ``(rows,)`` its sites; cv_rows: indices into
            them for the search; given: ``(C, gamma)`` or ``None``.

    Returns:
        ``(estimator, cv_info)``: the fitted pipeline and :func:`fit`'s CV results (with
        ``given``, a record saying so, ``best_f1`` ``None`` and no grid).
    """
    if given:
        best = svm_pipeline(*given)
        cv_info = {"folds": 0, "grouped_by": "site", "scoring": "none: C and gamma given (--svm)",
                   "best": {"C": given[0], "gamma": given[1]}, "best_f1": None, "grid": []}
    else:
        best, cv_info = fit(x[cv_rows], y[cv_rows], groups[cv_rows], folds=folds, seed=seed)
    # Refit the chosen C/gamma on the whole balanced sample.
    best.fit(x, y)
    return best, cv_info
