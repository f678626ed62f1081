"""Which elements of a page a reader does not see: the invisible elements that pre-processing
removes (Yang, Li & Geng 2015, seed 004 §2.2 (a); :func:`pagesieve.page.preprocess.preprocess`),
found by :func:`invisible_elements`.

Invisible means, for HTML pages: the ``hidden`` attribute or an inline style with
``display:none`` / ``visibility:hidden`` (stylesheets are not evaluated: only a browser can),
and the second copy of text the page shows elsewhere, hidden by the utility class ``hidden``
(:func:`hidden_copy`); except on the page's main region, which scripts reveal
(:func:`revealed_by_script`), on a wrapper that holds nearly the whole page
(:func:`wraps_page`), where the hidden parts hold nearly the whole page together
(:func:`hides_page`), and in the panels that a disclosure button opens
(:func:`disclosure_panel`). For snapshots the browser's rendering is used: an element without
a layout box is not shown (:class:`~pagesieve.page.model.NodeStyle`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from functools import cache

from lxml import etree

from pagesieve.page.model import NODE_ID_ATTR, Page


_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


_MAY_BE_HIDDEN = etree.XPath("descendant-or-self::*[@hidden or @style]")
"""Elements that :func:`is_hidden` can find hidden on a page without computed styles."""

_CODE_TAGS = ("script", "style", "template")
"""Elements whose text no reader sees (:func:`readable_length`)."""

HIDDEN_CLASS = "hidden"
"""The utility class whose whole rule is ``display: none``: Tailwind CSS's ``.hidden``, and
Bootstrap 3's (with ``!important``)."""

_HAS_HIDDEN_CLASS = "contains(concat(' ', normalize-space(@class), ' '), ' hidden ')"

_MAY_BE_HIDDEN_HTML = etree.XPath(
    "(descendant-or-self::*/@hidden"
    " | descendant-or-self::*/@style[contains(translate(., 'NOEHID', 'noehid'), 'none')"
    " or contains(translate(., 'NOEHID', 'noehid'), 'hidden')]"
    " | descendant-or-self::*/@class[contains(., 'hidden')])/.."
)
"""Elements that :func:`is_hidden` or :func:`hidden_copy` can find hidden on an HTML page, in
document order: a ``hidden`` attribute, a style that says "none" or "hidden" somewhere (what
:data:`_HIDDEN_STYLE` needs), a class holding "hidden" (what :data:`HIDDEN_CLASS` needs). The
tests within libxml2 leave to Python a third of the elements that ``@style`` alone let through
(5,521 of 17,739 on 480 dataset pages).

Written as the parents of the attributes that pass, not as a predicate on each element
(``descendant-or-self::*[@hidden or (@style and ...) or contains(@class, 'hidden')]``, which
the tests compare it with): a predicate makes node sets for every element, a name step on the
attribute axis makes none, and ``/..`` gives the parents sorted and deduplicated. 1.19 -> 0.59
ms a page on 240 dataset pages (interleaved in one process, three rounds, 2026-11-26)."""

_SHOWN_AT_WIDTH = re.compile(
    r"(?:[a-z0-9-]+:)+(?:block|inline|inline-block|flex|inline-flex|grid|inline-grid|table|table-row|table-cell"
    r"|contents|flow-root|list-item)"
)
"""A Tailwind class that gives the element a display from some screen width on (``lg:block``,
``md:flex``): beside it, ``hidden`` hides the element on narrow screens only."""

_IN_CODE = " or ".join(f"ancestor::{tag}" for tag in _CODE_TAGS)

_TEXT_UNDER = etree.XPath(f".//text()[not({_IN_CODE})]")
"""The text nodes under an element, code left out."""

COPY_PIECE_MIN_CHARS = 20
"""Text nodes shorter than this (white space collapsed) are left out of :func:`hidden_copy`'s
comparison: "Share", "Read more" and dates recur on any page."""

COPY_SHARE = 0.5
"""Share of a hidden element's text (in text nodes of at least :data:`COPY_PIECE_MIN_CHARS`)
that must be shown elsewhere on the page for the element to be a copy (:func:`hidden_copy`)."""

