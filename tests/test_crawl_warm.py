"""The batch worker warms up on a built-in page before it forks page processes
(pagesieve.crawl.pages.warm_up): what the children inherit is set up, and no answer changes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("distributed", reason="pagesieve batch needs the batch extra: pip install 'pagesieve[batch]'")

_SCRIPT = """
import json, sys
from pagesieve.classify.model_store import shipped_model
from pagesieve.crawl import pages
from pagesieve.crawl.rows import judge_record
from pagesieve.crawl.records import WarcPage
from pagesieve_dev.evaluation.datasets import load_dataset, read_page
if sys.argv[1] == "warm":
    pages.warm_up()
    assert shipped_model.cache_info().currsize == 1, "the model is not loaded by the warm-up"
ds = load_dataset(sys.argv[2])
rows = []
for pid in ds.ids[:12]:
    raw = read_page(ds, pid).encode("utf-8")
    row, keep, facts, summary = judge_record(WarcPage(f"https://example.org/{pid}", None, None, raw, "utf-8", 0),
                                             True, True, True, True)
    rows.append([row["text"], row["markdown"], row["title"], keep, summary.fingerprints if summary else None])
print(json.dumps(rows, default=str))
"""


def test_warming_up_loads_the_model_and_changes_no_answer(datasets_dir):
    """Each side in a fresh interpreter, so that the cold one really starts cold."""
    out = {}
    for mode in ("cold", "warm"):
        done = subprocess.run([sys.executable, "-c", _SCRIPT, mode, str(datasets_dir / "dragnet")],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        out[mode] = json.loads(done.stdout)
    assert len(out["cold"]) == 12 and all(r[0] for r in out["cold"])
    assert out["warm"] == out["cold"]
