"""The BP line model of seed 001 (An et al. 2010; ALGORITHMS.md §2), for comparison.

The paper classifies the text lines of a normalised page with a small back-propagation network:
per line y = text length, z = total characters including markup, p = y / z (text density) and s
= relevance of the line's words to the title; the network reads (y, z, p, s) of the line, of the
previous and of the next line (12 inputs), has 5 hidden units and logistic activations
everywhere, learning rate 0.2.

Here a "line" is a candidate block (the unit pagesieve keeps or drops), in document order:
y is the block's own text length, z that plus the markup of its own inline elements (start and
end tags with their attributes, as serialised), s the block's ``title_overlap`` feature (share of
the title's words in the block, :mod:`pagesieve.blocks.features`). y and z enter as ``log1p`` and all
12 inputs are standardised, since a logistic unit saturates on raw character counts; the network
is scikit-learn's ``MLPClassifier(hidden_layer_sizes=(5,), activation="logistic",
solver="sgd", learning_rate_init=0.2)``, trained on the noise-down-sampled training blocks (as
the SVM, seed 000 §6 (2)). It is measured by ``pagesieve-dev eval-layout --line-model`` beside the
SVM; it is not shipped (it does not win, see the closing note of the issue).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from lxml import etree

from pagesieve.blocks.features import FEATURE_NAMES

LINE_INPUTS = ("log_y", "log_z", "p", "s")
"""The four inputs of one line; the network reads them for the line, the previous and the next."""

_TITLE = FEATURE_NAMES.index("title_overlap")


def _markup_length(element: etree._Element) -> int:
    """Characters of ``element``'s start and end tags as serialised (``<a href="x">``, ``</a>``)."""
    attrs = sum(len(k) + len(v) + 4 for k, v in element.attrib.items() if k != "data-ps-id")
    return 2 * len(element.tag) + 5 + attrs


def line_inputs(analysis) -> np.ndarray:
    """The 12 network inputs of every candidate block of ``analysis``
    (:class:`pagesieve.extract.Analysis`): ``(len(candidates), 12)``, the line's four
    :data:`LINE_INPUTS`, then the previous line's, then the next line's (zeros at the ends)."""
    blocks = analysis.blocks
    block_elements = {b.element for b in blocks}
    own = np.zeros((len(analysis.candidates), 4))
    for row, index in enumerate(analysis.candidates):
        block = blocks[index]
        markup = 0
        stack = list(block.element)
        while stack:
            element = stack.pop()
            if not isinstance(element.tag, str) or element in block_elements:
                continue  # nested blocks are lines of their own
            markup += _markup_length(element)
            stack.extend(element)
        y = float(block.chars)
        z = y + markup
        own[row] = (np.log1p(y), np.log1p(z), y / z if z else 0.0, analysis.features[row, _TITLE])
    out = np.zeros((len(own), 12))
    out[:, :4] = own
    out[1:, 4:8] = own[:-1]
    out[:-1, 8:] = own[1:]
    return out


class LineModel:
    """The fitted network with its input scaling.

    Args:
        x: ``(n, 12)`` inputs of :func:`line_inputs`; y: ``(n,)`` 1 content / 0 noise.
        seed: random state of the initial weights.
    """

    def __init__(self, x: np.ndarray, y: np.ndarray, seed: int = 0) -> None:
        from sklearn.neural_network import MLPClassifier
        from sklearn.pipeline import Pipeline
        from sklearn.preprocessing import StandardScaler

        self.pipeline = Pipeline([
            ("scale", StandardScaler()),
            ("net", MLPClassifier(hidden_layer_sizes=(5,), activation="logistic", solver="sgd",
                                  learning_rate_init=0.2, momentum=0.0, batch_size=64, max_iter=200,
                                  tol=1e-4, n_iter_no_change=10, random_state=seed)),
        ]).fit(x, y)

    def keep(self, analysis) -> list[bool]:
        """Per candidate block of ``analysis``: True if the network says content (p > 0.5)."""
        if not analysis.candidates:
            return []
        return [bool(v) for v in self.pipeline.predict_proba(line_inputs(analysis))[:, 1] > 0.5]


def fit_line_model(analyses: Sequence, labels: Sequence[np.ndarray], max_rows: int = 40000, seed: int = 0) -> LineModel:
    """Train the line network on pages: ``analyses`` with per-candidate ``labels`` (1, 0, or
    the training IGNORE value, left out); noise is down-sampled to the content count, at most
    ``max_rows`` rows in all."""
    from pagesieve_dev.training.labels import IGNORE
    from pagesieve_dev.training.stage1 import balanced_sample

    xs, ys = [], []
    for analysis, y in zip(analyses, labels):
        mask = y != IGNORE
        if mask.any():
            xs.append(line_inputs(analysis)[mask])
            ys.append(y[mask])
    x, y = np.vstack(xs), np.concatenate(ys).astype(np.int8)
    rows = balanced_sample(y, max_rows, seed)
    return LineModel(x[rows], y[rows], seed)
