"""Chinese BLEU and chrF (scripts/nmt/bleu_zh.py, evaluate.score): hand-worked cases."""
import pytest

from nmt import bleu_zh, eval_langs, evaluate
from nmt import tokenizer as tk


@pytest.mark.parametrize("text,tokens", [
    ("我有3只猫。", ["我", "有", "3", "只", "猫", "。"]),
    ("我用iPhone 6。", ["我", "用", "iPhone", "6", "。"]),
    # full-width punctuation (U+FF00-FFEF) and CJK punctuation (U+3000-303F) are split off
    ("你好，Tom！", ["你", "好", "，", "Tom", "！"]),
    # ASCII punctuation as 13a splits it: "." and "," stay inside a number, "-" after a
    # digit is split off (spec 3 keeps "5-6" whole: the two tokenizers differ here)
    ("3.5公斤", ["3.5", "公", "斤"]),
    ("1,000 dollars.", ["1,000", "dollars", "."]),
    ("Hello,world", ["Hello", ",", "world"]),
    ("我有5-6只猫。", ["我", "有", "5", "-", "6", "只", "猫", "。"]),
    ("Tom's", ["Tom's"]),  # "'" is not in 13a's ASCII punctuation ranges
    # sacreBLEU's '\u20000' reads as U+2000 then "0": general punctuation (“ ” …) is split...
    ("他说“好”…", ["他", "说", "“", "好", "”", "…"]),
    # ...and an extension-B ideograph (U+20000) is not, which we keep to match its counts
    ("a\U00020000b", ["a\U00020000b"]),
    ("  一个 DJ 。 ", ["一", "个", "DJ", "。"]),
])
def test_sacrebleu_zh_tokens(text, tokens):
    assert bleu_zh.tokenize(text) == tokens


def test_differs_from_spec_3_only_where_13a_splits():
    assert tk.tokenize("我有5-6只猫。", "zh", version=3) == ["我", "有", "5-6", "只", "猫", "。"]
    assert bleu_zh.tokenize("我昨天吃了一个苹果。") == tk.tokenize("我昨天吃了一个苹果。", "zh",
                                                                 version=3)


def test_bleu_by_hand():
    # hyp 我昨天吃了一个苹果。 ref 我昨天吃了两个苹果。, 10 tokens each (brevity penalty 1):
    # unigrams 9/10, bigrams 7/9, trigrams 5/8, 4-grams 3/7 (我昨天吃 昨天吃了 个苹果。)
    # BLEU = (9/10 * 7/9 * 5/8 * 3/7) ** (1/4) = 0.1875 ** 0.25 = 0.658037...
    s = evaluate.score(["我昨天吃了一个苹果。"], [["我昨天吃了两个苹果。"]], bleu_zh.tokenize)
    assert s["bleu_single"] == pytest.approx(65.8037, abs=1e-3)
    assert s["bleu_multi"] == pytest.approx(65.8037, abs=1e-3)
    # a second reference that matches exactly makes multi-reference BLEU 100
    s = evaluate.score(["我昨天吃了一个苹果。"], [["我昨天吃了两个苹果。", "我昨天吃了一个苹果。"]],
                       bleu_zh.tokenize)
    assert s["bleu_multi"] == pytest.approx(100.0)
    assert s["bleu_single"] == pytest.approx(65.8037, abs=1e-3)


def test_chrf_by_hand_ignores_spaces():
    # hyp 我猫, ref 我狗: character unigrams P = R = 1/2, F(beta 3) = 1/2; no 2- to 6-gram
    # matches (NLTK scores those orders 1e-16): chrF = (1/2) / 6 = 8.33
    s = evaluate.score(["我猫"], [["我狗"]], bleu_zh.tokenize)
    assert s["chrf_single"] == pytest.approx(100 / 12, abs=1e-6)
    spaced = evaluate.score(["我 猫"], [["我 狗 "]], bleu_zh.tokenize)
    assert spaced["chrf_single"] == pytest.approx(s["chrf_single"])
    assert spaced["chrf_multi"] == pytest.approx(s["chrf_multi"])
    # 7 characters once the spaces are gone, so every order 1-6 has n-grams and matches fully
    # (a text under 6 characters scores its missing orders 1e-16 in NLTK, never 100)
    assert evaluate.score(["他是一个 DJ 。"], [["他是一个DJ。"]], bleu_zh.tokenize)["chrf_single"] \
        == pytest.approx(100.0)


def test_bleu_tokens_by_language():
    model_tokens = object()
    assert eval_langs.bleu_tokenizer("fr", model_tokens) is model_tokens  # French unchanged
    assert eval_langs.bleu_tokenizer("zh", model_tokens) is bleu_zh.tokenize
