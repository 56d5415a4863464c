"""What a training run writes to its --out folder, and when: last.pt (resumable, with the
optimizer), best.pt (the best dev loss, weights only), log.jsonl, and with --snapshots the
training timelapse's frames, snapshots/step-NNNNNNN.pt (weights only), at logarithmically
spaced steps: attention changes most in the first hundred steps, so frames are dense there."""
import json
import os

import torch

from . import export, safetensors_io


def snapshot_steps(last, ratio=1.15):
    """0 and round(ratio**k) for k = 0, 1, ..., deduplicated, up to `last`: about 55 steps up to
    6,000, dense where attention changes fastest (the first hundred steps), sparse later. The
    run's final step is kept too (the training loop saves it when it ends)."""
    out, k = {0}, 0
    while round(ratio ** k) <= last:
        out.add(round(ratio ** k))
        k += 1
    return sorted(out)


class Checkpoints:
    """What a run writes to its --out folder: last.pt (resumable, with the optimizer), best.pt
    (the best dev loss, weights only), log.jsonl, and with --snapshots the timelapse's frames."""

    def __init__(self, out, meta, model, opt, state, snapshots=False):
        self.out, self.meta, self.model, self.opt, self.state = out, meta, model, opt, state
        self.last = os.path.join(out, "last.pt")
        self.snap_dir = os.path.join(out, "snapshots")
        self.snap_at = set(snapshot_steps(10 ** 7)) if snapshots else set()

    def save(self, path=None, best=False):
        path = path or self.last
        tmp = path + ".tmp"
        payload = dict(self.meta, model=self.model.state_dict(), state=self.state)
        if not best:
            payload["opt"] = self.opt.state_dict()
        torch.save(payload, tmp)
        os.replace(tmp, path)

    def save_best(self):
        self.save(os.path.join(self.out, "best.pt"), best=True)

    def log(self, rec):
        with open(os.path.join(self.out, "log.jsonl"), "a") as f:
            f.write(json.dumps(rec) + "\n")

    def snapshot(self, force=False):
        """The weights alone (no optimizer), step-numbered, for scripts/timelapse: at the steps
        of snapshot_steps, and with force (the run's last step) wherever the run ends."""
        if not force and self.state["step"] not in self.snap_at:
            return
        os.makedirs(self.snap_dir, exist_ok=True)
        path = os.path.join(self.snap_dir, f"step-{self.state['step']:07d}.pt")
        if not os.path.exists(path):
            tmp = path + ".tmp"
            torch.save(dict(self.meta, model=self.model.state_dict(),
                            state={k: self.state[k] for k in ("step", "elapsed", "epoch")}), tmp)
            os.replace(tmp, path)


def init_source(path):
    """--init's weights as a checkpoint's fields: a training checkpoint (.pt) as saved, or a
    shipped model file (.safetensors, int8 weights dequantized as stored), whose training
    record stands in for the checkpoint's state. The file is what the project keeps, so a
    second stage can start from a model whose checkpoint is gone."""
    if not path.endswith(".safetensors"):
        return torch.load(path)
    donor, meta = export.load_model(path)
    record = json.loads(safetensors_io.load(path)[1].get("training", "{}"))
    # the file leaves out an optional key at its default (export.OPTIONAL_CONFIG); a
    # checkpoint's config holds it
    cfg = meta["cfg"] if meta["cfg"].get("arch") == "transformer" else \
        {"decoder": export.OPTIONAL_CONFIG["decoder"], **meta["cfg"]}
    return {"cfg": cfg, "model": donor.state_dict(), "src_itos": meta["src_itos"],
            "tgt_itos": meta["tgt_itos"], "recipe": record.get("recipe"),
            "state": {"step": record.get("steps", 0), "elapsed": record.get("train_seconds", 0),
                      "before": record.get("before", [])}}
