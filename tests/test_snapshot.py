"""DOM snapshot route: ``parse_snapshot`` / ``page_to_snapshot`` against docs/snapshot.md.

Round trips compare ``lxml.etree.tostring`` byte for byte. The HTML tree is first normalised
the way the snapshot format itself defines (docs/snapshot.md, "What the sender leaves out"):
attributes outside ``KEPT_ATTRIBUTES`` dropped, no contents for ``CONTENTLESS_TAGS``, tag names
outside ``TAG_RE`` written as ``PLACEHOLDER_TAG``, characters an XML tree cannot hold replaced
(``xml_safe_text``), and the source DOCTYPE cleared, because libxml2 serialises trees with an
XHTML DOCTYPE in "XHTML mode" (adding ``xml:lang`` and a ``<meta>`` that are not in the tree).
Everything else (tags, text, tails, whitespace, attribute values and order, node ids) must be
identical.
"""

from __future__ import annotations

import copy
import gzip
import json
import random
import re
from pathlib import Path

import lxml.html
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from pagesieve.errors import InputError
from pagesieve.page import snapshot as snapshot_module
from pagesieve.page.html import LIBXML_MAX_DEPTH, parse_html
from pagesieve.page.lazy import unsent_lazy_attribute
from pagesieve.page.model import NODE_ID_ATTR, Box, NodeStyle, Page
from pagesieve.page.snapshot import (
    CONTENTLESS_TAGS,
    KEPT_ATTRIBUTES,
    MAX_DEPTH,
    PLACEHOLDER_TAG,
    TAG_RE,
    SnapshotError,
    SnapshotStream,
    parse_snapshot,
    xml_safe_text,
)
from pagesieve.page.to_snapshot import page_to_snapshot

DOCS = Path(__file__).resolve().parents[1] / "docs" / "snapshot.md"
N_DRAGNET_PAGES = 30
_KEPT = frozenset(KEPT_ATTRIBUTES) | {NODE_ID_ATTR}


def normalised(page: Page) -> bytes:
    """``page``'s tree as a snapshot can carry it (see the module docstring), serialised: each
    element with its node id last as ``data-ps-id``, which a snapshot writes and a page parsed
    from HTML keeps beside its tree (:meth:`Page.node_id`)."""
    root = page.root
    root.getroottree().docinfo.clear()
    for element in list(root.iter(etree.Element)):
        items = [(name, xml_safe_text(value)) for name, value in element.attrib.items() if name in _KEPT]
        lazy = unsent_lazy_attribute(element, _KEPT, element.get("src")) if element.tag == "img" else None
        if lazy is not None:  # a lazy loader's address, which the sender adds
            items.append((lazy[0], xml_safe_text(lazy[1])))
        element.attrib.clear()
        for name, value in items:
            element.set(name, value)
        element.set(NODE_ID_ATTR, str(page.node_id(element)))
        if not TAG_RE.fullmatch(element.tag):
            element.tag = PLACEHOLDER_TAG
        if element.tag in CONTENTLESS_TAGS:
            element.text = None
            del element[:]
        if element.text:
            element.text = xml_safe_text(element.text)
        if element.tail:
            element.tail = xml_safe_text(element.tail)
    return etree.tostring(root)


def round_trip(html: str | bytes) -> tuple[Page, bytes, bytes]:
    """(snapshot page, its serialisation, the normalised HTML tree's serialisation)."""
    page = parse_snapshot(page_to_snapshot(parse_html(html)))
    return page, etree.tostring(page.root), normalised(parse_html(html))


def compact(snapshot: dict) -> bytes:
    return json.dumps(snapshot, separators=(",", ":")).encode()


def with_layout(snapshot: dict, seed: int = 0) -> dict:
    """``snapshot`` with a box, font size and weight on every element, as a browser sends."""
    rng = random.Random(seed)
    snapshot = copy.deepcopy(snapshot)
    y = 0.0
    for node in snapshot["nodes"]:
        if "t" in node:
            y += rng.uniform(0, 30)
            node["b"] = [round(rng.uniform(0, 900), 2), round(y, 2), round(rng.uniform(0, 1280), 2), round(rng.uniform(0, 400), 2)]
            node["fs"] = rng.choice([12, 13, 14, 16, 16, 16, 18, 24, 32])
            node["fw"] = rng.choice([400, 400, 400, 700])
    return snapshot


def element_depth(element: etree._Element) -> int:
    depth = 1
    while (element := element.getparent()) is not None:
        depth += 1
    return depth


# ---------------------------------------------------------------------------- hand-written


SMALL_PAGES = {
    "inline and tails": "<html><body><p>a <b>b</b> c <i>d <u>e</u></i>f</p>g</body></html>",
    "whitespace kept": "<html><body>\n  <div>\n\t<p>x</p>  \n</div>\n<pre>  a\n\n b  </pre>\n</body></html>",
    "script style noscript": (
        "<html><head><style>p{color:red}</style><script>var a = '<b>';</script></head>"
        "<body><noscript><p>js off</p></noscript>after<script src=x.js></script>tail</body></html>"
    ),
    "attributes filtered": (
        '<html lang="de"><body><a href="/x" onclick="evil()" style="color:red" class="k" data-foo="1" '
        'rel="nofollow">l</a><img src="a.png" data-src="b.png" alt="pic" width="10">'
        '<td colspan="2" data-x="1">c</td><input type="checkbox" checked></body></html>'
    ),
    "entities and unicode": "<html><body><p>&lt;tag&gt; &amp; caf&eacute; — 中文 😀 &nbsp;x</p></body></html>",
    "tables and lists": (
        "<html><body><table><tr><td>1</td><td>2</td></tr></table><ul><li>a<li>b</ul>"
        "<dl><dt>t<dd>d</dl></body></html>"
    ),
    "comments dropped": "<html><body><p>a<!-- c -->b<?pi x?>c</p><!-- end --></body></html>",
    "prefixed and custom tags": (
        "<html><body><o:p>office</o:p><fb:like href=x></fb:like><my-widget>w</my-widget>"
        "<nyt_headline>h</nyt_headline></body></html>"
    ),
    "broken tag names": '<html><body><align="center">x</align><p>y</p></body></html>',
    "form feed": "<html><body><p>a\x0cb</p></body></html>",
    "svg and math": (
        '<html><body><svg viewBox="0 0 1 1"><linearGradient id="g"/><path d="M0 0"/></svg>'
        "<math><mi>x</mi></math></body></html>"
    ),
    "empty document": "<html></html>",
    "template": "<html><body><template><p>t</p></template>x</body></html>",
}


