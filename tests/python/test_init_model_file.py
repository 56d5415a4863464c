"""train --init from a shipped model file (.safetensors), not only a checkpoint: a second stage
for a model whose training checkpoint is gone (models/en-zh.md's second stage)."""
import json

import pytest
import torch

from nmt import checkpoints, export_cli
from nmt import train as train_mod

from test_guided_alignment import synthetic_tsv

CFG = '{"emb": 8, "enc_hidden": 8, "dec_hidden": 8, "attn": 8, "src_vocab": 40, "tgt_vocab": 40}'


def test_a_model_file_starts_a_second_stage_with_its_weights_and_record(tmp_path):
    tsv = tmp_path / "pairs.tsv"
    synthetic_tsv(tsv, 100)
    base = ["--data", str(tsv), "--batch", "16", "--threads", "1", "--config", CFG, "--quiet",
            "--config", json.dumps(dict(json.loads(CFG), dropout=0.2))]
    first, _, _ = train_mod.main(base + ["--out", str(tmp_path / "a"), "--steps", "3"])
    model_file = tmp_path / "m.safetensors"
    export_cli.main(["--checkpoint", str(tmp_path / "a" / "best.pt"), "--out", str(model_file)])
    for path in (model_file, tmp_path / "m-f32.safetensors"):
        ck = checkpoints.init_source(str(path))
        tol = 0 if "f32" in path.name else 0.02  # int8: dequantized as stored
        for name, w in first.state_dict().items():
            assert torch.allclose(ck["model"][name], w, atol=tol), name
        _, _, state = train_mod.main(base + ["--out", str(tmp_path / path.stem), "--steps", "2",
                                             "--init", str(path)])
        assert state["step"] == 2 and state["before"][-1]["steps"] == 3
        assert state["before"][-1]["recipe"]["steps"] == 3
        json.dumps(state["before"])


def test_a_model_file_of_another_shape_is_refused(tmp_path):
    tsv = tmp_path / "pairs.tsv"
    synthetic_tsv(tsv, 100)
    base = ["--data", str(tsv), "--batch", "16", "--threads", "1", "--quiet"]
    train_mod.main(base + ["--config", CFG, "--out", str(tmp_path / "a"), "--steps", "1"])
    export_cli.main(["--checkpoint", str(tmp_path / "a" / "best.pt"),
                     "--out", str(tmp_path / "m.safetensors")])
    with pytest.raises(SystemExit, match="another config"):
        train_mod.main(base + ["--config", CFG.replace('"attn": 8', '"attn": 4'), "--steps", "1",
                               "--out", str(tmp_path / "b"), "--init", str(tmp_path / "m.safetensors")])
