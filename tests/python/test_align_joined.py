"""The conditional-GRU decoder, forced decoding, the <unk> copy rule, joined training pairs,
the long-input set and the alignment measures."""
import math
import os

import pytest
import torch

from nmt import alignment, data, export, golden, joined, search
from nmt import tokenizer as tk
from nmt.search import Translator

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))


@pytest.mark.parametrize("scoring", ["additive", "scaled_dot"])
def test_cgru_round_trips_and_names_its_tensors(tmp_path, scoring):
    model, meta = golden.tiny_model(scoring, 5, "cgru")
    path = tmp_path / "m.safetensors"
    export.save_model(str(path), model, meta, "f32")
    names = set(export.to_tensors(model))
    assert {"dec.gru1.W_ih", "dec.gru2.W_hh"} <= names and "dec.gru.W_ih" not in names
    back, back_meta = export.load_model(str(path))
    assert back_meta["cfg"]["decoder"] == "cgru"
    for (k, a), (_, b) in zip(sorted(model.state_dict().items()),
                              sorted(back.state_dict().items())):
        assert torch.equal(a, b), k


def test_paper_files_do_not_name_the_decoder(tmp_path):
    model, meta = golden.tiny_model("additive", 5)
    path = tmp_path / "m.safetensors"
    export.save_model(str(path), model, meta, "f32")
    _, md = export.safetensors_io.load(str(path))
    assert '"decoder"' not in md["config"]  # files of the first format version stay as they were


@pytest.mark.parametrize("decoder", ["paper", "cgru"])
def test_cgru_query_reads_the_previous_word(decoder):
    """Paper: the first row's weights do not depend on y_0's embedding... but the second row's
    weights do only through s_1. cgru: the query itself reads y_{i-1}, so changing the previous
    word changes this row's attention directly."""
    model, meta = golden.tiny_model("additive", 7, decoder)
    tr = Translator(model, meta)
    _, ids = tr.source("The black cat is sleeping.")
    enc = tr.encode(ids)
    s0 = enc[2]
    a_bos = tr.step(enc, data.BOS, s0)[1]
    a_other = tr.step(enc, 10, s0)[1]
    same = torch.allclose(a_bos, a_other)
    assert same == (decoder == "paper")


@pytest.mark.parametrize("decoder", ["paper", "cgru"])
def test_forced_rows_equal_teacher_forced_training_pass(decoder):
    model, meta = golden.tiny_model("scaled_dot", 8, decoder)
    tr = Translator(model, meta)
    src_tokens, ids = tr.source("She likes my white house.")
    _, tgt = tr.target("Elle aime ma maison blanche.")
    rows = tr.force(ids, tgt)
    assert [r["token"] for r in rows] == tgt + [data.EOS]
    with torch.no_grad():
        src = torch.tensor([ids + [data.EOS]])
        tin = torch.tensor([[data.BOS] + tgt])
        logits, alphas = model(src, torch.tensor([len(ids) + 1]), tin, return_alpha=True)
    logp = torch.log_softmax(logits[0], -1)
    for i, r in enumerate(rows):
        assert torch.allclose(torch.tensor(r["alpha"]), alphas[0, i], atol=1e-6)
        assert abs(math.log(r["prob"]) - float(logp[i, r["token"]])) < 1e-4


def test_forced_decoding_marks_unknown_words_and_refuses_long_targets():
    model, meta = golden.tiny_model("additive", 9)
    tr = Translator(model, meta)
    _, ids = tr.source("The cat.")
    toks, tgt = tr.target("Le chat Zorglub.")
    assert tgt[2] == data.UNK and toks[2] == "Zorglub"
    assert len(tr.force(ids, tgt)) == len(tgt) + 1
    with pytest.raises(ValueError, match="writes at most"):
        tr.force(ids, [5] * meta["cfg"]["max_tgt_len"])


def test_copyable_words_are_names_numbers_and_target_words():
    index = {"certain": 7}
    for t in ("Tom", "R2D2", "1970", "ÉCOLE", "certain"):
        assert search.copyable(t, index), t
    for t in ("runs", "grinned", "'s", "-", "é"):
        assert not search.copyable(t, index), t


def test_unk_never_copies_a_lower_case_english_word():
    model, meta = golden.tiny_model("scaled_dot", 12)  # its <unk> bias is raised
    tr = Translator(model, meta)
    english_only = set(golden.TINY_SRC) - set(golden.TINY_TGT) - {"I", "Tom", "Paris"}
    seen_unk_first = 0
    for text in golden.TINY_INPUTS:
        for beam in (1, 4):
            out = tr.translate(text, beam)
            assert not english_only & set(out["tgt_tokens"]) - set(golden.TINY_TGT), text
        src_tokens, ids = tr.source(text)
        if ids:
            mask = [search.copyable(t, tr.tgt_index) for t in src_tokens]
            seen_unk_first += sum(s["top_ids"][0] == data.UNK and s["token"] != data.UNK
                                  for s in tr.greedy(ids, mask))
    assert seen_unk_first > 0  # the rule was exercised