@pytest.mark.parametrize("html", SMALL_PAGES.values(), ids=SMALL_PAGES.keys())
def test_round_trip_small_pages(html: str) -> None:
    page, got, expected = round_trip(html)
    assert got == expected
    assert page.source == "snapshot"
    assert all(isinstance(el, lxml.html.HtmlElement) for el in page.root.iter(etree.Element))


def test_round_trip_keeps_selected_attributes_and_ids() -> None:
    html = SMALL_PAGES["attributes filtered"]
    source = parse_html(html)
    page = parse_snapshot(page_to_snapshot(source))
    link = page.root.find(".//a")
    assert dict(link.attrib) == {"href": "/x", "class": "k", "rel": "nofollow", NODE_ID_ATTR: link.get(NODE_ID_ATTR)}
    assert list(link.attrib)[-1] == NODE_ID_ATTR
    img = page.root.find(".//img")
    assert img.get("data-src") == "b.png" and img.get("width") is None
    assert page.root.get("lang") == "de"
    ids_before = [source.node_id(el) for el in source.root.iter(etree.Element)]
    ids_after = [page.node_id(el) for el in page.root.iter(etree.Element)]
    assert ids_before == ids_after == [int(el.get(NODE_ID_ATTR)) for el in page.root.iter(etree.Element)]


def test_example_in_docs() -> None:
    text = DOCS.read_text(encoding="utf-8")
    example = re.search(r"```json\n(.*?)```", text, re.S).group(1)
    expected_html = re.search(r"```html\n(.*?)\n```", text, re.S).group(1)
    page = parse_snapshot(example)
    assert etree.tostring(page.root, encoding="unicode") == expected_html
    assert page.url == "https://example.org/news/1"
    assert page.title == "Rain in Spain"
    assert page.viewport == (1280, 720)
    assert page.document_size == (1280, 1650)
    assert page.boxes[7] == Box(200, 80, 880, 420.5)
    assert set(page.boxes) == {0, 4, 7, 8, 9, 10, 11, 12}
    assert page.styles[5] == NodeStyle(visible=False, font_size=16, font_weight=400)
    assert page.styles[1] == NodeStyle()
    assert set(page.styles) == set(range(13))
    assert page.warnings == []
    assert page.element_by_id()[9].text == "It falls "
    # The host's tree turns back into the same snapshot (key order aside).
    again = page_to_snapshot(page)
    assert again["nodes"] == json.loads(example)["nodes"]


def test_boxes_are_real_boxes() -> None:
    doc = {"version": 1, "nodes": [{"i": 0, "p": None, "t": "html", "b": [-5, 1.5, 0, 2e3]}]}
    box = parse_snapshot(doc).boxes[0]
    assert box == Box(-5, 1.5, 0, 2e3)
    assert type(box) is Box and hash(box) == hash(Box(-5, 1.5, 0, 2e3))
    with pytest.raises(AttributeError):
        box.x = 1  # type: ignore[misc]


def test_inputs_dict_str_bytes_agree() -> None:
    snap = page_to_snapshot(parse_html(SMALL_PAGES["inline and tails"]))
    trees = {etree.tostring(parse_snapshot(x).root) for x in (snap, json.dumps(snap), compact(snap), bytearray(compact(snap)))}
    assert len(trees) == 1


def test_html_element_classes() -> None:
    snap = page_to_snapshot(parse_html("<html><body><form><input name=q><select></select><textarea></textarea></form></body></html>"))
    page = parse_snapshot(snap)
    assert isinstance(page.root, lxml.html.HtmlElement)
    assert isinstance(page.root.find(".//form"), lxml.html.FormElement)
    assert isinstance(page.root.find(".//input"), lxml.html.InputElement)
    assert isinstance(page.root.find(".//select"), lxml.html.SelectElement)
    assert page.body.tag == "body"
    assert lxml.html.tostring(page.root).startswith(b"<html")


def _doc(nodes: list[dict], **top) -> dict:
    return {"version": 1, **top, "nodes": nodes}


def test_text_nodes_placement_and_joining() -> None:
    nodes = [
        {"i": 0, "p": None, "t": "html"},
        {"i": 1, "p": 0, "t": "body"},
        {"p": 1, "x": "a"},
        {"p": 1, "x": ""},
        {"p": 1, "x": "b"},
        {"i": 2, "p": 1, "t": "span"},
        {"p": 2, "x": "c"},
        {"p": 2, "x": "d"},
        {"p": 1, "x": "e"},
        {"p": 1, "x": "f"},
        {"i": 3, "p": 1, "t": "br"},
        {"p": 0, "x": "g"},
    ]
    root = parse_snapshot(_doc(nodes)).root
    assert etree.tostring(root) == b'<html data-ps-id="0"><body data-ps-id="1">ab<span data-ps-id="2">cd</span>ef<br data-ps-id="3"/></body>g</html>'


