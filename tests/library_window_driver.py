"""Drives the library window headless for tests/test_library_window.py (run as a subprocess).

    python tests/library_window_driver.py LIBRARY_DIR STORE_FILE WORD RESULT_JSON SCREENSHOT_PNG

Opens the window on LIBRARY_DIR (QT_QPA_PLATFORM=offscreen), reads back from the page what it
lists, types WORD into the search box and reads the results, opens the first result, reads the
text of the document its article frame shows, saves a PNG of the window, reads the personal
labels listed on the "Learned sites" page, and writes all of it to RESULT_JSON. The test asserts on that file; this script asserts nothing itself.
"""

from __future__ import annotations

import json
import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pagesieve.library.window import READY_JS, WindowDriver, run_window  # noqa: E402

TITLES_JS = "Array.from(document.querySelectorAll('#list .title')).map((e) => e.textContent)"
MARKS_JS = "Array.from(document.querySelectorAll('#list mark')).map((e) => e.textContent)"
# The article frame is sandboxed (no same-origin), so its document is read from what the page put in it.
FRAME_JS = """(() => {
  const frame = document.getElementById('article-frame');
  const doc = new DOMParser().parseFromString(frame.srcdoc, 'text/html');
  return {
    text: doc.body.textContent, title: doc.querySelector('h1') && doc.querySelector('h1').textContent,
    scripts: doc.querySelectorAll('script').length, sandbox: frame.getAttribute('sandbox'),
    width: frame.offsetWidth, height: frame.offsetHeight,
  };
})()"""


def main(folder: str, store: str, word: str, result_path: str, png: str) -> None:
    result: dict = {}

    def script(driver: WindowDriver) -> None:
        driver.wait_for(READY_JS)
        result["listed"] = driver.evaluate(TITLES_JS)
        result["count"] = driver.evaluate("document.getElementById('count').textContent")
        driver.evaluate(
            f"(() => {{ const s = document.getElementById('search'); s.value = {json.dumps(word)};"
            " s.dispatchEvent(new Event('input')); return true; })()"
        )
        driver.wait_for(f"document.body.dataset.listed === {json.dumps('search:' + word)}")
        result["found"] = driver.evaluate(TITLES_JS)
        result["marks"] = driver.evaluate(MARKS_JS)
        first = driver.evaluate("document.querySelector('#list li').dataset.id")
        driver.evaluate("document.querySelector('#list li').click(), true")
        driver.wait_for(f"document.body.dataset.opened === {json.dumps(first)}")
        result["opened"] = driver.evaluate(FRAME_JS)
        result["tags_field"] = driver.evaluate("document.getElementById('tags').value")
        time.sleep(0.5)  # let the frame paint before the picture
        result["screenshot"] = list(driver.screenshot(png))
        # the "Learned sites" page: its personal-labels table (corrections made in the browser)
        driver.evaluate("document.getElementById('tab-sites').click(), true")
        driver.wait_for("document.body.dataset.sites !== undefined")
        result["labels"] = driver.evaluate(
            "Array.from(document.querySelectorAll('#labels-table tbody tr')).map((r) => r.textContent)")

    run_window(folder, store_path=store, script=script, quit_after=90)
    with open(result_path, "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False)


if __name__ == "__main__":
    main(*sys.argv[1:6])
