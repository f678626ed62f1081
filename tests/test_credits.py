"""A photo's credit line beside the photo leaves the text (pagesieve.rules.credits)."""

from __future__ import annotations

from pagesieve.extract import SETTLE_RULES, extract

STORY = "<p>" + "The report goes on with details the reader came for, sentence after sentence. " * 5 + "</p>"


def _article(figure: str):
    return extract(f"""<html><head><title>Storm closes the old harbour</title></head><body><article>
    <h1>Storm closes the old harbour</h1>{figure}{STORY}{STORY}</article></body></html>""")


def test_a_credit_line_beside_its_photo_leaves_the_text():
    shown = _article('<div class="gallery"><img src="/harbour.jpg" alt="">'
                     '<p class="credit" id="gallery_credit">AP</p>'
                     '<p class="caption">Waves break over the harbour wall on Tuesday morning.</p></div>')
    assert "credits" in SETTLE_RULES
    assert not shown.text.startswith("AP") and "\nAP\n" not in f"\n{shown.text}\n"
    assert "details the reader came for" in shown.text


def test_a_credit_class_without_a_photo_or_on_a_long_block_stays():
    # no picture beside it: a "credit" paragraph of the story (a film's credits, say)
    alone = _article('<p class="credits">Directed by Michael Winterbottom for the harbour trust.</p>')
    assert "Directed by Michael Winterbottom" in alone.text
    # longer than a credit line: the caption that the class names is read as a caption
    long_line = ("The photographer waited three days for the storm to break over the old harbour wall, "
                 "and the town watched with him.")
    shown = _article(f'<div><img src="/harbour.jpg" alt=""><p class="photo-credit">{long_line}</p></div>')
    assert "The photographer waited three days" in shown.text


def test_the_reader_of_a_real_page_no_longer_opens_with_the_photos_credit(datasets_dir):
    """big9's 2005_angelina_1 (Fox News): the body opened with "AP", the credit of the photo
    above the story (tests/e2e: chromium-reader-real-byline.png)."""
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    ds = load_dataset(datasets_dir / "big9")
    article = extract(read_page(ds, "2005_angelina_1"), ds.record("2005_angelina_1").url)
    assert article.text.split("\n", 1)[0] == "May 21: Brad Pitt and Angelina Jolie arrive in Cannes, France."
    assert "AP" not in article.text.split()[:3]
