"""Chromium with the unpacked extension and the host registered, for tests and benchmarks.

Playwright drives Debian's ``/usr/bin/chromium`` (never a browser of its own download) in a
persistent context on a fresh ``--user-data-dir`` whose ``NativeMessagingHosts/`` holds the host
manifest (:func:`pagesieve.native.install.install`). Requests to anything but 127.0.0.1 are
refused, as on a closed network.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
EXTENSION = Path(__file__).resolve().parents[3] / "extension"

RUN_JS = """async ([url, mode, measure]) => {
  const tabs = await chrome.tabs.query({});
  const tab = tabs.find((t) => t.url === url);
  if (!tab) return {ok: false, error: 'no tab ' + url};
  return await chrome.tabs.sendMessage(tab.id, {type: 'pagesieve.run', mode, measure});
}"""
"""Sends the content script's test hook (``pagesieve.run``) to the tab showing ``url``."""

SEND_JS = """async ([url, message]) => {
  const tabs = await chrome.tabs.query({});
  const tab = tabs.find((t) => t.url === url);
  if (!tab) return {ok: false, error: 'no tab ' + url};
  return await chrome.tabs.sendMessage(tab.id, message);
}"""
"""Sends any runtime message (e.g. ``{"type": "pagesieve.save"}``) to the tab showing ``url``."""


def ensure_icons(extension: Path = EXTENSION) -> None:
    """The icons the manifest names, rendered into the unpacked ``extension`` folder when any is
    missing (``tools/build_extension.py --icons``: git keeps the SVG source alone, and Chromium
    refuses to load an extension whose icons are missing).

    Raises:
        RuntimeError: they cannot be rendered (no ``npm ci`` at the repository root: resvg).
    """
    import json
    import subprocess
    import sys

    manifest = json.loads((extension / "manifest.json").read_text(encoding="utf-8"))
    wanted = {*manifest.get("icons", {}).values(), *manifest.get("action", {}).get("default_icon", {}).values()}
    if all((extension / name).is_file() for name in wanted):
        return
    if extension.resolve() != EXTENSION.resolve():
        raise RuntimeError(f"{extension} lacks its icons: load a build of tools/build_extension.py")
    done = subprocess.run([sys.executable, str(EXTENSION.parent / "tools" / "build_extension.py"), "--icons"], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip() or "tools/build_extension.py --icons failed")


@contextmanager
def chromium_with_extension(base: Path, extension: Path = EXTENSION, register_host: bool = True) -> Iterator[object]:
    """A Playwright persistent context with the extension; ``context.pagesieve_run(page, mode,
    measure=False)`` sends the test hook, ``context.pagesieve_send(page, message)`` any message. Files go under ``base`` (profile, launcher, store, logs,
    and the library of saved articles: ``context.pagesieve_library``).

    Args:
        extension: the unpacked extension folder (default: the repository's extension/; a
            packaged build, unzipped, for its tests).
        register_host: False: no host is registered for the profile (``base/profile``), as
            for a user who has not installed it, or whose host another installer registers there.

    Raises:
        FileNotFoundError: Chromium is not installed. ImportError: Playwright is not installed.
        RuntimeError: the icons of extension/ cannot be rendered (:func:`ensure_icons`).
    """
    if not Path(CHROMIUM).exists():
        raise FileNotFoundError(f"{CHROMIUM} is not installed (apt-get install chromium)")
    ensure_icons(extension)
    from playwright.sync_api import sync_playwright

    from pagesieve.native.install import install

    profile = base / "profile"
    if register_host:
        install(user_data_dir=profile, launcher_dir=base / "launcher", home=base)
    env = dict(
        os.environ, XDG_DATA_HOME=str(base / "data"), XDG_STATE_HOME=str(base / "state"), HOME=str(base),
        PAGESIEVE_LIBRARY_DIR=str(base / "library"),
    )
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, env=env,
            ignore_default_args=["--disable-extensions"],
            args=[
                f"--disable-extensions-except={extension}", f"--load-extension={extension}",
                "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
            ],
        )
        try:
            local = ("http://127.0.0.1", "chrome-extension://")
            context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(local) else route.abort())
            worker = context.service_workers[0] if context.service_workers else context.wait_for_event("serviceworker", timeout=30000)
            context.pagesieve_run = lambda page, mode, measure=False: worker.evaluate(RUN_JS, [page.url, mode, measure])
            context.pagesieve_send = lambda page, message: worker.evaluate(SEND_JS, [page.url, message])
            context.pagesieve_profile = profile
            context.pagesieve_library = base / "library"
            yield context
        finally:
            context.close()
