"""The packaged extension (tools/build_extension.py): one version for host and extension, the ids
the host manifests admit are the built extensions' own, the vendored Readability is the pinned one,
and the Firefox build lints with 0 errors."""

from __future__ import annotations

import importlib.util
import json
import posixpath
import re
import zipfile
from pathlib import Path

import pytest

from pagesieve import __version__
from pagesieve.native.install import EXTENSION_ID, EXTENSION_KEY, GECKO_ID, extension_id

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("build_extension", REPO / "tools" / "build_extension.py")
build_extension = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_extension)


def manifest_files(manifest: dict) -> set[str]:
    """Every file the manifest names (scripts, pages, icons)."""
    names = set(manifest["background"].get("scripts", [])) | {manifest["background"].get("service_worker")} - {None}
    for script in manifest["content_scripts"]:
        names |= set(script["js"])
    names |= set(manifest["icons"].values()) | set(manifest["action"]["default_icon"].values())
    return names | {manifest["action"]["default_popup"], manifest["options_ui"]["page"]}


_TOOLBAR_ICON = re.compile(r'"/(icons/[a-z]+-\d+\.png)"')


def check_icons(names: set[str], manifest: dict, read) -> set[str]:
    """The icons of a build: the manifest's (16 to 128 px) and the toolbar states that
    background/toolbar.js sets, each a PNG of its size, rendered from the one SVG source (which
    is not shipped), and no other picture. Returns their names."""
    assert {int(size) for size in manifest["icons"]} == {16, 32, 48, 128}
    states = set(_TOOLBAR_ICON.findall(read("background/toolbar.js").decode()))
    assert len(states) == 6, states  # off, hide, reader at 16 and 32 px
    icons = {n for n in names if n.startswith("icons/") and not n.endswith("/")}  # web-ext lists the folder too
    assert icons == set(manifest["icons"].values()) | set(manifest["action"]["default_icon"].values()) | states
    for name in icons:
        png = read(name)
        size = int(re.search(r"-(\d+)\.png$", name).group(1))
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(png[16:20], "big") == size == int.from_bytes(png[20:24], "big"), name
    assert not any(n.endswith(".svg") for n in names)
    return icons


_IMPORT = re.compile(r"""^import\s+(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']""", re.M)
_PAGE_FILE = re.compile(r'<(?:script\s+src|link\s+rel="stylesheet"\s+href)="([^"]+)"')


def loaded_files(manifest: dict, read) -> set[str]:
    """Every file the extension loads: what the manifest names and the no-host reader page (the
    background opens it), the modules the background imports (followed from its entry), and the
    scripts and style sheets of its pages. ``read(name)``: the bytes of a file of the extension
    (the built zip's)."""
    names = manifest_files(manifest) | {"pages/reader.html"}
    todo = list(names)
    while todo:
        name = todo.pop()
        if not name.endswith((".js", ".html")):
            continue
        text = read(name).decode("utf-8")
        found = _IMPORT.findall(text) if name.endswith(".js") else _PAGE_FILE.findall(text) if name.endswith(".html") else []
        for ref in found:
            target = posixpath.normpath(posixpath.join(posixpath.dirname(name), ref))
            if target not in names:
                names.add(target)
                todo.append(target)
    return names


def test_host_and_extension_carry_one_version():
    found = build_extension.versions()
    assert set(found) == {"pyproject.toml", "extension/manifest.json", "package.json", "pagesieve.__version__"}
    assert set(found.values()) == {__version__}, found
    assert build_extension.version() == __version__


def test_the_chromium_zip_is_the_extension_the_host_admits(tmp_path):
    (zip_path,) = build_extension.build(tmp_path / "dist", chromium_only=True)
    assert zip_path.name == f"pagesieve-chromium-{__version__}.zip"
    with zipfile.ZipFile(zip_path) as z:
        names = set(z.namelist())
        manifest = json.loads(z.read("manifest.json"))
        loaded = loaded_files(manifest, z.read)
        icons = check_icons(names, manifest, z.read)
    assert manifest["key"] == EXTENSION_KEY and extension_id(manifest["key"]) == EXTENSION_ID
    assert "browser_specific_settings" not in manifest and "scripts" not in manifest["background"]
    assert manifest["background"] == {"service_worker": "background/main.js", "type": "module"}
    assert manifest_files(manifest) | {"pages/reader.html", "pages/reader.js", "vendor/readability/Readability.js", "vendor/readability/LICENSE.md"} <= names
    # the background's modules and the pages' scripts are in the zip, and nothing else of ours is
    assert {"background/port.js", "platform.js", "pages/reader.css", "vendor/readability/Readability.js"} <= loaded <= names
    # autoconsent is put into a page by the background when a page needs it (scripting.executeScript)
    assert '"vendor/autoconsent/autoconsent.js"' in z_background(zip_path)
    assert names - loaded - icons == {"manifest.json", "vendor/readability/LICENSE.md", "vendor/readability/README.md", "vendor/readability/VERSION",
                                      "vendor/autoconsent/autoconsent.js", "vendor/autoconsent/LICENSE", "vendor/autoconsent/VERSION"}
    assert not any(n.startswith(("node_modules", ".")) for n in names)
    # the same tree gives the same bytes
    (again,) = build_extension.build(tmp_path / "again", chromium_only=True)
    assert again.read_bytes() == zip_path.read_bytes()


