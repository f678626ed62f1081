"""The extension's JavaScript unit tests (tests/js/*.test.js, Node's own test runner): the parts of
extension/ that need no browser (the named channels, the host requests a script may send, the
native port, the reason labels of "Show hidden" and the picker, the cold start's link rule, the
snapshot's markup on a stand-in DOM, the content scripts loaded in the manifest's order, the
background's wiring) run in Node, so that
the repository's one test command runs them too."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
JS_TESTS = sorted((REPO / "tests" / "js").glob("*.test.js"))


def test_node_runs_the_extension_javascript_tests():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (apt-get install nodejs; .ci/run's npm ci needs it as well)")
    assert JS_TESTS, "no tests/js/*.test.js"
    done = subprocess.run([node, "--test", "--test-reporter=tap", *map(str, JS_TESTS)],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    summary = dict(re.findall(r"^# (tests|pass|fail|cancelled|skipped|todo) (\d+)$", done.stdout, re.M))
    failed = [line for line in done.stdout.splitlines() if line.lstrip().startswith("not ok")]
    assert done.returncode == 0 and summary.get("fail") == "0", (failed, done.stdout[-3000:], done.stderr[-2000:])
    # every test ran and passed: none skipped, none left to do
    assert int(summary["pass"]) == int(summary["tests"]) >= 40, summary
