"""Reader fidelity over the benchmark datasets: of the formulas, code blocks, images, data
tables, embedded players and footnote references in each page's main content, how many the
article's HTML (what the reader view and the saved files show) keeps.

::

    python3 -m pagesieve_dev.evaluation.fidelity [DATASET ...] [--limit N] [--json]

(evaluation tooling, not a user command). Datasets default to all of
:func:`~pagesieve_dev.evaluation.datasets.default_datasets_dir`; every page of each is read (the
split does not matter: nothing is learned here).

**In the main content.** The datasets' truth is text, so an item counts as main content when
the truth holds it: a code block or data table when at least :data:`TRUTH_SHARE` of its own
tokens are truth tokens; any other item (it has little or no text of its own) when the
:data:`WINDOW_TOKENS` tokens of page text just before it and just after it both are (one side
when it is at an end of the page). The page is read as HTML, scripts and style sheets left out.

**Items**, counted in the page (source) and in the article's HTML (output):

* ``math``: a formula, counted once whatever its markup (``<math>``, KaTeX ``.katex``, MathJax
  ``<mjx-container>`` or ``<script type="math/...">``, MediaWiki ``.mwe-math-element``); output:
  ``<math>`` elements.
* ``code``: ``<pre>`` blocks, line-number gutters left out; ``code-language``: those whose language the page gives
  (:func:`pagesieve.article.code.code_language`); output: ``<pre>``, and
  ``<code class="language-X">`` in a ``<pre>``.
* ``image``: ``<img>`` with a source that is not a placeholder or tracking pixel, and not the
  fallback picture of a formula; output ``<img>``.
* ``table``: data tables (:func:`pagesieve.article.tables.is_layout_table` false, two rows or
  more); output ``<table>``.
* ``embed``: player frames of known hosts (:func:`pagesieve.page.embeds.embed_of`) and
  ``<video>``/``<audio>`` with a source, decorative videos left out
  (:func:`pagesieve.article.media.decorative_video`); output ``<figure class="embed">`` (and the same
  elements, had they survived).
* ``footnote``: links to a place in the page (``href="#id"``, the id present) whose text is a
  note mark (:data:`NOTE_MARK`), not in code (line-number anchors); output: such links whose target is in the article.

Per page, kept = min(output count, main-content count): an output item is not matched to a
source one, so an article cannot keep more than the page's main content held.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from lxml import etree
from lxml import html as lxml_html

from pagesieve.article.code import CODE_TABLES, GUTTER_CLASSES, WRAPPER_DEPTH, code_language
from pagesieve.article.media import decorative_video
from pagesieve.article.tables import is_layout_table
from pagesieve_dev.evaluation.datasets import Dataset, default_datasets_dir, load_dataset, read_page, read_truth
from pagesieve.errors import PagesieveError
from pagesieve.tokens import tokens
from pagesieve.page.embeds import embed_of, frame_address
from pagesieve.page.html import parse_html

KINDS = ("math", "code", "code-language", "image", "table", "embed", "footnote")
"""The rows of the report, in order."""

TRUTH_SHARE = 0.6
"""Share of an item's own tokens (code, table), or of each window's tokens, that must be in the
page's truth for the item to count as main content. Pages' truth files are human (or, for
wcxb_dev, reviewed) selections of the main text; 0.6 leaves room for the tokens a truth file
writes differently (numbers, markup leftovers)."""

WINDOW_TOKENS = 12
"""Tokens of page text read on each side of an item without text of its own: about one line
of a paragraph, enough to tell article text from a menu or a footer."""

NOTE_MARK = re.compile(r"\[?\s*(?:\d{1,3}|[a-z]|[*\u2020\u2021\u00a7])\s*\]?")
"""The whole text of a footnote reference: ``1``, ``[12]``, ``a``, ``*``, ``†``, ``‡``, ``§``."""

_PLACEHOLDER = re.compile(r"^data:|blank|spacer|pixel|1x1|transparent|tracking|beacon", re.IGNORECASE)
_MATH_WRAPPERS = etree.XPath(
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' katex ')"
    " or contains(concat(' ', normalize-space(@class), ' '), ' mwe-math-element ') or self::mjx-container]"
)
_NOT_TEXT = ("script", "style", "noscript", "template", "head", "title")


def _share_in(words: Sequence[str], truth: set[str]) -> float:
    return sum(1 for w in words if w in truth) / len(words) if words else 0.0


def _own_text(element: etree._Element) -> str:
    return " ".join(element.itertext())


def _before(element: etree._Element, n: int) -> list[str]:
    """The last ``n`` tokens of the page text before ``element``."""
    out: list[str] = []
    node = element
    while node is not None and len(out) < n:
        previous = node.getprevious()
        while previous is not None and len(out) < n:
            out = tokens((previous.tail or "") if not isinstance(previous.tag, str) else _own_text(previous) + " " + (previous.tail or "")) + out
            previous = previous.getprevious()
        parent = node.getparent()
        if parent is not None and len(out) < n:
            out = tokens(parent.text or "") + out
        node = parent
    return out[-n:]


def _after(element: etree._Element, n: int) -> list[str]:
    """The first ``n`` tokens of the page text after ``element``."""
    out = tokens(element.tail or "")
    node = element
    while node is not None and len(out) < n:
        following = node.getnext()
        while following is not None and len(out) < n:
            out += tokens((_own_text(following) if isinstance(following.tag, str) else "") + " " + (following.tail or ""))
            following = following.getnext()
        parent = node.getparent()
        if parent is not None and len(out) < n:
            out += tokens(parent.tail or "")
        node = parent
    return out[:n]


def in_main(element: etree._Element, truth: set[str], own_text: bool = False) -> bool:
    """True if ``element`` is main content by the rules of the module docstring (``own_text``:
    judge it by its own tokens; else by the windows around it)."""
    if own_text:
        return _share_in(tokens(_own_text(element)), truth) >= TRUTH_SHARE
    sides = [w for w in (_before(element, WINDOW_TOKENS), _after(element, WINDOW_TOKENS)) if w]
    return bool(sides) and all(_share_in(w, truth) >= TRUTH_SHARE for w in sides)


def _real_image(img: etree._Element) -> bool:
    src = ""
    for name in ("src", "data-src", "data-lazy-src", "data-original", "srcset", "data-srcset"):
        value = (img.get(name) or "").strip()
        if value and not _PLACEHOLDER.search(value):
            src = value
            break
    if not src:
        return False
    for name in ("width", "height"):
        value = (img.get(name) or "").strip()
        if value.isdigit() and int(value) <= 2:
            return False
    return True


def _media_with_source(media: etree._Element) -> bool:
    """True if a ``<video>``/``<audio>`` has an address to link to (not ``blob:`` or ``data:``,
    which exist only in the page that made them)."""
    addresses = [media.get("src"), *(s.get("src") for s in media.iter("source"))]
    return any(a and a.strip() and not a.strip().startswith(("blob:", "data:")) for a in addresses)


def _gutter(pre: etree._Element) -> bool:
    """True if ``pre`` holds the line numbers of a code block: it or a near wrapper has a gutter
    class (:data:`pagesieve.article.code.GUTTER_CLASSES`), or it sits in a cell of a gutter table
    (:data:`pagesieve.article.code.CODE_TABLES`) that is not the last of its row."""
    for depth, element in enumerate([pre, *pre.iterancestors()]):
        if depth > WRAPPER_DEPTH:
            break
        if GUTTER_CLASSES.intersection((element.get("class") or "").split()):
            return True
    cell = next(pre.iterancestors("td"), None)
    table = next(pre.iterancestors("table"), None)
    if cell is None or table is None or not CODE_TABLES.keys() & set((table.get("class") or "").split()):
        return False
    return cell.getnext() is not None


def _note_links(root: etree._Element) -> list[etree._Element]:
    ids = {e.get("id") for e in root.iter(etree.Element) if e.get("id")}
    ids |= {e.get("name") for e in root.iter("a") if e.get("name")}
    out = []
    for a in root.iter("a"):
        href = (a.get("href") or "").strip()
        if href.startswith("#") and len(href) > 1 and href[1:] in ids and NOTE_MARK.fullmatch("".join(a.itertext()).strip()) \
                and next(a.iterancestors("pre", "code"), None) is None:  # line-number anchors are no notes
            out.append(a)
    return out


def source_items(root: etree._Element) -> dict[str, list[tuple[etree._Element, bool]]]:
    """The items of a page (see the module docstring): kind -> ``(element, judged by own
    text)``. Removes, in place, scripts and style sheets once the formulas in scripts are found."""
    items: dict[str, list[tuple[etree._Element, bool]]] = {kind: [] for kind in KINDS}
    found = _MATH_WRAPPERS(root)
    outer = set(found)
    wrappers = [w for w in found if not any(a in outer for a in w.iterancestors())]
    inside = set(wrappers)
    for w in wrappers:
        inside.update(w.iterdescendants())
    items["math"] += [(w, False) for w in wrappers]
    for script in root.iter("script"):
        if (script.get("type") or "").strip().lower().startswith("math/") and (script.text or "").strip():
            items["math"].append((script, False))  # MathJax 2: its output (if any) is not counted again
    for math in root.iter("math"):
        if math not in inside and not any(a.tag == "math" for a in math.iterancestors()):
            if not any(c.startswith("MJX") or c.startswith("MathJax") for a in math.iterancestors() for c in (a.get("class") or "").split()):
                items["math"].append((math, False))
    for element in list(root.iter(*_NOT_TEXT)):
        if any(element is m for m, _ in items["math"]):
            continue
        parent = element.getparent()
        if parent is not None:
            tail = element.tail
            parent.remove(element)
            if tail:
                previous = parent[-1] if len(parent) else None
                if previous is not None:
                    previous.tail = (previous.tail or "") + tail
                else:
                    parent.text = (parent.text or "") + tail
    for pre in root.iter("pre"):
        if any(a.tag == "pre" for a in pre.iterancestors()) or not "".join(pre.itertext()).strip() or _gutter(pre):
            continue
        items["code"].append((pre, True))
        if code_language(pre):
            items["code-language"].append((pre, True))
    # a formula's fallback picture (MediaWiki) is counted as the formula
    items["image"] = [(img, False) for img in root.iter("img") if _real_image(img) and img not in inside]
    for table in root.iter("table"):
        rows = sum(1 for tr in table.iter("tr") if next(tr.iterancestors("table"), None) is table)
        if rows >= 2 and not is_layout_table(table) and "".join(table.itertext()).strip():
            items["table"].append((table, True))
    for element in root.iter("iframe", "video", "audio"):
        if element.tag == "iframe" and embed_of(frame_address(element)) is not None:
            items["embed"].append((element, False))
        elif element.tag != "iframe" and _media_with_source(element) and not decorative_video(element):
            items["embed"].append((element, False))
    items["footnote"] = [(a, False) for a in _note_links(root)]
    return items


def output_counts(article_html: str) -> Counter[str]:
    """The items of an article's HTML, per kind (see the module docstring)."""
    counts: Counter[str] = Counter()
    if not article_html.strip():
        return counts
    root = lxml_html.fragment_fromstring(article_html, create_parent="div")
    counts["math"] = sum(1 for m in root.iter("math") if not any(a.tag == "math" for a in m.iterancestors()))
    pres = [p for p in root.iter("pre") if not any(a.tag == "pre" for a in p.iterancestors())]
    counts["code"] = len(pres)
    counts["code-language"] = sum(
        1 for p in pres if any(c.startswith("language-") for code in p.iter("code") for c in (code.get("class") or "").split())
    )
    counts["image"] = sum(1 for _ in root.iter("img"))
    counts["table"] = sum(1 for _ in root.iter("table"))
    counts["embed"] = sum(1 for f in root.iter("figure") if "embed" in (f.get("class") or "").split())
    counts["embed"] += sum(1 for _ in root.iter("video", "audio"))
    counts["footnote"] = len(_note_links(root))
    return counts


