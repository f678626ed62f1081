"""The datatrove adapter: a FineWeb-style pipeline (WarcReader -> PagesieveExtractor -> JsonlWriter)
on WARC files made from big9 pages, single page and with the templates of a ``--learn-only`` run."""

from __future__ import annotations

import gzip
import json

import pytest

pytest.importorskip("datatrove", reason="datatrove is not installed (pip install 'pagesieve[batch]')")
pytest.importorskip("distributed", reason="the batch extra (pip install 'pagesieve[batch]') is not installed")

from datatrove.executor import LocalPipelineExecutor  # noqa: E402
from datatrove.pipeline.readers import WarcReader  # noqa: E402
from datatrove.pipeline.writers import JsonlWriter  # noqa: E402

from pagesieve.crawl.datatrove import PagesieveExtractor  # noqa: E402
from pagesieve.crawl.job import BatchOptions, run_batch  # noqa: E402
from pagesieve.crawl.output import read_part  # noqa: E402
from pagesieve_dev.evaluation.datasets import load_dataset, read_page  # noqa: E402
from pagesieve_dev.evaluation.warc_fixture import write_dataset_warcs  # noqa: E402
from pagesieve.extract import extract  # noqa: E402


def _run_pipeline(folder, out, logs, extractor) -> dict[str, str]:
    LocalPipelineExecutor(
        pipeline=[WarcReader(str(folder), glob_pattern="*.warc.gz"), extractor, JsonlWriter(str(out))],
        tasks=1, logging_dir=str(logs),
    ).run()
    docs = {}
    for path in sorted(out.glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for line in f:
                doc = json.loads(line)
                docs[doc["metadata"]["url"]] = doc["text"]
    return docs


def test_datatrove_pipeline_single_page_and_with_crawl_templates(datasets_dir, tmp_path):
    big9 = load_dataset(datasets_dir / "big9")
    groups = sorted(big9.site_pages().items(), key=lambda kv: (-len(kv[1]), kv[0]))[:2]
    ids = [i for _s, g in groups for i in g[:12]]
    warcs = tmp_path / "warc"
    urls = write_dataset_warcs(big9, warcs, parts=2, ids=ids)

    single = _run_pipeline(warcs, tmp_path / "single", tmp_path / "logs1", PagesieveExtractor())
    assert set(single) == set(urls.values())
    for page_id in ids[:4]:  # exactly what `pagesieve extract` gives for the page
        assert single[urls[page_id]] == extract(read_page(big9, page_id), url=urls[page_id]).text

    tpl = tmp_path / "tpl"
    summary = run_batch(BatchOptions(inputs=[str(warcs)], out_dir=tpl, learn_only=True, workers=1, progress=False))
    assert summary.sites_with_templates == 2 and (tpl / "templates.parquet").exists()
    with_templates = _run_pipeline(warcs, tmp_path / "tpl-out", tmp_path / "logs2",
                                   PagesieveExtractor(templates=tpl / "templates.parquet"))

    full = tmp_path / "batch"
    run_batch(BatchOptions(inputs=[str(warcs)], out_dir=full, workers=1, progress=False))
    batch_text = {}
    for part in (full / "parts").glob("*.parquet"):
        for row in read_part(part).select(["url", "text"]).to_pylist():
            batch_text[row["url"]] = row["text"]
    # the datatrove step with the learned templates gives what `pagesieve batch` gives
    assert with_templates == {u: t for u, t in batch_text.items() if t}
    assert set(with_templates) == set(urls.values())