FLOW_TAGS = (
    "div", "p", "section", "article", "main", "header", "footer", "nav", "aside", "ul", "ol", "li", "dl",
    "table", "blockquote", "pre", "figure", "h1", "h2", "h3", "h4", "h5", "h6",
)
"""Block-level elements that no control holds in well-nested HTML (looked for by
:func:`pagesieve.page.preprocess.swallows_page`), and that a page's region holds
(:func:`revealed_by_script`, :func:`wraps_page`)."""

REVEALED_SHARE = 0.9
"""Share of the readable text of the page's ``<main>`` from which an element hidden inside it
is taken for the main region itself (:func:`revealed_by_script`)."""


_STRING_VALUE = etree.XPath("string()", smart_strings=False)
"""The string value of an element: its descendant text nodes joined, in document order (XPath
1.0 §5.2), what ``"".join(element.itertext())`` joins."""


def text_length(element: etree._Element) -> int:
    """Characters of text under ``element`` that are not white space.

    Counted in the string value made within libxml2 (one string for the subtree) rather than
    text node by text node from ``itertext`` (which ``tests/test_fast_paths.py`` compares it
    with): 3.8x faster on the elements pre-processing measures (the body, controls,
    ``<noscript>``), which made 0.68 ms a page of pre-processing on 320 dataset pages."""
    text = _STRING_VALUE(element)
    return len(text) - text.count(" ") - text.count("\n")


def readable_length(element: etree._Element) -> int:
    """Non-white characters of the text under ``element`` outside scripts, style sheets and
    templates (what :func:`text_length` counts, less the source code a page carries)."""
    total = text_length(element)
    code = list(element.iterdescendants(*_CODE_TAGS))
    if code:
        inside = set(code)
        for e in code:
            if not any(a in inside for a in e.iterancestors(*_CODE_TAGS)):  # counted once, by its outermost
                total -= text_length(e)
    return total


def wraps_page(element: etree._Element, body_chars: Callable[[], int]) -> bool:
    """True if ``element``, hidden by its markup (:func:`is_hidden`), holds block-level elements
    (:data:`FLOW_TAGS`) and at least :data:`REVEALED_SHARE` of the readable text of the page's
    body, which ``body_chars()`` counts (:func:`readable_length`, called only when the element's
    own text could pass: rarely).

    A page whose markup hides nearly all of itself shows it from a script once it has loaded:
    anti-flicker wrappers such as the ``<div style="visibility:hidden;min-height:100vh">`` around
    the whole of wcxb_dev/4020 (geeksforgeeks.org), which came out empty (trafilatura 0.93). What
    the wrapper leaves outside (at most a tenth of the text) cannot be the page a reader reads. A
    browser snapshot has run the scripts, so this only concerns pages read as HTML. Over every
    page of the eight shared datasets, 4020 is the only one it changes (word F1 0.00 -> 0.96);
    the hidden parts inside the wrapper are still removed.
    """
    if next(element.iterdescendants(*FLOW_TAGS), None) is None:
        return False
    least = REVEALED_SHARE * body_chars()
    return least > 0 and text_length(element) >= least and readable_length(element) >= least


def hides_page(hidden: list[etree._Element], body_chars: Callable[[], int]) -> bool:
    """True if the elements of ``hidden`` (those the markup hides, in document order) hold
    together at least :data:`REVEALED_SHARE` of the readable text of the page's body
    (``body_chars()``, :func:`readable_length`; an element inside another is counted once).
    Then :func:`pagesieve.page.preprocess.preprocess` removes none of them.

    Some pages hide their parts one by one and show each from a script once it has loaded:
    eBay's category pages put every module in its own ``<div id="afbrwwebN"
    style="display:none">`` (wcxb_dev/0658), a shop's product page its description and
    reviews (wcxb_dev/0631, iherb.com). No one of them holds the page, so
    :func:`wraps_page` does not find them; read as HTML, deleting them all left a page whose
    text was the header's menu: word F1 0.00 and 0.03 (trafilatura 0.77 and 0.78), 0.15 and 0.55
    with them kept. What is shown is at most a tenth of the text, and cannot be what a reader
    came for. A browser snapshot has run the scripts, so this only concerns pages read as
    HTML. Over every page of the eight shared datasets these are the only two it changes. Dev
    gate (``pagesieve-dev eval --cv 5 wcxb_dev``, the shipped configuration, 2026-12-06), this
    and :func:`wraps_page` together: 0.8589 -> 0.8594; held-out gate wcxb_dev +0.0002, the
    others unchanged.
    """
    if not hidden:
        return False
    inside = set(hidden)
    total = sum(
        readable_length(e) for e in hidden if not any(a in inside for a in e.iterancestors())
    )
    least = REVEALED_SHARE * body_chars()
    return least > 0 and total >= least


