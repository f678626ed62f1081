"""axe-core (npm, pinned in the root package.json) in the browser tests: the script to inject,
the call that runs it on a page or on one element (with its shadow root: the reader view), and
the violations summed up by impact. Chromium (test_ui.py) and Firefox (firefox/drive.mjs) run the
same call; the tests print the summary and fail on any serious or critical violation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
IMPACTS = ("critical", "serious", "moderate", "minor")

RUN_AXE_JS = """async (selector) => {
  const context = selector ? document.querySelector(selector) : document;
  const result = await axe.run(context, { resultTypes: ["violations"] });
  return { version: axe.version, checked: result.passes.length + result.violations.length + result.incomplete.length, violations: result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length,
    targets: v.nodes.slice(0, 3).map((n) => n.target),
  })) };
}"""
"""Runs axe on the document, or on the element ``selector`` names; answers ``{version, checked
(how many rules applied), violations: [{id, impact, help, nodes, targets}]}``."""


def axe_source() -> str:
    """axe.min.js, to evaluate in a page (through the driver: no page's CSP applies)."""
    if not AXE.is_file():
        pytest.skip("axe-core is not installed: npm ci at the repository root (package.json pins it); .ci/run does it")
    return AXE.read_text(encoding="utf-8")


def pinned_version() -> str:
    return json.loads((REPO / "package.json").read_text(encoding="utf-8"))["devDependencies"]["axe-core"]


def by_impact(violations: list[dict]) -> dict[str, list[str]]:
    """{impact: ["rule-id (n nodes)", ...]} for every impact, in order of severity."""
    out: dict[str, list[str]] = {impact: [] for impact in IMPACTS}
    for v in violations:
        out.setdefault(v["impact"] or "minor", []).append(f"{v['id']} ({v['nodes']})")
    return out


def report(browser: str, results: dict[str, dict]) -> str:
    """One line per checked page: its violations by impact. ``results``: name -> axe's answer."""
    lines = []
    for name, result in results.items():
        found = by_impact(result["violations"])
        counts = ", ".join(f"{impact} {len(found[impact])}" + (f" {found[impact]}" if found[impact] else "") for impact in IMPACTS)
        lines.append(f"axe-core {result['version']} {browser} {name}: {counts}")
    return "\n".join(lines)


def serious(results: dict[str, dict]) -> dict[str, list[dict]]:
    """The serious and critical violations of each checked page (none, when it passes). A page
    on which fewer than 10 rules applied was not the page meant (an empty one): it fails too."""
    assert all(r["checked"] >= 10 for r in results.values()), {name: r["checked"] for name, r in results.items()}
    found = {name: [v for v in r["violations"] if v["impact"] in ("serious", "critical")] for name, r in results.items()}
    return {name: v for name, v in found.items() if v}
