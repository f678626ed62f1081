"""The engine's fast paths give the answers of their plain definitions, on real pages.

Each fast path replaced a slower formulation of the same thing (an XPath with ancestor tests per
text node, one anchor walk per block, four XPath scans); the slow one is written out here and the
two are compared on pages of the shared datasets, so a change to either is caught.
"""

from __future__ import annotations

import json
import math
import re
from urllib.parse import urlsplit

import pytest
from lxml import etree

from pagesieve.blocks.segment import segment
from pagesieve.page.formulas import normalise_formulas
from pagesieve.page.html import parse_html
from pagesieve.page.preprocess import preprocess
from pagesieve.page.visibility import HIDDEN_CLASS, _unshown, shown_pieces
from pagesieve.blocks.signals import _same_site_article, raw_page_signals, same_site_shares

SHOWN_TEXT_XPATH = etree.XPath(
    ".//text()[not(ancestor::script or ancestor::style or ancestor::template or ancestor::noscript"
    " or ancestor::textarea or ancestor::*[@hidden]"
    f" or ancestor::*[contains(concat(' ', normalize-space(@class), ' '), ' {HIDDEN_CLASS} ')])]"
)


def _pages(datasets_dir, names=("wcxb_dev", "dragnet", "readability", "zh_cwced"), per=40):
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page

    out = []
    for name in names:
        folder = datasets_dir / name
        if not folder.is_dir():
            continue
        dataset = load_dataset(folder)
        for record in dataset.rows[:per]:
            out.append((f"{name}/{record.id}", read_page(dataset, record.id), record.url))
    if not out:
        pytest.skip("none of the datasets compared here is present")
    return out


def _text_length_each(element):
    """text_length counted text node by text node from itertext (its plain form): the
    characters that are not spaces or newlines."""
    return sum(len(t) - t.count(" ") - t.count("\n") for t in element.itertext())


def _shown_pieces_walk(element):
    """shown_pieces as one walk over the subtree that counts the hiding elements it is
    inside (its plain form)."""
    out: set[str] = set()
    hiding = sum(map(_unshown, element.iterancestors()))
    stack: list[bool] = []
    for event, node in etree.iterwalk(element, events=("start", "end")):
        if event == "start":
            if not isinstance(node.tag, str):  # a comment's text is no text node
                stack.append(False)
                continue
            unshown = _unshown(node)
            stack.append(unshown)
            hiding += unshown
            if not hiding and node.text:
                out.add(" ".join(node.text.split()))
        else:
            hiding -= stack.pop()
            if not hiding and node.tail and node is not element:
                out.add(" ".join(node.tail.split()))
    return frozenset(out)


@pytest.fixture(scope="module")
def pages(datasets_dir):
    return _pages(datasets_dir)


def test_shown_pieces_is_the_xpath_of_shown_text(pages):
    hidden_pages = 0
    for name, html, url in pages:
        page = parse_html(html, url=url)
        body = page.root.find("body")
        top = page.root if body is None else body
        slow = frozenset(" ".join(t.split()) for t in SHOWN_TEXT_XPATH(top))
        assert shown_pieces(top) == slow, name
        hidden_pages += len(slow) < len({" ".join(t.split()) for t in top.xpath(".//text()")})
    assert hidden_pages > 10, "too few pages with unshown text to compare"


def test_same_site_shares_are_those_of_each_blocks_anchors(pages):
    compared = 0
    for name, html, url in pages:
        page = parse_html(html, url=url)
        preprocess(page)
        blocks = segment(page.root)
        host = (urlsplit(url).hostname or "").removeprefix("www.") if url else ""
        fast = same_site_shares(blocks, host)
        for b in blocks:
            hrefs = [a.get("href") for a in b.element.iter("a")]
            hrefs = [h for h in hrefs if h and not h.startswith(("#", "javascript:", "mailto:"))]
            slow = sum(_same_site_article(h, host) for h in hrefs) / len(hrefs) if hrefs else 0.0
            assert fast[b.index] == slow, (name, b.index)
            compared += bool(hrefs)
    assert compared > 1000


def test_raw_page_signals_match_their_xpath_definitions(pages):
    for name, html, url in pages:
        root = parse_html(html, url=url).root
        raw = raw_page_signals(root, url)
        og = root.xpath("string((//meta[@property='og:type'] | //meta[@name='og:type'])[1]/@content)").strip().lower()
        assert raw["og_website"] == float(og == "website"), name
        assert raw["og_article"] == float(og.startswith("article") or og == "blog"), name
        forms = len(root.xpath("//form"))
        inputs = len(root.xpath("//input[not(@type='hidden')] | //select | //textarea"))
        assert raw["forms_log"] == pytest.approx(math.log1p(forms)), name
        assert raw["inputs_log"] == pytest.approx(math.log1p(inputs)), name
        kinds = set()
        for script in root.xpath("//script[@type='application/ld+json']"):
            try:
                data = json.loads(script.text or "")
            except ValueError:
                continue
            if isinstance(data, dict) and isinstance(data.get("@type"), str):
                kinds.add(data["@type"].lower())
        if "newsarticle" in kinds or "article" in kinds:
            assert raw["ld_article"] == 1.0, name


