"""The block classifier: an RBF-kernel SVM over :mod:`pagesieve.blocks.features`, then a context stage.

Stage 1, as in Yan & Wang 2020 (seed 000 §6): an SVM with a radial basis kernel, classes
balanced, C and gamma chosen by 10-fold cross-validation (see :mod:`pagesieve_dev.training.train`).
It is trained as a scikit-learn ``Pipeline(StandardScaler, SVC)``; label 1 is main content.

Stage 2 (ours, optional): a gradient-boosted tree model (``HistGradientBoostingClassifier``)
over :mod:`pagesieve.classify.context` features, i.e. each block's SVM decision seen together with its
neighbours' and its region's (``models/README.md`` has what it gains).

At run time neither scikit-learn nor skops is imported: importing scikit-learn alone costs
about 85 MB of memory and a second of start-up, more than the whole extractor. The fitted
estimators are *compiled* into plain arrays (:class:`SvmArrays`, :class:`ForestArrays`) that
numpy evaluates with the same results; :mod:`pagesieve.classify.model_store` writes them beside the
skops archive, which stays the model of record (see there). The context stage's walk down its trees
has an optional compiled twin, :mod:`pagesieve.classify._trees` (:data:`PURE_PYTHON_ENV`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from pagesieve.classify.context import context_features
from pagesieve.classify.dominant import dominant_blocks
from pagesieve.blocks.layout import BOX_FEATURE_NAMES
from pagesieve.classify.page_type import PageTypeArrays, likeliest_type
from pagesieve.removal import Removal, rounded
from pagesieve.blocks.signals import CARD_COLUMNS

SURE_NOISE_DECISION = -1.0
"""SVM decision below which a block is noise without asking the context stage. On 350 held-out
pages (the first 50 of each dataset's held-out split but readability's) 60 % of the blocks fall
below it, and the context stage kept 622 of their characters out of 1.9 million kept in all
(at -2.0: 41 % and 387; at -0.5: 67 % and 2,049): skipping them saves a third of the context
stage's time for no measurable change in F1 (``/models/README.md``)."""

SURE_CONTENT_DECISION = 1.5
"""SVM decision from which a block is content whatever the context stage says (the other end of
:data:`SURE_NOISE_DECISION`). The context stage weighs a block's neighbours, and now and then
outvotes an SVM that is sure, as on the first paragraph of readability's ``msn`` page (decision
1.93, context probability 0.34). Keeping these moved held-out macro F1 (``pagesieve-dev eval``) by
wcxb_dev +0.0036, l3s_gn1 +0.0021, readability +0.0011, big9 +0.0007, cleaneval +0.0005,
daniel, dragnet and zh_cwced 0. The cut was read off those same pages (big9, readability and
zh_cwced are held out whole): 1.5, 1.8 and 2.2 all gained or held on every dataset, 1.2 lost
on four."""

FOREST_SPLIT_ROWS = 400
"""From this many rows, :meth:`ForestArrays.probability` walks the two halves of the rows in
two threads (numpy's gathers and the compiled walk let go of the GIL): 17.8 -> 11.9 ms for the
1,028 blocks of dragnet/T51 on this 2-core machine with the numpy walk; with the compiled walk,
5.3 -> 3.8 ms (best of 10 calls, five rounds), and with its eight lanes 3.5 -> 2.2 ms (median of
five rounds of the best of 10 calls, load about 3; the walk before the lanes 4.5 -> 2.9 ms in
the same run). Fewer rows were not worth a thread's start-up with the numpy walk (not measured
again for the compiled one)."""

PURE_PYTHON_ENV = "PAGESIEVE_PURE_PYTHON"
"""Environment variable: set (to anything but empty or ``0``) when this module is imported, the
context stage walks its trees with numpy (:meth:`ForestArrays._leaves_numpy`) even where the
compiled walk (:mod:`pagesieve.classify._trees`, built with the package when a C compiler is at
hand) is installed. Both give the same leaves, so the same answers; the compiled one is faster
(``ForestArrays._probability``). For checking the one against the other, in tests and by users."""

DECISION_CHUNK = 256
"""Rows of the kernel matrix computed at once (256 x 4,455 support vectors x 4 bytes = 4.6 MB;
1 MB with the shipped model's 1,000 reduced-set centres)."""

