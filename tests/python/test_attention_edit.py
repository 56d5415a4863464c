"""The reference's attention edits (scripts/nmt/attention_edit.py), which the golden fixture
tests/fixtures/tiny-edits.json pins for the C++ core: the edited step mixes c_i from the given
row, reports the model's own, and the steps before it are the plain run's."""
import json
import math
import os

import pytest
import torch

import json_close
from nmt import attention_edit, export, golden
from nmt.search import Translator, copyable

FIX = golden.FIX


def translator(name):
    model, meta = export.load_model(os.path.join(FIX, name))
    return Translator(model, meta)


def test_rnn_edit_gives_the_row_and_keeps_the_prefix():
    tr = translator("tiny-additive-f32.safetensors")
    toks, ids = tr.source(golden.EDIT_TEXT)
    mask = [copyable(t, tr.tgt_index) for t in toks]
    plain = tr.greedy(ids, mask)
    edited = tr.greedy(ids, mask, [{"step": 2, "column": 4}])
    assert [s["alpha"] for s in edited[:2]] == [s["alpha"] for s in plain[:2]]
    assert edited[2]["alpha"] == [0, 0, 0, 0, 1, 0, 0]
    assert edited[2]["own_alpha"] == pytest.approx(plain[2]["alpha"], abs=1e-6)
    assert edited[2]["c"] != plain[2]["c"]
    assert "edited" not in edited[1] and "edited" not in edited[3]


def test_weights_are_scaled_in_double_and_bad_ones_refused():
    row = attention_edit.given_row({"step": 0, "weights": [1, 2, 0, 1]}, 4)
    assert row.tolist() == pytest.approx([0.25, 0.5, 0, 0.25])
    for bad in ([1, -1, 0, 0], [0, 0, 0, 0], [1, float("nan"), 0, 0], [1, 0]):
        with pytest.raises(ValueError):
            attention_edit.given_row({"step": 0, "weights": bad}, 4)


def test_held_edit_covers_later_steps_until_another_takes_over():
    cfg = {"scoring": "additive"}
    plan = attention_edit.plan([{"step": 1, "column": 0, "hold": True},
                                {"step": 3, "column": 2}], cfg, 3, 6)
    assert [sorted(p) for p in plan] == [[], [(0, 0)], [(0, 0)], [(0, 0)], [], []]
    assert plan[3][(0, 0)].tolist() == [0, 0, 1]


def test_transformer_ablation_zeroes_the_head_and_reports_its_own_weights():
    tr = translator("tiny-transformer-f32.safetensors")
    toks, ids = tr.source(golden.EDIT_TEXT)
    _, tgt = tr.target(golden.EDIT_TARGET)
    plain = tr.force(ids, tgt)
    ablated = tr.force(ids, tgt, [{"step": 1, "layer": 1, "head": 0, "ablate": True}])
    assert ablated[1]["cross"]["alpha"][1][0] == [0.0] * len(ids + [3])
    assert ablated[1]["cross_own"][1][0] == pytest.approx(plain[1]["cross"]["alpha"][1][0],
                                                          abs=1e-6)
    assert ablated[0]["prob"] == plain[0]["prob"]
    assert ablated[1]["prob"] != plain[1]["prob"]
    # The last layer's output at position 1 is read by no later position; layer 0's is, through
    # layer 1's self-attention keys and values (the C++ core's cache keeps them).
    assert ablated[2]["prob"] == plain[2]["prob"]
    early = tr.force(ids, tgt, [{"step": 1, "layer": 0, "head": 0, "ablate": True}])
    assert early[2]["prob"] != plain[2]["prob"]


def test_the_golden_fixture_is_what_the_reference_writes(tmp_path, monkeypatch):
    monkeypatch.setattr(golden, "FIX", str(tmp_path))
    for name in os.listdir(FIX):  # the stored tiny models, read from the temp folder
        if name.startswith("tiny-") and name.endswith(".safetensors"):
            os.symlink(os.path.join(FIX, name), tmp_path / name)
    torch.set_num_threads(1)
    golden.write_edits()
    with open(tmp_path / "tiny-edits.json") as f, open(os.path.join(FIX, "tiny-edits.json")) as g:
        # Its int8 models quantize each activation: a last-place difference can move one
        # quantization step, 3e-6 on a score (json_close says why the CPU matters at all).
        diff = json_close.differences(json.load(f), json.load(g), abs_tol=1e-5)
    assert not diff, "run: python3 -m scripts.nmt.golden --edits-only\n" + "\n".join(diff)


def test_edit_effect_counts_the_gold_linked_steps_and_skips_models_without_attention(tmp_path):
    from nmt import edit_effect
    gold = tmp_path / "gold.tsv"
    # "the black cat" / "le chat noir": le-the, chat-cat, noir-black (sure); "." unlinked
    gold.write_text("the black cat .\tle chat noir .\t0-0 2-1 1-2\n", encoding="utf-8")
    out = tmp_path / "effect.json"
    edit_effect.main(["--model", os.path.join(FIX, "tiny-additive-f32.safetensors"),
                      os.path.join(FIX, "tiny-none-f32.safetensors"),
                      os.path.join(FIX, "tiny-transformer-f32.safetensors"),
                      "--align", str(gold), "--json", str(out)])
    doc = json.loads(out.read_text())
    rnn, none, tf = doc["models"]
    assert [(r["edit"], r["what"], r["steps"]) for r in rnn["rows"]] == [
        ("attention", "gold", 3), ("attention", "other", 3)]
    assert "no attention" in none["reason"]
    labels = {(r["edit"], r["what"]) for r in tf["rows"]}
    assert ("every head", "gold") in labels and ("L2H3", "off") in labels
    assert ("every head", "off") not in labels  # ablation is per head
    for r in rnn["rows"] + tf["rows"]:
        assert 0 <= r["changed"] <= 100 and math.isfinite(r["dlogp_mean"])
