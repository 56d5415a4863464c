"""Training pairs without their closing mark, so that input typed without one ("I love you")
ends as cleanly as with one. Every Tatoeba sentence ends with . ! or ?, so a model trained on
them alone has never seen an input end without one, and runs on after it."""
import random

MARKS = (".", "!", "?")


def strip_final_mark(item):
    """The pair without the closing mark on both sides, or None when either side has none.
    Word links (item[6]) that touch a removed token are dropped with it. Only the last mark
    goes: "Really?!" becomes "Really?", still a whole sentence."""
    src, tgt, st, tt, sid, tid = item[:6]
    if len(st) < 2 or len(tt) < 2 or st[-1] not in MARKS or tt[-1] not in MARKS:
        return None
    def cut(text):  # the text of the tokens kept
        return text.rstrip()[:-1].rstrip()
    out = (cut(src), cut(tgt), st[:-1], tt[:-1], sid[:-1], tid[:-1])
    if len(item) > 6:
        out += (tuple((j, i) for j, i in item[6] if j < len(st) - 1 and i < len(tt) - 1),)
    return out


def unpunctuated_pairs(items, fraction, seed):
    """round(fraction * len(items)) pairs drawn (seeded) from items, their closing marks
    removed; pairs without one on both sides are skipped."""
    rng = random.Random(seed)
    picked = rng.sample(items, min(len(items), round(fraction * len(items))))
    return [x for x in (strip_final_mark(p) for p in picked) if x is not None]