def test_pages_without_formula_markers_hold_no_formulas(datasets_dir):
    """The parser's test (``Page.formulas``) lets pre-processing skip the formula search only on
    pages where the search finds nothing; pages with formulas are found (wcxb_dev and
    readability hold some)."""
    with_formulas = 0
    for name, html, url in _pages(datasets_dir, per=120):
        page = parse_html(html, url=url)
        found = normalise_formulas(page.root)
        if not page.formulas:
            assert found == 0, name
        with_formulas += found > 0
    assert with_formulas > 0, "no page with formulas among those compared"


def _class_names(pages):
    names = set()
    for _name, html, url in pages:
        for element in parse_html(html, url=url).root.iter():
            cls, ident = element.get("class"), element.get("id")
            if cls or ident:
                names.add(cls + " " + ident if cls and ident else cls or ident)
    return names


def test_class_evidence_is_that_of_the_readability_patterns(pages):
    """The class/id evidence (two searches per pattern on lower-cased ASCII) is what one
    case-insensitive search with each whole Readability-style pattern finds."""
    from pagesieve.blocks.features import class_evidence

    negative = re.compile(
        r"nav|menu|foot|header|masthead|sidebar|side-bar|widget|share|sharing|social|related|"
        r"recommend|promo|sponsor|advert|(?:^|[-_ ])ads?(?:$|[-_ ])|banner|breadcrumb|copyright|"
        r"comment|disqus|reply|login|signup|subscribe|newsletter|popup|modal|cookie|toolbar|"
        r"pagination|pager|tagcloud|(?:^|[-_ ])tags?(?:$|[-_ ])|skip|rss|outbrain|taboola|"
        r"most-?popular|trending|teaser|more-?stories|card|tool", re.IGNORECASE)
    positive = re.compile(
        r"article|content|(?:^|[-_ ])body|entry|(?:^|[-_ ])main|(?:^|[-_ ])post|story|(?:^|[-_ ])text|"
        r"blog|hentry|h-entry|prose|detail|paragraph", re.IGNORECASE)
    names = _class_names(pages)
    assert len(names) > 5000
    found = [0, 0]
    for name in names:
        ns, ps, _cm = class_evidence(name)
        assert (ns, ps) == (negative.search(name) is not None, positive.search(name) is not None), name
        found[0] += ns
        found[1] += ps
    assert min(found) > 100


def test_http_addresses_split_as_urlsplit_splits_them(pages):
    from urllib.parse import urlsplit

    from pagesieve.blocks.signals import _split_http

    hrefs = {"https://user@a.example:8080/p/q?z#f", "http://a.example?x=1#y/z", "https://a.example",
             "http://a.example#f/g", "https://b\u00e4.example/x", "https://[::1]/x", "HTTPS://A.example/x"}
    for _name, html, url in pages:
        hrefs.update(a.get("href") for a in parse_html(html, url=url).root.iter("a") if a.get("href"))
    fast = 0
    for href in hrefs:
        split = _split_http(href)
        if split is not None:
            parts = urlsplit(href)
            assert split == (parts.netloc, parts.path), href
            fast += 1
    assert fast > 5000


def test_hidden_candidates_hold_every_element_the_hidden_tests_find(pages):
    """Pre-processing tests for hiding only the elements its XPath lets through; on real pages
    they are exactly those of the plain selection (every element with ``hidden``, ``style`` or
    the class token) that the tests find hidden."""
    from pagesieve.page.preprocess import _NOT_HIDDEN_TESTED
    from pagesieve.page.visibility import _MAY_BE_HIDDEN_HTML, hidden_copy, is_hidden

    plain = etree.XPath("descendant-or-self::*[@hidden or @style or "
                        f"contains(concat(' ', normalize-space(@class), ' '), ' {HIDDEN_CLASS} ')]")
    found = 0
    for name, html, url in pages:
        root = parse_html(html, url=url).root
        body = root.find("body")
        shown = frozenset(shown_pieces(root if body is None else body))

        def hidden(elements):
            return [e for e in elements if e.tag not in _NOT_HIDDEN_TESTED and (is_hidden(e) or hidden_copy(e, lambda: shown))]

        fast = hidden(_MAY_BE_HIDDEN_HTML(root))
        assert fast == hidden(plain(root)), name
        found += len(fast)
    assert found > 100


