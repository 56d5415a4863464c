"""Training pairs without their closing mark, so that input typed without one ("I love you")
ends as cleanly as with one. Every Tatoeba sentence ends with . ! or ?, so a model trained on
them alone has never seen an input end without one, and runs on after it."""
import random

from . import data

MARKS = (".", "!", "?")
# A Chinese sentence closes with a full-width mark (tokenizer spec 3 keeps it as it is written).
TARGET_MARKS = MARKS + ("。", "！", "？")


def strip_final_mark(item):
    """The pair without the closing mark on both sides, or None when either side has none.
    Word links that touch a removed token are dropped with it. Only the last mark goes:
    "Really?!" becomes "Really?", still a whole sentence."""
    p = data.as_pair(item)
    st, tt = p.src_tokens, p.tgt_tokens
    if len(st) < 2 or len(tt) < 2 or st[-1] not in MARKS or tt[-1] not in TARGET_MARKS:
        return None
    def cut(text):  # the text of the tokens kept
        return text.rstrip()[:-1].rstrip()
    out = data.Pair(cut(p.src), cut(p.tgt), st[:-1], tt[:-1], p.src_ids[:-1], p.tgt_ids[:-1])
    links = data.links_of(p)
    return data.with_links(out, None if links is None else tuple(
        (j, i) for j, i in links if j < len(st) - 1 and i < len(tt) - 1))


def unpunctuated_pairs(items, fraction, seed):
    """round(fraction * len(items)) pairs drawn (seeded) from items, their closing marks
    removed; pairs without one on both sides are skipped."""
    rng = random.Random(seed)
    picked = rng.sample(items, min(len(items), round(fraction * len(items))))
    return [x for x in (strip_final_mark(p) for p in picked) if x is not None]
