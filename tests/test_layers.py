"""The layer stage (issue 48): fixed and sticky layers over a live page that hold no main content
are noise, judged by where they sit against the article, not by their names
(host/pagesieve/rules/layers.py; the snapshot's ``layers``, docs/snapshot.md "Layers")."""

from __future__ import annotations

import pytest
from lxml import etree

from e2e.overlays import ANONYMOUS, NEWS_TEXTS, STORY, page_html
from pagesieve.explain import node_reason
from pagesieve.extract import judge_page, render_article
from pagesieve.page.html import parse_html
from pagesieve.page.limits import SnapshotError
from pagesieve.page.model import NODE_ID_ATTR
from pagesieve.page.snapshot import parse_snapshot
from pagesieve.page.to_snapshot import page_to_snapshot
from pagesieve.rules.layers import hidden_with_layers

VIEWPORT = (1100, 800)

# The news page's layers as Chromium lays them out at 1100 x 800 (tests/e2e/overlays.py): class
# -> (position, z, share, x, y, width, height), read from a snapshot of the page.
GEOMETRY = {
    "sticky": (2, 50, 0.05, 0, 0, 1100, 40),
    "consent": (1, 1000, 0.13, 0, 700, 1100, 100),
    "backdrop": (1, 2000, 1.0, 0, 0, 1100, 800),
    "modal": (1, 2001, 0.2, 340, 295, 420, 210),
    "player": (1, 900, 0.08, 764, 440, 320, 220),
    "app": (1, 950, 0.09, 0, 0, 1100, 72),
    "chat": (1, 960, 0.01, 16, 612, 250, 48),
    "paywall": (1, 990, 0.05, 0, 690, 1100, 40),
}


def _snapshot(html: str, layers: dict[str, tuple], names: dict[str, str] = ANONYMOUS) -> tuple[dict, dict[str, int]]:
    """A version-1 snapshot of ``html`` with ``layers`` (part name -> geometry) on the elements of
    class (or id) ``names[part]``; the node ids of those elements by part."""
    snapshot = page_to_snapshot(parse_html(html, url="https://gazette.example/news/wall"))
    snapshot["viewport"] = {"width": VIEWPORT[0], "height": VIEWPORT[1]}
    ids = {}
    for node in snapshot["nodes"]:
        attrs = node.get("a") or {}
        for part, name in names.items():
            if part in layers and name in (attrs.get("class"), attrs.get("id")) and part not in ids:
                ids[part] = node["i"]
    flat = []
    for part, (position, z, share, x, y, w, h) in layers.items():
        flat += [ids[part], position, z, share, x, y, w, h]
    snapshot["layers"] = flat
    return snapshot, ids


def _judged(snapshot: dict):
    page = parse_snapshot(snapshot)
    analysis, keep = judge_page(page, title_only=False)
    return analysis, keep


def test_every_layer_of_the_anonymous_news_page_is_noise_and_the_story_stays():
    snapshot, ids = _snapshot(page_html("news-anonymous"), GEOMETRY)
    analysis, keep = _judged(snapshot)
    hidden = dict(analysis.hidden_layers)
    assert set(hidden) == set(ids.values())
    assert {part: hidden[ids[part]].rule for part in ids} == {
        "sticky": "sticky-bar", "consent": "edge-banner", "backdrop": "backdrop", "modal": "modal",
        "player": "floating", "app": "edge-banner", "chat": "floating", "paywall": "floating"}
    assert hidden[ids["backdrop"]].evidence == {"position": "fixed", "z": 2000, "share": 1.0, "chars": 0}
    text = render_article(analysis, keep).text
    assert all(sentence in text for sentence in STORY)
    assert not [t for t in NEWS_TEXTS if t[:30] in text]


def test_without_layers_the_same_page_keeps_its_layers_out_of_the_hide_list():
    # the control: with no layers in the snapshot, no layer element is hidden whole (the
    # backdrop holds no block, so only the layer stage can hide it)
    snapshot, ids = _snapshot(page_html("news-anonymous"), {})
    analysis, _keep = _judged(snapshot)
    assert analysis.hidden_layers == [] and analysis.layers == []


def test_a_fixed_shell_that_holds_the_article_is_the_page_and_a_modal_in_it_is_still_noise():
    html = page_html("news-anonymous").replace('<main class="page">', '<main class="page shell">')
    names = {"shell": "page shell", "modal": ANONYMOUS["modal"]}
    snapshot, ids = _snapshot(html, {"shell": (1, None, 1.0, 0, 0, 1100, 800), "modal": GEOMETRY["modal"]}, names)
    analysis, keep = _judged(snapshot)
    assert [n for n, _r in analysis.hidden_layers] == [ids["modal"]]
    assert all(sentence in render_article(analysis, keep).text for sentence in STORY)


def test_a_sticky_element_inside_the_article_scrolls_with_it_and_stays():
    html = page_html("news-anonymous").replace(f"<p>{STORY[2]}</p>", f'<p class="stuck">{STORY[2]}</p>')
    snapshot, ids = _snapshot(html, {"stuck": (2, 1, 0.05, 214, 0, 672, 60), "consent": GEOMETRY["consent"]},
                              {"stuck": "stuck", "consent": ANONYMOUS["consent"]})
    analysis, keep = _judged(snapshot)
    assert [n for n, _r in analysis.hidden_layers] == [ids["consent"]]
    assert STORY[2] in render_article(analysis, keep).text