def test_unknown_keys_ignored_and_null_means_absent() -> None:
    plain = _doc([{"i": 0, "p": None, "t": "html"}, {"p": 0, "x": "t"}])
    extended = _doc(
        [
            {"i": 0, "p": None, "t": "html", "x": None, "zz": [1, {"q": None}], "a": None, "b": None, "v": None, "fs": None, "fw": None},
            {"p": 0, "x": "t", "t": None, "i": "ignored", "k": 1},
        ],
        future={"anything": True},
        url=None,
        dpr=None,
        viewport=None,
    )
    a, b = parse_snapshot(plain), parse_snapshot(extended)
    assert etree.tostring(a.root) == etree.tostring(b.root)
    assert a.styles == b.styles == {0: NodeStyle()}
    assert a.boxes == b.boxes == {}


def test_title_from_field_or_title_element() -> None:
    nodes = [{"i": 0, "p": None, "t": "html"}, {"i": 1, "p": 0, "t": "head"}, {"i": 2, "p": 1, "t": "title"}, {"p": 2, "x": " In  the\ntree "}]
    assert parse_snapshot(_doc(nodes)).title == "In the tree"
    assert parse_snapshot(_doc(nodes, title="  From   browser ")).title == "From browser"
    assert parse_snapshot(_doc(nodes[:1])).title == ""


def test_data_ps_id_attribute_is_the_node_id() -> None:
    root = parse_snapshot(_doc([{"i": 7, "p": None, "t": "html", "a": {"data-ps-id": "99", "id": "x"}}])).root
    page = parse_snapshot(_doc([{"i": 7, "p": None, "t": "html", "a": {"data-ps-id": "99", "id": "x"}}]))
    assert root.get(NODE_ID_ATTR) == "7"
    assert page.node_id(page.root) == 7


def test_font_weight_rounded_and_styles_shared() -> None:
    nodes = [{"i": 0, "p": None, "t": "html", "fw": 449.6, "fs": 16.5}, {"i": 1, "p": 0, "t": "body", "fw": 450, "fs": 16.5, "v": True}]
    page = parse_snapshot(_doc(nodes))
    assert page.styles[0] == page.styles[1] == NodeStyle(True, 16.5, 450)


def test_unstorable_characters_replaced_with_warning() -> None:
    nodes = [{"i": 0, "p": None, "t": "html", "a": {"title": "a\x00b"}}, {"p": 0, "x": "x\x01y\x0cz\ud800"}]
    page = parse_snapshot(_doc(nodes))
    assert page.root.get("title") == "a\ufffdb"
    assert page.root.text == "x\ufffdy z\ufffd"
    assert len(page.warnings) == 1 and "replaced" in page.warnings[0]


def _chain(depth: int, texts: bool = True) -> dict:
    """html > body > div > div > ... (``depth`` elements), text before and after each child."""
    nodes: list[dict] = [{"i": 0, "p": None, "t": "html"}, {"i": 1, "p": 0, "t": "body"}]
    for i in range(2, depth):
        nodes.append({"i": i, "p": i - 1, "t": "div"})
        if texts:
            nodes.append({"p": i, "x": f"a{i} "})
    if texts:
        nodes.extend({"p": i, "x": f"b{i} "} for i in range(depth - 1, 1, -1))
    return _doc(nodes)


def test_depth_cap_like_the_html_route() -> None:
    assert MAX_DEPTH == LIBXML_MAX_DEPTH
    html_page = parse_html("<html><body>" + "<div>" * 300 + "x" + "</div>" * 300 + "</body></html>")
    html_depth = max(element_depth(el) for el in html_page.root.iter())
    page = parse_snapshot(_chain(300))
    assert max(element_depth(el) for el in page.root.iter()) == html_depth == MAX_DEPTH
    expected = "".join(f"a{i} " for i in range(2, 300)) + "".join(f"b{i} " for i in range(299, 1, -1))
    assert "".join(page.root.itertext()) == expected
    assert len(page.warnings) == 1 and "flattened" in page.warnings[0] and "44 elements" in page.warnings[0]
    assert len(page.element_by_id()) == 300 == len(page.styles)


def test_no_cap_warning_at_exactly_max_depth() -> None:
    page = parse_snapshot(_chain(MAX_DEPTH))
    assert page.warnings == []
    assert max(element_depth(el) for el in page.root.iter()) == MAX_DEPTH


@pytest.mark.parametrize("texts", [True, False])
def test_100k_deep_chain_is_iterative(texts: bool) -> None:
    depth = 100_000
    page = parse_snapshot(_chain(depth, texts))
    assert len(page.styles) == depth
    deepest = page.element_by_id()[depth - 1]
    assert element_depth(deepest) == MAX_DEPTH
    if texts:
        text = "".join(page.root.itertext())
        assert text.startswith("a2 a3 ") and text.endswith(" b3 b2 ")
        assert len(text) == sum(len(f"a{i} ") * 2 for i in range(2, depth))
    assert etree.tostring(page.root)  # serialisable, no recursion
    snap = page_to_snapshot(page)
    assert len([n for n in snap["nodes"] if "t" in n]) == depth


# ---------------------------------------------------------------------------- page_to_snapshot


def test_page_to_snapshot_of_a_tree_with_comments_and_no_ids() -> None:
    # lxml's default parser keeps comments and processing instructions; no data-ps-id at all.
    root = lxml.html.document_fromstring("<html><body><p>a<!--c-->b<?pi x?>c</p><!--z-->d<script>s</script>e</body></html>")
    snap = page_to_snapshot(Page(root=root))
    assert snap["nodes"] == [
        {"i": 0, "p": None, "t": "html"},
        {"i": 1, "p": 0, "t": "body"},
        {"i": 2, "p": 1, "t": "p"},
        {"p": 2, "x": "a"},
        {"p": 2, "x": "b"},
        {"p": 2, "x": "c"},
        {"p": 1, "x": "d"},
        {"i": 3, "p": 1, "t": "script"},
        {"p": 1, "x": "e"},
    ]
    page = parse_snapshot(snap)
    assert etree.tostring(page.root) == b'<html data-ps-id="0"><body data-ps-id="1"><p data-ps-id="2">abc</p>d<script data-ps-id="3"/>e</body></html>'


