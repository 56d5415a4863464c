"""NLTK's corpus BLEU (what scripts/eval reports) on fixed token lists, pinned in
tests/fixtures/bleu-cases.json; tests/node/bleu.test.mjs checks that the page's JS BLEU
(web/lib/bleu.js) gives the same numbers. Rewrite the fixture with BLEU_FIXTURE_WRITE=1."""
import json
import os
import random
import warnings

from nltk.translate.bleu_score import corpus_bleu

from nmt import data

FIXTURE = os.path.join(data.ROOT, "tests", "fixtures", "bleu-cases.json")


def cases():
    """Hand-made edge cases, then seeded random corpora over a small vocabulary (so that
    n-grams match often but not always)."""
    out = [
        {"name": "identical", "hyps": [["le", "chat", "noir", "dort", "."]],
         "refs": [[["le", "chat", "noir", "dort", "."]]]},
        {"name": "no unigram match", "hyps": [["a", "b"]], "refs": [[["c", "d"]]]},
        {"name": "no 4-gram match (method0)", "hyps": [["le", "chat", "noir", "dort"]],
         "refs": [[["le", "chat", "noir", "mange"]]]},
        {"name": "empty hypothesis among others", "hyps": [[], ["le", "chat", "dort", "bien", "."]],
         "refs": [[["il", "dort"]], [["le", "chat", "dort", "bien", "."]]]},
        {"name": "short hypotheses add 1 to higher-order denominators",
         "hyps": [["oui"], ["le", "chat", "noir", "dort", "ici", "."]],
         "refs": [[["oui"]], [["le", "chat", "noir", "dort", "ici", "."]]]},
        {"name": "closest reference length, ties to the shorter",
         "hyps": [["je", "suis", "là", "maintenant", "."]],
         "refs": [[["je", "suis", "là", "."], ["je", "suis", "là", "maintenant", "ici", "."]]]},
        {"name": "clipping by the best reference",
         "hyps": [["le", "le", "le", "le", "chat", "dort", "ici", "."]],
         "refs": [[["le", "chat", "dort", "ici", "."], ["le", "le", "chat", "dort", "ici", "."]]]},
        {"name": "longer than the reference (no brevity penalty)",
         "hyps": [["le", "chat", "noir", "dort", "ici", "et", "là", "."]],
         "refs": [[["le", "chat", "noir", "dort", "ici", "."]]]},
    ]
    vocab = "le la les chat chien noir dort mange il elle est un une . , ?".split()
    rng = random.Random(20261130)
    for k in range(40):
        size = rng.randint(1, 12)
        hyps, refs = [], []
        for _ in range(size):
            ref = [rng.choice(vocab) for _ in range(rng.randint(1, 20))]
            hyp = [w if rng.random() < 0.7 else rng.choice(vocab) for w in ref]
            hyp = hyp[:rng.randint(0, len(hyp) + 2)] + ["."] * rng.randint(0, 2)
            more = [[rng.choice(vocab) for _ in range(rng.randint(1, 20))]
                    for _ in range(rng.randint(0, 2))]
            hyps.append(hyp)
            refs.append([ref] + more)
        out.append({"name": f"random {k}", "hyps": hyps, "refs": refs})
    return out


def nltk_bleu(case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NLTK warns when a higher-order n-gram never matches
        return corpus_bleu(case["refs"], case["hyps"])


def test_fixture_holds_nltk_numbers():
    computed = [dict(c, bleu=nltk_bleu(c)) for c in cases()]
    if os.environ.get("BLEU_FIXTURE_WRITE"):
        with open(FIXTURE, "w") as f:
            json.dump({"about": __doc__.strip(), "cases": computed}, f, ensure_ascii=False)
    with open(FIXTURE) as f:
        stored = json.load(f)["cases"]
    assert [c["name"] for c in stored] == [c["name"] for c in computed]
    for s, c in zip(stored, computed):
        assert s["hyps"] == c["hyps"] and s["refs"] == c["refs"], s["name"]
        assert s["bleu"] == c["bleu"], s["name"]
    # the cases cover what they claim: zero, tiny (method0), partial and perfect scores
    scores = [c["bleu"] for c in computed]
    assert 0 in scores and 1 in scores
    assert any(0 < b < 1e-50 for b in scores) and sum(0.05 < b < 0.95 for b in scores) >= 20