def test_formula_markers_read_in_the_utf8_bytes_as_in_the_text(datasets_dir):
    """The parser's formula test on the UTF-8 bytes gives the answer of the plain test on the
    text: on dataset pages (Chinese and Greek among them), and on the cases where bytes and
    text differ (a Kelvin sign that lowers to the k of "katex", U+0130, a lone surrogate,
    capitals, a marker across a slice boundary)."""
    from pagesieve.page.formulas import _MARKER_SLICE, may_hold_formulas, utf8_may_hold_formulas

    texts = [html for _name, html, _url in _pages(datasets_dir, names=("wcxb_dev", "daniel", "zh_cwced", "readability"), per=60)]
    edge = "x" * (_MARKER_SLICE - 3)
    texts += ["\u212aatex", "<p>\u212aATEX</p>", "\u0130 mjx-cont\u0130ner", "mjx-contaİner", "a\ud800math/tex",
              "<MATH>", "MathJax", edge + "<math", edge + "katex", "\u4e2d\u6587" * 40000 + "mwe-math-element", "plain"]
    for text in texts:
        assert utf8_may_hold_formulas(text, text.encode("utf-8", errors="replace")) == may_hold_formulas(text), text[:80]
    assert any(may_hold_formulas(t) for t in texts[:-11]) and not all(may_hold_formulas(t) for t in texts[:-11])


def test_page_facts_leaves_are_leaf_texts_with_their_blocks(pages):
    """``page_facts`` reads the leaves with the leaf test inlined: the leaves of
    :func:`~pagesieve.templates.library.leaf_text` under the first block, each with the block
    found by walking up to the nearest block element."""
    from pagesieve.templates.evidence import page_facts
    from pagesieve.templates.library import leaf_text

    compared = 0
    for name, html, url in pages:
        page = parse_html(html, url=url)
        preprocess(page)
        blocks = segment(page.root)
        if not blocks:
            continue
        block_of = {b.element: b.index for b in blocks}
        slow = []
        for element in blocks[0].element.iter(etree.Element):
            text = leaf_text(element)
            if text is None:
                continue
            owner = element
            while owner is not None and owner not in block_of:
                owner = owner.getparent()
            slow.append((element.tag, text, -1 if owner is None else block_of[owner]))
        assert page_facts(blocks).leaves == slow, name
        compared += len(slow)
    assert compared > 10000


def test_commas_are_those_of_the_comma_pattern(pages):
    """The container vote counts commas with ``str.count``: the number of matches of the pattern."""
    from pagesieve.blocks.features import _COMMA_RE, _commas

    texts = ["a, b\uff0c c\u3001 d,,", "\u4e2d\u6587\uff0c\u4e2d\u6587", "", "no commas", "\uff0c" * 3]
    for _name, html, url in pages[:60]:
        page = parse_html(html, url=url)
        preprocess(page)
        texts += [b.text for b in segment(page.root)]
    for text in texts:
        assert _commas(text) == len(_COMMA_RE.findall(text)), text[:80]
    assert sum(map(_commas, texts)) > 1000


def test_node_ids_are_the_positions_in_document_order(pages):
    """A page parsed from HTML keeps its node ids beside the tree, not in it: each element's id
    is its position among the tree's nodes as parsed, and stays so after pre-processing has
    removed and moved elements (the ids a reply names are those of the page the browser holds)."""
    from pagesieve.page.model import NODE_ID_ATTR

    big = "<html><body>" + "<p>x</p>" * 9000 + "</body></html>"
    for name, html, url in [*pages[:40], ("big", big, None)]:
        page = parse_html(html, url=url)
        nodes = list(page.root.iter())
        assert [page.node_id(e) for e in nodes if isinstance(e.tag, str)] == \
            [k for k, e in enumerate(nodes) if isinstance(e.tag, str)], name
        assert not any(e.get(NODE_ID_ATTR) is not None for e in nodes), name  # nothing written into the tree
        assert page.element_by_id() == {k: e for k, e in enumerate(nodes) if isinstance(e.tag, str)}, name
        before = {e: k for k, e in enumerate(nodes)}
        preprocess(page)
        blocks = segment(page.root, positions=page.positions())
        assert [b.node_id for b in blocks] == [before.get(b.element, -1) for b in blocks], name
        assert all(b.node_id >= 0 for b in blocks), name
    assert len(nodes) > 9000
    # the page's own data-ps-id attributes are no ids of ours (an HTML page saved by a tool that wrote them)
    page = parse_html('<html><body><p DATA-PS-ID="7">a</p><div data-ps-id="1">b</div></body></html>')
    assert [page.node_id(e) for e in page.root.iter()] == [0, 1, 2, 3]
    assert page.root.find(".//p").get(NODE_ID_ATTR) is None and page.root.find(".//div").get(NODE_ID_ATTR) is None


def test_comment_mark_made_once_is_is_comment_mark(pages):
    """``comment_mark`` keeps each block's answer for the features, the page signals and the
    comment rule: the answer of ``is_comment_mark`` on the block's text, asked first or again."""
    from pagesieve.blocks.features import block_features, comment_mark, is_comment_mark

    marked = 0
    for name, html, url in pages:
        page = parse_html(html, url=url)
        preprocess(page)
        blocks = segment(page.root)
        block_features(blocks, page.title)  # fills some of the answers first
        for b in blocks:
            assert comment_mark(b) == is_comment_mark(b, b.text) == comment_mark(b), (name, b.index)
            marked += comment_mark(b)
    assert marked > 50