def test_the_hide_list_ends_with_each_layer_hidden_whole_and_explain_names_it():
    snapshot, ids = _snapshot(page_html("news-anonymous"), GEOMETRY)
    analysis, keep = _judged(snapshot)
    from pagesieve.explain import hidden_reasons
    from pagesieve.extract import verdict_ids

    hide = verdict_ids(analysis.blocks, keep)[1]
    why = [r.compact() if r else None for r in hidden_reasons(analysis, keep)]
    merged, reasons = hidden_with_layers(hide, why, analysis.hidden_layers, analysis.layers)
    assert merged[-len(ids):] == sorted(ids.values())  # document order, after the page's own noise
    assert all(r[0] == "layers" for r in reasons[-len(ids):])
    inside = set().union(*(f.inside for f in analysis.layers))
    assert not set(merged[:-len(ids)]) & inside  # nothing inside a layer is listed twice
    # a button inside the modal: noise, for the modal's reason, its block the modal
    modal = next(f for f in analysis.layers if f.node_id == ids["modal"])
    button = max(modal.inside)
    answer = node_reason(analysis, keep, button)
    assert answer["verdict"] == "noise" and answer["block"] == ids["modal"]
    assert answer["reason"]["stage"] == "layers" and answer["reason"]["rule"] == "modal"


@pytest.mark.parametrize("layers, message", [
    ([1, 1, 0, 0.5, 0, 0, 10], "8 values per layer"),
    ([1, 3, 0, 0.5, 0, 0, 10, 10], "1 \\(fixed\\) or 2 \\(sticky\\)"),
    ([1, 1, "9", 0.5, 0, 0, 10, 10], "z-index"),
    ([1, 1, 2**31, 0.5, 0, 0, 10, 10], "z-index"),
    ([1, 1, None, 1.5, 0, 0, 10, 10], "share"),
    ([1, 1, None, 0.5, 0, 0, -1, 10], "sizes >= 0"),
    ([-1, 1, None, 0.5, 0, 0, 1, 10], "an id"),
    ({"1": 1}, "8 values per layer"),
])
def test_a_malformed_layers_field_is_refused(layers, message):
    snapshot = page_to_snapshot(parse_html("<p>x</p>"))
    snapshot["layers"] = layers
    with pytest.raises(SnapshotError, match=message):
        parse_snapshot(snapshot)


def test_layers_are_read_as_sent():
    snapshot = page_to_snapshot(parse_html("<p>x</p>"))
    snapshot["layers"] = [2, 1, None, 0.25, -3, 4, 100, 50, 3, 2, -1, 0, 0, 0, 0, 0]
    page = parse_snapshot(snapshot)
    assert {k: (v.position, v.z, v.share, v.rect.x, v.rect.height) for k, v in page.layers.items()} == {
        2: ("fixed", None, 0.25, -3, 50), 3: ("sticky", -1, 0.0, 0, 0)}
    assert parse_snapshot(page_to_snapshot(parse_html("<p>x</p>"))).layers is None
    assert etree.tostring(page.root).count(NODE_ID_ATTR.encode()) > 0


def test_a_wrapper_that_holds_only_a_banner_and_its_backdrop_is_hidden_once_for_the_layers_in_it():
    from pagesieve.explain import hidden_reasons
    from pagesieve.extract import verdict_ids

    names = {"banner": "onetrust-banner-sdk", "backdrop": "onetrust-pc-dark-filter", "wrapper": "onetrust-consent-sdk"}
    snapshot, ids = _snapshot(page_html("onetrust"), {"banner": GEOMETRY["consent"], "backdrop": GEOMETRY["backdrop"]}, names)
    analysis, keep = _judged(snapshot)
    assert sorted(n for n, _r in analysis.hidden_layers) == sorted(ids.values())
    hide = verdict_ids(analysis.blocks, keep)[1]
    why = [r.compact() if r else None for r in hidden_reasons(analysis, keep)]
    merged, reasons = hidden_with_layers(hide, why, analysis.hidden_layers, analysis.layers)
    wrapper = int(next(e for e in parse_snapshot(snapshot).root.iter() if e.get("id") == names["wrapper"]).get(NODE_ID_ATTR))
    assert wrapper in merged and not set(ids.values()) & set(merged)
    assert reasons[merged.index(wrapper)][0] == "layers"


def test_a_keep_correction_inside_a_layer_brings_the_whole_layer_back_and_the_others_stay_hidden():
    """A user who right-clicks "Keep this" on a block inside the floating player: the correction
    comes after the layer stage and wins, so the player is no longer hidden (nor any block in it);
    the other layers stay noise."""
    from pagesieve.corrections.rules import make_label
    from pagesieve.corrections.store import SiteRules

    snapshot, ids = _snapshot(page_html("news-anonymous"), GEOMETRY)
    analysis, keep = _judged(snapshot)
    player = next(f for f in analysis.layers if f.node_id == ids["player"])
    by_id = {b.node_id: b for b in analysis.blocks}
    target = next(by_id[n] for n in sorted(player.inside) if n in by_id and by_id[n].text.strip())
    assert not keep[target.index] and ids["player"] in dict(analysis.hidden_layers)
    label = make_label(analysis.page, analysis.blocks, analysis.candidates, analysis.features, target.index, 1, keep=keep)
    label.id, label.created = 1, 1.0
    rules = SiteRules(label.site, [label])
    again, kept = judge_page(parse_snapshot(snapshot), title_only=False, corrections=rules)
    hidden = dict(again.hidden_layers)
    assert ids["player"] not in hidden
    assert {ids[p] for p in ("modal", "backdrop", "consent")} <= set(hidden)
    assert kept[next(b.index for b in again.blocks if b.node_id == target.node_id)]
    assert node_reason(again, kept, target.node_id)["verdict"] == "content"
