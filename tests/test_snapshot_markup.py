"""Snapshot format version 2 (docs/snapshot.md, "Version 2: markup"): the markup route builds
the page that version 1 builds from the same DOM, whole or streamed in parts cut anywhere, and
refuses broken or hostile markup with :class:`SnapshotError`.

Version-2 snapshots are made with :func:`pagesieve.page.markup.markup_snapshot` from the
version-1 snapshot of real pages (``page_to_snapshot``); the extension's own sender is tested
against the same rules in a real browser (``tests/e2e/test_chromium.py``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from lxml import etree

from pagesieve.page.html import parse_html
from pagesieve.page.markup import PLAIN_TAG, markup_snapshot
from pagesieve.page.model import NodeStyle, Page
from pagesieve.page.snapshot import SnapshotError, SnapshotStream, parse_snapshot
from pagesieve.page.to_snapshot import page_to_snapshot
from test_snapshot import _dragnet_pages, with_layout  # the first dragnet pages; a box and font on every element

N_PAGES = 30


def v1_tree(page: Page) -> bytes:
    """A version-1 page's tree with the tag names version 2 cannot carry as ``ps-unknown``."""
    for element in page.root.iter(etree.Element):
        if not PLAIN_TAG.fullmatch(element.tag):
            element.tag = "ps-unknown"
    return etree.tostring(page.root)


def assert_same_page(v1: Page, v2: Page, where: str) -> None:
    """Tree, boxes, styles (version 2 lists only elements with a font or not rendered),
    unrendered elements, title, URL and warnings agree."""
    assert etree.tostring(v2.root) == v1_tree(v1), f"{where}: the trees differ"
    assert v2.boxes == v1.boxes, where
    assert v2.styles == {k: s for k, s in v1.styles.items() if s != NodeStyle()}, where
    assert [v2.node_id(e) for e in v2.hidden] == [v1.node_id(e) for e in v1.hidden], where
    assert (v2.title, v2.url, v2.viewport, v2.document_size) == (v1.title, v1.url, v1.viewport, v1.document_size), where
    assert [w.split(":")[0] for w in v2.warnings] == [w.split(":")[0] for w in v1.warnings], where


