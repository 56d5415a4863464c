"""The reference Transformer: its one-step interface (what search and the C++ core follow)
matches its own teacher-forced pass, the file round-trips, and a tiny run learns."""
import json

import numpy as np
import pytest
import torch

from nmt import data, export, golden, transformer
from nmt import train as train_mod
from nmt.search import Translator

from test_search_bleu_train import synthetic_pairs


def tiny():
    model, meta = golden.tiny_transformer(golden.TINY_TRANSFORMER_SEED)
    return model, meta


def test_steps_recompute_the_teacher_forced_pass():
    """Decoding one token at a time (the prefix re-read each step) gives the logits and the
    cross-attention of the whole-sentence causal pass: the mask really hides the future."""
    model, _ = tiny()
    src = torch.tensor([[5, 9, 12, 7, data.EOS]])
    tgt = torch.tensor([[data.BOS, 6, 11, 8, 20]])
    with torch.no_grad():
        logits, alpha = model(src, torch.tensor([5]), tgt, return_alpha=True)
        mem, _, s = model.encode(src, torch.tensor([5]))
        mask = torch.ones(1, 5, dtype=torch.bool)
        for i in range(tgt.size(1)):
            _, a, _, s, z = model.step(tgt[:, i], s, mem, None, mask)
            assert torch.allclose(model.logits(s, None, z)[0], logits[0, i], atol=1e-5)
            assert torch.allclose(a[0], alpha[0, i], atol=1e-6)


def test_padding_does_not_change_a_sentence():
    model, _ = tiny()
    src = torch.tensor([[5, 9, data.EOS, 0, 0], [5, 9, 12, 7, data.EOS]])
    tgt = torch.tensor([[data.BOS, 6, 11], [data.BOS, 6, 11]])
    with torch.no_grad():
        both = model(src, torch.tensor([3, 5]), tgt)
        alone = model(src[:1, :3], torch.tensor([3]), tgt[:1])
    assert torch.allclose(both[0], alone[0], atol=1e-5)


def test_summary_row_is_the_last_layers_mean_over_heads():
    model, meta = tiny()
    tr = Translator(model, meta)
    _, ids = tr.source("The black cat is sleeping.")
    for st in tr.greedy(ids):
        last = np.array(st["cross"]["alpha"][-1])
        assert np.allclose(last.mean(axis=0), st["alpha"], atol=1e-6)
        assert np.allclose(np.array(st["cross"]["alpha"]).sum(axis=-1), 1.0, atol=1e-5)
    att = tr.encoder_self_attention(ids)
    assert tuple(att.shape) == (2, 3, len(ids) + 1, len(ids) + 1)
    assert torch.allclose(att.sum(-1), torch.ones(2, 3, len(ids) + 1), atol=1e-5)


@pytest.mark.parametrize("dtype", ["f32", "int8"])
def test_file_round_trip(tmp_path, dtype):
    model, meta = tiny()
    path = str(tmp_path / f"t-{dtype}.safetensors")
    export.save_model(path, model, meta, dtype)
    back, back_meta = export.load_model(path)
    assert back_meta["cfg"]["arch"] == "transformer"
    cfg = json.loads(__import__("nmt.safetensors_io", fromlist=["load"]).load(path)[1]["config"])
    assert cfg["d_model"] == 12 and cfg["heads"] == 3 and cfg["dtype"] == dtype
    a, b = Translator(model, meta), Translator(back, back_meta)
    text = "She likes my white house."
    if dtype == "f32":
        assert a.translate(text, 4) == b.translate(text, 4)
    else:  # per-row int8: the same shape of answer, close weights
        for name, w in export.to_tensors(back).items():
            ref = export.to_tensors(model)[name]
            assert np.abs(w - ref).max() <= np.abs(ref).max() / 127 + 1e-6, name


def test_tiny_transformer_training_run_drops_the_loss(tmp_path):
    tsv = tmp_path / "pairs.tsv"
    tsv.write_text("".join(f"{e}\t{f}\tCC-BY\n" for e, f in synthetic_pairs(300)),
                   encoding="utf-8")
    out = tmp_path / "run"
    cfg = ('{"emb": 16, "d_model": 32, "heads": 2, "ffn": 64, "enc_layers": 1, "dec_layers": 1,'
           ' "src_vocab": 40, "tgt_vocab": 40}')
    train_mod.main(["--arch", "transformer", "--warmup", "20", "--data", str(tsv), "--out",
                    str(out), "--epochs", "12", "--batch", "16", "--smoothing", "0", "--threads",
                    "1", "--config", cfg, "--quiet"])
    dev = [json.loads(l)["dev_loss"] for l in open(out / "log.jsonl") if "dev_loss" in l]
    assert len(dev) == 12
    assert dev[-1] < 0.6 * dev[0], dev


def test_positions_are_the_papers_sinusoids():
    pe = transformer.positions(3, 4)
    assert torch.allclose(pe[1], torch.tensor([np.sin(1.0), np.cos(1.0), np.sin(0.01),
                                               np.cos(0.01)], dtype=torch.float32), atol=1e-6)
