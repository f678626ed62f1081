"""install_host.py: host manifests where each browser looks, a launcher that really runs the host."""

from __future__ import annotations

import json
import os
import re
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
    assert [line for line in again if line.startswith(("wrote", "unchanged"))] == [
        f"unchanged {chromium}", f"unchanged {firefox}", f"unchanged {launcher}"]
    assert f"chromium: found at {home / '.config/chromium'}" in again and f"firefox: found at {home / '.mozilla'}" in again
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


HIDE_INSTALLED = """\
# An interpreter where pagesieve is not installed: it is found on PYTHONPATH or not at all.
import importlib.machinery, os, sys

class _OnlyOnPythonpath:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name != "pagesieve":
            return None
        entries = [e for e in os.environ.get("PYTHONPATH", "").split(os.pathsep) if e]
        spec = importlib.machinery.PathFinder.find_spec(name, entries)
        if spec is None:
            raise ModuleNotFoundError("No module named 'pagesieve'", name=name)
        return spec

sys.meta_path.insert(0, _OnlyOnPythonpath)
"""


def _venv(path: Path) -> Path:
    """A new venv at ``path`` of this interpreter's Python, without pip and without any site
    packages but its own (no ``--system-site-packages``: nothing of the machine's own Python
    leaks in); its interpreter."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True, timeout=120)
    return path / "bin" / "python"


def _runtime_dependencies() -> list[str]:
    """``[project] dependencies`` of the clone's ``pyproject.toml``: what a Python needs to run the host."""
    import tomllib

    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]


