"""The article's HTML holds what its text holds, whatever the page's markup (issue 62, "The body
is never empty when the text is not").

71 portal pages wrapped in one ``<text id=...>`` element before their doctype gave ``<div></div>``
as HTML and the title alone as Markdown, while their text held 700 to 1,900 words: nh3 removes an
element named like an SVG or MathML element with all its content
(:func:`pagesieve.article.render.unwrap_unsanitised`). The check over the datasets is
:func:`pagesieve_dev.evaluation.html_text.dataset_html_text` (``pagesieve-dev html-text``).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from lxml import etree

from pagesieve.article.render import ALLOWED_TAGS, finish_html, unwrap_unsanitised
from pagesieve.extract import extract
from pagesieve.tokens import tokens
from pagesieve_dev.evaluation import html_text
from pagesieve_dev.evaluation.datasets import load_dataset, read_page

PARAGRAPH = "The council met on Tuesday to argue over the budget of the harbour, the schools and the roads. " * 4
ARTICLE = f"<h1>Harbour budget</h1><p>{PARAGRAPH}</p><p>{PARAGRAPH}</p><p>{PARAGRAPH}</p>"


def _page(inner: str) -> str:
    return (f"<!DOCTYPE html><html><head><title>Harbour budget</title></head><body>"
            f"<div class='nav'><a href='/'>Home</a> <a href='/news'>News</a></div>{inner}</body></html>")


def test_a_page_wrapped_in_a_text_element_before_its_doctype_keeps_its_html_and_markdown():
    """The portal pages of issue 62: ``<text id=...>`` around the whole document."""
    page = f'<text id="portal-0001">{_page(f"<article>{ARTICLE}</article>")}</text>'
    expected, held = html_text.page_html_text(page, "https://portal.example/news/1")
    assert expected > 150 and held == expected
    article = extract(page, url="https://portal.example/news/1")
    assert article.html.count("<p>") == 3
    assert article.header == ["Harbour budget"]  # shown by the header, not by the body (issue 52)
    assert tokens(article.markdown) == tokens(article.text)  # the Markdown too, not the title alone


@pytest.mark.parametrize("tag", [
    "text", "g", "path", "tspan", "circle", "image", "switch", "symbol",  # SVG element names
    "set", "list", "card", "matrix", "product", "share", "vector", "domain",  # MathML element names
    "mi", "mtext", "semantics", "none",  # MathML tags the article keeps, but inside <math> only
    "news-article", "xmp", "plaintext", "template-like", "fb:post",
])
def test_whatever_wraps_the_article_its_html_holds_its_text(tag: str):
    expected, held = html_text.page_html_text(_page(f"<article><{tag} class='story'>{ARTICLE}</{tag}></article>"), "https://portal.example/a")
    assert expected > 150 and held == expected, tag


def test_elements_nh3_would_not_keep_are_unwrapped_before_it_sees_them():
    body = etree.fromstring(
        "<body><text id='t'>Lead <b>bold</b><p>One <g>two</g></p>tail</text><script>var x;</script>after"
        "<p><math><mi>x</mi><maction><mn>2</mn></maction></math> and <mi>y</mi></p><style>p{}</style></body>"
    )
    assert unwrap_unsanitised(body) == 4  # text, g, maction, the <mi> outside <math>
    assert all(e.tag in ALLOWED_TAGS for e in body.iterdescendants(etree.Element))
    assert etree.tostring(body, encoding="unicode") == (
        "<body>Lead <b>bold</b><p>One two</p>tailafter"
        "<p><math><mi>x</mi><mn>2</mn></math> and y</p></body>"
    )


def test_unwrapping_gives_the_html_that_nh3_gave_where_it_unwrapped_the_tag_itself():
    """A ``<span>``, a ``<font>`` or an unknown custom element: nh3 unwrapped them before, the
    HTML is the same."""
    html = ("<body><div><p>A <span class='x'>span</span>, <font color='red'>font</font>, "
            "<my-widget>widget</my-widget> and <abbr title='t'>abbr</abbr>.</p></div></body>")
    assert finish_html(etree.fromstring(html), None) == (
        "<div><p>A span, font, widget and <abbr title=\"t\">abbr</abbr>.</p></div>")


def test_html_tokens_separate_blocks_and_join_inline_elements():
    assert html_text.html_tokens("<div><p>one<b>two</b></p><p>three</p>four<br>five</div>") == [
        "onetwo", "three", "four", "five"]
    assert html_text.html_tokens("<div><p>wor<b>ds</b></p><p>next</p><ul><li>a</li><li>b</li></ul></div>") == [
        "words", "next", "a", "b"]
    assert html_text.html_tokens("") == []


def test_text_in_html_counts_tokens_as_multisets_less_the_header():
    assert html_text.text_in_html("<div><p>b c</p></div>", "Title\na b c c", header="Title") == (4, 2)
    # a word the text glues at a line break is no word the HTML lost (cleaneval final_151)
    assert html_text.text_in_html("<div><p><b>Sunil Gavaskar</b><br><br>Gavaskar decided</p></div>",
                                 "Sunil GavaskarGavaskar decided") == (3, 3)
    assert html_text.holds_less(4, 2) and not html_text.holds_less(10, 9) and not html_text.holds_less(0, 0)


def test_lines_out_of_order_reads_each_line_after_the_last_one_found():
    html = "<div><p>one two three</p><p>four five six</p><p>seven eight nine</p><p>6</p></div>"
    assert html_text.lines_out_of_order(html, "one two three\nfour five six\nseven eight nine") == (3, 0)
    assert html_text.lines_out_of_order(html, "four five six\none two three\nseven eight nine") == (3, 1)
    # a line the HTML does not hold, or too short to place, is not read
    assert html_text.lines_out_of_order(html, "6\none two three\nten eleven twelve\nfour five six") == (2, 0)


def test_wrap_page_puts_one_element_around_the_doctype():
    assert html_text.wrap_page("<!DOCTYPE html><html></html>", "text") == '<text id="pagesieve-wrap"><!DOCTYPE html><html></html></text>'
    with pytest.raises(ValueError):
        html_text.wrap_page("", "a b")


def test_the_html_text_command_prints_pages_checked_and_pages_that_hold_less(tmp_path: Path, capsys):
    from pagesieve_dev.cli import main

    folder = tmp_path / "portal"
    (folder / "pages").mkdir(parents=True)
    (folder / "truth").mkdir()
    rows = []
    for n, inner in enumerate([f"<article>{ARTICLE}</article>", f"<text>{ARTICLE}</text>"]):
        (folder / "pages" / f"p{n}.html.gz").write_bytes(gzip.compress(_page(inner).encode("utf-8")))
        (folder / "truth" / f"p{n}.txt").write_text(PARAGRAPH, encoding="utf-8")
        rows.append(json.dumps({"id": f"p{n}", "site": "portal.example", "url": f"https://portal.example/{n}", "lang": "en"}))
    (folder / "index.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert main(["html-text", str(folder)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("portal: pages checked 2, pages whose HTML holds less than the text 0;")
    assert "pages whose text leaves the HTML's order 0" in out
    assert main(["html-text", str(folder), "--wrap", "text", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["portal"]["pages"] == 2 and report["portal"]["less"] == 0


SAMPLE_STEP = 8
"""Every 8th page of each dataset (in index order) is checked as it is, and every 32nd wrapped in a
``<text>`` element: about 600 and 150 of the 4,783 pages, some 30 s together on this 2-core
machine, where all of them take about 3 minutes each way (``pagesieve-dev html-text``, with and
without ``--wrap text``)."""

KNOWN = {
    "wcxb_dev": ["0628", "0073", "0038"],  # <text> in the page (REI's chat box; SVG labels)
    "dragnet": ["R212", "T23"],  # the fallbacks of "Markup as text" (test_page.py)
    "readability": ["yahoo-4", "buzzfeed-1", "videos-2"],
    "daniel": ["20120112_gz.city.ifeng.com_5faabba85385732c"],  # <noembed>
}
"""Pages whose markup holds what issue 62 was about: an element named like an SVG element, a
``<noembed>``, a ``<noframes>``, a ``<noscript>`` holding escaped markup."""


def _datasets(datasets_dir: Path) -> list:
    folders = sorted(p for p in datasets_dir.iterdir() if (p / "index.jsonl").is_file())
    if not folders:
        pytest.skip(f"no dataset under {datasets_dir}")
    return [load_dataset(p) for p in folders]


def test_the_html_holds_the_text_on_every_dataset(datasets_dir: Path):
    """The pages known to hold such markup and every :data:`SAMPLE_STEP`-th page of every dataset
    (a deterministic sample: all 4,783 take minutes; ``pagesieve-dev html-text`` runs them all):
    no page's HTML holds less than :data:`~pagesieve_dev.evaluation.html_text.HTML_TEXT_SHARE` of
    its text's tokens, and no page's text leaves its HTML's order
    (:func:`~pagesieve_dev.evaluation.html_text.lines_out_of_order`; 310 of the 4,783 pages did
    before :func:`pagesieve.article.text.text_lines` read loose text in its place)."""
    for dataset in _datasets(datasets_dir):
        ids = list(dict.fromkeys([*(i for i in KNOWN.get(dataset.name, []) if i in dataset), *dataset.ids[::SAMPLE_STEP]]))
        result = html_text.dataset_html_text(dataset, ids)
        assert result["failed"] == [] and result["pages"] == len(ids), dataset.name
        assert result["less_ids"] == [], dataset.name
        assert result["unordered_ids"] == [], dataset.name


def test_the_html_holds_the_text_of_dataset_pages_wrapped_in_a_text_element(datasets_dir: Path):
    """Every ``4 * SAMPLE_STEP``-th page of every dataset, wrapped as the portal pages were
    (:func:`~pagesieve_dev.evaluation.html_text.wrap_page`): before the repair, 4,767 of the 4,783
    pages held less (``pagesieve-dev html-text --wrap text``)."""
    for dataset in _datasets(datasets_dir):
        result = html_text.dataset_html_text(dataset, dataset.ids[::4 * SAMPLE_STEP], wrap="text")
        assert result["less_ids"] == [], dataset.name


def test_a_wrapped_dataset_page_has_the_text_and_html_of_the_page_unwrapped(datasets_dir: Path):
    """The wrapper changes nothing but itself: the text of a real page, and its HTML's words."""
    dataset = load_dataset(datasets_dir / "big9") if (datasets_dir / "big9").is_dir() else pytest.skip("no big9")
    page = read_page(dataset, dataset.ids[0])
    url = dataset.record(dataset.ids[0]).url
    plain, wrapped = extract(page, url=url), extract(html_text.wrap_page(page, "text"), url=url)
    assert wrapped.text == plain.text
    assert html_text.html_tokens(wrapped.html) == html_text.html_tokens(plain.html)
