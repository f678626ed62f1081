"""What :func:`pagesieve.extract.analyse` makes of a page and the stages after it fill in
(:class:`Analysis`): the page, its blocks, the candidates' feature rows, and the verdicts'
evidence as the classifier, the page rules and the corrections record it."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pagesieve.article.model import Metadata
from pagesieve.blocks.segment import Block
from pagesieve.page.model import Page
from pagesieve.removal import RemovalLog
from pagesieve.rules.layers import PageLayer


@dataclass(slots=True)
class Analysis:
    """A page cut into blocks with the feature rows of its candidate blocks.

    Attributes:
        page: the page (its tree pre-processed in place).
        metadata: read from the raw page before pre-processing.
        blocks: every block, document order. candidates: indices of the classified blocks.
        features: ``(len(candidates), N_FEATURES)`` array.
        box_features: ``(len(candidates), len(layout.BOX_FEATURE_NAMES))`` array
            (:func:`pagesieve.blocks.layout.box_features`, zeros for a page without layout), filled in
            by :func:`pagesieve.extract.model_rows` when a box-aware model first asks; ``None`` until then.
        raw_signals: the page signals read before pre-processing
            (:func:`pagesieve.blocks.signals.raw_page_signals`).
        card_features: ``(len(candidates), len(signals.CARD_COLUMNS))``
            (:func:`pagesieve.blocks.signals.card_columns`), filled in by :func:`pagesieve.extract.model_rows` when a
            model that reads them first asks; ``None`` until then.
        page_type: ``(len(page_type.PAGE_TYPES),)`` probabilities of the page types, filled in by
            :func:`pagesieve.extract.model_rows` for a model with a page-type stage; ``None`` otherwise.
        removals: why each block judged noise was (:class:`pagesieve.removal.RemovalLog`),
            recorded by the stages as they decide.
        layers: the page's fixed and sticky elements (:func:`pagesieve.rules.layers.find_layers`,
            read before pre-processing; ``[]`` without layout).
        hidden_layers: ``(node id, Removal)`` of the layers judged noise
            (:func:`pagesieve.rules.layers.judge_layers`), filled in by :func:`pagesieve.extract.judge_page`.
        content_scores: per block (document order), the classifier's probability of main
            content (its context stage's score, :meth:`~pagesieve.classify.classifier.BlockClassifier.scores`;
            0.0 for a block it did not score), filled in by :func:`pagesieve.extract.classify`; ``None`` before, or
            for a model without a context stage (whose scores are SVM decisions, on another
            scale). The template evidence reads it (:data:`~pagesieve.templates.evidence.CONFIDENT_CONTENT`).
        sibling_groups: the page's groups of look-alike sibling blocks
            (:func:`pagesieve.blocks.segment.sibling_groups`), made once by :func:`pagesieve.extract.analyse` for the
            features, the card items and the teaser rule; ``None`` when not made (each then groups).
        rel_next: the ``href`` of the page's ``<link rel="next">`` (read before pre-processing,
            which removes the head's links), or ``None``: where the article's next page may be
            (:func:`pagesieve.extract.next_page`).
        base_url: the document base URL (:func:`pagesieve.page.base.document_base_url`: the first
            ``<base href>``, read before pre-processing removes it, else the page's URL), which
            the article's relative links and images are resolved against.
        hidden_parts: ``(block index, element, Removal)`` of the elements inside kept blocks
            that the user's corrections hide (:func:`pagesieve.corrections.parts.hidden_parts`),
            filled in by :func:`pagesieve.extract.judge_page`.
    """

    page: Page
    metadata: Metadata
    blocks: list[Block]
    candidates: list[int]
    features: np.ndarray
    box_features: np.ndarray | None = None
    raw_signals: dict | None = None
    card_features: np.ndarray | None = None
    page_type: np.ndarray | None = None
    removals: RemovalLog = field(default_factory=RemovalLog)
    layers: list[PageLayer] = field(default_factory=list)
    hidden_layers: list = field(default_factory=list)
    content_scores: list[float] | None = None
    sibling_groups: list[list[int]] | None = None
    rel_next: str | None = None
    base_url: str | None = None
    hidden_parts: list = field(default_factory=list)
