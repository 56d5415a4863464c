"""The everyday sets (models/eval/everyday-fr.tsv, everyday-zh.tsv): sentences a student would
type, written for this project (not from Tatoeba), each with the translations a teacher would
accept.
scripts/eval scores every model on it: the share of sentences whose output is one of the
accepted translations once both are normalised, per category, and the misses.

It is a test set: nothing is trained or tuned on it (models/eval/README.md).
"""
import os
import re
import unicodedata

from . import data

DEFAULT_PATH = os.path.join(data.ROOT, "models", "eval", "everyday-fr.tsv")

APOSTROPHES = "\u2019\u2018\u02bc\u2032\u00b4`"
QUOTES = "\u00ab\u00bb\u201c\u201d\u201e\""
SPACES = re.compile(r"[\s\u00a0\u202f\u2007\u2009\u200a\u2060\ufeff]+")


def read(path=DEFAULT_PATH):
    """[{"category", "en", "accepted": [translations...], "line"}] in file order.
    Lines: category<TAB>english<TAB>translation | translation | ...; blank and '#' lines are
    skipped."""
    items, seen = [], {}
    with open(path, encoding="utf-8") as f:
        for ln, line in enumerate(f, 1):
            line = line.rstrip("\n").rstrip("\r")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 3:
                raise ValueError(f"{path}:{ln}: want 3 tab-separated columns "
                                 f"(category, english, accepted French), got {len(cols)}")
            category, en, fr = (c.strip() for c in cols)
            if not category or not en:
                raise ValueError(f"{path}:{ln}: empty category or English sentence")
            accepted = [v.strip() for v in fr.split("|")]
            if not fr.strip() or any(not v for v in accepted):
                raise ValueError(f"{path}:{ln}: empty accepted translation in {fr!r}")
            if en in seen:
                raise ValueError(f"{path}:{ln}: {en!r} is already on line {seen[en]}")
            seen[en] = ln
            items.append({"category": category, "en": en, "accepted": accepted, "line": ln})
    return items


def normalize(text, lang="fr"):
    """The form outputs and accepted translations are compared in: NFC, case-folded, one
    apostrophe ('), no « » or double quotes, single spaces, no space before ? ! : ; , . and no
    final full stop ("Tu viens ?" == "tu viens?", "J’ai froid" == "j'ai froid.").
    lang "zh": normalize_zh."""
    if lang == "zh":
        return normalize_zh(text)
    s = unicodedata.normalize("NFC", text)
    for ch in APOSTROPHES:
        s = s.replace(ch, "'")
    for ch in QUOTES:
        s = s.replace(ch, " ")
    s = SPACES.sub(" ", s).strip().casefold()
    s = re.sub(r"(\w)' +", r"\1'", s)  # "j' ai" -> "j'ai"
    s = re.sub(r" +([?!:;,.])", r"\1", s)
    s = s.rstrip(" .")
    return s


# Chinese punctuation that NFKC leaves as it is, folded to the ASCII mark a reader takes it for.
# NFKC already folds the full-width forms (，？！：；（） U+FF01-FF5E) and the ideographic space.
# 、 (enumeration comma) is folded to "," as well: a model that lists "红、蓝" as "红，蓝" is
# not wrong in a way a teacher would mark.
ZH_PUNCT = {"\u3002": ".", "\u3001": ",", "\uff61": ".", "\uff64": ","}
ZH_QUOTES = "\u300c\u300d\u300e\u300f\u201c\u201d\u2018\u2019\"'"


def normalize_zh(text):
    """Chinese is compared ignoring every space (the data write "一个 DJ 。" as often as
    "一个DJ。") and full-width against half-width forms: NFKC (，→, ？→? ３→3 Ａ→A), 。→. 、→,,
    quotes “”「」『』 dropped, case-folded (Latin words), no final full stop. Characters are not
    converted between simplified and traditional: an accepted list that wants both lists both."""
    s = unicodedata.normalize("NFKC", text)
    s = "".join(ZH_PUNCT.get(ch, ch) for ch in s)
    s = "".join(ch for ch in s if ch not in ZH_QUOTES and not ch.isspace())
    s = s.casefold()
    return s.rstrip(".")


def is_right(output, accepted, lang="fr"):
    out = normalize(output, lang)
    return any(out == normalize(a, lang) for a in accepted)


def score(translate, items, lang="fr"):
    """translate: [english] -> [translations] (one call for the whole set, so an engine can
    batch); items: read(); lang: the target language, for normalize().
    -> {"everyday_right": percent, "everyday_sentences": n,
    "everyday_by_category": {category: {"right", "sentences", "share"}},
    "everyday_misses": [{"en", "got", "category"}]} in file order."""
    outputs = translate([it["en"] for it in items])
    if len(outputs) != len(items):
        raise ValueError(f"translate returned {len(outputs)} outputs for {len(items)} sentences")
    by_cat, misses, right = {}, [], 0
    for it, got in zip(items, outputs):
        c = by_cat.setdefault(it["category"], {"right": 0, "sentences": 0})
        c["sentences"] += 1
        if is_right(got, it["accepted"], lang):
            c["right"] += 1
            right += 1
        else:
            misses.append({"en": it["en"], "got": got, "category": it["category"]})
    for c in by_cat.values():
        c["share"] = round(100.0 * c["right"] / c["sentences"], 1)
    return {"everyday_right": round(100.0 * right / max(len(items), 1), 2),
            "everyday_sentences": len(items), "everyday_by_category": by_cat,
            "everyday_misses": misses}


def summary(name, result):
    """Lines for a person: the share right, per category, then every miss."""
    n = result["everyday_sentences"]
    right = n - len(result["everyday_misses"])
    cats = ", ".join(f"{k} {v['right']}/{v['sentences']}"
                     for k, v in result["everyday_by_category"].items())
    lines = [f"{name:28s} everyday: {result['everyday_right']:.1f}% right ({right}/{n}) | {cats}"]
    lines += [f"  miss [{m['category']}] {m['en']}  ->  {m['got']}"
              for m in result["everyday_misses"]]
    return "\n".join(lines)
