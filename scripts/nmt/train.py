"""Training loop: length buckets, resumable checkpoints, progress with ETA, train/dev loss log.

--bf16 runs the forward and backward passes under torch.autocast('cpu', dtype=torch.bfloat16):
the matrix products (linear, matmul, the GRU cells' gate products) run in bfloat16 on AMX /
AVX-512 bf16 through oneDNN, while the master weights, Adam's state, the softmax and the loss
stay float32 (autocast's CPU policy). Exported weights are float32, as before. The tied output
layer and the loss run fused, row chunk by row chunk (fused_ce.py; models/README.md measures it).

--guided-alignment W adds W * -log(attention mass on the words an unsupervised aligner links;
scripts/nmt/ibm.py) to the loss, and --init starts a second stage from a trained checkpoint: the
shipped RNNs are a plain stage, then a guided one on longer joined inputs (models/README.md).

A little over 400 lines, on purpose: the loop, its resume and its options read in one place; the
models, data, losses and export are modules of their own beside it."""
import argparse
import hashlib
import json
import math
import os
import random
import sys
import time

import torch
import torch.nn.functional as F

from . import checkpoints, corpus, data, fused_ce, ibm, init_encoder, joined, numbers, unpunctuated
from .checkpoints import Checkpoints
from . import transformer
from .model import Bahdanau, default_config


def build_model(cfg):
    """The model class a config names: the RNN (Bahdanau) or the Transformer."""
    return transformer.Transformer(cfg) if cfg.get("arch") == "transformer" else Bahdanau(cfg)


def batches(items, batch_size, rng):
    """Length buckets: sort by length after a seeded shuffle, cut into batches, shuffle batches."""
    items = list(items)
    rng.shuffle(items)
    items.sort(key=lambda x: (len(x.src_ids), len(x.tgt_ids)))
    out = [items[i:i + batch_size] for i in range(0, len(items), batch_size)]
    rng.shuffle(out)
    return out


def collate(batch):
    """Padded id tensors: the source with </s>, the decoder's input <s> y and its target y </s>."""
    batch = [data.as_pair(x) for x in batch]
    src_len = torch.tensor([len(x.src_ids) + 1 for x in batch])  # + </s>
    tgt_len = max(len(x.tgt_ids) + 1 for x in batch)
    src = torch.zeros(len(batch), int(src_len.max()), dtype=torch.long)
    tin = torch.zeros(len(batch), tgt_len, dtype=torch.long)
    tout = torch.zeros(len(batch), tgt_len, dtype=torch.long)
    for b, x in enumerate(batch):
        s = x.src_ids + [data.EOS]
        src[b, :len(s)] = torch.tensor(s)
        tin[b, :len(x.tgt_ids) + 1] = torch.tensor([data.BOS] + x.tgt_ids)
        tout[b, :len(x.tgt_ids) + 1] = torch.tensor(x.tgt_ids + [data.EOS])
    return src, src_len, tin, tout


def guide_of(batch, src_size, tgt_size):
    """G[b, i, j] = 1 where the aligner links output position i to source position j (the
    French </s> to the English </s>); rows of unlinked words are all zero."""
    g = torch.zeros(len(batch), tgt_size, src_size)
    for b, x in enumerate(map(data.as_pair, batch)):
        links = data.links_of(x)
        if links is None:
            continue
        for j, i in links:
            g[b, i, j] = 1.0
        g[b, len(x.tgt_ids), len(x.src_ids)] = 1.0
    return g


def guide_loss(alpha, g):
    """-log of the attention mass on the aligner's words, averaged over linked rows."""
    linked = g.sum(-1) > 0
    mass = (alpha.float() * g).sum(-1)
    return -torch.log(mass[linked].clamp_min(1e-6)).mean() if linked.any() else alpha.sum() * 0


