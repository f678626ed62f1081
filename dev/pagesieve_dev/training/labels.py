"""Block labels for training, derived from the datasets' ground truth.

Two sources, one mechanism: the tokens of the page's blocks (in document order) are aligned
with a reference token sequence by longest matching runs (``difflib.SequenceMatcher`` without
its junk heuristic, on integer-coded tokens). A block's label is then the majority label of
its aligned tokens:

* **l3s_gn1** (Kohlschütter et al. 2010): the reference is the dataset's own labelled blocks
  (``labels/<id>.json``), each token carrying its block's label; labels 1 headline, 2 full
  text and 3 supplemental are content, 0 not-content, 4 related and 5 comments are noise.
* **every other dataset**: the reference is ``truth/<id>.txt``, every token content; tokens of
  the page that align with nothing are noise.

A block is labelled content when at least :data:`CONTENT_SHARE` of its tokens align with
content, noise when at most :data:`NOISE_SHARE` do, and left out of training in between (mixed
blocks teach the classifier nothing clean; seed 000 §8 names them its unsolved weak spot).
Blocks with no tokens (images only) take no label.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from pagesieve.blocks.segment import Block
from pagesieve.blocks.features import TOKEN_RE

CONTENT_SHARE = 0.6
"""Share of aligned-content tokens from which a block is labelled content (chosen by hand on
l3s_gn1: agreement with the dataset's own block labels was highest between 0.5 and 0.7)."""

NOISE_SHARE = 0.25
"""Share of aligned-content tokens up to which a block is labelled noise."""

L3S_CONTENT_LABELS = frozenset({1, 2, 3})
"""l3s_gn1 labels counted as main content (dataset README: truth = labels 1+2+3)."""

IGNORE = -1
"""Label of blocks left out of training."""


def align_tokens(page_tokens: list[str], ref_tokens: list[str], ref_content: list[bool], unordered_run: int = 0) -> np.ndarray:
    """For each page token, True if it aligns with a content token of the reference: a
    ``(len(page_tokens),)`` bool array. The two sequences are aligned by the matching runs of
    :class:`difflib.SequenceMatcher` (longest common runs, no junk heuristic), as the module
    docstring says; :func:`aligned_shares` and the simulated user of ``eval --corrections``
    (which needs each token's alignment, not a block's share) read it.

    With ``unordered_run`` = n > 0, the tokens left unaligned are then matched out of order
    (:func:`_unordered_runs`): a run of at least n of them that the reference's content holds,
    in tokens no run has taken yet, aligns wherever it stands. Bag F1 (the benchmarks' metric,
    :mod:`pagesieve_dev.evaluation.metric`: token multisets) counts a line wherever it stands, so a page that prints the dateline after
    the post, where the truth writes it under the headline, holds it as content. Training labels
    keep the default (0: in order only)."""
    vocab: dict[str, int] = {}
    a = [vocab.setdefault(t, len(vocab)) for t in page_tokens]
    b = [vocab.setdefault(t, len(vocab)) for t in ref_tokens]
    matched = np.zeros(len(a), dtype=bool)
    taken = np.zeros(len(a), dtype=bool)
    used = np.zeros(len(b), dtype=bool)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for i, j, size in matcher.get_matching_blocks():
        if size == 0:
            continue
        # A run of fewer than 3 tokens is only trusted if it is the whole of a short block; the
        # share rule below handles that, so every matching run is kept here.
        taken[i:i + size] = True
        used[j:j + size] = True
        for k in range(size):
            if ref_content[j + k]:
                matched[i + k] = True
    if unordered_run > 0:
        used |= ~np.asarray(ref_content, dtype=bool)
        _unordered_runs(a, b, matched, taken, used, unordered_run)
    return matched


def _runs(free: np.ndarray, min_len: int) -> list[tuple[int, int]]:
    """``[(start, end)]`` of the maximal runs of True in ``free`` at least ``min_len`` long."""
    out, start = [], None
    for i, f in enumerate(list(free) + [False]):
        if f and start is None:
            start = i
        elif not f and start is not None:
            if i - start >= min_len:
                out.append((start, i))
            start = None
    return out


def _unordered_runs(a: list[int], b: list[int], matched: np.ndarray, taken: np.ndarray, used: np.ndarray,
                    min_run: int) -> None:
    """Match, out of order and longest first, runs of at least ``min_run`` page tokens no run
    has taken with content tokens of the reference no run has taken (``used`` False); each
    token once. Marks ``matched``, ``taken`` and ``used`` in place."""
    while True:
        best_size, best_i, best_j = 0, 0, 0
        ref_runs = _runs(~used, min_run)
        if not ref_runs:
            return
        for ps, pe in _runs(~taken, min_run):
            for rs, re_ in ref_runs:
                m = difflib.SequenceMatcher(None, a[ps:pe], b[rs:re_], autojunk=False).find_longest_match(0, pe - ps, 0, re_ - rs)
                if m.size > best_size:
                    best_size, best_i, best_j = m.size, ps + m.a, rs + m.b
        if best_size < min_run:
            return
        matched[best_i:best_i + best_size] = True
        taken[best_i:best_i + best_size] = True
        used[best_j:best_j + best_size] = True


def content_shares(blocks: Sequence[Block], indices: Sequence[int], ref_tokens: list[str], ref_content: list[bool],
                   unordered_run: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Per block of ``indices``: its token count and the share of its tokens aligned with
    content of the reference (0 for a block without tokens); both ``(len(indices),)``.

    Args:
        blocks: all blocks of the page; indices: the blocks to measure, in document order.
        ref_tokens: the reference token sequence; ref_content: per reference token, whether it
            is main content.
        unordered_run: as :func:`align_tokens` (0: in order only, as training labels).
    """
    return aligned_shares([TOKEN_RE.findall(blocks[i].text.lower()) for i in indices], ref_tokens, ref_content, unordered_run)


def aligned_shares(pieces: Sequence[Sequence[str]], ref_tokens: list[str], ref_content: list[bool],
                   unordered_run: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Per piece of text (its tokens; the pieces in reading order, aligned as one sequence with
    the reference by longest matching runs, as the module docstring says): its token count and
    the share of its tokens aligned with content of the reference (0 for a piece without
    tokens); both ``(len(pieces),)``. The tokeniser is the caller's (blocks use
    :data:`~pagesieve.blocks.features.TOKEN_RE`, output lines :func:`pagesieve.tokens.tokens`)."""
    flat = [t for toks in pieces for t in toks]
    matched = align_tokens(flat, ref_tokens, ref_content, unordered_run)
    counts = np.array([len(t) for t in pieces], dtype=np.int64)
    shares = np.zeros(len(pieces))
    pos = 0
    for row, n in enumerate(counts):
        if n:
            shares[row] = matched[pos:pos + n].mean()
            pos += n
    return counts, shares


def label_blocks(blocks: Sequence[Block], indices: Sequence[int], ref_tokens: list[str], ref_content: list[bool]) -> np.ndarray:
    """Labels (1 content, 0 noise, :data:`IGNORE`) for the candidate blocks ``indices``.

    Args:
        blocks: all blocks of the page; indices: the candidate blocks to label, in order.
        ref_tokens: the reference token sequence; ref_content: per reference token, whether it
            is main content.

    Returns:
        ``int8`` array of shape ``(len(indices),)``.
    """
    counts, shares = content_shares(blocks, indices, ref_tokens, ref_content)
    out = np.full(len(indices), IGNORE, dtype=np.int8)
    out[(counts > 0) & (shares >= CONTENT_SHARE)] = 1
    out[(counts > 0) & (shares <= NOISE_SHARE)] = 0
    return out


def truth_reference(truth_text: str) -> tuple[list[str], list[bool]]:
    """Reference tokens from a ground-truth text: every token is content."""
    tokens = TOKEN_RE.findall(truth_text.lower())
    return tokens, [True] * len(tokens)


def l3s_reference(labels_path: Path) -> tuple[list[str], list[bool]]:
    """Reference tokens from an l3s_gn1 ``labels/<id>.json``: each token carries its block label."""
    data = json.loads(labels_path.read_text(encoding="utf-8"))
    tokens: list[str] = []
    content: list[bool] = []
    for block in data["blocks"]:
        toks = TOKEN_RE.findall(block["text"].lower())
        tokens.extend(toks)
        content.extend([block["label"] in L3S_CONTENT_LABELS] * len(toks))
    return tokens, content
