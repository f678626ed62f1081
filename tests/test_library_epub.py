"""EPUB export of saved articles (:mod:`pagesieve.library.epub`): the book holds the article and
its embedded pictures, carries the entry's metadata, and passes epubcheck.

The real-page test saves held-out pages of ``../shared/datasets`` (skipped when that folder is
absent). The books are checked with epubcheck, the EPUB reference validator (Debian's
``epubcheck``, which ``.ci/run`` installs, run with Java); where it is missing those checks are
skipped with that reason and the structural checks still run.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from pagesieve.article.model import Article, Metadata
from pagesieve.cli import main
from pagesieve.errors import LibraryError
from pagesieve_dev.evaluation.metric import prf
from pagesieve.library import Library, save_page
from pagesieve.library.api import LibraryApi
from pagesieve.library.epub import book_identifier, epub_bytes
from pagesieve.library.export import export_entry
from pagesieve.library.markdown_file import body_text, read_markdown_document

from test_library import real_pages

EPUBCHECK_JAR = Path("/usr/share/java/epubcheck.jar")
NS = {"opf": "http://www.idpf.org/2007/opf", "dc": "http://purl.org/dc/elements/1.1/",
      "x": "http://www.w3.org/1999/xhtml"}

# 1x1 PNG, and the first bytes of a WebP (a type the export leaves out)
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000" "1f15c4890000000d49444154789c6360000002000105"
    "7ee7a6c70000000049454e44ae426082"
)
WEBP = b"RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00/\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00"


def epubcheck(path: Path) -> str:
    """epubcheck's report on ``path``; fails the test when it finds an error."""
    if not EPUBCHECK_JAR.is_file() or shutil.which("java") is None:
        pytest.skip(f"epubcheck not installed ({EPUBCHECK_JAR} and java; apt-get install epubcheck)")
    run = subprocess.run(["java", "-jar", str(EPUBCHECK_JAR), str(path)], capture_output=True, text=True, timeout=120)
    report = run.stdout + run.stderr
    assert run.returncode == 0 and "0 fatals / 0 errors" in report, report
    return report


def open_book(data: bytes) -> tuple[zipfile.ZipFile, etree._Element, etree._Element]:
    """``(archive, package document, article document)`` of an EPUB, after the checks of the
    container every reading system relies on (EPUB 3.3, "OCF ZIP container")."""
    book = zipfile.ZipFile(io.BytesIO(data))
    first = book.infolist()[0]
    assert first.filename == "mimetype" and first.compress_type == zipfile.ZIP_STORED
    assert book.read("mimetype") == b"application/epub+zip"
    container = etree.fromstring(book.read("META-INF/container.xml"))
    opf_path = container.find(".//{urn:oasis:names:tc:opendocument:xmlns:container}rootfile").get("full-path")
    opf = etree.fromstring(book.read(opf_path))
    chapter = [i for i in opf.iterfind(".//opf:manifest/opf:item", NS) if i.get("media-type") == "application/xhtml+xml"
               and "nav" not in (i.get("properties") or "")]
    assert len(chapter) == 1
    base = opf_path.rsplit("/", 1)[0]
    return book, opf, etree.fromstring(book.read(f"{base}/{chapter[0].get('href')}"))


def test_books_of_real_saved_pages_hold_their_articles_and_pass_epubcheck(datasets_dir: Path, tmp_path: Path) -> None:
    pages = real_pages(datasets_dir, n=3)
    with Library(tmp_path / "lib") as library:
        for page_id, html, url, _truth in pages:
            save_page(html, url=url, folder=library.folder, tags=["news", page_id])
        entries = library.list()
    assert len(entries) == 3
    for entry in entries:
        path = export_entry(entry, "epub", tmp_path)
        assert path == tmp_path / (entry.md_path.stem + ".epub")
        _book, opf, chapter = open_book(path.read_bytes())
        assert opf.findtext(".//dc:title", namespaces=NS) == entry.title
        assert opf.findtext(".//dc:source", namespaces=NS) == entry.url
        assert opf.findtext(".//dc:language", namespaces=NS) == (entry.language or "und")
        assert sorted(s.text for s in opf.iterfind(".//dc:subject", NS)) == sorted(entry.tags)
        assert opf.findtext(".//dc:identifier", namespaces=NS) == book_identifier(entry)
        # the book's text is the saved article's: the Markdown body against the chapter's text
        meta, body = read_markdown_document(entry.md_path.read_text(encoding="utf-8"))
        saved_text = body_text(body, meta.title)
        book_body = chapter.find("x:body", NS)
        heading = book_body.find("x:h1", NS)
        assert heading.text == entry.title
        book_text = "".join(book_body.itertext()).replace(entry.title, "", 1)
        assert prf(book_text, saved_text)[2] >= 0.97, entry.title
        epubcheck(path)


