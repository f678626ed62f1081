"""The compiled segmentation (pagesieve.blocks._segment) gives the Python walk's blocks field for
field: on real dataset pages (as parsed, and as extract() hands them to segment after
pre-processing) and on crafted trees (comments and processing instructions with tails, <pre>
nesting, links in links, CDATA and runs of several text nodes, odd Unicode white space, deep
nesting, trees changed after parsing); it hands back to Python the pages it cannot read; its white
space is str.isspace for every code point; PAGESIEVE_PURE_PYTHON turns it off."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from dataclasses import fields

import pytest
from lxml import etree

import pagesieve.extract as extract_module
from pagesieve.blocks import segment as seg
from pagesieve.blocks.segment import BLOCK_TAGS, SEED000_BLOCK_TAGS, Block, segment
from pagesieve.page.html import parse_html

compiled_module = pytest.importorskip("pagesieve.blocks._segment", reason="the compiled segmentation is not built "
                                      "here (no C compiler when the package was installed; build it with `pip install -e .`)")

#: Pages a dataset gives to the comparison (the first ones of each shared dataset).
PAGES_PER_DATASET = 8

#: The white space of str.split() beyond ASCII's \t\n\v\f\r and space, and text around them.
ODD_SPACES = "\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000"


@pytest.fixture(autouse=True)
def _compiled_on(monkeypatch):
    """Each test starts with the compiled walk in use (the import-time checks accepted it)."""
    if os.environ.get(seg.PURE_PYTHON_ENV, "") not in ("", "0"):
        pytest.skip(f"{seg.PURE_PYTHON_ENV} is set: the compiled walk is off")
    assert seg._compiled is compiled_module, "the compiled walk is built but its import-time checks refused it"
    monkeypatch.setattr(seg, "_compiled", compiled_module)


def assert_same(got: list[Block], ref: list[Block]) -> None:
    """Both segmentations have the same blocks: every dataclass field (elements by identity), the
    collapsed text and the node id."""
    assert len(got) == len(ref)
    for a, b in zip(got, ref):
        assert a.element is b.element, a.index
        for f in fields(Block):
            if f.name not in ("element", "_text"):
                assert getattr(a, f.name) == getattr(b, f.name), (a.index, f.name)
        assert a.text == b.text, a.index
        assert a.node_id == b.node_id, a.index


def both(root: etree._Element, block_tags=BLOCK_TAGS, positions=None, expect_compiled: bool = True) -> list[Block]:
    """segment() compiled and in Python on one tree; asserts they agree and which walk answered."""
    before = list(seg.COUNTS)
    got = segment(root, block_tags, positions)
    assert seg.COUNTS[0] - before[0] == (1 if expect_compiled else 0)
    assert seg.COUNTS[1] - before[1] == (0 if expect_compiled else 1)
    saved, seg._compiled = seg._compiled, None
    try:
        ref = segment(root, block_tags, positions)
    finally:
        seg._compiled = saved
    assert_same(got, ref)
    return got


def parsed(html: str, parser: etree.HTMLParser | None = None) -> tuple[etree._Element, list, dict]:
    """A tree with every node's proxy held (as Page.proxies holds them) and its positions."""
    root = etree.fromstring(html.encode("utf-8"), parser or etree.HTMLParser(encoding="utf-8"))
    proxies = list(root.iter())
    return root, proxies, dict(zip(proxies, range(len(proxies))))


def test_white_space_is_str_isspace_for_every_code_point():
    assert compiled_module.spaces() == [c for c in range(0x110000) if chr(c).isspace()]


def test_collapse_is_join_of_split():
    rng = random.Random(49)
    alphabet = " \t\n\r\x0b\x0cab\u00e9\u65e5\U0001f600\u2027\u2030\u200b\u3001" + ODD_SPACES
    samples = ["", " ", "a", " a ", "a  b", ODD_SPACES, "x" + ODD_SPACES + "y"]
    samples += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30))) for _ in range(5000)]
    for text in samples:
        joined = " ".join(text.split())
        lead, trail = bool(text) and text[0].isspace(), bool(text) and text[-1].isspace()
        assert compiled_module.collapse(text) == (joined, len(joined), lead, trail), repr(text)


