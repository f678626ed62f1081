"""Reader fidelity: what a page's article holds reaches the reader view, the Markdown, the HTML
file and the e-book (issue 36).

``tests/fidelity/<case>/`` holds one small hand-written page per feature, in the style of
Readability.js's test pages: ``source.html``, and the article's ``expected.html``
(:attr:`Article.html`) and ``expected.md`` (:attr:`Article.markdown`). After a deliberate change
of the output, rewrite the expectations with ``PAGESIEVE_FIDELITY_WRITE=1 pytest
tests/test_fidelity.py`` and review their diff. The other tests assert the behaviour the
expected files show, so that a rewrite cannot hide a regression.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from pathlib import Path

import pytest
from lxml import html as lxml_html

from pagesieve.article.render import sanitise
from pagesieve_dev.evaluation import fidelity
from pagesieve.extract import extract
from pagesieve.library import Library
from pagesieve.library.epub import epub_bytes

from test_library_epub import NS, epubcheck, open_book

FIXTURES = Path(__file__).parent / "fidelity"
CASES = sorted(p.name for p in FIXTURES.iterdir() if (p / "source.html").is_file())
WRITE = os.environ.get("PAGESIEVE_FIDELITY_WRITE") == "1"


def article(case: str):
    return extract((FIXTURES / case / "source.html").read_text(encoding="utf-8"), url=f"https://fieldnotes.example/{case}")


def fragment(html: str):
    return lxml_html.fragment_fromstring(html, create_parent="div")


@pytest.mark.parametrize("case", CASES)
def test_article_matches_the_expected_html_and_markdown(case: str) -> None:
    found = article(case)
    expected_html, expected_md = FIXTURES / case / "expected.html", FIXTURES / case / "expected.md"
    if WRITE:
        expected_html.write_text(found.html + "\n", encoding="utf-8")
        expected_md.write_text(found.markdown, encoding="utf-8")
    assert found.html == expected_html.read_text(encoding="utf-8").rstrip("\n")
    assert found.markdown == expected_md.read_text(encoding="utf-8")


@pytest.mark.parametrize("case, formulas", [
    ("math-mathml", 2), ("math-katex", 2), ("math-mathjax3", 2), ("math-mathjax2", 2), ("math-wikipedia", 2),
])
def test_every_formula_is_one_mathml_element_and_its_visual_copy_is_gone(case: str, formulas: int) -> None:
    found = article(case)
    root = fragment(found.html)
    maths = list(root.iter("math"))
    assert len(maths) == formulas
    assert all(not any(a.tag == "math" for a in m.iterancestors()) for m in maths)
    for leftover in ("mjx-", "katex", "MathJax-", "MJX", "mwe-math", "data-ps-", "<img", "<script"):
        assert leftover not in found.html
    # Markdown: one formula each, as $...$ or a $$ block, no MathML text beside it
    md = found.markdown
    assert md.count("$") - 2 * md.count("$$") == 2 * sum(1 for m in maths if m.get("display") != "block")
    assert md.count("$$") == 2 * sum(1 for m in maths if m.get("display") == "block")


def test_tex_is_kept_as_an_annotation_and_written_to_markdown() -> None:
    found = article("math-katex")
    annotations = [a.text for a in fragment(found.html).iter("annotation")]
    assert annotations == ["a^2+b^2=c^2", "d = \\sqrt{(x_2-x_1)^2+(y_2-y_1)^2}"]
    assert "It says $a^2+b^2=c^2$ for the sides" in found.markdown
    assert "$$\nd = \\sqrt{(x_2-x_1)^2+(y_2-y_1)^2}\n$$" in found.markdown
    # MediaWiki's {\displaystyle ...} wrapper is taken off
    assert "$A=A^{\\mathsf {H}}$" in article("math-wikipedia").markdown
    # MathJax 2, typeset and not yet typeset
    assert "$P(1+r)^n$" in article("math-mathjax2").markdown and "$\\frac{P}{2}$" in article("math-mathjax2").markdown


def test_mathml_without_tex_becomes_tex_in_markdown() -> None:
    assert "Energy is $E=mc^2$ as everyone knows" in article("math-mathml").markdown
    assert "$$\nx=\\frac{b}{a}\n$$" in article("math-mathjax3").markdown


def test_judged_text_of_a_formula_page_is_what_it_was() -> None:
    """The blocks' text, on which extraction is scored, is the text pre-processing left before
    formulas were kept: the MathML is not in it, KaTeX's visual copy is."""
    assert "Energy is as everyone knows" in article("math-mathml").text
    assert "It says a2+b2=c2 for the sides" in article("math-katex").text


