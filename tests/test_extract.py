"""End-to-end extraction on the example page and on real pages: the article a reader gets."""

from __future__ import annotations

import gzip
import json

import pytest
from lxml import etree

from pagesieve.blocks.segment import segment
from pagesieve.extract import analyse, extract
from pagesieve.blocks.features import block_features
from pagesieve.page.html import FALLBACK_TAGS, parse_html
from pagesieve.page.preprocess import preprocess
from pagesieve.page.snapshot import parse_snapshot
from pagesieve.page.to_snapshot import page_to_snapshot

URL = "https://hillkitchen.example/posts/sourdough-altitude/"


@pytest.fixture(scope="module")
def article(example_page):
    return extract(example_page.read_bytes(), url=URL)


def test_example_metadata(article):
    meta = article.metadata
    assert meta.title == "Sourdough at Altitude: What Changes Above 2,000 Metres"
    assert meta.byline == "Marta Quispe"
    assert meta.published == "2026-03-14T08:30:00Z"
    assert meta.site_name == "The Hill Kitchen"
    assert meta.lead_image == "https://hillkitchen.example/images/loaf-cross-section.jpg"
    assert meta.language == "en"


def test_example_text_keeps_the_article_and_drops_the_noise(article):
    text = article.text
    for wanted in (
        "the first loaves came out of the oven flat",  # the lede
        "Water boils at about 92 °C",
        "Cut the bulk fermentation time by a quarter",  # list item
        "it had to be listened to",  # last paragraph
    ):
        assert wanted in text, wanted
    # the figure's caption stays with its image in the HTML, and out of the text between paragraphs
    assert "Left: the sea-level recipe at altitude." not in text
    assert "<figcaption>Left: the sea-level recipe at altitude." in article.html
    for unwanted in ("Newsletter", "You might also like", "Tried this at 1,800 m", "© 2026", "Advertisement", "Search recipes"):
        assert unwanted not in text, unwanted


def test_example_html_structure(article):
    html = article.html
    assert "<table>" in html and "<td>370 g</td>" in html
    assert "<h2>The four adjustments</h2>" in html
    assert "<ol>" in html and "<li>Raise hydration" in html
    # pre keeps its line breaks and indentation
    assert "def proof_minutes(base_minutes, altitude_m):\n    # about 8 % faster" in html
    # the lazy image gets its real source, resolved against the page URL
    assert 'src="https://hillkitchen.example/images/two-loaves.svg"' in html
    assert "<figcaption>" in html
    # sanitised: no scripts, no forms, no class attributes, no node ids
    for banned in ("<script", "<form", "<input", "class=", "data-ps-id", "onclick"):
        assert banned not in html


def test_the_byline_line_is_shown_once_in_the_reader_header_not_in_the_body(article):
    # the reader view and saved articles show metadata.byline in their header; the body's
    # "By Marta Quispe · 14 March 2026" would repeat it (Firefox Reader View drops it too)
    assert "Marta Quispe" not in article.html and "Marta Quispe" not in article.markdown
    # the text is the body (issue 52): the header keeps the line, as the page shows it
    assert "Marta Quispe" not in article.text
    assert article.header == ["Sourdough at Altitude: What Changes Above 2,000 Metres", "By Marta Quispe · 14 March 2026"]
    assert article.text.startswith("When we moved our kitchen from the coast")


def _article_html(top):
    paragraph = "<p>" + "The report goes on with details the reader came for, sentence after sentence. " * 5 + "</p>"
    return extract(f"""<html><head><title>Storm closes the harbour</title><meta name="author" content="Ana Ruiz">
    </head><body><article><h1>Storm closes the harbour</h1>{top}{paragraph}{paragraph}</article></body></html>""").html


def test_a_first_heading_that_repeats_the_title_leaves_the_body_for_the_header():
    paragraph = "<p>" + "The report goes on with details the reader came for, sentence after sentence. " * 5 + "</p>"

    def article(top, rest=""):
        return extract(f"""<html><head><title>Storm closes the harbour | The Coast Times</title></head><body>
        <article>{top}{paragraph}{rest}{paragraph}</article></body></html>""")

    shown = article("<h4>Storm closes the harbour</h4>")  # any heading level (medium-1 has an <h4>)
    assert "<h4>" not in shown.html and "Storm" not in shown.text
    assert shown.header == ["Storm closes the harbour"] and shown.text.startswith("The report goes on")
    assert "Storm" not in article("<h2>Storm <em>closes</em> the harbour</h2>").html
    assert "<h2>Storm hits the coast</h2>" in article("<h2>Storm hits the coast</h2>").html  # another heading
    # the title again further down is the article's own business
    assert "<h3>Storm closes the harbour</h3>" in article("<p>Lead paragraph of the report, before any heading.</p>",
                                                          "<h3>Storm closes the harbour</h3>").html


def test_an_h1_headline_worded_unlike_the_title_is_the_headers():
    paragraph = "<p>" + "The report goes on with details the reader came for, sentence after sentence. " * 5 + "</p>"

    def article(top):
        return extract(f"""<html><head><title>Harbour shut as the storm nears | The Coast Times</title></head><body>
        <article>{top}{paragraph}{paragraph}</article></body></html>""")

    # the page's <h1> above the story, worded unlike the <title> written for search engines
    shown = article("<p><a href='/coast/'>Coast news</a></p><h1>Storm closes the harbour</h1>")
    assert shown.header[0] == "Storm closes the harbour"
    assert "Storm closes" not in shown.text and "<h1>" not in shown.html
    assert shown.metadata.title.startswith("Harbour shut as the storm nears")
    # an <h2> that is not the title is a section of the article; so is an <h1> after the story began
    assert "<h2>Storm hits the coast</h2>" in article("<h2>Storm hits the coast</h2>").html
    late = article(paragraph + "<h1>What the storm left</h1>")
    assert "What the storm left" in late.text and late.header[0].startswith("Harbour shut")
    # a paragraph marked up as <h1> is not a headline for the header
    long_h1 = "It is sometimes easy to forget the people who keep the harbour open in every storm, " * 2
    assert long_h1.strip() in article(f"<h1>{long_h1}</h1>").text


def test_a_real_page_whose_h1_is_not_its_title_shows_one_headline(datasets_dir):
    """wcxb_dev/0018: ``og:title`` "Need a Change? 7 Vital Tips to Hit the Road in a Rental Car",
    ``<h1>`` "Need a Change? 7 Vital Tips on How to Rent a Car"; the reader's header showed the
    first and the body opened with the second. :func:`pagesieve.article.header.headline_h1_block`."""
    article, f1 = extracted_f1(datasets_dir, "wcxb_dev", "0018")
    assert article.header[0] == "Need a Change? 7 Vital Tips on How to Rent a Car"
    assert not article.text.startswith("Need a Change")
    assert article.text.startswith("If you suddenly get the urge for a new vehicle")
    assert f1 > 0.95


