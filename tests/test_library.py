"""The article library: saving clean articles as Markdown + HTML files, the SQLite/FTS5 index,
file names, atomic writes, image inlining, trash and undo, rebuild, and the CLI.

Tests marked by the ``datasets_dir`` fixture save real held-out pages of ``../shared/datasets``
(skipped with the reason when that folder is absent); the rest run everywhere.
"""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import sys
import types
import unicodedata
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagesieve.article.model import Article, Metadata
from pagesieve.cli import main
from pagesieve.errors import InputError, LibraryError
from pagesieve_dev.evaluation.datasets import load_dataset, read_page, read_truth
from pagesieve_dev.evaluation.metric import prf_counts
from pagesieve.tokens import tokens
from pagesieve_dev.evaluation.selection import default_split_file, load_split, select_ids
from pagesieve.library import Library, save_article, save_page
from pagesieve.library import frontmatter, trash
from pagesieve.storage import atomic
from pagesieve.library.folder import LIBRARY_ENV, inside
from pagesieve.library.html_file import MAX_IMAGE_BYTES, MAX_INLINE_BYTES
from pagesieve.library.index import INDEX_FILE, SCHEMA_VERSION, fts_query
from pagesieve.library.markdown_file import read_markdown_document
from pagesieve.library.names import FORBIDDEN_CHARS, MAX_STEM_BYTES, RESERVED_NAMES, safe_stem, unique_stem

HELD_OUT = "l3s_gn1"
"""Dataset of the real-page tests: news articles with human truth; its held-out pages are the
``test`` list of ``models/split.json`` (never trained on)."""

N_PAGES = 5
"""Held-out pages saved by the real-page tests (the first ones of the split's test list)."""


def real_pages(datasets_dir: Path, n: int = N_PAGES) -> list[tuple[str, bytes, str | None, str]]:
    """``(id, html bytes, url, truth)`` of the first ``n`` held-out pages of :data:`HELD_OUT`."""
    ds = load_dataset(datasets_dir / HELD_OUT)
    split_file = default_split_file()
    assert split_file is not None and split_file.is_file(), "models/split.json is part of the repository"
    ids = select_ids(ds, load_split(split_file), limit=n)
    assert len(ids) == n
    return [(i, read_page(ds, i).encode("utf-8"), ds.record(i).url, read_truth(ds, i)) for i in ids]


def md_body(path: Path) -> str:
    parsed = read_markdown_document(path.read_text(encoding="utf-8"))
    assert parsed is not None, f"{path} has no pagesieve front matter"
    return parsed[1]


def article(title: str, text: str = "The harbour ferries stayed in port until the wind dropped.", url: str | None = None,
            html: str | None = None) -> Article:
    """A small article built by hand (for what does not depend on extraction: names, caps)."""
    return Article(metadata=Metadata(title=title), url=url, html=html or f"<div><p>{text}</p></div>", text=text)


def folder_listing(folder: Path) -> dict[str, bytes]:
    """Every file of the library folder but the index, with its bytes."""
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file() and not p.name.startswith(INDEX_FILE)}


def entry_rows(library: Library) -> list[tuple]:
    """The entries without their ids (a rebuilt index numbers them anew)."""
    return sorted(
        (e.url, e.title, e.byline, e.published, e.site, e.language, e.saved, e.tags, e.md_path, e.html_path, e.words)
        for e in library.list(limit=1000)
    )


# --------------------------------------------------------------------------- real pages


