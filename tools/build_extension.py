#!/usr/bin/env python3
"""Build the packaged extension from extension/: one .xpi for Firefox, one .zip for Chromium.

    npm ci && python3 tools/build_extension.py      # (or: npm run build)
    -> dist/pagesieve-firefox-VERSION.xpi   (web-ext build)
       dist/pagesieve-chromium-VERSION.zip  (Chrome's "pack the folder as a zip")

Each browser gets its own copy of extension/ under build/extension/<browser>/ with the manifest
keys the other browser reads left out (Firefox: no "key", no background "service_worker", which it
ignores; Chromium: no "browser_specific_settings", no background "scripts"); both keep the
background's "type": "module" (background/main.js imports its modules). The gecko id and the
Chromium key stay fixed (pagesieve.native.install.GECKO_ID and EXTENSION_KEY: the host manifests
admit exactly these). Before building it checks that the host (pyproject.toml), the extension
(manifest.json) and package.json carry one version, and that the vendored Readability
(extension/vendor/readability/) and the bundled @duckduckgo/autoconsent with its rules
(extension/vendor/autoconsent/, made from node_modules: nothing is fetched at run time) are the
ones package.json pins; then `web-ext lint` on the Firefox copy must report 0 errors.

The icons are made here too, from the one source extension/icons/pagesieve.svg: the PNGs
(16, 32, 48 and 128 px, and each state of the toolbar button) are rendered into each browser's
copy by tools/render_icons.mjs with resvg (npm @resvg/resvg-js, pinned in package.json); no PNG
is kept in the repository. --icons renders them into extension/icons/ alone, for loading the
unpacked extension/ folder (the browser tests do it; git ignores them).

--chromium-only builds the zip alone (no web-ext: the tests that load it in Chromium; Node and
`npm ci` still, for the icons); --lint-only lints; --vendor first copies Readability and bundles
autoconsent from node_modules/ (after `npm ci`).
Exit status 1 with one line on standard error when a check fails.
"""

from __future__ import annotations

import argparse
import copy
import filecmp
import json
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXTENSION = REPO / "extension"
READABILITY = ("Readability.js", "LICENSE.md")
"""The files of npm @mozilla/readability vendored into extension/vendor/readability/."""

AUTOCONSENT = "@duckduckgo/autoconsent"
"""The npm package that answers consent pop-ups (content/consent.js); bundled into
extension/vendor/autoconsent/autoconsent.js by :func:`autoconsent_bundle`."""

ZIP_TIME = (2020, 1, 1, 0, 0, 0)
"""Every zip entry gets this time, so that one tree always gives the same bytes."""


class BuildError(Exception):
    """A check before the build failed, or a build step failed (the message says which)."""


