"""Register the native-messaging host with the browsers (the logic of ``install_host.py``).

For each browser, a host manifest named ``org.pagesieve.host.json`` is written where that
browser looks for it (Chrome's and Firefox's native-messaging documentation):

- Linux: ``~/.config/<browser>/NativeMessagingHosts/``, Firefox ``~/.mozilla/native-messaging-hosts/``;
- macOS: ``~/Library/Application Support/<browser>/NativeMessagingHosts/``, Firefox
  ``~/Library/Application Support/Mozilla/NativeMessagingHosts/``;
- Windows: the manifest sits beside the launcher and the registry key
  ``HKEY_CURRENT_USER\\Software\\<browser>\\NativeMessagingHosts\\org.pagesieve.host`` points to it.

The manifest's ``path`` is a launcher script that runs ``python -m pagesieve.native`` with the
interpreter the installer ran under (so the host finds the same installed package). Chromium
browsers admit the extension by its ID (:data:`EXTENSION_ID`, fixed by the public key in the
extension manifest's ``key``), Firefox by :data:`GECKO_ID`. Running it again rewrites the same
files (idempotent); ``--uninstall`` removes them.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
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


def launcher_text(python: str, platform: str = sys.platform) -> str:
    """The launcher script: runs the host with ``python``, passing the browser's arguments."""
    if platform.startswith("win"):
        return f'@echo off\r\n"{python}" -m pagesieve.native %*\r\n'
    return f'#!/bin/sh\n# written by pagesieve install_host.py\nexec "{python}" -m pagesieve.native "$@"\n'


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

    Args:
        browsers: names from :data:`BROWSERS`; default every browser that seems installed.
        user_data_dir: a Chromium ``--user-data-dir``: the manifest goes to its
            ``NativeMessagingHosts/`` (for tests and portable profiles) instead of the
            browsers' default folders.
        home: the home folder (default: the user's). launcher_dir: where the launcher goes
            (default: ``platformdirs.user_data_dir("pagesieve")/host``).

    Raises:
        ValueError: an unknown browser name.
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
    if user_data_dir is not None:
        targets = [known[n] for n in (browsers or ["chromium"])]
    elif browsers:
        targets = [known[n] for n in browsers]
    else:
        targets = [b for b in BROWSERS if installed(b, home, platform)]
    log: list[str] = []
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
        if windows and user_data_dir is None:
            _registry(browser, path, log)
    if uninstall:
        if launcher.exists() and not browsers and user_data_dir is None:  # nothing points to it any more
            launcher.unlink()
            log.append(f"removed {launcher}")
    elif targets:
        _write(launcher, launcher_text(python, platform), 0o755, log)
    if not targets:
        log.append("no browser found; name one with --browser")
    return log


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
