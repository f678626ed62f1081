"""The extension in Firefox ESR, end to end, driven over WebDriver BiDi (puppeteer-core from npm,
tests/e2e/firefox/), with the host manifest in ``$HOME/.mozilla/native-messaging-hosts`` of a
temporary HOME."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from pagesieve_dev.evaluation.metric import prf_counts
from pagesieve.tokens import tokens

from .pages import CAPTION_PAGE, COLD_START_PAGES, COLD_START_RULE, COLD_START_STORY, NEWS_PAGE, serve_cold_start_pair

FIREFOX = "/usr/bin/firefox-esr"
DRIVER = Path(__file__).resolve().parent / "firefox"
UUID = "0b6c5a4e-4a3c-4f7a-9d43-0f4c7a7c1b11"


def need_firefox_and_driver() -> None:
    """Skip the test, saying why, without Firefox ESR or the BiDi driver (puppeteer-core)."""
    if not Path(FIREFOX).exists():
        pytest.skip(f"{FIREFOX} is not installed (apt-get install firefox-esr; .ci/run does it)")
    if shutil.which("node") is None or not (DRIVER / "node_modules" / "puppeteer-core").is_dir():
        pytest.skip("puppeteer-core is not installed: (cd tests/e2e/firefox && npm ci); .ci/run does it")


def drive_firefox(server, serve_page, tmp_path, artifacts, timeout: int = 300, **more) -> dict:
    """Run drive.mjs with the host installed for Firefox in a temporary HOME and a plan of no
    ``urls`` plus ``more`` (its other PLAN keys): the driver's JSON answer. Fails with the end of
    the driver's stderr when it fails."""
    from pagesieve.native.install import install

    need_firefox_and_driver()
    home = tmp_path / "home"
    install(["firefox"], home=home, launcher_dir=tmp_path / "launcher", platform="linux")
    serve_page("/control/", "<!doctype html><title>control</title><p>pagesieve test control page</p>")
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({
        "extension": str(Path(__file__).resolve().parents[2] / "extension"), "firefox": FIREFOX,
        "uuid": UUID, "screenshots": str(artifacts), "urls": [],
        "control": server.replace("127.0.0.1", "localhost") + "/control/", **more,
    }))
    env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(tmp_path / "data"), XDG_STATE_HOME=str(tmp_path / "state"))
    done = subprocess.run(["node", str(DRIVER / "drive.mjs"), str(plan)], capture_output=True, text=True,
                          env=env, timeout=timeout, cwd=DRIVER)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_hide_off_reader_and_a_correction_in_firefox(server, serve_page, tmp_path, artifacts, datasets_dir_optional):
    need_firefox_and_driver()
    from pagesieve_dev.evaluation.datasets import load_dataset, read_truth
    from pagesieve_dev.evaluation.selection import load_split, select_ids
    from pagesieve.native.install import install

    home = tmp_path / "home"
    install(["firefox"], home=home, launcher_dir=tmp_path / "launcher", platform="linux")
    urls, truths = [f"{server}/example/"], [None]
    cold_start = None
    if datasets_dir_optional is not None and (datasets_dir_optional / "dragnet").is_dir():
        paths = serve_cold_start_pair(serve_page, datasets_dir_optional)
        cold_start = {"url": f"{server}{paths[COLD_START_PAGES[0]]}", "rule": COLD_START_RULE, "story": COLD_START_STORY}
        split = load_split(Path(__file__).resolve().parents[2] / "models" / "split.json")
        for name in ("dragnet", "l3s_gn1"):
            dataset = load_dataset(datasets_dir_optional / name)
            for page_id in select_ids(dataset, split)[:3]:
                urls.append(f"{server}/ds/{name}/{page_id}/")
                truths.append(read_truth(dataset, page_id))
    for name, (hash1, hash2) in {"wall": ("8f7a6b", "bdVaJa"), "ferry": ("1c2d3e", "kNNfBx")}.items():
        serve_page(f"/ff-harbour/{name}/", NEWS_PAGE.format(
            title=f"Harbour {name} news", hash=hash1, hash2=hash2, lead=f"The {name} story starts here.",
            promo=f"Get the Harbour Daily weekend edition ({name}) for half price this month."))
    for name, caption, who in (("quay", "The quay at low water.", "A. Fisher"), ("mill", "The mill wheel turning again.", "B. Miller")):
        serve_page(f"/ff-credits/{name}/", CAPTION_PAGE.format(title=f"Harbour {name}", caption=caption, photographer=who))
    # the page that asks the extension to open its options page, from which the driver sends its
    # messages: on "localhost", another site than the pages under test (127.0.0.1), so that its
    # visit teaches their site nothing
    serve_page("/control/", "<!doctype html><title>control</title><p>pagesieve test control page</p>")
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({
        "extension": str(Path(__file__).resolve().parents[2] / "extension"), "firefox": FIREFOX,
        "uuid": UUID, "screenshots": str(artifacts), "urls": urls,
        "control": server.replace("127.0.0.1", "localhost") + "/control/",
        "correction": {"urls": [f"{server}/ff-harbour/wall/", f"{server}/ff-harbour/ferry/"],
                       "target": "weekend edition", "hidden": ".promo", "shown": "article"},
        "partCorrection": {"urls": [f"{server}/ff-credits/quay/", f"{server}/ff-credits/mill/"], "target": None,
                           "selector": ".credit", "widen": False, "hidden": ".credit", "shown": ".caption"},
        "coldStart": cold_start,
    }))
    env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(tmp_path / "data"), XDG_STATE_HOME=str(tmp_path / "state"))
    before = len(serve_page.seen)
    done = subprocess.run(["node", str(DRIVER / "drive.mjs"), str(plan)], capture_output=True, text=True,
                          env=env, timeout=600, cwd=DRIVER)
    assert done.returncode == 0, done.stderr[-2000:]
    if cold_start is not None:
        # cold start (option on, nothing of the site learned): R573's most similar link, R571,
        # is fetched once without the page's cookie, and the reader counters both share vanish
        cold = json.loads(done.stdout)["coldStart"]
        assert "session=secret" in cold["cookieSet"], cold
        assert cold["cold"]["ok"] and cold["cold"]["reference"] == f"{server}{paths[COLD_START_PAGES[1]]}", cold["cold"]
        fetched = [cookie for path, cookie in serve_page.seen[before:] if path == paths[COLD_START_PAGES[1]]]
        assert fetched == [None], serve_page.seen[before:]
        assert not cold["ruleShownCold"] and cold["storyShownCold"], cold
        assert cold["alone"]["ok"] and cold["alone"]["reference"] is None, cold["alone"]
        assert cold["ruleShownAlone"] and cold["storyShownAlone"], cold
    pages = json.loads(done.stdout)["pages"]
    assert len(pages) == len(urls)
    example = pages[0]
    assert example["hide"]["ok"], example["hide"]
    assert "2,400 metres" in example["textHidden"] and "Tried this at 1,800 m" not in example["textHidden"]
    assert example["afterOff"] == example["before"]  # "off" restores the page exactly
    assert example["reader"]["ok"] and example["readerTitle"].startswith("Sourdough at Altitude")
    assert example["afterEscape"] == example["before"]
    scores = []
    if len(pages) > 1:  # real pages: the larger ones are streamed in parts (docs/protocol.md)
        assert any(page["hide"]["timing"]["parts"] > 0 for page in pages[1:]), [p["hide"]["timing"] for p in pages[1:]]
    for page, truth in zip(pages[1:], truths[1:]):
        assert page["hide"]["ok"], (page["url"], page["hide"])
        assert page["afterOff"] == page["before"], page["url"]
        scores.append(prf_counts(Counter(tokens(page["textHidden"])), Counter(tokens(truth)))[2])
    if scores:
        assert sum(scores) / len(scores) >= 0.9, scores
    correction = json.loads(done.stdout)["correction"]
    assert correction["pick"] == {"ok": True, "picking": "p"}, correction
    assert correction["hidden"] and correction["storyShown"], correction
    assert correction["hiddenAfterReload"] and correction["hiddenOnSecondPage"] and correction["secondStoryShown"], correction
    assert correction["undo"] == {"ok": True}, correction
    # issue 54 (the tracker's 64): "Hide this" on a photo credit inside a caption paragraph names the
    # credit alone; the caption's words stay, after a reload and on the site's other page
    part = json.loads(done.stdout)["partCorrection"]
    assert part["pick"] == {"ok": True, "picking": "span.credit"}, part
    assert part["hidden"] and part["storyShown"], part
    assert part["hiddenAfterReload"] and part["hiddenOnSecondPage"] and part["secondStoryShown"], part
    assert part["undo"] == {"ok": True}, part