def versions(repo: Path = REPO) -> dict[str, str]:
    """The version of each part: {"pyproject.toml", "extension/manifest.json", "package.json",
    "pagesieve.__version__"} -> version string."""
    init = (repo / "host/pagesieve/__init__.py").read_text(encoding="utf-8")
    module = next(line.split("=", 1)[1].strip().strip("\"'") for line in init.splitlines() if line.startswith("__version__"))
    return {
        "pyproject.toml": tomllib.loads((repo / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"],
        "extension/manifest.json": json.loads((repo / "extension/manifest.json").read_text(encoding="utf-8"))["version"],
        "package.json": json.loads((repo / "package.json").read_text(encoding="utf-8"))["version"],
        "pagesieve.__version__": module,
    }


def version(repo: Path = REPO) -> str:
    """The one version of host and extension. Raises BuildError when the parts disagree."""
    found = versions(repo)
    if len(set(found.values())) != 1:
        raise BuildError("the parts carry different versions: " + ", ".join(f"{k} {v}" for k, v in found.items()))
    return next(iter(found.values()))


def browser_manifest(manifest: dict, browser: str) -> dict:
    """extension/manifest.json as ``browser`` ("firefox" or "chromium") gets it."""
    out = copy.deepcopy(manifest)
    if browser == "firefox":
        out.pop("key", None)
        out["background"].pop("service_worker", None)
    elif browser == "chromium":
        out.pop("browser_specific_settings", None)
        out["background"].pop("scripts", None)
    else:
        raise ValueError(f"unknown browser {browser!r}")
    return out


def render_icons(target: Path) -> list[str]:
    """Render the icon source (extension/icons/pagesieve.svg) to the PNGs the manifest and the
    background name, into ``target``; returns their names. Raises BuildError without Node or
    resvg (npm ci)."""
    if shutil.which("node") is None:
        raise BuildError("node is not installed: the icons are rendered with Node (18 or newer)")
    if not (REPO / "node_modules/@resvg/resvg-js").is_dir():
        raise BuildError("@resvg/resvg-js is not installed: run npm ci (package.json pins it)")
    done = subprocess.run(["node", str(REPO / "tools/render_icons.mjs"), str(target)], capture_output=True, text=True, cwd=REPO)
    if done.returncode != 0:
        raise BuildError(f"the icons could not be rendered: {done.stderr[-500:]}")
    return done.stdout.split()


def stage(browser: str, out: Path) -> Path:
    """A copy of extension/ for ``browser`` in ``out`` (emptied first), with its icons rendered
    (the PNGs alone: the SVG source stays out); returns ``out``."""
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(EXTENSION, out, ignore=shutil.ignore_patterns(".*", "*~", "*.svg", "*.png"))
    render_icons(out / "icons")
    manifest = json.loads((EXTENSION / "manifest.json").read_text(encoding="utf-8"))
    (out / "manifest.json").write_text(json.dumps(browser_manifest(manifest, browser), indent=2) + "\n", encoding="utf-8")
    return out


def write_zip(folder: Path, target: Path) -> Path:
    """Zip ``folder``'s files (relative names, sorted, fixed times) into ``target`` atomically."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(path.relative_to(folder).as_posix(), ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, path.read_bytes())
    tmp.replace(target)
    return target


def check_readability(repo: Path = REPO) -> str:
    """The vendored Readability is the version package.json pins (and, after `npm ci`, the same
    bytes as node_modules' copy); returns that version. Raises BuildError otherwise."""
    pinned = json.loads((repo / "package.json").read_text(encoding="utf-8"))["dependencies"]["@mozilla/readability"]
    vendored = repo / "extension/vendor/readability"
    note = (vendored / "VERSION").read_text(encoding="utf-8").strip() if (vendored / "VERSION").is_file() else None
    if note != pinned:
        raise BuildError(f"extension/vendor/readability/VERSION is {note}, package.json pins {pinned}: run tools/build_extension.py --vendor")
    installed = repo / "node_modules/@mozilla/readability"
    if installed.is_dir():
        got = json.loads((installed / "package.json").read_text(encoding="utf-8"))["version"]
        if got != pinned:
            raise BuildError(f"node_modules has @mozilla/readability {got}, package.json pins {pinned}: run npm ci")
        for name in READABILITY:
            if not filecmp.cmp(installed / name, vendored / name, shallow=False):
                raise BuildError(f"extension/vendor/readability/{name} differs from node_modules': run tools/build_extension.py --vendor")
    return pinned


def vendor(repo: Path = REPO) -> None:
    """Copy Readability.js and its licence from node_modules/ into extension/vendor/readability/."""
    installed = repo / "node_modules/@mozilla/readability"
    if not installed.is_dir():
        raise BuildError("node_modules/@mozilla/readability is missing: run npm ci first")
    target = repo / "extension/vendor/readability"
    target.mkdir(parents=True, exist_ok=True)
    for name in READABILITY:
        shutil.copyfile(installed / name, target / name)
    got = json.loads((installed / "package.json").read_text(encoding="utf-8"))["version"]
    (target / "VERSION").write_text(got + "\n", encoding="utf-8")


def autoconsent_bundle(installed: Path) -> str:
    """The content script that carries autoconsent, made from its npm package at ``installed``:
    its ES module build (dist/autoconsent.esm.js, which imports nothing) with the closing export
    list replaced by ``globalThis.pagesieveAutoconsent = {AutoConsent, filterCompactRules,
    rules}``, ``rules`` its compact rule set (rules/compact-rules.json), all in one function
    scope. Raises BuildError when the module's shape is not the one this expects."""
    import re

    version = json.loads((installed / "package.json").read_text(encoding="utf-8"))["version"]
    module = (installed / "dist/autoconsent.esm.js").read_text(encoding="utf-8")
    exports = re.search(r"\nexport \{[^}]*\};?\s*$", module)
    if exports is None or re.search(r"^\s*import\b", module, re.M) or "AutoConsent as default" not in exports.group(0):
        raise BuildError(f"{AUTOCONSENT} {version}: dist/autoconsent.esm.js is not one module with a closing export list")
    rules = json.loads((installed / "rules/compact-rules.json").read_text(encoding="utf-8"))
    return (f"// {AUTOCONSENT} {version} (MPL-2.0, LICENSE beside this file), bundled by tools/build_extension.py\n"
            "// --vendor from node_modules: dist/autoconsent.esm.js and rules/compact-rules.json. Do not edit.\n"
            "(function () {\n\"use strict\";\n" + module[:exports.start()] + "\n"
            "globalThis.pagesieveAutoconsent = { AutoConsent, filterCompactRules, version: " + json.dumps(version) + ",\n"
            "  rules: " + json.dumps(rules, separators=(",", ":"), ensure_ascii=False) + " };\n})();\n")


def autoconsent_snippets(installed: Path) -> str:
    """The ES module of autoconsent's page snippets (``export const snippets``), for the
    background: the functions some rules run in the page's own world to ask its consent manager's
    script (``window.Cookiebot.withdraw()``). Cut from dist/autoconsent.esm.js (its top-level
    ``var snippets = {...};``); each is run by its name alone (content/consent.js), never as text
    a page could send. Raises BuildError when the block is not found."""
    import re

    module = (installed / "dist/autoconsent.esm.js").read_text(encoding="utf-8")
    found = re.search(r"^var snippets = \{\n.*?^\};\n", module, re.M | re.S)
    if found is None:
        raise BuildError(f"{AUTOCONSENT}: no top-level 'var snippets = {{...}};' in dist/autoconsent.esm.js")
    version = json.loads((installed / "package.json").read_text(encoding="utf-8"))["version"]
    return (f"// {AUTOCONSENT} {version} (MPL-2.0): its page snippets, cut from dist/autoconsent.esm.js by\n"
            "// tools/build_extension.py --vendor. Do not edit.\n"
            "export const " + found.group(0)[len("var "):])


def check_autoconsent(repo: Path = REPO) -> str:
    """The bundled autoconsent is the version package.json pins (and, after `npm ci`, the bundle
    :func:`autoconsent_bundle` makes of node_modules' copy); returns that version. Raises
    BuildError otherwise."""
    pinned = json.loads((repo / "package.json").read_text(encoding="utf-8"))["dependencies"][AUTOCONSENT]
    vendored = repo / "extension/vendor/autoconsent"
    note = (vendored / "VERSION").read_text(encoding="utf-8").strip() if (vendored / "VERSION").is_file() else None
    if note != pinned:
        raise BuildError(f"extension/vendor/autoconsent/VERSION is {note}, package.json pins {pinned}: run tools/build_extension.py --vendor")
    installed = repo / "node_modules" / AUTOCONSENT
    if installed.is_dir():
        got = json.loads((installed / "package.json").read_text(encoding="utf-8"))["version"]
        if got != pinned:
            raise BuildError(f"node_modules has {AUTOCONSENT} {got}, package.json pins {pinned}: run npm ci")
        for name, made in (("autoconsent.js", autoconsent_bundle), ("snippets.js", autoconsent_snippets)):
            if (vendored / name).read_text(encoding="utf-8") != made(installed):
                raise BuildError(f"extension/vendor/autoconsent/{name} differs from node_modules': run tools/build_extension.py --vendor")
    return pinned


def vendor_autoconsent(repo: Path = REPO) -> None:
    """Bundle autoconsent from node_modules/ into extension/vendor/autoconsent/: the content
    script (:func:`autoconsent_bundle`), the background's page snippets
    (:func:`autoconsent_snippets`) and its licence."""
    installed = repo / "node_modules" / AUTOCONSENT
    if not installed.is_dir():
        raise BuildError(f"node_modules/{AUTOCONSENT} is missing: run npm ci first")
    target = repo / "extension/vendor/autoconsent"
    target.mkdir(parents=True, exist_ok=True)
    (target / "autoconsent.js").write_text(autoconsent_bundle(installed), encoding="utf-8")
    (target / "snippets.js").write_text(autoconsent_snippets(installed), encoding="utf-8")
    shutil.copyfile(installed / "LICENSE", target / "LICENSE")
    got = json.loads((installed / "package.json").read_text(encoding="utf-8"))["version"]
    (target / "VERSION").write_text(got + "\n", encoding="utf-8")


def web_ext(*args: str) -> subprocess.CompletedProcess:
    """Run the web-ext of node_modules/ (npm ci), output captured."""
    exe = REPO / "node_modules/.bin/web-ext"
    if not exe.exists():
        raise BuildError("web-ext is not installed: run npm ci (package.json pins it)")
    return subprocess.run([str(exe), *args, "--no-config-discovery"], capture_output=True, text=True, cwd=REPO)


def lint(folder: Path) -> dict:
    """`web-ext lint` of ``folder``; returns its JSON report. Raises BuildError on any error."""
    done = web_ext("lint", "--source-dir", str(folder), "--output", "json")
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError as exc:
        raise BuildError(f"web-ext lint gave no report: {done.stderr[-500:]}") from exc
    summary = report["summary"]
    print(f"web-ext lint {folder.relative_to(REPO)}: {summary['errors']} errors, {summary['warnings']} warnings, {summary['notices']} notices")
    for kind in ("errors", "warnings", "notices"):
        for m in report[kind]:
            print(f"  {kind[:-1]} {m['code']} {m.get('file') or ''}:{m.get('line') or ''} {m['message']}")
    if summary["errors"]:
        raise BuildError(f"web-ext lint found {summary['errors']} error(s)")
    return report


def build(dist: Path, chromium_only: bool = False, lint_only: bool = False) -> list[Path]:
    """Check, lint and build; returns the files written under ``dist``."""
    number = version()
    check_readability()
    check_autoconsent()
    staging = REPO / "build/extension"
    written = []
    if not chromium_only:
        firefox = stage("firefox", staging / "firefox")
        lint(firefox)
        if not lint_only:
            name = f"pagesieve-firefox-{number}.xpi"
            done = web_ext("build", "--source-dir", str(firefox), "--artifacts-dir", str(dist), "--filename", name, "--overwrite-dest")
            if done.returncode != 0:
                raise BuildError(f"web-ext build failed: {done.stderr[-500:] or done.stdout[-500:]}")
            written.append(dist / name)
    if not lint_only:
        chromium = stage("chromium", staging / "chromium")
        written.append(write_zip(chromium, dist / f"pagesieve-chromium-{number}.zip"))
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build dist/pagesieve-firefox-VERSION.xpi and dist/pagesieve-chromium-VERSION.zip.")
    parser.add_argument("--dist", type=Path, default=REPO / "dist", help="output folder (default: dist/)")
    parser.add_argument("--chromium-only", action="store_true", help="the Chromium zip alone (no web-ext; Node still renders the icons)")
    parser.add_argument("--lint-only", action="store_true", help="web-ext lint of the Firefox copy, nothing built")
    parser.add_argument("--icons", action="store_true", help="render the icons into extension/icons/ alone (for the unpacked folder)")
    parser.add_argument("--vendor", action="store_true", help="first copy Readability and bundle autoconsent from node_modules/ (after npm ci)")
    args = parser.parse_args(argv)
    try:
        if args.icons:
            print(f"rendered {len(render_icons(EXTENSION / 'icons'))} icons into extension/icons/")
            return 0
        if args.vendor:
            vendor()
            vendor_autoconsent()
        for path in build(args.dist.resolve(), args.chromium_only, args.lint_only):
            print(f"wrote {path} ({path.stat().st_size} bytes)")
    except BuildError as exc:
        print(f"build_extension: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