def test_the_headline_under_a_kicker_or_with_the_sites_name_is_the_headers():
    paragraph = "<p>" + "The report goes on with details the reader came for, sentence after sentence. " * 5 + "</p>"

    def article(title, top):
        return extract(f"""<html><head><title>{title}</title></head><body><article>{top}{paragraph}{paragraph}
        </article></body></html>""")

    # a section name above the headline; a <title> with the site's name and the date
    shown = article("Storm closes the harbour - Coast News - Nov 6, 2012",
                    "<p><a href='/coast/'>Coast news</a></p><h1>Storm closes the harbour</h1>")
    assert "Storm closes" not in shown.text and "Storm closes" not in shown.html
    assert shown.header[0] == "Storm closes the harbour"
    # the same headline written another way
    assert "Monokini" not in article("Monokini Madness Hits H'wood", "<h1>Monokini Madness Hits Hollywood</h1>").text
    # a heading that only shares a word or two with the title stays
    assert "Harbour works" in article("Storm closes the harbour", "<h2>Harbour works</h2>").text


def test_a_shortened_copy_of_the_headline_near_it_leaves_the_body():
    """A second, shortened copy of the headline near it (a link to the page itself, a
    breadcrumb's last step) is not shown under the header (article/header.title_copy_blocks)."""
    paragraph = "<p>" + "The report goes on with details the reader came for, sentence after sentence. " * 5 + "</p>"

    def article(copy):
        return extract(f"""<html><head><title>Storm closes the old harbour at Westport</title></head><body>
        <article><h1>Storm closes the old harbour at Westport</h1>{copy}{paragraph}{paragraph}</article></body></html>""")

    for copy in ("<p><a href='/storm'>Storm closes harbour at Westport</a></p>", "<p>Storm closes the old harbour</p>"):
        shown = article(copy)
        assert "Storm closes" not in shown.text and "Storm closes" not in shown.html, copy
        assert shown.header == ["Storm closes the old harbour at Westport"], copy
    # a line that adds a word of its own, or holds under 60 % of the headline, stays
    assert "Storm closes the old harbour at dawn" in article("<p>Storm closes the old harbour at dawn</p>").text
    assert "Storm closes harbour" in article("<p>Storm closes harbour</p>").text


def test_a_copy_of_the_whole_headline_after_a_section_name_leaves_the_body(datasets_dir):
    """The whole headline again, after a section name or a kicker ("Economy|As Debt Rises, ..."
    under the header of readability's nytimes-4), leaves the body; a line that adds more than
    :data:`~pagesieve.article.header.TITLE_COPY_EXTRA_CHARS` of its own is the story's."""
    from pagesieve.article.header import TITLE_COPY_EXTRA_CHARS

    paragraph = "<p>" + "The report goes on with details the reader came for, sentence after sentence. " * 5 + "</p>"

    def article(copy):
        return extract(f"""<html><head><title>Storm closes the old harbour at Westport</title></head><body>
        <article><h1>Storm closes the old harbour at Westport</h1>{copy}{paragraph}{paragraph}</article></body></html>""")

    shown = article("<p><a href='/coast/'>Coast</a>|Storm closes the old harbour at Westport</p>")
    assert "Storm closes" not in shown.text and shown.header == ["Storm closes the old harbour at Westport"]
    long_line = "Storm closes the old harbour at Westport, and the fishing fleet waits out the gales in the bay"
    assert len(long_line) - len("Storm closes the old harbour at Westport") > TITLE_COPY_EXTRA_CHARS
    assert long_line in article(f"<p>{long_line}</p>").text
    real, f1 = extracted_f1(datasets_dir, "readability", "nytimes-4")
    assert real.header[0].startswith("As Debt Rises, the Government Will Soon Spend More on Interest")
    assert "As Debt Rises" not in real.text and real.text.startswith("Tax cuts, spending increases")


def test_the_headline_under_a_breadcrumb_ending_in_it_or_in_a_div_is_the_headers():
    """A breadcrumb trail that ends in the headline is short however long the headline (it says
    two words besides it: dragnet's freshome.com); a ``<div>`` that names the title without the
    site's name (daniel's rizospastis.gr, "ΡΙΖΟΣΠΑΣΤΗΣ : ...") is the headline too. Either way the
    header shows the page's headline and the body does not repeat it."""
    paragraph = "<p>" + "The report goes on with details the reader came for, sentence after sentence. " * 5 + "</p>"
    headline = "Storm closes the old harbour at Westport as the winter gales return to the northern coast again"
    crumbs = f"<div class='crumbs'><a href='/'>Home</a> <a href='/news/'>News</a> {headline}</div>"
    shown = extract(f"""<html><head><title>{headline}</title></head><body>
    <article>{crumbs}<h1>{headline}</h1>{paragraph}{paragraph}</article></body></html>""")
    assert shown.header == [headline]
    assert shown.text.count("winter gales") <= 1 and "<h1>" not in shown.html
    shown = extract(f"""<html><head><title>The Coast Times : Storm closes the old harbour</title></head><body>
    <article><div class='headline'>Storm closes the old harbour</div>{paragraph}{paragraph}</article></body></html>""")
    assert shown.header == ["Storm closes the old harbour"]
    assert "Storm closes" not in shown.text and "Storm closes" not in shown.html


def test_the_headline_inside_a_header_block_with_a_long_standfirst_is_the_headers():
    """A ``<header>`` whose own text (a section name, a standfirst) stands around its ``<h1>``:
    the block's text, read as one run, comes before the headline in document order, and was
    taken for the story's start (wcxb_dev/0153 read live showed its title twice)."""
    from pagesieve.article.header import split_header
    from pagesieve.blocks.segment import segment

    paragraph = "<p>" + "The report goes on with details the reader came for, sentence after sentence. " * 5 + "</p>"
    standfirst = ("The global bakery-cafe chain's North America division is positioning for ambitious growth "
                  "beyond the U.S. and Canada. By Lisa Jennings on Dec. 19, 2025")
    html = f"""<html><head><title>Paris Baguette wants to be America's neighborhood bakery</title></head><body>
    <article><header><a href="/operations">Operations</a><h1>Paris Baguette wants to be America's neighborhood bakery</h1>
    {standfirst}</header>{paragraph}{paragraph}</article></body></html>"""
    blocks = segment(parse_html(html).root)
    keep = [b.chars > 0 for b in blocks]
    body, header, rules = split_header(blocks, keep, "Paris Baguette wants to be America's neighborhood bakery", None, None)
    h1 = next(b.index for b in blocks if b.tag == "h1")
    assert rules.get(h1) == "title-in-header" and not body[h1]
    assert header == ["Paris Baguette wants to be America's neighborhood bakery"]
    # a long block that does not hold the headline still ends the search: the story has begun
    html = html.replace("<header>", f"<div><p>{standfirst} {standfirst}</p></div><header>")
    blocks = segment(parse_html(html).root)
    keep = [b.chars > 0 for b in blocks]
    assert split_header(blocks, keep, "Paris Baguette wants to be America's neighborhood bakery", None, None)[2] == {}


