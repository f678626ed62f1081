"""``pagesieve try [URL]``: the extension and the host in a throwaway browser profile.

It starts Chromium (``--browser firefox``: Firefox ESR) with a new profile in a temporary folder,
the extension loaded into it, and the host registered for that profile alone, on ``URL`` or, from a
clone, on the example page (``examples/article.html``, served on 127.0.0.1). The host's own data
(site templates, corrections, saved articles, logs) goes to the same temporary folder. Nothing of
the user's browsers or pagesieve data is read or changed; the folder is removed when the browser
closes (``--keep`` keeps it and prints where).

- Chromium: the extension is ``--extension`` (an unpacked folder or the built
  ``pagesieve-chromium-VERSION.zip``), else the clone's ``extension/`` folder; it is loaded with
  ``--load-extension`` (which Debian's Chromium honours; branded Google Chrome 137 and later does
  not) and the host manifest goes into the profile's ``NativeMessagingHosts/``.
- Firefox: the extension is ``--extension`` (the built ``pagesieve-firefox-VERSION.xpi``), else the
  clone's ``dist/pagesieve-firefox-VERSION.xpi``; it goes into the profile's ``extensions/`` with
  signature checks off (a preference that Firefox ESR, Developer Edition and Nightly honour, release
  builds do not). Firefox reads host manifests under ``$HOME/.mozilla`` only, so it runs with
  ``HOME`` set to the temporary folder.
"""

from __future__ import annotations

import argparse
import http.server
import os
import shutil
import subprocess
import tempfile
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

from pagesieve.checkout import repo_root
from pagesieve.errors import UsageError

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "chrome")
FIREFOX_NAMES = ("firefox-esr", "firefox")

FIREFOX_PREFS = """// written by pagesieve try: a throwaway profile
user_pref("xpinstall.signatures.required", false);
user_pref("extensions.autoDisableScopes", 0);
user_pref("extensions.enabledScopes", 15);
user_pref("browser.shell.checkDefaultBrowser", false);
user_pref("datareporting.policy.dataSubmissionEnabled", false);
user_pref("browser.aboutwelcome.enabled", false);
"""
"""Firefox preferences of the throwaway profile: the unsigned add-on in extensions/ loads without a prompt."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``try``."""
    parser.add_argument("url", nargs="?", help="the page to open (default, from a clone: the example page)")
    parser.add_argument("--browser", choices=("chromium", "firefox"), default="chromium", help="default: chromium")
    parser.add_argument("--extension", type=Path, metavar="PATH",
                        help="the extension: a folder or pagesieve-chromium-VERSION.zip (Chromium), pagesieve-firefox-VERSION.xpi (Firefox)")
    parser.add_argument("--browser-binary", metavar="PATH", help="the browser's executable (default: found on PATH)")
    parser.add_argument("--keep", action="store_true", help="keep the throwaway folder (printed) after the browser closes")


def find_browser(names: tuple[str, ...], given: str | None) -> str:
    """The browser executable: ``given``, else the first of ``names`` on PATH.

    Raises:
        UsageError: none found.
    """
    if given:
        if shutil.which(given) is None:
            raise UsageError(f"{given} is not an executable")
        return shutil.which(given)
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    raise UsageError(f"no browser found on PATH ({', '.join(names)}); name one with --browser-binary")


def chromium_extension(given: Path | None, scratch: Path) -> Path:
    """The unpacked extension folder for Chromium (a zip is unpacked into ``scratch``).

    Raises:
        UsageError: none given and not run from a clone, or the path is not an extension.
    """
    if given is None:
        root = repo_root()
        if root is None or not (root / "extension" / "manifest.json").is_file():
            raise UsageError("no extension: pass --extension pagesieve-chromium-VERSION.zip (or an unpacked folder)")
        return root / "extension"
    if given.is_dir() and (given / "manifest.json").is_file():
        return given.resolve()
    if given.is_file() and zipfile.is_zipfile(given):
        target = scratch / "extension"
        with zipfile.ZipFile(given) as z:
            z.extractall(target)
        if (target / "manifest.json").is_file():
            return target
    raise UsageError(f"{given} is neither an extension folder nor an extension zip (no manifest.json)")