def z_background(zip_path) -> str:
    """The background script of a built zip, as text."""
    with zipfile.ZipFile(zip_path) as z:
        return z.read("background/main.js").decode("utf-8")


def test_bundled_autoconsent_is_the_pinned_one_with_its_rules_and_licence():
    pinned = json.loads((REPO / "package.json").read_text())["dependencies"]["@duckduckgo/autoconsent"]
    assert build_extension.check_autoconsent() == pinned
    assert "Mozilla Public License Version 2.0" in (REPO / "extension/vendor/autoconsent/LICENSE").read_text()
    bundle = (REPO / "extension/vendor/autoconsent/autoconsent.js").read_text()
    assert "globalThis.pagesieveAutoconsent = { AutoConsent, filterCompactRules" in bundle and "\nexport {" not in bundle
    snippets = (REPO / "extension/vendor/autoconsent/snippets.js").read_text()
    assert snippets.count("\nexport const snippets = {") == 1 and "EVAL_COOKIEBOT_3: () =>" in snippets
    if (REPO / "node_modules/@duckduckgo/autoconsent").is_dir():
        assert bundle == build_extension.autoconsent_bundle(REPO / "node_modules/@duckduckgo/autoconsent")
        assert snippets == build_extension.autoconsent_snippets(REPO / "node_modules/@duckduckgo/autoconsent")


def test_vendored_readability_is_the_pinned_one_with_its_licence():
    pinned = json.loads((REPO / "package.json").read_text())["dependencies"]["@mozilla/readability"]
    assert build_extension.check_readability() == pinned
    licence = (REPO / "extension/vendor/readability/LICENSE.md").read_text()
    assert "Apache License" in licence and "Version 2.0" in licence
    assert "function Readability(doc, options)" in (REPO / "extension/vendor/readability/Readability.js").read_text()


def test_a_version_mismatch_stops_the_build(tmp_path):
    fake = tmp_path / "repo"
    for name in ("pyproject.toml", "package.json", "extension/manifest.json", "host/pagesieve/__init__.py"):
        (fake / name).parent.mkdir(parents=True, exist_ok=True)
        (fake / name).write_text((REPO / name).read_text())
    manifest = json.loads((fake / "extension/manifest.json").read_text())
    manifest["version"] = "9.9.9"
    (fake / "extension/manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(build_extension.BuildError, match="extension/manifest.json 9.9.9"):
        build_extension.version(fake)


def test_the_firefox_xpi_is_built_by_web_ext_and_lints_clean(tmp_path, capsys):
    if not (REPO / "node_modules/.bin/web-ext").exists():
        pytest.skip("web-ext is not installed: npm ci at the repository root (package.json); .ci/run does it")
    written = build_extension.build(tmp_path / "dist")
    assert [p.name for p in written] == [f"pagesieve-firefox-{__version__}.xpi", f"pagesieve-chromium-{__version__}.zip"]
    assert "web-ext lint build/extension/firefox: 0 errors" in capsys.readouterr().out
    with zipfile.ZipFile(written[0]) as z:
        names = set(z.namelist())
        manifest = json.loads(z.read("manifest.json"))
        loaded = loaded_files(manifest, z.read)
        check_icons(names, manifest, z.read)
    assert manifest["browser_specific_settings"]["gecko"]["id"] == GECKO_ID
    assert {"background/main.js", "background/port.js", "platform.js"} <= loaded <= names
    assert "key" not in manifest and "service_worker" not in manifest["background"]
    assert manifest["background"] == {"scripts": ["background/main.js"], "type": "module"}
    assert manifest_files(manifest) | {"pages/reader.html", "vendor/readability/LICENSE.md"} <= names
