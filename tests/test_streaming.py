"""React's streamed server rendering read as HTML (:mod:`pagesieve.page.streaming`): the hidden
segments at the end of the body go where their placeholders are, and the fallbacks they
replace go, as React's inline scripts do in a browser."""

from __future__ import annotations

from pagesieve.extract import extract
from pagesieve.page.html import parse_html
from pagesieve.page.preprocess import preprocess
from pagesieve.page.streaming import drop_fallbacks

STORY = "The harbour stayed closed to all shipping while the council met again on Tuesday. " * 4


def _words(html: str) -> list[str]:
    page = parse_html(html)
    preprocess(page)
    return " ".join(page.root.find("body").itertext()).split()


def test_a_completed_boundary_replaces_its_fallback_where_the_placeholder_was():
    html = ("<html><body><main><h1>Harbour</h1><!--$?--><template id=\"B:0\"></template>"
            "<p>Loading paragraph...</p><!--/$--><p>Last line.</p></main>"
            f"<div hidden id=\"S:0\"><p>First streamed.</p><p>{STORY}</p></div></body></html>")
    words = _words(html)
    assert "Loading" not in words
    assert words[:3] == ["Harbour", "First", "streamed."]
    assert words[-2:] == ["Last", "line."]


def test_a_segment_of_a_segment_fills_its_placeholder_in_order():
    """``$RS("S:2","P:2")`` inside a boundary's own segment, as Next.js streams nested parts."""
    html = ("<html><body><main><!--$?--><template id=\"B:0\"></template><p>Loading...</p><!--/$--></main>"
            "<div hidden id=\"S:2\"><p>Middle part.</p></div>"
            "<div hidden id=\"S:0\"><p>Before.</p><template id=\"P:2\"></template><p>After.</p></div></body></html>")
    assert _words(html) == ["Before.", "Middle", "part.", "After."]


def test_a_boundary_whose_segment_never_came_keeps_its_fallback():
    html = ("<html><body><main><!--$?--><template id=\"B:0\"></template><p>Plain version.</p><!--/$-->"
            "<!--$?--><template id=\"B:1\"></template><p>Loading...</p><!--/$--></main>"
            "<div hidden id=\"S:1\"><p>Rich version.</p></div></body></html>")
    assert drop_fallbacks(html.encode()).count(b"Plain version.") == 1
    assert _words(html) == ["Plain", "version.", "Rich", "version."]


def test_nested_boundaries_inside_a_fallback_go_with_it():
    html = ("<html><body><main><!--$?--><template id=\"B:0\"></template><div><!--$--><p>Skeleton.</p><!--/$-->"
            "<p>Spinner.</p></div><!--/$--><p>Footer line.</p></main>"
            "<div hidden id=\"S:0\"><p>The part.</p></div></body></html>")
    assert _words(html) == ["The", "part.", "Footer", "line."]


def test_a_page_stored_without_comments_or_scripts_still_places_its_segments():
    html = ("<html><body><main><template id=\"B:0\"></template></main><template id=\"B:1\"></template>"
            "<div hidden id=\"S:0\"><p>Specification sheet.</p></div><div hidden id=\"S:1\"><p>Footer.</p></div>"
            "</body></html>")
    assert _words(html) == ["Specification", "sheet.", "Footer."]


def test_a_hidden_element_that_is_no_segment_stays_hidden():
    html = ("<html><body><main><p>Shown.</p><template id=\"B:0\"></template></main>"
            "<div hidden id=\"S:x-menu\"><p>Menu.</p></div><div hidden id=\"other\"><p>Dialog.</p></div></body></html>")
    assert _words(html) == ["Shown."]


def test_a_streamed_next_js_article_is_read_whole(datasets_dir):
    """wcxb_dev/0384 (lesswrong.com) and 4416 (tigerdata.com): the article is a streamed segment,
    which pre-processing removed as hidden; the text was empty or a few words (word F1 0.00)."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page, read_truth
    from pagesieve_dev.evaluation.wcxb import word_prf

    ds = load_dataset(datasets_dir / "wcxb_dev")
    for page_id in ("0384", "4416"):
        article = extract(read_page(ds, page_id), ds.record(page_id).url)
        assert word_prf(article.text, read_truth(ds, page_id))[2] > 0.95, page_id