def test_sanitiser_keeps_mathml_layout_but_no_link_script_or_event() -> None:
    dirty = ('<p><math display="block" href="javascript:alert(1)" onclick="x()"><mi href="https://evil.example" '
             'mathvariant="bold">x</mi><maction actiontype="toggle"><mi>a</mi></maction><annotation-xml encoding="text/html">'
             '<script>alert(1)</script></annotation-xml><mo style="color:red">+</mo></math></p>')
    clean = sanitise(dirty)
    assert '<math display="block">' in clean and '<mi mathvariant="bold">x</mi>' in clean
    for bad in ("href", "onclick", "maction", "annotation-xml", "script", "style", "alert"):
        assert bad not in clean


def test_the_e_book_of_the_math_fixture_keeps_mathml_and_passes_epubcheck(tmp_path: Path) -> None:
    found = article("math-katex")
    with Library(tmp_path / "lib") as library:
        library.save(found)
        entry = library.list()[0]
    data = epub_bytes(entry)
    _book, opf, chapter = open_book(data)
    maths = chapter.findall(".//m:math", {"m": "http://www.w3.org/1998/Math/MathML"})
    assert len(maths) == 2
    items = {i.get("href"): (i.get("properties") or "") for i in opf.iterfind(".//opf:manifest/opf:item", NS)}
    assert "mathml" in items["article.xhtml"].split()
    path = tmp_path / "math.epub"
    path.write_bytes(data)
    epubcheck(path)


def test_players_of_known_hosts_become_figures_with_a_link_and_others_go() -> None:
    found = article("embed-video")
    figures = [f for f in fragment(found.html).iter("figure") if f.get("class") == "embed"]
    links = [(f.find("a").get("href"), f.find("a").text) for f in figures]
    assert links == [
        ("https://www.youtube.com/watch?v=dQw4w9WgXcQ", "Rotating mirror experiment, full run (YouTube)"),
        ("https://vimeo.com/76979871", "Vimeo video"),
    ]
    assert "ads.example.net" not in found.html and "<iframe" not in found.html
    assert "[Rotating mirror experiment, full run (YouTube)](https://www.youtube.com/watch?v=dQw4w9WgXcQ)" in found.markdown
    audio = [a.get("href") for a in fragment(article("embed-audio").html).iter("a")]
    assert audio == ["https://soundcloud.com/fieldnotes/dawn-chorus-2025", "https://open.spotify.com/episode/7makk4oTQel546B0PZlDM5"]
    media = [a.get("href") for a in fragment(article("media-elements").html).iter("a")]
    assert media == ["https://fieldnotes.example/media/harbour.webm", "https://cdn.fieldnotes.example/audio/quay.mp3"]


def test_code_keeps_its_language_and_loses_gutters_and_copy_buttons() -> None:
    found = article("code-language")
    classes = [c.get("class") for c in fragment(found.html).iter("code")]
    assert classes == ["language-javascript", "language-go", "language-bash"]
    assert [line for line in found.markdown.splitlines() if line.startswith("```") and len(line) > 3] == [
        "```javascript", "```go", "```bash"]
    gutter = article("code-gutter")
    blocks = ["".join(p.itertext()) for p in fragment(gutter.html).iter("pre")]
    assert blocks[0].startswith("from http.server import") and blocks[0].count("\n") == 3
    assert blocks[1] == "cd ~/Public\npython3 -m http.server 8000"
    assert "Copy" not in gutter.html and "```python" in gutter.markdown and "```shell" in gutter.markdown


def test_images_get_the_largest_reasonable_candidate() -> None:
    sources = [i.get("src") for i in fragment(article("image-srcset").html).iter("img")]
    assert sources == [
        "https://fieldnotes.example/img/cliffs-1200.jpg",  # 2400w and 6000w are over 2048 pixels
        "https://fieldnotes.example/img/bench-1600.webp",  # AVIF and the small-screen crop left out
        "https://fieldnotes.example/img/gull@2x.jpg",  # 4x is over 3x
    ]


def test_details_definition_lists_and_inline_semantics_survive() -> None:
    details = article("details-summary")
    assert details.html.count("<details") == 2 and "<summary>Can I bring a dog?</summary>" in details.html
    assert "<details open>\n<summary>Can I bring a dog?</summary>" in details.markdown
    terms = article("definition-list")
    assert "<dt>Slack water</dt><dd>" in terms.html and "Slack water\n:   The short time" in terms.markdown
    inline = article("inline-semantics")
    for piece in ("<kbd>Ctrl</kbd>+<kbd>Shift</kbd>", "x<sup>2</sup>", "H<sub>2</sub>O",
                  '<abbr title="International System of Units">SI</abbr>'):
        assert piece in inline.html and piece in inline.markdown


