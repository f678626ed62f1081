"""install_host.py: host manifests where each browser looks, a launcher that really runs the host."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from pagesieve.native.install import EXTENSION_ID, GECKO_ID, HOST_NAME, extension_id, install

REPO = Path(__file__).resolve().parents[1]


def test_extension_id_is_chromium_shaped():
    assert len(EXTENSION_ID) == 32 and set(EXTENSION_ID) <= set("abcdefghijklmnop")
    assert extension_id() == EXTENSION_ID


def test_installs_for_found_browsers_and_the_launcher_runs_the_host(tmp_path):
    home = tmp_path / "home"
    (home / ".config" / "chromium").mkdir(parents=True)
    (home / ".mozilla").mkdir(parents=True)
    launchers = tmp_path / "launch"
    log = install(home=home, launcher_dir=launchers, platform="linux")
    chromium = home / ".config/chromium/NativeMessagingHosts" / f"{HOST_NAME}.json"
    firefox = home / ".mozilla/native-messaging-hosts" / f"{HOST_NAME}.json"
    assert f"wrote {chromium}" in log and f"wrote {firefox}" in log
    assert not (home / ".config/google-chrome").exists()  # not installed: not touched
    m = json.loads(chromium.read_text())
    assert m["name"] == HOST_NAME and m["type"] == "stdio"
    assert m["allowed_origins"] == [f"chrome-extension://{EXTENSION_ID}/"]
    assert json.loads(firefox.read_text())["allowed_extensions"] == [GECKO_ID]
    launcher = Path(m["path"])
    assert os.access(launcher, os.X_OK)
    # the browser runs the launcher with the extension's origin as argument
    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"), XDG_DATA_HOME=str(tmp_path / "data"))
    body = json.dumps({"v": 1, "id": 1, "type": "ping"}).encode()
    out = subprocess.run([str(launcher), f"chrome-extension://{EXTENSION_ID}/"], input=struct.pack("=I", len(body)) + body,
                         capture_output=True, env=env, timeout=60)
    assert out.returncode == 0
    (n,) = struct.unpack("=I", out.stdout[:4])
    assert json.loads(out.stdout[4:4 + n])["type"] == "pong"
    # idempotent
    again = install(home=home, launcher_dir=launchers, platform="linux")
    assert all(line.startswith("unchanged") for line in again)
    # uninstall removes what it wrote
    gone = install(home=home, launcher_dir=launchers, platform="linux", uninstall=True)
    assert not chromium.exists() and not firefox.exists() and not launcher.exists()
    assert f"removed {launcher}" in gone


def test_user_data_dir_and_macos_folders(tmp_path):
    profile = tmp_path / "profile"
    install(user_data_dir=profile, launcher_dir=tmp_path / "l", home=tmp_path, platform="linux")
    assert (profile / "NativeMessagingHosts" / f"{HOST_NAME}.json").is_file()
    install(["chrome", "firefox"], home=tmp_path, launcher_dir=tmp_path / "l", platform="darwin")
    assert (tmp_path / "Library/Application Support/Google/Chrome/NativeMessagingHosts" / f"{HOST_NAME}.json").is_file()
    assert (tmp_path / "Library/Application Support/Mozilla/NativeMessagingHosts" / f"{HOST_NAME}.json").is_file()
    with pytest.raises(ValueError, match="unknown browser"):
        install(["netscape"], home=tmp_path, launcher_dir=tmp_path / "l")


def test_install_host_script_prints_what_it_wrote(tmp_path):
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    out = subprocess.run([sys.executable, str(REPO / "install_host.py"), "--user-data-dir", str(tmp_path / "p")],
                         capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "NativeMessagingHosts" in out.stdout and "pagesieve-host" in out.stdout
    bad = subprocess.run([sys.executable, str(REPO / "install_host.py"), "--browser", "netscape"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 2 and "unknown browser" in bad.stderr
