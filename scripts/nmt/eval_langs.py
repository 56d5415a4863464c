"""What scripts/eval uses for each target language: the default corpus, gold alignments and
everyday set, and the tokens BLEU counts. The model file says which language it writes
(cfg["tgt_lang"]), so `scripts/eval --model models/en-zh.safetensors` needs no other flag.

French keeps what scripts/eval always did: eng-fra.tsv, align-gold.tsv, everyday-fr.tsv, and
BLEU on the model's own target tokens (docs/tokenization.md). Chinese counts BLEU on
sacreBLEU's `zh` tokens (scripts/nmt/bleu_zh.py), so the figure compares with published ones.
"""
import os

from . import bleu_zh, data

EVAL_DIR = os.path.join(data.ROOT, "models", "eval")
# The corpora sit beside the French one (data.DEFAULT_DATA: ../shared/data/ of the checkout).
DATA_DIR = os.path.dirname(data.DEFAULT_DATA)

DEFAULTS = {
    "fr": {"data": data.DEFAULT_DATA,
           "align": os.path.join(EVAL_DIR, "align-gold.tsv"),
           "everyday": os.path.join(EVAL_DIR, "everyday-fr.tsv")},
    "zh": {"data": os.path.join(DATA_DIR, "eng-cmn.tsv"),
           "align": os.path.join(EVAL_DIR, "align-gold-zh.tsv"),
           "everyday": os.path.join(EVAL_DIR, "everyday-zh.tsv")},
}


def target_lang(cfg):
    """The language a model translates into; files from before tgt_lang was recorded are
    the French models."""
    return cfg.get("tgt_lang", "fr")


def common_lang(langs, names):
    """The one target language of all the models given at once; refuses a mix, since one run
    scores every model on one corpus, gold set and everyday set."""
    if len(set(langs)) > 1:
        listing = ", ".join(f"{n} -> {lang}" for n, lang in zip(names, langs))
        raise SystemExit("scripts/eval: these models translate into different languages "
                         f"({listing}); evaluate each language in its own run")
    return langs[0]


def defaults(lang):
    """{"data", "align", "everyday"} paths for lang; a language without its own sets gets
    none (the caller must pass --data, and skips the rest)."""
    return DEFAULTS.get(lang, {"data": None, "align": "", "everyday": ""})


def bleu_tokenizer(lang, model_tokenize):
    """The function text -> tokens that BLEU counts for lang. model_tokenize is the model's
    own target tokenizer (Translator.target), which French BLEU has always used."""
    return bleu_zh.tokenize if lang == "zh" else model_tokenize