def page_fidelity(page_html: str, truth_text: str, url: str | None) -> tuple[Counter[str], Counter[str]]:
    """``(held, kept)`` per kind for one page: items in its main content, and how many of them
    the article's HTML keeps."""
    from pagesieve.extract import extract

    truth = set(tokens(truth_text))
    held: Counter[str] = Counter()
    root = parse_html(page_html, url=url).root
    for kind, found in source_items(root).items():
        held[kind] = sum(1 for element, own in found if in_main(element, truth, own))
    if not sum(held.values()):
        return held, Counter()
    out = output_counts(extract(page_html, url=url).html)
    kept = Counter({kind: min(out[kind], held[kind]) for kind in KINDS})
    return held, kept


def dataset_fidelity(dataset: Dataset, limit: int | None = None) -> dict[str, dict[str, int]]:
    """Per kind: ``pages`` (pages whose main content holds one or more), ``held`` and ``kept``,
    summed over the dataset's pages (the first ``limit`` of them)."""
    table = {kind: {"pages": 0, "held": 0, "kept": 0} for kind in KINDS}
    for record in list(dataset)[:limit]:
        try:
            page_html = read_page(dataset, record.id)
            truth_text = read_truth(dataset, record.id)
        except (OSError, ValueError):
            continue
        if not page_html.strip() or not truth_text.strip():
            continue
        try:
            held, kept = page_fidelity(page_html, truth_text, record.url)
        except (etree.ParserError, ValueError, PagesieveError) as exc:
            print(f"fidelity: {dataset.name}/{record.id}: {exc}", file=sys.stderr)
            continue
        for kind in KINDS:
            if held[kind]:
                table[kind]["pages"] += 1
                table[kind]["held"] += held[kind]
                table[kind]["kept"] += kept[kind]
    return table


