"""The posts of a forum thread read alike (issue 62; host/pagesieve/rules/records.py): the part
of a post most of the thread keeps is kept in every post, on pages the page-type stage is sure
are forums."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import pagesieve.extract as extract_module
from pagesieve.classify.page_type import PAGE_TYPES
from pagesieve.extract import SETTLE_RULES, extract
from pagesieve.rules.records import FORUM_SURE, forum_sure

from conftest import shared_dataset


def _extract(datasets_dir, dataset: str, page_id: str):
    """``(article, token F1 against the truth)`` of a shared dataset page."""
    from pagesieve_dev.evaluation.datasets import read_page, read_truth
    from pagesieve_dev.evaluation.metric import prf_counts
    from pagesieve.tokens import tokens

    ds = shared_dataset(datasets_dir, dataset)
    article = extract(read_page(ds, page_id), ds.record(page_id).url)
    return article, prf_counts(Counter(tokens(article.text)), Counter(tokens(read_truth(ds, page_id))))[2]


def test_the_short_replies_of_a_thread_are_kept_with_the_long_ones(datasets_dir, monkeypatch):
    """wcxb_dev/0529 (watchuseek.com, XenForo): the classifier kept the opening post and the
    long replies, and dropped "In-house movements." and "Rolex Daytona and AP Royal Oak.",
    which have a label's features; the thread's own posts say they are bodies."""
    article, f1 = _extract(datasets_dir, "wcxb_dev", "0529")
    lines = article.text.splitlines()
    assert "In-house movements." in lines
    assert any(line.startswith("Rolex Daytona and AP Royal Oak.") for line in lines)
    assert f1 > 0.6
    monkeypatch.setattr(extract_module, "forum_sure", lambda page_type: False)
    # the replies between kept posts (pagesieve.rules.between) come back without the records
    # rule too, the long ones: left out here, so the figure is the records rule's alone
    monkeypatch.setattr(extract_module, "keep_posts_between", lambda *args: [])
    without, f1_without = _extract(datasets_dir, "wcxb_dev", "0529")
    assert "In-house movements." not in without.text.splitlines()
    assert f1_without < f1 - 0.1


def test_a_quoted_reply_is_not_completed_into_every_post(datasets_dir):
    """wcxb_dev/1674 (australianfrequentflyer.com.au): some replies quote others, and the quote
    is a part of the post as the body is; only the part with the most kept text (the body) is
    completed, so a reply quoted below is not shown twice."""
    article, _f1 = _extract(datasets_dir, "wcxb_dev", "1674")
    assert article.text.count("It wasn't really MH at issue here.") == 1


def test_the_rule_runs_only_where_the_page_type_is_sure_of_a_forum():
    """An article's comment list is a run of records too, and the news sets' truths leave it
    out: the rule needs ``forum`` at :data:`FORUM_SURE` or more, and a model without the
    page-type stage never runs it."""
    forum = PAGE_TYPES.index("forum")
    sure = np.full(len(PAGE_TYPES), (1 - FORUM_SURE) / (len(PAGE_TYPES) - 1))
    sure[forum] = FORUM_SURE
    unsure = np.full(len(PAGE_TYPES), 0.1)
    unsure[forum] = 0.4
    assert forum_sure(sure)
    assert not forum_sure(unsure)
    assert not forum_sure(None)
    assert "records" in SETTLE_RULES


@pytest.mark.parametrize("page_id", ["59f730fe-4457-4076-adf6-fc2ef805729b"])
def test_comments_under_a_news_story_are_not_completed(datasets_dir, page_id):
    """l3s_gn1's Scotsman story: its comments are a run of records, and the page-type stage
    gives ``forum`` 0.68; the truth leaves most comments out, and the reply the classifier
    dropped stays out."""
    article, _f1 = _extract(datasets_dir, "l3s_gn1", page_id)
    assert "You make some fair points, Miss Priss." not in article.text
