"""scripts/timelapse: the training timelapse's sentences and the frame a flip settles in."""
from nmt import timelapse
from nmt import tokenizer as tk


class Tokens:
    """Translator.source/target without a model: the tokens, and no ids."""
    def source(self, text):
        return tk.tokenize(text, "en"), []

    def target(self, text):
        return tk.tokenize(text, "fr"), []


def test_every_sentence_has_its_key_link_among_its_tokens():
    sents = timelapse.sentence_tokens(Tokens())
    assert len(sents) == len(timelapse.SENTENCES) >= 12
    for s, (_, _, (kf, ke)) in zip(sents, timelapse.SENTENCES):
        i, j = s["key"]
        assert s["tgt_tokens"][i].lower() == kf.lower() and s["src_tokens"][j].lower() == ke.lower()
        assert s["src_tokens"][-1] == "</s>"
    black_cat = sents[0]
    assert black_cat["key"] == [2, 1]  # le chat *noir* looks at the *black* cat: a flip


def frames_of(argmaxes):
    """Frames whose one sentence's key row (row 0, three source words + </s>) peaks at the
    given column."""
    out = []
    for step, j in argmaxes:
        row = [0.1, 0.1, 0.1, 0.05]
        row[j] = 0.75
        out.append({"step": step, "rows": [[row]]})
    return out


def test_a_flip_settles_at_the_first_frame_it_holds_in_every_later_one():
    # right by chance at step 1, lost at 2, right from step 8 on
    frames = frames_of([(0, 0), (1, 2), (2, 1), (8, 2), (20, 2), (50, 2)])
    assert timelapse.settles(frames, 0, (0, 2)) == 8
    assert timelapse.settles(frames_of([(0, 2), (5, 2)]), 0, (0, 2)) == 0
    assert timelapse.settles(frames_of([(0, 2), (5, 1)]), 0, (0, 2)) is None  # lost at the end
    # </s> never counts: a row that peaks on it looks at its best source word
    f = [{"step": 3, "rows": [[[0.2, 0.1, 0.3, 0.4]]]}]
    assert timelapse.settles(f, 0, (0, 2)) == 3