def test_install_host_script_on_a_bare_python_names_what_is_missing_and_how_to_install_it(tmp_path):
    """A Python with none of pagesieve's dependencies (a new venv, no site packages of the
    machine's) runs ``install_host.py`` with ``PYTHONPATH`` at the clone: one message names every
    missing package and the command that installs them; nothing is written, exit status 1."""
    python = _venv(tmp_path / "bare")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"), PYTHONPATH=str(REPO / "host"))
    assert subprocess.run([str(python), "-c", "import platformdirs"], capture_output=True, env=env, timeout=60).returncode == 1
    out = subprocess.run([str(python), str(REPO / "install_host.py"), "--user-data-dir", str(tmp_path / "p")],
                         capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 1 and out.stdout == ""
    assert "Traceback" not in out.stderr
    names = [re.split(r"[\s<>=!~;\[]", d, maxsplit=1)[0] for d in _runtime_dependencies()]
    assert {"lxml", "platformdirs", "numpy"} <= set(names)
    first = out.stderr.splitlines()[0]
    assert first.startswith(f"install_host.py: this Python ({python}) lacks packages the pagesieve host needs: ")
    assert all(name in first for name in names)
    assert f"{python} -m pip install -e {REPO}" in out.stderr
    assert not (tmp_path / "p").exists() and not (tmp_path / "data").exists()


def test_install_host_script_from_a_clone_on_pythonpath_writes_a_launcher_that_runs_it(tmp_path):
    """A Python without pagesieve installed (a new venv with pagesieve's dependencies installed
    from the package index, and a ``sitecustomize`` that hides any pagesieve: found on
    ``PYTHONPATH`` or not at all) runs ``install_host.py`` with only ``PYTHONPATH`` pointing at
    the clone; the browser starts the launcher without that ``PYTHONPATH``: it still runs the
    clone's host (a ping is answered), and the installer said what it did."""
    python = _venv(tmp_path / "venv")
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
                                "--disable-pip-version-check", *_runtime_dependencies()],
                               capture_output=True, text=True, timeout=900)
    assert installed.returncode == 0, installed.stderr[-2000:]
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True, timeout=60).stdout.strip())
    (site / "sitecustomize.py").write_text(HIDE_INSTALLED)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"), XDG_STATE_HOME=str(tmp_path / "state"))
    hidden = subprocess.run([str(python), "-c", "import pagesieve"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert hidden.returncode == 1 and "No module named 'pagesieve'" in hidden.stderr  # not installed for it
    out = subprocess.run([str(python), str(REPO / "install_host.py"), "--user-data-dir", str(tmp_path / "p")],
                         capture_output=True, text=True, env=dict(env, PYTHONPATH=str(REPO / "host")), timeout=120)
    assert out.returncode == 0, out.stderr
    launcher = Path(json.loads((tmp_path / "p" / "NativeMessagingHosts" / f"{HOST_NAME}.json").read_text())["path"])
    body = json.dumps({"v": 1, "id": 1, "type": "ping"}).encode()
    ran = subprocess.run([str(launcher), f"chrome-extension://{EXTENSION_ID}/"], input=struct.pack("=I", len(body)) + body,
                         capture_output=True, env=env, cwd=tmp_path, timeout=120)
    assert ran.returncode == 0, ran.stderr.decode()
    (n,) = struct.unpack("=I", ran.stdout[:4])
    assert json.loads(ran.stdout[4:4 + n])["type"] == "pong"
    assert f"pagesieve is not installed for {python}: the launcher puts {REPO / 'host'} on PYTHONPATH" in out.stdout


def test_snap_and_flatpak_browsers_are_told_what_works(tmp_path):
    """A Snap Chromium cannot start the host: nothing is written for it, and the line says so and
    what to do; a Snap Firefox reads ~/.mozilla through the desktop portal: written there."""
    home = tmp_path / "home"
    (home / "snap/chromium").mkdir(parents=True)
    (home / "snap/firefox").mkdir(parents=True)
    (home / ".var/app/org.chromium.Chromium").mkdir(parents=True)
    log = install(home=home, launcher_dir=tmp_path / "l", platform="linux")
    chromium_lines = [line for line in log if line.startswith("chromium (")]
    assert [line.split(",")[0] for line in chromium_lines] == ["chromium (Snap", "chromium (Flatpak"]
    assert all("native messaging cannot work" in line and "pagesieve install-host again" in line for line in chromium_lines)
    assert not (home / ".config/chromium").exists() and not list(home.rglob("NativeMessagingHosts"))
    firefox = home / ".mozilla/native-messaging-hosts" / f"{HOST_NAME}.json"
    assert f"wrote {firefox}" in log and any(line.startswith("firefox (Snap") and "portal" in line for line in log)
    assert json.loads(firefox.read_text())["allowed_extensions"] == [GECKO_ID]
    # nothing found at all: nothing written, and the user is told how to name a browser
    empty = tmp_path / "empty"
    empty.mkdir()
    assert install(home=empty, launcher_dir=tmp_path / "l2", platform="linux") == [
        "no browser found that can start the host; name one with --browser"]
    assert not list(empty.rglob("*")) and not (tmp_path / "l2").exists()


def test_pagesieve_install_host_command_names_the_browser_and_where_it_wrote(tmp_path):
    """``pagesieve install-host --browser chromium`` with an empty HOME: registered all the same,
    and the output says the browser was not found and where the manifest went."""
    env = dict(os.environ, HOME=str(tmp_path), PYTHONPATH=str(REPO / "host"))
    env.pop("XDG_DATA_HOME", None)
    out = subprocess.run([sys.executable, "-m", "pagesieve", "install-host", "--browser", "chromium"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    manifest = tmp_path / ".config/chromium/NativeMessagingHosts" / f"{HOST_NAME}.json"
    launcher = tmp_path / ".local/share/pagesieve/host/pagesieve-host"
    lines = out.stdout.splitlines()
    # where this Python imports another pagesieve than REPO's (another clone installed), it says so
    notes = [line for line in lines if line.startswith(f"pagesieve is not installed for {sys.executable}")]
    assert [line for line in lines if line not in notes] == [
        f"chromium: not found at {tmp_path / '.config/chromium'}; registered all the same, as asked",
        f"wrote {manifest}", f"wrote {launcher}"]
    assert json.loads(manifest.read_text())["path"] == str(launcher)
    assert f'exec "{sys.executable}" -m pagesieve.native' in launcher.read_text()
    bad = subprocess.run([sys.executable, "-m", "pagesieve", "install-host", "--browser", "netscape"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 2 and "unknown browser" in bad.stderr and "Traceback" not in bad.stderr
