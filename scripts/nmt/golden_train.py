"""Golden fixture for the C++ core's training (src/core/train_model.cpp, adam.cpp, trainer.cpp).

  tests/fixtures/tiny-train.json: for each tiny f32 RNN model of scripts/nmt/golden.py (as
  stored), the teacher-forced loss of one fixed padded batch, every parameter's gradient (by
  the file's tensor names, docs/model-format.md), and the losses of 50 Adam steps (lr 1e-2,
  PyTorch's other defaults, gradient norm clipped to 1.0) over four fixed batches in turn, and
  again with the learning rate's inverse-square-root decay after DECAY_STEPS steps (LambdaLR,
  TrainParams::lr_decay_steps) under "adam_decay_losses"; the loss and gradients of the same batch with label smoothing (F.cross_entropy's
  label_smoothing=SMOOTHING, ignore_index=0), under "smoothed"; and for the AVERAGED models, the
  weights' moving average over the decayed run (TrainParams::average = AVERAGE: after step t,
  a = d a + (1 - d) w with d = min(AVERAGE, (1 + t) / (10 + t)), a_0 the starting weights) and
  that averaged model's loss on the batch, under "average".

The loss is train.loss_of's: mean cross-entropy over the non-pad target tokens, no dropout, and
no label smoothing except under "smoothed". Run from the repository root:
  PYTHONPATH=scripts /usr/bin/python3 -m nmt.golden_train
"""
import json
import os
import random

import torch

from . import data, export, golden, train

FIX = golden.FIX
OUT = "tiny-train.json"
MODELS = ("tiny-additive", "tiny-scaled_dot", "tiny-none", "tiny-additive-cgru",
          "tiny-scaled_dot-cgru", "tiny-none-cgru")
LR, CLIP, ADAM_STEPS = 1e-2, 1.0, 50
DECAY_STEPS = 10  # so that 40 of the 50 steps run decayed
SMOOTHING = 0.1
AVERAGE = 0.8  # (1 + t) / (10 + t) passes it at t = 35: both sides of the min within 50 steps
AVERAGED = ("tiny-additive-cgru", "tiny-scaled_dot")


def pairs(rng, count, vs, vt):
    """(source ids, target ids) without </s> and <s>: ids from <unk> up, lengths 0..6 / 0..5
    so batches are padded (one source of length 0 reads </s> alone)."""
    out = []
    for _ in range(count):
        ns, nt = rng.randint(0, 6), rng.randint(0, 5)
        out.append({"src": [rng.randint(data.UNK, vs - 1) for _ in range(ns)],
                    "tgt": [rng.randint(data.UNK, vt - 1) for _ in range(nt)]})
    return out


def loss_of(model, batch, smoothing=0.0):
    items = [data.Pair("", "", [], [], p["src"], p["tgt"]) for p in batch]
    # PyTorch's own logits and F.cross_entropy, not the training script's fused loss: this is
    # the independent reference the C++ trainer is held to.
    return train.loss_of(model, items, smoothing, fused=False)


def grads_of(model):
    """File tensor name -> flat gradient list, through export.to_tensors' naming."""
    saved = {n: p.data.clone() for n, p in model.named_parameters()}
    with torch.no_grad():  # to_tensors reads the state dict: put the gradients there
        for n, p in model.named_parameters():
            p.data.copy_(p.grad)
    out = {k: [float("%.8g" % x) for x in v.reshape(-1).tolist()]
           for k, v in export.to_tensors(model).items()}
    with torch.no_grad():
        for n, p in model.named_parameters():
            p.data.copy_(saved[n])
    return out


def record(name, batch, adam_batches):
    model, _ = export.load_model(os.path.join(FIX, name + "-f32.safetensors"))
    model.train()  # dropout is 0 in the loaded config: train() changes nothing but the mode
    model.zero_grad()
    loss = loss_of(model, batch)
    loss.backward()
    rec = {"model": name + "-f32.safetensors", "loss": float(loss), "grads": grads_of(model)}
    model.zero_grad()
    loss = loss_of(model, batch, SMOOTHING)
    loss.backward()
    rec["smoothed"] = {"loss": float(loss), "grads": grads_of(model)}
    start = {n: p.data.clone() for n, p in model.named_parameters()}
    rec["adam_losses"] = adam_losses(model, adam_batches, decay=0)
    with torch.no_grad():
        for n, p in model.named_parameters():
            p.copy_(start[n])
    avg = {n: p.data.clone() for n, p in model.named_parameters()} if name in AVERAGED else None
    rec["adam_decay_losses"] = adam_losses(model, adam_batches, decay=DECAY_STEPS, avg=avg)
    if avg is not None:
        with torch.no_grad():
            for n, p in model.named_parameters():
                p.copy_(avg[n])
        rec["average"] = {"decay": AVERAGE, "weights": weights_of(model),
                          "loss": float(loss_of(model, batch))}
    return rec


def weights_of(model):
    """File tensor name -> flat weight list, as the model file names them."""
    return {k: [float("%.9g" % x) for x in v.reshape(-1).tolist()]
            for k, v in export.to_tensors(model).items()}


def adam_losses(model, batches, decay, avg=None):
    """ADAM_STEPS clipped Adam steps over batches in turn, from a fresh optimiser; with decay >
    0, step t (from 1) at LR * min(1, sqrt(decay / t)). avg (parameter name -> tensor, the
    starting weights) is updated in place after every step as the weights' moving average."""
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    factor = (lambda e: min(1.0, (decay / (e + 1)) ** 0.5)) if decay else (lambda e: 1.0)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, factor)
    losses = []
    for k in range(ADAM_STEPS):
        opt.zero_grad()
        loss = loss_of(model, batches[k % len(batches)])
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
        opt.step()
        sched.step()
        losses.append(float(loss))
        if avg is not None:
            d = min(AVERAGE, (1 + (k + 1)) / (10 + (k + 1)))
            with torch.no_grad():
                for n, p in model.named_parameters():
                    avg[n].mul_(d).add_(p, alpha=1 - d)
    return losses


def build():
    torch.set_num_threads(1)
    cfg = export.load_model(os.path.join(FIX, MODELS[0] + "-f32.safetensors"))[1]["cfg"]
    vs, vt = cfg["src_vocab"], cfg["tgt_vocab"]
    rng = random.Random(25)
    batch = pairs(rng, 4, vs, vt)
    adam_batches = [pairs(rng, 3, vs, vt) for _ in range(4)]
    return {"lr": LR, "clip": CLIP, "lr_decay_steps": DECAY_STEPS, "label_smoothing": SMOOTHING, "average": AVERAGE, "batch": batch, "adam_batches": adam_batches,
            "models": [record(m, batch, adam_batches) for m in MODELS]}


def write(fix=None):
    doc = build()
    with open(os.path.join(fix or FIX, OUT), "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print("wrote", OUT)


if __name__ == "__main__":
    write()
