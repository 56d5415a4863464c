"""The reference tokenizer reproduces its committed fixtures (tokenizer.json: spec version 2;
tokenizer-zh.json: version 3, Chinese), and the spec's own examples."""
import json
import os

import pytest

from conftest import ROOT
from nmt import tokenizer as tk


def _load(name):
    with open(os.path.join(ROOT, "tests", "fixtures", name), encoding="utf-8") as f:
        return json.load(f)


FIXTURE = _load("tokenizer.json")
FIXTURE_ZH = _load("tokenizer-zh.json")
# What version 3 treats otherwise than 2: CJK symbols and punctuation, ideographs, full-width
# and half-width forms, planes 2-3. Text without them tokenizes alike.
CJK = [(0x3000, 0x303F), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF),
       (0x20000, 0x3FFFF)]


def has_cjk(text):
    return any(lo <= ord(c) <= hi for c in text for lo, hi in CJK)


def test_fixture_is_large_enough_and_current():
    assert FIXTURE["spec_version"] == 2
    assert len(FIXTURE["cases"]) >= 200
    assert FIXTURE_ZH["spec_version"] == tk.SPEC_VERSION == 3
    assert all(c["version"] == 3 for c in FIXTURE_ZH["cases"])
    assert sum(c["lang"] == "zh" for c in FIXTURE_ZH["cases"]) >= 60


@pytest.mark.parametrize("version", [2, 1])
@pytest.mark.parametrize("case", FIXTURE["cases"], ids=lambda c: repr(c["input"][:30]))
def test_fixture_case(case, version):
    """Versions 1 and 2 read the version-2 fixture as they did before version 3 existed."""
    names = frozenset(FIXTURE["names"][case["lang"]])
    vocab = set(FIXTURE["vocab"][case["lang"]])
    toks = tk.tokenize(case["input"], case["lang"], names, version=version)
    assert toks == case["tokens"]
    assert tk.tokenize(case["input"], case["lang"], names, vocab, version) == \
        case["tokens_with_vocab"]
    assert tk.detokenize(toks, case["lang"], version) == case["detokenized"]


@pytest.mark.parametrize("case", FIXTURE["cases"], ids=lambda c: repr(c["input"][:30]))
def test_version_3_reads_text_without_cjk_as_version_2(case):
    names = frozenset(FIXTURE["names"][case["lang"]])
    vocab = set(FIXTURE["vocab"][case["lang"]])
    got = (tk.tokenize(case["input"], case["lang"], names),
           tk.tokenize(case["input"], case["lang"], names, vocab),
           tk.detokenize(case["tokens"], case["lang"]))
    want = (case["tokens"], case["tokens_with_vocab"], case["detokenized"])
    if has_cjk(case["input"]):
        assert got != want  # the fixture's ideographs: one token per run in 2, per ideograph in 3
    else:
        assert got == want


@pytest.mark.parametrize("case", FIXTURE_ZH["cases"], ids=lambda c: repr(c["input"][:30]))
def test_fixture_zh_case(case):
    names = frozenset(FIXTURE_ZH["names"][case["lang"]])
    vocab = set(FIXTURE_ZH["vocab"][case["lang"]])
    toks = tk.tokenize(case["input"], case["lang"], names)
    assert toks == case["tokens"] == tk.tokenize(case["input"], case["lang"], names, version=3)
    assert tk.tokenize(case["input"], case["lang"], names, vocab) == case["tokens_with_vocab"]
    assert tk.detokenize(toks, case["lang"]) == case["detokenized"]


@pytest.mark.parametrize("text,lang,tokens,detok", [
    ("Je suis froid.", "fr", ["je", "suis", "froid", "."], "Je suis froid."),
    ("C\u2019est l\u2019heure\u202f!", "fr", ["c'", "est", "l'", "heure", "!"], "C'est l'heure !"),
    ("I don't know Tom.", "en", ["I", "do", "n't", "know", "Tom", "."], "I don't know Tom."),
    ("Jusqu'à demain.", "fr", ["jusqu'", "à", "demain", "."], "Jusqu'à demain."),
    ("Aujourd'hui.", "fr", ["aujourd'hui", "."], "Aujourd'hui."),
    # spec 3
    ("我有3只猫", "zh", ["我", "有", "3", "只", "猫"], "我有3只猫"),
    ("我用iPhone。", "zh", ["我", "用", "iPhone", "。"], "我用iPhone。"),
    ("我有３只猫！", "zh", ["我", "有", "3", "只", "猫", "！"], "我有3只猫！"),
    ("他是一个 DJ 。", "zh", ["他", "是", "一", "个", "DJ", "。"], "他是一个DJ。"),
    ("我用 iPhone 6。", "zh", ["我", "用", "iPhone", "6", "。"], "我用iPhone 6。"),
    ("Apple很好。Apple很好。", "zh", ["apple", "很", "好", "。", "apple", "很", "好", "。"],
     "Apple很好。Apple很好。"),
])
def test_spec_examples(text, lang, tokens, detok):
    names = {"I", "Tom"}
    assert tk.tokenize(text, lang, names) == tokens
    assert tk.detokenize(tokens, lang) == detok


def test_version_2_keeps_chinese_whole():
    """A spec-3 case that spec 2 reads otherwise: one word per run of ideographs, and English
    spacing when detokenizing."""
    assert tk.tokenize("我有3只猫", "zh", version=2) == ["我有3只猫"]
    assert tk.tokenize("ＡＢ１２", "en", version=2) == ["ＡＢ１２"]
    assert tk.tokenize("ＡＢ１２", "en") == ["AB12"]
    assert tk.detokenize(["我", "用", "iPhone", "。"], "zh", version=2) == "我 用 iPhone 。"


def test_case_repair_in_chinese():
    """Pure Chinese has no cased letter: case repair leaves it alone. Latin words in it count."""
    vocab = {"我", "用", "tom"}
    assert tk.tokenize("我用iphone", "zh", {"Tom"}, vocab) == ["我", "用", "iphone"]
    assert tk.tokenize("我用IPHONE", "zh", {"Tom"}, vocab) == ["我", "用", "iphone"]
    assert tk.tokenize("我叫TOM", "zh", {"Tom"}, vocab) == ["我", "叫", "tom"]  # a word of it
    assert tk.tokenize("我叫TOM", "zh", {"Tom"}, {"我"}) == ["我", "叫", "Tom"]
    assert tk.tokenize("我用iPhone", "zh", {"Tom"}, vocab) == ["我", "用", "iPhone"]  # mixed


def test_prepare_composes_what_normalize_composes():
    decomposed = "e\u0301te\u0301"
    assert tk.prepare(decomposed) == tk.normalize(decomposed) == "\u00e9t\u00e9"
