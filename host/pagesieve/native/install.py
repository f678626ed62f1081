"""Register the native-messaging host with the browsers (the logic of ``install_host.py``).

For each browser, a host manifest named ``org.pagesieve.host.json`` is written where that
browser looks for it (Chrome's and Firefox's native-messaging documentation):

- Linux: ``~/.config/<browser>/NativeMessagingHosts/``, Firefox ``~/.mozilla/native-messaging-hosts/``;
- macOS: ``~/Library/Application Support/<browser>/NativeMessagingHosts/``, Firefox
  ``~/Library/Application Support/Mozilla/NativeMessagingHosts/``;
- Windows: the manifest sits beside the launcher and the registry key
  ``HKEY_CURRENT_USER\\Software\\<browser>\\NativeMessagingHosts\\org.pagesieve.host`` points to it.

The manifest's ``path`` is a launcher script that runs ``python -m pagesieve.native`` with the
interpreter the installer ran under (so the host finds the same installed package). When that
interpreter does not import this pagesieve by itself (a clone used through ``PYTHONPATH``, never
installed), the launcher puts the package's folder on ``PYTHONPATH`` first
(:func:`package_path`), so the browser, which knows nothing of the user's ``PYTHONPATH``, starts
the same code; the installer says so. Chromium
browsers admit the extension by its ID (:data:`EXTENSION_ID`, fixed by the public key in the
extension manifest's ``key``), Firefox by :data:`GECKO_ID`. Running it again rewrites the same
files (idempotent); ``--uninstall`` removes them.

Browsers from Snap or Flatpak (Linux) run in a sandbox that the host manifest alone does not open
(:data:`SANDBOXED`): the installer says for each one it finds whether native messaging can work
there and what to do, and writes nothing that such a browser would never read.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HOST_NAME = "org.pagesieve.host"

EXTENSION_KEY = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAw1c+W/OPTmr7UjGVg4tCBNBrZ5gMENAGls9YjUdaWF2xMFGO0VfscdRBtpR+uz0abrpazIyRIt83OWGa5tN7HOcukagG66uMDHYqqqfvikA3I1Etrt9UE1MFZJkCAuVlqaS+K4EO2nAge/wwFwtra8Ddhz+Rp6ninCaqWOEAZErLQGeg+gJ+fYO34Hq/J8v/Z5bWzoTlX0HOeWhL9VRDj7N2fgFMwhJ8nP6cqKp1ZWhVl7VFVOGCDRrc+hQEonAeEMou9LFgKSpUNilIQNUr6hlLudmyJM8RTWxNlUwzcHeTemIluzpUQGU3jzejCYsb/2T2LmKtN4pD7PuPUMGhPQIDAQAB"
"""Public key (base64 DER) that the extension manifest carries as ``key``: it fixes the
Chromium extension ID, so host manifests can name the extension before its first load."""

GECKO_ID = "pagesieve@pagesieve.local"
"""The Firefox add-on ID (``browser_specific_settings.gecko.id`` of the extension manifest)."""


def extension_id(public_key_b64: str = EXTENSION_KEY) -> str:
    """Chromium's ID of an extension with this public key: the first 128 bits of SHA-256 of the
    DER key, each hex digit 0-f written as a letter a-p."""
    digest = hashlib.sha256(base64.b64decode(public_key_b64)).hexdigest()[:32]
    return "".join(chr(ord("a") + int(c, 16)) for c in digest)


EXTENSION_ID = extension_id()


@dataclass(frozen=True, slots=True)
class Browser:
    """Where one browser looks for host manifests.

    Attributes:
        name: as given to ``--browser``. firefox: True for Firefox (other manifest field).
        linux, macos: folders under the home folder. windows: registry path under HKCU.
    """

    name: str
    firefox: bool
    linux: str
    macos: str
    windows: str


BROWSERS = (
    Browser("chrome", False, ".config/google-chrome", "Library/Application Support/Google/Chrome", r"Software\Google\Chrome"),
    Browser("chromium", False, ".config/chromium", "Library/Application Support/Chromium", r"Software\Chromium"),
    Browser("brave", False, ".config/BraveSoftware/Brave-Browser", "Library/Application Support/BraveSoftware/Brave-Browser", r"Software\BraveSoftware\Brave-Browser"),
    Browser("edge", False, ".config/microsoft-edge", "Library/Application Support/Microsoft Edge", r"Software\Microsoft\Edge"),
    Browser("vivaldi", False, ".config/vivaldi", "Library/Application Support/Vivaldi", r"Software\Vivaldi"),
    Browser("firefox", True, ".mozilla", "Library/Application Support/Mozilla", r"Software\Mozilla"),
)


@dataclass(frozen=True, slots=True)
class Sandboxed:
    """A browser packaged as a Snap or a Flatpak (Linux), found by its folder under the home folder.

    Attributes:
        browser: the name in :data:`BROWSERS` whose extension it runs. kind: ``"Snap"`` or
            ``"Flatpak"``. folder: under the home folder; there once the browser has run.
        reads_manifest: whether the manifest in the browser's usual folder (``manifest_folder``)
            can start the host from it; False: nothing is written for it.
        note: what the user is told: whether native messaging works there, and what to do.
    """

    browser: str
    kind: str
    folder: str
    reads_manifest: bool
    note: str


_CANNOT = ("native messaging cannot work: it cannot start a program outside its sandbox, so nothing is written "
           "for it. The extension's reader view works there without the host; for hiding, saving, learning and "
           "corrections, install {name} from your distribution's packages or the vendor's .deb/.rpm, then run "
           "pagesieve install-host again.")

SANDBOXED = (
    # Firefox's Snap starts native hosts through the desktop portal's WebExtensions interface, which
    # reads the manifests of ~/.mozilla/native-messaging-hosts (Mozilla bug 1661935, in the Snap
    # since 2022; keepassxreboot/keepassxc#8756).
    Sandboxed("firefox", "Snap", "snap/firefox", True,
              "works through the desktop portal (Ubuntu 22.04 and later): it reads the manifest written to "
              "~/.mozilla/native-messaging-hosts, and Firefox asks once whether pagesieve may run."),
    # Firefox's Flatpak reaches host programs through xdg-native-messaging-proxy, from Firefox 157
    # on (Mozilla bug 1955255; flatpak/xdg-desktop-portal#655), which reads the same manifests.
    Sandboxed("firefox", "Flatpak", ".var/app/org.mozilla.firefox", True,
              "works only from Firefox 157 on with xdg-native-messaging-proxy installed and running "
              "(systemctl --user enable --now xdg-native-messaging-proxy.service), which reads the manifest "
              "written to ~/.mozilla/native-messaging-hosts; without it, only the extension's own reader view works."),
    # The Chromium family's Snaps and Flatpaks have no such way out of their sandbox.
    Sandboxed("chromium", "Snap", "snap/chromium", False, _CANNOT.format(name="Chromium")),
    Sandboxed("chromium", "Flatpak", ".var/app/org.chromium.Chromium", False, _CANNOT.format(name="Chromium")),
    Sandboxed("chrome", "Flatpak", ".var/app/com.google.Chrome", False, _CANNOT.format(name="Chrome")),
    Sandboxed("brave", "Snap", "snap/brave", False, _CANNOT.format(name="Brave")),
    Sandboxed("brave", "Flatpak", ".var/app/com.brave.Browser", False, _CANNOT.format(name="Brave")),
    Sandboxed("edge", "Flatpak", ".var/app/com.microsoft.Edge", False, _CANNOT.format(name="Edge")),
    Sandboxed("vivaldi", "Snap", "snap/vivaldi", False, _CANNOT.format(name="Vivaldi")),
    Sandboxed("vivaldi", "Flatpak", ".var/app/com.vivaldi.Vivaldi", False, _CANNOT.format(name="Vivaldi")),
)


def sandboxes_found(browser: Browser, home: Path, platform: str = sys.platform) -> list[Sandboxed]:
    """The Snap and Flatpak packagings of ``browser`` that have run for this user (Linux only)."""
    if not platform.startswith("linux"):
        return []
    return [s for s in SANDBOXED if s.browser == browser.name and (home / s.folder).is_dir()]


def manifest(browser_is_firefox: bool, launcher: Path) -> dict:
    """The host manifest for a Chromium browser or for Firefox."""
    data = {"name": HOST_NAME, "description": "pagesieve: local main-content extraction", "path": str(launcher), "type": "stdio"}
    if browser_is_firefox:
        data["allowed_extensions"] = [GECKO_ID]
    else:
        data["allowed_origins"] = [f"chrome-extension://{EXTENSION_ID}/"]
    return data


def manifest_folder(browser: Browser, home: Path, platform: str = sys.platform) -> Path:
    """The folder of ``browser``'s host manifests on ``platform`` (Linux, macOS; on Windows
    the launcher folder, the registry points there)."""
    if platform == "darwin":
        return home / browser.macos / "NativeMessagingHosts"
    if browser.firefox:
        return home / ".mozilla" / "native-messaging-hosts"
    return home / browser.linux / "NativeMessagingHosts"


def installed(browser: Browser, home: Path, platform: str = sys.platform) -> bool:
    """Whether the browser seems installed for this user (its profile folder exists)."""
    if platform.startswith("win"):
        try:
            import winreg

            winreg.OpenKey(winreg.HKEY_CURRENT_USER, browser.windows).Close()
            return True
        except OSError:
            return False
    return (home / (browser.macos if platform == "darwin" else browser.linux)).is_dir()


PACKAGE_DIR = Path(__file__).resolve().parents[1]
"""The folder of the ``pagesieve`` package that runs this code."""


def package_path(python: str, package_dir: Path = PACKAGE_DIR) -> str | None:
    """The folder the launcher must put on ``PYTHONPATH`` for ``python`` to import the pagesieve
    at ``package_dir`` (its parent), or ``None`` when ``python`` imports that package by itself
    (installed: pip, pipx, an editable install). Asked of ``python`` in a child process without
    ``PYTHONPATH``, from the root folder (as a browser starts the host); a child that cannot run
    or imports another pagesieve (another clone's, an older install's) counts as not installed."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    probe = "import os, pagesieve; print(os.path.dirname(os.path.realpath(pagesieve.__file__)))"
    try:
        out = subprocess.run([python, "-c", probe], capture_output=True, text=True, env=env,
                             cwd=os.path.abspath(os.sep), timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return str(package_dir.parent)
    if out.returncode == 0 and out.stdout.strip() and Path(out.stdout.strip()) == package_dir.resolve():
        return None
    return str(package_dir.parent)


def launcher_text(python: str, platform: str = sys.platform, pythonpath: str | None = None) -> str:
    """The launcher script: runs the host with ``python``, passing the browser's arguments; with
    ``pythonpath`` (:func:`package_path`), that folder goes first on ``PYTHONPATH``."""
    if platform.startswith("win"):
        path = f'set "PYTHONPATH={pythonpath};%PYTHONPATH%"\r\n' if pythonpath else ""
        return f'@echo off\r\n{path}"{python}" -m pagesieve.native %*\r\n'
    path = f'PYTHONPATH={shlex.quote(pythonpath)}"${{PYTHONPATH:+:$PYTHONPATH}}"\nexport PYTHONPATH\n' if pythonpath else ""
    return f'#!/bin/sh\n# written by pagesieve install-host\n{path}exec "{python}" -m pagesieve.native "$@"\n'


def _write(path: Path, text: str, mode: int | None, log: list[str]) -> None:
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        log.append(f"unchanged {path}")
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    if mode is not None:
        os.chmod(tmp, mode)
    os.replace(tmp, path)
    log.append(f"wrote {path}")


def install(
    browsers: list[str] | None = None, *, user_data_dir: Path | None = None, uninstall: bool = False,
    home: Path | None = None, launcher_dir: Path | None = None, python: str = sys.executable,
    platform: str = sys.platform,
) -> list[str]:
    """Register (or with ``uninstall`` remove) the host; returns what was done, a line each.

    For each browser, a line ``NAME: found at FOLDER`` (or ``NAME: not found ...`` when it was
    named with ``browsers`` but has no profile folder: it is registered all the same), then
    ``wrote PATH`` / ``unchanged PATH`` / ``removed PATH`` for each file; for each Snap or Flatpak
    packaging found (:data:`SANDBOXED`), ``NAME (KIND, found at FOLDER): NOTE``.

    Args:
        browsers: names from :data:`BROWSERS`; default every browser that seems installed (its
            own profile folder, or a Snap or Flatpak of it that reads the usual manifest).
        user_data_dir: a Chromium ``--user-data-dir``: the manifest goes to its
            ``NativeMessagingHosts/`` (for tests and throwaway profiles) instead of the
            browsers' default folders.
        home: the home folder (default: the user's). launcher_dir: where the launcher goes
            (default: ``platformdirs.user_data_dir("pagesieve")/host``). python: the interpreter
            the launcher runs (default: this one, so the host is the installation that ran this;
            when it does not import this pagesieve by itself, the launcher puts this package's
            folder on ``PYTHONPATH``: :func:`package_path`, and a line says so).

    Raises:
        ValueError: an unknown browser name.
        OSError: a folder or file cannot be written (or removed).
    """
    import platformdirs

    home = Path(home) if home is not None else Path.home()
    launcher_dir = Path(launcher_dir) if launcher_dir is not None else Path(platformdirs.user_data_dir("pagesieve", appauthor=False)) / "host"
    windows = platform.startswith("win")
    launcher = launcher_dir / ("pagesieve-host.bat" if windows else "pagesieve-host")
    known = {b.name: b for b in BROWSERS}
    unknown = [n for n in browsers or [] if n not in known]
    if unknown:
        raise ValueError(f"unknown browser(s) {', '.join(unknown)}; known: {', '.join(known)}")
    log: list[str] = []
    if user_data_dir is not None:
        targets = [known[n] for n in (browsers or ["chromium"])]
    else:
        named = [known[n] for n in browsers] if browsers else []
        targets = []
        for browser in BROWSERS:
            found = installed(browser, home, platform)
            sandboxes = sandboxes_found(browser, home, platform)
            if browsers and browser not in named:
                continue
            if found:
                log.append(f"{browser.name}: found at {_profile_folder(browser, home, platform)}")
            elif browsers:
                log.append(f"{browser.name}: not found at {_profile_folder(browser, home, platform)}; registered all the same, as asked")
            for box in sandboxes:
                log.append(f"{browser.name} ({box.kind}, found at {home / box.folder}): {box.note}")
            if found or browsers or uninstall or any(box.reads_manifest for box in sandboxes):
                targets.append(browser)
    wrote_any = False
    for browser in targets:
        if user_data_dir is not None:
            path = Path(user_data_dir) / "NativeMessagingHosts" / f"{HOST_NAME}.json"
        elif windows:
            path = launcher_dir / f"{HOST_NAME}.{browser.name}.json"
        else:
            path = manifest_folder(browser, home, platform) / f"{HOST_NAME}.json"
        if uninstall:
            if path.exists():
                path.unlink()
                log.append(f"removed {path}")
            if windows and user_data_dir is None:
                _registry(browser, None, log)
            continue
        _write(path, json.dumps(manifest(browser.firefox, launcher), indent=2) + "\n", 0o644, log)
        wrote_any = True
        if windows and user_data_dir is None:
            _registry(browser, path, log)
    if uninstall:
        if launcher.exists() and not browsers and user_data_dir is None:  # nothing points to it any more
            launcher.unlink()
            log.append(f"removed {launcher}")
    elif wrote_any:
        pythonpath = package_path(python)
        if pythonpath is not None:
            log.append(f"pagesieve is not installed for {python}: the launcher puts {pythonpath} on PYTHONPATH, so the "
                       "host runs this copy (run this again if you move it, or install it: python3 -m pip install -e .)")
        _write(launcher, launcher_text(python, platform, pythonpath), 0o755, log)
    if not targets:
        log.append("no browser found that can start the host; name one with --browser")
    return log


def _profile_folder(browser: Browser, home: Path, platform: str) -> str:
    if platform.startswith("win"):
        return rf"HKCU\{browser.windows}"
    return str(home / (browser.macos if platform == "darwin" else browser.linux))


def _registry(browser: Browser, manifest_path: Path | None, log: list[str]) -> None:  # pragma: no cover - Windows
    import winreg

    key = rf"{browser.windows}\NativeMessagingHosts\{HOST_NAME}"
    if manifest_path is None:
        try:
            winreg.DeleteKey(winreg.HKEY_CURRENT_USER, key)
            log.append(rf"removed HKCU\{key}")
        except OSError:
            pass
        return
    with winreg.CreateKey(winreg.HKEY_CURRENT_USER, key) as handle:
        winreg.SetValueEx(handle, "", 0, winreg.REG_SZ, str(manifest_path))
    log.append(rf"wrote HKCU\{key} = {manifest_path}")
