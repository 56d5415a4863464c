"""scripts/eval --engine native: native_translations decodes through the CLI's --batch, and its
texts and attention rows are exactly those of the CLI one line at a time (tiny fixture models;
the CLI's own byte-for-byte check of --batch is tests/node/batch-cli.test.mjs)."""
import os
import subprocess

import pytest

from nmt import evaluate

from conftest import ROOT

EXE = os.path.join(ROOT, "build", "native", "bahdanau-translate")
# Lengths from one token to well past a batch's shortest, so sentences leave the batch at
# different steps; 7 texts in groups of 3 end with a short group.
TEXTS = ["I am cold.", "The black cat is sleeping on the old red chair near the window.", "Tom.",
         "We saw the house.", "Is it raining? No.", "A cat, a dog and a bird are here today.", "Hi"]


@pytest.fixture(autouse=True)
def native_cli():
    # scripts/test builds the CLI before it runs these tests.
    if not os.path.exists(EXE):
        pytest.fail(f"{EXE} is missing: run scripts/build first")


@pytest.fixture
def commands(monkeypatch):
    """The argument lists native_translations runs."""
    seen, run = [], subprocess.run

    def spy(args, **kw):
        seen.append(args)
        return run(args, **kw)

    monkeypatch.setattr(evaluate.subprocess, "run", spy)
    return seen


# Models whose random weights write words for most of TEXTS (the tiny Transformer writes none,
# which would make the comparison empty), with and without attention.
@pytest.mark.parametrize("model", ["tiny-additive-int8", "tiny-none-int8",
                                   "tiny-scaled_dot-cgru-int8"])
@pytest.mark.parametrize("beam", [1, 3])
def test_batched_equals_one_at_a_time(model, beam, commands):
    path = os.path.join(ROOT, "tests", "fixtures", f"{model}.safetensors")
    one = evaluate.native_translations(path, TEXTS, beam, batch=None)
    assert "--batch" not in commands[-1]
    assert len(one) == len(TEXTS) and sum(1 for text, _ in one if text) > len(TEXTS) // 2
    for batch in (3, evaluate.NATIVE_BATCH):
        got = evaluate.native_translations(path, TEXTS, beam, batch=batch)
        assert commands[-1][-2:] == ["--batch", str(batch)]
        assert got == one, f"--batch {batch}"


def test_default_is_batched(commands):
    path = os.path.join(ROOT, "tests", "fixtures", "tiny-additive-f32.safetensors")
    evaluate.native_translations(path, TEXTS[:2], 1)
    assert commands[-1][-2:] == ["--batch", str(evaluate.NATIVE_BATCH)]
