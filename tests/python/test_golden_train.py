"""tests/fixtures/tiny-train.json (the C++ trainer's golden fixture) is what the reference
writes, and it holds what tests/cpp/train_test.cpp relies on."""
import json
import os

import torch

import json_close
from nmt import export, golden_train

FIX = golden_train.FIX


def stored():
    with open(os.path.join(FIX, golden_train.OUT)) as f:
        return json.load(f)


def test_the_train_fixture_is_what_the_reference_writes(tmp_path):
    torch.set_num_threads(1)
    golden_train.write(str(tmp_path))
    with open(tmp_path / golden_train.OUT) as f:
        diff = json_close.differences(json.load(f), stored())
    assert not diff, "run: PYTHONPATH=scripts /usr/bin/python3 -m nmt.golden_train\n" + "\n".join(diff)


def test_every_parameter_has_a_gradient_and_the_batch_is_padded():
    doc = stored()
    assert len({len(p["src"]) for p in doc["batch"]}) > 1  # sources of different lengths
    assert len({len(p["tgt"]) for p in doc["batch"]}) > 1
    for m in doc["models"]:
        model, _ = export.load_model(os.path.join(FIX, m["model"]))
        tensors = export.to_tensors(model)
        assert sorted(m["grads"]) == sorted(tensors)
        assert sorted(m["smoothed"]["grads"]) == sorted(tensors)
        for name, g in m["grads"].items():
            assert len(g) == tensors[name].size
            assert len(m["smoothed"]["grads"][name]) == tensors[name].size
        # smoothing changes the case: the C++ test would notice it being ignored
        assert m["smoothed"]["loss"] != m["loss"] and m["smoothed"]["grads"] != m["grads"]
        assert len(m["adam_losses"]) == golden_train.ADAM_STEPS
        if m["model"].removesuffix("-f32.safetensors") in golden_train.AVERAGED:
            avg = m["average"]
            assert avg["decay"] == golden_train.AVERAGE
            assert sorted(avg["weights"]) == sorted(tensors)
            assert all(len(avg["weights"][n]) == tensors[n].size for n in tensors)
            assert avg["loss"] != m["loss"]  # the averaged model is not the starting one
    assert sum("average" in m for m in doc["models"]) == len(golden_train.AVERAGED)
    assert os.path.getsize(os.path.join(FIX, golden_train.OUT)) < 1 << 20
