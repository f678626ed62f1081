"""``pagesieve-dev eval --history K|all --template-stage``: template evidence as features of the block
classifier, measured against removal.

The issue "site templates" asks for both ways of combining the evidence of
:mod:`pagesieve.templates.evidence` with the classifier: hard removal where the evidence is
certain (:func:`~pagesieve.templates.evidence.apply_evidence`, what pagesieve does), and template
evidence as features of the block classifier. This module is the second, kept for comparison:

- a **third stage**: a logistic regression re-decides every candidate block of a page that has
  templates, from the classifier's own two scores (SVM decision and context-stage probability,
  :meth:`~pagesieve.classify.classifier.BlockClassifier.scores`), the block's size, and its template
  evidence (:data:`EVIDENCE_FEATURES`: share of its text in library leaves, seed 000 §4; its
  subtree identical in the reference page, seed 004 §2.2; the same share of its parent and of its
  neighbours, and the page's mean). Pages without templates keep the classifier's verdicts.
  The page-level rules (:func:`pagesieve.extract.settle`) and the default removal follow, as on
  the shipped path.
- **training**: the ``train`` side of the split of daniel and dragnet (the training datasets that
  group pages by site); each training page's templates are learned from the *other training
  pages* of its site, so no held-out page is ever read, labels as the shipped model's
  (:func:`pagesieve_dev.training.labels.label_blocks`).
- **control** (``--template-stage scores``): the same stage without the evidence columns. The
  difference between the two is what the evidence adds as features; the difference between the
  control and plain ``--history`` is only the stage's own re-cut of the classifier's scores.

Measured (held-out pages, sites with >= 5 pages, ``--min-site-pages 5``; macro F1):

===================================  ======  =====  ========  =====  =========  =====
``--history``                        big9 3  all    daniel 3  all    dragnet 3  all
===================================  ======  =====  ========  =====  =========  =====
removal alone (the default)          0.977   0.979  0.947     0.957  0.945      0.947
stage with evidence + removal        0.979   0.981  0.956     0.961  0.945      0.946
stage without evidence + removal     0.980   0.981  0.955     0.961  0.945      0.946
===================================  ======  =====  ========  =====  =========  =====

The evidence columns add nothing the removal does not already do (stage with and without
evidence within 0.0015 on every cell); the stage's gain on big9 and daniel comes from re-cutting
the classifier's scores higher (the control's weights put the cut near 0.55-0.6 of the context
stage's probability, against the shipped 0.5), which the shipped model's training weighed and
rejected: on its training pages (``oof_page_f1_by_threshold`` in the model's metadata) a cut of
0.55 loses on wcxb_dev (0.816 -> 0.812) and dragnet, and 0.6 on cleaneval too. So removal stays
what pagesieve does.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pagesieve.classify.classifier import FALLBACK_MARGIN, SURE_CONTENT_DECISION, BlockClassifier
from pagesieve.classify.context import tree_arrays
from pagesieve_dev.evaluation.datasets import load_dataset, read_page, read_truth
from pagesieve.templates.evidence import DEFAULT_KINDS, TemplateEvidence, apply_evidence, page_evidence
from pagesieve.templates.store import SiteTemplates

SCORE_FEATURES = ("context_probability", "svm_decision", "log_chars")
"""The classifier's own columns of a stage row (the control reads these alone)."""

EVIDENCE_FEATURES = (
    "template_share", "in_reference", "parent_template_share",
    "previous_template_share", "next_template_share", "page_template_share",
)
"""The template evidence columns of a stage row, per candidate block: its share of text in
library leaves, 1 if its subtree is identical in the reference page, the share of its parent
block, of the candidate before and after it (0 at the ends), and the mean over the page."""

STAGE_KINDS = ("library", "diff")
"""Evidence computed for the stage's columns (the diff needs the reference page's fingerprints)."""

TRAIN_DATASETS = ("daniel", "dragnet")
"""Training datasets that group their pages by site (big9 is held out whole)."""

STAGE_CUT = 0.5
"""Probability of content from which the stage keeps a block (the logistic regression's own
calibration: the cut that minimises expected errors)."""