DECISION_SPLIT_ROWS = 512
"""From this many rows, :meth:`SvmArrays.decision` computes half of the chunks in a second
thread: 11.0-13.8 -> 8.2-9.8 ms for the 1,029 rows of dragnet/T51 on this 2-core machine (min of
40 calls, three rounds); the browser's core is idle while the host answers. Fewer rows are not
worth the hand-over."""

FALLBACK_MARGIN = 0.15
"""Score distance from the best block within which blocks are kept when none passes the cut
(on wcxb_dev, pages whose best block scored just under the cut otherwise got an empty article)."""


@dataclass(slots=True)
class SvmArrays:
    """A fitted ``Pipeline(StandardScaler, SVC(kernel="rbf"))`` with two classes, as arrays.

    Attributes:
        mean, scale: the scaler's ``(n_features,)`` mean and scale (z = (x - mean) / scale).
        support: ``(n_sv, n_features)`` support vectors (scaled space), float64, or the centres
            of the SVM's reduced set when the model has one.
        dual: ``(n_sv,)`` dual coefficients (alpha_i y_i), or the reduced set's weights.
        intercept: the bias b. gamma: the RBF width; K(z, s) = exp(-gamma |z - s|^2).

    The decision is ``sum_i dual_i K(z, s_i) + b`` (libsvm; Chang & Lin 2011, §4). The shipped
    model runs on a reduced set (Burges 1996): 1,000 centres fitted by ``pagesieve-dev reduce``
    (:mod:`pagesieve_dev.training.reduce`) to give the decisions of its 4,455 support vectors
    (``models/README.md``, "Reduced set", has the agreement and the speed).
    """

    mean: np.ndarray
    scale: np.ndarray
    support: np.ndarray
    dual: np.ndarray
    intercept: float
    gamma: float
    _fast: tuple = field(default=(), repr=False)

    def __post_init__(self) -> None:
        sv, g = self.support, self.gamma
        sv_sq = (sv * sv).sum(axis=1)
        self._fast = (
            np.ascontiguousarray((2.0 * g * sv.T).astype(np.float32)),
            (np.exp(-g * sv_sq) * self.dual).astype(np.float32),
            np.ascontiguousarray(sv.T.astype(np.float32)),
            sv_sq.astype(np.float32),
            self.dual.astype(np.float32),
            np.float32(g),
        )

    def decision(self, x: np.ndarray) -> np.ndarray:
        """Signed distance to the margin for each row of ``x`` (``(n, n_features)`` -> ``(n,)``).

        Computed from one single-precision matrix product, as
        ``exp(-g|z|^2) * sum_i (alpha_i exp(-g|s_i|^2)) exp(2g z.s_i)`` (the factors of
        ``exp(-g|z - s|^2)``; the difference form is used where ``exp(2g z.s)`` would overflow):
        ``SVC.decision_function`` to within 0.01 on margins of a few units (the tests compare
        them), an order of magnitude faster than libsvm's per-pair loop on a page of a few
        hundred blocks (float64 was 3.6x slower than float32 here). From
        :data:`DECISION_SPLIT_ROWS` rows, the second half of the chunks goes to another thread
        (numpy lets go of the GIL in the product and the exponential).
        """
        if len(x) == 0:
            return np.zeros(0)
        z = (x - self.mean) / self.scale
        row_factor = np.exp(-self.gamma * (z * z).sum(axis=1))
        z32 = z.astype(np.float32)
        out = np.empty(len(z))
        starts = list(range(0, len(z), DECISION_CHUNK))
        # One BLAS thread: a page's product is small, and OpenBLAS threads spinning against
        # each other on a busy 2-core machine made it 4x slower (measured with the bench).
        # Rows go in chunks so that a page of 10,000 blocks needs a few MB, not a few hundred.
        blas = _blas_libraries()
        before = [lib.get_num_threads() for lib in blas]
        for lib in blas:
            lib.set_num_threads(1)
        try:
            if len(z) >= DECISION_SPLIT_ROWS:
                half = len(starts) // 2
                other = _helper_thread().submit(self._chunks, z32, row_factor, out, starts[half:])
                self._chunks(z32, row_factor, out, starts[:half])
                other.result()
            else:
                self._chunks(z32, row_factor, out, starts)
        finally:
            for lib, threads in zip(blas, before):
                lib.set_num_threads(threads)
        return out + self.intercept

    def _chunks(self, z32: np.ndarray, row_factor: np.ndarray, out: np.ndarray, starts: list[int]) -> None:
        """Fill ``out`` (sums without the bias) for the chunks of rows beginning at ``starts``."""
        sv_scaled_t, sv_weight, sv_t, sv_sq, dual, gamma = self._fast
        for start in starts:
            stop = start + DECISION_CHUNK
            part = z32[start:stop]
            g = part @ sv_scaled_t  # 2 gamma z.s
            if g.max(initial=0.0) < 80.0:
                np.exp(g, out=g)
                out[start:stop] = row_factor[start:stop] * (g @ sv_weight)
            else:  # exp(2 gamma z.s) would overflow float32: the difference form
                d2 = (part * part).sum(axis=1)[:, None] + sv_sq[None, :] - 2.0 * (part @ sv_t)
                np.maximum(d2, 0.0, out=d2)
                np.multiply(d2, -gamma, out=d2)
                np.exp(d2, out=d2)
                out[start:stop] = d2 @ dual


