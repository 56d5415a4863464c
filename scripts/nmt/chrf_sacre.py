"""sacreBLEU's chrF (sacrebleu 2.x metrics/chrf.py, its defaults: character 6-grams, no word
n-grams, beta 2, whitespace removed, effective-order averaging), reimplemented because sacrebleu
is not installed here. scripts/eval reports it beside NLTK's chrF for Chinese.

Why a second chrF: NLTK's (evaluate.score's chrf_*) averages a score per sentence, and a
sentence shorter than 6 characters (spaces removed) scores each n-gram order it lacks 1e-16, so
even an exact copy of "太热了。" gets 4/6 of the full score. French sentences are long in
characters and barely feel it; Chinese ones are short: the test references (English of 12 words
or fewer) average 9.5 characters, and 7% have fewer than 6.
sacreBLEU sums the n-gram counts over the corpus first and averages precision and recall over
the orders that occur, so an exact copy scores 100 whatever its length; that is also the chrF
published Chinese results report.
"""
from collections import Counter

ORDER = 6
BETA = 2
EPS = 1e-16


def char_ngrams(text):
    """[Counter of n-grams for n = 1..ORDER] of text with every whitespace removed."""
    s = "".join(text.split())
    return [Counter(s[i:i + n] for i in range(len(s) - n + 1)) for n in range(1, ORDER + 1)]


def statistics(hyp_ngrams, ref_ngrams):
    """[hyp count, ref count, matches] per order, flattened. As sacreBLEU does, an order the
    reference lacks counts no hypothesis n-grams."""
    out = []
    for h, r in zip(hyp_ngrams, ref_ngrams):
        match = sum(min(c, r[g]) for g, c in h.items() if g in r)
        out += [sum(h.values()) if r else 0, sum(r.values()), match]
    return out


def f_score(stats):
    """chrF (0-100) from flattened statistics: precision and recall averaged over the orders
    with both hypothesis and reference n-grams, then F-beta of the two averages."""
    factor = BETA ** 2
    prec_sum = rec_sum = 0.0
    effective = 0
    for i in range(ORDER):
        n_hyp, n_ref, n_match = stats[3 * i:3 * i + 3]
        if n_hyp > 0 and n_ref > 0:
            prec_sum += n_match / n_hyp
            rec_sum += n_match / n_ref
            effective += 1
    if not effective:
        return 0.0
    prec, rec = prec_sum / effective, rec_sum / effective
    if prec + rec == 0:
        return 0.0
    return 100 * (1 + factor) * prec * rec / (factor * prec + rec)


def corpus_chrf(hyps, refs):
    """hyps: [text]; refs: [[text, ...]] -> sacreBLEU corpus chrF. Each sentence contributes the
    statistics of its reference with the best sentence chrF (the first one on a tie)."""
    total = [0] * (3 * ORDER)
    for hyp, rs in zip(hyps, refs):
        h = char_ngrams(hyp)
        best, best_f = None, -1.0
        for r in rs:
            st = statistics(h, char_ngrams(r))
            f = f_score(st)
            if f > best_f:
                best, best_f = st, f
        total = [a + b for a, b in zip(total, best)]
    return f_score(total)