# ---------------------------------------------------------------------------------------------
# Fast paths of page/, article/ and rules/ (branch fast-page): each against its plain form.
# ---------------------------------------------------------------------------------------------

MAY_BE_HIDDEN_PREDICATE = etree.XPath(
    "descendant-or-self::*[@hidden"
    " or (@style and (contains(translate(@style, 'NOEHID', 'noehid'), 'none')"
    " or contains(translate(@style, 'NOEHID', 'noehid'), 'hidden')))"
    " or contains(@class, 'hidden')]"
)
DISCLOSED_PREDICATE = etree.XPath("//*[@aria-expanded or @role='tab' or self::button][@aria-controls]/@aria-controls",
                                  smart_strings=False)
LEAVES_XPATH = etree.XPath("descendant-or-self::*[not(*)]")


def test_hidden_candidates_and_disclosures_as_attribute_steps_equal_element_predicates(pages):
    from pagesieve.page.visibility import _DISCLOSED, _MAY_BE_HIDDEN_HTML

    found = disclosed = 0
    for name, html, url in pages:
        root = parse_html(html, url=url).root
        fast = _MAY_BE_HIDDEN_HTML(root)
        assert fast == MAY_BE_HIDDEN_PREDICATE(root), name
        assert _DISCLOSED(root) == DISCLOSED_PREDICATE(root), name
        found += bool(fast)
        disclosed += bool(_DISCLOSED(root))
    assert found > 10 and disclosed > 2  # the comparison saw pages that have them


def test_leaves_by_len_are_the_xpath_leaves_once_preprocessed(pages):
    from pagesieve.page.preprocess import _leaves

    for name, html, url in pages:
        page = preprocess(parse_html(html, url=url))
        assert _leaves(page.root) == LEAVES_XPATH(page.root), name
        for element in page.root.iter():  # what _leaves relies on: no other node is left
            assert isinstance(element.tag, str), name


def test_shown_pieces_as_a_multiset_difference_equal_the_walk(pages):
    """``shown_pieces`` (text nodes less those under the outermost hiding elements) gives the set
    of the walk that counts the hiding elements it is inside, for the body and for subtrees that
    may be hidden themselves."""
    from pagesieve.page.visibility import _MAY_BE_HIDDEN_HTML

    subtrees = 0
    for name, html, url in pages:
        page = parse_html(html, url=url)
        if page.formulas:
            normalise_formulas(page.root)
        body = page.root.find("body")
        top = page.root if body is None else body
        assert shown_pieces(top) == _shown_pieces_walk(top), name
        for element in _MAY_BE_HIDDEN_HTML(page.root)[:10]:
            assert shown_pieces(element) == _shown_pieces_walk(element), name
            subtrees += 1
    assert subtrees > 50


def test_byline_windows_equal_their_parenthesised_xpaths(pages):
    """The byline windows: a position predicate on the step of a forward axis counts as one on
    the parenthesised node set, and the first preceding elements read from the document's start
    are those of ``(preceding::*)[position()<=N]``, for every heading of the sampled pages."""
    from pagesieve.article import byline as md

    following = etree.XPath(f"(following::*)[position()<={md._BYLINE_WINDOW_AFTER}]")
    preceding = etree.XPath(f"(preceding::*)[position()<={md._BYLINE_WINDOW_BEFORE}]")
    descendants = etree.XPath(f"(descendant::*)[position()<={md._BYLINE_WINDOW_NO_H1}]")
    anchors = 0
    for name, html, url in pages:
        root = parse_html(html, url=url).root
        assert md._FIRST_DESCENDANTS(root) == descendants(root), name
        for anchor in list(root.iter("h1", "h2", "p"))[:20]:
            assert md._FOLLOWING(anchor) == following(anchor), name
            assert md._first_preceding(anchor, md._BYLINE_WINDOW_BEFORE) == preceding(anchor), name
            anchors += 1
    assert anchors > 500


def test_text_length_of_the_string_value_is_that_of_itertext(pages):
    """Pre-processing counts text in the XPath string value of an element; the text nodes
    ``itertext`` gives, counted one by one, add up to the same, for the root and for elements
    throughout the sampled pages (scripts, controls and ``<noscript>`` among them)."""
    from pagesieve.page.visibility import text_length

    checked = 0
    for name, html, url in pages:
        root = parse_html(html, url=url).root
        elements = [root, *root.iter("script", "style", "noscript", "button", "select", "label", "main")]
        elements += list(root.iter())[::7]
        for element in elements:
            assert text_length(element) == _text_length_each(element), name
            checked += 1
    assert checked > 5000


