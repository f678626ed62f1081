"""The extension in Chromium, end to end: content script -> background port -> host -> page."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from pagesieve.evaluation.metric import prf_counts, tokens

WORDS_OF_DOM = "() => document.documentElement.outerHTML"


def open_page(context, url):
    page = context.new_page()
    page.goto(url)
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)  # the content script runs at document_idle
    return page


def test_hide_reader_off_on_the_example_page(chromium_context, run_mode, server, artifacts):
    page = open_page(chromium_context, f"{server}/example/")
    page.wait_for_timeout(1500)  # let the learn-on-load request (and the browser's own form scan) finish
    original = page.evaluate(WORDS_OF_DOM)
    words_before = len(page.evaluate("document.body.innerText").split())
    hidden = run_mode(page, "hide")
    assert hidden["ok"], hidden
    assert hidden["hidden"] > 0 and 0 < hidden["words"] < words_before
    visible = page.evaluate("document.body.innerText")
    assert "2,400 metres" in visible and "Tried this at 1,800 m" not in visible
    page.screenshot(path=str(artifacts / "chromium-hide.png"), caret="initial", animations="allow")
    restored = run_mode(page, "off")
    assert restored["ok"] and page.evaluate(WORDS_OF_DOM) == original
    reader = run_mode(page, "reader")
    assert reader["ok"], reader
    title = page.evaluate("() => document.querySelector('pagesieve-reader').shadowRoot.querySelector('h1').textContent")
    assert title.startswith("Sourdough at Altitude")
    page.screenshot(path=str(artifacts / "chromium-reader.png"), caret="initial", animations="allow")
    page.keyboard.press("Escape")
    assert page.evaluate("() => document.querySelector('pagesieve-reader')") is None
    assert page.evaluate(WORDS_OF_DOM) == original
    page.close()


def test_hide_keeps_the_article_on_real_pages(chromium_context, run_mode, server, datasets_dir_optional):
    import pytest

    if datasets_dir_optional is None or not (datasets_dir_optional / "dragnet").is_dir():
        pytest.skip("../shared/datasets not found")
    from pagesieve.evaluation.datasets import load_dataset, read_truth
    from pagesieve.evaluation.runner import load_split, select_ids

    split = load_split(Path(__file__).resolve().parents[2] / "models" / "split.json")  # held-out pages only
    scores = []
    for name in ("dragnet", "big9", "l3s_gn1", "cleaneval"):
        dataset = load_dataset(datasets_dir_optional / name)
        for page_id in select_ids(dataset, split)[:5]:
            page = open_page(chromium_context, f"{server}/ds/{name}/{page_id}/")
            result = run_mode(page, "hide")
            assert result["ok"], (name, page_id, result)
            text = page.evaluate("document.body.innerText")
            truth = Counter(tokens(read_truth(dataset, page_id)))
            scores.append(prf_counts(Counter(tokens(text)), truth)[2])
            page.close()
    assert len(scores) == 20
    mean = sum(scores) / len(scores)
    print(f"visible text after hide, token F1 over 20 held-out pages: {mean:.3f}")
    assert mean >= 0.9, scores


def test_host_killed_mid_request_then_the_next_request_works(chromium_context, run_mode, server):
    """The page gets an error for the request the host died on; the next one starts a new host."""
    import os
    import signal
    import subprocess
    import threading

    def kill_hosts():
        for pid in subprocess.run(["pgrep", "-f", "pagesieve.native"], capture_output=True, text=True).stdout.split():
            os.kill(int(pid), signal.SIGKILL)

    page = open_page(chromium_context, f"{server}/example/")
    failed = None
    for attempt in range(20):  # kill at growing delays until a request is caught in flight
        assert run_mode(page, "hide")["ok"]  # a host is up (started again if needed)
        run_mode(page, "off")
        timer = threading.Timer(0.002 * (attempt + 1), kill_hosts)
        timer.start()
        result = run_mode(page, "hide")
        timer.join()
        run_mode(page, "off")
        if not result["ok"]:
            failed = result
            break
    assert failed is not None and failed["error"], "no request was caught by the kill"
    again = run_mode(page, "hide")
    assert again["ok"] and again["hidden"] > 0
    page.close()


def test_popup_says_how_to_install_a_missing_host(chromium_context):
    """Without the host registered, the popup says so and shows the one command that installs it."""
    import os
    import signal
    import subprocess

    from pagesieve.native.install import EXTENSION_ID, HOST_NAME

    manifest = chromium_context.pagesieve_profile / "NativeMessagingHosts" / f"{HOST_NAME}.json"
    aside = manifest.with_suffix(".away")
    manifest.rename(aside)  # the host is not installed any more
    try:
        for pid in subprocess.run(["pgrep", "-f", "pagesieve.native"], capture_output=True, text=True).stdout.split():
            os.kill(int(pid), signal.SIGKILL)  # and the running one is gone
        popup = chromium_context.new_page()
        popup.goto(f"chrome-extension://{EXTENSION_ID}/popup.html")  # the fixed ID of the manifest key
        popup.wait_for_selector("#install", state="visible", timeout=15000)
        assert "python3 install_host.py" in popup.inner_text("#install")
        assert popup.inner_text("#status")
        popup.close()
    finally:
        aside.rename(manifest)


def test_options_page_lists_learned_sites_and_forgets_one(chromium_context, server):
    from pagesieve.native.install import EXTENSION_ID

    page = open_page(chromium_context, f"{server}/example/")
    page.wait_for_timeout(1500)  # learned on load (site 127.0.0.1)
    options = chromium_context.new_page()
    options.goto(f"chrome-extension://{EXTENSION_ID}/options.html")
    forget = options.wait_for_selector('button[data-site="127.0.0.1"]', timeout=15000)
    forget.click()
    options.wait_for_selector("text=Nothing learned yet.", timeout=15000)
    assert options.query_selector('button[data-site="127.0.0.1"]') is None
    options.close()
    page.close()