def test_saved_real_pages_are_good_markdown_and_searchable(datasets_dir, tmp_path):
    pages = real_pages(datasets_dir)
    f1s = []
    with Library(tmp_path) as library:
        for page_id, html, url, truth in pages:
            saved = save_page(html, url=url, folder=tmp_path)
            assert saved.md_path.is_file() and saved.html_path.is_file()
            assert saved.md_path.parent == tmp_path.resolve() and saved.html_path.parent == tmp_path.resolve()
            assert not saved.updated
            body = md_body(saved.md_path)
            f1s.append(prf_counts(Counter(tokens(body)), Counter(tokens(truth)))[2])
            # searchable by a word of its text: the longest truth word that the saved body holds
            word = max(set(tokens(truth)) & set(tokens(body)), key=lambda w: (len(w), w))
            hits = library.search(word)
            assert saved.id in [h.entry.id for h in hits], f"{page_id}: {word!r} does not find it"
            hit = next(h for h in hits if h.entry.id == saved.id)
            assert word in tokens(hit.snippet) or word in tokens(hit.entry.title), hit.snippet
            # the HTML file is a whole document with the metadata in its head
            doc = saved.html_path.read_text(encoding="utf-8")
            assert doc.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in doc
            assert "<script" not in doc.lower()
            if url:
                assert '<link rel="canonical"' in doc
        assert library.count() == len(pages)
    mean = sum(f1s) / len(f1s)
    assert mean >= 0.9, f"token F1 of the saved Markdown against the truth: {[round(f, 3) for f in f1s]}"


def test_same_url_twice_is_one_entry(datasets_dir, tmp_path):
    page_id, html, url, _ = real_pages(datasets_dir, 1)[0]
    url = url or f"https://example.org/{page_id}"
    first = save_page(html, url=url, folder=tmp_path, tags=["news"])
    files_before = sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("."))
    second = save_page(html, url=url + "#comments", folder=tmp_path, tags=["later"])
    assert second.updated and not first.updated
    assert second.id == first.id
    assert (second.md_path, second.html_path) == (first.md_path, first.html_path)
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".")) == files_before
    with Library(tmp_path) as library:
        assert library.count() == 1
        assert library.get(first.id).tags == ("news", "later")  # tags kept, new ones added
    assert read_markdown_document(second.md_path.read_text("utf-8"))[0].tags == ("news", "later")