def test_reader_without_the_host_in_firefox(server, serve_page, tmp_path, artifacts):
    """No host registered (an empty HOME): "reader" opens the extension's own reader page with the
    article (Mozilla's Readability), the page is left as it was, the popup says what needs the host
    and gives the command that installs it; axe-core finds no serious or critical violation on
    either."""
    from .accessibility import AXE, RUN_AXE_JS, axe_source, report, serious

    need_firefox_and_driver()
    axe_source()  # skips, saying why, without npm ci
    home = tmp_path / "home"
    home.mkdir()
    serve_page("/control/", "<!doctype html><title>control</title><p>pagesieve test control page</p>")
    version = json.loads((Path(__file__).resolve().parents[2] / "extension" / "manifest.json").read_text())["version"]
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({
        "extension": str(Path(__file__).resolve().parents[2] / "extension"), "firefox": FIREFOX,
        "uuid": UUID, "screenshots": str(artifacts), "urls": [],
        "control": server.replace("127.0.0.1", "localhost") + "/control/",
        "noHost": {"url": f"{server}/example/"}, "axe": {"file": str(AXE), "run": RUN_AXE_JS},
    }))
    env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(tmp_path / "data"), XDG_STATE_HOME=str(tmp_path / "state"))
    done = subprocess.run(["node", str(DRIVER / "drive.mjs"), str(plan)], capture_output=True, text=True,
                          env=env, timeout=300, cwd=DRIVER)
    assert done.returncode == 0, done.stderr[-2000:]
    assert not (home / ".mozilla" / "native-messaging-hosts").exists()
    r = json.loads(done.stdout)["noHost"]
    assert r["reader"]["ok"] and r["reader"]["withoutHost"] and r["reader"]["hostMissing"], r["reader"]
    assert r["ready"] == "1" and r["title"].startswith("Sourdough at Altitude"), r
    assert "2,400 metres" in r["text"] and "Lower air pressure lets gas expand faster" in r["text"], r["text"]
    assert "Tried this at 1,800 m" not in r["text"]  # the comments are not the article
    assert r["scripts"] == ["../platform.js", "../vendor/readability/Readability.js", "reader.js"] and r["pageUnchanged"], r
    assert "pagesieve install-host" in r["note"]
    box = " ".join(r["install"].split())
    assert "pagesieve install-host" in box and f"pipx install ./pagesieve-{version}-*.whl" in box, box
    assert "Reader still works without it" in box and "saving articles" in box, box
    # axe-core on the reader page and the popup without the host (its install box)
    results = {"reader without host": r["axeReader"], "popup without host": r["axePopup"]}
    print("\n" + report("firefox", results))
    assert not serious(results), serious(results)