def test_page_to_snapshot_sends_the_text_of_structured_data_alone() -> None:
    # as extension/content/snapshot.js: JSON-LD carries the author and dates the reader shows
    data = '{"@type": "NewsArticle", "author": {"@type": "Person", "name": "Ana Ruiz"}, "datePublished": "2026-03-14"}'
    long_data = '{"description": "' + "x" * 70000 + '"}'
    root = lxml.html.document_fromstring(
        f"<html><body><p>Text of the page.</p><script type=' Application/LD+JSON '>{data}</script>"
        f"<script>var secret = 1;</script><script type='application/ld+json'>{long_data}</script></body></html>")
    snap = page_to_snapshot(Page(root=root))
    sent = [n["x"] for n in snap["nodes"] if "x" in n]
    assert sent == ["Text of the page.", data]  # not the other script, nor JSON-LD over 65,536 characters
    many = "".join(f"<script type='application/ld+json'>{{\"n\": \"{k}{'y' * 60000}\"}}</script>" for k in range(6))
    snap_many = page_to_snapshot(Page(root=lxml.html.document_fromstring(f"<html><body>{many}</body></html>")))
    assert len([n for n in snap_many["nodes"] if "x" in n]) == 4  # 262,144 characters in all
    from pagesieve.article.metadata import extract_metadata

    metadata = extract_metadata(parse_snapshot(snap))
    assert metadata.byline == "Ana Ruiz" and metadata.published == "2026-03-14"


def test_page_to_snapshot_fresh_ids_for_missing_and_duplicate() -> None:
    # a snapshot page: <p>'s id duplicates <body>'s, and a <span> added after load has none
    page = parse_snapshot(page_to_snapshot(parse_html("<html><body><p>x</p></body></html>")))
    p = page.root.find(".//p")
    p.set(NODE_ID_ATTR, "1")
    etree.SubElement(p, "span")
    snap = page_to_snapshot(page)
    ids = [n["i"] for n in snap["nodes"] if "t" in n]
    assert ids == [0, 1, 2, 3]  # html, body, <p> (its "1" was taken), the new <span>
    again = parse_snapshot(snap)
    assert again.node_id(again.root.find(".//span")) == 3
    # a page parsed from HTML: its ids as parsed, an element added after load a fresh one
    page = parse_html("<html><body><p>x</p></body></html>")
    etree.SubElement(page.root.find(".//p"), "span")
    assert [n["i"] for n in page_to_snapshot(page)["nodes"] if "t" in n] == [0, 1, 2, 3]


def test_page_to_snapshot_keeps_boxes_and_styles() -> None:
    source = parse_snapshot(DOCS.read_text(encoding="utf-8").split("```json\n")[1].split("```")[0])
    again = parse_snapshot(page_to_snapshot(source))
    assert again.boxes == source.boxes
    assert again.styles == source.styles
    assert (again.viewport, again.document_size, again.url, again.title) == (source.viewport, source.document_size, source.url, source.title)
    assert etree.tostring(again.root) == etree.tostring(source.root)


# ---------------------------------------------------------------------------- malformed input


def _valid() -> dict:
    return {
        "version": 1,
        "url": "https://example.org/",
        "title": "T",
        "viewport": {"width": 800, "height": 600},
        "document": {"width": 800, "height": 1200},
        "nodes": [
            {"i": 0, "p": None, "t": "html", "a": {"lang": "en"}},  # 0
            {"i": 1, "p": 0, "t": "head"},  # 1
            {"i": 2, "p": 0, "t": "body", "b": [0, 0, 800, 1200], "fs": 16, "fw": 400},  # 2
            {"i": 3, "p": 2, "t": "p", "a": {"class": "x"}, "b": [8, 8, 784, 20]},  # 3
            {"p": 3, "x": "Hello "},  # 4
            {"i": 4, "p": 3, "t": "b"},  # 5
            {"p": 4, "x": "world"},  # 6
            {"p": 3, "x": "!"},  # 7
            {"i": 5, "p": 2, "t": "div", "v": False},  # 8
        ],
    }


def test_valid_base_parses() -> None:
    page = parse_snapshot(_valid())
    assert "".join(page.root.itertext()) == "Hello world!"


def _set(path: tuple, value):
    def mutate(doc: dict) -> None:
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


def _del(path: tuple):
    def mutate(doc: dict) -> None:
        target = doc
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return mutate


def _node(index: int, node):
    return _set(("nodes", index), node)


def _append(node):
    return lambda doc: doc["nodes"].append(node)


NAN = float("nan")
INF = float("inf")

