"""The removal log (issue 32): every block that leaves the article carries the reason of the stage
that removed it, recorded where that stage decides, without changing any decision."""

from __future__ import annotations

import gzip

import numpy as np
import pytest
from lxml import etree

from pagesieve.blocks.segment import segment
from pagesieve.classify.classifier import SURE_NOISE_DECISION
from pagesieve.classify.model_store import default_model
from pagesieve.classify.context import tree_arrays
from pagesieve.explain import block_reason, hidden_reasons, log_lines, node_reason, removal_log
from pagesieve.extract import (
    analyse, drop_boilerplate_labels, drop_comment_sections, judge_page, model_rows, render_article, settle,
    verdict_ids,
)
from pagesieve.page.html import parse_html
from pagesieve.page.preprocess import preprocess
from pagesieve.removal import STAGES, Removal, RemovalLog

URL = "https://hillkitchen.example/posts/sourdough-altitude/"


def _judged(html: bytes, url: str = URL, **kwargs):
    return judge_page(parse_html(html, url=url), title_only=False, explain=True, **kwargs)


def test_every_block_the_classifier_drops_has_its_score_on_the_right_side_of_its_cut(example_page):
    analysis, keep = _judged(example_page.read_bytes())
    model = default_model()
    decision, score = model.scores(tree_arrays(analysis.blocks), analysis.candidates, model_rows(analysis, model))
    seen = set()
    for row, i in enumerate(analysis.candidates):
        reason = analysis.removals.reason(i)
        if keep[i]:
            continue
        assert reason is not None, analysis.blocks[i].text
        seen.add(reason.rule)
        if reason.rule == "svm-sure-noise":
            assert reason.evidence["score"] == round(decision[row], 3) < SURE_NOISE_DECISION
        elif reason.rule == "context":
            assert reason.evidence["score"] == round(score[row], 3) < reason.evidence["cut"] == model.cut_for(analysis.page_type)
            assert reason.evidence["svm"] == round(decision[row], 3)
    assert {"svm-sure-noise", "context"} <= seen  # the nav links (sure noise) and the site header (context)


def test_the_log_does_not_change_a_verdict_on_real_pages(example_page, datasets_dir):
    """The verdict with every stage logging equals the verdict of the stages called bare (as the
    evaluation's tools call them), on the example and on held-out pages of two datasets."""
    pages = [example_page.read_bytes()]
    for name in ("dragnet", "big9"):
        folder = datasets_dir / name / "pages"
        pages += [gzip.decompress(p.read_bytes()) for p in sorted(folder.glob("*.html.gz"))[:15]]
    model = default_model()
    for html in pages:
        logged, keep = _judged(html, url="https://example.org/a")
        bare = analyse(parse_html(html, url="https://example.org/a"))
        verdict, decision, _score, _fallback = model.verdict(tree_arrays(bare.blocks), bare.candidates, model_rows(bare, model),
                                                             bare.page_type)
        plain = [False] * len(bare.blocks)
        for i, flag in zip(bare.candidates, verdict):
            plain[i] = bool(flag)
        if bare.candidates:
            bare.removals = RemovalLog()  # settle logs into a log of its own; the verdicts are compared
            settle(bare, plain, decision=decision)
        assert plain == keep
        assert all(logged.removals.reason(b.index) is not None for b in logged.blocks if not keep[b.index] and b.chars)


def test_post_rules_log_comment_sections_and_ad_labels(example_page):
    page = parse_html(example_page.read_bytes(), url=URL)
    preprocess(page)
    blocks = segment(page.root)
    keep = [True] * len(blocks)  # as if the classifier kept everything
    log = RemovalLog()
    assert drop_comment_sections(blocks, keep, log) > 0
    comment = next(b for b in blocks if b.text.startswith("Tried this at 1,800 m"))
    reason = log.reason(comment.index)
    assert reason.stage == "post-rule" and reason.rule == "comment-section"
    assert reason.evidence["marked"] == "<section> comments comments" and 0 < reason.evidence["share"] < 0.5
    assert drop_boilerplate_labels(blocks, keep, log) == 1
    ad = next(b for b in blocks if b.text == "Advertisement")
    assert log.reason(ad.index) == Removal("post-rule", "ad-label", {"label": "Advertisement"})
    assert not keep[ad.index] and not keep[comment.index]


def test_a_correction_is_the_reason_whatever_the_classifier_said(example_page, tmp_path):
    from pagesieve.corrections.rules import make_label, target_block
    from pagesieve.corrections.store import LabelStore

    analysis, keep = _judged(example_page.read_bytes())
    target = next(b for b in analysis.blocks if b.text.startswith("Tried this at 1,800 m"))
    with LabelStore(tmp_path / "labels.sqlite3") as store:
        block = target_block(analysis.blocks, analysis.page.element_by_id(), target.node_id)
        store.add(make_label(analysis.page, analysis.blocks, analysis.candidates, analysis.features, block, 0, keep=keep))
        rules = store.rules_for("hillkitchen.example")
    label = rules.labels[0]
    analysis, keep = _judged(example_page.read_bytes(), corrections=rules)
    target = next(b for b in analysis.blocks if b.text.startswith("Tried this at 1,800 m"))
    reason = analysis.removals.reason(target.index)
    assert not keep[target.index] and reason.stage == "correction" and reason.rule in ("hide-this", "hide-this-text")
    assert reason.evidence["id"] == label.id and reason.evidence["created"] == round(label.created)
    assert "Tried this at 1,800 m" in reason.evidence["snippet"]
    assert "your correction" in reason.describe() and "created 20" in reason.describe()