def test_comments_and_processing_instructions_count_by_their_tails():
    root, _proxies, positions = parsed(
        "<html><body><div>a<!-- not text -->tail one<?pi not text?>tail two<p>p<!--c-->"
        "<a href=x>l<!--c-->in link</a><!--c-->after</p></div></body></html>")
    blocks = both(root, positions=positions)
    assert [b.pieces for b in blocks[1:]] == [["a", "tail one", "tail two"], ["p", "l", "in link", "after"]]
    assert blocks[2].link_chars == len("l") + len("in link")


def test_pre_nesting_links_in_links_images_and_empty_text():
    root, proxies, positions = parsed(
        "<html><body><pre> a  <b> b </b><div> in  div </div><pre>  inner </pre>  </pre>"
        "<p><a href=1>one <img src=x> two</a> out<img src=y></p><p></p><div> </div></body></html>")
    outer = root.find(".//a")
    inner = etree.SubElement(outer, "a")  # a link inside a link: HTML parsing cannot nest them
    inner.text = "nested"
    inner.tail = " after nested "
    empty = etree.SubElement(root.find(".//div"), "span")
    empty.text = ""  # an empty text node: lxml's "" (skipped like None)
    proxies += [inner, empty]
    blocks = both(root, positions=positions)
    pres = [b for b in blocks if b.pre]
    assert [b.tag for b in pres] == ["pre", "div", "pre"] and pres[0].text == " a   b   "  # verbatim: its pieces and the inner <pre>'s tail
    link = next(b for b in blocks if b.links)
    assert (link.links, link.images, link.inline_tags) == (2, 2, 4)
    assert link.link_chars == len("one") + len("two") + len("nested") + len("after nested")
    assert segment(root.find(".//pre"))[0].pre  # the walk starting at a <pre>
    both(root.find(".//pre"), positions=positions)


def test_non_ascii_and_odd_white_space():
    root, _proxies, positions = parsed(
        f"<html><body><p>{ODD_SPACES}日本{ODD_SPACES}語 é<b>\u3000x\u2028</b>y\x85z</p>"
        f"<pre>{ODD_SPACES}keep</pre><div>\U0001f600{ODD_SPACES}</div></body></html>")
    blocks = both(root, positions=positions)
    assert ODD_SPACES in blocks[1].pieces[0]  # the parser kept them all
    assert blocks[1].text == "日本 語 é x y z" and blocks[1].chars == len("日本 語 é") + len("x") + len("y z")
    assert blocks[2].text == ODD_SPACES + "keep"


def test_cdata_and_runs_of_several_text_nodes():
    root, proxies, positions = parsed("<html><body><p>x<b>gone</b> joined <i>i</i></p><div>d</div></body></html>")
    p = root.find(".//p")
    p.text = etree.CDATA("cdata ")
    etree.strip_elements(root, "b", with_tail=False)  # the tail stays beside the CDATA node: one run of two
    root.find(".//div").text = etree.CDATA("only\u3000cdata")
    blocks = both(root, positions=positions)
    assert blocks[1].pieces[0] == "cdata  joined " and blocks[2].text == "only cdata"


def test_deep_nesting():
    root, proxies, _positions = parsed("<html><body><div>top</div></body></html>")
    node = root.find(".//div")
    for k in range(5000):  # deeper than libxml2's parser allows: both walks are iterative
        node = etree.SubElement(node, "div" if k % 3 else "span")
        node.text = f" {k} "
        node.tail = "t"
        proxies.append(node)
    blocks = both(root)
    assert len(blocks) > 3000 and blocks[-1].depth > 5000


def test_a_tree_changed_after_parsing():
    root, proxies, positions = parsed("<html><body><div><p>one</p><p>two</p></div></body></html>")
    div = root.find(".//div")
    div.remove(div[0])
    kept = etree.SubElement(div, "section")
    kept.text = "held"
    proxies.append(kept)
    both(root, positions=positions)  # new elements with live proxies: compiled
    etree.SubElement(div, "p").text = "no proxy"  # its proxy is gone at once
    blocks = both(root, positions=positions, expect_compiled=False)
    assert blocks[-1].node_id == -1 and blocks[-1].text == "no proxy"
    etree.SubElement(div, "span").text = "inline, no proxy"  # only block elements need one
    proxies.append(div[-2])  # the <p> has a live proxy again
    both(root, positions=positions)