def loss_of(model, batch, smoothing=0.0, bf16=False, guided=0.0, fused=True):
    """Cross-entropy of the next word; with guided > 0, plus guided times guide_loss.
    fused: the tied output layer and the loss in one pass per row chunk (fused_ce.py: the same
    loss, without the [tokens, V] logits in memory); False: PyTorch's logits and
    F.cross_entropy (scripts/train-speed times the two)."""
    src, src_len, tin, tout = collate(batch)
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
        out = model(src, src_len, tin, return_alpha=guided > 0, project=not fused)
    logits, alpha = out if guided > 0 else (out, None)
    if fused:
        ce = fused_ce.linear_smoothed_ce(logits.reshape(-1, logits.size(-1)), model.tgt_emb.weight,
                                         model.out_b, tout.reshape(-1), smoothing, data.PAD)
    else:
        ce = F.cross_entropy(logits.float().reshape(-1, logits.size(-1)), tout.reshape(-1),
                             ignore_index=data.PAD, label_smoothing=smoothing)
    if guided > 0:
        return ce + guided * guide_loss(alpha, guide_of(batch, src.size(1), tout.size(1)))
    return ce


def with_links(items, out_dir, quiet=False):
    """items as data.LinkedPair: with their word links from scripts/nmt/ibm.py (fitted on these
    items, cached in out_dir because the fit takes a minute or two)."""
    aligner = ibm.Aligner()
    h = hashlib.sha1(f"{ibm.VERSION}:{aligner.iterations}:{aligner.fwd.p_null}:"
                     f"{aligner.fwd.lam}".encode())
    for x in items:
        h.update(("\t".join(x.src_tokens) + "\n" + "\t".join(x.tgt_tokens) + "\n").encode())
    cache = os.path.join(out_dir, f"links-{h.hexdigest()[:16]}.pt")
    if os.path.exists(cache):
        links = torch.load(cache)
    else:
        t0 = time.time()
        src, tgt = [x.src_tokens for x in items], [x.tgt_tokens for x in items]
        links = [tuple(sorted(a)) for a in aligner.fit(src, tgt).align(src, tgt)]
        torch.save(links, cache)
        if not quiet:
            print(f"aligner: {len(items)} pairs linked ({time.time() - t0:.0f}s)", flush=True)
    return [data.with_links(x, a) for x, a in zip(items, links)]


@torch.no_grad()
def dev_loss(model, dev, batch_size=256, bf16=False):
    model.eval()
    total, n = 0.0, 0
    dev = sorted(dev, key=lambda x: (len(x.src_ids), len(x.tgt_ids)))
    for i in range(0, len(dev), batch_size):
        b = dev[i:i + batch_size]
        ntok = sum(len(x.tgt_ids) + 1 for x in b)
        total += loss_of(model, b, bf16=bf16).item() * ntok
        n += ntok
    model.train()
    return total / max(n, 1)


def lr_at(step, total, base, warmup=0, frac=None):
    """Linear warm-up over `warmup` steps (the Transformer's), constant until 40% of the run,
    then linear decay to 5% of the base rate. frac: how much of the run is done, when the run
    is measured in time (--minutes) rather than in steps."""
    if step < warmup:
        return base * (step + 1) / warmup
    if frac is None:
        frac = step / max(total, 1)
    return base if frac < 0.4 else base * (1.0 - 0.95 * (frac - 0.4) / 0.6)


def fmt_time(sec):
    sec = int(sec)
    return f"{sec // 3600}:{sec % 3600 // 60:02d}:{sec % 60:02d}"


