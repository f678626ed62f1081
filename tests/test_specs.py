"""A product's specification table is part of the product (host/pagesieve/rules/specs.py,
issue 62: product pages' recall)."""

from __future__ import annotations

from pathlib import Path

from conftest import shared_dataset
from pagesieve.blocks.segment import segment
from pagesieve.extract import SETTLE_RULES, extract
from pagesieve.page.html import parse_html
from pagesieve.removal import RemovalLog
from pagesieve.rules.specs import is_spec_table, keep_spec_tables
from pagesieve_dev.evaluation.datasets import read_page

SPECS = "<table><tr><th>Dimensions</th><td>10 x 8 cm</td></tr><tr><th>Weight</th><td>120 g</td></tr>" \
        "<tr><th>Material</th><td>Silicone</td></tr></table>"


def _blocks(body):
    return segment(parse_html(f"<html><body>{body}</body></html>").root)


def test_a_table_of_name_and_value_pairs_is_kept_whole():
    blocks = _blocks(f"<div><p>A soft mat that holds screws in place while you work.</p>{SPECS}</div>")
    keep = [b.element.tag == "p" for b in blocks]
    log = RemovalLog()
    assert keep_spec_tables(blocks, keep, log) > 0
    kept = " ".join(b.text for b in blocks if keep[b.index])
    assert "Dimensions" in kept and "120 g" in kept and "Silicone" in kept
    assert set(log.kept_by.values()) == {"specs"}


def test_what_is_no_specification_table():
    # two rows; a comparison of three columns; a table in the footer; a two-column layout table
    # holding a whole page; a table a page rule dropped
    two_rows = "<table><tr><th>Size</th><td>M</td></tr><tr><th>Colour</th><td>Red</td></tr></table>"
    columns = "<table>" + "<tr><td>Mat</td><td>$10</td><td>In stock</td></tr>" * 4 + "</table>"
    footer = f"<footer>{SPECS}</footer>"
    layout = "<table>" + "<tr><td>Menu</td><td>" + "A long story told in a layout table. " * 30 + "</td></tr>" * 3 + "</table>"
    for body in (two_rows, columns, footer, layout):
        blocks = _blocks(f"<div><p>A soft mat that holds screws in place.</p>{body}</div>")
        keep = [b.element.tag == "p" for b in blocks]
        assert keep_spec_tables(blocks, keep) == 0, body[:40]
    blocks = _blocks(f"<div><p>A soft mat.</p>{SPECS}</div>")
    keep = [b.element.tag == "p" for b in blocks]
    log = RemovalLog()
    cell = next(b.index for b in blocks if b.text == "Weight")
    log.drop(cell, _reason())
    assert keep_spec_tables(blocks, keep, log) == 0
    dl = "<dl><dt>Width</dt><dd>20 cm</dd><dt>Depth</dt><dd>14 cm</dd><dt>Height</dt><dd>7 cm</dd></dl>"
    assert is_spec_table(parse_html(f"<html><body>{dl}</body></html>").root.find(".//dl"))


def _reason():
    from pagesieve.removal import Removal

    return Removal(stage="post-rule", rule="consent-notice", evidence={})


def test_a_product_page_keeps_its_specifications(datasets_dir: Path):
    """wcxb_dev 0621 (iFixit's Pro Tech Toolkit, held out): its specification table ("Driver
    Material | Anodized Aluminum", "iFixit Part Number | IF145-307-4") went while its description
    stayed; the truth keeps it."""
    assert "specs" in SETTLE_RULES
    wcxb = shared_dataset(datasets_dir, "wcxb_dev")
    article = extract(read_page(wcxb, "0621"), url=wcxb.record("0621").url)
    for line in ("Driver Material", "Anodized Aluminum", "S2 Steel", "IF145-307-4"):
        assert line in article.text, line
