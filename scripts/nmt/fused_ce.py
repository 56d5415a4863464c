"""The output layer and its label-smoothed cross-entropy in one autograd Function, row chunk by
row chunk, for training.

Why: with the vocabulary projection tied to 16,000 French words, the logits of a batch are
[tokens, 16000] (61M numbers for 3,840 tokens). PyTorch's path (logits, + bias, .float(),
log_softmax, nll and the smoothing term, then their gradients added) makes about twenty passes
over that tensor in main memory. On one core with AMX, those passes took longer than the
products themselves (torch.profiler, run K's batches). Here each chunk of rows is projected,
normalised and differentiated before the next one (a chunk's passes touch 32 MB at most, not the
whole batch's logits), and the backward pass projects it again instead of keeping the logits:
one more product, no [tokens, V] tensor kept between the passes. CPU only, as training is.

The loss is F.cross_entropy(t @ W^T + b, target, ignore_index, label_smoothing=eps), the mean
over the rows that are not ignored of

    lse(z) - (1 - eps) z_y - (eps / V) sum_v z_v        (the smoothed target: (1 - eps) at y, eps / V everywhere)

and its gradient in z is softmax(z) - (1 - eps) onehot(y) - eps / V, over the same count.
tests/python/test_fused_ce.py checks both against F.cross_entropy.

Products run in t's dtype (bf16 under autocast, as the unfused path's matmul did); the
normalisation and every sum are f32.
"""
import torch

CHUNK = 512  # rows per chunk: 512 x 16,000 f32 is 32 MB at most; smaller chunks add overhead


def _logits(t, weight, bias):
    """f32 logits of a chunk: the product in t's dtype, the bias added in f32 (a bf16 product
    plus the f32 bias promotes to f32 in the one pass, without a separate .float() copy)."""
    return torch.add(torch.mm(t, weight.t()), bias.float())


class _LinearSmoothedCE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t, weight, bias, target, eps, ignore_index):
        w = weight.to(t.dtype)
        valid = target != ignore_index
        count = int(valid.sum())
        V = weight.size(0)
        total = torch.zeros((), dtype=torch.float32)
        lse = torch.empty(t.size(0), dtype=torch.float32)
        safe = target.clamp_min(0).masked_fill(~valid, 0)  # an ignored row's index is never read
        for r0 in range(0, t.size(0), CHUNK):
            r1 = min(t.size(0), r0 + CHUNK)
            z = _logits(t[r0:r1], w, bias)
            l = torch.logsumexp(z, dim=1)
            lse[r0:r1] = l
            zy = z.gather(1, safe[r0:r1, None]).squeeze(1)
            row = l - (1.0 - eps) * zy - (eps / V) * z.sum(1)
            total += row[valid[r0:r1]].sum()
        ctx.save_for_backward(t, weight, bias, safe, valid, lse)
        ctx.eps, ctx.count = eps, count
        return total / max(count, 1)

    @staticmethod
    def backward(ctx, grad):
        t, weight, bias, safe, valid, lse = ctx.saved_tensors
        eps, V = ctx.eps, weight.size(0)
        w = weight.to(t.dtype)
        scale = (grad.float() / max(ctx.count, 1)) * valid.float()  # 0 for ignored rows
        dt = torch.empty_like(t)
        dw = torch.zeros(weight.shape, dtype=torch.float32)
        db = torch.zeros(V, dtype=torch.float32)
        for r0 in range(0, t.size(0), CHUNK):
            r1 = min(t.size(0), r0 + CHUNK)
            g = _logits(t[r0:r1], w, bias)
            g.sub_(lse[r0:r1, None]).exp_()  # softmax(z)
            g.sub_(eps / V)
            rows = torch.arange(r1 - r0)
            g[rows, safe[r0:r1]] -= 1.0 - eps
            g.mul_(scale[r0:r1, None])
            db += g.sum(0)
            gl = g.to(t.dtype)
            dt[r0:r1] = torch.mm(gl, w)
            dw += torch.mm(gl.t(), t[r0:r1]).float()
        return dt, dw.to(weight.dtype), db.to(bias.dtype), None, None, None


def linear_smoothed_ce(t, weight, bias, target, eps=0.0, ignore_index=-100):
    """Mean label-smoothed cross-entropy of the logits t @ weight^T + bias against target.
    t: [rows, E] (f32 or bf16), weight: [V, E], bias: [V], target: [rows] (long)."""
    if t.device.type != "cpu":
        raise ValueError(f"linear_smoothed_ce runs on the CPU, not {t.device}")
    if t.dim() != 2 or target.shape != t.shape[:1]:
        raise ValueError(f"t must be [rows, E] and target [rows], not {tuple(t.shape)} and "
                         f"{tuple(target.shape)}")
    with torch.autocast("cpu", enabled=False):
        return _LinearSmoothedCE.apply(t, weight, bias, target, float(eps), int(ignore_index))