def test_one_walk_by_tag_gives_the_lists_of_separate_walks(pages):
    """Pre-processing sorts the elements it handles by name out of one walk; each list is the one
    a walk of its own (``iter`` with its tags) gives, on the sampled pages and on markup with
    comments, a processing instruction and Word's ``<o:p>``."""
    from pagesieve.page.html import FALLBACK_TAGS
    from pagesieve.page.preprocess import MEDIA_TAGS, REMOVED_TAGS, UNWRAPPED_TAGS, _NODES_REMOVED, _walk_by_tag

    keeping = etree.HTMLParser(remove_comments=False, remove_pis=False)
    made = etree.fromstring(
        "<html><body><!-- a --><p>x<o:p>y</o:p><?pi z?><noscript>n</noscript><noframes>f</noframes><video><p>v</p></video>"
        "<form><label>l<input></label></form><!-- b --><script>s</script></p></body></html>", keeping)
    roots = [made] + [parse_html(html, url=url).root for _name, html, url in pages]
    for root in roots:
        for nodes in ((), _NODES_REMOVED):
            walked = _walk_by_tag(root, nodes)
            assert walked.nodes == (list(root.iter(*nodes)) if nodes else [])
            assert walked.noscripts == list(root.iter(*FALLBACK_TAGS))
            assert walked.removed == list(root.iter(*REMOVED_TAGS))
            assert walked.unwrapped == list(root.iter(*UNWRAPPED_TAGS))
            assert walked.media == list(root.iter(*MEDIA_TAGS))
    walked = _walk_by_tag(made, _NODES_REMOVED)
    assert len(walked.nodes) == 3 and [e.tag for e in walked.unwrapped] == ["o:p", "form", "label"]


def test_formula_markers_found_through_math_at_every_slice_edge():
    """The byte test reads the markers that hold ``math`` from each ``math`` it finds; it answers
    as the plain text test for each marker placed across and beside the edges of the first two
    slices, with decoys (``Math.floor``, ``mathematics``) before them."""
    from pagesieve.page.formulas import FORMULA_MARKERS, _MARKER_SLICE, may_hold_formulas, utf8_may_hold_formulas

    decoy = "Math.floor(x) mathematics <mat h>"
    for marker in [*FORMULA_MARKERS, "MathJax", "<MATH", "MWE-Math-Element", "math", "mwe-math", "<mat"]:
        for edge in (_MARKER_SLICE, 2 * _MARKER_SLICE):
            for shift in range(-len(marker) - 2, 3):
                text = decoy + "x" * (edge + shift - len(decoy)) + marker + " tail"
                data = text.encode("utf-8")
                assert utf8_may_hold_formulas(text, data) == may_hold_formulas(text), (marker, edge, shift)
    assert not utf8_may_hold_formulas(decoy, decoy.encode())


def test_root_tags_repaired_in_one_scan_as_in_two(pages):
    """The parser repairs self-closed root tags and drops ``</body>``/``</html>`` in one regular
    expression scan; the bytes are those of the two scans in turn, on the sampled pages and on
    markup that packs both kinds of tag together."""
    from pagesieve.page.html import _END_OF_DOCUMENT, _ROOT_TAG_FIXES, _SELF_CLOSED_ROOT, _fix_root_tag

    def two_scans(data):
        data = _SELF_CLOSED_ROOT.sub(lambda m: b"<" + m.group(1) + (m.group(2) or b"") + b">", data)
        return _END_OF_DOCUMENT.sub(b"", data)

    made = [b"<html/><head/><body class=x/>a</body></html>b</BODY >c<body/ >", b"<HTML lang='x' />t</html>",
            b"</body\n>x<html//></body/><body></body><head a='/'/>", b"</</body>body/><</html>html/>", b"plain"]
    for data in made + [html.encode("utf-8") for _name, html, _url in pages]:
        assert _ROOT_TAG_FIXES.sub(_fix_root_tag, data) == two_scans(data)


def test_attribute_steps_find_the_elements_the_walks_acted_on(datasets_dir):
    """``unstash`` and ``link_within_article`` act on the elements found by an attribute step
    (``descendant-or-self::*/@NAME/..``); they are those of a walk over every element that have
    the attribute, in the same order, on pruned article bodies of pages with formulas and video
    players kept aside (readability, wcxb_dev), before and after the stashed elements come back."""
    from pagesieve.article.render import _WITH_ID, prune
    from pagesieve.classify.model_store import model_for
    from pagesieve.extract import analyse, classify
    from pagesieve.page.stash import _MARKED, _STASHED, MARK_ATTRIBUTE, STASH_ATTRIBUTE, unstash

    def walk(root, name):
        return [e for e in root.iter(etree.Element) if name in e.attrib]

    every = _pages(datasets_dir, names=("readability", "wcxb_dev"), per=10_000)
    chosen = [p for p in every if "katex" in p[1] or "MathJax" in p[1] or "mwe-math" in p[1]]
    chosen += [p for p in every if "youtube.com/embed" in p[1]][:20]
    stashed = marked = 0
    for name, html, url in chosen:
        page = parse_html(html, url=url)
        analysis = analyse(page)
        body = prune(analysis.blocks, classify(analysis, model_for(page)))
        for root in (page.root, body):
            assert _STASHED(root) == walk(root, STASH_ATTRIBUTE), name
            assert _MARKED(root) == walk(root, MARK_ATTRIBUTE), name
            stashed += len(_STASHED(root))
            marked += len(_MARKED(root))
        unstash(body)
        assert _WITH_ID(body) == walk(body, "id"), name
    assert stashed and marked


