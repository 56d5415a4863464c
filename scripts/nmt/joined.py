"""Inputs of several sentences: joined training pairs, and the long-input evaluation set.

The models are trained on single Tatoeba sentences, most under 10 words. Attention should let
a model translate inputs far longer than that (the paper's Figure 2), but only if it has seen
some long inputs: the paper trained on sentences of up to 50 words. Joining sentences of the
same split gives long inputs whose translation is known, without new data. Joined pairs are
made only inside one split, so no dev or test sentence ever meets a training one.
"""
import random

from . import data
from . import tokenizer as tk

# Long-input evaluation: buckets of English words (whitespace-separated, as --max-words counts).
BUCKETS = [(1, 10), (11, 20), (21, 30), (31, 40), (41, 50), (51, 60)]
PER_BUCKET = 100
SEED = 2014


def join_pairs(items, fraction, seed, src_index, tgt_index, src_names, tgt_names,
               max_src=62, max_tgt=78, max_parts=5, tgt_lang="fr"):
    """round(fraction * len(items)) training pairs, each 2-max_parts items of `items` (a seeded
    draw) joined with a space and tokenized again, so truecasing treats each part as a new
    sentence. Pairs over max_src source or max_tgt target tokens are dropped (the shipped
    recipe keeps 62 and 78, from when the core read at most 64 tokens, </s> included).
    Returns data.Pair records, like corpus.build's; data.LinkedPair, with the parts' word
    links joined, when the items carry links (train --guided-alignment). Chinese (tgt_lang
    "zh") is written without a space between sentences (tokenizer.detokenize), so its parts
    are joined with nothing."""
    rng = random.Random(seed)
    joiner = "" if tgt_lang == "zh" else " "
    want = round(fraction * len(items))
    out = []
    tries = 0
    while len(out) < want and tries < 4 * want:
        tries += 1
        parts = [data.as_pair(items[rng.randrange(len(items))])
                 for _ in range(rng.randint(2, max_parts))]
        if any(p.src[-1:] not in ".!?" for p in parts):
            continue  # a part without a closing mark would run into the next sentence
        src, tgt = " ".join(p.src for p in parts), joiner.join(p.tgt for p in parts)
        st, tt = tk.tokenize(src, "en", src_names), tk.tokenize(tgt, tgt_lang, tgt_names)
        if len(st) > max_src or len(tt) > max_tgt:
            continue
        item = data.Pair(src, tgt, st, tt, data.encode(st, src_index), data.encode(tt, tgt_index))
        out.append(data.with_links(item, joined_links(parts, len(st), len(tt))))
    return out


def joined_links(parts, n_src, n_tgt):
    """The parts' word links (from scripts/nmt/ibm.py), shifted to where each part sits in the
    joined pair. None when a part has none, or when joining changed the number of tokens, so
    that a shifted link could point at the wrong word."""
    parts = [data.as_pair(p) for p in parts]
    if any(data.links_of(p) is None for p in parts) \
            or n_src != sum(len(p.src_tokens) for p in parts) \
            or n_tgt != sum(len(p.tgt_tokens) for p in parts):
        return None
    out, js, it = [], 0, 0
    for p in parts:
        out.extend((j + js, i + it) for j, i in p.links)
        js, it = js + len(p.src_tokens), it + len(p.tgt_tokens)
    return tuple(out)


def long_inputs(items, buckets=BUCKETS, per_bucket=PER_BUCKET, seed=SEED):
    """The deterministic long-input set: [(bucket, english, french)] from items, a list of
    (english, [references]) in file order (evaluate.test_set). Each input joins consecutive
    sentences of a seeded shuffle of the items until its English word count falls in the
    bucket; a sentence that would overshoot is left for the next input. The reference joins
    each sentence's first translation, so the set is single-reference."""
    out = []
    for bi, (lo, hi) in enumerate(buckets):
        rng = random.Random(seed * 100 + bi)
        order = [x for x in items if x[0][-1:] in ".!?" and len(x[0].split()) <= hi]
        rng.shuffle(order)
        pos, made = 0, 0
        while made < per_bucket and pos < len(order):
            target = rng.randint(lo, hi)
            en, fr, words, skipped = [], [], 0, []
            while pos < len(order) and words < target:
                e, refs = order[pos]
                pos += 1
                w = len(e.split())
                if words + w > hi:
                    skipped.append((e, refs))
                    if len(skipped) > 50:
                        break
                    continue
                en.append(e)
                fr.append(refs[0])
                words += w
            order[pos:pos] = skipped  # put back, in order, for the next input
            if lo <= words <= hi:
                out.append((f"{lo}-{hi}", " ".join(en), " ".join(fr)))
                made += 1
    return out
