"""BLEU against source length (the paper's Figure 2) on the long-input set: the table for the
model card, the committed figure (docs/bleu-by-length.svg), the JSON the page reads, and the
sample the page's "run it yourself" experiment translates in the browser.

The figure is drawn here, from the numbers, with no plotting library: Debian's matplotlib would
be one more install for one chart, and a hand-written SVG stays small, diffable and styled like
the page.
"""
import datetime
import json
import os
from xml.sax.saxutils import escape

from . import joined

# Per model kind: the page's colours (web/ui/ui.css) and a label that says what it is.
STYLE = {"none": ("#8a8f98", "no attention (RNNencdec)", "6 4"),
         "additive": ("#2166ac", "additive attention", ""),
         "scaled_dot": ("#d6604d", "scaled dot-product attention", ""),
         "transformer": ("#1b7837", "Transformer (self-attention, no RNN)", "")}


def kind(r):
    """A curve's style key: its scoring, or "transformer" (whose cross-attention is also a
    scaled dot product, but which is a different model)."""
    return "transformer" if r.get("arch") == "transformer" else r["scoring"]
ATTRIBUTION = ("English and French sentences from Tatoeba (https://tatoeba.org), CC-BY 2.0 FR; "
               "consecutive test-split sentences joined into longer inputs by "
               "scripts/nmt/joined.py")
LANG_NAMES = {"fr": "French", "zh": "Chinese"}
# What the JSON says BLEU counted, per target language (eval_langs.bleu_tokenizer).
BLEU_TOKENS = {"fr": "the model's French tokens (tokenizer spec 2)",
               "zh": "sacreBLEU's zh tokens (each CJK character a token; scripts/nmt/bleu_zh.py)"}


def attribution(lang):
    return ATTRIBUTION if lang == "fr" else ATTRIBUTION.replace(
        "English and French", f"English and {LANG_NAMES.get(lang, lang)}")


def long_inputs(items, lang="fr"):
    """joined.long_inputs for a target language. The English parts are joined with a space in
    every language, and so is a French reference; Chinese is written without a space between
    sentences ("我饿了。你呢？", tokenizer.detokenize), so its reference parts are joined with
    nothing. joined.long_inputs reads only the English to choose the parts, so the Chinese set
    is the French one's construction exactly: it is run on the items' indices in place of
    their references, and each index is then replaced by its first reference."""
    if lang != "zh":
        return joined.long_inputs(items)
    keyed = [(en, [str(i)]) for i, (en, _) in enumerate(items)]
    return [(bucket, en, "".join(items[int(k)][1][0] for k in ref.split(" ")))
            for bucket, en, ref in joined.long_inputs(keyed)]


def buckets():
    return [f"{lo}-{hi}" for lo, hi in joined.BUCKETS]


def markdown_table(results):
    head = "| model | " + " | ".join(f"{b} words" for b in buckets()) + " |"
    rule = "|---|" + "---:|" * len(buckets())
    lines = [head, rule]
    for r in results:
        cells = " | ".join(f"{r['bleu'][b]:.2f}" for b in buckets())
        lines.append(f"| {r['model']} ({kind(r)}) | {cells} |")
    counts = results[0]["sentences"] if results else {}
    lines.append("| inputs per bucket | " + " | ".join(str(counts.get(b, 0)) for b in buckets())
                 + " |")
    return "\n".join(lines)