def revealed_by_script(element: etree._Element, main_chars: Callable[[etree._Element], int] = readable_length) -> bool:
    """True if ``element``, hidden by its markup (:func:`is_hidden`), is the page's main region:
    it is or holds every ``<main>`` element of the page, or it sits in ``<main>`` and holds at least
    :data:`REVEALED_SHARE` of main's readable text (``main_chars(main)``, see
    :func:`readable_length`).

    ``<main>`` is "the dominant contents of the document" (HTML Living Standard §4.4.14); a page
    that hides it in its markup shows it from a script, once it has loaded: access-control and
    anti-flicker snippets of shop platforms, such as the ``easylockdown-content`` wrapper of
    wcxb_dev/0583, whose whole product description sat in ``<div style="display:none">`` under
    ``<main>`` (F1 0.03, trafilatura 0.71). A browser snapshot has run the scripts, so this only
    concerns pages read as HTML. Of the 2,024 held-out pages (``pagesieve-dev eval``), it is the
    only one this rule changes.

    Dev gate (the 2026-11-25 model's configuration, ``--cv-variants all+balanced@0.4``, rule
    removed): wcxb_dev CV 0.8478 without, 0.8488 with (+0.0010; article +0.002, product
    +0.008, collection -0.004, listing -0.016).
    """
    if element.tag == "main" or next(element.iterdescendants("main"), None) is not None:
        # unless another <main> is the one shown: a page may hold several, all but one hidden
        # (the views of a single-page application, HTML Living Standard §4.4.14)
        root = element.getroottree().getroot()
        return all(m is element or any(a is element for a in m.iterancestors()) for m in root.iter("main"))
    main = next(element.iterancestors("main"), None)
    if main is None or next(element.iterdescendants(*FLOW_TAGS), None) is None:
        return False
    return readable_length(element) >= REVEALED_SHARE * main_chars(main)


_UNSHOWN_TAGS = frozenset(_CODE_TAGS) | {"noscript", "textarea"}
"""Elements whose text a reader does not see (:func:`shown_pieces`)."""

_XPATH_SPACE = str.maketrans("\t\n\r", "   ")
"""The white space of XPath's ``normalize-space`` besides the space (XPath 1.0 §4.2)."""


def _has_hidden_class(element: etree._Element) -> bool:
    """True if the class attribute of ``element`` holds the token :data:`HIDDEN_CLASS`, with the
    white space of XPath's ``normalize-space`` as separators (as :data:`_HAS_HIDDEN_CLASS`)."""
    value = element.get("class")
    return value is not None and HIDDEN_CLASS in value and f" {HIDDEN_CLASS} " in f" {value.translate(_XPATH_SPACE)} "


def _unshown(element: etree._Element) -> bool:
    """True if no text under ``element`` is shown (:func:`shown_pieces`)."""
    return element.tag in _UNSHOWN_TAGS or element.get("hidden") is not None or _has_hidden_class(element)


_TEXT_NODES = etree.XPath("descendant::text()", smart_strings=False)
"""The text nodes under an element (not its tail), document order, as plain strings."""

_MAY_HIDE_TEXT = etree.XPath("(descendant-or-self::*/@hidden | descendant-or-self::*/@class[contains(., 'hidden')])/..")
"""Elements that may hide their text by attribute or class (:func:`_unshown` decides), document
order; the tags of :data:`_UNSHOWN_TAGS` are found by name."""


