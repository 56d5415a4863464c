"""The Chinese everyday set (models/eval/everyday-zh.tsv) and the Chinese comparison."""
import collections
import os
import re

import pytest

from nmt import data, eval_langs, everyday

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
PATH = os.path.join(ROOT, "models", "eval", "everyday-zh.tsv")
CATEGORIES = {"numbers", "names", "adjectives", "negation", "questions", "times", "two-clause",
              "everyday"}


@pytest.fixture(scope="module")
def items():
    return everyday.read(PATH)


def test_the_file_parses_and_covers_every_category(items):
    assert eval_langs.DEFAULTS["zh"]["everyday"] == PATH
    assert len(items) >= 60
    counts = collections.Counter(it["category"] for it in items)
    assert set(counts) == CATEGORIES, counts
    assert all(n >= 8 for n in counts.values()), counts
    for it in items:
        assert 3 <= len(it["en"].split()) <= 15, it["en"]
        assert len(it["accepted"]) >= 2 or it["category"] == "names", it["en"]
        assert len(set(it["accepted"])) == len(it["accepted"]), it["line"]
        for zh in it["accepted"]:
            assert zh[-1] in "。？！", (it["line"], zh)  # complete sentences, Chinese marks
            assert "{" not in zh and "|" not in zh and " " not in zh, (it["line"], zh)
            assert any(0x4E00 <= ord(ch) <= 0x9FFF for ch in zh), (it["line"], zh)


def _key(text):
    text = text.lower().replace("\u2019", "'")
    return " ".join(re.sub(r"[^\w' ]+", " ", text).split())


def test_no_english_sentence_is_in_the_corpus(items):
    corpus = eval_langs.DEFAULTS["zh"]["data"]
    if not os.path.exists(corpus):
        pytest.skip(f"{corpus} is absent")
    exact, loose = set(), set()
    for path in (corpus, data.DEFAULT_DATA):  # the French corpus is Tatoeba too
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as f:
            for line in f:
                en = line.split("\t", 1)[0].strip()
                exact.add(en)
                loose.add(_key(en))
    clashes = [it["en"] for it in items if it["en"] in exact or _key(it["en"]) in loose]
    assert not clashes, clashes


@pytest.mark.parametrize("a,b", [
    ("我很好，谢谢。", "我很好,谢谢"),          # full-width comma, final full stop optional
    ("你好吗？", "你好吗?"),                   # full-width question mark
    ("他是一个 DJ 。", "他是一个DJ。"),          # spaces anywhere
    ("我有３只猫。", "我有3只猫"),               # full-width digit (NFKC)
    ("红、蓝", "红，蓝"),                        # enumeration comma
    ("他说：“好！”", "他说:好!"),                # quotes dropped, ： as :
    ("我用iPhone。", "我用IPHONE"),             # Latin case
    ("\u3000我饿了。", "我饿了"),                # ideographic space
])
def test_normalize_equal(a, b):
    assert everyday.normalize(a, "zh") == everyday.normalize(b, "zh")


@pytest.mark.parametrize("a,b", [
    ("我饿了。", "我饿了！"),        # ! is not a full stop
    ("你好吗？", "你好吗。"),        # a question is not a statement
    ("我昨天吃了苹果。", "我吃了苹果。"),  # words count
    ("这是我的书。", "這是我的書。"),   # no simplified/traditional folding: list both
])
def test_normalize_different(a, b):
    assert everyday.normalize(a, "zh") != everyday.normalize(b, "zh")


def test_french_normalisation_is_unchanged():
    # the French rules keep spaces between words; the Chinese ones drop every space
    assert everyday.normalize("Tu viens ?") == "tu viens?"
    assert everyday.normalize("Tu viens ?", "fr") == everyday.normalize("Tu viens ?")
    assert everyday.normalize("Tu viens ?", "zh") == "tuviens?"


def test_score_accepts_either_script_when_both_are_listed():
    items = [{"category": "everyday", "en": "This is my book.", "line": 1,
              "accepted": ["这是我的书。", "這是我的書。"]},
             {"category": "everyday", "en": "I am hungry.", "line": 2, "accepted": ["我饿了。"]}]
    r = everyday.score(lambda texts: ["這是我的書 。", "我饿了!"], items, "zh")
    assert r["everyday_right"] == 50.0
    assert [m["en"] for m in r["everyday_misses"]] == ["I am hungry."]
    r = everyday.score(lambda texts: ["这是我的书", "我 饿 了 ."], items, "zh")
    assert r["everyday_right"] == 100.0
    # the French comparison keeps the spaces and the final 。, and misses both
    assert everyday.score(lambda texts: ["这是我的书", "我 饿 了 ."], items)["everyday_right"] == 0.0
