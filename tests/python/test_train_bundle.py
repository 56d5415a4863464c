"""scripts/train-data (scripts/nmt/train_bundle.py): the training file the browser page will
download. Its fixture is what the script writes today (the C++ core reads the same file in
tests/cpp/train_data_test.cpp), and its rules hold: no test-split sentence, only pairs inside
both vocabularies and within the word limit, ids in range."""
import os
import tempfile

from scripts.nmt import data, train_bundle

FIX = os.path.join(data.ROOT, "tests", "fixtures")


def test_fixture_is_what_the_script_writes():
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "bundle.txt")
        train_bundle.main(["--data", os.path.join(FIX, "train-bundle-tiny.tsv"), "--out", out,
                           "--src-words", "24", "--tgt-words", "28"])
        with open(out, encoding="utf-8") as got, \
                open(os.path.join(FIX, "train-bundle-tiny.txt"), encoding="utf-8") as want:
            assert got.read() == want.read(), "regenerate: scripts/train-data --data " \
                "tests/fixtures/train-bundle-tiny.tsv --out tests/fixtures/train-bundle-tiny.txt " \
                "--src-words 24 --tgt-words 28"


def test_only_train_and_dev_sentences_inside_the_vocabularies():
    pairs = data.read_pairs(os.path.join(FIX, "train-bundle-tiny.tsv"))
    test_split = [p for p in pairs if data.split_of(p[0]) == "test"]
    assert test_split, "the fixture must hold a test-split sentence for this test to mean something"
    b = train_bundle.build(pairs, src_words=24, tgt_words=28, max_words=8)
    src = {w: i for i, w in enumerate(b["src_vocab"])}
    seen = {tuple(s) for s, _ in b["train"] + b["heldout"]}
    inside = 0
    for en, _ in test_split:  # "I see the cat." is inside the vocabularies, and left out
        toks = train_bundle.tk.tokenize(en, "en", frozenset(b["src_names"]))
        if all(t in src for t in toks):
            inside += 1
            assert tuple(data.encode(toks, src)) not in seen, en
    assert inside, "no test-split sentence falls inside the vocabularies: the check is empty"
    for s, t in b["train"] + b["heldout"]:
        assert s and t
        assert all(i == data.UNK or 4 <= i < 24 for i in s) and all(4 <= i < 28 for i in t)
        assert sum(1 for i in s if b["src_vocab"][i] != ".") <= 8
    long = "The small white cat sleeps in the big red house near Paris today."
    assert len(train_bundle.tk.tokenize(long, "en")) > 9
    assert len(b["train"]) == 15 and len(b["heldout"]) == 1


def test_bin_is_gzip_of_the_text_and_the_same_bytes_each_time():
    import gzip
    with tempfile.TemporaryDirectory() as d:
        args = ["--data", os.path.join(FIX, "train-bundle-tiny.tsv"), "--src-words", "24",
                "--tgt-words", "28"]
        a, b = os.path.join(d, "a.bin"), os.path.join(d, "b.bin")
        train_bundle.main(args + ["--out", a])
        train_bundle.main(args + ["--out", b])
        with open(a, "rb") as fa, open(b, "rb") as fb:
            packed = fa.read()
            assert packed == fb.read(), "no time or name in the gzip header"
        with open(os.path.join(FIX, "train-bundle-tiny.txt"), "rb") as f:
            assert gzip.decompress(packed) == f.read()
        with open(os.path.join(d, "a.README.md"), encoding="utf-8") as f:
            readme = f.read()
        assert "CC-BY 2.0 FR" in readme and "training pairs: 15," in readme


def test_max_pairs_is_a_seeded_subset_in_corpus_order():
    pairs = data.read_pairs(os.path.join(FIX, "train-bundle-tiny.tsv"))
    full = train_bundle.build(pairs, src_words=24, tgt_words=28)["train"]
    part = train_bundle.build(pairs, src_words=24, tgt_words=28, max_pairs=6)["train"]
    assert len(part) == 6 and part == train_bundle.build(pairs, 24, 28, max_pairs=6)["train"]
    idx = [full.index(p) for p in part]
    assert idx == sorted(idx) and idx != list(range(6)), idx  # not just the first (shortest) ones


def test_gold_pairs_inside_the_vocabularies_with_the_model_tokens():
    pairs = data.read_pairs(os.path.join(FIX, "train-bundle-tiny.tsv"))
    b = train_bundle.build(pairs, src_words=24, tgt_words=28)
    with tempfile.TemporaryDirectory() as d:
        gold = os.path.join(d, "gold.tsv")
        with open(gold, "w", encoding="utf-8") as f:
            f.write("# test\n"
                    "I see the cat.\tJe vois le chat.\t0-0 1-1 2-2 3-3 4-4\n"        # inside
                    "Tom is in Paris.\tTom est dans Paris.\t0-0\n"  # inside, a name
                    "The cat eats.\tLe chat mange.\t0-0 1-1 2-2 3-3\n"                # mange: outside
                    "I see the cat.\tJe vois le chat.\t0-0 1?1\n")
        g = train_bundle.gold_pairs(b, gold)
    assert g["of"] == 4 and [p["line"] for p in g["pairs"]] == [2, 3, 5]
    first, named, last = g["pairs"]
    assert first["enTokens"] == ["i", "see", "the", "cat", "."]
    assert first["frTokens"] == ["je", "vois", "le", "chat", "."]
    assert named["enTokens"][0] == "tom" and named["enTokens"][-2] == "Paris"
    assert last["sure"] == [[0, 0]] and last["possible"] == [[0, 0], [1, 1]]
    assert "CC-BY" in g["attribution"]
