"""Attention as word alignment: the hand-made gold set and the measures scripts/eval reports.

Gold files (models/eval/align-gold.tsv for French, align-gold-zh.tsv for Chinese, documented
in models/eval/README.md): lines of `english<TAB>target<TAB>links`, '#' lines are comments.
Links are `e-f` (sure) or `e?f` (possible), 0-based indices into the tokens of the English and
the target sentence as tokenizer.tokenize splits them (French: spec v1, which versions 2 and 3
split alike; Chinese: spec 3, one token per ideograph). Tokenization never depends on the
model: names only change case. "French" below means the target side, whatever its language.

Each measure forces the decoder through the gold French (Translator.force), so every model is
judged on the same rows, and reads the attention row of each French token:
- accuracy: share of French tokens with a sure link whose attention argmax over the source,
  </s> excluded, is one of their gold (sure or possible) English tokens;
- mass: mean attention weight those tokens put on their gold English tokens (</s> counts in
  the row's total);
- AER (Och & Ney 2003): 1 - (|A&S| + |A&P|) / (|A| + |S|), with A the argmax link of every
  French token whose argmax is not </s>, S the sure and P the sure + possible links;
- entropy: mean entropy in bits of the French tokens' rows;
- diagonal: the accuracy of no model at all, French token i of m looking at English token
  round(i (n - 1) / (m - 1)) of n: the in-order words that any alignment gets for free;
- off-diagonal accuracy: accuracy on the sure-linked French tokens whose diagonal position is
  not one of their gold English tokens, the jumps where the two word orders differ, which is
  what the paper's claim is about.
"""
import math

from . import tokenizer as tk


def parse_links(text):
    sure, possible = set(), set()
    for item in text.split():
        sep = "-" if "-" in item else "?"
        e, f = item.split(sep)
        (sure if sep == "-" else possible).add((int(e), int(f)))
    return sure, possible | sure


def read_gold(path, lang="fr"):
    """[{"en", "fr", "en_tokens", "fr_tokens", "sure", "possible"}]; checks every index.
    lang: the target language (the second column); "fr"/"fr_tokens" hold the target side in
    every language, and "tgt"/"tgt_tokens" name them so too."""
    out = []
    with open(path, encoding="utf-8") as f:
        for ln, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 3:
                raise ValueError(f"{path}:{ln}: want 3 tab-separated columns, got {len(cols)}")
            en, fr, links = cols
            et, ft = tk.tokenize(en, "en"), tk.tokenize(fr, lang)
            sure, possible = parse_links(links)
            for e, fi in possible:
                if not (0 <= e < len(et) and 0 <= fi < len(ft)):
                    raise ValueError(f"{path}:{ln}: link {e}-{fi} is outside {len(et)}x{len(ft)} "
                                     f"tokens ({et} / {ft})")
            out.append({"en": en, "fr": fr, "en_tokens": et, "fr_tokens": ft, "sure": sure,
                        "possible": possible, "line": ln, "tgt": fr, "tgt_tokens": ft,
                        "lang": lang})
    return out


def entropy_bits(row):
    return -sum(p * math.log2(p) for p in row if p > 0)


def diagonal(i, m, n):
    """The English position that French position i of m faces on the plain diagonal (n English
    tokens, </s> excluded)."""
    return 0 if m <= 1 else int(math.floor(i * (n - 1) / (m - 1) + 0.5))


def measure(items, rows_of):
    """rows_of(item) -> attention rows, one per French token (the </s> row dropped), each with
    one weight per English token plus </s> last. Returns the four measures as percentages
    (entropy in bits) and the counts behind them."""
    hit = linked = 0
    diag_hit = off_linked = off_hit = 0
    mass = 0.0
    a_s = a_p = n_a = n_s = 0
    ent, n_rows = 0.0, 0
    for it in items:
        rows = rows_of(it)
        n_en = len(it["en_tokens"])
        for fi, row in enumerate(rows):
            ent += entropy_bits(row)
            n_rows += 1
            best = max(range(n_en), key=lambda j: (row[j], -j))  # </s> (index n_en) excluded
            gold_e = {e for e, f in it["possible"] if f == fi}
            sure_e = {e for e, f in it["sure"] if f == fi}
            if sure_e:
                linked += 1
                hit += best in gold_e
                mass += sum(row[e] for e in gold_e)
                on_diag = diagonal(fi, len(rows), n_en) in gold_e
                diag_hit += on_diag
                if not on_diag:
                    off_linked += 1
                    off_hit += best in gold_e
            if row[best] >= row[n_en]:  # the argmax over the whole row is a source word
                n_a += 1
                a_s += (best, fi) in it["sure"]
                a_p += (best, fi) in it["possible"]
        n_s += len(it["sure"])
    return {"align_accuracy": 100.0 * hit / max(linked, 1),
            "align_mass": 100.0 * mass / max(linked, 1),
            "aer": 100.0 * (1 - (a_s + a_p) / max(n_a + n_s, 1)),
            "align_entropy_bits": ent / max(n_rows, 1),
            "align_diagonal": 100.0 * diag_hit / max(linked, 1),
            "align_offdiag_accuracy": 100.0 * off_hit / max(off_linked, 1),
            "align_offdiag_links": off_linked,
            "align_sentences": len(items), "align_links": linked}


def torch_rows(translator):
    """rows_of for the PyTorch reference: forced decoding of the gold French."""
    def rows_of(it):
        src_ids = translator.source(it["en"])[1]
        tgt_ids = translator.target(it["fr"])[1]
        # The gold indices count the tokens read_gold made; a model whose own spec splits the
        # sentence otherwise (a version-2 model reading Chinese) would be judged on shifted rows.
        if len(src_ids) != len(it["en_tokens"]) or len(tgt_ids) != len(it["fr_tokens"]):
            raise ValueError(f"gold line {it['line']}: the model tokenizes {it['fr']!r} into "
                             f"{len(tgt_ids)} tokens, the gold set into {len(it['fr_tokens'])}")
        return [st["alpha"] for st in translator.force(src_ids, tgt_ids)[:-1]]
    return rows_of


def per_head(items, translator):
    """A Transformer's alignment measures for every decoder layer's cross-attention: each head
    alone ("L1H2", 1-based) and each layer's mean over heads ("L1 mean"). One forced decoding
    per sentence serves them all. Picking the best head by these figures selects on the gold
    set, so its score is optimistic; the model's own summary row (the last layer's mean) is
    what measure() on torch_rows reports."""
    forced = {}

    def cross_rows(it):
        key = (it["en"], it["fr"])
        if key not in forced:
            src_ids = translator.source(it["en"])[1]
            tgt_ids = translator.target(it["fr"])[1]
            forced[key] = [st["cross"]["alpha"] for st in translator.force(src_ids, tgt_ids)[:-1]]
        return forced[key]

    cfg = translator.cfg
    out = {}
    for layer in range(cfg["dec_layers"]):
        for head in range(cfg["heads"]):
            out[f"L{layer + 1}H{head + 1}"] = measure(
                items, lambda it, l=layer, h=head: [r[l][h] for r in cross_rows(it)])
        out[f"L{layer + 1} mean"] = measure(
            items, lambda it, l=layer: [[sum(col) / len(col) for col in zip(*r[l])]
                                        for r in cross_rows(it)])
    return out
