"""sacreBLEU's chrF2 (scripts/nmt/chrf_sacre.py): hand-worked cases."""
import pytest

from nmt import bleu_zh, chrf_sacre, evaluate


def test_an_exact_copy_scores_100_whatever_its_length():
    # 4 characters: orders 5 and 6 occur on neither side and are left out (NLTK: 4/6)
    assert chrf_sacre.corpus_chrf(["太热了。"], [["太热了。"]]) == pytest.approx(100.0)
    assert evaluate.score(["太热了。"], [["太热了。"]], bleu_zh.tokenize)["chrf_single"] \
        == pytest.approx(100 * 4 / 6)


def test_sentence_by_hand():
    # 我猫 / 我狗: unigrams P = R = 1/2, bigrams P = R = 0, no higher orders:
    # P = R = 1/4 averaged over 2 orders, F2 = 5 P R / (4 P + R) = 0.3125 / 1.25 = 25
    assert chrf_sacre.corpus_chrf(["我猫"], [["我狗"]]) == pytest.approx(25.0)
    # 我很好。 / 好。: unigrams P 2/4 R 2/2, bigrams P 1/3 R 1/1; trigrams of the hypothesis
    # are not counted, the reference has none. P = 5/12, R = 1: F2 = (25/12) / (8/3) = 78.125
    assert chrf_sacre.corpus_chrf(["我很好。"], [["好。"]]) == pytest.approx(78.125)


def test_corpus_sums_the_counts_before_scoring():
    # order 1: 6 hyp, 6 ref, 5 matches; 2: 4, 4, 3; 3: 2, 2, 2; 4: 1, 1, 1; 5-6: none.
    # P = R = (5/6 + 3/4 + 1 + 1) / 4 = 0.8958333
    got = chrf_sacre.corpus_chrf(["我猫", "太热了。"], [["我狗"], ["太热了。"]])
    assert got == pytest.approx(100 * (5 / 6 + 3 / 4 + 2) / 4)


def test_spaces_are_ignored_and_the_best_reference_counts():
    assert chrf_sacre.corpus_chrf(["他是 一个 DJ 。"], [["他是一个DJ。"]]) == pytest.approx(100.0)
    assert chrf_sacre.corpus_chrf(["我猫"], [["我狗", "我猫"]]) == pytest.approx(100.0)
    assert chrf_sacre.corpus_chrf([""], [["我猫"]]) == 0.0


def test_score_adds_it_only_when_asked():
    s = evaluate.score(["我猫"], [["我狗", "我猫"]], bleu_zh.tokenize, chrf2=True)
    assert s["chrf2_multi"] == pytest.approx(100.0) and s["chrf2_single"] == pytest.approx(25.0)
    assert "chrf2_multi" not in evaluate.score(["le chat"], [["le chat"]], str.split)
