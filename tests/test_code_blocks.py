"""Code blocks in the article: the gutters and copy controls around them go, each block's scope
walked once (pagesieve.article.code)."""

from __future__ import annotations

import copy

import pytest
from lxml import etree

from pagesieve.article.code import COPY_MAX_CHARS, _copy_control, _gutter, clean_code_blocks
from pagesieve.page.preprocess import remove_keep_tail


def _walk_each_scope(root: etree._Element) -> None:
    """The plain form: every outermost <pre> walks the whole of its parent's subtree in turn."""
    for pre in list(root.iter("pre")):
        if any(a.tag == "pre" for a in pre.iterancestors()):
            continue
        scope = pre.getparent() if pre.getparent() is not None else pre
        for element in list(scope.iter()):
            if element is pre or element is scope or not isinstance(element.tag, str):
                continue
            if _gutter(element) or (_copy_control(element) and len("".join(element.itertext()).strip()) <= COPY_MAX_CHARS):
                if element.getparent() is not None:
                    remove_keep_tail(element)


def _controls_only(root: etree._Element) -> bytes:
    """``clean_code_blocks`` with the language step left out: only its removals."""
    from pagesieve.article import code

    pres = [pre for pre in root.iter("pre") if next(pre.iterancestors("pre"), None) is None]
    code._remove_controls(pres)
    return etree.tostring(root)


CASES = [
    # two blocks in one scope, each with a copy button and a gutter
    "<div><button class='copy-btn'>Copy</button><pre><span class='lineno'>1</span>a = 1</pre>"
    "<button class='copy-btn'>Copy</button><pre><span class='lineno'>1</span>b = 2</pre></div>",
    # a block whose scope lies inside another block's scope
    "<div><pre>x</pre><section><pre>y</pre><span class='clipboard-copy'>Copied!</span></section></div>",
    # a gutter <pre> beside the code, and a long "copy" paragraph that is content
    "<div><pre class='gutter'>1\n2</pre><pre class='language-go'>go()</pre>"
    "<p class='copy'>Copy editing is a trade with a long history of its own.</p></div>",
    # one block alone: neither it nor its scope is looked at
    "<div class='gutter'><pre class='linenos'>1</pre></div>",
]


@pytest.mark.parametrize("markup", CASES)
def test_walking_each_scope_once_removes_what_walking_it_per_block_removed(markup):
    slow = etree.fromstring(f"<body>{markup}</body>")
    fast = copy.deepcopy(slow)
    _walk_each_scope(slow)
    assert _controls_only(fast) == etree.tostring(slow)


def test_many_blocks_in_one_scope_are_all_cleaned():
    blocks = "".join(f"<button class='copybtn'>Copy</button><pre class='language-py'><span class='ln'>{i}</span>x = {i}</pre>"
                     for i in range(300))
    root = etree.fromstring(f"<body><div>{blocks}</div></body>")
    assert clean_code_blocks(root) == 300
    assert root.find(".//button") is None and root.find(".//span") is None
    codes = root.findall(".//pre/code")
    assert len(codes) == 300 and codes[7].get("class") == "language-py" and codes[7].text == "x = 7"


def test_dataset_pages_with_code_are_cleaned_as_walking_each_scope_cleans_them(datasets_dir):
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page
    from pagesieve.page.html import parse_html

    folder = datasets_dir / "wcxb_dev"
    if not folder.is_dir():
        pytest.skip("wcxb_dev is not in the shared datasets")
    dataset = load_dataset(folder)
    checked = 0
    for record in dataset.rows:
        html = read_page(dataset, record.id)
        if "<pre" not in html:
            continue
        body = parse_html(html, url=record.url).root.find("body")
        if body is None:
            continue
        slow, fast = copy.deepcopy(body), copy.deepcopy(body)  # both serialised alike
        _walk_each_scope(slow)
        assert _controls_only(fast) == etree.tostring(slow), record.id
        checked += 1
        if checked == 40:
            break
    assert checked == 40
