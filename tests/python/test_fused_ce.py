"""The fused output layer and loss (scripts/nmt/fused_ce.py) against PyTorch's own path: the same
loss and the same gradients, so that training with it trains the same model."""
import pytest
import torch
import torch.nn.functional as F

from nmt import data, fused_ce, train
from nmt.model import Bahdanau, default_config


def reference(t, w, b, y, eps, ignore):
    return F.cross_entropy((t @ w.t() + b).float(), y, ignore_index=ignore, label_smoothing=eps)


def grads(loss_fn, *xs):
    xs = [x.detach().clone().requires_grad_(True) for x in xs]
    loss = loss_fn(*xs)
    return loss.detach(), torch.autograd.grad(loss, xs)


@pytest.mark.parametrize("eps", [0.0, 0.1])
@pytest.mark.parametrize("chunk", [7, 512])  # several chunks with a short last one, and one chunk
def test_loss_and_gradients_equal_cross_entropy(eps, chunk, monkeypatch):
    monkeypatch.setattr(fused_ce, "CHUNK", chunk)
    g = torch.Generator().manual_seed(1)
    n, e, v = 45, 12, 97
    t, w, b = (torch.randn(*s, generator=g) for s in ((n, e), (v, e), (v,)))
    y = torch.randint(1, v, (n,), generator=g)
    y[::5] = 0  # padding, ignored
    want, want_g = grads(lambda t, w, b: reference(t, w, b, y, eps, 0), t, w, b)
    got, got_g = grads(lambda t, w, b: fused_ce.linear_smoothed_ce(t, w, b, y, eps, 0), t, w, b)
    assert got.item() == pytest.approx(want.item(), rel=1e-6)
    for a, c in zip(got_g, want_g):
        torch.testing.assert_close(a, c, rtol=1e-5, atol=1e-7)


def test_bf16_products_stay_close_to_the_f32_loss():
    g = torch.Generator().manual_seed(2)
    t, w, b = torch.randn(300, 64, generator=g), torch.randn(500, 64, generator=g) * 0.1, torch.randn(500, generator=g)
    y = torch.randint(1, 500, (300,), generator=g)
    want, want_g = grads(lambda t, w, b: reference(t, w, b, y, 0.1, 0), t, w, b)
    got, got_g = grads(lambda t, w, b: fused_ce.linear_smoothed_ce(t.bfloat16(), w, b, y, 0.1, 0), t, w, b)
    assert got.item() == pytest.approx(want.item(), rel=1e-2)
    for a, c in zip(got_g, want_g):
        assert a.dtype == c.dtype == torch.float32
        assert ((a - c).norm() / c.norm()).item() < 2e-2


def test_training_loss_is_the_models_own_cross_entropy():
    """loss_of (fused) against the model's logits through F.cross_entropy: the loss and every
    parameter's gradient, the tied embedding included."""
    torch.manual_seed(0)
    cfg = default_config(decoder="cgru", src_vocab=40, tgt_vocab=50, emb=16, enc_hidden=16,
                         dec_hidden=16, attn=8, dropout=0.0)
    model = Bahdanau(cfg)
    g = torch.Generator().manual_seed(3)
    batch = [data.Pair("", "", [], [], torch.randint(4, 40, (n,), generator=g).tolist(),
                       torch.randint(4, 50, (m,), generator=g).tolist())
             for n, m in ((3, 5), (6, 2), (1, 7))]
    params = list(model.parameters())
    loss = train.loss_of(model, batch, smoothing=0.1)
    got = torch.autograd.grad(loss, params)
    src, src_len, tin, tout = train.collate(batch)
    logits = model(src, src_len, tin)
    want_loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tout.reshape(-1),
                                ignore_index=data.PAD, label_smoothing=0.1)
    want = torch.autograd.grad(want_loss, params)
    assert loss.item() == pytest.approx(want_loss.item(), rel=1e-6)
    for (name, _), a, c in zip(model.named_parameters(), got, want):
        torch.testing.assert_close(a, c, rtol=1e-4, atol=1e-6, msg=lambda m: f"{name}: {m}")


def test_shapes_are_checked():
    with pytest.raises(ValueError, match="rows"):
        fused_ce.linear_smoothed_ce(torch.zeros(2, 3, 4), torch.zeros(5, 4), torch.zeros(5),
                                    torch.zeros(2, dtype=torch.long))
    with pytest.raises(ValueError, match="rows"):
        fused_ce.linear_smoothed_ce(torch.zeros(2, 4), torch.zeros(5, 4), torch.zeros(5),
                                    torch.zeros(3, dtype=torch.long))


def test_transformer_training_loss_is_its_own_cross_entropy():
    from nmt import transformer
    torch.manual_seed(0)
    cfg = transformer.default_config(src_vocab=40, tgt_vocab=50, emb=8, d_model=16, heads=2, ffn=32,
                                     enc_layers=1, dec_layers=1, dropout=0.0)
    model = transformer.Transformer(cfg)
    g = torch.Generator().manual_seed(4)
    batch = [data.Pair("", "", [], [], torch.randint(4, 40, (n,), generator=g).tolist(),
                       torch.randint(4, 50, (m,), generator=g).tolist()) for n, m in ((4, 3), (2, 6))]
    loss = train.loss_of(model, batch, smoothing=0.1)
    src, src_len, tin, tout = train.collate(batch)
    want = F.cross_entropy(model(src, src_len, tin).reshape(-1, 50), tout.reshape(-1),
                           ignore_index=data.PAD, label_smoothing=0.1)
    assert loss.item() == pytest.approx(want.item(), rel=1e-6)
    assert train.loss_of(model, batch, smoothing=0.1, fused=False).item() == pytest.approx(want.item(), rel=1e-6)