def test_joined_pairs_are_deterministic_bounded_and_retokenized():
    corp = [(f"I see {w}.", f"Je vois {w}.") for w in ("Tom", "Paris", "the cat", "a dog")] * 5
    items = [(s, t, tk.tokenize(s, "en"), tk.tokenize(t, "fr"), [], []) for s, t in corp]
    a = joined.join_pairs(items, 0.5, 3, {}, {}, set(), set(), max_src=14, max_tgt=14)
    b = joined.join_pairs(items, 0.5, 3, {}, {}, set(), set(), max_src=14, max_tgt=14)
    assert a == b and len(a) == 10
    for src, tgt, st, tt, si, ti in a:
        assert len(st) <= 14 and len(tt) <= 14 and src.count(".") >= 2
        assert st == tk.tokenize(src, "en")  # truecasing saw each part as a sentence
        assert "see" in st and "See" not in st
        assert si == [data.UNK] * len(st)


def test_long_input_set_is_deterministic_and_bucketed():
    items = [(f"Sentence number {'x ' * (i % 9)}{i}.", [f"Phrase {i}."]) for i in range(3000)]
    a = joined.long_inputs(items, per_bucket=20)
    assert a == joined.long_inputs(items, per_bucket=20)
    for bucket, en, fr in a:
        lo, hi = map(int, bucket.split("-"))
        assert lo <= len(en.split()) <= hi
        assert en.count(".") == fr.count(".")  # one reference sentence per source sentence
    assert {b for b, _, _ in a} == {f"{lo}-{hi}" for lo, hi in joined.BUCKETS}


def test_alignment_measures_on_a_hand_computed_case():
    item = {"en_tokens": ["a", "b", "c"], "sure": {(0, 0), (2, 1)}, "possible": {(0, 0), (2, 1),
                                                                              (1, 1)}}
    rows = [[0.7, 0.1, 0.1, 0.1],     # f0 -> a: hit, mass 0.7
            [0.1, 0.5, 0.3, 0.1],     # f1 -> b: possible, counts as a hit; mass .5 + .3
            [0.1, 0.1, 0.1, 0.7]]     # f2: unlinked, argmax </s> -> not in A
    m = alignment.measure([item], lambda it: rows)
    assert m["align_accuracy"] == pytest.approx(100.0)
    assert m["align_mass"] == pytest.approx(100 * (0.7 + 0.8) / 2)
    # A = {(0,0), (1,1)}: |A&S| = 1, |A&P| = 2, |A| = 2, |S| = 2 -> AER = 1 - 3/4
    assert m["aer"] == pytest.approx(25.0)
    h = lambda r: -sum(p * math.log2(p) for p in r)
    assert m["align_entropy_bits"] == pytest.approx(sum(map(h, rows)) / 3)


def test_diagonal_baseline_and_off_diagonal_accuracy_on_a_flip():
    # "the black cat ." -> "le chat noir .": the diagonal gets le and the stop for free and
    # misses the flip; off-diagonal accuracy is measured on chat and noir alone.
    item = {"en_tokens": ["the", "black", "cat", "."],
            "sure": {(0, 0), (2, 1), (1, 2), (3, 3)}, "possible": {(0, 0), (2, 1), (1, 2), (3, 3)}}
    rows = [[0.9, 0.0, 0.0, 0.0, 0.1],   # le -> the (on the diagonal)
            [0.0, 0.2, 0.7, 0.0, 0.1],   # chat -> cat: an off-diagonal hit
            [0.0, 0.3, 0.6, 0.0, 0.1],   # noir -> cat: an off-diagonal miss
            [0.0, 0.0, 0.0, 0.9, 0.1]]   # . -> .
    m = alignment.measure([item], lambda it: rows)
    assert m["align_diagonal"] == pytest.approx(50.0)
    assert m["align_offdiag_links"] == 2
    assert m["align_offdiag_accuracy"] == pytest.approx(50.0)
    assert m["align_accuracy"] == pytest.approx(75.0)
    # unequal lengths: French i of m faces English round(i (n - 1) / (m - 1))
    assert [alignment.diagonal(i, 3, 5) for i in range(3)] == [0, 2, 4]
    assert [alignment.diagonal(i, 5, 3) for i in range(5)] == [0, 1, 1, 2, 2]
    assert alignment.diagonal(0, 1, 4) == 0


def test_the_gold_set_parses_and_comes_from_the_test_split():
    gold = alignment.read_gold(os.path.join(ROOT, "models", "eval", "align-gold.tsv"))
    assert len(gold) >= 150
    for it in gold:
        assert data.split_of(it["en"]) == "test", it["en"]
        linked = {f for _, f in it["sure"]}
        assert len(linked) >= len(it["fr_tokens"]) // 2, it["line"]


def test_gold_links_outside_the_tokens_are_refused(tmp_path):
    p = tmp_path / "g.tsv"
    p.write_text("I see.\tJe vois.\t0-0 5-1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="outside"):
        alignment.read_gold(str(p))
