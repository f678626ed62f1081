"""The tokens of a text: what the evaluation scores, the library counts as words and searches by.

:func:`tokens` splits a text into tokens: every CJK character (Han, incl. extension A and later
extensions and the compatibility ideographs; Hiragana; Katakana; Hangul syllables) is a token of
its own, since those scripts do not separate words with spaces; any other maximal run of Unicode
letters and digits is a token. Underscore, punctuation, symbols and white space separate tokens
and are never part of one. Tokens are lower-cased. This is the tokenisation of the
article-extraction benchmarks (``../shared/datasets/README.md``, "How to score"); the token
metric built on it is :mod:`pagesieve_dev.evaluation.metric`.
"""

from __future__ import annotations

import re

CJK_RANGES = (
    "\u3040-\u309f"  # Hiragana
    "\u30a0-\u30ff"  # Katakana
    "\u3400-\u4dbf"  # CJK Unified Ideographs Extension A
    "\u4e00-\u9fff"  # CJK Unified Ideographs
    "\uac00-\ud7af"  # Hangul Syllables
    "\uf900-\ufaff"  # CJK Compatibility Ideographs
    "\U00020000-\U0003134f"  # CJK Unified Ideographs Extensions B-G
    "\U0002f800-\U0002fa1f"  # CJK Compatibility Ideographs Supplement
)
"""The character ranges (a regex character-class body) whose characters are tokens one by one."""

# ``[^\W_]`` is a Unicode letter or digit (``\w`` minus the underscore). A CJK token is such a
# character inside the ranges above (so the Katakana middle dot and the like stay separators);
# a word token is a run of such characters outside them.
_TOKEN_RE = re.compile(rf"(?=[^\W_])[{CJK_RANGES}]|(?:(?![{CJK_RANGES}])[^\W_])+")


def tokens(text: str) -> list[str]:
    """The tokens of ``text`` in order, lower-cased.

    >>> tokens("Hello, wörld_2 中文!")
    ['hello', 'wörld', '2', '中', '文']
    """
    return _TOKEN_RE.findall(text.lower())