def test_show_hidden_labels_each_hidden_block_with_its_reason_in_firefox(server, serve_page, tmp_path, artifacts):
    """Issue 32 in Firefox: "Show hidden" outlines the hidden blocks in place, each labelled with
    its reason (the site's template, the user's correction of today, the classifier); Tab reaches
    the labels, the picker shows the reason of the hidden block under it, Esc ends it and the page
    is as it was hidden (tests/e2e/test_chromium.py has the same in Chromium)."""
    import datetime

    from .pages import EXPLAIN_FIX, EXPLAIN_NOTE, check_reason_labels, explain_site_pages

    pages = explain_site_pages()
    for path, html in pages.items():
        serve_page(f"/ff{path}", html)
    today = datetime.datetime.now()
    r = drive_firefox(server, serve_page, tmp_path, artifacts, showHidden={
        "urls": [f"{server}/ff{path}" for path in pages], "note": EXPLAIN_NOTE, "fix": EXPLAIN_FIX})["showHidden"]
    assert r["pickFix"]["ok"] and r["fixReason"] == "shown: pagesieve keeps this as content", r
    # the three posts and this one, learned as they loaded (before it was cleaned)
    assert r["hide"]["ok"] and r["hide"]["sitePages"] == 4 and r["hide"]["corrections"] == 1, r["hide"]
    assert EXPLAIN_NOTE not in r["textHidden"] and EXPLAIN_FIX not in r["textHidden"]
    assert r["show"] == {"ok": True, "shown": r["hide"]["hidden"]} and r["state"]["showing"], r
    assert EXPLAIN_NOTE in r["textShown"] and EXPLAIN_FIX in r["textShown"]  # shown in place
    assert r["pick"]["ok"], r["pick"]
    check_reason_labels(r["labels"], r["focused"], r["picker"], today)
    assert r["showingAfterPicker"] is True and r["showingAfterEscape"] is False
    assert r["domRestored"] and r["textRestored"]
    assert r["undo"] == {"ok": True}


