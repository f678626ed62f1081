"""The personal model: the shipped block classifier retrained with the user's labels.

Training data: the shipped model's **support vectors** with their classes (the part of the
shipped training sample that defines its decision function; keeping them and adding new
examples is the incremental SVM scheme of Syed, Liu & Sung 1999, "Incremental learning with
support vector machines") plus every feature row of the user's active labels
(:meth:`~pagesieve.corrections.store.LabelStore.training_rows`), each weighted
:data:`PERSONAL_WEIGHT`. The SVM is refitted with the shipped C and gamma (seed 000 §6, chosen by
cross-validation at ``pagesieve-dev train``) on the shipped scaling; the context stage of the
shipped model is kept as it is (it reads the new SVM's decisions).

Files (``platformdirs.user_data_dir("pagesieve")``): ``personal-model.skops`` and its compiled
twin ``personal-model.npz`` (:mod:`pagesieve.classify.model_store`), each written atomically, so a
running host swaps to the new model on its next page and never sees half a file. The shipped
model is never written. ``pagesieve reset --personal`` deletes the personal files.

Retraining runs in its own process (``pagesieve labels retrain``), started by the host when
labels change (:class:`Retrainer`), so the host keeps answering while it trains. It trains only
once the labels span :data:`PERSONAL_MIN_SITES` sites: one site's corrections stay on that site.

**Upgrades.** The personal model is stamped with the version of the features it reads
(``meta["feature_set"]``: :data:`~pagesieve.classify.model_store.FEATURE_SET_VERSION`). A model of
another version (or none: written before stamps were kept), which the model store may refuse
when the features changed, is **rebuilt from the stored labels** in the background (the labels
are the truth, the model is derived from them; they are only read): :class:`PersonalModel`
reports it as :attr:`~PersonalModel.outdated`, the host starts the rebuild at once, and
:func:`personal_status` tells the user while it runs and when it is done. Meanwhile an outdated
model that still loads serves; one that is refused does not (the shipped model serves, and the
corrections apply as rules).

What a rebuild can use: a label stores the first-pass feature rows of its blocks as the version
that made it computed them (the page itself is not kept). A change of the page-level signals or
of the model's later columns (the upgrade this was built for) leaves those rows valid; a change
of the first-pass columns does not: rows of another width are left out of training
(:meth:`~pagesieve.corrections.store.LabelStore.training_rows`), so the rebuild then fails with
"no labels" and says so, and every label still applies as a per-site rule
(:mod:`pagesieve.corrections.rules`). Such a version must also bump how labels are stored.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from pagesieve.errors import ModelError

PERSONAL_FILE = "personal-model.skops"
log = logging.getLogger("pagesieve.host")

PERSONAL_WEIGHT = 1.0
"""Sample weight of a user's labelled block against 1 for a shipped support vector. Measured
with the simulated user of ``eval --corrections 3`` (sites >= 5 pages, no history; a personal
model per site from that site's labels, on top of its rules), macro F1 on the held-out pages
(rules alone: daniel 0.965, dragnet 0.946):

======  ======  =======
weight  daniel  dragnet
======  ======  =======
1       0.965   0.946
3       0.966   0.942
10      0.916   0.944
======  ======  =======

Heavier weights let a few labelled blocks pull the decision for look-alike blocks of other
kinds; at 1 the personal model costs nothing where the rules already fix the site."""


PERSONAL_MIN_SITES = 3
"""Least number of sites the user's active labels must span before a personal model is trained
from them (``pagesieve labels retrain``). The personal model serves on every site, while a
correction is meant for its own (issue 54: "it must not let one user's three clicks on one site
change other sites"): until the corrections span this many sites they apply as the rules of
their sites alone (:mod:`pagesieve.corrections.rules`), and a personal model made earlier is
deleted (it is derived from the labels, which stay). Three: the least number of sites from which
a pattern across sites can be told from one site's template."""


def personal_model_path() -> Path:
    """``platformdirs.user_data_dir("pagesieve") / personal-model.skops`` (``$PAGESIEVE_PERSONAL_MODEL`` overrides)."""
    override = os.environ.get("PAGESIEVE_PERSONAL_MODEL")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("pagesieve", appauthor=False)) / PERSONAL_FILE


def train_personal(x: np.ndarray, y: np.ndarray, out: Path | None = None, *, weight: float = PERSONAL_WEIGHT,
                   base: Path | None = None) -> dict:
    """Fit and write the personal model.

    Args:
        x: ``(n, N_FEATURES)`` feature rows of the user's labelled blocks; y: ``(n,)`` 0/1.
        out: where to write (default :func:`personal_model_path`). weight: of each user row.
        base: the shipped model archive (default :data:`pagesieve.classify.model_store.SHIPPED_MODEL`).

    Returns:
        facts for the user: rows, support vectors kept, seconds. The model's ``meta`` holds them
        (``"personal"``) and the feature-set stamp (``"feature_set"``, see the module docstring).

    Raises:
        ModelError: the shipped model cannot be read, or there are no labels.
    """
    from sklearn.pipeline import Pipeline
    from sklearn.svm import SVC

    from pagesieve.classify.model_store import FEATURE_SET_VERSION, SHIPPED_MODEL, FittedModel, load_fitted, save_model

    if len(x) == 0:
        raise ModelError("there are no personal labels to train on (correct a page first)")
    started = time.perf_counter()
    shipped = load_fitted(base or SHIPPED_MODEL)
    scaler, svm = shipped.estimator.named_steps["scale"], shipped.estimator.named_steps["svm"]
    sv = svm.support_vectors_
    sv_y = svm.classes_[(svm.dual_coef_[0] > 0).astype(int)]
    z_user = scaler.transform(np.asarray(x, dtype=np.float64))
    z = np.vstack([sv, z_user])
    target = np.concatenate([sv_y, np.asarray(y, dtype=sv_y.dtype)])
    sample_weight = np.concatenate([np.ones(len(sv)), np.full(len(z_user), float(weight))])
    refit = SVC(kernel="rbf", C=svm.C, gamma=svm.gamma, class_weight="balanced", cache_size=1000)
    refit.fit(z, target, sample_weight=sample_weight)
    estimator = Pipeline([("scale", scaler), ("svm", refit)])
    seconds = time.perf_counter() - started
    facts = {"user_rows": int(len(z_user)), "user_content": int(np.sum(y == 1)), "shipped_support_vectors": int(len(sv)),
             "support_vectors": int(len(refit.support_)), "weight": float(weight), "seconds": round(seconds, 2),
             "trained": time.time()}
    # the refitted SVM keeps its own support vectors: the shipped model's reduced set is not its
    meta = {**{k: v for k, v in shipped.meta.items() if k != "svm_reduced"}, "personal": facts,
            "feature_set": FEATURE_SET_VERSION}
    save_model(FittedModel(estimator, meta, shipped.threshold, shipped.context, shipped.context_threshold, shipped.page_type,
                           type_thresholds=shipped.type_thresholds),
               Path(out) if out is not None else personal_model_path())
    return facts


def reset_personal(path: Path | None = None) -> bool:
    """Delete the personal model files; True if there were any."""
    from pagesieve.classify.model_store import compiled_path

    path = Path(path) if path is not None else personal_model_path()
    found = False
    for p in (path, compiled_path(path)):
        try:
            p.unlink()
            found = True
        except FileNotFoundError:
            pass
    return found


class PersonalModel:
    """The personal model as the host uses it: reloaded when its file changes on disk.

    Args:
        path: the archive (default :func:`personal_model_path`).

    Attributes:
        outdated: why the model on disk must be rebuilt from the labels (it was made for another
            feature set, or it is refused), or ``None`` (current, or no model). Set by :meth:`get`.
        stamp: ``(mtime_ns, size, inode)`` of the compiled file last read, ``None`` when absent.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path is not None else personal_model_path()
        self.stamp: tuple | None = None
        self.outdated: str | None = None
        self._model = None

    def get(self):
        """The current :class:`~pagesieve.classify.classifier.BlockClassifier`, or ``None`` when there is
        no personal model or it is refused (then the shipped model serves). A model stamped with
        another feature-set version than this code's still serves when it loads; either way
        :attr:`outdated` says why it is to be rebuilt, and the refusal is logged."""
        from pagesieve.classify.model_store import FEATURE_SET_VERSION, compiled_path, load_model, stored_feature_set

        twin = compiled_path(self.path)
        try:
            st = twin.stat()
            stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
        except FileNotFoundError:
            self.stamp, self._model, self.outdated = None, None, None
            return None
        if stamp != self.stamp:
            self.stamp = stamp
            version = stored_feature_set(twin)
            try:
                self._model = load_model(twin)
            except ModelError as exc:
                self._model = None
                self.outdated = f"refused: {exc}"
            else:
                self.outdated = None if version == FEATURE_SET_VERSION else (
                    f"made for feature set {version or '(unversioned)'}, this version reads {FEATURE_SET_VERSION}")
            if self.outdated:
                log.warning("personal model %s %s", twin, self.outdated)
        return self._model


class Retrainer:
    """Runs ``pagesieve labels retrain`` in a child process when labels change; at most one at
    a time, and one more after it when labels changed meanwhile. :meth:`poll` reaps it.

    Args:
        labels_path: the label store the child reads. model_path: where it writes.

    Attributes:
        rebuild: the rebuild of an outdated model (:meth:`request` with ``rebuild``): ``None``
            (none asked), ``"waiting"``, ``"running"``, ``"done"`` or ``"failed"``.
    """

    def __init__(self, labels_path: Path | None = None, model_path: Path | None = None) -> None:
        self.labels_path = labels_path
        self.model_path = model_path
        self.process: subprocess.Popen | None = None
        self.dirty = False
        self.runs = 0
        self.last_returncode: int | None = None
        self.rebuild: str | None = None
        self._rebuild_pid: int | None = None

    def request(self, *, rebuild: bool = False) -> None:
        """Labels changed (or, with ``rebuild``, the model on disk is outdated): train now, or
        after the run in progress."""
        self.dirty = True
        if rebuild:
            self.rebuild = "waiting"
        self.poll()

    def poll(self) -> None:
        """Reap a finished run; start the next one when labels changed."""
        if self.process is not None and self.process.poll() is not None:
            self.last_returncode = self.process.returncode
            log.info("personal model: retraining ended with exit status %d", self.last_returncode)
            if self.process.pid == self._rebuild_pid:
                self.rebuild = "done" if self.last_returncode == 0 else "failed"
                log.info("personal model: rebuilt from the labels" if self.rebuild == "done"
                         else "personal model: the rebuild failed; the shipped model serves and the corrections apply as rules")
            self.process = None
        if self.process is None and self.dirty:
            self.dirty = False
            cmd = [sys.executable, "-m", "pagesieve", "labels", "retrain"]
            if self.labels_path is not None:
                cmd += ["--store", str(self.labels_path)]
            if self.model_path is not None:
                cmd += ["--model-file", str(self.model_path)]
            self.process = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL, start_new_session=True)
            self.runs += 1
            if self.rebuild == "waiting":
                self.rebuild, self._rebuild_pid = "running", self.process.pid
            log.info("personal model: retraining in process %d", self.process.pid)

    def wait(self, timeout: float | None = None) -> None:
        """Wait for the run in progress (tests and shutdown)."""
        if self.process is not None:
            self.process.wait(timeout)
            self.poll()


def personal_status(model: PersonalModel, retrainer: Retrainer, corrections: int | None) -> dict:
    """What the host says of the personal model (the ``pong`` reply's ``personal``, the popup's
    status line): ``{"state", "message", "corrections"}``.

    ``state`` is ``"rebuilding"`` (an outdated model is being rebuilt from the labels),
    ``"rebuilt"`` (this host rebuilt it; it serves), ``"failed"`` (the rebuild failed: the host's
    log says why), ``"training"`` (retraining after a correction; the previous model serves),
    ``"ready"`` (a current model serves), ``"outdated"`` (not rebuilt yet) or ``"none"``.
    ``message`` is the sentence for the user (``None`` for ``"none"``); ``corrections`` the active
    labels (``None`` when the label store could not be read). Call after ``model.get()`` and
    ``retrainer.poll()``.
    """
    yours = "your corrections" if corrections is None else f"your {corrections} correction{'' if corrections == 1 else 's'}"
    current = model.stamp is not None and model.outdated is None
    if retrainer.rebuild in ("waiting", "running"):
        state, message = "rebuilding", (f"Your personal model was made for an older pagesieve; it is being rebuilt from {yours}. "
                                        "Until it is ready your corrections apply as rules.")
    elif retrainer.process is not None:
        state, message = "training", f"Your personal model is being retrained with {yours}."
    elif retrainer.rebuild == "failed" and not current:  # a later retraining that succeeded ends it
        state, message = "failed", (f"Your personal model could not be rebuilt (the host's log says why); {yours} "
                                    "apply as rules.")
    elif retrainer.rebuild == "done" and current:
        state, message = "rebuilt", f"Your personal model was rebuilt for this version from {yours} and is in use."
    elif current:
        state, message = "ready", f"Your personal model, from {yours}, is in use."
    elif model.outdated:
        state, message = "outdated", f"Your personal model was made for an older pagesieve and is not used; {yours} apply as rules."
    else:
        state, message = "none", None
    return {"state": state, "message": message, "corrections": corrections}
