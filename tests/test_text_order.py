"""The article's text reads in the page's order (pagesieve.article.text.text_lines): text written
loose between a container's child blocks stands between their lines, as the reader's HTML shows it.

big9's BBC stories of 2005 set most paragraphs as bare text in a table cell, beside a few ``<div>``
and ``<p>`` blocks. The text put all that loose text first, glued into one line ("Apple has set
its sights ... Instead many have turned to illegal file-sharing sites ... "It is the first step
..."), then the paragraphs of the child blocks; the saved text and a crawl's rows read so.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from conftest import shared_dataset
from pagesieve.article.text import blocks_text, text_lines
from pagesieve.blocks.runs import own_runs
from pagesieve.blocks.segment import segment
from pagesieve.extract import extract, judge_page
from pagesieve.page.html import parse_html
from pagesieve.templates.evidence import page_facts
from pagesieve_dev.evaluation.datasets import read_page
from pagesieve_dev.evaluation.html_text import lines_out_of_order

CELL = ("<html><body><table><tr><td>First loose paragraph of the story. <b>Bold</b> words."
        "<br><br><div>A child block in the middle.</div><!-- a comment -->Second loose "
        "<a href='/x'>paragraph</a> after it.<p>The last child block.</p>Closing loose line.</td></tr></table>"
        "</body></html>")


def _blocks(html: str):
    return segment(etree.fromstring(html, etree.HTMLParser()))


def test_a_containers_loose_text_is_cut_at_its_child_blocks():
    blocks = _blocks(CELL)
    cell = next(b for b in blocks if b.tag == "td")
    assert own_runs(cell, blocks) == ["First loose paragraph of the story. Bold words.",
                                      "Second loose paragraph after it.", "Closing loose line."]
    assert "".join(own_runs(cell, blocks)) == cell.text  # the block's text glues them ("words.Second")


def test_the_text_puts_each_loose_run_between_the_child_blocks_it_stands_between():
    blocks = _blocks(CELL)
    keep = [True] * len(blocks)
    assert blocks_text(blocks, keep).split("\n") == [
        "First loose paragraph of the story. Bold words.", "A child block in the middle.",
        "Second loose paragraph after it.", "The last child block.", "Closing loose line."]
    cell = next(b for b in blocks if b.tag == "td")
    assert [i for i, _line in text_lines(blocks, keep)] == [cell.index, cell.index + 1, cell.index, cell.index + 2,
                                                            cell.index]


def test_a_dropped_child_or_container_leaves_the_rest_in_order():
    blocks = _blocks(CELL)
    cell = next(b for b in blocks if b.tag == "td")
    keep = [True] * len(blocks)
    keep[cell.index + 1] = False  # the <div>
    assert blocks_text(blocks, keep).split("\n") == [
        "First loose paragraph of the story. Bold words.", "Second loose paragraph after it.",
        "The last child block.", "Closing loose line."]
    keep = [True] * len(blocks)
    keep[cell.index] = False
    assert blocks_text(blocks, keep).split("\n") == ["A child block in the middle.", "The last child block."]


def test_nested_containers_close_inside_out():
    html = ("<html><body><div>Outer lead.<div>Inner lead.<p>Inner child.</p>Inner close.</div>"
            "Outer close.<p>Outer child.</p></div></body></html>")
    blocks = _blocks(html)
    assert blocks_text(blocks, [True] * len(blocks)).split("\n") == [
        "Outer lead.", "Inner lead.", "Inner child.", "Inner close.", "Outer close.", "Outer child."]


def test_a_tree_changed_since_segmenting_gives_the_whole_text_in_one_run():
    blocks = _blocks(CELL)
    cell = next(b for b in blocks if b.tag == "td")
    bold = cell.element.find(".//b")
    bold.getparent().remove(bold)  # the tail goes with it: the runs no longer make the block's text
    assert own_runs(cell, blocks) is None
    assert blocks_text(blocks, [True] * len(blocks)).split("\n")[0] == cell.text


def test_a_pre_block_keeps_its_line_breaks_in_each_run():
    html = "<html><body><pre>line one\n  line two\n<div>inside</div>\nline three\n</pre></body></html>"
    blocks = _blocks(html)
    pre = next(b for b in blocks if b.tag == "pre")
    assert own_runs(pre, blocks) == ["line one\n  line two\n", "\nline three\n"]
    assert blocks_text(blocks, [True] * len(blocks)) == "line one\n  line two\ninside\nline three"


def test_the_facts_a_crawl_keeps_give_the_same_text_as_the_tree():
    blocks = _blocks(CELL)
    facts = page_facts(blocks)
    assert list(facts.runs) == [next(b for b in blocks if b.tag == "td").index]
    for keep in ([True] * len(blocks), [i % 2 == 0 for i in range(len(blocks))]):
        assert blocks_text(facts.blocks(), keep) == blocks_text(blocks, keep)


def test_bbc_stories_of_2005_read_in_the_order_of_the_page(datasets_dir: Path):
    """Every BBC story of big9 (40 pages): no line of the text stands before the line read before
    it in the reader's HTML (:func:`~pagesieve_dev.evaluation.html_text.lines_out_of_order`), and
    the facts a crawl keeps give the same text as the tree. On ``2005_apple_1`` the body's first
    line is the lead alone, and the lines follow the story."""
    big9 = shared_dataset(datasets_dir, "big9")
    ids = [i for i in big9.ids if big9.record(i).site == "bbc.co.uk"]
    assert len(ids) == 40
    for page_id in ids:
        html, url = read_page(big9, page_id), big9.record(page_id).url
        article = extract(html, url=url)
        lines, out = lines_out_of_order(article.html, article.text)
        assert lines > 5 and out == 0, page_id
        analysis, keep = judge_page(parse_html(html, url=url), title_only=False)
        assert blocks_text(page_facts(analysis.blocks).blocks(), keep) == blocks_text(analysis.blocks, keep), page_id
    article = extract(read_page(big9, "2005_apple_1"), url=big9.record("2005_apple_1").url)
    body = article.text.split("\n")
    lead = next(i for i, line in enumerate(body) if line.startswith("Apple has set its sights"))
    assert body[lead].endswith("iconic iPod.")
    assert body[lead + 1].startswith("It is looking to build on the success")
    assert body.index(next(line for line in body if line.startswith("Instead many have turned"))) > lead + 5