def stage_rows(
    analysis, model: BlockClassifier, evidence: TemplateEvidence
) -> tuple[np.ndarray, np.ndarray]:
    """The stage's rows for the candidate blocks of a page, and the classifier's scores.

    Args:
        analysis: from :func:`pagesieve.extract.analyse`; model: the block classifier;
        evidence: from :func:`~pagesieve.templates.evidence.page_evidence` with
            :data:`STAGE_KINDS`.

    Returns:
        ``(rows, score)``: ``(n, len(SCORE_FEATURES) + len(EVIDENCE_FEATURES))`` rows in the
        order of the two name tuples, and the context stage's scores ``(n,)``.
    """
    from pagesieve.extract import model_rows

    blocks, cand = analysis.blocks, analysis.candidates
    tree = tree_arrays(blocks)
    d, score = model.scores(tree, cand, model_rows(analysis, model))
    share = np.asarray(evidence.template_share, dtype=np.float64)
    in_ref = np.asarray(evidence.in_reference, dtype=np.float64)
    parent = tree[0]
    idx = np.asarray(cand, dtype=np.int64)
    own = share[idx]
    parent_share = np.where(parent[idx] >= 0, share[np.maximum(parent[idx], 0)], 0.0)
    padded = np.concatenate([[0.0], own, [0.0]])
    chars = np.array([blocks[i].chars for i in cand], dtype=np.float64)
    rows = np.column_stack([
        score, d, np.log1p(chars),
        own, in_ref[idx], parent_share, padded[:-2], padded[2:], np.full(len(cand), own.mean() if len(own) else 0.0),
    ])
    return rows, score


@dataclass(slots=True)
class EvidenceStage:
    """A fitted third stage: ``p = 1 / (1 + exp(-(rows[:, columns] @ coef + intercept)))``.

    Attributes:
        coef: ``(len(columns),)`` weights; intercept: the bias; columns: which columns of
        :func:`stage_rows` it reads (all, or the :data:`SCORE_FEATURES` alone for the control);
        names: their names. pages, rows: what it was fitted on.
    """

    coef: np.ndarray
    intercept: float
    columns: tuple[int, ...]
    names: tuple[str, ...]
    pages: int
    rows: int

    def probability(self, rows: np.ndarray) -> np.ndarray:
        """Probability of content per row of :func:`stage_rows` (``(n, 9)`` -> ``(n,)``)."""
        z = rows[:, list(self.columns)] @ self.coef + self.intercept
        return 1.0 / (1.0 + np.exp(-z))

    def describe(self) -> str:
        """One line: what it read, and its weights."""
        weights = ", ".join(f"{n} {w:+.3f}" for n, w in zip(self.names, self.coef))
        return f"template stage fitted on {self.pages} pages ({self.rows} blocks): {weights}, bias {self.intercept:+.3f}"

    def judge(self, page, model: BlockClassifier, templates: SiteTemplates | None,
              kinds: Iterable[str] = DEFAULT_KINDS) -> tuple[object, list[bool]]:
        """:func:`judge_with_stage` with this stage: ``(analysis, keep)`` of ``page``
        (what :class:`~pagesieve_dev.evaluation.history.HistoryExtractor` calls, so that it
        needs no import of this module)."""
        return judge_with_stage(page, model, templates, self, kinds)


def judge_with_stage(
    page, model: BlockClassifier, templates: SiteTemplates | None, stage: EvidenceStage,
    kinds: Iterable[str] = DEFAULT_KINDS,
) -> tuple[object, list[bool]]:
    """``(analysis, keep)`` as :func:`pagesieve.extract.judge_page`, with the stage deciding the
    candidate blocks of a page that has ``templates`` (then :func:`pagesieve.extract.settle` and
    the removal by ``kinds``, which leaves the blocks the classifier is confident of as the
    shipped path does, :data:`~pagesieve.templates.evidence.CONFIDENT_CONTENT`); without
    templates it is :func:`~pagesieve.extract.judge_page`."""
    from pagesieve.extract import analyse, block_scores, judge_page, settle

    if templates is None:
        return judge_page(page, model, None, kinds)
    analysis = analyse(page)
    keep = [False] * len(analysis.blocks)
    if analysis.candidates:
        kinds = tuple(kinds)
        evidence = page_evidence(analysis.blocks, templates, set(STAGE_KINDS) | set(kinds))
        rows, score = stage_rows(analysis, model, evidence)
        chosen = stage.probability(rows) > STAGE_CUT
        if not chosen.any():  # as the classifier: an empty article is never the better answer
            chosen = (score >= score.max() - FALLBACK_MARGIN) | (rows[:, 1] >= SURE_CONTENT_DECISION)
        for i, flag in zip(analysis.candidates, chosen):
            keep[i] = bool(flag)
        settle(analysis, keep, decision=rows[:, 1])  # SCORE_FEATURES[1]: the SVM decision
        scores = block_scores(len(analysis.blocks), analysis.candidates, score) if model.context is not None else None
        apply_evidence(analysis.blocks, keep, evidence, kinds, scores=scores)
    return analysis, keep


