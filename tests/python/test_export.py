"""Model files: bit-exact round trip, and the int8 error bound."""
import numpy as np
import torch

from nmt import export, golden, safetensors_io
from nmt.search import Translator


def test_f32_round_trip_is_bit_exact(tmp_path):
    model, meta = golden.tiny_model("additive", 5)
    path = str(tmp_path / "m.safetensors")
    export.save_model(path, model, meta, "f32")
    again, meta2 = export.load_model(path)
    for (n1, p1), (n2, p2) in zip(model.state_dict().items(), again.state_dict().items()):
        assert n1 == n2 and torch.equal(p1, p2), n1
    assert meta2["src_itos"] == meta["src_itos"] and meta2["tgt_names"] == meta["tgt_names"]
    # and a second save writes the same bytes
    path2 = str(tmp_path / "m2.safetensors")
    export.save_model(path2, again, meta2, "f32")
    assert open(path, "rb").read() == open(path2, "rb").read()


def test_int8_round_trip_is_bit_exact(tmp_path):
    model, meta = golden.tiny_model("scaled_dot", 6)
    a, b = str(tmp_path / "a.safetensors"), str(tmp_path / "b.safetensors")
    export.save_model(a, model, meta, "int8")
    t, md = safetensors_io.load(a)
    safetensors_io.save(b, t, md)
    assert open(a, "rb").read() == open(b, "rb").read()
    assert t["src_emb"].dtype == np.int8 and t["src_emb.scale"].shape == (t["src_emb"].shape[0],)
    assert "att.v" not in t  # scaled_dot has no v


def test_int8_error_within_half_a_step():
    """Symmetric per-row rounding: every weight is within scale/2 = max|row|/254 of its original."""
    rng = np.random.default_rng(0)
    w = rng.normal(0, 0.3, size=(64, 37)).astype(np.float32)
    w[3] = 0.0  # an all-zero row must not divide by zero
    q, scale = export.quantize_rows(w)
    deq = q.astype(np.float32) * scale[:, None]
    err = np.abs(deq - w)
    assert np.all(err <= scale[:, None] / 2 + 1e-7)
    assert np.all(np.abs(w).max(axis=1)[scale != 1.0] / 127 - scale[scale != 1.0] < 1e-7)
    assert np.all(deq[3] == 0)


def test_int8_model_stays_close_to_f32(tmp_path):
    """Stated bound: int8 first-step log-probs stay within 0.25 of f32 (max abs) even on the tiny
    model, whose N(0, 0.6) random weights are far harsher to quantize than trained ones."""
    model, meta = golden.tiny_model("additive", 7)
    export.save_model(str(tmp_path / "q.safetensors"), model, meta, "int8")
    qmodel, qmeta = export.load_model(str(tmp_path / "q.safetensors"))
    f, q = Translator(model, meta), Translator(qmodel, qmeta)
    worst = 0.0
    for text in golden.TINY_INPUTS[:8]:
        _, ids = f.source(text)
        if not ids:
            continue
        ef, eq = f.encode(ids), q.encode(ids)
        lf = f.step(ef, 2, ef[2])[4]
        lq = q.step(eq, 2, eq[2])[4]
        worst = max(worst, float((lf - lq).abs().max()))
    assert 0 < worst < 0.25