# (id, mutation, expected index, expected field, message fragment)
MALFORMED = [
    ("version missing", _del(("version",)), None, "version", "missing"),
    ("version 3", _set(("version",), 3), None, "version", "unsupported snapshot version 3"),
    ("version 0", _set(("version",), 0), None, "version", "unsupported snapshot version 0"),
    ("version string", _set(("version",), "1"), None, "version", "expected an integer"),
    ("version bool", _set(("version",), True), None, "version", "expected an integer"),
    ("version float", _set(("version",), 1.0), None, "version", "expected an integer"),
    ("url number", _set(("url",), 5), None, "url", "expected a string or null"),
    ("title list", _set(("title",), ["x"]), None, "title", "expected a string"),
    ("viewport string", _set(("viewport",), "800x600"), None, "viewport", "expected an object"),
    ("viewport negative", _set(("viewport", "width"), -1), None, "viewport", "'width' must be a finite number >= 0"),
    ("viewport nan", _set(("viewport", "height"), NAN), None, "viewport", "'height'"),
    ("viewport bool", _set(("viewport", "height"), True), None, "viewport", "'height'"),
    ("document missing height", _del(("document", "height")), None, "document", "'height'"),
    ("dpr zero", _set(("dpr",), 0), None, "dpr", "> 0"),
    ("dpr inf", _set(("dpr",), INF), None, "dpr", "> 0"),
    ("nodes missing", _del(("nodes",)), None, "nodes", "missing"),
    ("nodes object", _set(("nodes",), {"0": {}}), None, "nodes", "expected an array"),
    ("nodes empty", _set(("nodes",), []), None, "nodes", "empty"),
    ("node not object", _node(3, "p"), 3, None, "expected an object"),
    ("node list", _node(3, [3, 2, "p"]), 3, None, "expected an object"),
    ("node both", _set(("nodes", 3, "x"), "t"), 3, None, "both 't'"),
    ("node neither", _node(3, {"i": 3, "p": 2}), 3, None, "neither 't'"),
    ("root is text", _node(0, {"p": None, "x": "hi"}), 0, None, "must be the <html> element"),
    ("root not html", _set(("nodes", 0, "t"), "body"), 0, "t", "must be the <html> element"),
    ("root has parent", _set(("nodes", 0, "p"), 0), 0, "p", "must have parent null"),
    ("root parent missing", _del(("nodes", 0, "p")), 0, "p", "missing"),
    ("root id missing", _del(("nodes", 0, "i")), 0, "i", "missing"),
    ("id missing", _del(("nodes", 3, "i")), 3, "i", "missing"),
    ("id string", _set(("nodes", 3, "i"), "3"), 3, "i", "expected an integer"),
    ("id negative", _set(("nodes", 3, "i"), -1), 3, "i", "expected an integer from 0"),
    ("id float", _set(("nodes", 3, "i"), 3.0), 3, "i", "expected an integer"),
    ("id bool", _set(("nodes", 3, "i"), True), 3, "i", "expected an integer"),
    ("id too big", _set(("nodes", 3, "i"), 2**53), 3, "i", "2**53-1"),
    ("id duplicate", _set(("nodes", 3, "i"), 2), 3, "i", "duplicate id 2"),
    ("parent missing", _del(("nodes", 3, "p")), 3, "p", "missing"),
    ("text parent missing", _del(("nodes", 4, "p")), 4, "p", "missing"),
    ("parent null", _set(("nodes", 3, "p"), None), 3, "p", "only the first node"),
    ("parent string", _set(("nodes", 3, "p"), "2"), 3, "p", "expected an integer element id"),
    ("parent float", _set(("nodes", 3, "p"), 2.0), 3, "p", "expected an integer element id"),
    ("parent bool", _set(("nodes", 1, "p"), False), 1, "p", "expected an integer element id"),
    ("parent list", _set(("nodes", 3, "p"), [2]), 3, "p", "expected an integer element id"),
    ("parent unknown", _set(("nodes", 3, "p"), 99), 3, "p", "99 is not the id of an earlier element"),
    ("parent is self", _set(("nodes", 3, "p"), 3), 3, "p", "its own parent"),
    ("parent comes later (cycle)", _set(("nodes", 3, "p"), 5), 3, "p", "5 is not the id of an earlier element"),
    ("parent closed", _set(("nodes", 8, "p"), 4), 8, "p", "already closed"),
    ("text parent closed", _append({"p": 4, "x": "late"}), 9, "p", "already closed"),
    ("text parent unknown", _set(("nodes", 4, "p"), 42), 4, "p", "42 is not the id"),
    ("tag number", _set(("nodes", 3, "t"), 5), 3, "t", "expected a string"),
    ("tag null", _set(("nodes", 3, "t"), None), 3, None, "neither 't'"),  # null = absent
    ("tag list", _set(("nodes", 3, "t"), ["p"]), 3, "t", "expected a string"),
    ("tag upper", _set(("nodes", 3, "t"), "P"), 3, "t", "not a valid lowercase tag name"),
    ("tag space", _set(("nodes", 3, "t"), "my tag"), 3, "t", "not a valid lowercase tag name"),
    ("tag empty", _set(("nodes", 3, "t"), ""), 3, "t", "not a valid lowercase tag name"),
    ("tag digit", _set(("nodes", 3, "t"), "1p"), 3, "t", "not a valid lowercase tag name"),
    ("tag quote", _set(("nodes", 3, "t"), 'align="center"'), 3, "t", "not a valid lowercase tag name"),
    ("tag namespace", _set(("nodes", 3, "t"), "{http://www.w3.org/2000/svg}svg"), 3, "t", "not a valid"),
    ("attrs list", _set(("nodes", 3, "a"), [["class", "x"]]), 3, "a", "expected an object"),
    ("attrs string", _set(("nodes", 3, "a"), "class=x"), 3, "a", "expected an object"),
    ("attrs empty list", _set(("nodes", 3, "a"), []), 3, "a", "expected an object"),
    ("attr value number", _set(("nodes", 3, "a"), {"class": 1}), 3, "a", "attribute 'class': expected a string"),
    ("attr value null", _set(("nodes", 3, "a"), {"id": "a", "hidden": None}), 3, "a", "attribute 'hidden'"),
    ("attr name space", _set(("nodes", 3, "a"), {"bad name": "x"}), 3, "a", "invalid attribute name"),
    ("attr name braces", _set(("nodes", 3, "a"), {"{ns}x": "x"}), 3, "a", "invalid attribute name"),
    ("attr name empty", _set(("nodes", 3, "a"), {"": "x"}), 3, "a", "invalid attribute name"),
    ("box short", _set(("nodes", 3, "b"), [1, 2, 3]), 3, "b", "expected [x, y, width, height]"),
    ("box string", _set(("nodes", 3, "b"), "0,0,1,1"), 3, "b", "expected [x, y, width, height]"),
    ("box object", _set(("nodes", 3, "b"), {"x": 0}), 3, "b", "expected [x, y, width, height]"),
    ("box string number", _set(("nodes", 3, "b"), [0, 0, "1", 1]), 3, "b", "width must be a finite number"),
    ("box nan", _set(("nodes", 3, "b"), [0, NAN, 1, 1]), 3, "b", "y must be a finite number"),
    ("box inf", _set(("nodes", 3, "b"), [0, 0, INF, 1]), 3, "b", "width must be a finite number"),
    ("box huge", _set(("nodes", 3, "b"), [10**400, 0, 1, 1]), 3, "b", "x must be a finite number"),
    ("box bool", _set(("nodes", 3, "b"), [True, 0, 1, 1]), 3, "b", "x must be a finite number"),
    ("box null number", _set(("nodes", 3, "b"), [0, 0, 1, None]), 3, "b", "height must be a finite number"),
    ("box negative size", _set(("nodes", 3, "b"), [0, 0, -1, 1]), 3, "b", "width must be >= 0"),
    ("visible string", _set(("nodes", 8, "v"), "no"), 8, "v", "expected true or false"),
    ("visible int", _set(("nodes", 8, "v"), 0), 8, "v", "expected true or false"),
    ("visible int 1", _set(("nodes", 8, "v"), 1), 8, "v", "expected true or false"),
    ("font size negative", _set(("nodes", 2, "fs"), -1), 2, "fs", "finite number >= 0"),
    ("font size string", _set(("nodes", 2, "fs"), "16px"), 2, "fs", "finite number >= 0"),
    ("font size bool", _set(("nodes", 2, "fs"), True), 2, "fs", "finite number >= 0"),
    ("font size nan", _set(("nodes", 2, "fs"), NAN), 2, "fs", "finite number >= 0"),
    ("font size list", _set(("nodes", 2, "fs"), [16]), 2, "fs", "finite number >= 0"),
    ("font weight zero", _set(("nodes", 2, "fw"), 0), 2, "fw", "from 1 to 1000"),
    ("font weight big", _set(("nodes", 2, "fw"), 1001), 2, "fw", "from 1 to 1000"),
    ("font weight string", _set(("nodes", 2, "fw"), "bold"), 2, "fw", "from 1 to 1000"),
    ("text number", _set(("nodes", 4, "x"), 5), 4, "x", "expected a string"),
    ("text null", _set(("nodes", 4, "x"), None), 4, None, "neither 't'"),
    ("text object", _set(("nodes", 4, "x"), {"t": "x"}), 4, "x", "expected a string"),
]