def training_rows(datasets_dir: Path, split: dict, model: BlockClassifier, limit: int | None = None):
    """Stage rows and labels of the training pages of :data:`TRAIN_DATASETS` that have at least
    one other training page of their site (their templates are learned from those alone).

    Returns:
        ``(rows, y, pages)``: stacked rows, labels (1 content, 0 noise; mixed blocks left out),
        and the number of pages read.

    Raises:
        DatasetError: a dataset is missing; ValueError: no page could be used.
    """
    from pagesieve_dev.evaluation.history import HistoryExtractor
    from pagesieve.extract import analyse
    from pagesieve.page.html import parse_html
    from pagesieve_dev.training.labels import IGNORE, label_blocks, truth_reference

    all_rows, all_y, pages = [], [], 0
    for name in TRAIN_DATASETS:
        train = list(split.get(name, {}).get("train", []))
        if limit is not None:
            train = train[:limit]
        if not train:
            continue
        dataset = load_dataset(datasets_dir / name)
        history = HistoryExtractor(dataset, None, STAGE_KINDS, only=frozenset(train))
        try:
            for page_id in train:
                history.prepare(page_id)
                if not history.learned:
                    continue
                record = dataset.record(page_id)
                templates = history.templates(record.url)
                analysis = analyse(parse_html(read_page(dataset, page_id), url=record.url))
                if not analysis.candidates:
                    continue
                rows, _ = stage_rows(analysis, model, page_evidence(analysis.blocks, templates, STAGE_KINDS))
                y = label_blocks(analysis.blocks, analysis.candidates, *truth_reference(read_truth(dataset, page_id)))
                mask = y != IGNORE
                all_rows.append(rows[mask])
                all_y.append(y[mask])
                pages += 1
        finally:
            history.close()
    if not pages:
        raise ValueError("no training page with another training page of its site")
    return np.vstack(all_rows), np.concatenate(all_y), pages


def fit_stage(rows: np.ndarray, y: np.ndarray, pages: int, with_evidence: bool = True) -> EvidenceStage:
    """Fit the stage (scikit-learn's ``LogisticRegression``, C = 1, on unscaled columns: the
    scores and shares are already of order 1, ``log_chars`` of order 5) on the rows of
    :func:`training_rows`; ``with_evidence=False`` fits the control on
    :data:`SCORE_FEATURES` alone.

    Raises:
        ValueError: ``y`` holds one class only.
    """
    from sklearn.linear_model import LogisticRegression

    names = SCORE_FEATURES + (EVIDENCE_FEATURES if with_evidence else ())
    columns = tuple(range(len(names)))
    fitted = LogisticRegression(C=1.0, max_iter=2000).fit(rows[:, list(columns)], y)
    return EvidenceStage(fitted.coef_[0].copy(), float(fitted.intercept_[0]), columns, names, pages, len(y))


def stage_for(datasets_dir: Path, split: dict, model: BlockClassifier, with_evidence: bool = True,
              limit: int | None = None) -> EvidenceStage:
    """:func:`training_rows` then :func:`fit_stage`; prints :meth:`EvidenceStage.describe` to
    stderr (about 30 s on this machine for the 731 training pages)."""
    rows, y, pages = training_rows(datasets_dir, split, model, limit)
    stage = fit_stage(rows, y, pages, with_evidence)
    print(f"pagesieve-dev eval: note: {stage.describe()}", file=sys.stderr)
    return stage

