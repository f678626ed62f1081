"""``pagesieve-dev eval`` site by site: pagesieve run with each site's history (``--history``,
:mod:`pagesieve_dev.evaluation.history`) or after a simulated user corrected each site's first
pages (``--corrections``, :mod:`pagesieve_dev.evaluation.oracle`), and the per-site F1 of a
result (its median over sites is the figure ``--corrections`` and ``--min-site-pages`` report).
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from pagesieve_dev.evaluation.datasets import Dataset
from pagesieve_dev.evaluation.results import EvalResult, evaluate, percentile


def evaluate_history(ds: Dataset, ids: list[str], args: argparse.Namespace, pred_dir: Path | None,
                     stage=None) -> EvalResult:
    """:func:`~pagesieve_dev.evaluation.results.evaluate` with a
    :class:`~pagesieve_dev.evaluation.history.HistoryExtractor` (judged by ``stage``, an
    :class:`~pagesieve_dev.evaluation.evidence_stage.EvidenceStage`, when given)."""
    from pagesieve_dev.evaluation.history import HistoryExtractor
    from pagesieve.templates.evidence import DEFAULT_KINDS

    kinds = DEFAULT_KINDS if args.templates is None else args.templates
    history = HistoryExtractor(
        ds, None if args.history == "all" else args.history, kinds, getattr(args, "history_where", None),
        stage=stage,
    )
    try:
        label = f"pagesieve+{args.history}" + ("" if stage is None else f"+stage({args.template_stage})")
        return evaluate(ds, history, ids, name=label, predictions_dir=pred_dir, before_page=history.prepare)
    finally:
        history.close()


def evaluate_corrections(ds: Dataset, ids: list[str], args: argparse.Namespace,
                         pred_dir: Path | None) -> tuple[EvalResult, list[str]]:
    """:func:`~pagesieve_dev.evaluation.results.evaluate` after a simulated user corrected each
    site's first pages (:mod:`pagesieve_dev.evaluation.oracle`); returns the result and the
    scored ids. With ``args.correction_ceiling`` the user chooses by the gain over every page of
    the site, the scored pages too: the same pages are scored, and the result bounds what N
    corrections of the picker's kinds can add on them (a measurement, never a user)."""
    from pagesieve_dev.evaluation.history import HistoryExtractor
    from pagesieve_dev.evaluation.oracle import CORRECTION_PAGES, Oracle, plan
    from pagesieve.templates.evidence import DEFAULT_KINDS

    kinds = DEFAULT_KINDS if args.templates is None else args.templates
    history_arg = getattr(args, "history", None)
    history = HistoryExtractor(ds, 0 if history_arg is None else (None if history_arg == "all" else history_arg), kinds,
                               getattr(args, "history_where", None))
    try:
        pages, scored = plan(ds, ids, args.correction_pages or CORRECTION_PAGES)
        look = None if getattr(args, "blind_user", False) else _looker(ds, history)
        oracle = Oracle(ds, args.corrections, history.prepare, history.judge,
                        parts=not getattr(args, "block_corrections", False), look=look)
        seen = pages
        if getattr(args, "correction_ceiling", False):
            seen = {site: page_ids + [i for i in scored if ds.record(i).site == site] for site, page_ids in pages.items()}
        rules = {site: oracle.correct_site(site, page_ids) for site, page_ids in seen.items()}
        made = {site: _reach_of(history, site_rules, pages[site][0]) for site, site_rules in rules.items() if site_rules.labels}

        def before(page_id: str) -> None:
            history.prepare(page_id)
            history.corrections = rules.get(ds.record(page_id).site)

        label = "pagesieve" + (f"+{history_arg}" if history_arg is not None else "") + f"+c{args.corrections}" + ("+ceiling" if seen is not pages else "")
        result = evaluate(ds, history, scored, name=label, predictions_dir=pred_dir, before_page=before)
        result.corrections = sum(len(r.labels) for r in rules.values())
        result.site_corrections = made
        result.undone = sum(oracle.undone.values())
        return result, scored
    finally:
        history.close()


def _looker(ds: Dataset, history):
    """``(page id, rules) -> tokens``: the page extracted with its history and the rules, the
    text scored as the run scores it (:func:`~pagesieve_dev.evaluation.scoring.scored_text`), and
    its truth tokens less its noise tokens (``tp - (n - tp)``, ``tp`` the bag intersection with the
    truth, ``n`` the text's tokens): what the user of :class:`~pagesieve_dev.evaluation.oracle.Oracle`
    sees after a click, in the unit of the oracle's token gains. Leaves ``history`` without
    corrections."""
    from collections import Counter

    from pagesieve.tokens import tokens
    from pagesieve_dev.evaluation.datasets import read_page, read_truth
    from pagesieve_dev.evaluation.scoring import keeps_headline, scored_text

    truths: dict[str, Counter] = {}

    def look(page_id: str, rules) -> float:
        record = ds.record(page_id)
        history.prepare(page_id)
        history.corrections = rules
        try:
            answer = history(read_page(ds, page_id), record.url)
        finally:
            history.corrections = None
        if page_id not in truths:
            truths[page_id] = Counter(tokens(read_truth(ds, page_id)))
        out = Counter(tokens(scored_text(answer, keeps_headline(record))))
        tp = sum((out & truths[page_id]).values())
        return float(2 * tp - sum(out.values()))

    return look


def _reach_of(history, rules, page_id: str) -> list[dict]:
    """The corrections of one site with their reach (see :attr:`~pagesieve_dev.evaluation.results.EvalResult.site_corrections`),
    read from the history store prepared for ``page_id`` (one of the site's correction pages).
    A correction of an element inside a block (``part``) reaches the pages holding its block's kind."""
    history.prepare(page_id)
    key = getattr(history, "site_key", None)
    site_pages = history.store.site_pages(key) if key else 0
    return [{"label": lab.name, "signature": lab.signature.describe(), "anchored": lab.anchor is not None,
             "part": lab.part > 0, "reach": history.store.shape_pages(key, lab.block_key) if key else 0, "site_pages": site_pages}
            for lab in rules.labels]


def site_f1(result: EvalResult) -> dict[str, float]:
    """``{site: the macro F1 of its scored pages}`` of a result, for the pages with a site
    (the per-site table of ``eval --corrections``; the JSON's ``site_f1``)."""
    per_site: dict[str, list[float]] = {}
    for row in result.rows:
        if row.scored and row.site is not None:
            per_site.setdefault(row.site, []).append(row.f1)
    return {site: sum(v) / len(v) for site, v in sorted(per_site.items())}


def site_f1_median(result: EvalResult) -> tuple[float, int]:
    """``(median over sites of the site's macro F1, number of sites)`` of a result's scored
    pages with a site (``(nan, 0)`` when none)."""
    means = sorted(site_f1(result).values())
    if not means:
        return math.nan, 0
    return percentile(means, 50), len(means)