def test_embedded_pictures_go_into_the_book_and_the_others_become_links(tmp_path: Path) -> None:
    html = (
        '<div><p>Harbour at dawn. <img src="https://img.example/dawn.png" alt="The harbour at dawn"> The boats'
        ' left early.</p>'
        '<p><img src="https://img.example/gull.webp" alt="A gull"> Gulls followed them.</p>'
        '<p><img src="https://img.example/map.png" alt="Map of the bay"> The map shows the route.</p>'
        '<p>Back by noon <a rel="nofollow">(more)</a>.</p></div>'
    )
    article = Article(metadata=Metadata(title="Boats leave early", byline="Ana Reis", site_name="Harbour News",
                                        published="2025-03-01T06:00:00+00:00", language="en"),
                      url="https://news.example/boats", html=html, text="")
    images = {"https://img.example/dawn.png": ("image/png", PNG), "https://img.example/gull.webp": ("image/webp", WEBP)}
    with Library(tmp_path / "lib") as library:
        library.save(article, images=images)
        entry = library.list()[0]
    data = epub_bytes(entry)
    book, opf, chapter = open_book(data)
    pictures = [i for i in opf.iterfind(".//opf:manifest/opf:item", NS) if i.get("media-type", "").startswith("image/")]
    assert [(p.get("href"), p.get("media-type")) for p in pictures] == [("images/picture-001.png", "image/png")]
    assert book.read("EPUB/images/picture-001.png") == PNG
    imgs = chapter.findall(".//x:img", NS)
    assert [(i.get("src"), i.get("alt")) for i in imgs] == [("images/picture-001.png", "The harbour at dawn")]
    text = " ".join("".join(chapter.find("x:body", NS).itertext()).split())
    # the WebP was embedded in the HTML file but has no address left: its alternative text stays
    assert "[picture: A gull] Gulls followed them." in text
    # the picture that was never fetched is a link to where it is
    links = {a.text: a.get("href") for a in chapter.iterfind(".//x:a", NS)}
    assert links["[picture: Map of the bay]"] == "https://img.example/map.png"
    assert "The boats left early." in text and "The map shows the route." in text
    assert all(a.get("href") for a in chapter.iterfind(".//x:a[@rel]", NS))  # "(more)" lost its address, and its rel
    assert opf.findtext(".//dc:creator", namespaces=NS) == "Ana Reis"
    assert opf.findtext(".//dc:publisher", namespaces=NS) == "Harbour News"
    assert opf.findtext(".//dc:date", namespaces=NS) == "2025-03-01T06:00:00+00:00"
    assert epub_bytes(entry) != b"" and book_identifier(entry) == book_identifier(entry)
    path = tmp_path / "boats.epub"
    path.write_bytes(data)
    epubcheck(path)


def test_export_commands_and_the_window_offer_epub(tmp_path: Path, capsys) -> None:
    article = Article(metadata=Metadata(title="Lighthouse repainted", language="en"), url="https://news.example/lighthouse",
                      html="<div><p>Volunteers repainted the old lighthouse red and white.</p></div>",
                      text="Volunteers repainted the old lighthouse red and white.")
    folder = tmp_path / "lib"
    with Library(folder) as library:
        saved = library.save(article)
        entry = library.get(saved.id)
    out = tmp_path / "out"
    out.mkdir()
    assert main(["saved", "--dir", str(folder), "--export", str(saved.id), "--to", str(out)]) == 0
    written = Path(capsys.readouterr().out.strip())
    assert written == out / "Lighthouse repainted.epub" and written.read_bytes()[:2] == b"PK"
    assert main(["saved", "--dir", str(folder), "--export", str(saved.id), "--as", "md", "--to", str(out / "copy")]) == 0
    assert (out / "copy.md").read_bytes() == entry.md_path.read_bytes()
    assert main(["saved", "--dir", str(folder), "--export", "99", "--to", str(out)]) != 0
    assert "no saved article with id 99" in capsys.readouterr().err

    asked = []
    with Library(folder) as library:
        api = LibraryApi(library, choose_path=lambda name, fmt: asked.append((name, fmt)) or str(out / name))
        answer = api.export(saved.id, "epub")
    assert answer["ok"] and asked == [("Lighthouse repainted.epub", "epub")]
    assert Path(answer["path"]).read_bytes()[:2] == b"PK"
    ui = Path(__file__).resolve().parents[1] / "host" / "pagesieve" / "library" / "ui"
    assert re.search(r"id=\"export-epub\"", (ui / "index.html").read_text())
    assert "exportArticle('epub')" in (ui / "app.js").read_text()


def test_a_book_needs_the_articles_html_file(tmp_path: Path) -> None:
    article = Article(metadata=Metadata(title="Ferries stay in port"), url="https://news.example/ferries",
                      html="<div><p>The harbour ferries stayed in port.</p></div>", text="The harbour ferries stayed in port.")
    with Library(tmp_path / "lib") as library:
        library.save(article)
        entry = library.list()[0]
    entry.html_path.write_text("<html><body><p>edited by hand, no article</p></body></html>", encoding="utf-8")
    with pytest.raises(LibraryError, match="holds no article"):
        epub_bytes(entry)
    entry.html_path.unlink()
    with pytest.raises(LibraryError, match="cannot read"):
        epub_bytes(entry)