@pytest.mark.parametrize(("mutate", "index", "field", "fragment"), [case[1:] for case in MALFORMED], ids=[case[0] for case in MALFORMED])
def test_malformed_snapshot(mutate, index, field, fragment) -> None:
    doc = _valid()
    mutate(doc)
    with pytest.raises(SnapshotError) as caught:
        parse_snapshot(doc)
    error = caught.value
    assert isinstance(error, InputError) and error.exit_code == 3
    assert (error.index, error.field) == (index, field), str(error)
    assert fragment in str(error)
    if index is not None:
        assert f"nodes[{index}]" in str(error)
    if field is not None:
        assert repr(field) in str(error)


def streamed(doc: dict, size: int, stream: SnapshotStream | None = None) -> Page:
    """``doc`` parsed as a stream (``stream``, or a new one): its nodes fed in parts of
    ``size``, the last part with the header (as the extension sends a streamed snapshot,
    docs/protocol.md). Nodes that are not a list go whole with the header."""
    stream = stream or SnapshotStream()
    nodes = doc.get("nodes")
    if not isinstance(nodes, list):
        return stream.finish(doc)
    cut = max(len(nodes) - 1, 0) // size * size
    for start in range(0, cut, size):
        stream.feed(nodes[start:start + size])
    return stream.finish({**doc, "nodes": nodes[cut:]})


@pytest.mark.parametrize(("mutate", "index", "field", "fragment"), [case[1:] for case in MALFORMED], ids=[case[0] for case in MALFORMED])
def test_malformed_snapshot_streamed_fails_the_same(mutate, index, field, fragment) -> None:
    """Cut into parts of 2 nodes, a broken snapshot names the same node (counted from the first
    part) and field; after the error the stream keeps refusing."""
    doc = _valid()
    mutate(doc)
    stream = SnapshotStream()
    with pytest.raises(SnapshotError) as caught:
        streamed(doc, 2, stream)
    error = caught.value
    assert (error.index, error.field) == (index, field), str(error)
    assert fragment in str(error)
    with pytest.raises(SnapshotError) as again:
        stream.finish({**_valid(), "nodes": []})
    assert again.value is error


def test_stream_refuses_a_part_that_is_not_a_list_and_an_empty_snapshot() -> None:
    with pytest.raises(SnapshotError, match="expected an array of nodes"):
        SnapshotStream().feed({"i": 0})
    with pytest.raises(SnapshotError, match="empty: the root <html> element is required") as caught:
        SnapshotStream().finish({**_valid(), "nodes": []})
    assert caught.value.field == "nodes"


def test_stream_counts_nodes_against_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot_module, "MAX_NODES", 5)
    nodes = _valid()["nodes"]
    stream = SnapshotStream()
    stream.feed(nodes[:4])
    with pytest.raises(SnapshotError, match="6 nodes; snapshots over 5 nodes are refused"):
        stream.feed(nodes[4:6])