def streamed(doc: dict, cut: int, stream: SnapshotStream | None = None) -> Page:
    """``doc`` (version 2) fed in parts of ``cut`` characters of markup (a cut may fall inside a
    tag, an entity or a surrogate pair's neighbourhood), each with a share of the boxes and
    fonts, the last part with the header."""
    stream = stream or SnapshotStream()
    markup, boxes, fonts = doc["markup"], doc["boxes"], doc["fonts"]
    pieces = [markup[k:k + cut] for k in range(0, len(markup), cut)] or [""]
    n = len(pieces)
    box_cut = [len(boxes) // 5 * k // n * 5 for k in range(n + 1)]
    font_cut = [len(fonts) // 3 * k // n * 3 for k in range(n + 1)]
    for k in range(n - 1):
        stream.feed_markup(pieces[k], boxes[box_cut[k]:box_cut[k + 1]], fonts[font_cut[k]:font_cut[k + 1]])
    return stream.finish({**doc, "markup": pieces[-1], "boxes": boxes[box_cut[-2]:], "fonts": fonts[font_cut[-2]:]})


@pytest.fixture(scope="module")
def dragnet_docs(datasets_dir: Path) -> list[tuple[str, dict]]:
    """Version-1 snapshots (with layout) of the first dragnet pages."""
    docs = []
    for page_id, html in _dragnet_pages(datasets_dir, N_PAGES):
        doc = with_layout(page_to_snapshot(parse_html(html, url=f"http://example.com/{page_id}")))
        doc["viewport"], doc["document"], doc["title"] = {"width": 1280, "height": 800}, {"width": 1280, "height": 5000}, "T"
        docs.append((page_id, doc))
    return docs


def test_markup_builds_the_page_that_nodes_build(dragnet_docs: list[tuple[str, dict]]) -> None:
    assert len(dragnet_docs) == N_PAGES
    smaller = 0
    for page_id, doc in dragnet_docs:
        v2 = markup_snapshot(doc)
        assert v2["version"] == 2 and "nodes" not in v2
        assert_same_page(parse_snapshot(doc), parse_snapshot(v2), f"dragnet {page_id}")
        # and through JSON text, as the host receives it
        assert_same_page(parse_snapshot(doc), parse_snapshot(json.dumps(v2)), f"dragnet {page_id} (JSON)")
        smaller += len(json.dumps(v2, separators=(",", ":"))) < len(json.dumps(doc, separators=(",", ":")))
    assert smaller == N_PAGES  # markup is the smaller message on every page


def test_markup_streamed_in_parts_cut_anywhere(dragnet_docs: list[tuple[str, dict]]) -> None:
    for page_id, doc in dragnet_docs[:6]:
        v2 = markup_snapshot(doc)
        whole = parse_snapshot(v2)
        for cut in (97, 1000, 25_000, 10**9):
            page = streamed(v2, cut)
            assert etree.tostring(page.root) == etree.tostring(whole.root), (page_id, cut)
            assert page.boxes == whole.boxes and page.styles == whole.styles, (page_id, cut)
            assert [etree.tostring(e) for e in page.hidden] == [etree.tostring(e) for e in whole.hidden]
            assert page.warnings == whole.warnings


def _doc(nodes: list[dict]) -> dict:
    return {"version": 1, "title": "t", "nodes": nodes}


def test_escaping_and_replaced_characters_round_trip() -> None:
    value = "it's \"quoted\" & <tagged>\n\ttabbed\r"
    text = "Fish & chips <b> 'single' \"double\" ]]> \r\n done"
    bad = "bell\x07 half\ud800 pair\U0001f600 feed\x0c end"
    doc = _doc([
        {"i": 0, "p": None, "t": "html"},
        {"i": 1, "p": 0, "t": "body"},
        {"i": 2, "p": 1, "t": "p", "a": {"title": value, "class": bad}},
        {"p": 2, "x": text},
        {"i": 3, "p": 2, "t": "o:p"},
        {"p": 3, "x": bad},
    ])
    v1, v2 = parse_snapshot(doc), parse_snapshot(markup_snapshot(doc))
    assert_same_page(v1, v2, "escaping")
    p = v2.root.find("body/p")
    assert p.get("title") == value and p.text == text
    assert p.get("class") == p[0].text == "bell\ufffd half\ufffd pair\U0001f600 feed  end"
    assert p[0].tag == "ps-unknown"
    assert markup_snapshot(doc)["cleaned"] == 2 and "2 texts or attribute values" in v2.warnings[0]


def test_nesting_deeper_than_libxml2_is_flattened_like_version_1() -> None:
    nodes = [{"i": 0, "p": None, "t": "html"}, {"i": 1, "p": 0, "t": "body"}]
    for k in range(2, 400):
        nodes.append({"i": k, "p": k - 1, "t": "span"})
        nodes.append({"p": k, "x": f"w{k} "})
    doc = _doc(nodes)
    v2 = markup_snapshot(doc)
    counted = re.search(r"(\d+) elements were attached", parse_snapshot(doc).warnings[0])
    assert counted and v2["flattened"] == int(counted.group(1)) > 0
    page = parse_snapshot(v2)
    assert_same_page(parse_snapshot(doc), page, "deep")
    assert "".join(page.root.itertext()).split() == [f"w{k}" for k in range(2, 400)]


def _valid() -> dict:
    return markup_snapshot(_doc([
        {"i": 0, "p": None, "t": "html", "b": [0, 0, 1280, 900]},
        {"i": 1, "p": 0, "t": "body", "b": [0, 0, 1280, 900], "fs": 16, "fw": 400},
        {"i": 2, "p": 1, "t": "p", "b": [8, 8, 600, 20], "fs": 16, "fw": 700},
        {"p": 2, "x": "Hello"},
        {"i": 3, "p": 1, "t": "div", "v": False},
    ]))


def _with(**changes):
    def mutate(doc: dict) -> None:
        doc.update(changes)
    return mutate


def _markup(old: str, new: str):
    def mutate(doc: dict) -> None:
        assert old in doc["markup"]
        doc["markup"] = doc["markup"].replace(old, new)
    return mutate


MALFORMED = [
    ("markup missing", lambda d: d.pop("markup"), "markup", "missing"),
    ("markup not a string", _with(markup=["<html/>"]), "markup", "expected a string, got array"),
    ("markup empty", _with(markup=""), "markup", "empty: the root <html> element is required"),
    ("not well-formed", _markup("</p>", "</div>"), "markup", "not well-formed XML"),
    ("unclosed", _markup("</body></html>", ""), "markup", "not well-formed XML"),
    ("two roots", _markup("</html>", "</html><html data-ps-id='9'/>"), "markup", "not well-formed XML"),
    ("text outside the root", _markup("</html>", "</html>tail"), "markup", "not well-formed XML"),
    ("doctype", lambda d: d.update(markup="<!DOCTYPE html [<!ENTITY e 'x'>]>" + d["markup"]), "markup", "doctype, comment"),
    ("comment", _markup("Hello", "Hel<!-- c -->lo"), "markup", "doctype, comment"),
    ("cdata", _markup("Hello", "<![CDATA[Hello]]>"), "markup", "doctype, comment"),
    ("processing instruction", _markup("Hello", "<?php x ?>Hello"), "markup", "doctype, comment"),
    ("undefined entity", _markup("Hello", "&nbsp;Hello"), "markup", "not well-formed XML"),
    ("control character reference", _markup("Hello", "&#1;Hello"), "markup", "not well-formed XML"),
    ("lone surrogate", _markup("Hello", "\ud800Hello"), "markup", "cannot be read"),
    ("namespace declared", _markup("<body", "<body xmlns='http://www.w3.org/1999/xhtml'"), "markup", "namespaces are not allowed"),
    ("namespace prefix", _markup("<p", "<svg:p"), "markup", "not well-formed XML"),
    ("xml: attribute", _markup("<p", "<p xml:lang='en'"), "markup", "namespaces are not allowed"),
    ("root not html", lambda d: d.update(markup="<body data-ps-id='0'/>"), "markup", "root element must be <html>"),
    ("id missing", _markup(" data-ps-id='2'", ""), "markup", "every element needs its data-ps-id"),
    ("id not a number", _markup("data-ps-id='2'", "data-ps-id='two'"), "markup", "integer 0 .. 2^53-1, got 'two'"),
    ("id leading zero", _markup("data-ps-id='2'", "data-ps-id='02'"), "markup", "integer 0 .. 2^53-1"),
    ("id negative", _markup("data-ps-id='2'", "data-ps-id='-2'"), "markup", "integer 0 .. 2^53-1"),
    ("id too large", _markup("data-ps-id='2'", "data-ps-id='9007199254740992'"), "markup", "integer 0 .. 2^53-1"),
    ("id twice", _markup("data-ps-id='3'", "data-ps-id='2'"), "markup", "data-ps-id 2 is used twice"),
    ("boxes not a list", _with(boxes={"0": [0, 0, 1, 1]}), "boxes", "expected an array of numbers, got object"),
    ("boxes not by 5", lambda d: d["boxes"].pop(), "boxes", "expected 5 per box"),
    ("box id float", lambda d: d["boxes"].__setitem__(0, 0.5), "boxes", "boxes[0] must be an integer id"),
    ("box value string", lambda d: d["boxes"].__setitem__(3, "600"), "boxes", "boxes[3] must be a number"),
    ("box value bool", lambda d: d["boxes"].__setitem__(3, True), "boxes", "boxes[3] must be a number"),
    ("box width negative", lambda d: d["boxes"].__setitem__(3, -1), "boxes", "out of range"),
    ("box far away", lambda d: d["boxes"].__setitem__(1, 2e9), "boxes", "out of range"),
    ("box id negative", lambda d: d["boxes"].__setitem__(5, -1), "boxes", "out of range"),
    ("fonts not a list", _with(fonts="16px"), "fonts", "expected an array of numbers, got string"),
    ("fonts not by 3", lambda d: d["fonts"].pop(), "fonts", "expected 3 per element"),
    ("font id string", lambda d: d["fonts"].__setitem__(0, "1"), "fonts", "fonts[0] must be an integer id"),
    ("font size string", lambda d: d["fonts"].__setitem__(1, "16px"), "fonts", "a font size is a number"),
    ("font size bool", lambda d: d["fonts"].__setitem__(1, True), "fonts", "a font size is a number"),
    ("font weight zero", lambda d: d["fonts"].__setitem__(2, 0), "fonts", "a font weight is a number 1 .. 1000"),
    ("cleaned negative", _with(cleaned=-1), "cleaned", "expected an integer >= 0"),
    ("flattened string", _with(flattened="3"), "flattened", "expected an integer >= 0"),
]


def test_valid_base_parses() -> None:
    page = parse_snapshot(_valid())
    assert page.root.find("body/p").text == "Hello"
    assert page.styles[2] == NodeStyle(True, 16, 700) and page.styles[3] == NodeStyle(visible=False)
    assert [page.node_id(e) for e in page.hidden] == [3] and page.hidden[0].get("data-ps-unrendered") is None
    assert page.boxes[2].width == 600 and 3 not in page.boxes


@pytest.mark.parametrize(("mutate", "field", "fragment"), [c[1:] for c in MALFORMED], ids=[c[0] for c in MALFORMED])
def test_malformed_markup_snapshot(mutate, field, fragment) -> None:
    """Whole, and streamed in parts of 5 characters (after the error the stream keeps refusing):
    the same field and message; never another exception."""
    for how in ("whole", "streamed"):
        doc = _valid()
        mutate(doc)
        stream = SnapshotStream()
        types_ok = all(isinstance(doc.get(k), t) for k, t in (("markup", str), ("boxes", list), ("fonts", list)))
        with pytest.raises(SnapshotError) as caught:
            if how == "whole":
                parse_snapshot(doc)
            elif types_ok:
                streamed(doc, 5, stream)
            elif "markup" not in doc:
                stream.finish(doc)
            else:  # the first part is already wrong
                stream.feed_markup(doc.get("markup"), doc.get("boxes"), doc.get("fonts"))
        error = caught.value
        assert error.field == field, (how, str(error))
        assert fragment in str(error), (how, str(error))
        if how == "streamed":
            with pytest.raises(SnapshotError) as again:
                stream.finish(_valid())
            assert again.value is error


def test_a_comment_opened_across_two_parts_is_refused() -> None:
    doc = _valid()
    markup = doc["markup"].replace("Hello", "He<!-- -->llo")
    cut = markup.index("<!--") + 1
    stream = SnapshotStream()
    stream.feed_markup(markup[:cut])
    with pytest.raises(SnapshotError, match="doctype, comment"):
        stream.finish({**doc, "markup": markup[cut:]})


def test_a_stream_holds_one_version() -> None:
    stream = SnapshotStream()
    stream.feed_markup("<html data-ps-id='0'>")
    with pytest.raises(SnapshotError, match="cannot go on with nodes"):
        stream.finish(_doc([{"i": 1, "p": 0, "t": "body"}]))
    stream = SnapshotStream()
    stream.feed([{"i": 0, "p": None, "t": "html"}])
    with pytest.raises(SnapshotError, match="cannot go on with markup"):
        stream.finish(_valid())


def test_markup_size_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    import pagesieve.page.markup as markup_module

    monkeypatch.setattr(markup_module, "MAX_MARKUP_CHARS", 50)
    stream = SnapshotStream()
    stream.feed_markup("<html data-ps-id='0'>" + " " * 20)
    with pytest.raises(SnapshotError, match="markup over 50 is refused"):
        stream.feed_markup(" " * 20)


def _screen_reader_doc() -> dict:
    return _doc([
        {"i": 0, "p": None, "t": "html", "b": [0, 0, 1280, 900]},
        {"i": 1, "p": 0, "t": "body", "b": [0, 0, 1280, 900]},
        {"i": 2, "p": 1, "t": "a", "a": {"class": "sr-only", "href": "#main"}, "b": [0, 0, 1, 1]},
        {"p": 2, "x": "Skip to content"},
        {"i": 3, "p": 1, "t": "p", "b": [8, 8, 600, 40]},
        {"p": 3, "x": "The article's first paragraph, which everyone sees."},
        {"i": 4, "p": 3, "t": "span", "a": {"class": "visually-hidden"}, "b": [300, 8, 1, 1]},
        {"i": 5, "p": 4, "t": "em", "b": [300, 8, 0, 0]},
        {"p": 5, "x": "(opens in a new window)"},
        {"i": 6, "p": 1, "t": "div", "b": [8, 60, 1, 1]},  # a 1 px wrapper whose menu overflows it
        {"i": 7, "p": 6, "t": "p", "b": [8, 60, 200, 20]},
        {"p": 7, "x": "Menu"},
        {"i": 8, "p": 1, "t": "span", "b": [8, 90, 0, 0]},  # no text: nothing to hide
        {"p": 8, "x": " "},
    ])


def test_text_in_a_box_of_one_pixel_is_for_screen_readers_only() -> None:
    v1 = parse_snapshot(_screen_reader_doc())
    assert [e.get("data-ps-id") for e in v1.hidden] == ["2", "4"]
    assert not v1.styles[2].visible and not v1.styles[4].visible and v1.styles[7].visible
    v2 = markup_snapshot(_screen_reader_doc())
    for cut in (7, 40, 10**6):  # the boxes come in other parts than their elements' start tags
        page = streamed(v2, cut)
        assert [e.get("data-ps-id") for e in page.hidden] == ["2", "4"], cut
        assert page.styles[2] == page.styles[4] == NodeStyle(visible=False)
    from pagesieve.page.preprocess import preprocess

    text = " ".join(" ".join(preprocess(v1).root.itertext()).split())
    assert text == "The article's first paragraph, which everyone sees. Menu"