def format_table(results: dict[str, dict[str, dict[str, int]]]) -> str:
    """The report as a text table: one row per kind, all datasets summed, then per dataset."""
    total = {kind: Counter() for kind in KINDS}
    for table in results.values():
        for kind in KINDS:
            total[kind].update(table[kind])
    lines = [f"{'kind':<14} {'pages':>6} {'in main':>8} {'kept':>6} {'kept %':>7}   " + "  ".join(f"{n:>12}" for n in results)]
    for kind in KINDS:
        t = total[kind]
        share = f"{100 * t['kept'] / t['held']:.1f}" if t["held"] else "-"
        per = "  ".join(f"{results[n][kind]['kept']:>5}/{results[n][kind]['held']:<6}" for n in results)
        lines.append(f"{kind:<14} {t['pages']:>6} {t['held']:>8} {t['kept']:>6} {share:>7}   {per}")
    return "\n".join(lines)


def main(argv: Iterable[str] | None = None) -> int:
    """Run the report (see the module docstring); returns the exit status."""
    parser = argparse.ArgumentParser(prog="python3 -m pagesieve_dev.evaluation.fidelity", description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", nargs="*", metavar="DATASET", help="dataset folders or names (default: all)")
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N pages of each dataset")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the table")
    args = parser.parse_args(list(argv) if argv is not None else None)
    base = default_datasets_dir()
    names = args.datasets or ([p.name for p in sorted(base.iterdir()) if (p / "index.jsonl").is_file()] if base else [])
    if not names:
        print("fidelity: no datasets found (set PAGESIEVE_DATASETS)", file=sys.stderr)
        return 2
    results = {}
    for name in names:
        path = Path(name) if Path(name).is_dir() or base is None else base / name
        dataset = load_dataset(path)
        results[dataset.name] = dataset_fidelity(dataset, args.limit)
    print(json.dumps(results, indent=1) if args.json else format_table(results))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
