"""4-bit weights (scripts/nmt/q4.py, the model file's dtype "q4"): the packing the engines read,
the scales, the error, and a model file converted to q4 and read back."""
import json
import os

import numpy as np
import pytest

from nmt import export, golden, q4, safetensors_io


def test_packing_is_the_documented_one():
    codes = np.arange(-8, 8, dtype=np.int8).reshape(1, 16)  # -8..7 in order
    packed = q4.pack(codes)
    assert packed.shape == (1, 8)
    # byte i (0..7): q_i + 8 in the low nibble, q_{i+8} + 8 in the high one
    for i in range(8):
        assert packed[0, i] & 0xF == codes[0, i] + 8
        assert packed[0, i] >> 4 == codes[0, i + 8] + 8
    assert (q4.unpack(packed) == codes).all()


def test_quantize_error_and_scales():
    rng = np.random.RandomState(3)
    w = rng.randn(7, 64).astype(np.float32) * rng.uniform(0.01, 2.0, size=(7, 1)).astype(np.float32)
    w[2, 16:32] = 0.0  # an all-zero group gets a positive scale and zero codes
    codes, scales = q4.quantize(w)
    assert codes.dtype == np.int8 and codes.min() >= -8 and codes.max() <= 7
    assert scales.dtype == np.float16 and scales.shape == (7, 4) and (scales > 0).all()
    back = q4.dequantize(q4.pack(codes), scales)
    assert back.dtype == np.float32
    s = np.repeat(scales.astype(np.float32), 16, axis=1)
    # within half a step where the code is not at an end (-8, 7); there, clipped, within the
    # part of amax the scale leaves out (7 s >= 0.6 amax) plus half a step
    amax = np.repeat(np.abs(w.reshape(7, 4, 16)).max(axis=2), 16, axis=1)
    inner = (codes > -8) & (codes < 7)
    err = np.abs(back - w)
    assert (err[inner] <= (s / 2 + 1e-6 * np.abs(w))[inner]).all()
    assert (err[~inner] <= (0.4 * amax + s / 2 + 1e-6)[~inner]).all()
    assert (back[2, 16:32] == 0).all()
    # every group's scale is the best of the candidate factors for it
    g = w.reshape(7, 4, 16)
    err = ((back.reshape(7, 4, 16) - g) ** 2).sum(axis=2)
    for frac in q4.FACTORS:
        amax = np.abs(g).max(axis=2)
        s2 = np.where(amax > 0, amax * frac / 7.0, 1.0).astype(np.float16).astype(np.float32)
        s2 = np.where(s2 > 0, s2, np.float32(2.0 ** -24))
        q = np.clip(np.rint(g / s2[..., None]), -8, 7)
        assert (err <= ((q * s2[..., None] - g) ** 2).sum(axis=2) + 1e-12).all()


def test_width_must_be_a_multiple_of_16():
    with pytest.raises(ValueError, match="multiple of 16"):
        q4.quantize(np.ones((2, 24), np.float32))


def test_model_file_converted_to_q4_reads_back(tmp_path):
    src = os.path.join(golden.FIX, "tiny16-additive-cgru-q4.safetensors")
    out = tmp_path / "again.safetensors"
    export.convert_file(src, str(out), "q4", {"from": "test"})
    t, md = safetensors_io.load(str(out))
    assert json.loads(md["config"])["dtype"] == "q4"
    assert json.loads(md["training"])["converted"] == {"from": "test"}
    assert t["src_emb"].dtype == np.uint8 and t["src_emb.scale"].dtype == np.float16
    assert t["att.v"].dtype == np.float32
    # q4 of q4 weights is the same weights: each group's best scale reproduces them
    a = export.dequantize(safetensors_io.load(src)[0])
    b = export.dequantize(t)
    assert a.keys() == b.keys()
    for k in a:
        np.testing.assert_allclose(b[k], a[k], rtol=0, atol=1e-6 * (np.abs(a[k]).max() + 1))
    # and int8 from it: one scale a row
    export.convert_file(src, str(tmp_path / "i8.safetensors"), "int8")
    t8, _ = safetensors_io.load(str(tmp_path / "i8.safetensors"))
    assert t8["src_emb"].dtype == np.int8 and t8["src_emb.scale"].shape == (t8["src_emb"].shape[0],)


def test_export_from_model_writes_q4_and_refuses_to_overwrite(tmp_path, capsys):
    from nmt import export_cli
    src = os.path.join(golden.FIX, "tiny-additive-int8.safetensors")
    with pytest.raises(SystemExit) as e:
        export_cli.main(["--from-model", src, "--dtype", "q4", "--out", src])
    assert e.value.code == 2
    assert "--out must differ" in capsys.readouterr().err
    # the tiny int8 model is 8 wide: no q4 for it, and nothing written
    out = tmp_path / "t.safetensors"
    with pytest.raises(ValueError, match="multiple of 16"):
        export_cli.main(["--from-model", src, "--dtype", "q4", "--out", str(out)])
    assert not out.exists()
    src16 = os.path.join(golden.FIX, "tiny16-scaled_dot-q4.safetensors")
    export_cli.main(["--from-model", src16, "--dtype", "int8", "--out", str(out)])
    t, md = safetensors_io.load(str(out))
    rec = json.loads(md["training"])["converted"]
    assert rec["from"] == "tiny16-scaled_dot-q4.safetensors" and rec["dtype"] == "int8"
    assert len(rec["sha256"]) == 64 and t["att.W"].dtype == np.int8