def test_code_block_scopes_read_through_their_classed_elements(pages):
    """``clean_code_blocks`` tests only the elements of a code block's scope that have a class; a
    walk over the scope that keeps the elements the gutter or copy tests can take finds the same,
    in the same order, for the parent of every ``<pre>`` of the sampled pages and of markup with
    a gutter, a copy button and an empty class."""
    from pagesieve.article.code import _CLASSED, _copy_control, _gutter

    made = etree.fromstring(
        "<html><body><div class='highlight'><pre class=''>x</pre><span class='lineno'>1</span>"
        "<button class='copybtn'>Copy</button><i>no class</i></div></body></html>", etree.HTMLParser())
    roots = [made] + [parse_html(html, url=url).root for _name, html, url in pages]
    scopes = 0
    for root in roots:
        for pre in root.iter("pre"):
            scope = pre.getparent()
            walked = [e for e in scope.iter() if isinstance(e.tag, str) and (_gutter(e) or _copy_control(e))]
            assert [e for e in _CLASSED(scope) if _gutter(e) or _copy_control(e)] == walked
            assert all("class" in e.attrib for e in walked) and set(walked) <= set(_CLASSED(scope))
            scopes += 1
    assert scopes > 20


# ---------------------------------------------------------------------------------------------
# Fast paths of blocks/ (branch fast-blocks): each against its plain form.
# ---------------------------------------------------------------------------------------------

def _candidate_texts(pages, limit=None):
    texts = []
    for _name, html, url in pages[:limit]:
        page = parse_html(html, url=url)
        preprocess(page)
        texts += [b.text for b in segment(page.root) if b.chars]
    return texts


def test_ascii_text_columns_read_in_bytes_are_those_of_the_patterns(pages):
    """The features read an ASCII text's tokens, stop words and punctuation in its bytes: the same
    tokens as the lower-case ASCII token pattern, the same stop words, the same punctuation count
    as the punctuation pattern."""
    from pagesieve.blocks.features import (
        _ASCII_PUNCT, _ASCII_TOKEN_RE, _ASCII_WORDS, _PUNCT_RE, STOP_WORDS, TOKEN_RE, _is_stop_bytes,
    )

    all_bytes = "".join(map(chr, range(128)))
    texts = [t for t in _candidate_texts(pages) if t.isascii()] + [all_bytes, all_bytes.upper(), "A-B_c9 D.E"]
    assert len(texts) > 5000
    for text in texts:
        raw = text.encode()
        tokens = raw.translate(_ASCII_WORDS).split()
        assert [t.decode() for t in tokens] == _ASCII_TOKEN_RE.findall(text.lower()) == TOKEN_RE.findall(text.lower()), text[:80]
        assert sum(map(_is_stop_bytes, tokens)) == sum(t in STOP_WORDS for t in _ASCII_TOKEN_RE.findall(text.lower()))
        assert len(raw) - len(raw.translate(None, _ASCII_PUNCT)) == len(_PUNCT_RE.findall(text)), text[:80]


def test_word_pattern_is_the_token_pattern_on_text_without_cjk(pages):
    """Text without CJK characters is tokenised with the word pattern: lower-casing makes no CJK
    character of any other code point (every one checked), and the two patterns give the same
    tokens on such text."""
    import sys

    from pagesieve.blocks.features import _CJK_RE, _WORD_RE, TOKEN_RE

    for code in range(sys.maxunicode + 1):
        c = chr(code)
        if not _CJK_RE.match(c):
            assert _CJK_RE.search(c.lower()) is None, hex(code)
    texts = [t for t in _candidate_texts(pages) if not t.isascii() and _CJK_RE.search(t) is None]
    texts.append("".join(chr(c) for c in range(0x3000) if not 0xD800 <= c < 0xE000))
    assert len(texts) > 200
    for text in texts:
        assert _WORD_RE.findall(text.lower()) == TOKEN_RE.findall(text.lower()), text[:80]


