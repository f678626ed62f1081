"""Where the time of one page goes: wall time per stage of :func:`pagesieve.extract.extract`.

Used by ``pagesieve-dev bench --stages``. The stages are the functions
:mod:`pagesieve.extract` calls by name, each wrapped for the duration of the run (the
extractor's code is not changed, so its answers are the same):

===========  ====================================================================
stage        what it times
===========  ====================================================================
parse        :func:`~pagesieve.page.html.parse_html` (decode, lxml parse, node ids)
metadata     :func:`~pagesieve.article.metadata.extract_metadata`
signals      :func:`~pagesieve.blocks.signals.raw_page_signals` (before pre-processing)
layers       :func:`~pagesieve.rules.layers.find_layers`
preprocess   :func:`~pagesieve.page.preprocess.preprocess`
segment      :func:`~pagesieve.blocks.segment.segment`
features     :func:`~pagesieve.blocks.features.block_features`
model rows   :func:`~pagesieve.extract.model_rows` (card columns, page type) less nothing
classify     the classifier's ``verdict`` (SVM, context model) and :func:`~pagesieve.classify.context.tree_arrays`
settle       :func:`~pagesieve.extract.settle` (the page rules)
render       :func:`~pagesieve.extract.render_article` (text, pruned HTML, sanitising)
other        the page's total less the stages above
===========  ====================================================================

Nested stages are not counted twice: a stage's time is its wall time less the time of the
stages called inside it.
"""

from __future__ import annotations

import contextlib
import time
from collections import defaultdict
from collections.abc import Iterator

STAGES = ("parse", "metadata", "signals", "layers", "preprocess", "segment", "features", "model rows", "classify",
          "settle", "render")
"""The stages, in the order a page passes them."""

_WRAPPED = {
    "parse_html": "parse", "extract_metadata": "metadata", "raw_page_signals": "signals", "find_layers": "layers",
    "preprocess": "preprocess", "segment": "segment", "block_features": "features", "model_rows": "model rows",
    "tree_arrays": "classify", "settle": "settle", "render_article": "render",
}


class StageClock:
    """Seconds per stage, summed over the pages run while :meth:`timing` is active.

    Attributes:
        seconds: ``{stage: seconds}`` of the stages in :data:`STAGES` (own time, nested
            stages excluded).
    """

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self._stack: list[list[float]] = []  # per open stage: [time spent in nested stages]

    def _wrap(self, stage: str, fn):
        def timed(*args, **kwargs):
            self._stack.append([0.0])
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                spent = time.perf_counter() - t0
                nested = self._stack.pop()[0]
                self.seconds[stage] += spent - nested
                if self._stack:
                    self._stack[-1][0] += spent
        timed.__wrapped__ = fn
        return timed

    @contextlib.contextmanager
    def timing(self) -> Iterator[StageClock]:
        """Wrap the stages in :mod:`pagesieve.extract` (and the classifier's ``verdict``)
        while the block runs; put the originals back after it, even on an error."""
        import pagesieve.extract as ex
        from pagesieve.classify.classifier import BlockClassifier

        saved = {name: getattr(ex, name) for name in _WRAPPED}
        saved_verdict = BlockClassifier.verdict
        try:
            for name, stage in _WRAPPED.items():
                setattr(ex, name, self._wrap(stage, saved[name]))
            BlockClassifier.verdict = self._wrap("classify", saved_verdict)
            yield self
        finally:
            for name, fn in saved.items():
                setattr(ex, name, fn)
            BlockClassifier.verdict = saved_verdict


def stage_table(clock: StageClock, total_seconds: float, pages: int) -> list[tuple[str, ...]]:
    """Rows ``(stage, ms per page, share of the total %)`` for :data:`STAGES`, then ``other``
    (the total less the stages) and ``total``; ``pages`` > 0."""
    rows: list[tuple[str, ...]] = [("stage", "ms per page", "share %")]
    staged = 0.0
    for stage in STAGES:
        s = clock.seconds.get(stage, 0.0)
        staged += s
        rows.append((stage, f"{1000 * s / pages:.2f}", f"{100 * s / total_seconds:.1f}"))
    other = max(total_seconds - staged, 0.0)
    rows.append(("other", f"{1000 * other / pages:.2f}", f"{100 * other / total_seconds:.1f}"))
    rows.append(("total", f"{1000 * total_seconds / pages:.2f}", "100.0"))
    return rows
