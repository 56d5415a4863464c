"""Writes tests/fixtures/tokenizer.json: input -> tokens -> detokenized, from the reference."""
import json
import os
import random
import sys

from . import data
from . import tokenizer as tk

NAMES = {"en": ["I", "Tom", "Mary", "Paris", "NASA", "English", "French", "Monday", "Émile"],
         "fr": ["Tom", "Marie", "Paris", "NASA", "Émile", "Noël", "Œdipe", "Japon"]}

# Case repair (spec step 6) runs with a vocabulary: a few words, some of which are also names
# in lower case ("us", "french"; "paris" in French), so both sides of its rule are exercised.
VOCAB = {"en": ["love", "you", "us", "french", "went", "to", "and", "am", "lower", "the", "is",
                "ok", "i'm"],
         "fr": ["je", "suis", "à", "paris", "l'", "été", "est", "là", "tom"]}

CASE_REPAIR = [
    ("en", "i love you"), ("en", "I LOVE YOU."), ("en", "tom and mary went to paris."),
    ("en", "TOM AND MARY WENT TO PARIS!"), ("en", "we love us and french fries"),
    ("en", "WE LOVE US AND FRENCH FRIES"), ("en", "I"), ("en", "NASA"), ("en", "OK"),
    ("en", "I love NASA."), ("en", "i'm émile"), ("en", "I'M ÉMILE."), ("en", "nasa. i am. ok"),
    ("en", "123 456"), ("en", "你好"), ("fr", "je suis à paris."),
    ("fr", "JE SUIS À PARIS."), ("fr", "L'ÉTÉ EST LÀ"), ("fr", "l'été est là, émile"),
    ("fr", "œdipe et noël"), ("fr", "ŒDIPE ET NOËL"), ("fr", "tom"), ("fr", "TOM EST LÀ"),
    # Step 7 with a vocabulary: a first word is lower-cased only into a word of the vocabulary.
    ("en", "Marie and John went to Paris."), ("en", "The cat is ok. Zorblax is ok."),
    ("en", "Love you. Marie!"), ("fr", "Suis là. Zoé est là."), ("fr", "Est-ce là ?"),
]