def _segment_by_events(root):
    """The blocks' own pieces and counts by the definition: a walk with start and end events, each
    element's text placed when it opens and its tail when it closes, in the block of the nearest
    enclosing block element."""
    from pagesieve.blocks.segment import BLOCK_TAGS

    body = root.find("body") if root.tag == "html" else None
    top = body if body is not None else root
    rows = {top: [-1, 1 if body is not None else 0, [], 0, 0, 0, 0, 0, top.tag == "pre"]}
    order = [top]
    stack = []

    def place(key, text, in_link):
        row = rows[key]
        row[2].append(text)
        n = len(" ".join(text.split()))
        row[3] += n
        row[4] += n if in_link else 0

    for event, element in etree.iterwalk(top, events=("start", "end")):
        if event == "end":
            owner, in_link, _depth, _pre = stack.pop()
            if element is not top and element.tail:
                place(stack[-1][0], element.tail, stack[-1][1])
            continue
        owner, in_link, depth, in_pre = stack[-1] if stack else (top, False, rows[top][1] - 1, rows[top][8])
        if not isinstance(element.tag, str):
            stack.append((owner, in_link, depth, in_pre))
            continue
        depth += 1
        in_pre = in_pre or element.tag == "pre"
        if element is not top and element.tag in BLOCK_TAGS:
            rows[element] = [order.index(owner), depth, [], 0, 0, 0, 0, 0, in_pre]
            order.append(element)
            owner = element
        elif element is not top:
            rows[owner][5] += 1
            rows[owner][6] += element.tag == "a"
            rows[owner][7] += element.tag == "img"
            in_link = in_link or element.tag == "a"
        stack.append((owner, in_link, depth, in_pre))
        if element.text:
            place(owner, element.text, in_link)
    return [(e, *rows[e]) for e in order]


def test_segment_places_each_tail_as_the_event_walk_does(pages):
    """``segment`` walks the tree with one event per element and places each tail once the walk
    has left its element's subtree: the blocks, their own pieces in order and their counts are
    those of a walk with start and end events, on pre-processed pages and on raw ones (which keep
    their comments and processing instructions)."""
    raw = "<html><body><div>a<!-- c -->b<?pi x?>c<p>d<a>e<b>f</b>g</a>h</p>i<pre>j<i>k</i></pre></div>l</body></html>"
    for name, html, url in [*pages, ("raw", raw, None)]:
        for pre_process in (True, False):
            page = parse_html(html, url=url)
            if pre_process:
                preprocess(page)
            blocks = segment(page.root)
            fast = [(b.element, b.parent, b.depth, b.pieces, b.chars, b.link_chars, b.inline_tags, b.links, b.images, b.pre)
                    for b in blocks]
            assert fast == _segment_by_events(page.root), (name, pre_process)


def test_byline_test_is_the_byline_pattern(pages):
    """``is_byline`` matches the byline pattern's two alternatives apart and looks for the second
    only in a text holding "author" once lower-cased: no character but the letters of "about the
    author" themselves matches them without regard to case (every code point checked), and the
    answers are those of the whole pattern."""
    import sys

    from pagesieve.blocks.signals import BYLINE_RE, is_byline

    letter = re.compile("[abouther]", re.IGNORECASE)
    for code in range(sys.maxunicode + 1):
        c = chr(code)
        if letter.fullmatch(c):
            assert c.lower() in "abouther", hex(code)
    texts = _candidate_texts(pages) + ["ABOUT THE AUTHOR", "About the Author:", "  By Jane", "bylines", "Written by",
                                        "more about the authors", "x about the author", "Posted by\u00a0me"]
    found = 0
    for text in texts:
        assert is_byline(text) == (BYLINE_RE.search(text) is not None), text[:80]
        found += is_byline(text)
    assert found > 50


def test_same_site_article_is_that_of_urlsplit_and_the_path_segments(pages):
    """``_same_site_article`` splits ``http(s)`` addresses by hand and counts the path's segments
    from its stripped pieces: the answers of ``urlsplit`` and of the list of non-empty segments
    (addresses that urlsplit rejects are no article on either side)."""
    from pagesieve.blocks.signals import _same_site_article

    def plain(href, host):
        parts = urlsplit(href) if not (href[0] == "/" and not href.startswith("//")) else urlsplit("http://" + host + href)
        if parts.netloc and parts.netloc.lower().removeprefix("www.") != host:
            return False
        segments = [s for s in parts.path.split("/") if s]
        return len(segments) >= 2 or bool(segments and "-" in segments[-1])

    hrefs = {"/", "//", "/a", "/a-b", "/a/b", "/a//", "//x.example/a/b", "/a/?x/y", "/a#b/c", "http://x.example",
             "https://x.example?x/y", "http://x.example#a/b-c", "https://www.x.example/a-b", "https://y.example/a/b"}
    for _name, html, url in pages:
        hrefs.update(a.get("href") for a in parse_html(html, url=url).root.iter("a") if a.get("href"))
    hosts = ("x.example", *sorted({(urlsplit(url).hostname or "").removeprefix("www.") for _n, _h, url in pages if url}))
    compared = articles = 0
    for href in hrefs:
        if any(c in href for c in "\t\r\n"):
            continue  # urlsplit removes them from the path, the fast path for "/..." keeps them
        for host in hosts[:3]:
            try:
                expected = plain(href, host)
            except ValueError:
                expected = False
            assert _same_site_article(href, host) == expected, (href, host)
            compared += 1
            articles += expected
    assert compared > 10000 and articles > 1000


