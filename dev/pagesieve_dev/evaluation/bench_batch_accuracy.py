"""The F1 comparison of ``pagesieve-dev bench-batch`` (:mod:`pagesieve_dev.evaluation.bench_batch`):
per dataset, a batch run with the crawl's templates and one with ``--single-page`` on that
dataset's WARC files, each row's text scored against ``truth/<id>.txt``
(:func:`~pagesieve_dev.evaluation.metric.prf`, macro mean of :func:`~pagesieve_dev.evaluation.metric.macro`),
over all pages and over the held-out pages of ``models/split.json``.
"""

from __future__ import annotations

import shutil
from pathlib import Path


def _score(dataset, out_dir: Path, urls: dict[str, str], ids: list[str]) -> tuple[float, int]:
    """Macro F1 of the rows of a batch output over ``ids``; a page with no row scores 0. A row's
    text is the body: where the truth keeps the headline, the row's title goes in front
    (:func:`~pagesieve_dev.evaluation.scoring.scored_text`; a row holds no byline line)."""
    from pagesieve.crawl.output import read_part
    from pagesieve_dev.evaluation.datasets import read_truth
    from pagesieve_dev.evaluation.metric import macro, prf
    from pagesieve_dev.evaluation.scoring import Answer, keeps_headline, scored_text

    answer_of: dict[str, Answer] = {}
    for part in sorted((out_dir / "parts").glob("*.parquet")):
        for row in read_part(part).select(["url", "title", "text"]).to_pylist():
            answer_of[row["url"]] = Answer(row["text"] or "", (row["title"],) if row["title"] else ())
    scores = []
    for i in ids:
        truth = read_truth(dataset, i)
        if not truth.strip():
            continue
        scores.append(prf(scored_text(answer_of.get(urls[i]), keeps_headline(dataset.record(i))), truth))
    return macro(scores)[2], len(scores)


def batch_accuracy(datasets, packed, work: Path, workers: int) -> list[dict]:
    """Token F1 of ``pagesieve batch`` with templates and with ``--single-page``, per dataset, on
    one cluster of ``workers`` processes.

    Args:
        packed: the files and URLs of each dataset
            (:func:`~pagesieve_dev.evaluation.warc_fixture.pack_datasets`); work: where the
            outputs go.

    Returns:
        Per dataset: ``{"dataset", "pages", "template_all", "single_all", "n_all",
        "template_pages", "sites_with_templates"}``, and with a split file ``"template_held_out",
        "single_held_out", "n_held_out"`` (F1 the macro mean over the pages with a truth).
    """
    from pagesieve.crawl.cluster import close_client, open_client
    from pagesieve.crawl.job import BatchOptions, run_batch
    from pagesieve_dev.evaluation.selection import default_split_file, load_split, select_ids

    split_file = default_split_file()
    split = load_split(split_file) if split_file and split_file.exists() else None
    rows = []
    client = open_client(workers=workers)
    try:
        for ds in datasets:
            files, urls = packed[ds.name]
            row = {"dataset": ds.name, "pages": len(urls)}
            held_out = select_ids(ds, split) if split else []
            for label, single in (("template", False), ("single", True)):
                out = work / f"accuracy-{ds.name}-{label}"
                shutil.rmtree(out, ignore_errors=True)
                summary = run_batch(BatchOptions(inputs=[str(f) for f in files], out_dir=out, single_page=single,
                                                 progress=False), client=client)
                row[f"{label}_all"], row["n_all"] = _score(ds, out, urls, ds.ids)
                if held_out:
                    row[f"{label}_held_out"], row["n_held_out"] = _score(ds, out, urls, held_out)
                if not single:
                    row["template_pages"] = summary.template_pages
                    row["sites_with_templates"] = summary.sites_with_templates
            rows.append(row)
    finally:
        close_client(client)
    return rows