def test_malformed_valid_as_dict_fails_the_same_as_json() -> None:
    doc = _valid()
    doc["nodes"][3]["p"] = 99
    for data in (doc, json.dumps(doc), json.dumps(doc).encode()):
        with pytest.raises(SnapshotError, match=r"nodes\[3\]"):
            parse_snapshot(data)


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (b"not json", "not valid JSON"),
        (b"\xff\xfe\x00garbage", "not valid JSON"),
        ("", "not valid JSON"),
        ("[1, 2]", "expected a JSON object at the top level, got array"),
        ("42", "got number"),
        ('"text"', "got string"),
        ("null", "got null"),
        ('{"version": 1, "nodes": [{"i": 0, "p": null, "t": "html", "b": [NaN, 0, 0, 0]}]}', "NaN is not valid JSON"),
        ('{"version": 1, "nodes": [], "dpr": Infinity}', "Infinity is not valid JSON"),
        ("[" * 200_000 + "]" * 200_000, "nested too deeply"),
        ('{"version": 1, "nodes": [{"i": 0, "p": null, "t": "html"}', "not valid JSON"),
        (42, "got number"),
        (None, "got null"),
        ([{"version": 1}], "got array"),
        ({"version": 1, "nodes": [{"i": 0, "p": None, "t": "html"}]}.items(), "got dict_items"),
    ],
    ids=lambda value: repr(value)[:30],
)
def test_malformed_input(data, fragment) -> None:
    with pytest.raises(SnapshotError) as caught:
        parse_snapshot(data)
    assert fragment in str(caught.value)
    assert caught.value.index is None


def test_size_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = compact(_valid())
    monkeypatch.setattr(snapshot_module, "MAX_SNAPSHOT_BYTES", len(doc) - 1)
    with pytest.raises(SnapshotError, match="MiB are refused"):
        parse_snapshot(doc)
    monkeypatch.setattr(snapshot_module, "MAX_SNAPSHOT_BYTES", len(doc))
    parse_snapshot(doc)
    monkeypatch.setattr(snapshot_module, "MAX_NODES", 8)
    with pytest.raises(SnapshotError, match="nodes are refused") as caught:
        parse_snapshot(doc)
    assert caught.value.field == "nodes"


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)
_NODE_KEYS = ["i", "p", "t", "a", "b", "v", "fs", "fw", "x", "zz"]
_SMALL_VALUES = st.one_of(st.integers(-2, 12), st.sampled_from(["p", "div", "A", "", "class", "x\x00"]), _JSON_VALUES)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fuzzed_snapshots_raise_only_snapshot_error(data: st.DataObject) -> None:
    doc = _valid()
    nodes = doc["nodes"]
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["set", "del", "insert", "remove", "swap", "top", "attr"]))
        index = data.draw(st.integers(0, len(nodes) - 1)) if nodes else 0
        if op == "set" and nodes and isinstance(nodes[index], dict):
            nodes[index][data.draw(st.sampled_from(_NODE_KEYS))] = data.draw(_SMALL_VALUES)
        elif op == "del" and nodes and isinstance(nodes[index], dict) and nodes[index]:
            del nodes[index][data.draw(st.sampled_from(sorted(nodes[index])))]
        elif op == "insert":
            node = data.draw(st.dictionaries(st.sampled_from(_NODE_KEYS), _SMALL_VALUES, max_size=4))
            nodes.insert(index, node)
        elif op == "remove" and nodes:
            del nodes[index]
        elif op == "swap" and len(nodes) > 1:
            other = data.draw(st.integers(0, len(nodes) - 1))
            nodes[index], nodes[other] = nodes[other], nodes[index]
        elif op == "top":
            doc[data.draw(st.sampled_from(["version", "url", "title", "viewport", "document", "dpr", "nodes"]))] = data.draw(_JSON_VALUES)
        elif op == "attr" and nodes and isinstance(nodes[index], dict):
            nodes[index]["a"] = data.draw(st.dictionaries(st.text(max_size=4), st.one_of(st.text(max_size=4), _JSON_VALUES), max_size=3))
    try:
        page = parse_snapshot(doc)
    except SnapshotError as error:
        assert str(error).startswith("invalid snapshot")
        return
    # Whatever was accepted is a consistent page.
    ids = [page.node_id(el) for el in page.root.iter(etree.Element)]
    assert len(ids) == len(set(ids)) == len(page.styles)
    assert set(page.boxes) <= set(ids)
    assert all(isinstance(el, lxml.html.HtmlElement) for el in page.root.iter(etree.Element))
    etree.tostring(page.root)
    assert parse_snapshot(page_to_snapshot(page)).styles == page.styles


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=200))
def test_fuzzed_bytes_raise_only_snapshot_error(data: bytes | str) -> None:
    try:
        parse_snapshot(data)
    except SnapshotError:
        pass


# ---------------------------------------------------------------------------- real pages


def _dragnet_pages(datasets_dir: Path, count: int) -> list[tuple[str, bytes]]:
    folder = datasets_dir / "dragnet"
    if not (folder / "index.jsonl").is_file():
        pytest.skip(f"{folder} has no index.jsonl (see ../shared/datasets/README.md)")
    pages = []
    with open(folder / "index.jsonl", encoding="utf-8") as index:
        for line in index:
            page_id = json.loads(line)["id"]
            pages.append((page_id, gzip.decompress((folder / "pages" / f"{page_id}.html.gz").read_bytes())))
            if len(pages) == count:
                break
    return pages


@pytest.fixture(scope="module")
def dragnet_pages(datasets_dir: Path) -> list[tuple[str, bytes]]:
    return _dragnet_pages(datasets_dir, N_DRAGNET_PAGES)


def test_round_trip_dragnet_pages(dragnet_pages: list[tuple[str, bytes]]) -> None:
    assert len(dragnet_pages) == N_DRAGNET_PAGES
    for page_id, html in dragnet_pages:
        page, got, expected = round_trip(html)
        assert got == expected, f"dragnet page {page_id}: the snapshot route changed the tree"
        source = parse_html(html)
        assert page.title == source.title, page_id
        assert set(page.styles) == {page.node_id(el) for el in page.root.iter(etree.Element)}, page_id