def parse_args(argv=None):
    ap = argparse.ArgumentParser(prog="scripts/train", description=__doc__)
    ap.add_argument("--data", default=data.DEFAULT_DATA, help="Tatoeba TSV (English<TAB>French)")
    ap.add_argument("--out", default=os.path.join(data.ROOT, "build", "train", "en-fr"),
                    help="checkpoint folder (training resumes from it)")
    ap.add_argument("--arch", default="rnn", choices=["rnn", "transformer"],
                    help="rnn: Bahdanau et al. 2014 (scripts/nmt/model.py); transformer: "
                         "Vaswani et al. 2017 (scripts/nmt/transformer.py), --scoring ignored")
    ap.add_argument("--warmup", type=int, default=None,
                    help="linear LR warm-up steps (default: 0 for rnn, 400 for transformer)")
    ap.add_argument("--scoring", default="additive", choices=["additive", "scaled_dot", "none"],
                    help="none: the paper's RNNencdec, one fixed context vector, no attention")
    ap.add_argument("--decoder", default="paper", choices=["paper", "cgru"],
                    help="paper: attention scores with s_{i-1}; cgru: with the state of a first "
                         "GRU that has read y_{i-1} (Sennrich et al. 2017)")
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--steps", type=int, default=None,
                    help="stop after this many optimizer steps (the LR schedule spans them); "
                         "for short comparable runs")
    ap.add_argument("--minutes", type=float, default=None,
                    help="train for this much time instead of --steps or --epochs: the LR "
                         "schedule spans the time, so the run ends on schedule on a busy or a "
                         "quiet machine (resumable: the elapsed time is checkpointed)")
    ap.add_argument("--bf16", action="store_true", help="bfloat16 autocast (see above)")
    ap.add_argument("--joined", type=float, default=0.0,
                    help="add this fraction of joined 2-5 sentence pairs (scripts/nmt/joined.py)")
    ap.add_argument("--joined-max-parts", type=int, default=5,
                    help="join up to this many sentences (2 to N)")
    ap.add_argument("--joined-max-len", type=int, default=62,
                    help="drop joined pairs over this many English tokens (French: N + 16)")
    ap.add_argument("--unpunctuated", type=float, default=0.0, metavar="F",
                    help="add this fraction of single pairs again without their closing mark "
                         "(scripts/nmt/unpunctuated.py)")
    ap.add_argument("--numbers", type=float, default=0.0, metavar="F",
                    help="add this fraction of single pairs again as copies of the pairs whose "
                         "two sides hold the same digit runs, each run a fresh random number "
                         "(scripts/nmt/numbers.py)")
    ap.add_argument("--guided-alignment", type=float, default=0.0, metavar="W",
                    help="add W times -log(attention mass on the words that an unsupervised "
                         "IBM-1 + diagonal aligner links) to the loss (scripts/nmt/ibm.py)")
    ap.add_argument("--init", default=None, metavar="CKPT",
                    help="start from this checkpoint's (.pt) or model file's (.safetensors) "
                         "weights (same config and vocabulary) with a new optimizer and "
                         "schedule: a second training stage")
    ap.add_argument("--init-encoder", default=None, metavar="MODEL",
                    help="copy this model file's English embeddings (shared words) and encoder "
                         "into a fresh model: a new target language's head start "
                         "(scripts/nmt/init_encoder.py)")
    ap.add_argument("--train-subset", type=int, default=None,
                    help="train on a fixed seeded sample of N single-sentence pairs")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--smoothing", type=float, default=0.1)
    ap.add_argument("--max-len", type=int, default=30, help="drop training pairs longer than this")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=int, default=None, help="use the first N pairs only (tests)")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--checkpoint-minutes", type=float, default=5.0)
    ap.add_argument("--snapshots", action="store_true",
                    help="also keep the weights at step 0 and at logarithmically spaced steps "
                         "(checkpoints.snapshot_steps) in OUT/snapshots/, for the training timelapse "
                         "(scripts/timelapse)")
    ap.add_argument("--config", default="{}", help="JSON overrides of the model config")
    ap.add_argument("--dev-size", type=int, default=2000)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    return args


def model_config(args):
    """The model's config: the architecture's defaults, --scoring/--decoder and --config."""
    if args.arch == "transformer":
        cfg = transformer.default_config(**json.loads(args.config))
    else:
        cfg = default_config(scoring=args.scoring, decoder=args.decoder, **json.loads(args.config))
    if args.guided_alignment > 0:
        cfg["attention_guidance"] = "ibm1-diag"  # the file says so; pages tell the reader
    return cfg