def test_the_lines_above_the_headline_leave_the_body_and_are_no_header_lines(datasets_dir):
    """A breadcrumb trail, a section name, a "3 MIN. READ" above the headline stood over the
    body's first paragraph (article/header.above_title_blocks); the body begins under the
    headline. Lines above it that are long, or many, are the page's own and stay."""
    paragraph = "<p>" + "The report goes on with details the reader came for, sentence after sentence. " * 5 + "</p>"

    def article(top):
        return extract(f"""<html><head><title>Storm closes the harbour</title></head><body><article>{top}
        <h1>Storm closes the harbour</h1>{paragraph}{paragraph}</article></body></html>""")

    shown = article("<p><a href='/'>Home</a></p><p><a href='/news/'>News</a></p><p>3 MIN. READ</p>")
    assert shown.header == ["Storm closes the harbour"]
    assert shown.text.startswith("The report goes on") and "MIN. READ" not in shown.html and ">Home<" not in shown.html
    # a line above the headline that gives a date is the page's dateline: a header line
    dated = article("<p>Coast news November 5, 2012, 12:01 am</p>")
    assert dated.header == ["Storm closes the harbour", "Coast news November 5, 2012, 12:01 am"]
    assert dated.text.startswith("The report goes on")
    many = "".join(f"<p>Tide table for the {day} of the month, high and low water, from the harbour office.</p>"
                   for day in ("first", "second", "third", "fourth"))
    assert "Tide table for the fourth" in article(many).text
    # a real page: forbes.com (big9 2013_soros_1) put the author's motto and the date over the story
    real, f1 = extracted_f1(datasets_dir, "big9", "2013_soros_1")
    assert "If you can put the word market after it" not in real.text and f1 > 0.9


def test_the_reader_of_a_real_page_shows_the_headline_once(datasets_dir):
    """big9's 2005_angelina_1 (Fox News): under the header, the body opened with a link that
    repeats most of the headline (tests/e2e: chromium-reader-real-byline.png)."""
    article, f1 = extracted_f1(datasets_dir, "big9", "2005_angelina_1")
    assert article.header[0] == "Angelina Jolie Film About Slain Reporter Daniel Pearl Filmmaking of Highest Order"
    assert "Jolie Film About Daniel Pearl" not in article.text and "Jolie Film About Daniel Pearl" not in article.html
    assert "A Mighty Heart" in article.text and f1 > 0.9


def test_the_reader_of_a_real_page_does_not_repeat_its_title(datasets_dir):
    """readability/medium-1 opens with an ``<h4>`` of the title, shown under the reader's own."""
    article, f1 = extracted_f1(datasets_dir, "readability", "medium-1")
    assert not article.html.startswith("<div><h4>The Open Journalism Project")
    assert "The Open Journalism Project: Better Student Journalism" not in article.text  # the header's, not the body's
    assert article.header[0] == "The Open Journalism Project: Better Student Journalism"
    assert f1 > 0.9


def test_links_to_places_in_the_article_point_there():
    paragraph = "The report goes on with details the reader came for, sentence after sentence. " * 4
    article = extract(f"""<html><head><title>Storm closes the harbour</title></head><body><article>
    <h1>Storm closes the harbour</h1>
    <p id="lead">{paragraph}<sup id="ref-1"><a href="#note-1">[1]</a></sup> and <a href="#gone">a lost anchor</a>.</p>
    <p>{paragraph}<a href="https://news.example/storm#note-2">[2]</a>, <a href="https://other.example/#note-1">elsewhere</a></p>
    <h2>Notes</h2><ol><li id="note-1"><a href="#ref-1">^</a> The harbour master's log, {paragraph}</li>
    <li><span id="note-2">The coast guard's report, {paragraph}</span></li></ol></article></body></html>""",
                      url="https://news.example/storm")
    html = article.html
    assert '<a href="#note-1"' in html and '<li id="note-1">' in html  # a footnote and its target
    assert '<a href="#ref-1"' in html and '<sup id="ref-1">' in html  # and the way back
    assert '<a href="#note-2"' in html and '<li id="note-2">' in html  # the <span> goes: its <li> takes the id
    assert 'href="https://news.example/storm#gone"' in html  # no such place in the article
    assert 'href="https://other.example/#note-1"' in html  # another page
    assert 'id="lead"' not in html  # ids nothing links to are not kept


def test_footnotes_of_a_real_page_point_within_the_article(datasets_dir):
    """readability/wikipedia-2: its 870 footnote links pointed at the page's own URL, so in the
    reader view they scrolled the page hidden under it."""
    import re

    article, f1 = extracted_f1(datasets_dir, "readability", "wikipedia-2")
    links = re.findall(r'href="#([^"]+)"', article.html)
    ids = set(re.findall(r' id="([^"]+)"', article.html))
    assert len(links) > 800 and all(link in ids for link in links)
    assert f1 > 0.9


def test_only_a_short_byline_line_leaves_the_body():
    assert "Ana Ruiz" not in _article_html('<div class="article-byline">By Ana Ruiz, staff writer</div>')
    assert "Ana Ruiz" not in _article_html('<p>By <a rel="author" href="/ana">Ana Ruiz</a></p>')
    # unmarked, a line that says only the byline: "By" and the name, or the name alone
    assert "Ana Ruiz" not in _article_html("<p>By Ana Ruiz, staff writer</p>")
    assert "Ana Ruiz" not in _article_html("<p>Ana Ruiz</p>")
    # unmarked and more than the byline: it stays
    assert "Ana Ruiz, staff writer, walked" in _article_html("<p>Ana Ruiz, staff writer, walked the pier at dawn.</p>")
    long_line = "<p class='byline'>Ana Ruiz watched the harbour master close the gates as the first waves broke over the pier.</p>"
    assert "Ana Ruiz watched" in _article_html(long_line)


def test_a_bylines_by_alone_on_its_line_leaves_the_body(datasets_dir):
    """A "By" or "Written By" on a line of its own among the first lines is no line of the
    body nor of the header (pagesieve.article.header.lone_byline_words)."""
    html = _article_html("<p>Written By</p><p>The harbour team</p>")
    assert "Written By" not in html and "The harbour team" in html
    assert ">By<" not in _article_html("<p>By</p>")
    # the same words in a sentence stay
    assert "By dawn the pier was closed" in _article_html("<p>By dawn the pier was closed to walkers and boats.</p>")
    # wcxb_dev/0161 (NPR): "By" stood alone between the summary and the story
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    ds = load_dataset(datasets_dir / "wcxb_dev")
    article = extract(read_page(ds, "0161"), ds.record("0161").url)
    assert "By" not in [line.strip() for line in article.text.split("\n")]
    assert "\nBy\n" not in article.markdown and "<p>By</p>" not in article.html


def _dated_article_html(top, published="2013-10-31T23:17:49+00:00"):
    paragraph = "<p>" + "The report goes on with details the reader came for, sentence after sentence. " * 5 + "</p>"
    return extract(f"""<html><head><title>Storm closes the harbour</title>
    <meta property="article:published_time" content="{published}"></head><body><article>
    <h1>Storm closes the harbour</h1>{top}{paragraph}{paragraph}</article></body></html>""")


