"""``pagesieve-dev kept-noise``: what the kept noise is, by class, per dataset and page type.

::

    pagesieve-dev kept-noise DATASET... [--compare trafilatura] [--json] [--limit N] [--show N]
                             [--split heldout|all] [--split-file PATH] [--min-site-pages N] [--where FIELD=VALUE]

The pages are those ``pagesieve-dev eval`` scores (the held-out split by default; the same
selection options, :func:`pagesieve_dev.evaluation.selection.select_pages`); pages whose truth has no
token are skipped, as eval does. On each page every output line that the truth lacks is found
and traced to the block and stage that kept it (:mod:`pagesieve_dev.evaluation.kept_lines`), and
classed (:mod:`pagesieve_dev.evaluation.noise_classes`). The tables give, per class, the noise
lines, the noise tokens (tokens aligned with no truth token), their share of all the output's
tokens (``% out``), the tokens per page over all pages selected (``tok/page``: the precision
this class costs the average page) and the pages with at least one such line; then the noise
tokens per class and page type (where the index has ``page_type``), and for pagesieve the stage
and rule that kept them. ``--compare trafilatura`` classes the peer's output on the same pages
the same way. ``--show N`` prints the N longest lines of each class with their attribution;
``--json`` prints the figures and every line.

A page on which an extractor fails counts as empty output (no kept noise), and is reported.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import dataclass, field

from pagesieve_dev.evaluation.args import positive_int
from pagesieve_dev.evaluation.datasets import Dataset, read_page, read_truth
from pagesieve_dev.evaluation.kept_lines import KeptLine, PageTrace
from pagesieve_dev.evaluation.scoring import keeps_headline, scored_text
from pagesieve_dev.evaluation.noise_classes import CLASS_TITLES, CLASSES
from pagesieve_dev.evaluation.runner import add_output_arguments, add_selection_arguments
from pagesieve_dev.evaluation.selection import select_pages
from pagesieve.table import format_table
from pagesieve.tokens import tokens

OURS = "pagesieve"


@dataclass(slots=True)
class Tally:
    """The kept noise of one extractor on one dataset.

    Attributes:
        pages: pages run (truth with tokens); output_tokens: tokens of all their output.
        lines: ``(page id, page type or None, line)`` of every kept noise line.
        failures: ``(page id, error)`` of the pages the extractor failed on.
    """

    pages: int = 0
    output_tokens: int = 0
    lines: list[tuple[str, str | None, KeptLine]] = field(default_factory=list)
    failures: list[tuple[str, str]] = field(default_factory=list)

    def classes(self, page_type: str | None = None) -> dict[str, dict[str, int]]:
        """``{class: {"lines", "tokens", "pages"}}`` over :data:`CLASSES` (and ``"total"``),
        for one page type or all (``None``)."""
        out = {c: {"lines": 0, "tokens": 0, "pages": set()} for c in (*CLASSES, "total")}
        for page, kind, line in self.lines:
            if page_type is not None and kind != page_type:
                continue
            for key in (line.cls, "total"):
                out[key]["lines"] += 1
                out[key]["tokens"] += line.noise_tokens
                out[key]["pages"].add(page)
        return {c: {**v, "pages": len(v["pages"])} for c, v in out.items()}

    def kept_by(self) -> dict[str, dict[str, int]]:
        """``{class: {"stage/rule": noise tokens}}``: what kept each class's lines."""
        out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for _page, _kind, line in self.lines:
            key = f"{line.stage}/{line.rule}" if line.stage else "untraced"
            out[line.cls][key] += line.noise_tokens
        return {c: dict(v) for c, v in out.items()}


def _describe(exc: BaseException) -> str:
    msg = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {msg}" if msg else type(exc).__name__


def run_dataset(dataset: Dataset, ids: list[str], peers: list[tuple[str, object]]) -> tuple[dict[str, Tally], list[str]]:
    """The :class:`Tally` of pagesieve and of each peer on the pages ``ids`` of ``dataset``, and
    the page types seen (in order of first appearance; empty when the index has none).

    Raises:
        DatasetError: a page or truth file cannot be read.
    """
    tallies = {name: Tally() for name in (OURS, *(n for n, _p in peers))}
    types: list[str] = []
    for page_id in ids:
        record = dataset.record(page_id)
        truth = read_truth(dataset, page_id)
        if not tokens(truth):
            continue
        html = read_page(dataset, page_id)
        kind = record.row.get("page_type")
        if kind is not None and kind not in types:
            types.append(kind)
        trace = None
        try:
            trace = PageTrace(html, record.url, headline=keeps_headline(record))
            total, lines = trace.own_noise(truth)
        except Exception as exc:  # noqa: BLE001 - one page must not abort the run
            tallies[OURS].failures.append((page_id, _describe(exc)))
            total, lines = 0, []
        tally = tallies[OURS]
        tally.pages += 1
        tally.output_tokens += total
        tally.lines.extend((page_id, kind, line) for line in lines)
        for name, peer in peers:
            tally = tallies[name]
            tally.pages += 1
            try:
                text = scored_text(peer(html, record.url), keeps_headline(record))
                if trace is None:
                    raise RuntimeError("pagesieve failed on the page; its lines cannot be traced")
                total, lines = trace.peer_noise(text, truth)
            except Exception as exc:  # noqa: BLE001
                tally.failures.append((page_id, _describe(exc)))
                continue
            tally.output_tokens += total
            tally.lines.extend((page_id, kind, line) for line in lines)
    return tallies, types