def test_interrupted_save_leaves_no_partial_file(datasets_dir, tmp_path, monkeypatch):
    (id_a, html_a, url_a, _), (id_b, html_b, url_b, _) = real_pages(datasets_dir, 2)
    url_a = url_a or f"https://example.org/{id_a}"
    url_b = url_b or f"https://example.org/{id_b}"
    saved = save_page(html_a, url=url_a, folder=tmp_path)
    before = folder_listing(tmp_path)
    with Library(tmp_path) as library:
        entry_before = library.get(saved.id)

    real_write = atomic._write_fd
    calls = []

    def disk_full_on_second_file(fd, data):
        calls.append(len(data))
        if len(calls) == 2:  # the Markdown file, after the HTML one was staged
            os.write(fd, data[: len(data) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")
        real_write(fd, data)

    monkeypatch.setattr(atomic, "_write_fd", disk_full_on_second_file)
    # saving the same URL again (an update) and a new page both fail half-way
    with pytest.raises(LibraryError, match="No space left"):
        save_page(html_a, url=url_a, folder=tmp_path, tags=["lost"])
    calls.clear()
    with pytest.raises(LibraryError, match="No space left"):
        save_page(html_b, url=url_b, folder=tmp_path)
    assert len(calls) == 2
    monkeypatch.setattr(atomic, "_write_fd", real_write)

    assert folder_listing(tmp_path) == before  # no temporary file, no new file, old version intact
    with Library(tmp_path) as library:
        assert library.count() == 1
        assert library.get(saved.id) == entry_before
        assert library.find(url_b) is None


def test_index_deleted_or_corrupt_is_rebuilt(datasets_dir, tmp_path):
    pages = real_pages(datasets_dir, 3)
    with Library(tmp_path) as library:
        for n, (page_id, html, url, _) in enumerate(pages):
            save_page(html, url=url or f"https://example.org/{page_id}", folder=tmp_path, tags=[f"t{n}", "real"])
        library.set_tags(library.list()[0].id, ["edited", 'with "quotes": yes'])
        expected = entry_rows(library)
        word = tokens(library.list()[-1].title)[0]
        found = [h.entry.md_path for h in library.search(word)]
    assert len(expected) == 3

    for suffix in ("", "-wal", "-shm"):
        Path(f"{tmp_path / INDEX_FILE}{suffix}").unlink(missing_ok=True)
    with Library(tmp_path) as library:
        assert entry_rows(library) == expected
        assert [h.entry.md_path for h in library.search(word)] == found

    (tmp_path / INDEX_FILE).write_bytes(b"this is not an SQLite file at all" * 100)
    for suffix in ("-wal", "-shm"):
        Path(f"{tmp_path / INDEX_FILE}{suffix}").unlink(missing_ok=True)
    with Library(tmp_path) as library:
        assert entry_rows(library) == expected


# --------------------------------------------------------------------------- images


def test_two_hundred_images_over_the_total_cap(tmp_path):
    size = 200_000  # a typical article photo; 200 of them are 40 MB, over MAX_INLINE_BYTES
    urls = [f"https://img.example/{k}.jpg" for k in range(200)]
    figures = "".join(f'<figure><img src="{u}" alt="picture {k}"><figcaption>Picture {k} of the harbour.</figcaption></figure>'
                      for k, u in enumerate(urls))
    html = f"<div><p>Two hundred pictures of the harbour at dawn, one per minute.</p>{figures}</div>"
    art = Article(metadata=Metadata(title="Harbour in pictures"), url="https://img.example/story", html=html,
                  text="Two hundred pictures of the harbour at dawn, one per minute.")
    big = MAX_IMAGE_BYTES + 1
    images = {u: ("image/jpeg", bytes([k % 251]) * size) for k, u in enumerate(urls)}
    images[urls[0]] = ("image/jpeg", b"\xff" * big)  # over the per-image cap: stays a link
    images[urls[1]] = ("text/html", b"<script>alert(1)</script>")  # not an image: stays a link
    saved = save_article(art, tmp_path, images=images)

    expected_inlined = min(198, MAX_INLINE_BYTES // size)
    assert saved.images_inlined == expected_inlined
    assert saved.images_linked == 200 - expected_inlined
    doc = saved.html_path.read_text(encoding="utf-8")
    assert doc.count('src="data:image/jpeg;base64,') == expected_inlined
    assert f'src="{urls[0]}"' in doc and f'src="{urls[1]}"' in doc and f'src="{urls[-1]}"' in doc
    assert "<script" not in doc
    assert saved.html_path.stat().st_size <= MAX_INLINE_BYTES * 4 // 3 + 200_000
    assert "data:" not in saved.md_path.read_text(encoding="utf-8")  # the Markdown links images


def test_images_are_never_fetched(tmp_path, monkeypatch):
    import socket

    def no_network(*args, **kwargs):
        raise AssertionError("the host opened a network connection")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    art = article("Pictures", html='<div><p>Boats.</p><img src="https://img.example/a.png"></div>')
    saved = save_article(art, tmp_path)
    assert saved.images_inlined == 0 and saved.images_linked == 1
    assert 'src="https://img.example/a.png"' in saved.html_path.read_text("utf-8")


# --------------------------------------------------------------------------- file names


@pytest.mark.parametrize("title", [
    "x" * 500,
    "é" * 500,
    "新闻" * 250,
    "../../etc/passwd",
    "..",
    "a/b\\c:d*e?f\"g<h>i|j",
    "CON",
    "nul.txt",
    "  . hidden ",
    "line\nbreak\x00and\x1bcontrol",
    "right-to-left \u202egpj.exe",
    "",
])
def test_title_gives_a_safe_name_inside_the_folder(tmp_path, title):
    saved = save_article(article(title, url="https://example.org/" + title.encode("utf-8").hex()), tmp_path)
    folder = tmp_path.resolve()
    for path in (saved.md_path, saved.html_path):
        assert path.parent == folder and path.is_file()
        assert len(path.stem.encode("utf-8")) <= MAX_STEM_BYTES
        assert not path.name.startswith(".")
        assert not set(path.stem) & FORBIDDEN_CHARS
        assert all(ch.isprintable() for ch in path.stem)
        assert path.stem.split(".")[0].upper() not in RESERVED_NAMES
    assert read_markdown_document(saved.md_path.read_text("utf-8"))[0].title == " ".join(title.split())
    if not title.strip(" ./\n"):
        assert saved.md_path.stem == "untitled"


@given(st.text(max_size=300))
@settings(max_examples=300, deadline=None)
def test_safe_stem_properties(title):
    stem = safe_stem(title)
    assert stem and len(stem.encode("utf-8")) <= MAX_STEM_BYTES
    assert not stem.startswith(".") and not stem.endswith((".", " ")) and not stem.startswith(" ")
    assert not set(stem) & FORBIDDEN_CHARS
    assert all(ch.isprintable() or ch in "\u200c\u200d" or unicodedata.category(ch) == "Co" for ch in stem)
    assert stem.split(".")[0].upper() not in RESERVED_NAMES
    folder = Path("/library").resolve()
    assert inside(folder, stem + ".md").parent == folder


def test_same_title_gets_numbered_names_and_retitle_renames(tmp_path):
    a = save_article(article("Storm warning", url="https://a.example/1"), tmp_path)
    b = save_article(article("Storm Warning", url="https://a.example/2"), tmp_path)  # differs in case only
    assert a.md_path.name == "Storm warning.md"
    assert b.md_path.name == "Storm Warning (2).md"
    # saved again: same names; retitled: renamed, old files gone, still one entry
    again = save_article(article("Storm Warning", url="https://a.example/2"), tmp_path)
    assert again.md_path == b.md_path and again.updated
    retitled = save_article(article("Storm over: ferries run again", url="https://a.example/2"), tmp_path)
    assert retitled.md_path.name == "Storm over ferries run again.md" and retitled.updated
    assert not b.md_path.exists() and not b.html_path.exists()
    assert a.md_path.exists()
    recased = save_article(article("STORM OVER: FERRIES RUN AGAIN", url="https://a.example/2"), tmp_path)
    names = sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("."))
    assert names == ["STORM OVER FERRIES RUN AGAIN.html", "STORM OVER FERRIES RUN AGAIN.md", "Storm warning.html", "Storm warning.md"]
    assert recased.md_path.read_text("utf-8").count("STORM OVER") == 2  # front matter and heading
    with Library(tmp_path) as library:
        assert library.count() == 2


def _save_in_process(folder: str, first: int, n: int) -> None:
    for k in range(first, first + n):
        save_article(article("Same title everywhere"), folder, url=f"https://example.org/p{k}")


def test_two_processes_saving_the_same_title_get_distinct_files(tmp_path):
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_save_in_process, args=(str(tmp_path), k * 6, 6)) for k in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    names = [p.name for p in tmp_path.iterdir() if p.suffix == ".md"]
    assert len(names) == 12 and "Same title everywhere.md" in names and "Same title everywhere (12).md" in names
    with Library(tmp_path) as library:
        assert library.count() == 12 and {e.md_path.name for e in library.list()} == set(names)


def test_opening_waits_for_another_process_switching_a_new_index(tmp_path, held_write_lock):
    # A new index file still in rollback mode, whose write lock another connection holds (as
    # when a second process creates it at the same moment): SQLite refuses the switch to WAL
    # at once, without its busy handler, so the open must wait for the lock itself.
    import time

    held_write_lock(tmp_path / INDEX_FILE, 0.3)
    started = time.monotonic()
    with Library(tmp_path) as library:
        assert time.monotonic() - started >= 0.25  # it waited for the other writer
        assert library.count() == 0
        library.save(article("After the wait"), url="https://example.org/wait")
        assert library.count() == 1
    assert sqlite3.connect(tmp_path / INDEX_FILE).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_one_library_serves_several_threads(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    with Library(tmp_path) as library, ThreadPoolExecutor(max_workers=4) as pool:
        saved = list(pool.map(lambda k: library.save(article(f"Buoy {k}"), url=f"https://example.org/b{k}"), range(12)))
        assert len({s.md_path for s in saved}) == 12
        counts = list(pool.map(lambda _: len(library.search("harbour")), range(8)))
        assert counts == [12] * 8 and library.count() == 12


def test_inside_refuses_escaping_names(tmp_path):
    folder = tmp_path.resolve()
    for name in ("..", "../x.md", "a/b.md", "/etc/passwd", "", "."):
        with pytest.raises(LibraryError):
            inside(folder, name)


def test_unique_stem_keeps_within_byte_limit():
    stem = safe_stem("ü" * 300)
    taken = {stem + ".md"} | {f"{stem[:5]}.html"}
    second = unique_stem(stem, taken)
    assert second.endswith(" (2)") and len(second.encode("utf-8")) <= MAX_STEM_BYTES


# --------------------------------------------------------------------------- front matter


TRICKY = [
    'Breaking: "quotes", #hashtags & colons: all here',
    "Two\nlines",
    "- starts like a list item",
    "[looks like a flow list]",
    "yes",
    "null",
    "tab\there \\ backslash",
    "emoji 😀 and \u2028 separator and \x85 NEL and \x7f DEL",
    "'single' quotes",
    "@at `backtick` %percent",
]


@pytest.mark.parametrize("title", TRICKY)
def test_front_matter_round_trips(tmp_path, title):
    art = article(title, url=f"https://example.org/x?q={len(title)}")
    art.metadata.byline = 'Ann "the pen" O\'Neil: staff'
    saved = save_article(art, tmp_path, tags=["a: b", "#c", title])
    meta, _ = read_markdown_document(saved.md_path.read_text("utf-8"))
    assert meta.title == " ".join(title.split())
    assert meta.byline == art.metadata.byline
    assert meta.tags == ("a: b", "#c", " ".join(title.split()))


@pytest.mark.parametrize("title", TRICKY)
def test_front_matter_is_valid_yaml(title):
    yaml = pytest.importorskip("yaml", reason="PyYAML not installed: the cross-check with a real YAML parser is skipped")
    block = frontmatter.emit([("title", title), ("author", None), ("tags", ["x", title])])
    data = yaml.safe_load(block.split("---\n")[1])
    assert data == {"title": title, "author": None, "tags": ["x", title]}


def test_front_matter_reads_what_notes_apps_write():
    text = (
        "---\ntitle: Plain title: with colon # and comment\nauthor: 'It''s me'\n"
        "tags:\n  - one\n  - \"two\"\nurl: https://example.org/a\nsaved: 2026-03-14T08:30:00Z\n"
        "extra: kept\n---\n# Plain title\n\nBody text.\n"
    )
    meta, body = read_markdown_document(text)
    assert meta.title == "Plain title: with colon" and meta.byline == "It's me"
    assert meta.tags == ("one", "two") and meta.url == "https://example.org/a"
    changed = frontmatter.replace_key(text, "tags", ["three"])
    assert "extra: kept" in changed and changed.endswith("---\n# Plain title\n\nBody text.\n")
    assert read_markdown_document(changed)[0].tags == ("three",)


# --------------------------------------------------------------------------- search


NASTY_QUERIES = ['"', '""', "*", "-", "AND", "OR NOT", "NEAR(", "NEAR(a b)", "title:harbour", "^harbour",
                 'a"b', "(", ")", "'", "\\", "{title tags}: x", "+", ":", "", "   ", "harbour*", "*harbour",
                 "harbour -ferry", "中文", "\x00", "ε", "a" * 1000]


def test_fts_query_with_special_characters_does_not_crash(tmp_path):
    with Library(tmp_path) as library:
        saved = library.save(article("Harbour news", "Ferries stayed in the harbour; 渡轮停在港口。 AND OR NOT"),
                             url="https://example.org/h")
        for query in NASTY_QUERIES:
            assert isinstance(library.search(query), list)
        for query in ("harbour", '"harbour', "(harbour)", "-harbour", "harbour*", "harb*", "HARBOUR", "harbour:",
                      "AND", "渡轮", "港口", "ferries harbour"):
            assert [h.entry.id for h in library.search(query)] == [saved.id], query
        assert library.search("harbour submarine") == []  # every word must match
        hit = library.search("港口")[0]
        assert "[港口]" in hit.snippet  # CJK words come back whole in the snippet

        @given(st.text(max_size=80))
        @settings(max_examples=200, deadline=None)
        def any_text_is_safe(query):
            assert isinstance(library.search(query), list)

        any_text_is_safe()


def test_fts_query_quotes_everything():
    assert fts_query('harbour "AND* -x') == '"harbour" """AND"* "-x"'
    assert fts_query("*** - ( )") is None


def test_list_is_newest_first_with_paging(tmp_path, monkeypatch):
    from pagesieve.library import catalog

    with Library(tmp_path) as library:
        for k in range(5):
            monkeypatch.setattr(catalog, "utc_now", lambda k=k: f"2026-01-0{k + 1}T00:00:00Z")
            library.save(article(f"Story {k}"), url=f"https://example.org/{k}")
        titles = [e.title for e in library.list()]
        assert titles == [f"Story {k}" for k in (4, 3, 2, 1, 0)]
        assert [e.title for e in library.list(limit=2, offset=2)] == ["Story 2", "Story 1"]


# --------------------------------------------------------------------------- tags, delete, undo


def test_set_tags_rewrites_only_the_front_matter(tmp_path):
    with Library(tmp_path) as library:
        saved = library.save(article("Tide tables"), url="https://example.org/tides")
        text = saved.md_path.read_text("utf-8")
        body = text.split("\n---\n", 1)[1]
        entry = library.set_tags(saved.id, ["sea", "Sea", " ", "tides and moon"])
        assert entry.tags == ("sea", "tides and moon")
        new_text = saved.md_path.read_text("utf-8")
        assert new_text.split("\n---\n", 1)[1] == body
        assert read_markdown_document(new_text)[0].tags == ("sea", "tides and moon")
        assert [h.entry.id for h in library.search("moon")] == [saved.id]  # tags are searched
        with pytest.raises(LibraryError, match="no saved article"):
            library.set_tags(saved.id + 100, ["x"])
        with pytest.raises(InputError):
            library.set_tags(saved.id, ["x" * 1000])


def test_delete_to_library_trash_and_undo(tmp_path, monkeypatch):
    monkeypatch.setattr(trash, "to_system_trash", lambda paths: False)  # as without send2trash
    with Library(tmp_path) as library:
        saved = library.save(article("Lighthouse keeper retires"), url="https://example.org/lh")
        before = folder_listing(tmp_path)
        gone = library.delete(saved.id)
        assert not gone.system_trash and gone.token
        assert not saved.md_path.exists() and not saved.html_path.exists()
        assert library.count() == 0 and library.search("lighthouse") == []
        back = library.undo_delete(gone.token)
        assert back.md_path == saved.md_path and back.title == saved.title
        assert folder_listing(tmp_path) == before
        assert [h.entry.id for h in library.search("lighthouse")] == [back.id]
        with pytest.raises(LibraryError):
            library.undo_delete(gone.token)  # already restored
        with pytest.raises(LibraryError):
            library.undo_delete("../../etc")


def test_undo_after_the_same_url_was_saved_again_keeps_both(tmp_path, monkeypatch):
    monkeypatch.setattr(trash, "to_system_trash", lambda paths: False)
    with Library(tmp_path) as library:
        saved = library.save(article("Pier repairs"), url="https://example.org/pier")
        gone = library.delete(saved.id)
        library.save(article("Pier repairs, updated"), url="https://example.org/pier")
        with pytest.raises(LibraryError, match="saved again"):
            library.undo_delete(gone.token)
        assert (tmp_path / trash.TRASH_DIR / gone.token / saved.md_path.name).is_file()


def test_delete_to_system_trash(tmp_path, monkeypatch):
    binned = []
    fake = types.ModuleType("send2trash")
    fake.send2trash = lambda path: binned.append(Path(path)) or os.remove(path)
    monkeypatch.setitem(sys.modules, "send2trash", fake)
    with Library(tmp_path) as library:
        saved = library.save(article("Gulls"), url="https://example.org/gulls")
        gone = library.delete(saved.id)
        assert gone.system_trash and gone.token is None
        assert sorted(binned) == sorted([saved.md_path, saved.html_path])
        assert library.count() == 0


# --------------------------------------------------------------------------- folder, errors, CLI


def test_folder_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(LIBRARY_ENV, str(tmp_path / "from-env"))
    saved = save_article(article("Env"))
    assert saved.md_path.parent == (tmp_path / "from-env").resolve()


def test_empty_article_is_refused_and_nothing_written(tmp_path):
    with pytest.raises(InputError, match="nothing to save"):
        save_article(Article(metadata=Metadata(title="Empty")), tmp_path)
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith(".")] == []


def test_index_from_a_newer_pagesieve_is_refused(tmp_path):
    with Library(tmp_path):
        pass
    db = sqlite3.connect(tmp_path / INDEX_FILE)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(LibraryError, match="schema version"):
        Library(tmp_path)


def test_cli_save_and_saved(tmp_path, example_page, capsys):
    url = "https://hillkitchen.example/posts/sourdough-altitude/"
    assert main(["save", str(example_page), "--url", url, "--tag", "bread", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and out[0].endswith(".md") and out[1].endswith(".html")
    md, html = Path(out[0]), Path(out[1])
    assert md.is_file() and html.is_file() and md.parent == tmp_path.resolve()
    assert "Sourdough at Altitude" in md.read_text("utf-8")

    assert main(["saved", "hydration", "--dir", str(tmp_path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [a["md_path"] for a in data["articles"]] == [str(md)]
    assert "[hydration]" in data["articles"][0]["snippet"] and data["articles"][0]["tags"] == ["bread"]

    assert main(["saved", "--dir", str(tmp_path)]) == 0
    assert "Sourdough at Altitude" in capsys.readouterr().out
    assert main(["saved", '"NEAR(', "--dir", str(tmp_path)]) == 0
    assert "no saved article matches" in capsys.readouterr().out
    assert main(["saved", "--rebuild", "--dir", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 1


def test_cli_delete_and_undo(tmp_path, example_page, capsys, monkeypatch):
    monkeypatch.setattr(trash, "to_system_trash", lambda paths: False)
    assert main(["save", str(example_page), "--dir", str(tmp_path)]) == 0
    md = Path(capsys.readouterr().out.splitlines()[0])
    assert main(["saved", "--delete", "1", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert not md.exists() and "pagesieve saved --undo" in out
    token = out.split("--undo ")[1].split()[0]
    assert main(["saved", "--undo", token, "--dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == str(md) and md.is_file()
    assert main(["saved", "--delete", "99", "--dir", str(tmp_path)]) == 9


def test_cli_save_errors(tmp_path, capsys):
    assert main(["save", str(tmp_path / "missing.html"), "--dir", str(tmp_path / "lib")]) == 4
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    page = tmp_path / "p.html"
    page.write_text("<html><body><article><p>" + "Words of a real article. " * 40 + "</p></article></body></html>")
    assert main(["save", str(page), "--dir", str(blocker)]) == 9
    assert "is a file, not a folder" in capsys.readouterr().err


def test_damaged_index_pages_are_rebuilt(tmp_path):
    with Library(tmp_path) as library:
        for k in range(30):
            library.save(article(f"Tide report {k}", "High water at dawn. " * 200), url=f"https://example.org/t{k}")
        expected = entry_rows(library)
    path = tmp_path / INDEX_FILE
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    data = bytearray(path.read_bytes())
    assert len(data) > 8 * 4096
    data[4096:len(data) - 4096] = b"\xa5" * (len(data) - 8192)  # every page but the first and last
    path.write_bytes(bytes(data))
    with Library(tmp_path) as library:  # opens (the header is sound), then fails on the pages
        with pytest.raises(LibraryError, match="rebuild"):
            library.list()
        assert library.rebuild() == 30
        assert entry_rows(library) == expected
