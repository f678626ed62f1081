"""The library window: its JavaScript API (:class:`pagesieve.library.api.LibraryApi`), the reading
view, export, the ``pagesieve library`` command, and the window itself run headless.

The API, reader and export tests need neither Qt nor the datasets. The window tests start Qt
WebEngine offscreen (``QT_QPA_PLATFORM=offscreen``) in a subprocess with a hard timeout; they
are skipped with the reason when pywebview or Qt WebEngine is missing. The main one saves real
held-out pages of ``../shared/datasets`` (skipped when that folder is absent) and keeps its
screenshot in ``tests/artifacts/library-window.png``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from pagesieve.article.model import Article, Metadata
from pagesieve.cli import main
from pagesieve.tokens import tokens
from pagesieve.library import Library, save_page
from pagesieve.library.api import MARKS, LibraryApi, snippet_parts
from pagesieve.library.export import export_entry
from pagesieve.library.markdown_file import body_text, read_markdown_document
from pagesieve.library.reader import THEME_MARKER, reader_document
from pagesieve.library.window import prepare_environment
from pagesieve.page.html import parse_html
from pagesieve.templates.learn import summarise
from pagesieve.templates.store import TemplateStore

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "tests" / "artifacts"
DRIVER = REPO / "tests" / "library_window_driver.py"
WINDOW_TIMEOUT_S = 120
"""Hard limit of one window subprocess (it takes 3 to 5 s here); a stuck Qt fails the test."""

WINDOW_SIZE = (1100, 760)


def article(title: str, text: str, url: str) -> Article:
    """A small article built by hand."""
    return Article(metadata=Metadata(title=title, site_name="Harbour News"), url=url, html=f"<div><p>{text}</p></div>", text=text)


@pytest.fixture()
def library(tmp_path: Path):
    with Library(tmp_path / "lib") as lib:
        lib.save(article("Ferries stay in port", "The harbour ferries stayed in port until the gale dropped.", "https://news.example/ferries"))
        lib.save(article("Lighthouse repainted", "Volunteers repainted the old lighthouse red and white.", "https://news.example/lighthouse"), tags=["town"])
        yield lib


def exports_to(folder: Path):
    """A path chooser that answers ``folder / suggested name`` and records what it was asked."""
    asked = []

    def choose(name: str, fmt: str) -> str:
        asked.append((name, fmt))
        return str(folder / name)

    choose.asked = asked
    return choose


# ---------------------------------------------------------------------- the API, without Qt


def test_api_lists_newest_first_and_searches_with_flagged_matches(library: Library) -> None:
    api = LibraryApi(library)
    listed = api.list()
    assert listed["ok"] and listed["total"] == 2
    assert [a["title"] for a in listed["articles"]] == ["Lighthouse repainted", "Ferries stay in port"]
    assert listed["articles"][0]["tags"] == ["town"] and listed["articles"][0]["words"] > 0
    json.dumps(listed)  # what pywebview sends to the page must be JSON

    found = api.search("gale")
    assert found["ok"] and [a["title"] for a in found["articles"]] == ["Ferries stay in port"]
    matched = [text for text, flag in found["articles"][0]["snippet"] if flag]
    assert [t.lower() for t in matched] == ["gale"]
    assert not any(m in text for text, _ in found["articles"][0]["snippet"] for m in MARKS)

    assert api.search("nothing-like-this")["articles"] == []
    assert api.list(1, 1)["articles"][0]["title"] == "Ferries stay in port"
    assert api.info() == {"ok": True, "folder": str(library.folder), "total": 2}


def test_api_answers_errors_instead_of_raising(library: Library) -> None:
    api = LibraryApi(library)
    for answer in (api.article(999), api.set_tags(999, ["x"]), api.delete(999), api.undo_delete("nope"),
                   api.article("1; DROP"), api.article(True), api.set_tags(1, "not a list"), api.search(None),
                   api.list(2.5), api.export(1, "pdf"), api.forget_site("")):
        assert answer["ok"] is False and isinstance(answer["error"], str) and answer["error"], answer
    assert "999" in api.article(999)["error"]


def test_api_reads_an_article_as_a_sanitised_document(library: Library) -> None:
    api = LibraryApi(library)
    entry = library.list()[1]
    answer = api.article(entry.id)
    assert answer["ok"] and answer["article"]["id"] == entry.id
    doc = answer["document"]
    assert doc.count(answer["theme_marker"]) == 1 and doc.index(answer["theme_marker"]) < doc.index("<body>")
    assert "The harbour ferries stayed in port until the gale dropped." in doc
    assert "<h1>Ferries stay in port</h1>" in doc and "Content-Security-Policy" in doc
    assert api.article(float(entry.id))["ok"]  # JavaScript numbers may arrive as floats


def test_api_tags_delete_and_undo(library: Library) -> None:
    api = LibraryApi(library, system_trash=False)
    entry = library.list()[1]
    tagged = api.set_tags(entry.id, [" boats ", "Boats", "weather"])
    assert tagged["ok"] and tagged["article"]["tags"] == ["boats", "weather"]
    assert library.get(entry.id).tags == ("boats", "weather")
    assert read_markdown_document(entry.md_path.read_text(encoding="utf-8"))[0].tags == ("boats", "weather")

    gone = api.delete(entry.id)
    assert gone["ok"] and gone["system_trash"] is False and gone["token"]
    assert not entry.md_path.exists() and api.list()["total"] == 1
    back = api.undo_delete(gone["token"])
    assert back["ok"] and back["article"]["title"] == "Ferries stay in port" and back["article"]["tags"] == ["boats", "weather"]
    assert Path(back["article"]["md_path"]).is_file() and api.list()["total"] == 2
    assert api.undo_delete(gone["token"])["ok"] is False  # only once


def test_api_delete_to_the_system_trash_offers_no_undo(library: Library, monkeypatch) -> None:
    moved = []
    monkeypatch.setattr("pagesieve.library.trash.to_system_trash", lambda paths: moved.extend(paths) or True)
    answer = LibraryApi(library).delete(library.list()[0].id)
    assert answer["ok"] and answer["system_trash"] is True and answer["token"] is None
    assert len(moved) == 2 and library.count() == 1


def test_api_exports_markdown_and_html_where_the_user_chose(library: Library, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    choose = exports_to(out)
    api = LibraryApi(library, choose_path=choose)
    entry = library.list()[0]
    md = api.export(entry.id, "md")
    html = api.export(entry.id, "html")
    assert md["ok"] and html["ok"]
    assert Path(md["path"]).read_bytes() == entry.md_path.read_bytes()
    assert Path(html["path"]).read_bytes() == entry.html_path.read_bytes()
    assert choose.asked == [(entry.md_path.name, "md"), (entry.html_path.name, "html")]

    cancelled = LibraryApi(library, choose_path=lambda name, fmt: None).export(entry.id, "md")
    assert cancelled == {"ok": True, "path": None, "cancelled": True}
    nowhere = LibraryApi(library, choose_path=lambda name, fmt: str(tmp_path / "missing" / "a.md")).export(entry.id, "md")
    assert nowhere["ok"] is False and "does not exist" in nowhere["error"]
    assert LibraryApi(library).export(entry.id, "md")["ok"] is False  # no dialog to ask


def test_api_learned_sites_and_forgetting(library: Library, tmp_path: Path, example_page: Path) -> None:
    store_path = tmp_path / "templates.sqlite3"
    html = example_page.read_bytes()
    with TemplateStore(store_path) as store:
        for i in range(3):
            store.learn(summarise(parse_html(html, url=f"https://hillkitchen.example/posts/{i}/")))
        store.learn(summarise(parse_html(html, url="https://other.example/a")))
    api = LibraryApi(library, store_path)
    sites = api.sites()
    assert sites["ok"] and sites["store"] == str(store_path) and sites["labels"] == 0
    from pagesieve.corrections.signature import Signature
    from pagesieve.corrections.store import Label, LabelStore
    import numpy as np

    from pagesieve.blocks.features import N_FEATURES

    with LabelStore(tmp_path / "labels.sqlite3") as labels:  # beside the template store, as in the user's folder
        labels.add(Label("other.example", None, 0, Signature(("aside",)), np.zeros((0, N_FEATURES), np.float32)))
    listed = api.sites()
    assert listed["labels"] == 1 and [lab["site"] for lab in listed["label_list"]] == ["other.example"]
    assert api.delete_label(listed["label_list"][0]["id"]) == {"ok": True, "deleted": 1}
    assert api.sites()["labels"] == 0 and api.delete_label("x")["ok"] is False
    by_site = {s["site"]: s for s in sites["sites"]}
    assert set(by_site) == {"hillkitchen.example", "other.example"}
    assert by_site["hillkitchen.example"]["pages"] == 3 and by_site["hillkitchen.example"]["bytes"] > 0
    assert by_site["hillkitchen.example"]["last_used"] > 0
    json.dumps(sites)

    assert api.forget_site("hillkitchen.example") == {"ok": True, "site": "hillkitchen.example", "forgotten": True}
    assert api.forget_site("hillkitchen.example")["forgotten"] is False
    assert [s["site"] for s in api.sites()["sites"]] == ["other.example"]
    assert api.forget_all() == {"ok": True, "forgotten": 1}
    assert api.sites()["sites"] == []


def test_api_reports_an_unopenable_template_store(library: Library, tmp_path: Path) -> None:
    bad = tmp_path / "not-a-store.sqlite3"
    bad.write_bytes(b"this is not a database" * 100)
    answer = LibraryApi(library, bad).sites()
    assert answer["ok"] is False and "template store" in answer["error"]


def test_snippet_parts() -> None:
    a, b = MARKS
    assert snippet_parts(f"the {a}gale{b} dropped {a}fast{b}") == [["the ", False], ["gale", True], [" dropped ", False], ["fast", True]]
    assert snippet_parts("no match") == [["no match", False]]
    assert snippet_parts(f"{a}open") == [["open", True]]
    assert snippet_parts("") == []


# ---------------------------------------------------------------------- reading view and export


def test_reader_resanitises_an_edited_html_file_and_falls_back_to_markdown(library: Library) -> None:
    entry = library.list()[1]
    text = entry.html_path.read_text(encoding="utf-8")
    edited = text.replace("<p>The harbour", '<script>alert(1)</script><p onclick="steal()">The harbour<iframe src="https://evil.example/"></iframe>')
    entry.html_path.write_text(edited, encoding="utf-8")
    doc = reader_document(entry)
    assert "The harbour ferries stayed in port" in doc
    for bad in ("<script", "alert(1)", "onclick", "<iframe", "evil.example"):
        assert bad not in doc
    assert doc.count(THEME_MARKER) == 1

    entry.html_path.unlink()
    doc = reader_document(entry)
    assert "shown from the Markdown file" in doc and "The harbour ferries stayed in port until the gale dropped." in doc
    entry.md_path.unlink()
    with pytest.raises(Exception, match="cannot read"):
        reader_document(entry)


def test_export_entry_folder_and_suffix(library: Library, tmp_path: Path) -> None:
    entry = library.list()[0]
    assert export_entry(entry, "md", tmp_path) == tmp_path / entry.md_path.name
    assert export_entry(entry, "html", tmp_path / "copy").name == "copy.html"
    assert (tmp_path / "copy.html").read_bytes() == entry.html_path.read_bytes()


# ---------------------------------------------------------------------- the command and the environment


def test_prepare_environment_adds_chromium_flags_once() -> None:
    env = {"QT_QPA_PLATFORM": "offscreen", "QTWEBENGINE_CHROMIUM_FLAGS": "--lang=en"}
    prepare_environment(env)
    prepare_environment(env)
    flags = env["QTWEBENGINE_CHROMIUM_FLAGS"].split()
    assert flags[0] == "--lang=en" and flags.count("--disable-gpu") == 1
    assert flags.count("--no-sandbox") == (1 if sys.platform.startswith("linux") and os.geteuid() == 0 else 0)


def test_library_command_without_a_display_says_so(tmp_path: Path, monkeypatch, capsys) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("the display check applies to X11 and Wayland systems")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    assert main(["library", "--dir", str(tmp_path)]) == 7
    assert "no display" in capsys.readouterr().err


def test_library_command_rejects_a_bad_quit_after(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["library", "--dir", str(tmp_path), "--quit-after", "0"])
    assert exc.value.code == 2


# ---------------------------------------------------------------------- the window, headless


def qt_missing() -> str | None:
    """Why the window cannot run here, or ``None``."""
    for module in ("webview", "qtpy", "PyQt6.QtWebEngineWidgets"):
        try:
            if importlib.util.find_spec(module) is None:
                return f"{module} is not installed (pip install -e '.[test]')"
        except ImportError as exc:
            return f"{module} cannot be imported: {exc}"
    return None


needs_qt = pytest.mark.skipif(qt_missing() is not None, reason=str(qt_missing()))


def headless_env() -> dict[str, str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "host"), env.get("PYTHONPATH")]))
    return env


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (fails on anything but a PNG)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


def run_window_process(args: list[str]) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(args, env=headless_env(), capture_output=True, text=True, timeout=WINDOW_TIMEOUT_S, cwd=REPO)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"the window did not finish within {WINDOW_TIMEOUT_S} s; stderr: {exc.stderr!r}")


@pytest.fixture(scope="module")
def real_library(tmp_path_factory, datasets_dir: Path) -> tuple[Path, list]:
    """A library of three held-out l3s_gn1 pages (news articles, never trained on)."""
    from test_library import real_pages

    folder = tmp_path_factory.mktemp("window-library")
    saved = [save_page(data, url=url, folder=folder, tags=["news"]) for _, data, url, _ in real_pages(datasets_dir, 3)]
    return folder, saved


def unique_word(saved: list, index: int) -> str:
    """A word of article ``index``'s text that no other saved article has."""
    words = []
    for s in saved:
        parsed = read_markdown_document(s.md_path.read_text(encoding="utf-8"))
        words.append(set(tokens(parsed[0].title + " " + body_text(parsed[1], parsed[0].title))))
    others = set().union(*(w for i, w in enumerate(words) if i != index))
    candidates = sorted(w for w in words[index] - others if w.isalpha() and len(w) >= 6)
    assert candidates, "the three pages share every word"
    return candidates[0]


