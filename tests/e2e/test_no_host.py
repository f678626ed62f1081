"""No host registered, in Chromium: the reader view still works, in the extension's own page
(reader.html, Mozilla's Readability), with no script of the page; the popup says what needs the
host and gives the command that installs it (axe-core finds no serious or critical violation on
either); once the host is registered, the next click uses it, with no restart. (Firefox:
tests/e2e/test_firefox.py.)"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from .accessibility import RUN_AXE_JS, axe_source, report, serious
from .conftest import CHROMIUM, run_in_own_thread

HOSTILE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Harbour ferry timetable changes</title></head>
<body><nav><a href="/">Home</a> <a href="/news/">News</a></nav>
<article><h1>Harbour ferry timetable changes</h1>
<p>From Monday the harbour ferry leaves every twenty minutes instead of every half hour, the port authority said,
after a summer in which queues on the north quay grew past the ticket hall on most weekends.</p>
<script>if (location.protocol !== "http:") { document.documentElement.dataset.pageScript = "ran"; document.title = "page script ran"; }</script>
<p>The last crossing of the day moves to a quarter to midnight, and the first one to six in the morning, so that
shift workers at the container terminal can use it in both directions.</p>
<p><img src="/images/none.png" alt="the ferry" onerror="document.documentElement.dataset.pageScript = 'ran'">
<a href="javascript:document.documentElement.dataset.pageScript='ran'">timetable</a>
<a href="/timetable.pdf" onclick="document.documentElement.dataset.pageScript='ran'">the full timetable</a></p>
<p>Fares stay as they are until the end of the year; season tickets bought before Monday remain valid on every
crossing, the authority added, and the night surcharge is dropped.</p>
</article><footer>© Harbour Daily</footer></body></html>"""


def reader_tab(context, extension_id: str, seconds: float = 15):
    """The reader.html tab the extension opened (it is opened before the test hook answers)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for page in context.pages:
            if page.url.startswith(f"chrome-extension://{extension_id}/pages/reader.html?id="):
                page.wait_for_selector("html[data-ready='1']", timeout=15000)
                return page
        context.pages[0].wait_for_timeout(100)  # lets Playwright hear of new tabs (a sleep would not)
    raise AssertionError(f"no reader tab among {[p.url for p in context.pages]}")


def test_reader_without_the_host_then_the_host_comes_back(tmp_path, server, serve_page, artifacts):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium; .ci/run does it)")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")
    from pagesieve_dev.evaluation.browser import chromium_with_extension
    from pagesieve.native.install import EXTENSION_ID, install

    serve_page("/hostile/", HOSTILE)
    axe = axe_source()
    results = {}
    def drive():  # a thread of its own: see run_in_own_thread
        with chromium_with_extension(tmp_path, register_host=False) as context:
            assert not list((tmp_path / "profile").glob("NativeMessagingHosts/*.json"))
            page = context.new_page()
            page.goto(f"{server}/example/")
            before = page.evaluate("() => document.documentElement.outerHTML")
            answer = context.pagesieve_run(page, "reader")
            assert answer["ok"] and answer["withoutHost"] and answer["hostMissing"], answer
            reader = reader_tab(context, EXTENSION_ID)
            assert reader.inner_text("h1").startswith("Sourdough at Altitude")
            text = reader.inner_text("#content")
            assert "2,400 metres" in text and "Lower air pressure lets gas expand faster" in text
            assert "Tried this at 1,800 m" not in text  # the comments are not the article
            assert "pagesieve install-host" in reader.inner_text("#note")
            reader.screenshot(path=str(artifacts / "chromium-reader-without-host.png"))
            reader.evaluate(axe)
            for scheme in ("light", "dark"):
                reader.emulate_media(color_scheme=scheme)
                results[f"reader without host ({scheme})"] = reader.evaluate(RUN_AXE_JS)
            assert page.evaluate("() => document.documentElement.outerHTML") == before  # the page is left as it was
            reader.close()

            # the page's scripts, handlers and javascript: links never reach the reader page
            hostile = context.new_page()
            hostile.goto(f"{server}/hostile/")
            assert context.pagesieve_run(hostile, "reader")["withoutHost"]
            reader = reader_tab(context, EXTENSION_ID)
            text = reader.inner_text("#content")
            assert "every twenty minutes" in text and "night surcharge is dropped" in text
            found = reader.evaluate("""() => ({
                scripts: [...document.scripts].map((s) => s.getAttribute('src')),
                handlers: [...document.querySelectorAll('#content *')].flatMap((e) => [...e.attributes].map((a) => a.name)).filter((n) => n.startsWith('on')),
                links: [...document.querySelectorAll('#content a')].map((a) => a.getAttribute('href')),
                ran: document.documentElement.dataset.pageScript || null, title: document.title})""")
            assert found["scripts"] == ["../platform.js", "../vendor/readability/Readability.js", "reader.js"], found
            assert found["handlers"] == [] and found["ran"] is None and found["title"] == "Harbour ferry timetable changes", found
            assert found["links"] == [f"{server}/timetable.pdf"], found  # javascript: dropped, relative made absolute
            reader.close()

            # the popup says what needs the host and how to install it
            popup = context.new_page()
            popup.goto(f"chrome-extension://{EXTENSION_ID}/pages/popup.html")
            popup.wait_for_selector("#install", state="visible", timeout=15000)
            box = popup.inner_text("#install")
            version = json.loads((Path(__file__).resolve().parents[2] / "extension" / "manifest.json").read_text())["version"]
            assert "pagesieve install-host" in box and f"pipx install ./pagesieve-{version}-*.whl" in box, box
            assert "Reader still works without it" in " ".join(box.split()), box
            for needs in ("Hiding the noise in place", "learning sites", "corrections", "saving articles"):
                assert needs in box, (needs, box)
            popup.screenshot(path=str(artifacts / "chromium-popup-without-host.png"))
            popup.evaluate(axe)
            for scheme in ("light", "dark"):
                popup.emulate_media(color_scheme=scheme)
                results[f"popup without host ({scheme})"] = popup.evaluate(RUN_AXE_JS)
            popup.close()

            # the host is registered now: the next click uses it, without restarting anything
            install(user_data_dir=tmp_path / "profile", launcher_dir=tmp_path / "launcher", home=tmp_path)
            hidden = context.pagesieve_run(page, "hide")
            assert hidden["ok"] and hidden["hidden"] > 0 and not hidden.get("withoutHost"), hidden
            assert "Tried this at 1,800 m" not in page.evaluate("() => document.body.innerText")
            assert context.pagesieve_run(page, "reader")["ok"]
            assert page.evaluate("() => document.querySelector('pagesieve-reader') !== null")  # the host's reader, in the page

    run_in_own_thread(drive)
    # axe-core on the reader page and the popup without the host (its install box), light and dark
    print("\n" + report("chromium", results))
    assert len(results) == 4 and not serious(results), serious(results)
