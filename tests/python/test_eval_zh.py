"""scripts/eval on a model that writes Chinese: its defaults come from the model's tgt_lang,
flags still win, models of two target languages are refused, and the long-input set joins
Chinese references without spaces."""
import os

import pytest

from nmt import by_length, data, eval_langs, evaluate, export, golden, joined

# A tiny random model whose target vocabulary is Chinese characters (as many as golden's French
# words, so the output layer keeps its size).
ZH_CHARS = list("我你他她们有两辆车是的了吗不没在这那个本书猫狗吃喝看说好很大小红家里今天昨明")


def save_tiny(tmp_path, lang, name):
    model, meta = golden.tiny_model("additive", 5)
    if lang == "zh":
        meta["cfg"]["tgt_lang"] = "zh"
        meta["tgt_itos"] = data.SPECIALS + ZH_CHARS[:len(golden.TINY_TGT)]
        meta["tgt_names"] = []
    path = tmp_path / name
    export.save_model(str(path), model, meta, "f32")
    return str(path)


@pytest.fixture
def zh_sets(tmp_path, monkeypatch):
    """The zh defaults pointed at small files: a corpus of test-split pairs, a gold line and an
    everyday line."""
    corpus = tmp_path / "eng-cmn.tsv"
    pairs = [("I have two cars.", "我有两辆车。"), ("This is her house.", "这是她的房子。")]
    assert all(data.split_of(en) == "test" for en, _ in pairs)
    corpus.write_text("".join(f"{en}\t{zh}\tCC-BY 2.0 (France)\n" for en, zh in pairs),
                      encoding="utf-8")
    gold = tmp_path / "gold.tsv"
    gold.write_text("# one pair\nI have two cars.\t我有两辆车。\t0-0 1-1 2-2 2-3 3?3 3-4 4-5\n",
                    encoding="utf-8")
    every = tmp_path / "everyday.tsv"
    every.write_text("numbers\tI have two cars.\t我有两辆车。 | 我有2辆车。\n", encoding="utf-8")
    monkeypatch.setitem(eval_langs.DEFAULTS, "zh", {"data": str(corpus), "align": str(gold),
                                                   "everyday": str(every)})
    return corpus, gold, every


def test_a_zh_model_gets_the_zh_defaults(tmp_path, zh_sets):
    path = save_tiny(tmp_path, "zh", "zh.safetensors")
    rows = evaluate.main(["--model", path, "--beam", "1", "--threads", "1"])
    first, bleu = rows
    assert first["align_sentences"] == 1 and first["align_links"] == 6  # every token is sure-linked
    for key in ("align_accuracy", "align_diagonal", "align_offdiag_accuracy", "aer",
                "align_offdiag_links", "align_mass", "align_entropy_bits"):
        assert key in first
    assert first["everyday_sentences"] == 1
    assert bleu["sentences"] == 2 and bleu["references"] == 2
    assert bleu["tgt_lang"] == "zh" and bleu["bleu_tokens"] == "sacrebleu-zh"


def test_flags_still_win(tmp_path, zh_sets):
    corpus, _, _ = zh_sets
    path = save_tiny(tmp_path, "zh", "zh.safetensors")
    other = tmp_path / "other.tsv"
    other.write_text(corpus.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    rows = evaluate.main(["--model", path, "--beam", "1", "--threads", "1", "--align", "",
                          "--everyday", "", "--data", str(other)])
    assert len(rows) == 1 and rows[0]["sentences"] == 1


def test_models_of_two_target_languages_are_refused(tmp_path, zh_sets):
    zh = save_tiny(tmp_path, "zh", "zh.safetensors")
    fr = save_tiny(tmp_path, "fr", "fr.safetensors")
    with pytest.raises(SystemExit, match="different languages.*fr.safetensors -> fr"):
        evaluate.main(["--model", zh, fr, "--beam", "1", "--threads", "1"])


def test_french_defaults_are_unchanged():
    fr = eval_langs.defaults("fr")
    assert fr["data"] == data.DEFAULT_DATA
    assert fr["align"] == evaluate.DEFAULT_GOLD
    assert fr["everyday"] == os.path.join(data.ROOT, "models", "eval", "everyday-fr.tsv")
    zh = eval_langs.defaults("zh")
    assert zh["data"] == os.path.join(os.path.dirname(data.DEFAULT_DATA), "eng-cmn.tsv")
    assert eval_langs.target_lang({}) == "fr"  # files from before tgt_lang was recorded


def test_long_inputs_join_chinese_without_spaces():
    items = [(f"Sentence number {i} is here.", [f"第{i}句在这里。", "另一个。"]) for i in range(400)]
    fr = joined.long_inputs([(en, [zh[0]]) for en, zh in items])
    zh = by_length.long_inputs(items, "zh")
    assert len(zh) == len(fr) > 0
    for (b1, en1, ref1), (b2, en2, ref2) in zip(fr, zh):
        assert (b1, en1) == (b2, en2)  # the same English inputs as the French construction
        assert ref2 == ref1.replace(" ", "")
    assert sum(" " in ref for _, _, ref in fr) > len(fr) // 2  # most inputs join sentences
    assert by_length.long_inputs(items[:50], "fr") == joined.long_inputs(items[:50])
