"""The training extras on a Chinese target: the unpunctuated pairs (a Chinese sentence closes
with a full-width mark) and the joined long pairs (Chinese sentences meet without a space)."""
from nmt import data, joined, unpunctuated
from nmt import tokenizer as tk


def zh_pair(en, zh, si=None, ti=None):
    st, tt = tk.tokenize(en, "en"), tk.tokenize(zh, "zh")
    return data.Pair(en, zh, st, tt, data.encode(st, si or {}), data.encode(tt, ti or {}))


def test_a_chinese_full_stop_is_a_closing_mark_to_drop():
    out = unpunctuated.strip_final_mark(zh_pair("I am hungry.", "我饿了。"))
    assert out.src == "I am hungry" and out.tgt == "我饿了"
    assert out.tgt_tokens == ["我", "饿", "了"] and out.src_tokens == ["i", "am", "hungry"]
    for mark in ("？", "！"):
        assert unpunctuated.strip_final_mark(zh_pair("Really?", "真的" + mark)).tgt == "真的"
    assert unpunctuated.strip_final_mark(zh_pair("Tom", "汤姆")) is None
    assert len(unpunctuated.unpunctuated_pairs([zh_pair("I am hungry.", "我饿了。")] * 10, 0.5, 1)) == 5


def test_joined_chinese_parts_meet_without_a_space():
    items = [zh_pair("I am hungry.", "我饿了。"), zh_pair("Where is Tom?", "汤姆在哪里？"),
             zh_pair("It is raining.", "在下雨。")]
    out = joined.join_pairs(items, 1.0, 2, {}, {}, set(), set(), max_src=40, max_tgt=60,
                            tgt_lang="zh")
    assert len(out) == 3
    for p in out:
        assert " " not in p.tgt and p.tgt == tk.detokenize(p.tgt_tokens, "zh")
        assert " " in p.src  # English parts keep their space
    fr = joined.join_pairs([zh_pair("I am hungry.", "J'ai faim.")] * 3, 1.0, 2, {}, {}, set(),
                           set(), max_src=40, max_tgt=60)
    assert all("faim. J" in p.tgt for p in fr)  # French still joins with a space
