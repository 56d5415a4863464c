"""scripts/eval: corpus BLEU and chrF of a model file on the test split (PyTorch reference);
with --engine native also the mean entropy of the attention rows, in bits (how sharp the
alignments are; the comparison page shows the same measure per sentence).

The model file says which language it writes (cfg tgt_lang); that picks the default --data,
--align and --everyday (scripts/nmt/eval_langs.py: French eng-fra.tsv, align-gold.tsv,
everyday-fr.tsv; Chinese eng-cmn.tsv, align-gold-zh.tsv, everyday-zh.tsv). Flags given win.
Models that write different languages are not scored in one run.

BLEU is NLTK's corpus_bleu (4-gram, uniform weights, no smoothing) of the detokenized output
and references, cased. For French it counts the model's own target tokens (docs/tokenization.md,
with case repair; web/lib/bleu.js computes the same in the page); for Chinese, sacreBLEU's `zh`
tokens (scripts/nmt/bleu_zh.py: each CJK character a token, other text as 13a splits it), the
character-level BLEU published zh results use. Multi-reference groups
every translation of one English sentence in the split; single-reference uses the first
one in file order. chrF is NLTK's (character 6-grams, beta 3, macro-averaged over sentences,
whitespace removed before counting, as sacreBLEU's chrF also ignores it, so a Chinese reference
written "一个 DJ 。" scores as "一个DJ。"); its multi-reference figure takes each sentence's best
reference. For Chinese the rows add sacreBLEU's own chrF2 (chrf2_*, scripts/nmt/chrf_sacre.py),
which NLTK's differs from most on short sentences, and Chinese sentences are short in characters.

The first row of each model (with the alignment measures) also scores the everyday set
(models/eval/everyday-fr.tsv or everyday-zh.tsv, --everyday): sentences a student would type,
written for this project, decoded greedily by the chosen engine; a sentence is right when its
output, normalised (scripts/nmt/everyday.py: case, apostrophes, spaces, final full stop; for
Chinese also every space and full-width punctuation), is one of its accepted translations.
It reports the share right, per category, and lists the misses.
To score only the everyday set: scripts/eval --beam '' --align ''.
"""
import argparse
import collections
import json
import math
import os
import shlex
import subprocess
import sys
import time

import torch
from nltk.translate.bleu_score import corpus_bleu
from nltk.translate.chrf_score import corpus_chrf, sentence_chrf

from . import alignment, by_length as bl_out, chrf_sacre, corpus, data, eval_langs, everyday, export
from . import tokenizer as tk
from .search import Translator

DEFAULT_GOLD = os.path.join(data.ROOT, "models", "eval", "align-gold.tsv")


def test_set(path, split="test", max_words=12):
    """[(english, [target references...])] in file order, English of max_words words or fewer."""
    refs = collections.OrderedDict()
    for en, fr in data.read_pairs(path):
        if data.split_of(en) == split and len(en.split()) <= max_words:
            refs.setdefault(en, []).append(fr)
    return list(refs.items())


def score(hyps, refs, tokenize, chrf2=False):
    """hyps: [text]; refs: [[text]] -> dict of BLEU/chrF, multi and single reference.
    tokenize: the tokens BLEU counts (eval_langs.bleu_tokenizer). chrf2: also sacreBLEU's
    chrF2 ("chrf2_multi", "chrf2_single"; scripts/nmt/chrf_sacre.py says why, for Chinese)."""
    h_tok = [tokenize(h) for h in hyps]
    r_tok = [[tokenize(r) for r in rs] for rs in refs]
    multi = corpus_bleu(r_tok, h_tok)
    single = corpus_bleu([[rs[0]] for rs in r_tok], h_tok)
    chrf_single = corpus_chrf([rs[0] for rs in refs], hyps)
    chrf_multi = sum(max(sentence_chrf(r, h) for r in rs) for h, rs in zip(hyps, refs)) / len(hyps)
    out = {"bleu_multi": 100 * multi, "bleu_single": 100 * single,
           "chrf_multi": 100 * chrf_multi, "chrf_single": 100 * chrf_single}
    if chrf2:
        out["chrf2_multi"] = chrf_sacre.corpus_chrf(hyps, refs)
        out["chrf2_single"] = chrf_sacre.corpus_chrf(hyps, [rs[:1] for rs in refs])
    return out


