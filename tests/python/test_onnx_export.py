"""The ONNX peer of scripts/bench --peers: the graphs pass onnx.checker and, run in
onnxruntime-web, match the PyTorch reference (scripts/nmt/onnx_export.py check())."""
import json
import os

import pytest

from nmt import data, onnx_export

onnx = pytest.importorskip(
    "onnx", reason="the onnx module is missing: scripts/setup python installs Debian's python3-onnx")

FIX = os.path.join(data.ROOT, "tests", "fixtures")
SHIPPED = os.path.join(data.ROOT, "models", "en-fr.safetensors")


def fixture(name):
    return os.path.join(FIX, f"{name}.safetensors")


def export(model, tmp_path, name="g"):
    out = str(tmp_path / name)
    onnx_export.export_graphs(model, out)
    return out


@pytest.mark.parametrize("name", ["tiny-additive-int8", "tiny-scaled_dot-cgru-f32",
                                  "tiny-none-cgru-int8"])
def test_tiny_graphs_match_pytorch(tmp_path, name):
    out = export(fixture(name), tmp_path)
    r = onnx_export.check(fixture(name), out)
    assert r["sentences"] == len(onnx_export.CHECK_SENTENCES) and r["tokens_equal"]
    with open(os.path.join(out, "peer.json")) as f:
        info = json.load(f)
    enc = onnx.load(os.path.join(out, "encoder.onnx"))
    step = onnx.load(os.path.join(out, "decoder_step.onnx"))
    if info["attention"]:
        assert [o.name for o in enc.graph.output] == ["h", "keys", "s0"]
        assert [i.name for i in step.graph.input] == ["y_prev", "s_prev", "h", "keys", "mask"]
        assert [o.name for o in step.graph.output] == ["logp", "s", "alpha"]
    else:  # no attention: no keys, no alpha
        assert [o.name for o in enc.graph.output] == ["h", "s0"]
        assert [o.name for o in step.graph.output] == ["logp", "s"]


def test_shipped_model_matches_pytorch(tmp_path):
    """en-fr (additive, cgru, int8): the weights the bench compares, dequantized as the core
    reads them; states to 1e-5, log-probs to 5e-5."""
    out = export(SHIPPED, tmp_path)
    r = onnx_export.check(SHIPPED, out)
    assert max(v for k, v in r["max_err"].items() if k != "logp") <= 1e-5
    assert r["max_err"]["logp"] <= 5e-5


def test_check_fails_on_other_weights(tmp_path):
    """Graphs of the f32 model checked against its int8 twin (weights moved by rounding): the
    check must see the difference."""
    out = export(fixture("tiny-additive-f32"), tmp_path)
    with pytest.raises(AssertionError, match="differs from PyTorch|greedy"):
        onnx_export.check(fixture("tiny-additive-int8"), out)


def test_current_notices_a_different_model(tmp_path):
    out = export(fixture("tiny-additive-f32"), tmp_path)
    assert onnx_export.current(fixture("tiny-additive-f32"), out)
    assert not onnx_export.current(fixture("tiny-additive-int8"), out)
    os.remove(os.path.join(out, "decoder_step.onnx"))
    assert not onnx_export.current(fixture("tiny-additive-f32"), out)


def test_sources_are_the_reference_tokenizers(tmp_path):
    src = onnx_export.sources(SHIPPED, ["Tom is in Zanzibar.", ""])
    assert src[1] == {"ids": [], "copyable": []}
    assert len(src[0]["ids"]) == len(src[0]["copyable"]) == 5
    assert src[0]["copyable"][0] and src[0]["ids"][3] == data.UNK  # Tom: a name; Zanzibar: <unk>


def test_transformer_is_refused(tmp_path):
    path = fixture("tiny-transformer-f32")
    if not os.path.exists(path):
        pytest.skip("no transformer fixture in this checkout")
    with pytest.raises(ValueError, match="RNN models only"):
        onnx_export.export_graphs(path, str(tmp_path / "t"))
    assert not os.path.exists(tmp_path / "t" / "encoder.onnx")
