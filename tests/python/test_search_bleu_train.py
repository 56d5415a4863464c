"""Reference search properties, BLEU on a hand-made case, and a tiny training run."""
import math
import random

import pytest

from nmt import data, evaluate, golden, tokenizer
from nmt import train as train_mod
from nmt.search import Translator


@pytest.mark.parametrize("scoring", ["additive", "scaled_dot"])
def test_beam_one_is_greedy_and_rows_sum_to_one(scoring):
    model, meta = golden.tiny_model(scoring, 3)
    tr = Translator(model, meta)
    for text in golden.TINY_INPUTS:
        src, ids = tr.source(text)
        if not ids:
            continue
        steps = tr.greedy(ids)
        assert len(steps) <= tr.max_len(len(ids))  # always ends
        for st in steps:
            assert abs(sum(st["alpha"]) - 1) < 1e-5
            assert len(st["alpha"]) == len(ids) + 1
        best = tr.beam(ids, 1)[0]
        assert best["ids"] == [st["token"] for st in steps]


def test_self_attention_is_the_scaled_dot_of_the_keys_with_themselves():
    model, meta = golden.tiny_model("scaled_dot", 3)
    tr = Translator(model, meta)
    _, ids = tr.source("The black cat is sleeping.")
    scores, weights = tr.self_attention(ids)
    _, keys, _, _ = tr.encode(ids)
    k = keys[0].double()
    n = len(ids) + 1
    assert scores.shape == weights.shape == (n, n)
    for i in range(n):
        for j in range(n):  # e_ij = k_i . k_j / sqrt(A), by hand
            assert abs(float(scores[i, j]) - float(k[i] @ k[j]) / math.sqrt(k.size(1))) < 1e-4
        z = [math.exp(float(x)) for x in scores[i]]
        for j in range(n):  # alpha_ij = softmax over j
            assert abs(float(weights[i, j]) - z[j] / sum(z)) < 1e-5


def test_bleu_hand_made_case():
    # hyp "le chat noir dort ." vs ref "le chat noir dort bien .": n-gram precisions 5/5, 3/4,
    # 2/3, 1/2 (geometric mean 0.25 ** 0.25), brevity penalty exp(1 - 6/5): BLEU = 57.893...
    expected = 100 * math.exp(-0.2) * 0.25 ** 0.25
    fr = lambda text: tokenizer.tokenize(text, "fr")  # noqa: E731
    s = evaluate.score(["le chat noir dort ."], [["le chat noir dort bien ."]], fr)
    assert s["bleu_multi"] == pytest.approx(expected, abs=1e-6)
    assert s["bleu_single"] == pytest.approx(expected, abs=1e-6)
    # a second reference that matches exactly lifts multi-reference BLEU to 100
    s = evaluate.score(["le chat noir dort ."],
                       [["le chat noir dort bien .", "le chat noir dort ."]], fr)
    assert s["bleu_multi"] == pytest.approx(100.0)
    assert s["bleu_single"] == pytest.approx(expected, abs=1e-6)


def test_attention_entropy_is_the_mean_over_rows_in_bits():
    one_hot, uniform = [0.0, 1.0, 0.0, 0.0], [0.25] * 4
    assert evaluate.attention_entropy([[one_hot]]) == 0
    assert abs(evaluate.attention_entropy([[uniform]]) - 2.0) < 1e-12
    assert abs(evaluate.attention_entropy([[one_hot, uniform], [uniform]]) - 4 / 3) < 1e-12
    assert evaluate.attention_entropy([[], []]) is None


def test_split_is_by_english_sentence():
    assert data.split_of("I am cold.") == data.split_of("I  am cold.")  # same sentence
    splits = {data.split_of(f"Sentence number {i}.") for i in range(400)}
    assert splits == {"train", "dev", "test"}


def synthetic_pairs(n, seed=0):
    rng = random.Random(seed)
    adj = [("black", "noir"), ("white", "blanc"), ("red", "rouge"), ("big", "grand"),
           ("small", "petit")]
    noun = [("cat", "chat"), ("dog", "chien"), ("car", "camion"), ("book", "livre")]
    verb = [("sleeps", "dort"), ("eats", "mange"), ("runs", "court")]
    out = []
    for _ in range(n):
        (ea, fa), (en, fn), (ev, fv) = rng.choice(adj), rng.choice(noun), rng.choice(verb)
        out.append((f"The {ea} {en} {ev}.", f"Le {fn} {fa} {fv}."))
    return out


def test_tiny_training_run_drops_the_loss(tmp_path):
    """300 pairs, a few seconds: the train loss must fall by at least 40%."""
    tsv = tmp_path / "pairs.tsv"
    tsv.write_text("".join(f"{e}\t{f}\tCC-BY\n" for e, f in synthetic_pairs(300)),
                   encoding="utf-8")
    out = tmp_path / "run"
    cfg = '{"emb": 16, "enc_hidden": 24, "dec_hidden": 24, "attn": 16, "src_vocab": 40, "tgt_vocab": 40}'
    args = ["--data", str(tsv), "--out", str(out), "--epochs", "12", "--batch", "16",
            "--smoothing", "0", "--threads", "1", "--config", cfg, "--quiet"]
    train_mod.main(args)
    logs = [__import__("json").loads(l) for l in open(out / "log.jsonl")]
    dev = [r["dev_loss"] for r in logs if "dev_loss" in r]
    assert len(dev) == 12
    assert dev[-1] < 0.6 * dev[0], dev
    # resuming a finished run trains nothing more and keeps the state
    train_mod.main(args)
    logs2 = open(out / "log.jsonl").read().splitlines()
    assert len(logs2) == len(logs)