def figure_svg(results, width=640, height=380):
    """BLEU (y) against source length bucket (x), one line per model, with a legend."""
    left, right, top, bottom = 56, 16, 16, 56
    pw, ph = width - left - right, height - top - bottom
    bs = buckets()
    ymax = max(10.0, max((v for r in results for v in r["bleu"].values()), default=10.0))
    ymax = 10.0 * int(ymax / 10.0 + 0.999)
    x = lambda i: left + pw * (i + 0.5) / len(bs)
    y = lambda v: top + ph * (1 - v / ymax)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" font-family="system-ui, sans-serif" '
           f'font-size="12" role="img" aria-labelledby="t d">',
           '<title id="t">BLEU against source length</title>',
           '<desc id="d">' + escape("; ".join(
               f"{STYLE[kind(r)][1]}: " + ", ".join(f"{b} words {r['bleu'][b]:.1f}" for b in bs)
               for r in results)) + '</desc>',
           f'<rect width="{width}" height="{height}" fill="#fff"/>']
    for k in range(0, int(ymax) + 1, 10):
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{y(k):.1f}" y2="{y(k):.1f}" '
                   f'stroke="#e3e5e8"/>')
        out.append(f'<text x="{left - 8}" y="{y(k) + 4:.1f}" text-anchor="end" '
                   f'fill="#444">{k}</text>')
    for i, b in enumerate(bs):
        out.append(f'<text x="{x(i):.1f}" y="{top + ph + 18}" text-anchor="middle" '
                   f'fill="#444">{b.replace("-", "–")}</text>')
    out.append(f'<text x="{left + pw / 2:.1f}" y="{height - 12}" text-anchor="middle" '
               f'fill="#222">source length (English words)</text>')
    out.append(f'<text transform="translate(16 {top + ph / 2:.1f}) rotate(-90)" '
               f'text-anchor="middle" fill="#222">BLEU (test split, greedy)</text>')
    for li, r in enumerate(results):
        colour, label, dash = STYLE[kind(r)]
        pts = " ".join(f"{x(i):.1f},{y(r['bleu'][b]):.1f}" for i, b in enumerate(bs))
        out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2.5"'
                   + (f' stroke-dasharray="{dash}"' if dash else "") + "/>")
        for i, b in enumerate(bs):
            out.append(f'<circle cx="{x(i):.1f}" cy="{y(r["bleu"][b]):.1f}" r="3.5" '
                       f'fill="{colour}"/>')
        # The legend sits in the middle band (BLEU about 15-25), between the attention models'
        # curves above and the no-attention curve below, which is where the figure's story is.
        lx, ly = left + int(pw * 0.35), y(25) + 6 + 18 * li
        out.append(f'<line x1="{lx}" x2="{lx + 22}" y1="{ly}" y2="{ly}" stroke="{colour}" '
                   f'stroke-width="2.5"' + (f' stroke-dasharray="{dash}"' if dash else "") + "/>")
        out.append(f'<text x="{lx + 28}" y="{ly + 4}" fill="#222">'
                   f'{escape(r["model"])}: {escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def sample(items, per_bucket, lang="fr"):
    """The first per_bucket inputs of each bucket of the long-input set (it is already a
    seeded draw), for the page's in-browser experiment."""
    out, seen = [], {}
    for bucket, en, fr in items:
        if seen.get(bucket, 0) < per_bucket:
            seen[bucket] = seen.get(bucket, 0) + 1
            out.append({"bucket": bucket, "en": en, lang: fr})
    return out


def write(results, command, svg=None, json_path=None, sample_path=None, items=(),
          per_bucket=0, lang="fr"):
    """results: [{model, scoring, bleu: {bucket: BLEU}, sentences: {bucket: n}}]. lang: the
    target language; French files are as they always were, others say their language and
    put the reference under its code ("zh") in the sample."""
    if svg:
        with open(svg, "w") as f:
            f.write(figure_svg(results))
    if json_path:
        doc = {"about": "BLEU against source length on the long-input set (scripts/eval "
                        "--by-length); the page's 'Why attention?' chart",
               "command": command, "date": datetime.date.today().isoformat(),
               "split": "test", "buckets": buckets(), "decoding": "greedy",
               "bleu": "corpus BLEU, single reference, NLTK 3.8, on "
                       + BLEU_TOKENS.get(lang, "the model's target tokens"),
               "models": results}
        if lang != "fr":
            doc["tgt_lang"] = lang
        os.makedirs(os.path.dirname(os.path.abspath(json_path)), exist_ok=True)
        with open(json_path, "w") as f:
            json.dump(doc, f, ensure_ascii=False, indent=1)
    if sample_path:
        doc = {"about": "a sample of the long-input set for the page's in-browser experiment",
               "attribution": attribution(lang), "command": command, "buckets": buckets(),
               "per_bucket": per_bucket, "items": sample(items, per_bucket, lang)}
        if lang != "fr":
            doc["tgt_lang"] = lang
        os.makedirs(os.path.dirname(os.path.abspath(sample_path)), exist_ok=True)
        with open(sample_path, "w") as f:
            json.dump(doc, f, ensure_ascii=False, indent=0)
