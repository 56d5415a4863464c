"""Renumbered training pairs (scripts/nmt/numbers.py, train --numbers): a number the English
and the translation share becomes a fresh random one on both sides, so the model learns to
carry it through attention (the <unk> copy rule) instead of writing a frequent one."""
import random

from nmt import data, numbers
from nmt import train as train_mod


def pair(src_tokens, tgt_tokens, src_index, tgt_index):
    return data.Pair(" ".join(src_tokens), "".join(tgt_tokens), src_tokens, tgt_tokens,
                     data.encode(src_tokens, src_index), data.encode(tgt_tokens, tgt_index))


SI = {w: i for i, w in enumerate(data.SPECIALS + ["She", "is", "25", "years", "old", ".", "I",
                                                   "have", "cats", "three"])}
TI = {w: i for i, w in enumerate(data.SPECIALS + ["她", "25", "岁", "。", "我", "有", "只", "猫",
                                                   "三"])}
AGE = pair(["She", "is", "25", "years", "old", "."], ["她", "25", "岁", "。"], SI, TI)
WORDS = pair(["I", "have", "three", "cats", "."], ["我", "有", "三", "只", "猫", "。"], SI, TI)
SPELLED = pair(["She", "is", "25", "years", "old", "."], ["她", "二", "十", "五", "岁", "。"], SI, TI)


def test_a_shared_number_becomes_the_same_fresh_number_on_both_sides():
    out = numbers.renumbered(AGE, random.Random(4), SI, TI)
    n = out.src_tokens[2]
    assert n.isdigit() and n != "25" and out.tgt_tokens == ["她", n, "岁", "。"]
    assert out.src == f"She is {n} years old ." and out.tgt == f"她{n}岁。"
    assert out.src_ids[2] == out.tgt_ids[1] == data.UNK  # unseen: <unk>, which the rule copies
    assert out.src_ids[:2] == AGE.src_ids[:2] and out.tgt_ids[2:] == AGE.tgt_ids[2:]


def test_pairs_without_the_same_digits_on_both_sides_are_left_alone():
    assert numbers.renumbered(WORDS, random.Random(1), SI, TI) is None
    assert numbers.renumbered(SPELLED, random.Random(1), SI, TI) is None  # 25 -> 二十五
    assert numbers.number_pairs([WORDS, SPELLED], 1.0, 1, SI, TI) == []


def test_two_numbers_get_two_different_fresh_numbers_and_links_survive():
    src, tgt = ["3", "and", "3", "and", "7"], ["3", "和", "3", "和", "7"]
    p = data.with_links(pair(src, tgt, SI, TI), ((0, 0), (2, 2), (4, 4)))
    for seed in range(50):
        out = numbers.renumbered(p, random.Random(seed), SI, TI)
        assert out.src_tokens[0] == out.src_tokens[2] != out.src_tokens[4]
        assert out.tgt_tokens[::2] == out.src_tokens[::2] and out.links == p.links


def test_number_pairs_is_seeded_and_sized_by_the_fraction():
    items = [AGE, WORDS, SPELLED] * 10
    a = numbers.number_pairs(items, 0.5, 3, SI, TI)
    assert len(a) == 15 and a == numbers.number_pairs(items, 0.5, 3, SI, TI)
    assert len({x.src_tokens[2] for x in a}) > 5  # fresh numbers, not one reused


def test_random_numbers_span_one_to_four_digits_without_leading_zeros():
    rng = random.Random(0)
    drawn = [numbers.random_number(rng) for _ in range(2000)]
    assert {len(n) for n in drawn} == {1, 2, 3, 4}
    assert all(n == "0" or not n.startswith("0") for n in drawn)


def test_train_adds_the_renumbered_pairs(tmp_path):
    tsv = tmp_path / "pairs.tsv"
    lines = [f"I have {n} cats.\tJ'ai {n} chats.\tCC-BY\n" for n in (2, 3, 4, 5)] * 20
    lines += ["I have cats.\tJ'ai des chats.\tCC-BY\n"] * 20
    tsv.write_text("".join(lines), encoding="utf-8")
    base = ["--data", str(tsv), "--steps", "1", "--batch", "8", "--threads", "1", "--quiet",
            "--config", '{"emb": 8, "enc_hidden": 8, "dec_hidden": 8, "attn": 8}']
    args = train_mod.parse_args(base + ["--out", str(tmp_path / "a"), "--numbers", "0.5"])
    cfg = train_mod.model_config(args)
    _, train, _ = train_mod.training_data(args, cfg)
    plain_args = train_mod.parse_args(base + ["--out", str(tmp_path / "b")])
    _, plain, _ = train_mod.training_data(plain_args, train_mod.model_config(plain_args))
    extra = train[len(plain):]
    assert len(extra) == round(0.5 * len(plain))
    assert all(numbers.digit_runs(x.src_tokens) == numbers.digit_runs(x.tgt_tokens) != [] for x in extra)