def test_what_it_hands_back_to_python():
    root, proxies, positions = parsed("<html><body><div>a</div></body></html>")
    ns = etree.SubElement(root.find("body"), "{urn:x}div")
    proxies.append(ns)
    both(root, positions=positions, expect_compiled=False)  # a namespaced element
    root, proxies, positions = parsed("<html><body><div>a</div></body></html>")
    before = list(seg.COUNTS)
    assert len(segment(root, frozenset({"div", "dïv"}), positions)) == 2  # a name that is not ASCII
    assert seg.COUNTS == before
    assert len(segment(root, {"div", "body"}, positions)) == 2  # a plain set: the Python walk
    assert seg.COUNTS == before


def test_other_block_sets_and_roots():
    root, _proxies, positions = parsed(
        "<html><body><section><div>a<p>b</p></div>c</section><main>m</main></body></html>")
    assert [b.tag for b in both(root, SEED000_BLOCK_TAGS, positions)] == ["body", "section", "div"]
    assert both(root, positions=None)[0]._node_id is None
    fragment, proxies, positions = parsed("<div><p>x</p>y</div>")  # wrapped in html/body by the parser
    both(fragment.find(".//div"), positions=positions)  # no <body> under the top: depth 0


def test_unfilled_text_is_made_on_demand():
    root, _proxies, positions = parsed("<html><body><p> a <b>b</b>  c</p></body></html>")
    body = root.find("body")
    blocks = compiled_module.segment(body, seg._block_names(BLOCK_TAGS), 1, positions, False, False)
    assert all(b._text is None for b in blocks) and blocks[1].text == "a b c"


def _dataset_pages(datasets_dir):
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    for folder in sorted(datasets_dir.iterdir()):
        if (folder / "index.jsonl").is_file():
            dataset = load_dataset(folder)
            for record in dataset.rows[:PAGES_PER_DATASET]:
                yield f"{dataset.name}/{record.id}", read_page(dataset, record.id), record.url


def test_real_pages_as_parsed_and_as_extract_segments_them(datasets_dir, monkeypatch):
    calls = []

    def checked(root, block_tags=BLOCK_TAGS, positions=None):
        calls.append(root)
        return both(root, block_tags, positions)

    monkeypatch.setattr(extract_module, "segment", checked)
    pages = list(_dataset_pages(datasets_dir))
    assert len(pages) >= 50
    blocks = 0
    for name, html, url in pages:
        page = parse_html(html, url=url)
        blocks += len(both(page.root, positions=page.positions()))
        extract_module.extract(html, url)  # pre-processed: segment sees the tree extract gives it
    assert len(calls) == len(pages) and blocks > 10000


def test_extract_gives_the_same_article(datasets_dir):
    for name, html, url in list(_dataset_pages(datasets_dir))[::4]:
        a = extract_module.extract(html, url)
        seg._compiled = None
        try:
            b = extract_module.extract(html, url)
        finally:
            seg._compiled = compiled_module
        assert (a.text, a.html, a.noise_ids, a.content_ids, a.metadata.title) == \
            (b.text, b.html, b.noise_ids, b.content_ids, b.metadata.title), name


def test_pure_python_switch():
    env = dict(os.environ, **{seg.PURE_PYTHON_ENV: "1"})
    out = subprocess.run([sys.executable, "-c", "import pagesieve.blocks.segment as s; print(s._compiled is None)"],
                         env=env, capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "True"


def test_refused_when_lxml_is_not_a_checked_version(monkeypatch):
    monkeypatch.setattr(seg, "_VERIFIED_LXML_MAJOR", ())
    assert seg._load_compiled() is None
    monkeypatch.undo()
    assert seg._load_compiled() is compiled_module