def test_streamed_dragnet_pages_build_the_same_page(dragnet_pages: list[tuple[str, bytes]]) -> None:
    """Whatever the part size (a text run or an element cut between parts included), the page
    built from parts is the page of the whole snapshot: tree, boxes, styles, hidden, warnings."""
    for page_id, html in dragnet_pages[:6]:
        doc = with_layout(page_to_snapshot(parse_html(html)))
        whole = parse_snapshot(doc)
        expected = etree.tostring(whole.root)
        for size in (1, 3, 1000):
            page = streamed(doc, size)
            assert etree.tostring(page.root) == expected, (page_id, size)
            assert page.boxes == whole.boxes and page.styles == whole.styles, (page_id, size)
            assert [etree.tostring(e) for e in page.hidden] == [etree.tostring(e) for e in whole.hidden]
            assert (page.title, page.url, page.warnings) == (whole.title, whole.url, whole.warnings)


def test_snapshot_size_per_element(dragnet_pages: list[tuple[str, bytes]]) -> None:
    """Compact JSON bytes per element (text nodes count in the bytes, not in the elements)."""
    plain = layout = elements = 0
    for _page_id, html in dragnet_pages:
        snap = page_to_snapshot(parse_html(html))
        elements += sum(1 for node in snap["nodes"] if "t" in node)
        plain += len(compact(snap))
        layout += len(compact(with_layout(snap)))
    print(f"\nsnapshot size on {len(dragnet_pages)} dragnet pages: {plain / elements:.0f} bytes/element without boxes, {layout / elements:.0f} with box+fs+fw on every element")
    assert layout / elements <= 300


def _synthetic(n_nodes: int, seed: int = 0) -> dict:
    """A page-like snapshot of exactly ``n_nodes`` nodes (about 1.3 text nodes per element)."""
    rng = random.Random(seed)
    nodes: list[dict] = [{"i": 0, "p": None, "t": "html", "a": {"lang": "en"}}, {"i": 1, "p": 0, "t": "body"}]
    stack = [1]
    next_id = 2
    while len(nodes) < n_nodes:
        parent = stack[-1]
        roll = rng.random()
        if len(stack) > 24:
            roll = 1.0  # real pages are rarely deeper than ~25 elements
        if roll < 0.30:
            tag = rng.choice(["div", "p", "span", "a", "li", "ul", "section", "em", "img", "td"])
            node = {"i": next_id, "p": parent, "t": tag}
            if rng.random() < 0.6:
                node["a"] = {"class": rng.choice(["main", "nav item", "btn btn-primary", "c" * 12])}
                if tag == "a":
                    node["a"]["href"] = f"https://example.org/path/{next_id}"
            nodes.append(node)
            stack.append(next_id)
            next_id += 1
        elif roll < 0.70 or len(stack) == 1:
            nodes.append({"p": parent, "x": rng.choice([" ", "\n  ", "Some words of text here. " * rng.randint(1, 4)])})
        else:
            stack.pop()
    return with_layout(_doc(nodes, url="https://example.org/", title="t", viewport={"width": 1280, "height": 720}, document={"width": 1280, "height": 9000}))


def test_synthetic_5000_node_snapshot_parses() -> None:
    """The 5,000-node page of the speed target parses to the same tree through JSON bytes."""
    snap = _synthetic(5000)
    assert len(snap["nodes"]) == 5000
    from_dict = parse_snapshot(snap)
    from_bytes = parse_snapshot(compact(snap))
    assert etree.tostring(from_dict.root) == etree.tostring(from_bytes.root)
    elements = sum(1 for node in snap["nodes"] if "t" in node)
    assert len(from_dict.element_by_id()) == elements


def test_hidden_elements_are_listed_and_preprocessing_drops_the_same_as_a_full_scan():
    """``Page.hidden`` lists the ``v: false`` elements, in document order; pre-processing that
    uses the list leaves the same tree as testing every element's style."""
    from pagesieve.page.preprocess import preprocess

    nodes = [
        {"i": 0, "p": None, "t": "html"},
        {"i": 1, "p": 0, "t": "body"},
        {"i": 2, "p": 1, "t": "div", "v": False},
        {"p": 2, "x": "menu never shown"},
        {"i": 3, "p": 1, "t": "p"},
        {"p": 3, "x": "kept text "},
        {"i": 4, "p": 3, "t": "span", "v": False, "fs": 12},
        {"p": 4, "x": "hidden span"},
        {"p": 3, "x": " tail stays"},
        {"i": 5, "p": 1, "t": "div", "a": {"hidden": ""}},
        {"p": 5, "x": "hidden by attribute"},
        {"i": 6, "p": 1, "t": "div", "a": {"style": "display: none"}, "v": False},
        {"p": 6, "x": "hidden both ways"},
        {"i": 7, "p": 1, "t": "p"},
        {"p": 7, "x": "last paragraph"},
    ]
    snapshot = {"version": 1, "nodes": nodes}
    page = parse_snapshot(snapshot)
    assert [el.get(NODE_ID_ATTR) for el in page.hidden] == ["2", "4", "6"]
    scanned = parse_snapshot(snapshot)
    scanned.hidden = None  # the per-element style test
    preprocess(page)
    preprocess(scanned)
    assert etree.tostring(page.root) == etree.tostring(scanned.root)
    text = " ".join(page.root.itertext())
    assert "kept text" in text and "tail stays" in text and "last paragraph" in text
    assert "never shown" not in text and "hidden span" not in text and "hidden by" not in text and "both ways" not in text
    from pagesieve.page.html import parse_html

    assert parse_html(b"<p>x</p>").hidden is None  # HTML pages have no such list
