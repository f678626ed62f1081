"""Tokenizer and token P/R/F1 of pagesieve_dev.evaluation.metric."""

from __future__ import annotations

import pytest

from pagesieve_dev.evaluation.metric import macro, prf
from pagesieve.tokens import tokens


def test_tokens_english_words_and_numbers():
    assert tokens("The quick brown fox, 42 times.") == ["the", "quick", "brown", "fox", "42", "times"]


def test_tokens_lower_case():
    assert tokens("HeLLo WORLD Ελληνικά ПРИВЕТ") == ["hello", "world", "ελληνικά", "привет"]


def test_tokens_letters_and_digits_run_together():
    assert tokens("abc123 x2") == ["abc123", "x2"]


def test_tokens_accented_letters_stay_in_the_word():
    assert tokens("Łódź café naïve") == ["łódź", "café", "naïve"]


def test_tokens_chinese_one_token_per_han_character():
    assert tokens("中华人民共和国") == list("中华人民共和国")


def test_tokens_han_extension_a_and_compatibility_ideographs():
    # U+3400 (extension A), U+F900 (compatibility ideograph)
    assert tokens("\u3400\u3401\uf900") == ["\u3400", "\u3401", "\uf900"]


def test_tokens_kana_and_hangul_one_per_character():
    assert tokens("ひらがなカタカナ한국어") == list("ひらがなカタカナ한국어")


def test_tokens_katakana_middle_dot_is_a_separator():
    assert tokens("カタ・カナ") == ["カ", "タ", "カ", "ナ"]


def test_tokens_mixed_scripts():
    assert tokens("iPhone 15在中国发售。Price: ¥5999") == [
        "iphone", "15", "在", "中", "国", "发", "售", "price", "5999",
    ]


def test_tokens_cjk_glued_to_latin_splits():
    assert tokens("abc中def") == ["abc", "中", "def"]


def test_tokens_punctuation_separates():
    assert tokens("don't e-mail: a.b/c--d") == ["don", "t", "e", "mail", "a", "b", "c", "d"]


def test_tokens_chinese_punctuation_is_not_a_token():
    assert tokens("你好，世界！「引用」") == ["你", "好", "世", "界", "引", "用"]


def test_tokens_underscore_separates():
    assert tokens("snake_case __init__ a_1") == ["snake", "case", "init", "a", "1"]


def test_tokens_empty_and_whitespace():
    assert tokens("") == []
    assert tokens(" \n\t ... !!") == []


def test_prf_identical():
    assert prf("a b c", "a b c") == (1.0, 1.0, 1.0)


def test_prf_ignores_order_case_and_newlines():
    assert prf("C\nb A", "a b c") == (1.0, 1.0, 1.0)


def test_prf_counts_repeated_tokens_as_a_multiset():
    # prediction {a:3}, truth {a:1, b:1}: one "a" matches
    p, r, f = prf("a a a", "a b")
    assert p == pytest.approx(1 / 3)
    assert r == pytest.approx(1 / 2)
    assert f == pytest.approx(2 * (1 / 3) * (1 / 2) / (1 / 3 + 1 / 2))


def test_prf_repeats_match_up_to_the_smaller_count():
    p, r, f = prf("x x y", "x x x y")
    assert (p, r) == (pytest.approx(1.0), pytest.approx(3 / 4))
    assert f == pytest.approx(2 * 0.75 / 1.75)


def test_prf_disjoint():
    assert prf("a b", "c d") == (0.0, 0.0, 0.0)


def test_prf_chinese_characters():
    p, r, f = prf("中国", "中国人")
    assert (p, r) == (1.0, pytest.approx(2 / 3))
    assert f == pytest.approx(0.8)


def test_prf_both_empty_is_perfect():
    assert prf("", "") == (1.0, 1.0, 1.0)
    assert prf("...", " \n") == (1.0, 1.0, 1.0)  # no tokens on either side


def test_prf_empty_truth_nonempty_prediction():
    assert prf("some noise", "") == (0.0, 1.0, 0.0)


def test_prf_empty_prediction_nonempty_truth():
    assert prf("", "the article") == (0.0, 0.0, 0.0)


def test_macro_is_the_mean_of_per_page_scores():
    assert macro([(1.0, 0.5, 0.6), (0.0, 0.5, 0.2)]) == pytest.approx((0.5, 0.5, 0.4))
    assert macro([]) == (0.0, 0.0, 0.0)