def test_table_spans_stay_in_html_and_are_flattened_in_markdown() -> None:
    found = article("table-spans")
    assert '<th rowspan="2">Day</th>' in found.html and '<td colspan="2">no second low water</td>' in found.html
    rows = [line for line in found.markdown.splitlines() if line.startswith("|")]
    assert len({line.count("|") for line in rows}) == 1  # every row has its five cells
    assert rows[0] == "| Day | High water | | Low water | |"
    assert rows[2] == "|  | Time | Height | Time | Height |"
    assert rows[5] == "|  | 19:20 | 4.5 m | no second low water | |"


def test_a_table_with_header_cells_stays_a_table_whatever_its_cells_hold() -> None:
    """A comparison whose cells hold paragraphs and lists is data (its row names are header
    cells); a ``role="presentation"`` table is layout, its cells paragraphs."""
    found = article("table-blocks")
    assert "<th>Pros</th><td><ul><li>Accurate to ten minutes</li>" in found.html
    assert "| Pros | - Accurate to ten minutes<br>- Easy to set | - Handsome<br>- Quiet | - Cheap |" in found.markdown
    assert "| Price | £89<br>Sold by the chandlery | £140 | £35 |" in found.markdown  # a cell on one row
    assert "<p>Our tests are paid for by readers, never by makers.</p><p>Prices are those" in found.html
    assert "\nOur tests are paid for by readers, never by makers.\n\nPrices are those" in found.markdown


def test_fidelity_report_counts_what_the_main_content_holds_and_the_article_keeps(tmp_path: Path) -> None:
    """The report on a dataset made of fixture pages whose truth is their article's HTML as text."""
    dataset = tmp_path / "fixtures"
    (dataset / "pages").mkdir(parents=True)
    (dataset / "truth").mkdir()
    cases = ["math-katex", "embed-video", "code-language", "table-spans", "image-srcset"]
    with open(dataset / "index.jsonl", "w", encoding="utf-8") as index:
        for case in cases:
            source = (FIXTURES / case / "source.html").read_bytes()
            (dataset / "pages" / f"{case}.html.gz").write_bytes(gzip.compress(source))
            # the truth is what the reader shows: the article's HTML as text, figure captions included
            # (Article.text leaves captions out; their pictures are main content all the same)
            shown = "\n".join(lxml_html.fromstring(article(case).html).itertext())
            (dataset / "truth" / f"{case}.txt").write_text(shown, encoding="utf-8")
            index.write(json.dumps({"id": case, "site": "fieldnotes.example", "url": f"https://fieldnotes.example/{case}",
                                    "lang": "en", "n_chars_truth": 1}) + "\n")
    table = fidelity.dataset_fidelity(fidelity.load_dataset(dataset))
    assert table["math"] == {"pages": 1, "held": 2, "kept": 2}
    assert table["embed"] == {"pages": 1, "held": 2, "kept": 2}  # the advertisement frame is no player
    assert table["code"] == {"pages": 1, "held": 3, "kept": 3}
    assert table["code-language"] == {"pages": 1, "held": 3, "kept": 3}
    assert table["table"] == {"pages": 1, "held": 1, "kept": 1}
    assert table["image"] == {"pages": 1, "held": 3, "kept": 3}
    text = fidelity.format_table({"fixtures": table})
    assert re.search(r"^math\s+1\s+2\s+2\s+100\.0", text, re.MULTILINE)


def _judged_and_shown(html: str) -> tuple[str, str]:
    """``(text of the pre-processed tree, article HTML of the whole tree)`` of a page."""
    from pagesieve.article.render import finish_html
    from pagesieve.page.html import parse_html
    from pagesieve.page.preprocess import preprocess

    page = preprocess(parse_html(html))
    body = page.root.find("body")
    return " ".join(" ".join(body.itertext()).split()), finish_html(body, None)


def test_formulas_kept_aside_come_back_in_order_and_in_place() -> None:
    # two formulas with nothing between them, and one alone in a paragraph that pre-processing
    # deletes as empty: the tree judged has none of them, the article has all three in place
    text, html = _judged_and_shown(
        "<html><body><div><p>Take <math><mi>x</mi></math><math><mi>y</mi></math> and add.</p>"
        "<p><math display='block'><mi>z</mi></math></p><p>Then stop.</p></div></body></html>"
    )
    assert text == "Take and add. Then stop."
    assert [m.find("mi").text for m in fragment(html).iter("math")] == ["x", "y", "z"]
    assert html.index(">x<") < html.index(" and add.") < html.index(">z<") < html.index("Then stop.")


def test_a_player_in_a_hidden_element_goes_with_it() -> None:
    text, html = _judged_and_shown(
        "<html><body><p>Before.</p><div style='display:none'><iframe src='https://www.youtube.com/embed/abcdefghijk'>"
        "</iframe></div><p>After <iframe src='https://player.vimeo.com/video/123'></iframe> the end.</p></body></html>"
    )
    assert text == "Before. After the end."
    assert [a.get("href") for a in fragment(html).iter("a")] == ["https://vimeo.com/123"]
