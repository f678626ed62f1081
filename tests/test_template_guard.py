"""The template guard (:data:`pagesieve.templates.evidence.CONFIDENT_CONTENT`): site templates never
remove a block the classifier is confident is main content, still remove the ordinary template
noise, and the crawl's path (page facts kept between passes) agrees with the tree's.

On a real page of dragnet (a training site, healthcare-economist.com): its byline line "Written
By: Jason Shafrin - Nov• 04•12" is main content in dragnet's truth, the classifier is confident of
it, and the site's library matches it (the same line, another date, on every page); the comment
feed line "You can follow any responses to this entry through the RSS 2.0 feed" is noise the
classifier hesitated over, and the library matches it too.
"""

from __future__ import annotations

import io

import pytest

from pagesieve.crawl.judged import frame, read_frame
from pagesieve.crawl.rows import judge_record
from pagesieve.crawl.records import WarcPage
from pagesieve.extract import judge_page
from pagesieve.page.html import parse_html
from pagesieve.templates.evidence import (
    CONFIDENT_CONTENT, LIBRARY_SHARE, apply_evidence, facts_evidence, page_evidence,
)
from pagesieve.templates.learn import summarise
from pagesieve.templates.store import TemplateStore
from pagesieve.templates.urls import site_of
from pagesieve.tokens import tokens
from pagesieve_dev.evaluation.datasets import load_dataset, read_page, read_truth

PAGE = "R484"
BYLINE = "Written By: Jason Shafrin"
FEED = "You can follow any responses to this entry"


@pytest.fixture(scope="module")
def dragnet(datasets_dir):
    return load_dataset(datasets_dir / "dragnet")


@pytest.fixture(scope="module")
def templates(dragnet, tmp_path_factory):
    """What the template store learns of the page's site from its 9 other pages (``--history all``)."""
    record = dragnet.record(PAGE)
    others = [i for i in dragnet.site_pages()[record.site] if i != PAGE]
    assert len(others) >= 9
    with TemplateStore(tmp_path_factory.mktemp("store") / "templates.sqlite3") as store:
        for other in others:
            store.learn(summarise(parse_html(read_page(dragnet, other), url=dragnet.record(other).url)))
        found = store.templates_for(site_of(record.url), record.url)
    assert found is not None and found.pages == len(others)  # one open batch: its leaves on 3 pages name the template
    return found


def _judged(dragnet, templates=None):
    record = dragnet.record(PAGE)
    return judge_page(parse_html(read_page(dragnet, PAGE), url=record.url), templates=templates)


def _block(analysis, start: str) -> int:
    [index] = [b.index for b in analysis.blocks if b.text.startswith(start)]
    return index


def _in_truth(dragnet, text: str) -> bool:
    truth = " ".join(tokens(read_truth(dragnet, PAGE)))
    return " ".join(tokens(text)) in truth


def test_a_confident_main_content_block_is_not_removed_by_the_template_that_matches_it(dragnet, templates):
    analysis, keep = _judged(dragnet, templates)
    byline = _block(analysis, BYLINE)
    evidence = page_evidence(analysis.blocks, templates)
    assert evidence.template_share[byline] >= LIBRARY_SHARE  # the library names the whole line
    assert analysis.content_scores[byline] >= CONFIDENT_CONTENT
    assert _in_truth(dragnet, analysis.blocks[byline].text)  # and it is main content in dragnet's truth
    assert keep[byline]

    _single_analysis, unguarded = _judged(dragnet)
    assert unguarded[byline]  # kept as a single page
    apply_evidence(analysis.blocks, unguarded, evidence)  # without the classifier's scores: removed
    assert not unguarded[byline]


def test_ordinary_template_noise_is_still_removed(dragnet, templates):
    analysis, keep = _judged(dragnet, templates)
    feed = _block(analysis, FEED)
    _single_analysis, single = _judged(dragnet)
    assert single[feed]  # the classifier kept it, hesitating
    assert analysis.content_scores[feed] < CONFIDENT_CONTENT
    assert page_evidence(analysis.blocks, templates).template_share[feed] >= LIBRARY_SHARE
    assert not _in_truth(dragnet, analysis.blocks[feed].text)
    assert not keep[feed]  # the template removes it
    removal = analysis.removals.reason(feed)
    assert (removal.stage, removal.rule) == ("templates", "library")


def test_the_crawl_path_from_page_facts_agrees_with_the_tree_path(dragnet, templates):
    """``pagesieve batch`` keeps the facts of a judged page (through a judged-file frame) and
    applies the site's templates to them later: the same verdicts as the tree path, guard
    included."""
    record = dragnet.record(PAGE)
    html = read_page(dragnet, PAGE)
    analysis, keep = judge_page(parse_html(html, url=record.url), templates=templates)

    row, single, facts, _summary = judge_record(WarcPage(record.url, None, None, html.encode("utf-8"), "utf-8"),
                                                facts=True, fingerprints=False)
    _row, single, facts = read_frame(io.BytesIO(frame((row, single, facts))))
    assert facts.scores == pytest.approx(analysis.content_scores)
    after = list(single)
    apply_evidence(facts.blocks(), after, facts_evidence(facts, templates, ["library"]), scores=facts.scores)
    assert after == keep
    byline = _block(analysis, BYLINE)
    assert single[byline] and after[byline]  # the guard held on this path too
    assert sum(single) > sum(after)  # and the template removed something


def test_template_guard_counts_what_the_unguarded_template_removes_by_score(dragnet):
    """``pagesieve-dev template-guard`` on the page: the unguarded library removes the byline
    (main content) and the feed line (noise); the cut with the fewest token errors lies between
    their scores, so it keeps the one and lets the other go."""
    from pagesieve_dev.evaluation.history import HistoryExtractor
    from pagesieve_dev.evaluation.template_guard import best_cut, removed_blocks, token_errors

    history = HistoryExtractor(dragnet, None)
    try:
        removed = removed_blocks(dragnet, PAGE, history)
    finally:
        history.close()
    content = [r for r in removed if r.content > 0 and r.noise == 0]
    noise = [r for r in removed if r.noise > 0 and r.content == 0]
    assert content and noise
    cut = best_cut(token_errors(removed))
    assert max(r.score for r in noise) < cut <= min(r.score for r in content)
    errors = {c: lost + kept for c, lost, kept in token_errors(removed)}
    assert errors[cut] == 0 < errors[1.0]
