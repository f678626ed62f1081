"""``pagesieve-dev eval --history``: the protocol on real pages (big9, per-site groups)."""

from __future__ import annotations

from pagesieve_dev.evaluation.datasets import load_dataset, read_page
from pagesieve_dev.evaluation.history import HistoryExtractor
from pagesieve.extract import extract


def test_history_protocol_on_real_pages(datasets_dir):
    dataset = load_dataset(datasets_dir / "big9")
    page_id = dataset.ids[0]
    site = dataset.record(page_id).site
    history = HistoryExtractor(dataset, 3)
    try:
        learned = history.history_of(page_id)
        assert len(learned) == 3 and page_id not in learned
        assert {dataset.record(i).site for i in learned} == {site}
        assert learned == history.history_of(page_id)  # fixed seed
        history.prepare(page_id)
        [info] = history.store.sites()
        assert info.pages == 3
        html = read_page(dataset, page_id)
        assert history(html, None).body.strip()  # an Answer: the body (and the header)
        everything = HistoryExtractor(dataset, None)
        try:
            assert len(everything.history_of(page_id)) == 39
        finally:
            everything.close()
    finally:
        history.close()
    none = HistoryExtractor(dataset, 0)
    try:
        none.prepare(page_id)
        assert none.store.sites() == []
        assert none(html, None).body == extract(html).text  # no history: the single-page answer
    finally:
        none.close()


def test_eval_history_command(datasets_dir, capsys):
    from pagesieve_dev.cli import main

    code = main(["eval", str(datasets_dir / "big9"), "--history", "3", "--limit", "3", "--json", "--templates", "library,diff"])
    assert code == 0
    out = capsys.readouterr().out
    assert '"pages": 3' in out and '"f1"' in out


def test_eval_cold_start_compares_each_page_with_the_page_it_links_to(datasets_dir, capsys):
    import json

    from pagesieve_dev.cli import main
    from pagesieve_dev.evaluation.history import ColdStartExtractor
    from pagesieve.page.html import parse_html

    dataset = load_dataset(datasets_dir / "dragnet")
    cold = ColdStartExtractor(dataset)
    page = parse_html(read_page(dataset, "R513"), url=dataset.record("R513").url)
    templates = cold.templates(page, "R513")
    assert templates.fetched and templates.reference_url == dataset.record("R514").url and cold.referenced == ["R513"]
    assert len(templates.reference) > 50  # R514's block fingerprints
    lone = dataset.ids[0]  # a page whose links lead to no page of the dataset gets no reference
    page = parse_html(read_page(dataset, lone), url=dataset.record(lone).url)
    assert cold.templates(page, lone) is None

    code = main(["eval", str(datasets_dir / "dragnet"), "--split", "all", "--where", "site=blogs.nfl.com", "--cold-start", "--json"])
    assert code == 0
    captured = capsys.readouterr()
    [row] = json.loads(captured.out)["datasets"]
    assert row["pages"] == 23 and 0 < row["f1"] < 1
    referenced = int(captured.err.split("dragnet: ")[1].split(" of 23")[0])
    assert referenced >= 10, captured.err


def test_bench_learn_learns_real_sites_from_snapshots_and_html(datasets_dir, capsys):
    """`pagesieve-dev bench-learn` learns each big9 site as the host does (from snapshots) or from
    HTML; after 11 visits a batch of 10 has closed, so every site has template entries."""
    from pagesieve_dev.cli import main

    for extra, source in (([], "learned from snapshots"), (["--html"], "learned from HTML")):
        assert main(["bench-learn", str(datasets_dir / "big9"), "--pages", "11", *extra]) == 0
        out = capsys.readouterr().out
        rows = [line.split() for line in out.splitlines() if line.split()[:2] and line.split()[1] == "11"]
        assert len(rows) == 7, out  # one row per big9 site
        assert all(int(row[6]) > 0 and int(row[7]) > 0 for row in rows), out  # entries, site bytes
        assert source in out
        total = next(line.split() for line in out.splitlines() if line.startswith("all "))
        assert total[1] == "77" and float(total[2]) > 0


def test_template_ceiling_removes_recurring_noise_and_keeps_recurring_article_text(datasets_dir):
    """The perfect template of `--template-ceiling` on blogs.nfl.com (dragnet, 23 pages):
    "Posted in: News | comments |" recurs on other pages of the site and is not in R513's
    truth, so it goes; the comment rules recur on every page too, but the truth counts them as
    the article's, so they stay."""
    from pagesieve_dev.evaluation.ceiling import TemplateCeiling, token_line

    assert token_line("Updated 12:05, May 3rd") == " updated 0 0 may 0 "
    dataset = load_dataset(datasets_dir / "dragnet")
    html, url = read_page(dataset, "R513"), dataset.record("R513").url
    single = extract(html, url).text
    ceiling = TemplateCeiling(dataset, lambda h, u: extract(h, u).text)
    ceiling.prepare("R513")
    bounded = ceiling(html, url)
    assert "Posted in: News | comments |" in single.splitlines()
    assert "Posted in: News | comments |" not in bounded.splitlines()
    rules = "Comments may be no longer than 2000 characters"
    assert rules in single and rules in bounded
    assert ceiling.removed_lines >= 1
    assert set(bounded.splitlines()) < set(single.splitlines())
    # a page of no site, or alone in its site, is left as it is
    for lone in (next(r.id for r in dataset.rows if r.site is None),
                 next(r.id for r in dataset.rows if r.site == "vitals.nbcnews.com")):
        ceiling.prepare(lone)
        lone_html = read_page(dataset, lone)
        assert ceiling(lone_html, None) == extract(lone_html).text