def test_badge_icon_screenshots_and_accessibility_in_firefox(server, serve_page, tmp_path, artifacts):
    """Issue 50 in Firefox: the toolbar button's icon and badge through hide -> reader -> off (the
    shortcuts' toggle, the reader's Esc, the popup's modes from the keyboard); axe-core on the
    reader view, the popup and the options page, light and dark: no serious or critical violation;
    the popup and the options page in light and dark (screenshots). tests/e2e/test_ui.py has the
    same in Chromium."""
    from pagesieve.native.install import install

    from .accessibility import AXE, RUN_AXE_JS, axe_source, pinned_version, report, serious

    need_firefox_and_driver()
    axe_source()  # skips, saying why, without npm ci
    home = tmp_path / "home"
    install(["firefox"], home=home, launcher_dir=tmp_path / "launcher", platform="linux")
    serve_page("/control/", "<!doctype html><title>control</title><p>pagesieve test control page</p>")
    env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(tmp_path / "data"), XDG_STATE_HOME=str(tmp_path / "state"))
    runs = {}
    for scheme, override in (("light", 1), ("dark", 0)):
        plan = tmp_path / f"plan-{scheme}.json"
        plan.write_text(json.dumps({
            "extension": str(Path(__file__).resolve().parents[2] / "extension"), "firefox": FIREFOX,
            "uuid": UUID, "screenshots": str(artifacts), "urls": [],
            "control": server.replace("127.0.0.1", "localhost") + "/control/",
            # the example page has no script of its own to keep off; axe runs in the page's realm
            "prefs": {"layout.css.prefers-color-scheme.content-override": override, "javascript.enabled": True},
            "ui": {"url": f"{server}/example/", "scheme": scheme, "toolbar": scheme == "light"},
            "axe": {"file": str(AXE), "run": RUN_AXE_JS},
        }))
        done = subprocess.run(["node", str(DRIVER / "drive.mjs"), str(plan)], capture_output=True, text=True,
                              env=env, timeout=300, cwd=DRIVER)
        assert done.returncode == 0, done.stderr[-2000:]
        print("\n".join(line for line in done.stderr.splitlines() if "opening the page again" in line))
        runs[scheme] = json.loads(done.stdout)["ui"]
    light = runs["light"]
    states = {}
    for s in light["toolbar"]:
        states[s["step"]] = s
    print("\n" + "\n".join(f"firefox toolbar {s['step']}: icon {s['icon']}, badge {s['badgeText']!r}, tooltip {s['tooltip']!r}" for s in states.values()))
    results = {f"{name} ({scheme})": runs[scheme]["axe"][name] for name in ("reader", "popup", "options") for scheme in ("light", "dark")}
    print(report("firefox", results))
    (artifacts / "axe-firefox.json").write_text(json.dumps(results, indent=1))
    hidden = light["hidden"]
    assert hidden["ok"] and hidden["hidden"] > 0, hidden
    # each assertion names the toolbar states it read, so that a failure says what the button showed
    assert states["loaded"]["icon"] == "off" and states["loaded"]["badgeText"] == "", states
    assert states["hide"]["icon"] == "hide" and states["hide"]["badgeText"] == str(hidden["hidden"]), states
    assert states["reader"]["icon"] == "reader" and states["reader"]["badgeText"] == "" \
        and states["reader"]["tooltip"] == "pagesieve: reader view", states
    assert states["off"]["badgeText"] == "" and states["off"]["tooltip"] == "pagesieve", states
    assert states["hide (popup)"]["icon"] == "hide" and states["off (popup)"]["icon"] == "off", states
    assert light["modeAfterOff"] == "off", light["modeAfterOff"]
    popup = light["popup"]
    assert popup["hideChecked"] and popup["status"].startswith(f"{states['hide (popup)']['badgeText']} parts hidden"), popup
    assert popup["host"].startswith("Host connected · ") and popup["site"].startswith("Site template of 127.0.0.1: learned from"), popup
    assert set(popup["shortcuts"]) == {"toggle-reader", "toggle-hide", "save-article"}, popup
    assert {r["version"] for r in results.values()} == {pinned_version()}, {name: r["version"] for name, r in results.items()}
    assert not serious(results), serious(results)


