"""Site style tree (seed 002): importance of a hand-built site against hand-computed values."""

from __future__ import annotations

import math

import pytest

from pagesieve.page.html import parse_html
from pagesieve.templates.sst import SiteStyleTree

PAGES = [
    '<html><body><div class="nav"><a href="/a">Home</a></div><p>alpha beta</p></body></html>',
    '<html><body><div class="nav"><a href="/a">Home</a></div><p>gamma delta</p></body></html>',
    '<html><body><div class="nav"><a href="/a">Home</a></div><p>alpha epsilon</p><img src="x.png"></body></html>',
]


def body(html):
    return parse_html(html).root.find("body")


@pytest.fixture
def sst():
    tree = SiteStyleTree()
    for html in PAGES:
        tree.add(body(html))
    tree.compute(threshold=0.5)
    return tree


def test_structure(sst):
    root = sst.root
    assert root.pages == 3
    two = root.styles[(("div", "nav"), ("p", ""))]
    one = root.styles[(("div", "nav"), ("p", ""), ("img", ""))]
    assert (two.pages, one.pages) == (2, 1)


def test_importance_matches_hand_computation(sst):
    """By hand (eq. 1-5, gamma 0.9):
    - nav link (m=2): features "home" and "href:/a" on both pages, H = 1 each -> CompImp 0;
      div.nav (one style, NodeImp 0) -> 0.9 * 0 = 0;
    - p under the 2-page style (m=2): four words, each on one page, H = 0 -> CompImp 1;
    - under the 1-page style every node has m = 1: link 1, div.nav 0.1*0 + 0.9*1 = 0.9, p 1, img 1;
    - body: NodeImp = -(2/3 log3 2/3 + 1/3 log3 1/3) = 0.579380;
      CompImp = 0.19 * 0.579380 + 0.81 * (2/3 * (0 + 1)/2 + 1/3 * (0.9 + 1 + 1)/3) = 0.641082.
    """
    root = sst.root
    two = root.styles[(("div", "nav"), ("p", ""))]
    one = root.styles[(("div", "nav"), ("p", ""), ("img", ""))]
    nav2, p2 = two.elements
    link2 = next(iter(nav2.styles.values())).elements[0]
    assert link2.importance == pytest.approx(0.0)
    assert nav2.importance == pytest.approx(0.0)
    assert p2.importance == pytest.approx(1.0)
    nav1, p1, img1 = one.elements
    assert nav1.importance == pytest.approx(0.9)
    assert p1.importance == pytest.approx(1.0) and img1.importance == pytest.approx(1.0)
    node_imp = -(2 / 3 * math.log(2 / 3, 3) + 1 / 3 * math.log(1 / 3, 3))
    assert node_imp == pytest.approx(0.579380, abs=1e-6)
    assert root.importance == pytest.approx(0.19 * node_imp + 0.81 * (2 / 3 * 0.5 + 1 / 3 * 2.9 / 3), abs=1e-9)
    assert root.importance == pytest.approx(0.641082, abs=1e-6)


def test_noise_needs_the_node_and_all_descendants_below_threshold(sst):
    two = sst.root.styles[(("div", "nav"), ("p", ""))]
    nav2, p2 = two.elements
    assert nav2.noise and not p2.noise and not sst.root.noise


def test_new_page_maps_onto_the_tree(sst):
    page = body('<html><body><div class="nav"><a href="/a">Home</a></div><p>zeta eta</p></body></html>')
    mapped = sst.map_page(page)
    nav = page.find("div")
    assert mapped[nav].noise and not mapped[page.find("p")].noise
    unknown = body('<html><body><section><p>new layout</p></section></body></html>')
    assert unknown.find("section") not in sst.map_page(unknown)