def shown_pieces(element: etree._Element) -> frozenset[str]:
    """The text nodes under ``element`` that a reader may see, each with its white space collapsed
    to single spaces, as a set: none in code, in a ``<noscript>`` (scripts run in the browser), in
    a ``<textarea>``, or under an element (``element``'s ancestors too) hidden by its attribute or
    by :data:`HIDDEN_CLASS`.

    The same set as the XPath ``.//text()[not(ancestor::script or ancestor::style or
    ancestor::template or ancestor::noscript or ancestor::textarea or ancestor::*[@hidden] or
    ancestor::*[HIDDEN CLASS])]`` (the tests compare them on dataset pages), whose ancestor tests
    ran for every text node, and as a walk over the subtree that counts the hiding elements it is
    inside (written out in ``tests/test_fast_paths.py``). Made as a multiset difference within libxml2's reach: the
    text nodes under ``element``, less those under each outermost hiding element (its tail stays),
    found by tag name and by attribute steps. On the 22 of 320 sampled pages that need it, 6 ms
    a call walking.
    """
    if any(map(_unshown, element.iterancestors())):
        return frozenset()
    hiding = [e for e in _MAY_HIDE_TEXT(element) if _unshown(e)]
    hiding += element.iter(*_UNSHOWN_TAGS)
    texts = Counter(_TEXT_NODES(element))
    if hiding:
        inside = set(hiding)
        for e in inside:
            if e is element:
                return frozenset()
            if not any(a in inside for a in e.iterancestors()):  # an outermost one
                texts.subtract(_TEXT_NODES(e))
    return frozenset(" ".join(t.split()) for t, n in texts.items() if n > 0)


def hidden_copy(element: etree._Element, shown: Callable[[], frozenset[str]]) -> bool:
    """True if ``element`` is hidden by the class :data:`HIDDEN_CLASS` (and by no Tailwind
    class shown from some width on, :data:`_SHOWN_AT_WIDTH`) and is a copy of what the page
    shows: at least :data:`COPY_SHARE` of its text, counted in text nodes of at least
    :data:`COPY_PIECE_MIN_CHARS`, is in text nodes the page shows, ``shown()``
    (:func:`shown_pieces` of the body). Whole text nodes are compared, so the test costs one
    set lookup per text node, however many such elements a page has.

    Pages read as HTML keep the variants that the site's style sheet or scripts choose from: the
    article of online.wsj.com comes twice, once in ``<div class="... recipeCShopAndBuy
    hidden">`` and once shown, and its video tab holds a third excerpt, so the extracted text
    repeated the article (dragnet/212: F1 0.665). A browser snapshot knows what is rendered, so
    this only concerns pages read as HTML. An element hidden by the class whose text is nowhere
    else is kept, as Mozilla Readability keeps it (it reads inline styles and the ``hidden``
    attribute only): answers of a collapsed FAQ (wcxb_dev/0713) and tab panels a click shows.
    Dropping every element with the class instead lost that FAQ (wcxb_dev 0.8656 -> 0.8637).

    Measured on the held-out pages with the shipped model (``pagesieve-dev eval``): dragnet 0.9223
    -> 0.9293 (online.wsj.com and www.washingtonpost.com); big9, cleaneval, daniel, l3s_gn1,
    wcxb_dev, zh_cwced and readability unchanged to four decimals.

    Dev gate (the 2026-11-25 model's configuration, ``--cv-variants all+balanced@0.4``, rule
    removed): wcxb_dev CV 0.8453 without, 0.8488 with (+0.0035; listing +0.017, product +0.007,
    collection +0.006).
    """
    tokens = (element.get("class") or "").split()
    if HIDDEN_CLASS not in tokens or any(_SHOWN_AT_WIDTH.fullmatch(t) for t in tokens):
        return False
    pieces = [" ".join(t.split()) for t in _TEXT_UNDER(element)]
    pieces = [p for p in pieces if len(p) >= COPY_PIECE_MIN_CHARS]
    total = sum(map(len, pieces))
    if not total:
        return False
    pieces_shown = shown()
    copied = sum(len(p) for p in pieces if p in pieces_shown)
    return copied >= COPY_SHARE * total