@dataclass(slots=True)
class ForestArrays:
    """A fitted binary ``HistGradientBoostingClassifier`` (numeric features only) as arrays.

    All trees' nodes are laid end to end. Attributes:
        feature: ``(n_nodes,)`` feature tested at each node (0 at leaves).
        threshold: ``(n_nodes,)`` go right iff ``x[feature] > threshold`` (+inf at leaves, so a
            leaf never moves).
        missing_left: ``(n_nodes,)`` where a missing (NaN) value goes.
        children: ``(2 * n_nodes,)``: ``children[2k]`` left, ``children[2k + 1]`` right child of
            node k (a leaf is its own child).
        value: ``(n_nodes,)`` leaf values (raw log-odds contributions).
        roots: ``(n_trees,)`` root node of each tree, deepest tree first.
        active: number of trees still deeper than each level (so level ``s`` only walks
            ``roots[:active[s]]``); its length is the depth of the deepest tree.
        baseline: the raw prediction before any tree.

    The node arrays are made C-contiguous of the dtypes above (``intp``, ``float64``, ``bool``)
    when the object is built, as the compiled walk reads them (a copy only where they were not).
    The probability of content is ``1 / (1 + exp(-(baseline + sum of leaf values)))``, as in
    scikit-learn's ``predict_proba`` for the binary log loss.
    """

    feature: np.ndarray
    threshold: np.ndarray
    missing_left: np.ndarray
    children: np.ndarray
    value: np.ndarray
    roots: np.ndarray
    active: np.ndarray
    baseline: float

    def __post_init__(self) -> None:
        for name in ("feature", "children", "roots", "active"):
            setattr(self, name, np.ascontiguousarray(getattr(self, name), dtype=np.intp))
        self.threshold = np.ascontiguousarray(self.threshold, dtype=np.float64)
        self.missing_left = np.ascontiguousarray(self.missing_left, dtype=bool)
        self.value = np.ascontiguousarray(self.value, dtype=np.float64)

    def probability(self, z: np.ndarray) -> np.ndarray:
        """Probability of content for each row of ``z`` (``(n, n_features)`` -> ``(n,)``).

        Each row goes down each tree to a leaf (:meth:`_probability`: the compiled walk, or
        numpy's gathers), then the leaf values are summed. Equal to scikit-learn's
        ``predict_proba`` (the tests compare them), and faster on real pages than calling its
        compiled per-tree predictor 200 times even with the numpy walk. From
        :data:`FOREST_SPLIT_ROWS` rows, the two halves of the rows go in two threads (both walks
        let go of the GIL).
        """
        if len(z) >= FOREST_SPLIT_ROWS:
            half = len(z) // 2
            other = _helper_thread().submit(self._probability, z[half:])
            first = self._probability(z[:half])
            return np.concatenate([first, other.result()])
        return self._probability(z)

    def _probability(self, z: np.ndarray) -> np.ndarray:
        """:meth:`probability` of the rows of ``z`` in this thread (``(n, width)`` -> ``(n,)``).

        The leaves come from the compiled walk (:mod:`pagesieve.classify._trees`) where it is
        installed and :data:`PURE_PYTHON_ENV` is not set, else from :meth:`_leaves_numpy`; both
        give the same ``(n, n_trees)`` leaves, and the sum and sigmoid are the same numpy code,
        so the probabilities are equal to the bit (tests/test_trees.py). On the context rows of
        480 dataset pages (the first 60 of each dataset) the compiled walk made this method 3.8 to
        4.7 times faster than the numpy walk, and ``extract`` 6 % faster (``models/README.md``,
        "Compiled tree walk"). Walking eight rows (or, for a few rows, eight trees) at once
        without branches on the tests then brought it to 0.77-0.83 of that walk's time on the
        same pages, 0.75-0.92 for calls of 1, 3, 10, 60 and 300 rows (the median of 21 or 31
        rounds in four runs, the two modules loaded in one process and called in turn, on this
        2-core machine shared with other work; ``_trees.c`` gives each size): 6.0 times faster
        than the numpy walk in one run of nine rounds (0.53 against 3.0 ms a page; 164 rows of
        96 columns a page on average). Raises ValueError from the
        compiled walk on arrays it cannot walk safely (wrong dtype or length, a node or feature
        number out of range: a broken model file).
        """
        n = len(z)
        if n == 0:
            return np.zeros(0)
        z = np.ascontiguousarray(z, dtype=np.float64)
        if _compiled_leaves is None:
            node = self._leaves_numpy(z)
        else:
            node = np.empty((n, len(self.roots)), dtype=np.intp)
            _compiled_leaves(z, self.feature, self.threshold, self.missing_left, self.children,
                             self.roots, self.active, node)
        raw = self.baseline + self.value[node].sum(axis=1)
        with np.errstate(over="ignore"):  # raw < -709: exp overflows to inf and the probability is 0.0, as it should be
            return 1.0 / (1.0 + np.exp(-raw))

    def _leaves_numpy(self, z: np.ndarray) -> np.ndarray:
        """The leaf each row of ``z`` reaches in each tree: ``(n, width)`` float64, C-contiguous,
        ``n > 0`` -> ``(n, n_trees)`` node numbers (intp), in :attr:`roots` order.

        All trees descend together, one level per step, as gathers over the matrix of node
        numbers; trees shallower than the level are left out of the step (:attr:`active`). The
        pure-numpy walk, used where the compiled one is not (:data:`PURE_PYTHON_ENV`).
        """
        n, width = z.shape
        flat = z.ravel()
        row_start = (np.arange(n, dtype=np.intp) * width)[:, None]
        has_missing = bool(np.isnan(flat).any())
        node = np.empty((n, len(self.roots)), dtype=np.intp)
        node[:] = self.roots
        for k in self.active:
            live = node[:, :k]
            values = flat[row_start + self.feature[live]]
            go_right = values > self.threshold[live]
            if has_missing:
                go_right |= np.isnan(values) & ~self.missing_left[live]
            node[:, :k] = self.children[2 * live + go_right]
        return node


