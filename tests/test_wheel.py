"""The host as people install it: `python -m build` makes a wheel and an sdist that hold the
package with its model files and the library window's pages, and nothing of the repository around
it: not the developers' package either (dev/pagesieve_dev, the `pagesieve-dev` command, a
distribution of its own); the wheel installed into a fresh venv extracts a page from outside the
repository, and its
`pagesieve install-host --browser chromium` with an empty HOME writes a manifest whose launcher runs
that venv's Python. (Chromium with the packaged zip and that installed host:
tests/e2e/test_packaged.py.)"""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

from pagesieve import __version__
from pagesieve.native.install import EXTENSION_ID, HOST_NAME

REPO = Path(__file__).resolve().parents[1]
RUNTIME_DATA = ("pagesieve/models/blocks.npz", "pagesieve/models/blocks.skops", "pagesieve/models/training.json",
                "pagesieve/library/ui/index.html", "pagesieve/library/ui/app.js", "pagesieve/library/ui/app.css")


def test_the_wheel_and_sdist_hold_the_package_and_its_data_alone(built):
    wheel, sdist = built
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        for name in RUNTIME_DATA:  # the files themselves, not the repository's symlink to models/
            info = z.getinfo(name)
            assert info.file_size > 0 and (info.external_attr >> 16) & 0o170000 != 0o120000, name
        assert z.read("pagesieve/models/blocks.npz") == (REPO / "models/blocks.npz").read_bytes()
    assert {n.split("/")[0] for n in names} == {"pagesieve", f"pagesieve-{__version__}.dist-info"}, sorted(names)[:20]
    with tarfile.open(sdist) as t:
        members = [m.name.split("/", 1)[1] for m in t.getmembers() if "/" in m.name]
        models = [m for m in t.getmembers() if m.name.endswith("host/pagesieve/models/blocks.npz")]
    assert models and models[0].isfile()
    assert {m.split("/")[0] for m in members} <= {"host", "PKG-INFO", "README.md", "pyproject.toml", "setup.cfg", "MANIFEST.in",
                                                 "setup.py"}, sorted({m.split("/")[0] for m in members})
    assert "host/pagesieve/classify/_trees.c" in members  # the compiled walk's source: pip builds it from the sdist
    assert "host/pagesieve/blocks/_segment.c" in members  # the compiled segmentation's source, likewise


def test_the_wheel_holds_the_compiled_walk_where_a_compiler_is(built, venv, repo_free_env):
    """setup.py's optional extension: built wherever the C compiler Python was built with is on
    PATH (a wheel built without one holds the package alone, and walks with numpy), for the
    stable ABI of Python 3.11 on, and used by the installed package."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler ({compiler}) on PATH: the wheel is built without the compiled walk")
    wheel, _sdist = built
    assert re.fullmatch(rf"pagesieve-{re.escape(__version__)}-cp311-abi3-\w+\.whl", wheel.name), wheel.name
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    for module in ("pagesieve/classify/_trees.", "pagesieve/blocks/_segment."):
        compiled = [n for n in names if n.startswith(module) and not n.endswith(".c")]
        assert len(compiled) == 1 and compiled[0].endswith((".so", ".pyd")), compiled
        assert module + "c" not in names  # the sources stay in the sdist
    used = subprocess.run([str(venv / "bin/python"), "-c", "import pagesieve.classify.classifier as c; print(c._compiled_leaves)"],
                          capture_output=True, text=True, cwd=venv, env=repo_free_env(), timeout=120)
    assert used.stdout.strip() == "<built-in function leaves>", used
    used = subprocess.run([str(venv / "bin/python"), "-c", "import pagesieve.blocks.segment as s; print(s._compiled is not None)"],
                          capture_output=True, text=True, cwd=venv, env=repo_free_env(), timeout=120)
    assert used.stdout.strip() == "True", used  # the checks at import passed in the installed package


def test_the_installed_wheel_extracts_a_page_outside_the_repository(venv, tmp_path, repo_free_env):
    clean_env = repo_free_env
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    page = outside / "article.html"
    shutil.copyfile(REPO / "examples/article.html", page)
    where = subprocess.run([str(venv / "bin/python"), "-c", "import pagesieve.classify.model_store as m; print(m.SHIPPED_MODEL)"],
                           capture_output=True, text=True, cwd=outside, env=clean_env(), timeout=120)
    assert where.stdout.strip().startswith(str(venv)), where  # the venv's copy, not the clone's
    done = subprocess.run([str(venv / "bin/pagesieve"), "extract", str(page), "--format", "markdown"],
                          capture_output=True, text=True, cwd=outside, env=clean_env(), timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("# Sourdough at Altitude") and "Lower air pressure lets gas expand faster" in done.stdout
    assert "Tried this at 1,800 m" not in done.stdout


def test_install_host_from_the_wheel_with_an_empty_home(venv, tmp_path, repo_free_env):
    clean_env = repo_free_env
    home = tmp_path / "home"
    home.mkdir()
    env = clean_env(HOME=str(home))
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        env.pop(name, None)
    done = subprocess.run([str(venv / "bin/pagesieve"), "install-host", "--browser", "chromium"],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    print(done.stdout)  # shown with -s: what the user sees
    manifest_path = home / ".config/chromium/NativeMessagingHosts" / f"{HOST_NAME}.json"
    launcher = home / ".local/share/pagesieve/host/pagesieve-host"
    assert done.stdout.splitlines() == [
        f"chromium: not found at {home / '.config/chromium'}; registered all the same, as asked",
        f"wrote {manifest_path}", f"wrote {launcher}"]
    manifest = json.loads(manifest_path.read_text())
    print(json.dumps(manifest, indent=2))
    assert manifest == {"name": HOST_NAME, "description": "pagesieve: local main-content extraction", "path": str(launcher),
                        "type": "stdio", "allowed_origins": [f"chrome-extension://{EXTENSION_ID}/"]}
    runs = re.search(r'^exec "([^"]+)" -m pagesieve.native "\$@"$', launcher.read_text(), re.M)
    assert runs and Path(runs.group(1)).parent == venv / "bin", launcher.read_text()  # the venv's Python
    # the launcher answers as the browser would start it, with no repository on any path
    body = json.dumps({"v": 1, "id": 1, "type": "ping"}).encode()
    out = subprocess.run([str(launcher), f"chrome-extension://{EXTENSION_ID}/"], input=struct.pack("=I", len(body)) + body,
                         capture_output=True, env=env, cwd=tmp_path, timeout=60)
    (n,) = struct.unpack("=I", out.stdout[:4])
    assert json.loads(out.stdout[4:4 + n])["type"] == "pong", out.stderr
    gone = subprocess.run([str(venv / "bin/pagesieve"), "install-host", "--uninstall"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert f"removed {manifest_path}" in gone.stdout and f"removed {launcher}" in gone.stdout, gone.stdout
