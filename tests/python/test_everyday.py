"""The everyday set (models/eval/everyday-fr.tsv): the file, the normaliser and the scoring."""
import collections
import os
import re

import pytest

from nmt import data, everyday, evaluate, export, golden
from nmt.search import Translator

CATEGORIES = {"numbers", "names", "colours", "adjectives", "negation", "questions", "times",
              "two-clause", "requests"}


@pytest.fixture(scope="module")
def items():
    return everyday.read()


def test_the_file_parses_and_covers_every_category(items):
    assert len(items) >= 120
    counts = collections.Counter(it["category"] for it in items)
    assert set(counts) == CATEGORIES, counts
    assert all(n >= 8 for n in counts.values()), counts
    for it in items:
        assert 3 <= len(it["en"].split()) <= 15, it["en"]
        assert it["accepted"], it["en"]
        for fr in it["accepted"]:
            assert (fr[0].isupper() or fr[0].isdigit()) and fr[-1] in ".?!", (it["line"], fr)
            assert "{" not in fr and "/" not in fr and "  " not in fr, (it["line"], fr)
    assert len({it["en"] for it in items}) == len(items)


def _key(text):
    text = text.lower().replace("\u2019", "'")
    return " ".join(re.sub(r"[^\w' ]+", " ", text).split())


def test_no_english_sentence_is_in_the_corpus(items):
    if not os.path.exists(data.DEFAULT_DATA):
        pytest.skip(f"{data.DEFAULT_DATA} is absent")
    exact, loose = set(), set()
    with open(data.DEFAULT_DATA, encoding="utf-8") as f:
        for line in f:
            en = line.split("\t", 1)[0].strip()
            exact.add(en)
            loose.add(_key(en))
    clashes = [it["en"] for it in items if it["en"] in exact or _key(it["en"]) in loose]
    assert not clashes, clashes


@pytest.mark.parametrize("a,b", [
    ("J'ai froid.", "j'ai froid"),
    ("J\u2019ai froid.", "J'ai froid."),
    ("Tu viens ?", "Tu viens?"),
    ("Tu viens\u202f?", "tu viens ?"),
    ("Va-t'en !", "Va-t'en\u00a0!"),
    ("Il a dit « oui ».", "Il a dit oui."),
    ("  Nous   avons  trois chats . ", "Nous avons trois chats."),
    ("J' ai deux sœurs.", "J'ai deux sœurs"),
    ("Attention : chien méchant.", "Attention: chien méchant"),
])
def test_normalize_equal(a, b):
    assert everyday.normalize(a) == everyday.normalize(b)


@pytest.mark.parametrize("a,b", [
    ("J'ai froid.", "Je suis froid."),
    ("Tu viens ?", "Tu viens."),        # a question is not a statement
    ("Il a 25 ans.", "Il a 52 ans."),
    ("Ma sœur.", "Ma soeur."),          # no spelling repair
    ("C'est la fête.", "C'est la fete."),  # accents count
])
def test_normalize_different(a, b):
    assert everyday.normalize(a) != everyday.normalize(b)


def test_score_counts_right_and_lists_misses():
    items = [{"category": "numbers", "en": "I have three cats.", "line": 1,
              "accepted": ["J'ai trois chats.", "J'ai 3 chats."]},
             {"category": "names", "en": "Zorblax sings.", "line": 2,
              "accepted": ["Zorblax chante."]}]
    outputs = {"I have three cats.": "j\u2019ai 3 chats", "Zorblax sings.": "Il chante."}
    seen = []

    def translate(texts):
        seen.append(list(texts))
        return [outputs[t] for t in texts]

    r = everyday.score(translate, items)
    assert seen == [["I have three cats.", "Zorblax sings."]]  # one call, in order
    assert r["everyday_right"] == 50.0 and r["everyday_sentences"] == 2
    assert r["everyday_by_category"] == {
        "numbers": {"right": 1, "sentences": 1, "share": 100.0},
        "names": {"right": 0, "sentences": 1, "share": 0.0}}
    assert r["everyday_misses"] == [{"en": "Zorblax sings.", "got": "Il chante.",
                                     "category": "names"}]
    text = everyday.summary("m.safetensors", r)
    assert "50.0% right (1/2)" in text and "Zorblax sings." in text and "Il chante." in text
    with pytest.raises(ValueError):
        everyday.score(lambda texts: [], items)


@pytest.mark.parametrize("line,msg", [
    ("numbers\tI have two cats.\n", "3 tab-separated columns"),
    ("numbers\tI have two cats.\tJ'ai deux chats. | \n", "empty accepted"),
    ("\tI have two cats.\tJ'ai deux chats.\n", "empty category"),
])
def test_malformed_lines_name_the_file_and_line(tmp_path, line, msg):
    path = tmp_path / "bad.tsv"
    path.write_text("# comment\nnumbers\tI have a cat.\tJ'ai un chat.\n" + line, encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(f"{path}:3:") + ".*" + msg):
        everyday.read(str(path))


def test_duplicate_english_is_refused(tmp_path):
    path = tmp_path / "dup.tsv"
    path.write_text("numbers\tI have a cat.\tJ'ai un chat.\n"
                    "names\tI have a cat.\tJ'ai une chatte.\n", encoding="utf-8")
    with pytest.raises(ValueError, match=":2: .*line 1"):
        everyday.read(str(path))


def test_scripts_eval_scores_the_set_with_the_torch_greedy_decode(tmp_path, capsys):
    model, meta = golden.tiny_model("additive", 5)
    path = tmp_path / "m.safetensors"
    export.save_model(str(path), model, meta, "f32")
    loaded, loaded_meta = export.load_model(str(path))
    tr = Translator(loaded, loaded_meta)
    own = tr.translate("the cat")["text"]  # what the random model writes, greedy
    assert own
    sets = tmp_path / "everyday.tsv"
    sets.write_text("# tiny\n"
                    f"numbers\tthe cat\tZzz. | {own}\n"
                    "names\tthe dog\tCeci n'est pas une sortie.\n", encoding="utf-8")
    corpus = tmp_path / "pairs.tsv"
    corpus.write_text("the cat\tle chat\n", encoding="utf-8")
    rows = evaluate.main(["--model", str(path), "--data", str(corpus), "--beam", "",
                          "--align", "", "--everyday", str(sets), "--threads", "1"])
    assert len(rows) == 1
    row = rows[0]
    assert row["everyday_sentences"] == 2 and row["everyday_right"] == 50.0
    assert [m["en"] for m in row["everyday_misses"]] == ["the dog"]
    assert row["everyday_misses"][0]["got"] == tr.translate("the dog")["text"]
    out = capsys.readouterr().out
    assert '"everyday_right": 50.0' in out and "everyday: 50.0% right (1/2)" in out
    assert "miss [names] the dog" in out
    # '' skips it: with nothing else asked for, no first row at all
    assert evaluate.main(["--model", str(path), "--data", str(corpus), "--beam", "",
                          "--align", "", "--everyday", "", "--threads", "1"]) == []


def test_eval_defaults_to_the_committed_set():
    assert os.path.exists(everyday.DEFAULT_PATH)
    assert everyday.DEFAULT_PATH == os.path.join(data.ROOT, "models", "eval", "everyday-fr.tsv")