def test_a_byline_line_with_the_publication_date_leaves_the_body_unmarked():
    """A SlashGear review's line under its header, "Chris Davies - Nov 19, 2019, 8:15 pm CST",
    repeated the reader's header (issue 52): the name and the date, nothing else."""
    def shown(line):
        return extract(f"""<html><head><title>Storm closes the harbour</title><meta name="author" content="Ana Ruiz">
        <meta property="article:published_time" content="2013-10-31T23:17:49+00:00"></head><body><article>
        <h1>Storm closes the harbour</h1><p>{line}</p>""" + "<p>The report goes on with details the reader came for.</p>" * 6
                       + "</article></body></html>")
    article = shown("Ana Ruiz - Oct 31, 2013, 7:17 pm EDT")
    assert "Ana Ruiz" not in article.text and "Ana Ruiz" not in article.html
    assert article.header == ["Storm closes the harbour", "Ana Ruiz - Oct 31, 2013, 7:17 pm EDT"]
    # another day, or a place beside the name: the line stays in the body
    assert "Ana Ruiz - Oct 20, 2013" in shown("Ana Ruiz - Oct 20, 2013").text
    assert "Ana Ruiz in Harbour Town" in shown("Ana Ruiz in Harbour Town, Oct 31, 2013").text


def test_a_dateline_of_the_publication_date_leaves_the_body_for_the_header():
    # the reader's header shows metadata.published; the body's dateline would repeat it
    for line in ("October 31, 2013 | 7:17pm", "Last Updated: 3:56 PM, October 31, 2013", "Thursday, October 31, 2013",
                 "Published: November 1, 2013 at 1:17 AM ET", "2013-10-31 19:17"):  # a day either side: time zones
        shown = _dated_article_html(f"<p>{line}</p>")
        assert shown.metadata.published == "2013-10-31T23:17:49+00:00"
        assert line not in shown.html, line
        assert line not in shown.text and shown.header == ["Storm closes the harbour", line], line
    # another date, a line that says more than the date, or no date in the metadata: it stays
    assert "October 20, 2013" in _dated_article_html("<p>October 20, 2013 | 7:17pm</p>").html
    assert "Harbour Road, October 31, 2013" in _dated_article_html("<p>Harbour Road, October 31, 2013</p>").html
    undated = extract("""<html><head><title>Storm closes the harbour</title></head><body><article><h1>Storm closes
    the harbour</h1><p>October 31, 2013</p><p>""" + "The report goes on with details the reader came for. " * 8 + "</p></article></body></html>")
    assert undated.metadata.published is None and "October 31, 2013" in undated.html


def test_the_reader_of_a_real_page_shows_its_dateline_once(datasets_dir):
    """big9/2013_boy (the New York Post): the dateline under the headline, "October 31, 2013 |
    7:17pm", is the published date the reader's header shows (2013-10-31T23:17:49+00:00)."""
    article, f1 = extracted_f1(datasets_dir, "big9", "2013_boy")
    assert article.metadata.published.startswith("2013-10-31")
    assert "October 31, 2013" not in article.text and "October 31, 2013" not in article.html
    assert "October 31, 2013 | 7:17pm" in article.header
    assert f1 > 0.9


def test_permalink_anchors_and_edit_links_leave_the_article_html():
    paragraph = "<p>" + "A section of the guide that explains one thing at a time, with examples. " * 4 + "</p>"
    html = f"""<html><head><title>Fields</title></head><body><article><h1>Fields</h1>{paragraph}
    <h2 id="annotated">The annotated pattern<a class="headerlink" href="#annotated" title="Permanent link">\u00b6</a></h2>
    {paragraph}<h2>History<span class="mw-editsection"><span class="mw-editsection-bracket">[</span><a
    href="/w/index.php?title=Fields&amp;action=edit&amp;section=1">edit</a><span class="mw-editsection-bracket">]</span></span></h2>
    {paragraph}<p>As <a href="#annotated">the annotated pattern</a> above shows, one field may carry several
    constraints at once, and each of them is checked when the model is built from its data.</p>{paragraph}</article></body></html>"""
    article = extract(html, "https://docs.example/fields")
    assert '<h2 id="annotated">The annotated pattern</h2>' in article.html and "<h2>History</h2>" in article.html
    assert "\u00b6" not in article.html and "action=edit" not in article.html
    assert 'href="#annotated"' in article.html  # a link with words stays, pointing within the article


def test_reading_time_is_a_range_by_the_language_s_reading_speed():
    from pagesieve.article.model import Article, Metadata

    english = Article(Metadata(language="en-GB"), text="x" * 9870)
    assert english.reading_minutes == (9, 12)  # 9,870 characters at 987 +- 118 a minute
    assert english.to_dict()["reading_minutes"] == [9, 12]
    assert Article(Metadata(language="zh-CN"), text="字" * 2550).reading_minutes == (9, 12)  # 255 +- 29
    assert Article(Metadata(language="xx"), text="x" * 9870).reading_minutes == (9, 12)  # English speeds
    assert Article(Metadata(), text="").reading_minutes == (0, 0)


def test_example_markdown(article):
    md = article.markdown
    assert "## The four adjustments" in md
    assert "1. Cut the bulk fermentation time" in md
    assert "```" in md or "    def proof_minutes" in md
    assert "| Water | 350 g | 370 g |" in md


def test_node_ids_name_content_and_noise(article, example_page):
    page = parse_html(example_page.read_bytes(), url=URL)
    elements = page.element_by_id()
    assert article.content_ids and article.noise_ids
    assert not set(article.content_ids) & set(article.noise_ids)
    noise_text = " ".join("".join(elements[i].itertext()) for i in article.noise_ids)
    assert "Tried this at 1,800 m" in noise_text or "3 comments" in noise_text
    # hiding never hides content: no hidden block holds a content block
    for i in article.noise_ids:
        inside = {int(e.get("data-ps-id")) for e in elements[i].iter() if e.get("data-ps-id")}
        assert not inside & set(article.content_ids)


def test_html_and_snapshot_give_the_same_blocks(datasets_dir):
    """The two routes into the page model (issue: one type, two sources) segment alike."""
    folder = datasets_dir / "dragnet"
    if not folder.is_dir():
        pytest.skip(f"dragnet dataset not found under {datasets_dir}")
    ids = [json.loads(line)["id"] for line in (folder / "index.jsonl").read_text().splitlines()][:15]
    for page_id in ids:
        html = gzip.decompress((folder / "pages" / f"{page_id}.html.gz").read_bytes()).decode("utf-8")
        # <noscript> (and <noembed>, <noframes>) are the elements the routes treat apart on
        # purpose: a browser with scripts on never renders them, the HTML route shows long ones.
        # Drop them from the source.
        source = parse_html(html)
        etree.strip_elements(source.root, *FALLBACK_TAGS, with_tail=False)
        html = etree.tostring(source.root, encoding="unicode")
        from_html = preprocess(parse_html(html))
        from_snapshot = preprocess(parse_snapshot(page_to_snapshot(parse_html(html))))
        a = segment(from_html.root, positions=from_html.positions())
        b = segment(from_snapshot.root)
        assert [(x.tag, x.node_id, x.text) for x in a] == [(y.tag, y.node_id, y.text) for y in b], page_id
        ia, xa = block_features(a, from_html.title)
        ib, xb = block_features(b, from_snapshot.title)
        assert ia == ib and (xa == xb).all()