def _load_compiled_leaves():
    """``pagesieve.classify._trees.leaves`` (the compiled walk of :meth:`ForestArrays._probability`),
    or ``None`` when :data:`PURE_PYTHON_ENV` asks for numpy or the module is not installed (the
    package was built without a C compiler: the extension is optional, see setup.py)."""
    if os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0"):
        return None
    try:
        from pagesieve.classify._trees import leaves
    except ImportError:
        return None
    return leaves


_compiled_leaves = _load_compiled_leaves()


@dataclass(slots=True)
class BlockClassifier:
    """A fitted block classifier (both stages as arrays) and what it was trained on.

    Attributes:
        svm: stage 1. meta: training facts (feature names, data, CV scores, library versions).
        threshold: SVM decision from which a block is content when there is no context stage.
        context: stage 2 or ``None``. context_threshold: its probability cut.
        page_type: the page-type model whose probabilities the context stage reads
            (:mod:`pagesieve.classify.page_type`), or ``None`` for a model that does not read them.
        type_thresholds: stage 2's cut for the pages of a predicted page type (a name of
            :data:`~pagesieve.classify.page_type.PAGE_TYPES`, the most probable type); a type
            not listed, and a page without page-type probabilities (a model without a page-type
            stage gives none, :func:`pagesieve.extract.model_rows`), is cut at
            :attr:`context_threshold` (:meth:`cut_for`). Training chooses them
            (:func:`pagesieve_dev.training.cuts.type_cuts`), or ``pagesieve-dev type-cut`` gives
            them: the shipped model cuts the pages taken for collections and listings, the types
            whose cards are their content, at 0.3 (dev gate 0.8507 with one cut, 0.8533 with it),
            and every other page at 0.4 (``models/README.md``, "Two cuts" and "Page-type signals").
    """

    svm: SvmArrays
    meta: dict
    threshold: float = 0.0
    context: ForestArrays | None = None
    context_threshold: float = 0.5
    page_type: PageTypeArrays | None = None
    type_thresholds: dict[str, float] = field(default_factory=dict)

    def cut_for(self, page_type: np.ndarray | None) -> float:
        """Stage 2's cut for a page whose page-type probabilities are ``page_type`` (``(7,)`` in
        :data:`~pagesieve.classify.page_type.PAGE_TYPES` order, or ``None``): the cut of its most
        probable type in :attr:`type_thresholds`, else :attr:`context_threshold`."""
        if not self.type_thresholds or page_type is None:
            return self.context_threshold
        return self.type_thresholds.get(likeliest_type(page_type), self.context_threshold)

    @property
    def uses_boxes(self) -> bool:
        """True for a box-aware model: its rows hold the box features of :mod:`pagesieve.blocks.layout`
        after the first-pass features."""
        return BOX_FEATURE_NAMES[0] in self.meta.get("features", ())

    @property
    def uses_cards(self) -> bool:
        """True for a model whose rows hold the card columns of :mod:`pagesieve.blocks.signals`."""
        return CARD_COLUMNS[0] in self.meta.get("features", ())

    def decision(self, x: np.ndarray) -> np.ndarray:
        """Stage 1 decision for each row of ``x`` (``(n, N_FEATURES)`` or wider -> ``(n,)``);
        > 0 is content. The SVM reads the leading columns it was trained on (the first-pass
        features): a box-aware model's box columns go to its context stage only."""
        return self.svm.decision(x[:, : len(self.svm.mean)])

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Stage 1 alone: boolean array, True where a row of ``x`` is main content."""
        return self.decision(x) > self.threshold

    def classify(self, tree: tuple, candidates: list[int], x: np.ndarray,
                 page_type: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Both stages for one page.

        Args:
            tree: ``(parent, chars, sub_chars)`` from :func:`pagesieve.classify.context.tree_arrays`;
            candidates: the classified blocks; x: their feature rows ``(n, N_FEATURES)``.
            page_type: the page's page-type probabilities, which choose stage 2's cut
                (:meth:`cut_for`); ``None``: :attr:`context_threshold`.

        Returns:
            ``(keep, score)``: boolean ``(n,)``, and the score it was cut from (stage-2
            probability, 0 for blocks under :data:`SURE_NOISE_DECISION`; or the SVM decision
            without a context stage). With a context stage, a block whose SVM decision is at
            least :data:`SURE_CONTENT_DECISION` is kept whatever its probability, and so is a
            block that holds half the page's text
            (:func:`~pagesieve.classify.dominant.dominant_blocks`). When no block
            passes the cut, the blocks within :data:`FALLBACK_MARGIN` of the best score are
            kept: a reader asked for an article, and an empty one is never the better answer.
        """
        keep, _d, score, _fallback = self.verdict(tree, candidates, x, page_type)
        return keep, score

    def verdict(self, tree: tuple, candidates: list[int], x: np.ndarray,
                page_type: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, float | None]:
        """:meth:`classify` with what it decided on: ``(keep, decision, score, fallback)``, the
        first three ``(n,)`` as there, and ``fallback`` the score cut of the fallback (the best
        score less :data:`FALLBACK_MARGIN`) when no block passed the model's cut, else ``None``
        (:meth:`reason` reads them). Arguments as :meth:`classify`."""
        d, score = self.scores(tree, candidates, x)
        if self.context is None:
            keep = d > self.threshold
        else:
            keep = (score > self.cut_for(page_type)) | (d >= SURE_CONTENT_DECISION)
            if len(d):
                keep |= dominant_blocks(tree[1][candidates], d, x)
        fallback = None
        if len(score) and not keep.any():
            fallback = float(score.max() - FALLBACK_MARGIN)
            keep = score >= fallback
        return keep, d, score, fallback

    def reason(self, decision: float, score: float, fallback: float | None = None, cut: float | None = None) -> Removal:
        """The :class:`~pagesieve.removal.Removal` of a block this model judged noise, from its
        SVM ``decision`` and ``score`` (:meth:`verdict`): rule ``"svm"`` (no context stage:
        decision under :attr:`threshold`), ``"svm-sure-noise"`` (decision under
        :data:`SURE_NOISE_DECISION`, not passed to the context stage), ``"context"`` (context
        probability under the page's cut: ``cut``, by default :attr:`context_threshold`) or
        ``"below-best"`` (no block passed the cut, and this one scored under ``fallback``).
        Evidence: ``score`` and ``cut``, and the SVM decision ``svm`` beside a context score."""
        rule = self.rule(decision, fallback)
        if rule == "below-best":
            return Removal("classifier", rule, {"score": rounded(score), "cut": rounded(fallback)})
        if rule == "svm":
            return Removal("classifier", rule, {"score": rounded(decision), "cut": rounded(self.threshold)})
        if rule == "svm-sure-noise":
            return Removal("classifier", rule, {"score": rounded(decision), "cut": SURE_NOISE_DECISION})
        cut = self.context_threshold if cut is None else cut
        return Removal("classifier", rule, {"score": rounded(score), "cut": rounded(cut), "svm": rounded(decision)})

    def rule(self, decision: float, fallback: float | None = None) -> str:
        """The rule of :meth:`reason` alone (no evidence made), for a block judged noise."""
        if fallback is not None:
            return "below-best"
        if self.context is None:
            return "svm"
        return "svm-sure-noise" if decision < SURE_NOISE_DECISION else "context"

    def scores(self, tree: tuple, candidates: list[int], x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(decision, score)`` of the candidate blocks, both ``(n,)``, before any cut: the SVM
        decision, and the context stage's probability of content (0 under
        :data:`SURE_NOISE_DECISION`), or the decision again without a context stage. Arguments
        as :meth:`classify`."""
        d = self.decision(x)
        if self.context is None or len(d) == 0:
            return d, d
        z = context_features(tree, candidates, x, d)
        score = np.zeros(len(d))
        judged = d >= SURE_NOISE_DECISION
        if judged.any():
            score[judged] = self.context.probability(z[judged])
        return d, score


@lru_cache(maxsize=1)
def _helper_thread():
    """The one worker thread that takes half of a large page's rows, in the SVM's decision and
    in the context stage (made on first use; the two never run at once)."""
    from concurrent.futures import ThreadPoolExecutor

    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="pagesieve-helper")


os.register_at_fork(after_in_child=_helper_thread.cache_clear)  # a forked child has no such thread


@lru_cache(maxsize=1)
def _blas_libraries() -> tuple:
    """threadpoolctl's controllers of the BLAS libraries loaded in this process (found once), whose
    ``get_num_threads``/``set_num_threads`` :meth:`SvmArrays.decision` calls around its product.
    What ``ThreadpoolController().limit(limits=1, user_api="blas")`` does, without the
    ``info()`` of every library it makes on each entry: a third of its time (10-18 -> 3-5 us a
    call, three rounds in one process, 2026-11-27), on a two-paragraph page whose ``extract``
    takes 1.7 ms; :meth:`SvmArrays.decision` took 0.955 of its time on 104 dataset pages of 3-25
    ms (ten rounds, new and old alternating in one process, 2026-11-27)."""
    from threadpoolctl import ThreadpoolController

    return tuple(ThreadpoolController().select(user_api="blas").lib_controllers)