_DISCLOSED = etree.XPath("//@aria-controls[../@aria-expanded or ../@role='tab' or local-name(..)='button']", smart_strings=False)
"""The ``aria-controls`` values of the page's disclosure buttons and tabs (:func:`disclosed_ids`),
document order: those of the elements that have ``aria-expanded`` too, are a ``role="tab"`` or are
a ``<button>``. A name step on the attribute axis,
where ``//*[@aria-expanded][@aria-controls]/@aria-controls`` tested every element (the tests
compare the two): 0.34 -> 0.10 ms a page on 240 dataset pages."""


def disclosed_ids(root: etree._Element) -> frozenset[str]:
    """The ids of the elements that a disclosure control or a tab of the page shows and hides:
    every id named by the ``aria-controls`` of an element that has ``aria-expanded`` (WAI-ARIA
    1.2, ``aria-expanded``: "indicates whether ... the element it controls, is expanded"; the
    Disclosure and Accordion patterns of the WAI-ARIA Authoring Practices) or that is a
    ``role="tab"`` (the Tabs pattern: "each element with role tab has the property
    aria-controls referring to its associated tabpanel element") or that is a ``<button>``
    (a button that names what it controls shows or hides it; a combobox, whose ``aria-controls``
    names its list box, is an ``<input>``). Made in one XPath inside libxml2; empty on most pages.

    Buttons since 2026-12-08 (issue 62): an accordion whose buttons keep their state in
    ``data-expanded`` rather than ``aria-expanded`` hid a course page's five sections on the
    HTML route (wcxb_dev/0117, F1 0.77 -> 0.92). Class of pages: disclosure widgets whose
    buttons name their panels but not their state. Every page of the eight datasets: that page
    alone changed; held-out gate wcxb_dev 0.870344 -> 0.870557. Dev gate (``eval wcxb_dev --cv
    5``, the 2026-12-08 variants), with the namespaced panel class of :data:`PANEL_CLASS` and
    the notices' order of :func:`pagesieve.extract.settle`, all three left out: 0.8658, with
    them 0.8659, inside the spread its folds' retraining gives when training pages change
    (one page is 0.0007 of it at most); the shipped model on its 1,476 pages 0.8778 -> 0.8785.

    Tabs since 2026-12-07 (issue 62). A tab's panel is the page's content one click away, as
    an accordion section's is; read as HTML, the hidden panels went: uber.com's driver
    insurance page lost its FAQ, three of four tabs (wcxb_dev/0242, F1 0.66 -> 0.98; trafilatura
    0.99), and Microsoft Learn's per-system install steps (4411, 0.87 -> 0.98). Every page of
    the eight datasets (``pagesieve-dev eval --split all``): 11 changed, all wcxb_dev, summed F1
    +0.53 (5 up; down: a shop's size tab 0600 -0.11, Sweetwater's "Why Sweetwater" tab 2893
    -0.05). Held-out gate wcxb_dev 0.868148 -> 0.868609, the other sets unchanged, mean
    0.940666 -> 0.940723. Dev gate (``eval wcxb_dev --cv 5 --cv-variants
    'all+balanced@0.4/0.3:collection+listing/0.45:article'``, the training pages' panels kept
    too): 0.8626 -> 0.8654; its per-type moves (listing +0.029, collection +0.015, service
    -0.008) are larger than what 11 changed pages can make, the retrained folds' own spread. A
    combobox's list box (``aria-controls`` alone) is still no panel."""
    ids: set[str] = set()
    for value in _DISCLOSED(root):
        ids.update(value.split())
    return frozenset(ids)


