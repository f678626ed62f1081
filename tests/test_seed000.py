"""Seed 000 (Yan & Wang 2020) §5: the page of its Figure 2 gives the numbers of Tables 3 and 4."""

from __future__ import annotations

import numpy as np
import pytest

from pagesieve.blocks.segment import SEED000_BLOCK_TAGS, segment
from pagesieve.blocks.features import FEATURE_NAMES, block_features, seed000_features
from pagesieve.page.html import parse_html
from pagesieve.page.preprocess import preprocess

# Page 1 of Figure 2. The figure shows "a part of" the page; Table 3 counts one <img> in the
# fifth block, so the rebuilt page carries one there. Full-width colons as in the original
# Chinese text (the converted seed renders them as ": ").
FIGURE_2_NAV = """<div><ul>
<li><a>中国</a></li>
<li><a>国际</a></li>
<li><a>军事</a></li>
<li><a>观点</a></li>
<li><a>专题</a></li>
</ul></div>
"""

FIGURE_2_PAGE_1 = """<html><body>
""" + FIGURE_2_NAV + """<div>本文系转载, 不代表参考消息网的观点。参考消息网对其文字、图片与其他内容的真实性、及时性、完整性和准确性以及其权利属性均不作任何保证和承诺, 请读者和相关方自行核实。</div>
<div>
<span>来源：新华社</span>
<span>责任编辑：张越</span>
</div>
<div>
<p>正文部分A</p>
<p>正文部分B</p>
<p>正文部分C</p>
<img src="photo.jpg">
</div>
<div><p>国新网备2012001 互联网出版许可证(新出网证(京)字147号)京ICP备11013708 京公网安备110402440030</p></div>
<a>广告A</a>
<a>广告B</a>
</body></html>"""

# Table 3: tag, text length, link text length, <a> count, <img> count
TABLE_3 = [
    ("body", 6, 6, 2, 0),
    ("div", 10, 10, 5, 0),
    ("div", 83, 0, 0, 0),
    ("div", 13, 0, 0, 0),
    ("div", 15, 0, 0, 1),
    ("div", 65, 0, 0, 0),
]
TABLE_3_TOTAL = (192, 16, 7, 1)

# Table 4: R1..R5, printed to three decimals
TABLE_4 = [
    (0.031, 0.353, 0.25, 0, 0.857),
    (0.052, 0.588, 0.625, 0, 0.909),
    (0.430, 0, 0, 0, 0),
    (0.067, 0, 0, 0, 0),
    (0.078, 0, 0, 0.5, 0),
    (0.336, 0, 0, 0, 0),
]


@pytest.fixture()
def blocks():
    page = preprocess(parse_html(FIGURE_2_PAGE_1))
    return segment(page.root, SEED000_BLOCK_TAGS)


def test_table_3_block_statistics(blocks):
    got = [(b.tag, b.chars, b.link_chars, b.links, b.images) for b in blocks]
    assert got == TABLE_3
    totals = tuple(sum(col) for col in zip(*[row[1:] for row in got]))
    assert totals == TABLE_3_TOTAL


def test_table_4_features(blocks):
    r = np.array(seed000_features(blocks))
    assert r.shape == (6, 5)
    # The paper prints three decimals, mostly rounded (51.8e-3 -> 0.052) but once truncated
    # (65/193 = 0.3368 -> 0.336), so the tolerance is one unit of the last printed digit.
    np.testing.assert_allclose(r, np.array(TABLE_4, dtype=float), atol=0.001)
    # the served features fill R1-R5 on their own (one numpy division of the same integers):
    # the same values, bit for bit, for every candidate block
    idx, x = block_features(blocks)
    columns = [FEATURE_NAMES.index(name) for name in ("r1", "r2", "r3", "r4", "r5")]
    assert len(idx) > 0
    np.testing.assert_array_equal(x[:, columns], np.array(seed000_features(blocks, idx)))


def test_nested_block_text_is_left_out():
    """Seed 000 §5: a block's features exclude the content of the blocks nested in it."""
    page = preprocess(parse_html("<html><body>outer <div>inner text</div> tail<a href='#'>x</a></body></html>"))
    body, inner = segment(page.root, SEED000_BLOCK_TAGS)
    assert (body.chars, body.link_chars, body.links) == (len("outer") + len("tail") + len("x"), 1, 1)
    assert inner.chars == len("inner text")
    assert body.sub_chars == body.chars + inner.chars