def test_eval_template_ceiling_bounds_history_all(datasets_dir, capsys):
    """On blogs.nfl.com the learned templates remove comment rules that dragnet's truth counts,
    so `--history all` stays under single page, while the ceiling is above it."""
    import json

    from pagesieve_dev.cli import main

    base = [str(datasets_dir / "dragnet"), "--split", "all", "--where", "site=blogs.nfl.com", "--json"]
    assert main(["eval", *base, "--template-ceiling"]) == 0
    [row] = json.loads(capsys.readouterr().out)["datasets"]
    assert row["template_ceiling"]["removed_lines"] > 0
    assert row["template_ceiling"]["f1"] > row["f1"]
    assert main(["eval", *base, "--history", "all"]) == 0
    [history] = json.loads(capsys.readouterr().out)["datasets"]
    assert history["f1"] < row["template_ceiling"]["f1"]


def test_template_stage_learns_from_training_pages_and_reads_the_evidence(datasets_dir):
    """The third stage of ``--template-stage`` (evidence as features): its history never reads
    a held-out page, and the evidence columns change its verdicts (the control's do not)."""
    import numpy as np

    from pagesieve.classify.model_store import default_model
    from pagesieve_dev.evaluation.evidence_stage import EVIDENCE_FEATURES, SCORE_FEATURES, fit_stage, training_rows
    from pagesieve_dev.evaluation.selection import default_split_file, load_split

    split = load_split(default_split_file())
    train = frozenset(split["dragnet"]["train"])
    dataset = load_dataset(datasets_dir / "dragnet")
    history = HistoryExtractor(dataset, None, only=train)
    try:
        learned = [history.history_of(i) for i in sorted(train)]
        assert any(learned)
        assert all(set(h) <= train for h in learned)
        assert all(i not in h for i, h in zip(sorted(train), learned))
    finally:
        history.close()

    rows, y, pages = training_rows(datasets_dir, split, default_model(), limit=40)
    assert pages > 20 and rows.shape == (len(y), len(SCORE_FEATURES) + len(EVIDENCE_FEATURES))
    assert set(np.unique(y)) == {0, 1}
    with_evidence = fit_stage(rows, y, pages)
    control = fit_stage(rows, y, pages, with_evidence=False)
    assert control.names == SCORE_FEATURES
    blank = rows.copy()
    blank[:, len(SCORE_FEATURES):] = 0.0
    has_evidence = rows[:, len(SCORE_FEATURES):].any(axis=1)
    assert has_evidence.sum() > 100
    assert not np.allclose(with_evidence.probability(rows[has_evidence]), with_evidence.probability(blank[has_evidence]))
    assert np.array_equal(control.probability(rows), control.probability(blank))


def test_template_stage_with_the_classifiers_cut_gives_the_removal_path(datasets_dir):
    """A stage that cuts the context probability at the shipped model's cut for the page's type
    (:meth:`~pagesieve.classify.classifier.BlockClassifier.cut_for`) and reads nothing else
    judges a templated page as the shipped path does (classifier, page rules, then removal)."""
    import numpy as np

    from pagesieve.classify.model_store import default_model
    from pagesieve_dev.evaluation.evidence_stage import SCORE_FEATURES, EvidenceStage, judge_with_stage
    from pagesieve.extract import judge_page
    from pagesieve.page.html import parse_html

    dataset = load_dataset(datasets_dir / "dragnet")
    history = HistoryExtractor(dataset, None)
    try:
        checked = 0
        for page_id in ("R513", "R500", "R510"):
            history.prepare(page_id)
            record = dataset.record(page_id)
            templates = history.templates(record.url)
            html = read_page(dataset, page_id)
            model = default_model()
            analysis, shipped = judge_page(parse_html(html, url=record.url), model, templates)
            page_cut = model.cut_for(analysis.page_type)  # the cut of the page's type (models/README.md)
            assert 0.0 < page_cut < 1.0
            cut = EvidenceStage(np.array([1000.0, 0.0, 0.0]), -1000.0 * page_cut, (0, 1, 2), SCORE_FEATURES, 0, 0)
            _, by_stage = judge_with_stage(parse_html(html, url=record.url), model, templates, cut)
            assert by_stage == shipped
            checked += sum(shipped)
        assert checked > 20
    finally:
        history.close()


def test_eval_template_stage_needs_history(datasets_dir, capsys):
    from pagesieve_dev.cli import main

    assert main(["eval", str(datasets_dir / "big9"), "--limit", "2", "--template-stage", "evidence"]) == 6
    assert "--template-stage needs --history" in capsys.readouterr().err
