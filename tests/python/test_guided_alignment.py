"""The unsupervised aligner (scripts/nmt/ibm.py) and guided-alignment training."""
import json
import random

import pytest
import torch

from nmt import corpus, ibm, joined
from nmt import tokenizer as tk
from nmt import train as train_mod
from nmt.model import Bahdanau, default_config

COLOURS = {"black": "noir", "white": "blanc", "red": "rouge", "green": "vert", "small": "petit"}
NOUNS = {"cat": "chat", "dog": "chien", "car": "camion", "book": "livre", "hat": "chapeau"}


def toy_pairs(n, seed=0):
    """'the black cat .' -> 'le chat noir .': the adjective and noun swap, as in French."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        a, b = rng.choice(sorted(COLOURS)), rng.choice(sorted(NOUNS))
        out.append((["the", a, b, "."], ["le", NOUNS[b], COLOURS[a], "."]))
    return out


def test_aligner_finds_the_crossing_links_of_a_swap():
    pairs = toy_pairs(300)
    al = ibm.Aligner().fit([e for e, _ in pairs], [f for _, f in pairs])
    links = al.align([["the", "black", "cat", "."]], [["le", "chat", "noir", "."]])[0]
    assert links == {(0, 0), (2, 1), (1, 2), (3, 3)}  # black-noir and cat-chat cross


def test_aligner_leaves_unseen_words_to_the_diagonal_or_unlinked():
    pairs = toy_pairs(300)
    al = ibm.Aligner().fit([e for e, _ in pairs], [f for _, f in pairs])
    links = al.align([["the", "purple", "cat", "."]], [["le", "chat", "violet", "."]])[0]
    assert (2, 1) in links and (0, 0) in links and (3, 3) in links
    assert all(0 <= j < 4 and 0 <= i < 4 for j, i in links)
    assert al.align([[]], [["le"]]) == [set()]  # an empty side links nothing


def test_grow_diag_final_and_on_a_hand_made_case():
    e2f = {(0, 0), (1, 1), (2, 2)}
    f2e = {(0, 0), (1, 1), (1, 2), (3, 3)}
    # intersection {(0,0), (1,1)}; grow-diag adds the union's neighbours that have a free
    # word: (1,2) and (2,2) next to (1,1), then (3,3) next to (2,2).
    assert ibm.grow_diag_final_and(e2f, f2e) == {(0, 0), (1, 1), (1, 2), (2, 2), (3, 3)}
    # (3,3) is nobody's neighbour here: only final-and adds it, its two words being free.
    assert ibm.grow_diag_final_and({(0, 0)}, {(0, 0), (3, 3)}) == {(0, 0), (3, 3)}
    assert ibm.grow_diag_final_and({(0, 0)}, {(0, 0), (0, 3)}) == {(0, 0)}  # source 0 taken


def test_guide_loss_is_zero_on_the_gold_words_and_ignores_unlinked_rows():
    g = torch.zeros(1, 3, 4)
    g[0, 0, 1] = 1.0
    g[0, 1, 2] = g[0, 1, 3] = 1.0  # two gold words: their mass counts together
    alpha = torch.tensor([[[0.0, 1.0, 0.0, 0.0], [0.2, 0.0, 0.5, 0.3], [1.0, 0.0, 0.0, 0.0]]])
    assert train_mod.guide_loss(alpha, g).item() == pytest.approx(-torch.log(torch.tensor(0.8)).item() / 2)
    alpha[0, 2] = torch.tensor([0.0, 0.0, 0.0, 1.0])  # row 2 has no link: it changes nothing
    assert train_mod.guide_loss(alpha, g).item() == pytest.approx(-torch.log(torch.tensor(0.8)).item() / 2)


def test_guide_of_links_the_final_eos_to_the_source_eos():
    item = ("", "", ["a", "b"], ["x", "y", "z"], [5, 6], [7, 8, 9], ((1, 0), (0, 2)))
    g = train_mod.guide_of([item], 3, 4)
    assert g[0, 0, 1] == 1 and g[0, 2, 0] == 1 and g[0, 3, 2] == 1  # </s> -> </s>
    assert g.sum() == 3 and g[0, 1].sum() == 0  # "y" is unlinked


def test_joined_pairs_carry_the_parts_links_shifted():
    corp = [("I see Tom.", "Je vois Tom."), ("The cat sleeps.", "Le chat dort.")] * 4
    items = []
    for s, t in corp:
        st, tt = tk.tokenize(s, "en"), tk.tokenize(t, "fr")
        items.append((s, t, st, tt, [], [], tuple((k, k) for k in range(len(st)))))
    out = joined.join_pairs(items, 1.0, 1, {}, {}, set(), set(), max_src=40, max_tgt=40)
    assert out and all(len(x) == 7 for x in out)
    for x in out:
        assert x[6] == tuple((k, k) for k in range(len(x[2])))  # diagonal parts stay diagonal
    one = items[0]
    bad = (one[0], one[1], one[2], one[3] + ["!"], [], [], one[6])  # token count mismatch
    assert joined.joined_links([bad, items[1]], len(one[2]) + len(items[1][2]), 99) is None
    assert joined.joined_links([one[:6], items[1]], 1, 1) is None  # a part without links


def synthetic_tsv(path, n=300):
    rng = random.Random(1)
    lines = []
    for _ in range(n):
        a, b = rng.choice(sorted(COLOURS)), rng.choice(sorted(NOUNS))
        lines.append(f"The {a} {b} sleeps.\tLe {NOUNS[b]} {COLOURS[a]} dort.\tCC-BY\n")
    path.write_text("".join(lines), encoding="utf-8")


def test_guided_training_moves_attention_onto_the_aligned_words(tmp_path):
    """Two tiny runs from one seed, with and without guidance: the guided one puts more of
    its attention on the aligner's words, on training pairs it was guided on."""
    tsv = tmp_path / "pairs.tsv"
    synthetic_tsv(tsv)
    cfg = ('{"emb": 16, "enc_hidden": 24, "dec_hidden": 24, "attn": 16, "src_vocab": 40, '
           '"tgt_vocab": 40}')
    mass = {}
    for w in (0.0, 1.0):
        out = tmp_path / f"run{w}"
        args = ["--data", str(tsv), "--out", str(out), "--epochs", "15", "--batch", "16",
                "--threads", "1", "--decoder", "cgru", "--config", cfg, "--quiet",
                "--guided-alignment", str(w)]
        model, meta, _ = train_mod.main(args)
        model.eval()
        pairs = corpus.build(str(tsv), 40, 40, cache_dir=str(tmp_path))["splits"]["train"]
        items = train_mod.with_links(pairs, str(tmp_path), quiet=True)[:64]
        src, src_len, tin, tout = train_mod.collate(items)
        with torch.no_grad():
            _, alpha = model(src, src_len, tin, return_alpha=True)
        g = train_mod.guide_of(items, src.size(1), tout.size(1))
        linked = g.sum(-1) > 0
        mass[w] = float((alpha * g).sum(-1)[linked].mean())
    assert mass[1.0] > 0.8 and mass[1.0] > mass[0.0] + 0.1, mass


