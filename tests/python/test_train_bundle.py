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