HANDMADE = [
    ("en", ""), ("en", " "), ("en", "   \t\n  "), ("fr", "\u00a0\u202f"),
    ("en", "I am cold."), ("fr", "Je suis froid."), ("fr", "C'est l'heure !"),
    ("fr", "C\u2019est l\u2019heure\u202f!"), ("fr", "Qu\u2019est-ce que c\u2019est\u00a0?"),
    ("fr", "Jusqu'à quand ?"), ("fr", "Lorsqu'il pleut, j'ai froid."),
    ("fr", "Puisqu'on est là, qu'il vienne."), ("fr", "Aujourd'hui, je n'ai rien fait."),
    ("fr", "L'homme l'a vu."), ("fr", "D'accord, s'il te plaît."), ("fr", "M'as-tu vu ?"),
    ("fr", "T'es où ?"), ("fr", "« Bonjour », dit-il."), ("fr", "Il a 3,5 kg de pommes."),
    ("fr", "Rendez-vous à 12:30."), ("fr", "Peut-être demain..."), ("fr", "Est-ce vrai ?!"),
    ("fr", "Œdipe est là."), ("fr", "Émile est à Paris."), ("fr", "ÉTÉ"), ("fr", "À bientôt."),
    ("fr", "Ça va ?"), ("fr", "Noël arrive."), ("fr", "Il coûte 10 €."),
    ("fr", "Il est 100 % sûr."), ("fr", "e\u0301te\u0301"), ("fr", "Ce\u0327a"),
    ("en", "Don't do that."), ("en", "I'm happy."), ("en", "It's Tom's car."),
    ("en", "We're here, you've won, they'll go, he'd know."), ("en", "I can't swim."),
    ("en", "I won't go."), ("en", "It's 5 o'clock."), ("en", "DON'T SHOUT!"),
    ("en", "The black cat is sleeping."), ("en", "Tom and Mary went to Paris."),
    ("en", "NASA launched it."), ("en", "Is it 3.14 or 1,000?"), ("en", "Wait... what?"),
    ("en", "Hi! How are you? Fine."), ("en", "(Really?)"), ("en", "He said \"yes\"."),
    ("en", "He said \u201cyes\u201d."), ("en", "rock \u2013 paper \u2014 scissors"),
    ("en", "state-of-the-art"), ("en", "-5 degrees"), ("en", "'quoted'"), ("en", "'s"),
    ("en", "n't"), ("en", "''"), ("en", "..."), ("en", "...."), ("en", "?!?!"),
    ("en", "I love you \U0001F600"), ("en", "\U0001F468\u200d\U0001F469\u200d\U0001F467"),
    ("en", "\u2764\ufe0f"), ("en", "Tokyo \u6771\u4eac is big."), ("en", "\u4f60\u597d\u4e16\u754c"),
    ("en", "\u041f\u0440\u0438\u0432\u0435\u0442 world"), ("en", "\u05e9\u05dc\u05d5\u05dd"),
    ("en", "\u0645\u0631\u062d\u0628\u0627"), ("en", "\uc548\ub155\ud558\uc138\uc694"),
    ("en", "caf\u00e9 na\u00efve r\u00e9sum\u00e9"), ("en", "a" * 300),
    ("en", "Supercalifragilisticexpialidocious" * 5), ("en", "x\u0000y"),
    ("en", "bell\u0007 and \u001b[31mred"), ("en", "zero\u200bwidth"), ("en", "\ufeffBOM"),
    ("en", "bidi \u202eevil\u202c text"), ("en", "tab\tseparated\nlines\r\n"),
    ("en", "I I I"), ("en", "i am lower"), ("en", "hello.world"), ("en", "a.b.c"),
    ("en", "1.2.3"), ("en", "3."), ("en", ".5"), ("en", "#hashtag @user"),
    ("en", "http://example.com/a?b=c"), ("en", "50%"), ("en", "$100"), ("en", "\u00bfQu\u00e9?"),
    ("fr", "\u00a1Hola!"), ("en", "\u00c9cole"), ("fr", "\u00c9cole"), ("en", "\u00c0 la carte"),
    ("en", "e\u0301"), ("en", "\u0301e"), ("en", "A\u030a"), ("en", "n\u0303"),
    ("en", "q\u0301"), ("en", "ALL CAPS SENTENCE."), ("en", "McDonald is here."),
    ("en", "iPhone"), ("fr", "l'"), ("fr", "l''a"), ("fr", "qu'qu'il"), ("fr", "c'-est"),
    ("fr", "L'\u00c9t\u00e9"), ("fr", "L'ÉTÉ"), ("en", "-"), ("en", "--"), ("en", "a-"),
    ("en", "-a"), ("en", "a--b"), ("en", "a'b'c"), ("en", "1,,2"), ("en", "12:30:45"),
    ("en", "\ufffd"), ("en", "\U0010fffd"), ("en", "\u00d7\u00f7"), ("en", "Tom. Mary! i? ok"),
]


def cases_from_corpus(path, n_per_lang, seed=7):
    if not os.path.exists(path):
        return []
    pairs = data.read_pairs(path)
    rng = random.Random(seed)
    picked = rng.sample([p for p in pairs if data.split_of(p[0]) == "dev"], n_per_lang)
    return [("en", p[0]) for p in picked] + [("fr", p[1]) for p in picked]


def make(path_out, data_path):
    cases = []
    for lang, text in HANDMADE + CASE_REPAIR + cases_from_corpus(data_path, 60):
        names = frozenset(NAMES[lang])
        toks = tk.tokenize(text, lang, names)
        cases.append({"lang": lang, "input": text, "tokens": toks,
                      "tokens_with_vocab": tk.tokenize(text, lang, names, set(VOCAB[lang])),
                      "detokenized": tk.detokenize(toks, lang)})
    doc = {"spec_version": tk.SPEC_VERSION, "names": NAMES, "vocab": VOCAB,
           "note": "made by scripts/nmt/tokenizer_fixtures.py; inputs are NOT NFC-normalised; "
                   "tokens_with_vocab: tokenized with the vocabulary, so with case repair",
           "cases": cases}
    with open(path_out, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
    return len(cases)


if __name__ == "__main__":
    out = os.path.join(data.ROOT, "tests", "fixtures", "tokenizer.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    print(make(out, sys.argv[1] if len(sys.argv) > 1 else data.DEFAULT_DATA), "cases ->", out)
