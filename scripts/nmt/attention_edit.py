"""Attention edits in the reference: the plan the C++ core's EditPlan builds (src/core/
attention_edit.cpp), for golden fixtures and for measuring what attention decides.

An edit is a dict like the API's AttentionEdit: {"step": i, "weights": [...] or "column": j,
"layer": -1, "head": -1, "ablate": False, "hold": False}. Weights are scaled to sum 1 with the
sum taken in double, as the core does, so both engines mix c_i from the same floats.
"""
import torch


def given_row(edit, n):
    """The edit's row of n weights (float32), or None for an ablated head."""
    if edit.get("ablate"):
        return None
    if edit.get("column", -1) >= 0:
        row = torch.zeros(n)
        row[edit["column"]] = 1.0
        return row
    w = torch.tensor(edit["weights"], dtype=torch.float32)
    if w.numel() != n or not torch.isfinite(w).all() or (w < 0).any() or w.sum() <= 0:
        raise ValueError(f"bad weights for {n} columns: {edit['weights']}")
    return (w.double() / w.double().sum()).float()


def plan(edits, cfg, n, steps):
    """[step] -> {(layer, head): row or None}: what each of steps decoder steps is given.
    An RNN has one attention, (0, 0). A held edit covers the later steps until another edit of
    the same head takes over."""
    transformer = cfg.get("arch") == "transformer"
    if edits and cfg.get("scoring") == "none":
        raise ValueError("no attention to edit")
    layers, heads = (cfg["dec_layers"], cfg["heads"]) if transformer else (1, 1)
    owner = [dict() for _ in range(steps)]
    rows = [given_row(e, n) for e in edits]
    for k, e in enumerate(edits):
        if not 0 <= e["step"] < steps:
            raise ValueError(f"step {e['step']} out of range")
        for layer in range(layers):
            for head in range(heads):
                if e.get("layer", -1) in (-1, layer) and e.get("head", -1) in (-1, head):
                    if (layer, head) in owner[e["step"]]:
                        raise ValueError("two edits set one head at one step")
                    owner[e["step"]][(layer, head)] = k
    for i in range(1, steps):
        for unit, k in owner[i - 1].items():
            if unit not in owner[i] and edits[k].get("hold"):
                owner[i][unit] = k
    return [{unit: rows[k] for unit, k in o.items()} for o in owner]


def transformer_edits(by_step, upto):
    """decode_all's edits for positions 0..upto: {layer: {(position, head): row}}."""
    out = {}
    for pos in range(upto + 1):
        for (layer, head), row in by_step[pos].items():
            out.setdefault(layer, {})[(pos, head)] = row
    return out