# Lines the native CLI decodes together (--batch N): its output is the same, line for line, as
# one at a time (tests/node/batch-cli.test.mjs, tests/python/test_native_eval.py). Greedy decoding
# runs them as one batch of GEMMs; beam search still goes one sentence at a time in the CLI. On
# the 3,500 test sentences, greedy, the native CLI took about 9 s with N = 8, 16, 32 or 64 and
# without --batch alike (a loaded 2-core machine): no gain natively yet, and no loss. 32 is the
# batch scripts/bench measures for the wasm engine, so a faster batched kernel or a batched beam
# search in the core speeds this up with no change here.
NATIVE_BATCH = 32


def native_translations(path, texts, beam, batch=NATIVE_BATCH):
    """The same model run by the C++ core (bit-for-bit the reference's outputs on the golden
    fixtures, and much faster than batch-1 PyTorch for beam search): [(text, attention rows)].
    batch: lines per --batch group, None for one at a time (the same output)."""
    exe = os.path.join(data.ROOT, "build", "native", "bahdanau-translate")
    if not os.path.exists(exe):
        raise SystemExit(f"{exe} is missing: run scripts/build first")
    args = [exe, "--model", path, "--beam", str(beam), "--json"]
    if batch:
        args += ["--batch", str(batch)]
    out = subprocess.run(args,
                         input="\n".join(texts) + "\n", capture_output=True, text=True,
                         check=True).stdout.split("\n")
    rows = [json.loads(line) for line in out[:len(texts)]]
    return [(r.get("text", ""), r.get("attention", [])) for r in rows]


def attention_entropy(matrices):
    """Mean entropy in bits of the attention rows (0: all weight on one column), over every
    row of every sentence: how sharp the alignments are."""
    rows = [row for m in matrices for row in m if row]  # a model without attention has none
    if not rows:
        return None
    return sum(-sum(p * math.log2(p) for p in row if p > 0) for row in rows) / len(rows)


def target_words(path, lang="fr"):
    """Every token of the target side of the corpus (all splits), for the copy measure."""
    return {t for _, fr in data.read_pairs(path) for t in tk.tokenize(fr, lang)}


french_words = target_words  # its name before the Chinese model


def copy_rate(src_texts, hyps, fr_words, lang="fr"):
    """Share of outputs (%) that contain a lowercase word of their source that never occurs on
    the target side of the corpus: an English word copied by the <unk> replacement."""
    bad = 0
    for src, hyp in zip(src_texts, hyps):
        src_words = {t for t in tk.tokenize(src, "en") if tk.is_word_cp(ord(t[0]))
                     and not tk.is_upper(ord(t[0])) and not t[0].isdigit()}
        bad += any(t in src_words and t not in fr_words for t in tk.tokenize(hyp, lang))
    return 100.0 * bad / max(len(hyps), 1)


def by_length(decode, items, tokenize):
    """Single-reference BLEU per bucket of the long-input set (joined.long_inputs), and the
    number of inputs in each."""
    out, counts = {}, {}
    texts = [en for _, en, _ in items]
    hyps = decode(texts)
    for bucket in dict.fromkeys(b for b, _, _ in items):
        idx = [i for i, (b, _, _) in enumerate(items) if b == bucket]
        h = [tokenize(hyps[i]) for i in idx]
        r = [[tokenize(items[i][2])] for i in idx]
        out[bucket] = round(100 * corpus_bleu(r, h), 2)
        counts[bucket] = len(idx)
    return out, counts