PANEL_CLASS = re.compile(
    r"(?:^|\s)(?:[a-z0-9]+[-_]+)?(?:tab[-_]?pane|tab[-_]?panel|tab__content|tabs?__panel"
    r"|accordion[-_]+(?:panel|content|body|collapse|item__content)|faq[-_]+answer|faq__content)(?:\s|$)",
    re.IGNORECASE,
)
"""Class words that name an element the panel of a tab or of an accordion section, or the
answer of a FAQ: Bootstrap's ``tab-pane`` and ``accordion-collapse``/``accordion-body``, the
BEM forms (``tab__content``, ``faq__answer``), also after a namespace prefix (BEM's and ITCSS's
``c-`` for a component, ``js-``, a theme's own: ``c-accordion__panel``; with it, every page of
the eight datasets, 2026-12-08: one changed, wcxb_dev/4287, a training page, F1 0.84 -> 0.95;
dev gate as in :func:`disclosed_ids`).
Not Bootstrap's ``collapse`` alone, which hides a navigation bar's menu as well
(``navbar-collapse collapse``)."""


def names_a_panel(element: etree._Element) -> bool:
    """True if ``element`` says by itself that it is a panel a click shows: a
    ``role="tabpanel"`` (WAI-ARIA Authoring Practices, Tabs: the panel names its tab with
    ``aria-labelledby``), a ``role="region"`` labelled by its heading's button (Accordion: "each
    element that serves as a container for panel content has role region and aria-labelledby
    ..."), or a class word of :data:`PANEL_CLASS`.

    Measured and left out: the element right after a heading that holds a button (the
    Accordion pattern's header). It changed one page of the eight datasets, a training page
    (0.83 -> 0.93 with the shipped model), and the dev gate not at all (0.8654 with and
    without, article pages 0.9531 both): no cross-validated gain."""
    role = element.get("role")
    if role == "tabpanel" or (role == "region" and element.get("aria-labelledby")):
        return True
    cls = element.get("class")
    return bool(cls) and PANEL_CLASS.search(cls) is not None


def disclosure_panel(element: etree._Element, panels: Callable[[], frozenset[str]]) -> bool:
    """True if ``element``, hidden by its markup (:func:`is_hidden`), is the panel of a
    disclosure control or of a tab: it says so itself (:func:`names_a_panel`), or it, or the
    chain of single child elements it wraps, has an id in ``panels()`` (:func:`disclosed_ids`,
    called only when the page has hidden elements).

    Panels that say so themselves since 2026-12-07 (issue 62). The Tabs pattern links tab and
    panel from either side, and Twilio's Paste tabs give the link to the panel alone
    (``aria-labelledby``), so no tab's ``aria-controls`` named it; its quickstart lost every
    language but the first (wcxb_dev/0681, F1 0.24 -> 0.97; trafilatura 0.83). By role alone
    (``tabpanel``), every page of the eight datasets: 6 changed, all wcxb_dev, summed F1 +0.78
    (5 up; 2968 -0.03); held-out gate wcxb_dev 0.868609 -> 0.869651, mean 0.940723 -> 0.940853.
    With accordion regions and the class words of :data:`PANEL_CLASS` too: 9 more pages, +1.46
    (an accordion of regions, 4193, 0.46 -> 0.99; Bootstrap's tab panes of a product page,
    4026, 0.71 -> 0.95, and of Newegg's specifications, 2890, 0.64 -> 0.83; a FAQ's answers,
    0132, 0.43 -> 0.83; two pages -0.008 and -0.001); held-out gate wcxb_dev 0.869651 ->
    0.870375, l3s_gn1 +0.00002, mean 0.940853 -> 0.940946. Dev gate (as in
    :func:`disclosed_ids`): 0.8654 by role alone, 0.8626 with tabs alone before it, 0.8654 with
    everything; the shipped model on its 1,476 pages 0.8755 -> 0.8761 -> 0.8770 (this last
    figure with the heading rule that :func:`names_a_panel` measured and left out).

    A collapsed accordion section ("Description", "Dimensions & Materials", "Safety, Care, and
    Use") is content the page holds for the reader, shown by one click on its button, as a
    ``<details>`` element's is; read as HTML, deleting the hidden panels deleted the description
    of a product page (wcxb_dev/0607, Chakra UI's ``<div class="chakra-collapse"
    style="display:none">`` around ``<div role="region" id="accordion-panel-...">``: F1 0.51,
    trafilatura 0.74). Kept, the classifier judges its blocks as any others (0.78). A browser
    snapshot sends no unrendered content, so this only concerns pages read as HTML. Of all
    3,587 pages of the eight datasets (``pagesieve-dev eval --split all``), it changes two: 0607,
    and wcxb_dev/4063 (0.996 -> 0.986: PubMed Central's collapsed author affiliations, which its
    truth leaves out); held-out macro F1 is unchanged to four decimals on every dataset. A panel
    that is a copy of text the page shows (:func:`hidden_copy`) still goes.

    Dev gate (the 2026-11-25 model's configuration, ``--cv-variants all+balanced@0.4``, rule
    removed): wcxb_dev CV 0.8486 without, 0.8488 with (+0.0002: service +0.006, listing +0.004,
    article +0.001, product -0.012, collection -0.004). A rule of the WAI-ARIA disclosure
    pattern, not of one page; its gain across the dev split is small.
    """
    if names_a_panel(element):
        return True
    ids = panels()
    if not ids:
        return False
    node = element
    while True:
        ident = node.get("id")
        if ident is not None and ident in ids:
            return True
        children = [child for child in node if isinstance(child.tag, str)]
        if len(children) != 1:
            return False
        node = children[0]