def test_cjk_text_columns_are_those_of_the_token_list(pages):
    """In text with CJK characters the features count the CJK characters and the words between them
    instead of listing every token: lower-casing keeps every CJK character (every one checked), and
    the token count, stop words and title overlap are those of the token pattern's list."""
    from pagesieve.blocks.features import _CJK_RE, _NON_CJK_WORD_RE, STOP_WORDS, TOKEN_RE

    for block in ((0x3040, 0x3100), (0x3400, 0x4DC0), (0x4E00, 0xA000), (0xF900, 0xFB00), (0xAC00, 0xD7B0)):
        for code in range(*block):
            assert chr(code).lower() == chr(code), hex(code)
    texts = [t for t in _candidate_texts(pages) if _CJK_RE.search(t)] + ["中文Abc, the 字 of-x_y 한국어 カタカナ"]
    assert len(texts) > 500
    for title in ("中文标题 新闻 the ABC 字", "", "only words here", "字"):
        title_tokens = set(TOKEN_RE.findall(title.lower())) - STOP_WORDS
        title_cjk = [t for t in title_tokens if _CJK_RE.match(t)]
        title_words = title_tokens.difference(title_cjk)
        for text in texts:
            lower = text.lower()
            tokens = TOKEN_RE.findall(lower)
            words = _NON_CJK_WORD_RE.findall(lower)
            assert len(_CJK_RE.findall(text)) + len(words) == len(tokens), text[:80]
            assert sum(w in STOP_WORDS for w in words) == sum(t in STOP_WORDS for t in tokens)
            assert len(title_words.intersection(words)) + sum(c in lower for c in title_cjk) == \
                len(title_tokens.intersection(tokens)), (title, text[:80])


def _teaser_drops_reading_every_run(blocks, keep, url, page_type):
    """drop_teaser_runs's drops with every run outside the body read (its plain form, before the
    runs holding no kept block were left unread)."""
    from pagesieve.blocks.segment import subtree_ends
    from pagesieve.blocks.signals import main_text_run
    from pagesieve.rules.teasers import BODY_MIN_CHARS, is_article, teaser_runs

    keep = list(keep)
    if not blocks or not is_article(page_type):
        return keep
    first, last = main_text_run(blocks)
    if sum(blocks[i].chars for i in range(first, last + 1) if keep[i]) < BODY_MIN_CHARS:
        return keep
    ends = subtree_ends(blocks)
    outside = lambda m: m[0] > last or ends[blocks[m[0]].parent] < first  # noqa: E731
    for _members, led in teaser_runs(blocks, url, considered=outside):
        for m in led:
            for i in range(m, ends[m] + 1):
                keep[i] = False
    return keep


TEASER_PAGES = (("wcxb_dev", "0046"), ("dragnet", "R168"), ("dragnet", "R170"),
                ("l3s_gn1", "2b08c951-2408-402f-98d2-d65d50abd0e5"))
"""Pages on which the teaser rule drops teasers (found by running it over the first 200 pages of
wcxb_dev, dragnet and l3s_gn1: these four)."""


def test_teaser_runs_with_nothing_kept_are_left_unread_for_the_same_drops(pages, datasets_dir):
    from pagesieve_dev.evaluation.datasets import load_dataset, read_page
    from pagesieve.extract import analyse, model_rows
    from pagesieve.classify.model_store import model_for
    from pagesieve.classify.context import tree_arrays
    from pagesieve.rules.teasers import drop_teaser_runs

    chosen = []
    for name, page_id in TEASER_PAGES:
        if (datasets_dir / name).is_dir():
            dataset = load_dataset(datasets_dir / name)
            chosen.append((f"{name}/{page_id}", read_page(dataset, page_id), dataset.record(page_id).url))
    judged = 0
    for name, html, url in [*pages, *chosen]:
        page = parse_html(html, url=url)
        model = model_for(page)
        analysis = analyse(page)
        if not analysis.candidates:
            continue
        rows = model_rows(analysis, model)
        is_content, *_ = model.verdict(tree_arrays(analysis.blocks), analysis.candidates, rows, analysis.page_type)
        keep = [False] * len(analysis.blocks)
        for i, flag in zip(analysis.candidates, is_content):
            keep[i] = bool(flag)
        plain = _teaser_drops_reading_every_run(analysis.blocks, keep, url, analysis.page_type)
        dropped = drop_teaser_runs(analysis.blocks, keep, url, analysis.page_type)
        assert keep == plain, name
        judged += dropped > 0
    assert judged >= 3  # pages on which the rule dropped teasers