def firefox_extension(given: Path | None) -> Path:
    """The .xpi for Firefox.

    Raises:
        UsageError: none given and no built one in the clone's dist/, or not a zip with a manifest.
    """
    if given is None:
        from pagesieve import __version__

        root = repo_root()
        built = root / "dist" / f"pagesieve-firefox-{__version__}.xpi" if root is not None else None
        if built is None or not built.is_file():
            raise UsageError("no Firefox build: run npm ci && npm run build (dist/pagesieve-firefox-VERSION.xpi), or pass --extension FILE.xpi")
        given = built
    if not (given.is_file() and zipfile.is_zipfile(given) and "manifest.json" in zipfile.ZipFile(given).namelist()):
        raise UsageError(f"{given} is not an extension .xpi (a zip with manifest.json)")
    return given.resolve()


@contextmanager
def serve_example() -> Iterator[str]:
    """The clone's examples/ folder on http://127.0.0.1:PORT/ while the block runs; yields the
    example page's URL.

    Raises:
        UsageError: not run from a clone (no examples/article.html).
    """
    root = repo_root()
    if root is None or not (root / "examples" / "article.html").is_file():
        raise UsageError("no page given and no example page here (run from a clone, or give a URL)")
    folder = str(root / "examples")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=folder, **kwargs)

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/article.html"
    finally:
        httpd.shutdown()


def browser_command(args: argparse.Namespace, folder: Path, url: str) -> tuple[list[str], dict[str, str], list[str]]:
    """The command, environment and report lines of the throwaway browser in ``folder``, with the
    host registered for its profile alone (:func:`pagesieve.native.install.install`)."""
    from pagesieve.native.install import HOST_NAME, install

    env = dict(os.environ, XDG_DATA_HOME=str(folder / "data"), XDG_STATE_HOME=str(folder / "state"),
               XDG_CONFIG_HOME=str(folder / "config"), XDG_CACHE_HOME=str(folder / "cache"),
               PAGESIEVE_LIBRARY_DIR=str(folder / "library"))
    profile = folder / "profile"
    if args.browser == "chromium":
        binary = find_browser(CHROMIUM_NAMES, args.browser_binary)
        extension = chromium_extension(args.extension, folder)
        log = install(["chromium"], user_data_dir=profile, launcher_dir=folder / "launcher", home=folder)
        command = [binary, f"--user-data-dir={profile}", f"--load-extension={extension}",
                   f"--disable-extensions-except={extension}", "--no-first-run", "--no-default-browser-check", url]
    else:
        binary = find_browser(FIREFOX_NAMES, args.browser_binary)
        xpi = firefox_extension(args.extension)
        home = folder / "home"
        log = install(["firefox"], home=home, launcher_dir=folder / "launcher", platform="linux")
        (profile / "extensions").mkdir(parents=True)
        shutil.copyfile(xpi, profile / "extensions" / "pagesieve@pagesieve.local.xpi")
        (profile / "user.js").write_text(FIREFOX_PREFS, encoding="utf-8")
        env["HOME"] = str(home)
        command = [binary, "--no-remote", "--profile", str(profile), url]
    lines = [f"{args.browser}: {binary}, a throwaway profile in {folder}"]
    lines += [line for line in log if line.startswith("wrote")]
    lines.append(f"host registered as {HOST_NAME} for this profile alone; its data goes to {folder}")
    return command, env, lines


def main(args: argparse.Namespace) -> int:
    """Run the throwaway browser until it closes; returns its exit status.

    Raises:
        UsageError: no browser, no extension, or no page to open (exit 2).
    """
    folder = Path(tempfile.mkdtemp(prefix="pagesieve-try-"))
    try:
        with (serve_example() if args.url is None else nullcontext(args.url)) as url:
            command, env, lines = browser_command(args, folder, url)
            for line in lines:
                print(line, flush=True)
            print(f"opening {url}; close the browser to end", flush=True)
            browser = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL)
            try:
                return browser.wait()
            except KeyboardInterrupt:
                browser.terminate()
                browser.wait(timeout=30)
                return 130
    finally:
        if args.keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