def _overlays_in_firefox(server, serve_page, tmp_path, names: list[str], consent: str) -> list[dict]:
    """Drive Firefox over the overlay fixtures ``names`` (drive.mjs, plan "overlays") with the
    consent option ``consent``; each fixture's results."""
    from pagesieve.native.install import install

    from .overlays import FIXTURES, READER_TEXT_JS, STORY_TOP_JS, VISIBLE_LAYERS_JS, page_html
    from .test_overlays import DOM_JS, SCREENSHOTS, SHOT_FIXTURES

    need_firefox_and_driver()
    home = tmp_path / "home"
    install(["firefox"], home=home, launcher_dir=tmp_path / "launcher", platform="linux")
    serve_page("/control/", "<!doctype html><title>control</title><p>pagesieve test control page</p>")
    fixtures = []
    for name in names:
        serve_page(f"/ff-overlay-{consent}/{name}/", page_html(name))
        fixtures.append({"name": name, "url": f"{server}/ff-overlay-{consent}/{name}/", "lock": bool(FIXTURES[name].lock),
                         "shot": str(SCREENSHOTS / f"firefox-overlays-{name}") if name in SHOT_FIXTURES and consent == "off" else None})
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({
        "extension": str(Path(__file__).resolve().parents[2] / "extension"), "firefox": FIREFOX,
        "uuid": UUID, "screenshots": None, "urls": [], "pageScripts": True,
        "control": server.replace("127.0.0.1", "localhost") + "/control/",
        "overlays": {"fixtures": fixtures, "consent": consent, "js": {"visible": VISIBLE_LAYERS_JS, "top": STORY_TOP_JS,
                                                                      "reader": READER_TEXT_JS, "dom": DOM_JS}},
    }))
    env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(tmp_path / "data"), XDG_STATE_HOME=str(tmp_path / "state"))
    done = subprocess.run(["node", str(DRIVER / "drive.mjs"), str(plan)], capture_output=True, text=True,
                          env=env, timeout=900, cwd=DRIVER)
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(done.stdout)["overlays"]
    assert [r["name"] for r in results] == names
    return results