def test_a_page_hidden_in_its_markup_reads_alike_through_its_snapshot(datasets_dir):
    """``page_to_snapshot`` marks hidden what the HTML route removes as hidden, no more: the
    tests and benchmarks that feed the host HTML pages as snapshots read the article the HTML
    route reads. wcxb_dev/4020 (GeeksforGeeks) keeps its article in a ``display:none`` wrapper
    of nearly the whole page, which the HTML route reads (``wraps_page``); through the snapshot
    its article was empty. wcxb_dev/0254 hides nothing that matters and reads alike either way."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    from pagesieve.extract import extract_page

    wcxb = load_dataset(datasets_dir / "wcxb_dev")
    for page_id in ("4020", "0254"):
        source, url = read_page(wcxb, page_id), wcxb.record(page_id).url
        html = extract_page(parse_html(source, url=url))
        snapshot = extract_page(parse_snapshot(page_to_snapshot(parse_html(source, url=url))))
        assert len(html.text) > 1000 and snapshot.text == html.text, page_id


def test_page_without_text_gets_an_empty_article():
    article = extract("<html><body><div><img src='a.png'></div></body></html>")
    assert article.text == ""


def test_analyse_has_a_row_per_candidate(example_page):
    analysis = analyse(parse_html(example_page.read_bytes()))
    assert analysis.features.shape[0] == len(analysis.candidates) > 10


def test_snapshot_page_gets_the_same_article(example_page):
    """A browser snapshot of the example page gives the article of its HTML, naming the same nodes."""
    from pagesieve.extract import extract_page

    html_article = extract(example_page.read_bytes(), url=URL)
    snapshot = page_to_snapshot(parse_html(example_page.read_bytes(), url=URL))
    snap_article = extract_page(parse_snapshot(snapshot))
    assert snap_article.text == html_article.text
    assert snap_article.content_ids == html_article.content_ids
    assert snap_article.noise_ids == html_article.noise_ids


def extracted_f1(datasets_dir, dataset, page_id):
    """``(article, token F1 against the truth)`` of a dataset page extracted from its HTML."""
    from collections import Counter

    from pagesieve_dev.evaluation.datasets import load_dataset, read_page, read_truth
    from pagesieve_dev.evaluation.metric import prf_counts
    from pagesieve.tokens import tokens

    ds = load_dataset(datasets_dir / dataset)
    article = extract(read_page(ds, page_id), ds.record(page_id).url)
    return article, prf_counts(Counter(tokens(article.text)), Counter(tokens(read_truth(ds, page_id))))[2]


def test_content_after_an_embedded_end_of_document_is_kept(datasets_dir):
    """``</body></html>`` of an inline-embedded document do not end the page (HTML5 "after body"
    insertion mode); libxml2 alone dropped everything after them."""
    html = ("<html><body><p>Header text.</p><div><html><body><p>An ad frame.</p></body></html></div>"
            "<p>The article goes on after the embedded document, as a browser shows it.</p></body></html>")
    page = parse_html(html)
    assert "The article goes on" in "".join(page.body.itertext())
    _article, f1 = extracted_f1(datasets_dir, "big9", "2005_amd_2")  # an archived forbes.com page with two embedded documents
    assert f1 > 0.9


def test_an_article_swallowed_by_an_unclosed_menu_button_is_extracted(datasets_dir):
    """wcxb_dev/4708 (treehugger.com): ``<button><div><div></button>`` puts the whole page in
    the button for libxml2 (the pre-processing test in test_page.py has the markup); the article
    was deleted with it, leaving "Skip to content" (F1 0.00; trafilatura 0.92)."""
    _article, f1 = extracted_f1(datasets_dir, "wcxb_dev", "4708")
    assert f1 > 0.9


def test_a_page_whose_html_tag_is_self_closed_is_extracted(datasets_dir):
    """l3s_gn1 ce6830ee: a capture whose ``<html`` tag runs into an image's attributes and ends
    in ``/>``; libxml2 read an empty document (F1 0.00, as trafilatura), a browser the whole page."""
    _article, f1 = extracted_f1(datasets_dir, "l3s_gn1", "ce6830ee-9292-4855-be7b-c5fe64d347b2")
    assert f1 > 0.9


def test_a_page_whose_title_is_never_closed_is_extracted(datasets_dir):
    """l3s_gn1 cb5cb16c: a capture whose title ends in ``</titlevalue="true" -->``; libxml2 read
    the rest of the page as the title (F1 0.00, as trafilatura)."""
    article, f1 = extracted_f1(datasets_dir, "l3s_gn1", "cb5cb16c-9a2e-4a00-9480-43cb90faac9d")
    assert article.metadata.title == "Bush to Saudis: More Oil Please"
    assert f1 > 0.9


def test_a_story_the_page_holds_three_times_is_extracted_once(datasets_dir):
    """dragnet/212 (online.wsj.com): the story is in the page three times, twice in elements of
    class ``hidden`` (another layout's copy, and a video tab's excerpt); read as HTML, the
    article repeated it (F1 0.665)."""
    article, f1 = extracted_f1(datasets_dir, "dragnet", "212")
    first = "Home prices in the second quarter rose from the year-ago period for the first time since 2007"
    assert article.text.count(first) == 1
    assert f1 > 0.9


def test_a_product_page_whose_main_region_a_script_reveals_is_extracted(datasets_dir):
    """wcxb_dev/0583 (deathwishcoffee.com): everything in ``<main>`` sits in
    ``<div class="easylockdown-content" style="display:none;">``, which the shop's script shows;
    read as HTML, it was deleted as hidden (F1 0.03; trafilatura 0.71)."""
    article, f1 = extracted_f1(datasets_dir, "wcxb_dev", "0583")
    assert "Meet the yin to your yang" in article.text
    assert f1 > 0.6


def test_a_page_its_markup_hides_is_extracted_as_a_browser_shows_it(datasets_dir):
    """wcxb_dev/4020 (geeksforgeeks.org) sits in one ``visibility:hidden`` wrapper, wcxb_dev/0631
    (iherb.com) in parts each ``display:none``: a script shows them once loaded. Read as HTML,
    both came out (nearly) empty: word F1 0.00 and 0.03 (trafilatura 0.93 and 0.78).
    :func:`pagesieve.page.visibility.wraps_page`, :func:`~pagesieve.page.visibility.hides_page`."""
    article, f1 = extracted_f1(datasets_dir, "wcxb_dev", "4020")
    assert "Supervised Learning: Trains models on labeled data" in article.text
    assert f1 > 0.9
    _article, f1 = extracted_f1(datasets_dir, "wcxb_dev", "0631")
    assert f1 > 0.4


def test_a_block_that_holds_half_the_page_is_kept_when_its_neighbours_are_short(datasets_dir):
    """wcxb_dev/4367 (emit.digital) lists 19 events as bare text and ``<br>`` in one element of
    1,200 words between short headings; the context stage scored it 0.38 at the article cut 0.4,
    and the reader showed the headings alone (F1 0.18, trafilatura 0.95). A half-page link list
    still goes: readability's ``archive-of-our-own`` ends with a kudos list of user names.
    :func:`pagesieve.classify.dominant.dominant_blocks`."""
    article, f1 = extracted_f1(datasets_dir, "wcxb_dev", "4367")
    assert "NVIDIA GTC (GPU Technology Conference) brings together developers" in article.text
    assert f1 > 0.9
    article, f1 = extracted_f1(datasets_dir, "readability", "archive-of-our-own")
    assert "KuroKitsuneNoYoko" not in article.text
    assert f1 > 0.9


def test_a_page_left_thin_by_the_rules_keeps_the_blocks_scored_near_its_best(datasets_dir):
    """wcxb_dev/2955 (bhphotovideo.com's mirrorless cameras): one block passed the cut, and the
    structure rule dropped it as a list's scrap; every product card scored just under the cut,
    and the reader got nothing (trafilatura 0.72). daniel's ttv.com.tw video page kept a
    six-character caption of its story. :func:`pagesieve.rules.thin.widen_thin_page`."""
    article, f1 = extracted_f1(datasets_dir, "wcxb_dev", "2955")
    assert "Canon EOS R100 Mirrorless Camera with 18-45mm Lens" in article.text.splitlines()
    assert f1 > 0.7
    article, f1 = extracted_f1(datasets_dir, "daniel", "20120117_www.ttv.com.tw_6b216dea3dac1ec2")
    assert "皮膚科醫師就指出" in article.text
    assert f1 > 0.9


def test_a_thin_page_does_not_take_back_what_a_page_rule_dropped(datasets_dir):
    """dragnet/176 (paulocoelhoblog.com): a photo post whose body is its title alone; the
    comment rule drops its comments, and widening a thin page (:func:`pagesieve.rules.thin.widen_thin_page`)
    leaves them out: taking them back cost dragnet 0.0065."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    ds = load_dataset(datasets_dir / "dragnet")
    article = extract(read_page(ds, "176"), ds.record("176").url)
    assert article.text == ""
    assert article.header and article.header[0]


def test_a_product_description_in_collapsed_accordion_panels_is_extracted(datasets_dir):
    """wcxb_dev/0607 (solostove.com): the description, dimensions and care notes sit in
    accordion panels collapsed by ``style="display:none"``, which their buttons
    (``aria-expanded``, ``aria-controls``) open; read as HTML, they were deleted as hidden
    (F1 0.51; trafilatura 0.74)."""
    article, f1 = extracted_f1(datasets_dir, "wcxb_dev", "0607")
    assert "Quick-Strike Cone" in article.text and "Never leave a lit fire unattended" in article.text
    assert f1 > 0.7


def test_a_faq_in_hidden_tab_panels_is_extracted(datasets_dir):
    """wcxb_dev/0242 (uber.com, driver insurance): the FAQ's tabs ("What happens in an accident",
    "Injury protection", ...) show panels the markup hides (``hidden``) until their tab
    (``role="tab"``, ``aria-controls``) is clicked; read as HTML, three of the four went (F1
    0.66; trafilatura 0.99)."""
    article, f1 = extracted_f1(datasets_dir, "wcxb_dev", "0242")
    assert "insurance cover a rental car for me?" in article.text
    assert "What is injury protection?" in article.text
    assert f1 > 0.9


def test_a_quickstart_in_hidden_tab_panels_that_name_their_tabs_is_extracted(datasets_dir):
    """wcxb_dev/0681 (Twilio's messaging quickstart): one tab panel per language, all but Python's
    hidden; the panels name their tabs (``aria-labelledby``) and the tabs name no panel (F1 0.24;
    trafilatura 0.83)."""
    article, f1 = extracted_f1(datasets_dir, "wcxb_dev", "0681")
    assert "Example.java" in article.text
    assert f1 > 0.9


def test_an_article_inside_a_header_left_open_is_extracted(datasets_dir):
    """wcxb_dev/0229: libxml2 ignores the theme's ``</header>`` while a ``<div>`` in it is open,
    so the header holds the whole page, and every paragraph of the article counted as header
    text; the classifier dropped the second half of the article (F1 0.77; trafilatura 1.00)."""
    article, f1 = extracted_f1(datasets_dir, "wcxb_dev", "0229")
    assert "Benefits of Hiring HR Consulting Firms" in article.text.splitlines()
    assert f1 > 0.95


def test_ad_labels_and_back_to_top_links_leave_the_article():
    paragraph = "<p>" + "The council met again on Tuesday and the harbour stayed closed to all shipping. " * 4 + "</p>"
    html = f"""<html><head><title>Harbour stays closed</title></head><body><article><h1>Harbour stays closed</h1>
    {paragraph}<div class="label">Advertisement</div>{paragraph}<p>(Story continues below)</p>{paragraph}
    <p><a href="#top">[ Back To The Top ]</a></p>
    <h2>Advertising</h2>{paragraph}<p>An advertisement for the ferry ran in the paper for weeks before it sailed.</p>
    {paragraph}</article></body></html>"""
    article = extract(html)
    lines = article.text.splitlines()
    assert "Advertisement" not in lines and "(Story continues below)" not in lines
    assert "[ Back To The Top ]" not in lines
    assert "Advertising" in lines  # a heading of the article, not a label
    assert any(line.startswith("An advertisement for the ferry") for line in lines)


def test_back_to_top_links_of_a_real_page_leave_its_article(datasets_dir):
    """cleaneval/final_454 ends each section with "[ Back To The Top ]"; the classifier kept all
    of them as part of the article's flow."""
    article, f1 = extracted_f1(datasets_dir, "cleaneval", "final_454")
    assert "[ Back To The Top ]" not in article.text.splitlines()
    assert f1 > 0.9


def test_unrendered_template_expressions_leave_the_article_but_quoted_ones_stay():
    paragraph = "<p>" + "The council met again on Tuesday and the harbour stayed closed to all shipping. " * 4 + "</p>"
    html = f"""<html><head><title>Harbour stays closed</title></head><body><article><h1>Harbour stays closed</h1>
    {paragraph}<p>This story appears in the {{{{article.magazine.pretty_date}}}} issue of <a href="/m">Forbes</a>.</p>
    {paragraph}<p>Render a name with <code>{{{{ user.name }}}}</code> in the template of the page.</p>
    {paragraph}<p>Sending hugs from all of us here: {{{{{{{{ Michelle }}}}}}}} and the whole family of the town.</p>
    {paragraph}<pre>&lt;p&gt;{{{{ article.title | upper }}}}&lt;/p&gt;</pre>{paragraph}</article></body></html>"""
    text = extract(html).text
    assert "This story appears in the" not in text
    assert "{{ user.name }}" in text  # quoted in <code>
    assert "{{{{ Michelle }}}}" in text  # braces of a reader, not a template
    assert "{{ article.title | upper }}" in text  # in <pre>


def test_unrendered_template_lines_of_a_real_page_leave_its_article(datasets_dir):
    """big9/2017_brand_1 (forbes.com, saved before its scripts ran): "This story appears in the
    {{article.article.magazine.pretty_date}} issue of ..." was kept in the article."""
    article, f1 = extracted_f1(datasets_dir, "big9", "2017_brand_1")
    assert "{{" not in article.text
    assert f1 > 0.88


def _blocks_of(html):
    page = parse_html(html)
    preprocess(page)
    return segment(page.root)


ESSAY = "An essay paragraph with enough words to stand as the article of the page. " * 4


def test_comment_sections_are_dropped_when_the_page_has_an_article():
    from pagesieve.rules.comments import drop_comment_sections

    comments = "".join(
        f'<div class="comment" id="comment-{k}"><p class="comment-meta">by reader {k}</p><p>Reader {k} says the essay was long, clear and worth reading twice.</p></div>'
        for k in range(4)
    )
    blocks = _blocks_of(f'<html><body class="single comments-open"><div id="content"><article>'
                        f'<p>{ESSAY}</p><p>{ESSAY}</p></article><div id="comments">{comments}</div></div></body></html>')
    keep = [b.chars > 0 for b in blocks]  # as if the classifier had kept every block with text
    dropped = drop_comment_sections(blocks, keep)
    kept = " ".join(b.text for b in blocks if keep[b.index])
    assert "An essay paragraph" in kept and "Reader" not in kept and "by reader" not in kept
    assert dropped == 8
    # the body's "comments-open" marks the whole page (more than half of it): not a section


def test_an_opinion_column_is_no_comment_section():
    from pagesieve.rules.comments import drop_comment_sections

    blocks = _blocks_of(f'<html><body><div class="commentary-body"><p>{ESSAY}</p></div>'
                        f'<div class="sidebar"><p>{ESSAY}</p><p>{ESSAY}</p></div></body></html>')
    keep = [b.chars > 0 for b in blocks]
    assert drop_comment_sections(blocks, keep) == 0


def test_a_thread_made_of_comment_containers_keeps_its_posts():
    from pagesieve.rules.comments import drop_comment_sections

    posts = "".join(f'<div class="comment-post"><p>Post {k}: {ESSAY}</p></div>' for k in range(3))
    blocks = _blocks_of(f'<html><body><h1>Thread title</h1><div class="comment-list">{posts}</div>'
                        f'<div class="comment-form"><p>Add a reply</p></div></body></html>')
    keep = [b.chars > 0 for b in blocks]
    # every post lies in a section holding most of the page or in one of its own; what is kept
    # outside them is under ARTICLE_MIN_CHARS, so nothing is dropped
    assert drop_comment_sections(blocks, keep) == 0
    assert sum(keep) == sum(1 for b in blocks if b.chars > 0)


def test_flat_comments_after_a_comments_heading_are_dropped_however_many():
    """Movable Type / TypePad: ``<h2 id="comments">`` and the comments as its flat siblings, with
    no container; they hold far more than half the page's text."""
    from pagesieve.rules.comments import drop_comment_sections

    comments = "".join(
        f'<div id="c1699{k:02d}"><p>Reader {k} writes that the essay was long, clear and worth reading twice over.</p></div>'
        f'<p class="posted">Posted by: Reader {k} at September 11, 2012 11:{k:02d} AM</p>'
        for k in range(12)
    )
    blocks = _blocks_of(f'<html><body><div id="main"><h1>The essay</h1><p>{ESSAY}</p><p>{ESSAY}</p>'
                        f'<h2 id="comments">Comments</h2>{comments}<h2>Post a comment</h2><p>Be kind.</p>'
                        f'</div></body></html>')
    keep = [b.chars > 0 for b in blocks]
    drop_comment_sections(blocks, keep)
    kept = " ".join(b.text for b in blocks if keep[b.index])
    assert "An essay paragraph" in kept
    assert "Reader" not in kept and "Posted by" not in kept and "Comments" not in kept
    # the section ends at the next heading of the same rank
    assert "Post a comment" in kept and "Be kind." in kept


def test_a_documentation_section_titled_comments_stays():
    """Markdown renderers give headings ids made of their text: a style guide's "Comments"
    section is ``<h2 id="comments">`` too, but nothing in it looks like a reader's comment."""
    from pagesieve.rules.comments import drop_comment_sections

    advice = "".join(f"<p>Rule {k}: comments should explain why the code does what it does, in full sentences.</p>"
                     for k in range(12))
    blocks = _blocks_of(f'<html><body><h1>Style guide</h1><h2 id="naming">Naming</h2><p>{ESSAY}</p><p>{ESSAY}</p>'
                        f'<h2 id="comments">Comments</h2>{advice}<h2 id="layout">Layout</h2><p>{ESSAY}</p></body></html>')
    keep = [b.chars > 0 for b in blocks]
    assert drop_comment_sections(blocks, keep) == 0


def test_a_blog_post_with_flat_comments_is_extracted_without_them(datasets_dir):
    """dragnet/R187: 1,700 characters of post, then 160 comments as siblings of
    ``<h2 id="comments">`` (no comment container): every comment was kept (F1 0.06)."""
    article, f1 = extracted_f1(datasets_dir, "dragnet", "R187")
    assert "Posted by:" not in article.text
    assert f1 > 0.9


def test_a_blog_post_is_extracted_without_its_readers_comments(datasets_dir):
    """dragnet/106 (a blog post with 60 comments in div.comment): the classifier kept most of
    them (F1 0.53, trafilatura 1.00)."""
    article, f1 = extracted_f1(datasets_dir, "dragnet", "106")
    assert "Thanks for sharing your stories" not in article.text
    assert f1 > 0.95


def test_a_paragraph_the_svm_is_sure_of_stays_whatever_its_neighbours(datasets_dir):
    """readability's msn page: the context stage outvoted the SVM (decision 1.93, probability
    0.34) on the article's first paragraph (SURE_CONTENT_DECISION in classifier.py)."""
    article, f1 = extracted_f1(datasets_dir, "readability", "msn")
    assert "The name and basic idea might sound like one of those endless" in article.text
    assert f1 > 0.95


def test_scraps_kept_of_tables_and_lists_that_are_mostly_noise_are_dropped():
    from pagesieve.extract import complete_structures

    rows = "".join(f"<tr><th>Fact {k}</th><td>value number {k}</td></tr>" for k in range(10))
    items = "".join(f"<li>Related story number {k} of the week</li>" for k in range(5))
    facts = "".join(f"<tr><th>Fact {k}</th><td><ul><li>one value {k}</li><li>another {k}</li></ul></td></tr>" for k in range(12))
    grid = "".join(f"<tr><td><p>Menu entry {k} of the site</p></td></tr>" for k in range(12))
    blocks = _blocks_of(f"""<html><body><table id="data">{rows}</table><ul id="list">{items}</ul>
    <ol id="half">{items}</ol><table id="facts">{facts}</table><table id="grid">{grid}</table></body></html>""")

    def under(ident):
        return [b for b in blocks if any(a.get("id") == ident for a in b.element.iterancestors())]

    keep = [False] * len(blocks)
    kept_first = {"data": 1, "list": 1, "half": 2, "facts": 1, "grid": 1}
    for ident, count in kept_first.items():
        for b in [b for b in under(ident) if b.chars > 0][:count]:
            keep[b.index] = True
    complete_structures(blocks, keep)
    still = {ident: sum(keep[b.index] for b in under(ident)) for ident in kept_first}
    # a tenth of a data table, a fifth of a list, a cell of a facts table: dropped
    assert still["data"] == 0 and still["list"] == 0 and still["facts"] == 0
    assert still["half"] == 2  # two fifths of a list: between dropping and completing, left as judged
    assert still["grid"] == 1  # a page grid (paragraphs in cells) may hold the article: left alone


def test_the_reader_view_of_wikipedia_keeps_the_article_and_under_half_its_infobox(datasets_dir):
    """readability/wikipedia-2 (New Zealand): the article's text comes through whole, and fewer
    than half of the infobox's 43 rows.

    The model of 2026-11-25 kept two rows ("Currency", the date format). Since the page-type
    signals of 2026-11-27 (``models/README.md``, "Page-type signals") the page is taken for
    documentation (0.76: WCXB has no encyclopaedia article, and its documentation pages'
    key-value tables are content), and 20 of the 43 rows are kept, at the top of the reader view;
    most values were without their labels until each row with a header cell was kept whole
    (:func:`pagesieve.rules.structures.complete_labelled_rows`). The page's token F1 rose (0.978 -> 0.983: readability's
    truth holds the infobox's values), readability's held-out F1 rose and the dev gate rose; the
    scraps are the cost, named here so that they are not lost, and the bound fails if more come.
    (A page-keyed exception is what the project no longer adds.)"""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page
    from pagesieve.blocks.segment import subtree_ends
    from pagesieve.extract import judge_page

    article, f1 = extracted_f1(datasets_dir, "readability", "wikipedia-2")
    assert f1 > 0.95
    assert "New Zealand (Māori: Aotearoa [aɔˈtɛaɾɔa]) is a sovereign island country" in article.text
    ds = load_dataset(datasets_dir / "readability")
    analysis, keep = judge_page(parse_html(read_page(ds, "wikipedia-2"), url=ds.record("wikipedia-2").url))
    last = subtree_ends(analysis.blocks)
    box = next(b for b in analysis.blocks if b.tag == "table" and "infobox" in (b.class_attr or ""))
    rows = [i for i in range(box.index + 1, last[box.index] + 1) if analysis.blocks[i].tag == "tr"]
    kept = [i for i in rows if any(keep[j] for j in range(i, last[i] + 1))]
    assert len(rows) == 43 and len(kept) < len(rows) / 2
    # a kept row is whole: "Capital" with "Wellington", never a label or a value alone
    labelled = [i for i in kept if any(analysis.blocks[j].tag == "th" for j in range(i, last[i] + 1))]
    assert len(labelled) >= 10
    assert all(keep[j] for i in kept for j in range(i, last[i] + 1) if analysis.blocks[j].chars)


def test_a_row_with_a_header_cell_is_kept_whole_or_left_as_judged():
    from pagesieve.rules.structures import complete_labelled_rows

    blocks = _blocks_of("""<html><body><table>
    <tr id="a"><th>Largest city</th><td>Auckland</td></tr>
    <tr id="b"><th>Prime Minister</th><td>Jacinda Ardern</td></tr>
    <tr id="c"><th>Currency</th><td>New Zealand dollar</td></tr>
    <tr id="d"><td>No header cell</td><td>in this row</td></tr></table></body></html>""")

    def cells(ident):
        return [b for b in blocks if b.element.getparent().get("id") == ident]

    keep = [False] * len(blocks)
    keep[cells("a")[0].index] = True  # the label alone
    keep[cells("b")[1].index] = True  # the value alone
    keep[cells("d")[0].index] = True  # a row without a header cell
    assert complete_labelled_rows(blocks, keep) == 2
    assert all(keep[b.index] for b in cells("a") + cells("b"))
    assert not any(keep[b.index] for b in cells("c"))  # nothing of it kept: left out
    assert [keep[b.index] for b in cells("d")] == [True, False]


def test_a_figure_credit_is_set_apart_from_its_caption(datasets_dir):
    """big9/2017_isis writes ``<span>... in Raqqa.</span><span class="credit">Reuters</span>``:
    the site's stylesheet puts the credit on a line of its own; the article's HTML, which keeps
    no stylesheet, read "Raqqa.Reuters" (pagesieve.article.media.caption_credits)."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    big9 = load_dataset(datasets_dir / "big9")
    article = extract(read_page(big9, "2017_isis"), big9.record("2017_isis").url)
    assert article.html.count("in Raqqa. <small>Reuters</small></figcaption>") == 2
    assert "Raqqa.Reuters" not in article.html
    assert "Reuters</small>" not in article.text  # the text leaves captions out, credit and all
    wcxb = load_dataset(datasets_dir / "wcxb_dev")  # <span class="caption__source">
    today = extract(read_page(wcxb, "0034"), wcxb.record("0034").url)
    assert "on ClassPass in 2024. <small>Mikolette / Getty Images</small></figcaption>" in today.html


def test_caption_credits_leaves_other_caption_parts_alone():
    from lxml import html as lxml_html

    from pagesieve.article.media import caption_credits

    body = lxml_html.fragment_fromstring(
        '<div><figure><img src="a.jpg"><figcaption>Harbour wall at dawn<span class="photo-credit">Ana Ruiz'
        '</span></figcaption></figure><figure><figcaption><b class="discredited">Bold</b> caption'
        '</figcaption></figure><p class="credit">Not in a caption</p></div>')
    assert caption_credits(body) == 1
    out = lxml_html.tostring(body, encoding="unicode")
    assert "Harbour wall at dawn <small" in out and "<b class" in out and '<p class="credit">' in out


def test_a_thread_the_page_type_takes_for_an_article_keeps_its_comments_rather_than_nothing(datasets_dir):
    """wcxb_dev/0575 (lobste.rs): a discussion thread whose posts sit in comment containers; the
    page-type stage named it an article, so the comment rule dropped the two posts the classifier
    kept, and the reader was empty (word F1 0.00). With nothing kept outside the comment
    sections, they stay (:func:`pagesieve.rules.comments.drop_comment_sections`)."""
    article, f1 = extracted_f1(datasets_dir, "wcxb_dev", "0575")
    assert "I was originally concerned with implicit clones as well" in article.text
    assert f1 > 0.4
