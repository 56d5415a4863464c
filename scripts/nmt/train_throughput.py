"""PyTorch's side of scripts/lib/train-throughput.mjs (issue 25): the reference model
(scripts/nmt/model.py) trained on the same data file, the same batches in the same order, with
the same settings as the core's trainer (bl::Trainer, web/lib/trainer.js createTrainer), f32 and
one thread, so that steps per second compare like for like.

The batches: bl::BatchSampler's (src/core/train_batches.cpp), reproduced here: every epoch a
Fisher-Yates shuffle from the end on xoshiro256** seeded through splitmix64 (src/core/rng.h),
Rng::below without modulo bias, cut into batch_size pairs. The step: the loss of
scripts/nmt/train.py (loss_of: padded batch, cross-entropy with ignore_index 0), backward,
clip_grad_norm_ (as bl::TrainParams::clip), Adam, the learning rate's decay (LambdaLR, as
bl::TrainParams::lr_decay_steps) and the weights' moving average (as bl::TrainParams::average:
a = d a + (1 - d) w, d = min(average, (1 + t) / (10 + t)), with torch._foreach_mul_ and
_foreach_add_ over the parameters).

  scripts/nmt/train_throughput.py --data FILE [--batch 32] [--lr 5e-3] [--lr-decay-steps 1000]
                                  [--average 0.998] [--seed 1] --serve

--serve reads one number n per line on stdin, makes n steps, and answers one JSON line
{"steps": n, "secs": [seconds of each step], "losses": [...]}, so that a caller can interleave
these steps with its own. Without --serve it makes --steps steps and prints the same line.
"""
import argparse
import gzip
import json
import sys
import time

import torch

from . import data as nmt_data
from .model import Bahdanau, default_config
from .train import loss_of
from .train_bundle import MAGIC

M64 = (1 << 64) - 1


class Rng:
    """src/core/rng.h's xoshiro256** (next and below only)."""

    def __init__(self, seed):
        x, self.s = seed & M64, []
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & M64
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
            self.s.append(z ^ (z >> 31))

    @staticmethod
    def _rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & M64

    def next(self):
        s = self.s
        result = (self._rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = self._rotl(s[3], 45)
        return result

    def below(self, n):
        limit = M64 - M64 % n
        while True:
            x = self.next()
            if x < limit:
                return x % n


class Sampler:
    """bl::BatchSampler: a new shuffle each epoch, batches of batch_size, the last smaller."""

    def __init__(self, pairs, batch_size, seed):
        self.pairs, self.size, self.rng = pairs, batch_size, Rng(seed)
        self.order, self.at = list(range(len(pairs))), len(pairs)

    def next(self):
        if self.at == len(self.order):
            order = self.order = list(range(len(self.pairs)))
            for i in range(len(order), 1, -1):
                j = self.rng.below(i)
                order[i - 1], order[j] = order[j], order[i - 1]
            self.at = 0
        end = min(len(self.order), self.at + self.size)
        batch = [self.pairs[k] for k in self.order[self.at:end]]
        self.at = end
        return batch


def read_data(path):
    """The training file's vocabulary sizes and training pairs (docs/training-core.md's format,
    as train_bundle.py writes it; src/core/train_data.cpp validates it, this reader trusts it).
    A .bin is gzip-compressed."""
    raw = open(path, "rb").read()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    lines = raw.decode("utf-8").split("\n")
    if lines[0] != MAGIC:
        raise SystemExit(f"{path}: not a training data file (first line {lines[0]!r})")
    at, sizes, train = 2, {}, []
    while lines[at] != "end":
        name, count = lines[at].split(" ")
        count, body = int(count), lines[at + 1:at + 1 + int(count)]
        sizes[name] = count
        if name == "train":
            for line in body:
                src, tgt = line.split("\t")
                train.append(nmt_data.Pair("", "", [], [], [int(x) for x in src.split()],
                                           [int(x) for x in tgt.split()]))
        at += 1 + count
    return sizes["src_vocab"], sizes["tgt_vocab"], train


def main(argv=None):
    ap = argparse.ArgumentParser(prog="scripts/nmt/train_throughput.py", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True)
    ap.add_argument("--config", default="{}", help="JSON: TrainConfig's sizes and kinds")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=5e-3)
    ap.add_argument("--lr-decay-steps", type=float, default=1000, help="0: a constant lr")
    ap.add_argument("--clip", type=float, default=1.0)
    ap.add_argument("--average", type=float, default=0.998, help="0: no moving average")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--serve", action="store_true")
    args = ap.parse_args(argv)
    if not 0 <= args.average < 1:
        ap.error(f"--average {args.average}: want a number in [0, 1)")
    torch.set_num_threads(1)
    src_vocab, tgt_vocab, train = read_data(args.data)
    # bl::TrainConfig's defaults (src/bahdanau_train.h), no dropout: the trainer's default.
    cfg = default_config(decoder="cgru", scoring="additive", emb=64, enc_hidden=128,
                         dec_hidden=128, attn=64, dropout=0.0)
    cfg.update(json.loads(args.config))
    cfg.update(src_vocab=src_vocab, tgt_vocab=tgt_vocab)
    torch.manual_seed(args.seed)
    model = Bahdanau(cfg)
    model.train()
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    decay = args.lr_decay_steps
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda e: min(1.0, (decay / (e + 1)) ** 0.5) if decay > 0 else 1.0)
    sampler = Sampler(train, args.batch, args.seed)
    params = list(model.parameters())
    avg = [p.detach().clone() for p in params] if args.average > 0 else None
    done = 0

    def steps(n):
        nonlocal done
        secs, losses = [], []
        for _ in range(n):
            batch = sampler.next()
            t0 = time.perf_counter()
            loss = loss_of(model, batch, fused=False)  # PyTorch's own output layer and loss
            opt.zero_grad()
            loss.backward()
            if args.clip > 0:
                torch.nn.utils.clip_grad_norm_(model.parameters(), args.clip)
            opt.step()
            sched.step()
            done += 1
            if avg is not None:
                d = min(args.average, (1 + done) / (10 + done))
                with torch.no_grad():
                    torch._foreach_mul_(avg, d)
                    torch._foreach_add_(avg, params, alpha=1 - d)
            secs.append(time.perf_counter() - t0)
            losses.append(float(loss))
        return {"steps": n, "secs": secs, "losses": losses,
                "threads": torch.get_num_threads(), "torch": torch.__version__}

    if not args.serve:
        print(json.dumps(steps(args.steps)), flush=True)
        return
    print(json.dumps({"ready": True, "pairs": len(train)}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        print(json.dumps(steps(int(line))), flush=True)


if __name__ == "__main__":
    main()
