"""Training pairs with their numbers changed, so that a number the model has never seen is
copied through attention instead of replaced by a frequent one.

Tatoeba holds few numbers written in digits (266 of eng-cmn's 28.5k English sentences), and
each digit run is one token (docs/tokenization.md), so "She is 25 years old." met a model that
had seen "25" a handful of times and wrote 三十. A digit run outside the vocabulary is <unk> on
both sides, and the copy rule (docs/model-format.md) writes the source token the <unk> row
attends to. These variants teach the model that rule's half: where the English has a number
and the translation repeats it, put <unk> (or the known number) where the number goes, looking
at it. Only pairs whose two sides hold the same digit runs are used, so a number written in
words on one side ("25" -> 二十五) is never rewritten into a wrong pair."""
import random
import re

from . import data

DIGITS = re.compile(r"[0-9]+")


def digit_runs(tokens):
    return sorted(t for t in tokens if DIGITS.fullmatch(t))


def random_number(rng):
    """1 to 4 digits, each length as likely, no leading zero: years, prices and ages alike."""
    n = rng.randint(1, 4)
    return str(rng.randint(0 if n == 1 else 10 ** (n - 1), 10 ** n - 1))


def renumbered(item, rng, src_index, tgt_index):
    """The pair with every digit run replaced by a fresh random number, the same on both sides
    (one number for each distinct run), or None when its sides do not hold the same runs."""
    p = data.as_pair(item)
    runs = digit_runs(p.src_tokens)
    if not runs or runs != digit_runs(p.tgt_tokens):
        return None
    new = {}
    for r in dict.fromkeys(runs):
        while (n := random_number(rng)) in new.values():
            pass
        new[r] = n
    def swap_tokens(tokens):
        return [new.get(t, t) for t in tokens]
    def swap_text(text):
        return DIGITS.sub(lambda m: new.get(m.group(), m.group()), text)
    st, tt = swap_tokens(p.src_tokens), swap_tokens(p.tgt_tokens)
    out = data.Pair(swap_text(p.src), swap_text(p.tgt), st, tt,
                    data.encode(st, src_index), data.encode(tt, tgt_index))
    return data.with_links(out, data.links_of(p))  # one token for one: the links still hold


def number_pairs(items, fraction, seed, src_index, tgt_index):
    """round(fraction * len(items)) renumbered pairs, drawn (seeded, with repetition) from the
    items whose two sides hold the same digit runs; [] when none do."""
    def same_runs(x):
        p = data.as_pair(x)
        runs = digit_runs(p.src_tokens)
        return bool(runs) and runs == digit_runs(p.tgt_tokens)
    eligible = [x for x in items if same_runs(x)]
    if not eligible:
        return []
    rng = random.Random(seed)
    want = round(fraction * len(items))
    return [renumbered(eligible[rng.randrange(len(eligible))], rng, src_index, tgt_index)
            for _ in range(want)]
