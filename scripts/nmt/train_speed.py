"""Training throughput, RNN vs Transformer, on the same batches in one process.

The seed article's claim about parallelism, measured: the RNN decoder must run its GRU one
target position after another, while the Transformer computes every position of a sentence in
one pass (teacher forcing). Each timed step is a full forward, backward and Adam update, under
the same precision (--bf16) and thread count; the two models alternate batch by batch, so a
busy machine slows both alike. Reports medians: target tokens per second, seconds per step,
and the time an epoch would take at that rate. Both train with the fused output layer and loss
(fused_ce.py), as scripts/train does; --unfused adds each model with PyTorch's own, in the same
rotation, to time what the fusion saves.

  scripts/train-speed --steps 30 --bf16 --threads 1
"""
import argparse
import json
import math
import os
import platform
import random
import statistics
import sys
import time

import torch

from . import corpus, data, joined, transformer
from .model import default_config
from .train import batches, build_model, loss_of

RNN = dict(decoder="cgru", max_src_len=100, max_tgt_len=150, tgt_vocab=16000)  # en-fr's recipe


def main(argv=None):
    ap = argparse.ArgumentParser(prog="scripts/train-speed", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=data.DEFAULT_DATA)
    ap.add_argument("--steps", type=int, default=30, help="timed steps per model")
    ap.add_argument("--warm", type=int, default=3, help="untimed steps per model first")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--bf16", action="store_true")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--joined", type=float, default=0.1)
    ap.add_argument("--transformer", default="{}", help="JSON overrides of the Transformer config")
    ap.add_argument("--unfused", action="store_true",
                    help="also time each model with PyTorch's own output layer and loss "
                         "(logits, then F.cross_entropy) instead of scripts/nmt/fused_ce.py's, "
                         "on the same batches: rows 'rnn, unfused' and 'transformer, unfused'")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", metavar="JSON", help="also write the result here (the page reads "
                    "web/data/train-speed.json)")
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)

    cfgs = {"rnn": default_config(**RNN),
            "transformer": transformer.default_config(
                max_src_len=100, max_tgt_len=150, tgt_vocab=16000, **json.loads(args.transformer))}
    corp = corpus.build(args.data, 6000, 16000, cache_dir=os.path.join(data.ROOT, "build", "train"))
    train = [x for x in corp["splits"]["train"] if 0 < len(x.src_ids) <= 30 and 0 < len(x.tgt_ids) <= 30]
    si = {w: i for i, w in enumerate(corp["src_itos"])}
    ti = {w: i for i, w in enumerate(corp["tgt_itos"])}
    train += joined.join_pairs(train, args.joined, args.seed, si, ti, set(corp["src_names"]),
                               set(corp["tgt_names"]))
    order = batches(train, args.batch, random.Random(args.seed))
    per_epoch = math.ceil(len(train) / args.batch)
    models = {}  # name -> (model, optimizer, fused loss)
    for name, cfg in cfgs.items():
        for fused in (True, False) if args.unfused else (True,):
            torch.manual_seed(args.seed)
            m = build_model(dict(cfg, src_vocab=len(corp["src_itos"]), tgt_vocab=len(corp["tgt_itos"])))
            models[name if fused else f"{name}, unfused"] = (m, torch.optim.Adam(m.parameters(), lr=1e-4), fused)
    secs = {name: [] for name in models}
    tokens = {name: [] for name in models}
    for i in range(args.warm + args.steps):
        batch = order[i % len(order)]
        ntok = sum(len(x.tgt_ids) + 1 for x in batch)
        for name, (m, opt, fused) in models.items():
            t0 = time.perf_counter()
            loss = loss_of(m, batch, 0.1, args.bf16, fused=fused)
            opt.zero_grad()
            loss.backward()
            opt.step()
            dt = time.perf_counter() - t0
            if i >= args.warm:
                secs[name].append(dt)
                tokens[name].append(ntok / dt)
    out = {"steps": args.steps, "batch": args.batch, "bf16": args.bf16, "threads": args.threads,
           "batches_per_epoch": per_epoch, "models": {}}
    for name, (m, _, _) in models.items():
        med = statistics.median(secs[name])
        out["models"][name] = {"params": m.num_params(),
                               "target_tokens_per_s": round(statistics.median(tokens[name])),
                               "s_per_step": round(med, 3),
                               "epoch_minutes": round(med * per_epoch / 60, 1)}
    r, t = out["models"]["rnn"], out["models"]["transformer"]
    out["transformer_vs_rnn_tokens_per_s"] = round(t["target_tokens_per_s"] / r["target_tokens_per_s"], 2)
    if args.unfused:
        out["fused_vs_unfused_s_per_step"] = {
            n: round(out["models"][f"{n}, unfused"]["s_per_step"] / out["models"][n]["s_per_step"], 2)
            for n in cfgs}
    out["command"] = "scripts/train-speed " + " ".join(argv if argv is not None else sys.argv[1:])
    out["machine"] = f"{os.cpu_count()} cores ({platform.processor() or platform.machine()})"
    print(json.dumps(out, indent=1))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    return out


if __name__ == "__main__":
    main()
