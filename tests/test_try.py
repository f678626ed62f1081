"""``pagesieve try``: a throwaway profile with the extension and the host registered for it alone.

The browser is a stand-in executable (--browser-binary) that does what the browser would on
start: reads its profile's host manifest and starts the host through the launcher (a real
``ping`` answered by the real host), fetches the page it was asked to open, and writes what it saw.
What the command does around it is real: the example page served, the registration, the host's
data kept out of the user's folders, the folder removed when the browser exits."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

BROWSER = r'''#!{python}
import json, os, struct, subprocess, sys, urllib.request
from pathlib import Path
args = sys.argv[1:]
report = {{"args": args, "env": {{k: os.environ.get(k) for k in ("HOME", "XDG_DATA_HOME", "PAGESIEVE_LIBRARY_DIR")}}}}
opts = dict(a[2:].split("=", 1) for a in args if a.startswith("--") and "=" in a)
if "--profile" in args:  # Firefox
    profile = Path(args[args.index("--profile") + 1])
    manifest = Path(os.environ["HOME"]) / ".mozilla/native-messaging-hosts/org.pagesieve.host.json"
    report["extensions"] = sorted(p.name for p in (profile / "extensions").iterdir())
    report["prefs"] = (profile / "user.js").read_text()
    origin = "pagesieve@pagesieve.local"
else:
    profile = Path(opts["user-data-dir"])
    manifest = profile / "NativeMessagingHosts/org.pagesieve.host.json"
    report["extensionManifest"] = json.loads((Path(opts["load-extension"]) / "manifest.json").read_text())["name"]
    origin = "chrome-extension://x/"
report["profile"] = str(profile)
report["manifest"] = json.loads(manifest.read_text())
body = json.dumps({{"v": 1, "id": 1, "type": "ping"}}).encode()
out = subprocess.run([report["manifest"]["path"], origin], input=struct.pack("=I", len(body)) + body, capture_output=True, timeout=60)
(n,) = struct.unpack("=I", out.stdout[:4])
report["pong"] = json.loads(out.stdout[4:4 + n])["type"]
report["page"] = urllib.request.urlopen(args[-1], timeout=30).read().decode("utf-8")[:2000]
Path(os.environ["TRY_REPORT"]).write_text(json.dumps(report))
'''


def fake_browser(tmp_path: Path) -> Path:
    exe = tmp_path / "browser"
    exe.write_text(BROWSER.format(python=sys.executable))
    exe.chmod(0o755)
    return exe


def run_try(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess, dict]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = dict(os.environ, HOME=str(home), TRY_REPORT=str(tmp_path / "report.json"), PYTHONPATH=str(REPO / "host"),
               TMPDIR=str(tmp_path))
    for name in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, "-m", "pagesieve", "try", "--browser-binary", str(fake_browser(tmp_path)), *args],
                          capture_output=True, text=True, env=env, timeout=300)
    report = json.loads((tmp_path / "report.json").read_text()) if (tmp_path / "report.json").is_file() else {}
    return done, report


def test_try_opens_the_example_page_in_a_throwaway_chromium_profile(tmp_path):
    done, report = run_try(tmp_path)
    assert done.returncode == 0, done.stderr
    profile = Path(report["profile"])
    folder = profile.parent
    assert folder.parent == tmp_path and folder.name.startswith("pagesieve-try-")
    assert report["extensionManifest"] == "pagesieve" and f"--load-extension={REPO / 'extension'}" in report["args"]
    assert report["pong"] == "pong"  # the host registered for this profile starts and answers
    assert Path(report["manifest"]["path"]).is_relative_to(folder)
    assert "Sourdough at Altitude" in report["page"]  # the example page, served on 127.0.0.1
    assert report["args"][-1].startswith("http://127.0.0.1:")
    # the host's data and the library go to the throwaway folder, not the user's
    assert report["env"]["XDG_DATA_HOME"].startswith(str(folder)) and report["env"]["PAGESIEVE_LIBRARY_DIR"].startswith(str(folder))
    assert not folder.exists()  # removed when the browser closed
    assert not any((tmp_path / "home").iterdir())  # nothing written in the user's home
    assert f"a throwaway profile in {folder}" in done.stdout and "for this profile alone" in done.stdout


def test_try_with_the_built_zip_keeps_the_folder_when_asked(tmp_path):
    import importlib.util
    import shutil

    spec = importlib.util.spec_from_file_location("build_extension", REPO / "tools" / "build_extension.py")
    build_extension = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_extension)
    (zip_path,) = build_extension.build(tmp_path / "dist", chromium_only=True)
    done, report = run_try(tmp_path, "--extension", str(zip_path), "--keep")
    assert done.returncode == 0, done.stderr
    folder = Path(report["profile"]).parent
    unpacked = folder / "extension"
    assert f"--load-extension={unpacked}" in report["args"] and report["pong"] == "pong"
    assert f"kept {folder}" in done.stdout and (unpacked / "manifest.json").is_file()
    assert "browser_specific_settings" not in json.loads((unpacked / "manifest.json").read_text())  # the Chromium build
    shutil.rmtree(folder)


def test_try_in_firefox_puts_the_xpi_in_the_profile_and_the_manifest_in_its_home(tmp_path):
    xpi = tmp_path / "pagesieve-firefox-test.xpi"
    with zipfile.ZipFile(xpi, "w") as z:
        z.writestr("manifest.json", json.dumps({"manifest_version": 3, "name": "pagesieve", "version": "0.1.0"}))
    done, report = run_try(tmp_path, "--browser", "firefox", "--extension", str(xpi))
    assert done.returncode == 0, done.stderr
    folder = Path(report["profile"]).parent
    assert report["extensions"] == ["pagesieve@pagesieve.local.xpi"]
    assert 'user_pref("xpinstall.signatures.required", false);' in report["prefs"]
    assert report["env"]["HOME"] == str(folder / "home") and report["pong"] == "pong"
    assert report["manifest"]["allowed_extensions"] == ["pagesieve@pagesieve.local"]
    assert not folder.exists() and not any((tmp_path / "home").iterdir())


def test_try_says_what_is_missing(tmp_path):
    done, _ = run_try(tmp_path, "--extension", str(tmp_path), "http://127.0.0.1:9/")
    assert done.returncode == 2 and "neither an extension folder nor an extension zip" in done.stderr
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("pagesieve-try-")]  # nothing left behind
