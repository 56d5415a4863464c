"""The reference tokenizer reproduces its committed fixture, and the spec's own examples."""
import json
import os

import pytest

from conftest import ROOT
from nmt import tokenizer as tk

with open(os.path.join(ROOT, "tests", "fixtures", "tokenizer.json"), encoding="utf-8") as f:
    FIXTURE = json.load(f)


def test_fixture_is_large_enough_and_current():
    assert FIXTURE["spec_version"] == tk.SPEC_VERSION
    assert len(FIXTURE["cases"]) >= 200


@pytest.mark.parametrize("case", FIXTURE["cases"], ids=lambda c: repr(c["input"][:30]))
def test_fixture_case(case):
    names = frozenset(FIXTURE["names"][case["lang"]])
    toks = tk.tokenize(case["input"], case["lang"], names)
    assert toks == case["tokens"]
    assert tk.detokenize(toks, case["lang"]) == case["detokenized"]


@pytest.mark.parametrize("text,lang,tokens,detok", [
    ("Je suis froid.", "fr", ["je", "suis", "froid", "."], "Je suis froid."),
    ("C\u2019est l\u2019heure\u202f!", "fr", ["c'", "est", "l'", "heure", "!"], "C'est l'heure !"),
    ("I don't know Tom.", "en", ["I", "do", "n't", "know", "Tom", "."], "I don't know Tom."),
    ("Jusqu'à demain.", "fr", ["jusqu'", "à", "demain", "."], "Jusqu'à demain."),
    ("Aujourd'hui.", "fr", ["aujourd'hui", "."], "Aujourd'hui."),
])
def test_spec_examples(text, lang, tokens, detok):
    names = {"I", "Tom"}
    assert tk.tokenize(text, lang, names) == tokens
    assert tk.detokenize(tokens, lang) == detok


def test_prepare_composes_what_normalize_composes():
    decomposed = "e\u0301te\u0301"
    assert tk.prepare(decomposed) == tk.normalize(decomposed) == "\u00e9t\u00e9"