def training_data(args, cfg):
    """(corpus, training pairs, dev pairs). The training pairs are the single ones within
    --max-len (or a --train-subset of them), with their aligner links under
    --guided-alignment, then the joined pairs and the unmarked ones. Fixes cfg's vocabulary
    sizes to the corpus's."""
    t0 = time.time()
    corp = corpus.build(args.data, cfg["src_vocab"], cfg["tgt_vocab"], cfg["src_lang"],
                        cfg["tgt_lang"], limit=args.limit, cache_dir=os.path.join(args.out, ".."))
    cfg["src_vocab"], cfg["tgt_vocab"] = len(corp["src_itos"]), len(corp["tgt_itos"])
    train = [x for x in corp["splits"]["train"]
             if 0 < len(x.src_ids) <= args.max_len and 0 < len(x.tgt_ids) <= args.max_len]
    if args.train_subset:
        train = random.Random(args.seed).sample(train, min(args.train_subset, len(train)))
    if args.guided_alignment > 0 and (args.arch != "rnn" or cfg["scoring"] == "none"):
        sys.exit("--guided-alignment guides an RNN's attention: it needs --arch rnn and scoring "
                 "additive or scaled_dot")
    if args.guided_alignment > 0:
        train = with_links(train, os.path.join(args.out, ".."), args.quiet)
    unmarked = unpunctuated.unpunctuated_pairs(train, args.unpunctuated, args.seed) \
        if args.unpunctuated > 0 else []
    si = {w: i for i, w in enumerate(corp["src_itos"])}
    ti = {w: i for i, w in enumerate(corp["tgt_itos"])}
    renumbered = numbers.number_pairs(train, args.numbers, args.seed, si, ti) \
        if args.numbers > 0 else []
    if args.joined > 0:
        train = train + joined.join_pairs(train, args.joined, args.seed, si, ti,
                                          set(corp["src_names"]), set(corp["tgt_names"]),
                                          max_src=args.joined_max_len,
                                          max_tgt=args.joined_max_len + 16,
                                          max_parts=args.joined_max_parts,
                                          tgt_lang=cfg["tgt_lang"])
    train = train + unmarked + renumbered  # after joining: a part without its mark would run on
    dev = random.Random(0).sample(corp["splits"]["dev"], min(args.dev_size,
                                                             len(corp["splits"]["dev"])))
    if not args.quiet:
        print(f"corpus: {len(train)} train pairs, {len(dev)} dev pairs, vocab "
              f"{cfg['src_vocab']}/{cfg['tgt_vocab']} ({time.time() - t0:.0f}s)", flush=True)
    return corp, train, dev


def start(args, cfg, corp, ckpt_path):
    """(model, optimizer, state): resumed from ckpt_path when it exists, else fresh, or with
    --init a trained checkpoint's weights under a new optimizer (a second stage)."""
    torch.manual_seed(args.seed)
    model = build_model(cfg)
    betas = (0.9, 0.98) if args.arch == "transformer" else (0.9, 0.999)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, betas=betas)
    state = {"epoch": 0, "batch": 0, "step": 0, "elapsed": 0.0, "best_dev": float("inf")}
    if os.path.exists(ckpt_path):
        ck = torch.load(ckpt_path)
        if ck["cfg"] != cfg:
            sys.exit(f"{ckpt_path} was trained with another config; use another --out")
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        state = ck["state"]
        if not args.quiet:
            print(f"resuming at epoch {state['epoch'] + 1}, batch {state['batch']}", flush=True)
    elif args.init:
        ck = checkpoints.init_source(args.init)
        def shape(c):  # what must match; not how it was trained or stored
            return {k: v for k, v in c.items() if k not in ("attention_guidance", "dropout", "dtype")}
        same = shape(ck["cfg"]) == shape(cfg)
        if not same or ck["tgt_itos"] != corp["tgt_itos"] \
                or ck["src_itos"] != corp["src_itos"]:
            sys.exit(f"{args.init} has another config or vocabulary than this run's")
        model.load_state_dict(ck["model"])
        state["before"] = ck["state"].get("before", []) + [{
            "checkpoint": os.path.relpath(args.init, data.ROOT), "recipe": ck.get("recipe"),
            "steps": ck["state"]["step"], "seconds": round(ck["state"]["elapsed"])}]
        if not args.quiet:
            print(f"starting from {args.init} (its step {ck['state']['step']})", flush=True)
    elif args.init_encoder:
        summary = init_encoder.init_encoder(model, corp["src_itos"], args.init_encoder)
        if not args.quiet:
            print(summary, flush=True)
    if not args.quiet:
        print(f"model: {model.num_params():,} parameters, "
              f"{cfg.get('arch', 'rnn')}, scoring {cfg['scoring']}", flush=True)
    return model, opt, state


def recipe_of(args, warmup):
    """The settings a model file records as its training recipe."""
    recipe = {k: getattr(args, k) for k in ("epochs", "steps", "minutes", "batch", "lr", "smoothing",
                                            "max_len", "seed", "threads", "bf16", "joined",
                                            "train_subset", "arch", "joined_max_parts",
                                            "joined_max_len", "guided_alignment", "init",
                                            "init_encoder",
                                            "unpunctuated", "numbers")}
    recipe["warmup"] = warmup
    return recipe