def test_init_starts_a_second_stage_and_records_the_first(tmp_path):
    tsv = tmp_path / "pairs.tsv"
    synthetic_tsv(tsv, 100)
    cfg = ('{"emb": 8, "enc_hidden": 8, "dec_hidden": 8, "attn": 8, "src_vocab": 40, '
           '"tgt_vocab": 40}')
    base = ["--data", str(tsv), "--batch", "16", "--threads", "1", "--config", cfg, "--quiet"]
    train_mod.main(base + ["--out", str(tmp_path / "a"), "--steps", "3"])
    _, _, state = train_mod.main(base + ["--out", str(tmp_path / "b"), "--steps", "2",
                                         "--init", str(tmp_path / "a" / "last.pt")])
    assert state["step"] == 2 and state["before"][0]["steps"] == 3
    with pytest.raises(SystemExit, match="another config"):
        train_mod.main(base[:-3] + ["--config", cfg.replace('"attn": 8', '"attn": 4'), "--quiet",
                                    "--out", str(tmp_path / "c"), "--steps", "1",
                                    "--init", str(tmp_path / "a" / "last.pt")])
    with pytest.raises(SystemExit, match="guides an RNN"):
        train_mod.main(base + ["--out", str(tmp_path / "d"), "--steps", "1", "--scoring", "none",
                               "--guided-alignment", "1"])
    json.dumps(state["before"])  # exported as the model file's training metadata


def test_hard_rows_put_an_unlinked_word_on_eos():
    item = {"en_tokens": ["a", "b"], "fr_tokens": ["x", "y", "z"]}
    rows = ibm.hard_rows(item, {(0, 0), (0, 1), (1, 1)})
    assert rows == [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.0, 0.0, 1.0]]


def test_unpunctuated_pairs_drop_the_mark_on_both_sides_and_its_links():
    from nmt import unpunctuated
    item = ("I see Tom.", "Je vois Tom.", ["I", "see", "Tom", "."], ["je", "vois", "Tom", "."],
            [4, 5, 6, 7], [8, 9, 10, 11], ((0, 0), (1, 1), (2, 2), (3, 3)))
    out = unpunctuated.strip_final_mark(item)
    assert out == ("I see Tom", "Je vois Tom", ["I", "see", "Tom"], ["je", "vois", "Tom"],
                   [4, 5, 6], [8, 9, 10], ((0, 0), (1, 1), (2, 2)))
    assert unpunctuated.strip_final_mark(("Hi", "Salut", ["Hi"], ["salut"], [4], [5])) is None
    pairs = unpunctuated.unpunctuated_pairs([item[:6]] * 10, 0.5, 1)
    assert len(pairs) == 5 and all(p[2][-1] == "Tom" and len(p) == 6 for p in pairs)
