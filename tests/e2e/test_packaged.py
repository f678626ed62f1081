"""Chromium with the packaged extension (dist zip of tools/build_extension.py, unzipped as a user
does for Load unpacked) and the host from the wheel installed in a fresh venv, registered by that
venv's `pagesieve install-host --user-data-dir`: hide, reader, save, answered by that venv's host."""

from __future__ import annotations

import importlib.util
import subprocess
import zipfile
from pathlib import Path

import pytest

from .conftest import CHROMIUM, REPO, own_hosts, run_in_own_thread


def test_chromium_with_the_packaged_zip_and_the_installed_host(venv, repo_free_env, server, tmp_path, artifacts):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium; .ci/run does it)")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")

    from pagesieve_dev.evaluation.browser import chromium_with_extension

    spec = importlib.util.spec_from_file_location("build_extension", REPO / "tools" / "build_extension.py")
    build_extension = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_extension)
    (zip_path,) = build_extension.build(tmp_path / "dist", chromium_only=True)
    unpacked = tmp_path / "pagesieve-chromium"
    with zipfile.ZipFile(zip_path) as z:
        z.extractall(unpacked)
    env = repo_free_env(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    done = subprocess.run([str(venv / "bin/pagesieve"), "install-host", "--user-data-dir", str(tmp_path / "profile")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0 and "NativeMessagingHosts" in done.stdout, done.stderr
    def drive():  # a thread of its own: see run_in_own_thread
        with chromium_with_extension(tmp_path, extension=unpacked, register_host=False) as context:
            page = context.new_page()
            page.goto(f"{server}/example/")
            hidden = context.pagesieve_run(page, "hide")
            assert hidden["ok"] and hidden["hidden"] > 0, hidden
            text = page.evaluate("() => document.body.innerText")
            assert "2,400 metres" in text and "Tried this at 1,800 m" not in text
            # the host that answered is the venv's: its launcher runs the venv's Python
            hosts = own_hosts(tmp_path / "profile")
            assert hosts and all(Path(p.cmdline()[0]).parent == venv / "bin" for p in hosts), [p.cmdline() for p in hosts]
            reader = context.pagesieve_run(page, "reader")
            assert reader["ok"] and not reader.get("withoutHost"), reader
            title = page.evaluate("() => document.querySelector('pagesieve-reader').shadowRoot.querySelector('h1').textContent")
            assert title.startswith("Sourdough at Altitude")
            page.screenshot(path=str(artifacts / "chromium-packaged-reader.png"))
            saved = context.pagesieve_send(page, {"type": "pagesieve.save", "tags": ["packaged"]})
            assert saved["ok"], saved
            markdown = Path(saved["markdown"])
            assert markdown.parent == context.pagesieve_library and markdown.is_file()
            assert "Lower air pressure lets gas expand faster" in markdown.read_text(encoding="utf-8")

    run_in_own_thread(drive)