@needs_qt
def test_window_lists_searches_and_shows_an_article_headless(real_library, tmp_path: Path) -> None:
    folder, saved = real_library
    target = saved[1]
    word = unique_word(saved, 1)
    result_file = tmp_path / "result.json"
    png = ARTIFACTS / "library-window.png"
    png.unlink(missing_ok=True)
    import numpy as np

    from pagesieve.corrections.signature import Signature
    from pagesieve.corrections.store import Label, LabelStore
    from pagesieve.blocks.features import N_FEATURES

    with LabelStore(tmp_path / "labels.sqlite3") as labels:  # a correction made in the browser
        labels.add(Label("harbour.example", None, 0, Signature(("div.layout", "div.promo")), np.zeros((0, N_FEATURES), np.float32),
                         snippet="Get the weekend edition"))
    done = run_window_process([sys.executable, str(DRIVER), str(folder), str(tmp_path / "store.sqlite3"), word, str(result_file), str(png)])
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(result_file.read_text(encoding="utf-8"))

    newest_first = [s.title for s in reversed(saved)]
    assert result["listed"] == newest_first
    assert result["count"] == "3 articles"
    assert result["found"] == [target.title], f"search for {word!r}"
    assert result["marks"] and all(m.lower() == word for m in result["marks"])

    opened = result["opened"]
    assert opened["title"] == target.title and opened["scripts"] == 0
    assert "allow-scripts" not in opened["sandbox"] and "allow-same-origin" not in opened["sandbox"]
    assert opened["width"] > 300 and opened["height"] > 300
    shown = tokens(opened["text"])
    body = tokens(body_text(read_markdown_document(target.md_path.read_text(encoding="utf-8"))[1], target.title))
    assert word in shown and len(body) > 50
    common = sum(1 for t in set(body) if t in set(shown))
    assert common / len(set(body)) > 0.95, "the reading view shows the article's text"
    assert result["tags_field"] == "news"

    [row] = result["labels"]
    assert "harbour.example" in row and "hide" in row and "div.promo" in row and "Get the weekend edition" in row
    assert tuple(result["screenshot"]) == WINDOW_SIZE
    assert png_size(png) == WINDOW_SIZE and png.stat().st_size > 10_000


@needs_qt
def test_library_command_screenshot(library: Library, tmp_path: Path) -> None:
    png = tmp_path / "shot.png"
    done = run_window_process([sys.executable, "-m", "pagesieve", "library", "--dir", str(library.folder),
                               "--store", str(tmp_path / "store.sqlite3"), "--screenshot", str(png), "--quit-after", "60"])
    assert done.returncode == 0, done.stderr[-3000:]
    assert str(png) in done.stdout
    assert png_size(png) == WINDOW_SIZE and png.stat().st_size > 5_000
