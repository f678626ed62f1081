"""Issue 50 in Chromium: the toolbar button's icon and badge follow the page through hide ->
reader -> off (shortcuts, the reader's Esc, the popup's modes from the keyboard); the popup and
the options page in light and dark (screenshots); axe-core on the popup, the options page and the
reader view, light and dark: no serious or critical violation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .accessibility import RUN_AXE_JS, axe_source, pinned_version, report, serious
from .conftest import CHROMIUM, run_in_own_thread

TAB_OF = "async (url) => (await chrome.tabs.query({})).find((t) => t.url === url).id"


def looks(shown: dict, icon: str, badge: str) -> bool:
    """The button shows this icon and badge (the browser's own badge text)."""
    return shown["icon"] == icon and shown["badgeText"] == badge


def test_badge_icon_screenshots_and_accessibility_in_chromium(server, tmp_path, artifacts):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium; .ci/run does it)")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")
    from pagesieve.native.install import EXTENSION_ID
    from pagesieve_dev.evaluation.browser import chromium_with_extension

    axe = axe_source()
    origin = f"chrome-extension://{EXTENSION_ID}/pages"
    url = f"{server}/example/"
    states, axe_results = [], {}

    def drive():
        with chromium_with_extension(tmp_path / "own") as context:
            worker = context.service_workers[0]
            page = context.new_page()
            page.goto(url)
            for _ in range(150):  # the on-load work (learning the page) is over
                if context.pagesieve_send(page, {"type": "pagesieve.state"}).get("loaded"):
                    break
                page.wait_for_timeout(100)
            tab = worker.evaluate(TAB_OF, url)
            options = context.new_page()
            options.goto(f"{origin}/options.html")

            def toolbar(step):
                shown = options.evaluate("(tabId) => chrome.runtime.sendMessage({type: 'pagesieve.toolbar', tabId})", tab)
                states.append({"step": step, **shown})
                return shown

            def command(name):
                return worker.evaluate("async ([name, tabId]) => globalThis.pagesieveCommand(name, await chrome.tabs.get(tabId))", [name, tab])

            def until(check, what):
                for _ in range(100):
                    if check():
                        return
                    page.wait_for_timeout(100)
                raise AssertionError(f"waited for {what}: {states[-1:]}")

            toolbar("loaded")
            hidden = command("toggle-hide")  # Alt+Shift+H
            assert hidden["ok"] and hidden["hidden"] > 0, hidden
            until(lambda: looks(toolbar("hide"), "hide", str(hidden["hidden"])), "the badge to count the hidden parts")
            reader = command("toggle-reader")  # Alt+Shift+R
            assert reader["ok"] and reader["mode"] == "reader", reader
            until(lambda: looks(toolbar("reader"), "reader", ""), "the reader's icon")
            # the reader view, light and dark: axe on its overlay (a shadow root over the page)
            page.evaluate(axe)
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                axe_results[f"reader ({scheme})"] = page.evaluate(RUN_AXE_JS, "pagesieve-reader")
            page.emulate_media(color_scheme="light")
            page.keyboard.press("Escape")  # closes the reader view: the page is off
            until(lambda: looks(toolbar("off"), "off", ""), "the off icon after Esc")
            # the popup, from the keyboard alone: it acts on the active tab of its window, so the
            # page is made active and the popup (a tab here) reloaded
            popup = context.new_page()
            popup.goto(f"{origin}/popup.html")
            worker.evaluate("(tabId) => chrome.tabs.update(tabId, {active: true})", tab)
            popup.reload()
            popup.wait_for_selector("html[data-ready]", timeout=20000)
            assert popup.is_checked("#off")
            popup.focus("#off")
            popup.keyboard.press("ArrowRight")  # the next mode of the group: Hide noise
            popup.wait_for_selector("#showHidden:not([disabled])", timeout=20000)
            count = context.pagesieve_send(page, {"type": "pagesieve.state"})["hidden"]
            until(lambda: looks(toolbar("hide (popup)"), "hide", str(count)), "the badge after the popup's Hide noise")
            assert popup.is_checked("#hide") and popup.inner_text("#status").startswith(f"{count} parts hidden")
            facts = popup.inner_text("#site")
            assert "Site template of 127.0.0.1: learned from 1 page." == facts, facts
            assert popup.inner_text("#hostText").startswith("Host connected · 0.")
            # the shortcuts as the browser holds them: three commands, Alt+Shift+H bound
            keys = popup.evaluate("() => Object.fromEntries([...document.querySelectorAll('#shortcuts dd')].map((d) => [d.dataset.command, d.textContent]))")
            assert set(keys) == {"toggle-reader", "toggle-hide", "save-article"} and keys["toggle-hide"] == "Alt+Shift+H", keys
            popup.evaluate(axe)
            for scheme in ("light", "dark"):
                popup.emulate_media(color_scheme=scheme)
                popup.set_viewport_size({"width": 330, "height": 720})
                popup.locator("body").screenshot(path=str(artifacts / f"chromium-popup-{scheme}.png"))
                axe_results[f"popup ({scheme})"] = popup.evaluate(RUN_AXE_JS)
            popup.emulate_media(color_scheme="light")
            popup.focus("#hide")
            popup.keyboard.press("ArrowLeft")  # back to Off
            until(lambda: looks(toolbar("off (popup)"), "off", ""), "the badge to clear on Off")
            assert context.pagesieve_send(page, {"type": "pagesieve.state"})["mode"] == "off"
            options.reload()
            options.wait_for_selector("#learned tbody tr", timeout=20000)
            options.evaluate(axe)
            for scheme in ("light", "dark"):
                options.emulate_media(color_scheme=scheme)
                options.set_viewport_size({"width": 900, "height": 900})
                options.screenshot(path=str(artifacts / f"chromium-options-{scheme}.png"), full_page=True)
                axe_results[f"options ({scheme})"] = options.evaluate(RUN_AXE_JS)

    run_in_own_thread(drive)
    steps = {s["step"]: s for s in states}  # the last look of each step
    print("\n" + "\n".join(f"chromium toolbar {s['step']}: icon {s['icon']}, badge {s['badgeText']!r}, tooltip {s['tooltip']!r}" for s in steps.values()))
    print(report("chromium", axe_results))
    (artifacts / "axe-chromium.json").write_text(json.dumps(axe_results, indent=1))
    assert steps["loaded"]["icon"] == "off" and steps["loaded"]["badgeText"] == ""
    assert steps["hide"]["icon"] == "hide" and steps["hide"]["tooltip"].endswith("parts of this page hidden")
    assert steps["reader"]["badgeText"] == "" and steps["reader"]["tooltip"] == "pagesieve: reader view"
    assert steps["off"]["badgeText"] == "" and steps["off"]["tooltip"] == "pagesieve"
    assert steps["hide (popup)"]["icon"] == "hide" and steps["off (popup)"]["icon"] == "off"
    assert {r["version"] for r in axe_results.values()} == {pinned_version()}
    assert len(axe_results) == 6
    assert not serious(axe_results), serious(axe_results)