def run(args, model, opt, state, train, dev, ck, warmup):
    """The optimisation loop: length-bucketed batches in a seeded order per epoch, the learning
    rate schedule, gradient clipping at norm 1, progress lines, a checkpoint every
    --checkpoint-minutes, and the dev loss at the end of each epoch (or of the budget)."""
    per_epoch = math.ceil(len(train) / args.batch)
    total_steps = args.steps or per_epoch * args.epochs
    budget = args.minutes * 60 if args.minutes else None
    if budget:
        total_steps = 10 ** 9  # the clock ends the run

    def time_frac():
        return None if budget is None else min(state["elapsed"] / budget, 1.0)
    session_start = time.time()
    elapsed_before = state["elapsed"]
    last_ckpt = time.time()
    model.train()
    ck.snapshot()  # at step 0: the untrained model, the timelapse's first frame

    def finish_epoch():
        state["epoch"] += 1
        state["batch"] = 0
        dl = dev_loss(model, dev, bf16=args.bf16)
        ck.log({"epoch": state["epoch"], "step": state["step"], "dev_loss": dl,
                "elapsed": state["elapsed"]})
        if not args.quiet:
            print(f"epoch {state['epoch']} done at step {state['step']}: dev loss {dl:.3f} "
                  f"(elapsed {fmt_time(state['elapsed'])})", flush=True)
        if dl < state["best_dev"]:
            state["best_dev"] = dl
            ck.save_best()
        ck.save()

    while (state["step"] < total_steps and (args.steps or budget or state["epoch"] < args.epochs)
           and (budget is None or state["elapsed"] < budget)):
        order = batches(train, args.batch, random.Random(args.seed * 1000 + state["epoch"]))
        run_loss, run_n = 0.0, 0
        for bi in range(state["batch"], len(order)):
            for g in opt.param_groups:
                g["lr"] = lr_at(state["step"], total_steps, args.lr, warmup, time_frac())
            loss = loss_of(model, order[bi], args.smoothing, args.bf16, args.guided_alignment)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            state["step"] += 1
            state["batch"] = bi + 1
            run_loss += loss.item()
            run_n += 1
            state["elapsed"] = elapsed_before + time.time() - session_start
            ck.snapshot()
            if run_n % 50 == 0 and not args.quiet:
                if budget:
                    done = time_frac()
                    eta = budget - state["elapsed"]
                    epochs = "?"
                else:
                    done = state["step"] / total_steps
                    eta = (total_steps - state["step"]) * state["elapsed"] / state["step"]
                    epochs = math.ceil(total_steps / per_epoch)
                print(f"epoch {state['epoch'] + 1}/{epochs} batch {bi + 1}/{len(order)} "
                      f"loss {run_loss / run_n:.3f} lr {opt.param_groups[0]['lr']:.2e} "
                      f"{100 * done:.1f}% elapsed {fmt_time(state['elapsed'])} "
                      f"eta {fmt_time(eta)}", flush=True)
                ck.log({"epoch": state["epoch"] + 1, "step": state["step"],
                        "train_loss": run_loss / run_n, "elapsed": state["elapsed"]})
                run_loss, run_n = 0.0, 0
            if time.time() - last_ckpt > args.checkpoint_minutes * 60:
                ck.save()
                last_ckpt = time.time()
            if state["step"] >= total_steps or (budget and state["elapsed"] >= budget):
                break
        finish_epoch()  # a step budget ending mid-epoch counts as an epoch: dev loss is logged
        last_ckpt = time.time()
    if args.snapshots:
        ck.snapshot(force=True)  # the last frame is the trained model


def main(argv=None):
    """scripts/train: the phases in order. Returns (model, meta, state) for the tests."""
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    os.makedirs(args.out, exist_ok=True)
    cfg = model_config(args)
    warmup = args.warmup if args.warmup is not None else (400 if args.arch == "transformer" else 0)
    corp, train, dev = training_data(args, cfg)
    model, opt, state = start(args, cfg, corp, os.path.join(args.out, "last.pt"))
    meta = {"cfg": cfg, "src_itos": corp["src_itos"], "tgt_itos": corp["tgt_itos"],
            "src_names": corp["src_names"], "tgt_names": corp["tgt_names"],
            "recipe": recipe_of(args, warmup)}
    ck = Checkpoints(args.out, meta, model, opt, state, args.snapshots)
    run(args, model, opt, state, train, dev, ck, warmup)
    return model, meta, state


if __name__ == "__main__":
    main()