def main(argv=None):
    ap = argparse.ArgumentParser(prog="scripts/eval", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", nargs="+",
                    default=[os.path.join(data.ROOT, "models", "en-fr.safetensors")])
    ap.add_argument("--data", default=None,
                    help="the corpus (default: the target language's, eval_langs.DEFAULTS; "
                         f"French {data.DEFAULT_DATA})")
    ap.add_argument("--split", default="test", choices=["dev", "test"])
    ap.add_argument("--max-words", type=int, default=12)
    ap.add_argument("--beam", default="1,4", help="comma-separated beam sizes (1 = greedy)")
    ap.add_argument("--limit", type=int, default=None, help="first N sentences only")
    ap.add_argument("--engine", default="torch", choices=["torch", "native"],
                    help="decode with the PyTorch reference or the native C++ core")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--align", default=None,
                    help="alignment gold set ('' to skip): accuracy, mass, AER, entropy "
                         "(default: the target language's, align-gold.tsv for French, "
                         "align-gold-zh.tsv for Chinese)")
    ap.add_argument("--everyday", default=None,
                    help="everyday set ('' to skip): share of sentences translated as one of "
                         "their accepted translations (greedy), and the misses (default: "
                         "everyday-fr.tsv or everyday-zh.tsv, by target language)")
    ap.add_argument("--by-length", action="store_true",
                    help="also BLEU per source-length bucket of the long-input set (greedy); "
                         "prints the model card's table")
    ap.add_argument("--figure", metavar="SVG", help="with --by-length: draw the curves there "
                    "(docs/bleu-by-length.svg)")
    ap.add_argument("--figure-json", metavar="JSON", help="with --by-length: the numbers for the "
                    "page (web/data/bleu-by-length.json)")
    ap.add_argument("--sample", metavar="JSON", help="with --by-length: write the first "
                    "--sample-per-bucket inputs of each bucket for the page's in-browser run "
                    "(web/data/long-sample.json)")
    ap.add_argument("--sample-per-bucket", type=int, default=10)
    ap.add_argument("--copy", action="store_true",
                    help="also the share of outputs that copy an English word")
    ap.add_argument("--no-copy-rule", action="store_true",
                    help="torch engine only: let <unk> copy any source word, to measure what "
                         "the copy rule (docs/model-format.md) changes")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args(argv)
    if (args.figure or args.figure_json or args.sample) and not args.by_length:
        ap.error("--figure, --figure-json and --sample need --by-length")
    if args.no_copy_rule and args.engine != "torch":
        ap.error("--no-copy-rule needs --engine torch (the engines always apply the rule)")
    torch.set_num_threads(args.threads)

    # Every model is read first: their target language picks the defaults for the whole run.
    loaded = [(path, *export.load_model(path)) for path in args.model]
    lang = eval_langs.common_lang([eval_langs.target_lang(meta["cfg"]) for _, _, meta in loaded],
                                  [os.path.basename(path) for path in args.model])
    for key, value in eval_langs.defaults(lang).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if args.data is None:
        ap.error(f"no default corpus for target language {lang!r}: pass --data")

    items = test_set(args.data, args.split, args.max_words)[:args.limit]
    refs = [rs for _, rs in items]
    gold = alignment.read_gold(args.align, lang) if args.align else []
    everyday_items = everyday.read(args.everyday) if args.everyday else []
    long_items = bl_out.long_inputs(test_set(args.data, args.split, 60), lang) \
        if args.by_length else []
    fr_words = target_words(args.data, lang) if args.copy else None
    rows, curves = [], []
    for path, model, meta in loaded:
        tr = Translator(model, meta, copy_rule=not args.no_copy_rule)
        tokenize = eval_langs.bleu_tokenizer(lang, lambda text, tr=tr: tr.target(text)[0])
        extra = {"model": os.path.basename(path), "dtype": meta["cfg"].get("dtype", "?"),
                 "decoder": meta["cfg"].get("decoder", "paper"), "scoring": meta["cfg"]["scoring"],
                 "arch": meta["cfg"].get("arch", "rnn")}
        if gold and meta["cfg"]["scoring"] != "none":  # no attention, nothing to align
            extra.update({k: round(v, 3) if isinstance(v, float) else v for k, v in
                          alignment.measure(gold, alignment.torch_rows(tr)).items()})
            if meta["cfg"].get("arch") == "transformer":
                heads = alignment.per_head(gold, tr)
                best = max((k for k in heads if "H" in k),
                           key=lambda k: heads[k]["align_accuracy"])
                extra["align_best_head"] = {"head": best, **{
                    k: round(v, 3) for k, v in heads[best].items() if isinstance(v, float)}}
                extra["align_per_head"] = {k: round(v["align_accuracy"], 1)
                                           for k, v in heads.items()}
        def decode(texts, path=path, tr=tr):  # greedy, with the chosen engine
            if args.engine == "native":
                return [t for t, _ in native_translations(path, texts, 1)]
            return [tr.translate(t)["text"] for t in texts]
        if everyday_items:
            extra.update(everyday.score(decode, everyday_items, lang))
        if long_items:
            extra["bleu_by_length"], counts = by_length(decode, long_items, tokenize)
            curves.append({"model": os.path.basename(path).replace(".safetensors", ""),
                           # the file measured: tests/node/recorded-data.test.mjs fails when
                           # models/ holds another one under this name
                           "sha256": corpus.file_sha256(path),
                           "scoring": meta["cfg"]["scoring"], "arch": extra["arch"],
                           "bleu": extra["bleu_by_length"],
                           "sentences": counts})
        if gold or long_items or everyday_items:
            rows.append(extra)
            print(json.dumps(extra, ensure_ascii=False), flush=True)
        if everyday_items and not args.json:
            print(everyday.summary(extra["model"], extra), flush=True)
        for beam in (int(b) for b in args.beam.split(",") if b):
            t0 = time.time()
            entropy = None
            if args.engine == "native":
                out = native_translations(path, [en for en, _ in items], beam)
                hyps = [text for text, _ in out]
                entropy = attention_entropy([att for _, att in out])
            else:
                hyps = [tr.translate(en, beam)["text"] for en, _ in items]
            row = {"model": os.path.basename(path), "dtype": meta["cfg"].get("dtype", "?"),
                   "engine": args.engine, "beam": beam, "copy_rule": not args.no_copy_rule,
                   "sentences": len(items),
                   "references": sum(len(r) for r in refs), "seconds": round(time.time() - t0, 1)}
            row.update({k: round(v, 2) for k, v in
                        score(hyps, refs, tokenize, chrf2=lang == "zh").items()})
            if lang != "fr":  # French rows stay as they always were
                row["tgt_lang"] = lang
                row["bleu_tokens"] = "sacrebleu-zh" if lang == "zh" else "model"
            if fr_words is not None:
                row["copy_rate"] = round(copy_rate([en for en, _ in items], hyps, fr_words,
                                                   lang), 2)
            row["attention_entropy_bits"] = None if entropy is None else round(entropy, 3)
            rows.append(row)
            print(json.dumps(row) if args.json else
                  f"{row['model']:28s} beam {beam}: BLEU multi {row['bleu_multi']:.2f} "
                  f"single {row['bleu_single']:.2f} | chrF multi {row['chrf_multi']:.2f} "
                  f"single {row['chrf_single']:.2f}"
                  + ("" if entropy is None else f" | attention entropy {entropy:.3f} bits/row")
                  + ("" if fr_words is None else f" | copies English {row['copy_rate']:.2f}%")
                  + ("" if "chrf2_multi" not in row else f" | sacreBLEU chrF2 multi "
                     f"{row['chrf2_multi']:.2f} single {row['chrf2_single']:.2f}")
                  + ("" if lang == "fr" else f" | BLEU on {lang} tokens (bleu_zh.py)")
                  + f" ({len(items)} sentences, {row['seconds']}s)", flush=True)
    if curves:
        print("\nBLEU by source length (long-input set, greedy):\n" + bl_out.markdown_table(curves))
        command = "scripts/eval " + " ".join(shlex.quote(a) for a in
                                             (argv if argv is not None else sys.argv[1:]))
        bl_out.write(curves, command, args.figure, args.figure_json, args.sample, long_items,
                     args.sample_per_bucket, lang)
    return rows


if __name__ == "__main__":
    main()
