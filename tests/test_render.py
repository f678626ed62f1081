"""``pagesieve-dev render``: dataset pages through headless Chromium and extension/content/snapshot.js."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from pagesieve_dev.evaluation.browser import CHROMIUM

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is not installed (apt-get install chromium)")

PAGE = """<!doctype html><html><head><meta charset="windows-1252"><title>Boxes</title>
<style>body { margin: 0 } #nav { position: absolute; left: 0; top: 0; width: 200px; height: 50px }
#main { position: absolute; left: 300px; top: 400px; width: 700px } .gone { display: none }</style></head>
<body><div id="nav"><a href="/">Home</a></div>
<div id="main"><p>Caf\xe9 au lait is what the main text is about, here in the middle of the page.</p></div>
<div class="gone"><p>never shown</p></div>
<script>document.getElementById("main").textContent = "scripts ran";</script>
</body></html>"""


def _dataset(folder: Path, pages: dict[str, bytes]) -> Path:
    (folder / "pages").mkdir(parents=True)
    (folder / "truth").mkdir()
    rows = []
    for page_id, html in pages.items():
        (folder / "pages" / f"{page_id}.html.gz").write_bytes(gzip.compress(html))
        (folder / "truth" / f"{page_id}.txt").write_text("Café au lait", encoding="utf-8")
        rows.append(json.dumps({"id": page_id, "site": "example.org", "url": f"https://example.org/{page_id}", "lang": "en"}))
    (folder / "index.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return folder


def test_render_a_dataset_into_snapshots_with_boxes_cached(tmp_path):
    pytest.importorskip("playwright.async_api", reason="playwright is not installed (pip install -e '.[test]')")
    from pagesieve_dev.evaluation.render import VIEWPORT, load_rendered, render_dataset, snapshot_path
    from pagesieve.extract import extract_page
    from pagesieve.page.snapshot import parse_snapshot

    refresh = PAGE.replace("<title>", '<meta http-equiv="refresh" content="0; url=https://elsewhere.example/"><title>')
    dataset = _dataset(tmp_path / "ds", {
        "a": PAGE.encode("windows-1252"), "b": PAGE.replace("Boxes", "Second").encode("windows-1252"),
        "refresh": refresh.encode("windows-1252"),  # a page that navigates away stays where it is
    })
    out = tmp_path / "out"
    report = render_dataset(dataset, out, workers=2)
    assert (report.rendered, report.cached, report.errors) == (3, 0, 0)
    assert load_rendered(out, "refresh")["title"] == "Boxes"
    snap = load_rendered(out, "a")
    assert snap["url"] == "https://example.org/a" and snap["render"]["viewport"] == list(VIEWPORT)
    assert snap["viewport"] == {"width": VIEWPORT[0], "height": VIEWPORT[1]}
    page = parse_snapshot(snap)
    by_dom_id = {el.get("id"): int(el.get("data-ps-id")) for el in page.root.iter() if el.get("id")}
    assert page.boxes[by_dom_id["nav"]].width == 200 and page.boxes[by_dom_id["nav"]].height == 50
    main = page.boxes[by_dom_id["main"]]
    assert (main.x, main.y, main.width) == (300, 400, 700)
    article = extract_page(page)
    assert "Café au lait" in article.text  # decoded as pagesieve decodes it; page scripts never ran
    assert "scripts ran" not in article.text and "never shown" not in article.text
    # a cache: nothing is rendered again, unless forced
    before = snapshot_path(out, "a").stat().st_mtime_ns
    again = render_dataset(dataset, out)
    assert (again.rendered, again.cached) == (0, 3) and snapshot_path(out, "a").stat().st_mtime_ns == before
    assert render_dataset(dataset, out, force=True, limit=1).rendered == 1


def test_a_page_that_cannot_be_rendered_gets_an_error_entry(tmp_path):
    pytest.importorskip("playwright.async_api", reason="playwright is not installed (pip install -e '.[test]')")
    from pagesieve_dev.evaluation.render import error_path, load_rendered, render_dataset

    dataset = _dataset(tmp_path / "ds", {"slow": PAGE.encode("windows-1252")})
    report = render_dataset(dataset, tmp_path / "out", timeout_s=0.001)
    assert report.errors == 1 and report.rendered == 0
    entry = json.loads(error_path(tmp_path / "out", "slow").read_text(encoding="utf-8"))
    assert entry["id"] == "slow" and "Timeout" in entry["error"]
    assert load_rendered(tmp_path / "out", "slow") is None
    # the error entry is cached too; a normal run with --force renders it and removes the entry
    assert render_dataset(dataset, tmp_path / "out").cached == 1
    assert render_dataset(dataset, tmp_path / "out", force=True).rendered == 1
    assert not error_path(tmp_path / "out", "slow").exists()