def test_autoconsent_refuses_and_never_accepts_in_firefox(server, serve_page, tmp_path, artifacts):
    """The consent managers' fixtures with the consent option "optout" (the default): autoconsent
    refuses where it has a rule (the page records "rejected"), never accepts, and whatever it
    leaves is hidden by the layer stage (tests/e2e/test_overlays.py has the same in Chromium)."""
    from .overlays import FIXTURES, STORY
    from .test_overlays import CMP_FIXTURES, record

    results = _overlays_in_firefox(server, serve_page, tmp_path, CMP_FIXTURES, "optout")
    for r in results:
        consent = r["hide"]["consent"]
        assert r["hide"]["ok"] and r["answered"] != "accepted", (r["name"], r["hide"], r["answered"])
        if consent["action"] == "opted-out":
            assert r["answered"] == "rejected", (r["name"], consent)
        assert r["layersAfter"] == [], (r["name"], r["layersAfter"])
        assert all(sentence in r["textHidden"] for sentence in STORY), r["name"]
        assert FIXTURES[r["name"]].texts[0][:40] not in r["textHidden"], r["name"]
        assert r["wheelAfter"], r["name"]
        record(artifacts, "firefox", r["name"], "optout", {"consent": consent, "answered": r["answered"],
                                                           "layers": r["hide"]["layers"], "visible": r["layersAfter"],
                                                           "scrolls": r["wheelAfter"]})
    assert sum(r["hide"]["consent"]["action"] == "opted-out" for r in results) >= 5


def test_layers_over_the_page_are_hidden_the_wheel_scrolls_and_off_restores_in_firefox(server, serve_page, tmp_path, artifacts):
    """Issue 48 in Firefox (tests/e2e/test_overlays.py has the same in Chromium): on each overlay
    fixture, "hide" leaves no fixed or sticky layer visible and the story whole, the wheel scrolls
    the page it could not scroll before, "off" puts back the DOM and the lock, and the reader holds
    the story and none of the layers' text."""
    from .overlays import FIXTURES, STORY
    from .test_overlays import record

    results = _overlays_in_firefox(server, serve_page, tmp_path, list(FIXTURES), "off")
    for r in results:
        fixture = FIXTURES[r["name"]]
        assert r["layersBefore"], r["name"]  # the fixture shows its layers: the test can fail
        assert r["hide"]["ok"], (r["name"], r["hide"])
        assert r["layersAfter"] == [], (r["name"], r["layersAfter"])
        assert all(sentence in r["textHidden"] for sentence in STORY), r["name"]
        assert not [t for t in fixture.texts if t[:40] in r["textHidden"]], r["name"]
        assert r["wheelAfter"], r["name"]
        assert r["state"]["unlocked"] == bool(fixture.lock), (r["name"], r["state"])
        if fixture.lock:
            assert r["wheelBefore"] is False and r["wheelAfterOff"] is False, r["name"]
        assert r["afterOff"] == r["before"] and r["afterReader"] == r["before"], r["name"]
        assert r["reader"]["ok"] and all(sentence in r["readerText"] for sentence in STORY), r["name"]
        assert not [t for t in fixture.texts if t[:40] in r["readerText"]], r["name"]
        assert r["hide"]["consent"] == {"cmp": None, "action": "off"}, r["name"]
        record(artifacts, "firefox", r["name"], "layers", {"layers": r["hide"]["layers"], "visible": r["layersAfter"],
                                                           "scrolls": r["wheelAfter"]})
