"""Seed 000 §4: the template library, from the two pages of its Figure 2 to Table 2."""

from __future__ import annotations

from pagesieve.page.html import parse_html
from pagesieve.templates.library import TemplateLibrary, page_leaves, similar

from test_seed000 import FIGURE_2_NAV, FIGURE_2_PAGE_1

FIGURE_2_PAGE_2 = """<html><body>
""" + FIGURE_2_NAV + """<div>有消息称...</div>
<div>
<span>来源：新华社</span>
<span>责任编辑：王兵</span>
</div>
<div><p>国新网备2012001 互联网出版许可证(新出网证(京)字147号)京ICP备11013708 京公网安备110402440030</p></div>
</body></html>"""

# Table 2 (cache S after both pages): tag, start of text, frequency. The paper prints "p" for
# the editor line of page 1; Figure 2 has it in a <span>, which is what a parser sees.
TABLE_2 = [
    ("a", "中国", 2), ("a", "国际", 2), ("a", "军事", 2), ("a", "观点", 2), ("a", "专题", 2),
    ("div", "本文系转载", 1), ("span", "来源", 2), ("span", "责任编辑：张越", 1),
    ("p", "正文部分A", 1), ("p", "正文部分B", 1), ("p", "正文部分C", 1), ("p", "国新网备2012001", 2),
    ("a", "广告A", 1), ("a", "广告B", 1), ("div", "有消息称", 1), ("span", "责任编辑：王兵", 1),
]


def test_figure_2_builds_table_2():
    library = TemplateLibrary()
    for html in (FIGURE_2_PAGE_1, FIGURE_2_PAGE_2):
        assert library.learn(page_leaves(parse_html(html).root)) is False
    got = [(e.tag, e.text, e.frequency) for e in library.cache]
    assert len(got) == len(TABLE_2)
    for (tag, text, freq), (want_tag, want_start, want_freq) in zip(got, TABLE_2):
        assert (tag, freq) == (want_tag, want_freq) and text.startswith(want_start), (tag, text, freq)


def test_similarity_rule():
    assert similar("责任编辑：张越", "责任编辑：张越")
    assert not similar("责任编辑：张越", "责任编辑：王兵")  # 7 characters: must be equal
    sixteen = "abcdefghijklmnop"
    assert similar(sixteen, "abcdefghijklmnoX")  # 16 characters: 2 edits allowed
    assert similar(sixteen, "abcdefghijklmnXX")
    assert not similar(sixteen, "abcdefghijklmXXX")


def test_a_batch_of_ten_pages_persists_common_noise_only():
    library = TemplateLibrary()
    nav = "".join(f"<li><a>Section {k}</a></li>" for k in range(5))
    stories = ["Rain fell on the harbour all night.", "The council voted to close the bridge.",
               "A new bakery opened on Mill Street.", "Tickets for the festival sold out fast.",
               "The river rose two metres by noon.", "Schools reopen after the long strike.",
               "A lost dog walked home forty miles.", "The mayor resigned over the budget.",
               "Farmers expect a record apple harvest.", "The old cinema will become a library."]
    for n, story in enumerate(stories):
        html = (f"<html><body><ul>{nav}</ul><p>{story}</p>"
                f"<p>Reply</p><p>Reply</p><p>Reply</p><footer>© Example News</footer></body></html>")
        closed = library.learn(page_leaves(parse_html(html).root))
        assert closed is (n == 9)
    assert ("a", "Section 0") in library.entries and ("footer", "© Example News") in library.entries
    assert not any(text in stories for _tag, text in library.entries)
    assert library.cache == [] and library.pages_in_batch == 0
    # cleaning a new page of the site removes the template leaves and nothing else
    page = parse_html(f"<html><body><ul>{nav}</ul><p>Ferries run again.</p><footer>© Example News</footer></body></html>")
    assert library.clean(page.root) == 6
    assert " ".join("".join(page.root.itertext()).split()) == "Ferries run again."


def test_occurrences_on_one_page_count_once():
    library = TemplateLibrary(batch_pages=3, min_frequency=3)
    library.learn([("a", "Reply")] * 10 + [("p", "text")])
    assert [(e.text, e.frequency) for e in library.cache] == [("Reply", 1), ("text", 1)]


def test_indexed_lookup_equals_a_scan_of_the_seed_rule():
    """LeafIndex.find returns what a linear scan with `similar` returns: the earliest match.

    As in TemplateLibrary, a pair is only added when nothing similar is stored yet (so an exact
    hit is the only similar one of its text, and the exact shortcut cannot skip an earlier one).
    """
    import random

    from pagesieve.templates.library import LeafIndex

    rng = random.Random(5)
    base = ["Home", "Weather today", "Copyright 2012 Example News Ltd", "Read more about the harbour"]
    pairs = []
    for _ in range(400):
        text = rng.choice(base) + "".join(rng.choice("abc ") for _ in range(rng.randint(0, 12)))
        if rng.random() < 0.3:
            text = text.replace("e", "3", rng.randint(0, 2))
        pairs.append((rng.choice(["a", "p"]), text))
    index, stored = LeafIndex(), []
    for tag, text in pairs[:250]:
        if index.find(tag, text) is None:
            index.add(tag, text)
            stored.append((tag, text))
    assert 20 < len(stored) < 250
    for tag, text in pairs:
        scan = next((k for k, (t, x) in enumerate(stored) if t == tag and similar(x, text)), None)
        assert index.find(tag, text) == scan, (tag, text)