def _pct(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.1f}" if whole else "-"


def format_report(name: str, tallies: dict[str, Tally], types: list[str]) -> str:
    """The human tables of one dataset (see the module docstring)."""
    lines = [f"== {name}: {tallies[OURS].pages} page(s)"]
    header = ["class"]
    for extractor in tallies:
        tag = "" if extractor == OURS else f" {extractor[:5]}"
        header += [f"lines{tag}", f"tokens{tag}", f"% out{tag}", f"tok/page{tag}", f"pages{tag}"]
    rows = [header]
    stats = {e: t.classes() for e, t in tallies.items()}
    for cls in (*CLASSES, "total"):
        row = [cls if cls == "total" else f"{cls} ({CLASS_TITLES[cls]})"]
        for extractor, tally in tallies.items():
            s = stats[extractor][cls]
            row += [str(s["lines"]), str(s["tokens"]), _pct(s["tokens"], tally.output_tokens),
                    f"{s['tokens'] / tally.pages:.1f}" if tally.pages else "-", str(s["pages"])]
        rows.append(row)
    lines.append(format_table(rows))
    if types:
        for extractor, tally in tallies.items():
            lines.append("")
            lines.append(f"{extractor}: noise tokens per page by page type (pages with such lines)")
            by_type = {k: tally.classes(k) for k in types}
            rows = [["class", *types]]
            for cls in (*CLASSES, "total"):
                rows.append([cls] + [f"{by_type[k][cls]['tokens']} ({by_type[k][cls]['pages']})" for k in types])
            lines.append(format_table(rows))
    kept = tallies[OURS].kept_by()
    keys = sorted({k for v in kept.values() for k in v}, key=lambda k: -sum(v.get(k, 0) for v in kept.values()))
    if keys:
        lines.append("")
        lines.append("pagesieve: noise tokens by what kept them (stage/rule)")
        rows = [["class", *keys]]
        for cls in CLASSES:
            rows.append([cls] + [str(kept.get(cls, {}).get(k, 0)) for k in keys])
        lines.append(format_table(rows))
    for extractor, tally in tallies.items():
        if tally.failures:
            page, error = tally.failures[0]
            lines.append(f"{name} / {extractor}: {len(tally.failures)} page(s) failed; first: {page}: {error}")
    return "\n".join(lines)


def format_examples(tallies: dict[str, Tally], count: int) -> str:
    """The ``count`` longest lines of each class per extractor, with their page, cue and what
    kept them."""
    out = []
    for extractor, tally in tallies.items():
        for cls in CLASSES:
            chosen = sorted((x for x in tally.lines if x[2].cls == cls), key=lambda x: -x[2].noise_tokens)[:count]
            if not chosen:
                continue
            out.append(f"-- {extractor} / {cls}")
            for page, _kind, line in chosen:
                kept = f"{line.stage}/{line.rule} {line.evidence.get('score', '')}".strip() if line.stage else "untraced"
                text = " ".join(line.text.split())
                out.append(f"  {page} [{line.cue or '-'}; {line.tag or '-'} {kept}] {text[:100]}")
    return "\n".join(out)


def report_json(name: str, tallies: dict[str, Tally], types: list[str]) -> dict:
    """One dataset's figures and lines as a JSON-ready dict."""
    return {
        "name": name,
        "extractors": {
            extractor: {
                "pages": tally.pages,
                "output_tokens": tally.output_tokens,
                "classes": tally.classes(),
                "by_type": {k: tally.classes(k) for k in types},
                "kept_by": tally.kept_by() if extractor == OURS else None,
                "failures": [{"page": p, "error": e} for p, e in tally.failures],
                "lines": [{"page": p, "page_type": k, **line.to_json()} for p, k, line in tally.lines],
            }
            for extractor, tally in tallies.items()
        },
    }


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``kept-noise`` options on ``parser``."""
    add_selection_arguments(parser)
    add_output_arguments(parser, "comma-separated peers whose output is classed the same way: trafilatura, readability",
                         "print one JSON object (figures and every line)")
    parser.add_argument("--show", metavar="N", type=positive_int, default=None,
                        help="print the N longest lines of each class with their attribution")


def main(args: argparse.Namespace) -> int:
    """Run ``pagesieve-dev kept-noise``; prints the tables (or JSON) on stdout; returns 0.

    Raises:
        DatasetError: a dataset folder or the split file is malformed (exit code 6).
        ReadError: ``--split-file`` cannot be read (4).
        MissingPeerError: a ``--compare`` peer is not installed (7).
    """
    from pagesieve_dev.evaluation.peers import get_peer

    notes: list[str] = []
    selection = select_pages(args, notes)
    peers = [(n, get_peer(n)) for n in (args.compare or [])]
    for note in notes:
        print(f"pagesieve-dev kept-noise: note: {note}", file=sys.stderr)
    report = []
    for ds, ids in zip(selection.datasets, selection.ids):
        tallies, types = run_dataset(ds, ids, peers)
        if args.json:
            report.append(report_json(ds.name, tallies, types))
            continue
        print(format_report(ds.name, tallies, types))
        if args.show:
            print(format_examples(tallies, args.show))
        print()
        sys.stdout.flush()
    if args.json:
        print(json.dumps({"split": args.split, "datasets": report}, ensure_ascii=False, indent=1))
    return 0
