"""Issue 64, "it never makes a site worse": a rule that would take another page's main content
away stays local (:func:`pagesieve.corrections.rules.stays_local`).

www.we-dwoje.pl (daniel, 65 pages) wraps the whole page, article included, in ``div#body``. A
"hide this" on that wrapper, made on one page, hid every other page's article too: with three
corrections per site the site's F1 fell from 0.888 to 0.032 (``pagesieve-dev eval daniel --split
all --history all --corrections 3``). On the page it was made on the user's word stands; on the
site's other pages a "hide" that would remove most of what the page keeps stays off.

The pages are read at run time from ``../shared/datasets/daniel`` (skipped without it).
"""

from __future__ import annotations

from collections import Counter

import pytest

import pagesieve.corrections.rules as rules_module
from pagesieve.corrections.rules import make_label
from pagesieve.corrections.store import SiteRules
from pagesieve.extract import extract_page, judge_page
from pagesieve.page.html import parse_html

SITE = "www.we-dwoje.pl"


def _f1(text, truth):
    from pagesieve_dev.evaluation.metric import prf_counts
    from pagesieve.tokens import tokens

    return prf_counts(Counter(tokens(text)), Counter(tokens(truth)))[2]


@pytest.fixture(scope="module")
def site_pages(datasets_dir):
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page, read_truth

    ds = load_dataset(datasets_dir / "daniel")
    ids = sorted(r.id for r in ds.rows if r.site == SITE)
    assert len(ids) == 65, "daniel holds 65 www.we-dwoje.pl pages (../shared/datasets/README.md)"

    def read(page_id):
        record = ds.record(page_id)
        return (lambda: parse_html(read_page(ds, page_id), url=record.url)), read_truth(ds, page_id)

    return [read(i) for i in ids[:4]]


def _rule_on(parse, element_id: str, label_value: int, site: str) -> SiteRules:
    """The rules of one correction on the block of id ``element_id`` of a page, made as the
    picker makes it (``label_value``: 0 "hide this", 1 "keep this")."""
    page = parse()
    analysis, keep = judge_page(page)
    block = next(b.index for b in analysis.blocks if b.element.get("id") == element_id)
    label = make_label(analysis.page, analysis.blocks, analysis.candidates, analysis.features, block, label_value, keep=keep)
    label.id = 1
    return SiteRules(site, [label])


def _wrapper_rule(parse):
    """"Hide this" on ``div#body`` of one page."""
    rules = _rule_on(parse, "body", 0, SITE)
    assert rules.labels[0].anchor is None and rules.labels[0].signature.path[-1] == "div#body"
    return rules


def test_a_hide_on_the_whole_page_wrapper_stays_on_its_own_page(site_pages):
    (parse_a, _truth_a), *others = site_pages
    rules = _wrapper_rule(parse_a)
    own = extract_page(parse_a(), corrections=rules)
    assert len(own.text) < 200, "on the page it was made on, the user's word stands"
    for parse, _truth in others:
        plain = extract_page(parse())
        corrected = extract_page(parse(), corrections=rules)
        assert len(plain.text) > 500 and corrected.text == plain.text, "the rule stays off the site's other pages"


def test_without_the_guard_the_wrapper_rule_empties_the_other_pages(site_pages, monkeypatch):
    """What the guard prevents (so that the test above can fail): the rule, applied everywhere,
    leaves the other pages next to nothing."""
    (parse_a, _truth_a), *others = site_pages
    rules = _wrapper_rule(parse_a)
    monkeypatch.setattr(rules_module, "LOCAL_HIDE_SHARE", float("inf"))
    for parse, truth in others:
        plain = extract_page(parse())
        corrected = extract_page(parse(), corrections=rules)
        assert len(corrected.text) < 0.2 * len(plain.text)
        assert _f1(corrected.text, truth) < _f1(plain.text, truth)


@pytest.fixture(scope="module")
def comment_pages(datasets_dir):
    """dragnet's two www.fourhourworkweek.com posts, each with a thread of some 75,000 characters
    of comments (the truth of page 153 leaves them out)."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    ds = load_dataset(datasets_dir / "dragnet")
    return [(lambda i=i: parse_html(read_page(ds, i), url=ds.record(i).url)) for i in ("419", "153")]


def _comments_rule(parse):
    """"Keep this" on the comment thread (``ul#comment_list``) of one post."""
    return _rule_on(parse, "comment_list", 1, "fourhourworkweek.com")


def test_a_keep_on_a_comment_thread_stays_on_its_own_page(comment_pages, monkeypatch):
    parse_a, parse_b = comment_pages
    rules = _comments_rule(parse_a)
    own_plain, own = extract_page(parse_a()), extract_page(parse_a(), corrections=rules)
    assert len(own.text) > 3 * len(own_plain.text), "on the page it was made on, the thread is kept"
    plain = extract_page(parse_b())
    assert extract_page(parse_b(), corrections=rules).text == plain.text, "the other post keeps its article alone"
    monkeypatch.setattr(rules_module, "LOCAL_KEEP_RATIO", float("inf"))
    assert len(extract_page(parse_b(), corrections=rules).text) > 3 * len(plain.text)  # what the guard prevents
