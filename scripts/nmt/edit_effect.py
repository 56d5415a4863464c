"""Does attention decide the word? Forced decoding of the alignment gold set's human French, and
at every French token with a sure gold link, the same step again with all the weight moved to
its gold English word(s), and separately to each other source word (one at a time, averaged).

For each model and edit: how often the model's own choice at that step (its argmax, the human
prefix read) changes, how often it is the human word before and after, and how much the human
word's log-probability gains or loses. A Transformer is edited in every head at once, and in
each decoder layer's head alone, which is also switched off (its output zeroed: the usual
head-ablation probe). A model without attention has no weights to move: it is listed
with that reason, as the control whose words never depend on where it looks.

  scripts/attention-edits [--model FILE ...] [--json OUT] [--markdown]

The page shows what --json writes (web/data/attention-edits.json), as recorded numbers.
"""
import argparse
import datetime
import json
import os
import statistics

import torch

from . import alignment, attention_edit, corpus, data, export
from .search import Translator, topk

MODELS = ["en-fr", "en-fr-dot", "en-fr-noattn", "en-fr-transformer"]


def units(cfg):
    """The edits to try, (label, layer, head): the one attention of an RNN; for a Transformer
    every head at once, then each head alone (1-based labels, as scripts/eval's)."""
    if cfg.get("arch") != "transformer":
        return [("attention", -1, -1)]
    out = [("every head", -1, -1)]
    for layer in range(cfg["dec_layers"]):
        for head in range(cfg["heads"]):
            out.append((f"L{layer + 1}H{head + 1}", layer, head))
    return out


def edited_step(tr, enc, y, s, i, n, layer, head, weights):
    """Step i again, from the same state, with weights (n floats) given to (layer, head), or
    that head switched off (weights None). Returns its log-probabilities."""
    edit = {"step": i, "weights": weights} if weights else {"step": i, "ablate": True}
    if tr.cfg.get("arch") == "transformer":
        edit.update(layer=layer, head=head)
    return tr.step(enc, y, s, attention_edit.plan([edit], tr.cfg, n, i + 1), i)[4]


class Tally:
    def __init__(self):
        self.steps, self.changed, self.human_own, self.human_edit = 0, 0.0, 0, 0.0
        self.dlogp = []

    def add(self, own_logp, results, human):
        """results: the edited steps' log-probs (one or more, averaged as one step)."""
        own_best = topk(own_logp, 1)[0][0]
        self.steps += 1
        self.human_own += own_best == human
        k = len(results)
        self.changed += sum(topk(lp, 1)[0][0] != own_best for lp in results) / k
        self.human_edit += sum(topk(lp, 1)[0][0] == human for lp in results) / k
        self.dlogp.append(sum(float(lp[human] - own_logp[human]) for lp in results) / k)

    def row(self):
        n = max(self.steps, 1)
        return {"steps": self.steps, "changed": round(100 * self.changed / n, 1),
                "human_top1_own": round(100 * self.human_own / n, 1),
                "human_top1_edited": round(100 * self.human_edit / n, 1),
                "dlogp_mean": round(statistics.fmean(self.dlogp), 3) if self.dlogp else None,
                "dlogp_median": round(statistics.median(self.dlogp), 3) if self.dlogp else None}


@torch.no_grad()
def measure(tr, gold):
    """Rows {"edit": unit label, "what": "gold" | "other" | "off", Tally's fields}."""
    tallies = {u[0]: {"gold": Tally(), "other": Tally(), "off": Tally()} for u in units(tr.cfg)}
    for it in gold:
        src_ids, tgt_ids = tr.source(it["en"])[1], tr.target(it["fr"])[1]
        n_en = len(src_ids)
        n = n_en + 1
        enc = tr.encode(src_ids)
        s, y = enc[2], data.BOS
        for i, tok in enumerate(tgt_ids):
            sure = sorted({e for e, f in it["sure"] if f == i})
            _, _, _, s_next, own = tr.step(enc, y, s)
            if sure:
                gold_row = [1.0 if j in sure else 0.0 for j in range(n)]
                possible = {e for e, f in it["possible"] if f == i}
                others = [j for j in range(n_en) if j not in possible]
                for label, layer, head in units(tr.cfg):
                    t = tallies[label]
                    t["gold"].add(own, [edited_step(tr, enc, y, s, i, n, layer, head, gold_row)],
                                  tok)
                    if others:
                        t["other"].add(own, [edited_step(tr, enc, y, s, i, n, layer, head,
                                                         [float(j == o) for j in range(n)])
                                             for o in others], tok)
                    if head >= 0:
                        t["off"].add(own, [edited_step(tr, enc, y, s, i, n, layer, head, None)],
                                     tok)
            s, y = s_next, tok  # teacher forcing: the human word, whatever was chosen
    return [{"edit": label, "what": what, **tally.row()}
            for label, t in tallies.items() for what, tally in t.items() if tally.steps]


WHERE = {"gold": "its gold English word", "other": "another source word (mean over each)",
         "off": "nowhere: head switched off"}


def markdown(doc):
    lines = ["| model | edit | moved to | steps | choice changed | human word top-1: own → edited "
             "| mean Δ log p(human) |", "|---|---|---|---|---|---|---|"]
    for m in doc["models"]:
        if "reason" in m:
            lines.append(f"| {m['model']} | — | — | — | — | — | {m['reason']} |")
            continue
        for r in m["rows"]:
            lines.append(f"| {m['model']} | {r['edit']} | {WHERE[r['what']]} | {r['steps']} | "
                         f"{r['changed']}% | {r['human_top1_own']}% → "
                         f"{r['human_top1_edited']}% | {r['dlogp_mean']:+.2f} |")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="scripts/attention-edits",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", nargs="+",
                    default=[os.path.join(data.ROOT, "models", m + ".safetensors") for m in MODELS])
    ap.add_argument("--align", default=os.path.join(data.ROOT, "models", "eval", "align-gold.tsv"))
    ap.add_argument("--limit", type=int, default=None, help="first N gold sentences only")
    ap.add_argument("--json", metavar="OUT", help="also write the results there")
    ap.add_argument("--markdown", action="store_true", help="print the model card's table")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    gold = alignment.read_gold(args.align)[:args.limit]
    doc = {"recorded": f"{datetime.date.today().isoformat()}: scripts/attention-edits "
                       f"(PyTorch reference, {len(gold)} gold sentences of "
                       f"{os.path.relpath(args.align, data.ROOT)})",
           "models": []}
    for path in args.model:
        model, meta = export.load_model(path)
        name = os.path.basename(path).replace(".safetensors", "")
        # the file measured: tests/node/recorded-data.test.mjs fails when models/ holds another
        sha = corpus.file_sha256(path)
        if meta["cfg"]["scoring"] == "none":
            doc["models"].append({"model": name, "sha256": sha, "reason": "no attention: every "
                                  "step reads the same fixed vector c, so there is no weight to move"})
            continue
        doc["models"].append({"model": name, "sha256": sha,
                              "rows": measure(Translator(model, meta), gold)})
        print(json.dumps(doc["models"][-1]), flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False, indent=1)
            f.write("\n")
    if args.markdown:
        print(markdown(doc))


if __name__ == "__main__":
    main()