def is_hidden(element: etree._Element, styles: dict | None = None) -> bool:
    """True if ``element`` is invisible (see the module docstring for the rules)."""
    if element.get("hidden") is not None:
        return True
    style = element.get("style")
    if style and _HIDDEN_STYLE.search(style):
        return True
    if styles is not None:
        node_id = element.get(NODE_ID_ATTR)
        if node_id is not None:
            node_style = styles.get(int(node_id))
            if node_style is not None and not node_style.visible:
                return True
    return False


def invisible_elements(page: Page, body: etree._Element | None, untested: frozenset[str] | set[str],
                       copies: bool = True) -> tuple[list[etree._Element], list[etree._Element]]:
    """``(not_rendered, hidden)``: the elements of ``page.root`` (``body``: its ``<body>``, or
    ``None``) that :func:`pagesieve.page.preprocess.preprocess` removes as invisible, document
    order within each list; elements whose tag is in ``untested`` (the tags pre-processing
    handles by their name alone) are never among them.

    A snapshot answers from the browser's rendering: the elements it lists as unrendered
    (``page.hidden``) or whose computed style hides them (``page.styles``) are ``not_rendered``,
    and the markup's ``hidden`` and inline styles are tested as well (:func:`is_hidden`). A page
    read as HTML has only its markup: ``hidden`` holds what :func:`is_hidden` or
    :func:`hidden_copy` finds, less the main region (:func:`revealed_by_script`), a wrapper of
    the whole page (:func:`wraps_page`) and the panels of disclosure buttons
    (:func:`disclosure_panel`); and nothing at all when what is left hides the page
    (:func:`hides_page`). With ``copies`` false the hidden copies are left out of ``hidden``:
    a browser whose style sheet has no rule for the class shows them
    (:func:`pagesieve.page.to_snapshot.page_to_snapshot` writes what such a browser sends)."""
    root = page.root
    if page.hidden is not None:
        listed = [element for element in page.hidden if element.tag not in untested]
        known = set(listed)
        return listed, [
            element for element in _MAY_BE_HIDDEN(root)
            if element.tag not in untested and element not in known and is_hidden(element)
        ]
    if page.styles is not None:
        styles = page.styles
        return [
            element for element in root.iter(etree.Element)
            if element.tag not in untested and is_hidden(element, styles)
        ], []
    text_root = root if body is None else body
    main_chars = cache(readable_length)  # per <main> element, counted once, if ever
    shown = cache(lambda: shown_pieces(text_root))  # made once, if ever
    panels = cache(lambda: disclosed_ids(root))  # made once, if ever
    body_readable = cache(lambda: readable_length(text_root))  # counted once, if ever
    hidden = [
        element for element in _MAY_BE_HIDDEN_HTML(root)
        if element.tag not in untested
        and ((is_hidden(element) and not disclosure_panel(element, panels)) or (copies and hidden_copy(element, shown)))
        and not revealed_by_script(element, main_chars)
        and not wraps_page(element, body_readable)
    ]
    return [], ([] if hides_page(hidden, body_readable) else hidden)