def _variant(html: bytes, n: int) -> bytes:
    """The example page with the article's own texts replaced by page ``n``'s, the byline and
    the house note (``p.note``) left as they are: another post of the same site."""
    root = etree.HTML(html)
    for k, el in enumerate(root.iter("h1", "h2", "p", "li", "td", "th", "figcaption", "code")):
        if el.get("class") not in ("byline", "note") and el.getparent() is not None:
            el.text = f"Post {n} says thing number {k} of its own"
    return etree.tostring(root, method="html")


# the house note just after the article, which the classifier keeps without confidence (so the
# site's template decides it: pagesieve.templates.evidence.CONFIDENT_CONTENT)
NOTE = b"</article><p class=\"note\">Every recipe on The Hill Kitchen is tested at 2,400 metres before we publish it.</p>"


def test_the_site_template_names_its_entry_and_how_many_pages_it_was_seen_on(example_page, tmp_path):
    from pagesieve.templates.evidence import CONFIDENT_CONTENT
    from pagesieve.templates.learn import summarise
    from pagesieve.templates.store import TemplateStore

    html = example_page.read_bytes().replace(b"</article>", NOTE)
    with TemplateStore(tmp_path / "t.sqlite3") as store:
        for n in range(3):
            url = f"https://hillkitchen.example/posts/{n}/"
            store.learn(summarise(parse_html(_variant(html, n), url=url)))
        templates = store.templates_for("hillkitchen.example", URL)
    analysis, keep = _judged(html, templates=templates)
    note = next(b for b in analysis.blocks if b.text.startswith("Every recipe on The Hill Kitchen"))
    alone, alone_keep = _judged(html)
    assert alone_keep[note.index]  # the classifier keeps it, unsure: the template removes it
    assert alone.content_scores[note.index] < CONFIDENT_CONTENT
    reason = analysis.removals.reason(note.index)
    assert not keep[note.index] and reason.stage == "templates" and reason.rule == "library"
    assert reason.evidence == {"pages": 3, "share": 1.0, "entry": note.text, "seen": 3, "of": 3, "batch": "open"}
    _content, noise = verdict_ids(analysis.blocks, keep)
    why = dict(zip(noise, hidden_reasons(analysis, keep)))
    assert why[note.node_id] == reason


def test_preprocessing_logs_what_it_removes(example_page):
    html = example_page.read_bytes().replace(
        b"</article>", b"<div style=\"display:none\">A hidden teaser nobody sees.</div></article>")
    analysis, keep = _judged(html)
    entries = {(e["tag"], e["rule"]): e for e in removal_log(analysis, keep) if e["stage"] == "preprocess"}
    assert set(entries) == {("input", "removed-tag"), ("button", "removed-tag"), ("div", "hidden")}
    assert entries[("div", "hidden")]["text"] == "A hidden teaser nobody sees."
    button = entries[("button", "removed-tag")]
    assert button["text"] == "Go"
    told = node_reason(analysis, keep, button["node"])
    assert told["verdict"] == "removed" and told["reason"]["rule"] == "removed-tag" and told["tag"] == "button"


def test_node_reason_tells_content_noise_and_the_block_hidden_around_a_node(example_page):
    analysis, keep = _judged(example_page.read_bytes())
    by_text = lambda start: next(b for b in analysis.blocks if b.text.startswith(start))  # noqa: E731
    kept = node_reason(analysis, keep, by_text("Lower air pressure").node_id)
    assert kept["verdict"] == "content" and kept["reason"] is None and kept["tag"] == "p"
    link = next(e for e in analysis.page.root.iter("a") if e.text == "Rye at altitude")
    hidden = node_reason(analysis, keep, analysis.page.node_id(link))
    assert hidden["verdict"] == "noise" and hidden["tag"] == "section"  # the whole related-posts section is hidden
    assert hidden["text"].startswith("You might also like Rye at altitude")
    assert hidden["reason"]["stage"] == "classifier" and hidden["reason"]["evidence"]["blocks"] >= 3  # heading and links
    assert node_reason(analysis, keep, 10**6)["verdict"] == "unknown"


def test_a_container_is_hidden_for_the_reason_of_most_of_its_text(example_page):
    analysis, keep = _judged(example_page.read_bytes())
    section = next(b for b in analysis.blocks if b.element.get("id") == "comments")
    reason = block_reason(analysis, keep, section.index)
    assert reason.stage == "classifier" and reason.rule == "svm-sure-noise" and reason.evidence["blocks"] == 10
    largest = max((b for b in analysis.blocks if b.parent >= section.index and b.index > section.index), key=lambda b: b.chars)
    assert reason.evidence["score"] == analysis.removals.reason(largest.index).evidence["score"]


def test_the_article_log_names_what_its_header_shows_instead(example_page):
    analysis, keep = _judged(example_page.read_bytes())
    render_article(analysis, keep)
    entries = removal_log(analysis, keep)
    header = {e["rule"]: e["text"] for e in entries if e["rule"].endswith("-in-header")}
    assert header == {"title-in-header": "Sourdough at Altitude: What Changes Above 2,000 Metres",
                      "byline-in-header": "By Marta Quispe · 14 March 2026"}
    assert all(e["stage"] in STAGES for e in entries)
    lines = log_lines(entries)
    assert lines[0].split() == ["block", "tag", "text", "stage", "rule", "evidence"]
    assert any("“Recipes”" in line and "svm-sure-noise" in line for line in lines)


def test_a_removal_knows_its_stages():
    with pytest.raises(ValueError, match="unknown stage"):
        Removal("magic", "x")
    assert Removal("classifier", "svm", {"score": -0.5, "cut": 0.0}).compact() == ["classifier", "svm", {"score": -0.5, "cut": 0.0}]
    assert np.isclose(Removal("classifier", "svm", {"score": 1}).evidence["score"], 1)
