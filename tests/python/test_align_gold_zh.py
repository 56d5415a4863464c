"""The English-Chinese alignment gold set (models/eval/align-gold-zh.tsv): every line parses,
both sentences are verbatim pairs of the test split of eng-cmn.tsv, and every link is inside
the spec-3 tokens."""
import os

import pytest

from nmt import alignment, data, eval_langs
from nmt import tokenizer as tk

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
GOLD = os.path.join(ROOT, "models", "eval", "align-gold-zh.tsv")
CORPUS = eval_langs.DEFAULTS["zh"]["data"]


@pytest.fixture(scope="module")
def gold():
    return alignment.read_gold(GOLD, "zh")


def test_every_line_parses_into_three_columns_of_links():
    n = 0
    with open(GOLD, encoding="utf-8") as f:
        for ln, line in enumerate(f, 1):
            if line.startswith("#") or not line.strip():
                continue
            n += 1
            en, zh, links = line.rstrip("\n").split("\t")
            assert en.strip() == en and zh.strip() == zh, ln
            for item in links.split():
                sep = "-" if "-" in item else "?"
                e, f = item.split(sep)
                assert e.isdigit() and f.isdigit(), (ln, item)
    assert n >= 120


def test_indices_are_spec_3_tokens_and_in_range(gold):
    assert len(gold) >= 120
    assert eval_langs.DEFAULTS["zh"]["align"] == GOLD
    for it in gold:
        et = tk.tokenize(it["en"], "en", version=3)
        zt = tk.tokenize(it["fr"], "zh", version=3)
        assert it["en_tokens"] == et and it["fr_tokens"] == zt and it["tgt_tokens"] == zt
        for e, f in it["possible"]:
            assert 0 <= e < len(et) and 0 <= f < len(zt), (it["line"], e, f)
        assert it["sure"] <= it["possible"]
        # one token per ideograph: a version-2 tokenizer would make a whole clause one token,
        # and the indices would not fit
        assert all(len(t) == 1 for t in zt if tk.is_ideograph(ord(t[0]))), it["line"]
        linked = {f for _, f in it["sure"]}
        assert len(linked) >= len(zt) // 2, it["line"]  # a real alignment, not a stub


def test_both_sentences_are_a_pair_of_the_test_split(gold):
    if not os.path.exists(CORPUS):
        pytest.skip(f"{CORPUS} is absent")
    pairs = set(data.read_pairs(CORPUS))
    for it in gold:
        assert data.split_of(it["en"]) == "test", it["en"]
        assert (it["en"], it["fr"]) in pairs, (it["line"], it["en"], it["fr"])
    assert len({(it["en"], it["fr"]) for it in gold}) == len(gold)


def test_a_hand_checked_line():
    # "I ate an apple yesterday"-type fronting: 昨天 comes first, the verb after it.
    line = next(it for it in alignment.read_gold(GOLD, "zh")
                if it["en"] == "He visited his uncle yesterday.")
    assert line["fr_tokens"] == list("昨天他拜访了他的叔叔。")
    assert {(4, 0), (4, 1), (0, 2), (1, 3), (1, 4), (2, 6), (2, 7), (3, 8), (3, 9),
            (5, 10)} == line["sure"]
    assert line["possible"] - line["sure"] == {(1, 5)}  # 了 possible to the past-tense verb
