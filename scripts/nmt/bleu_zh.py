"""The tokens BLEU counts for Chinese output: sacreBLEU's `zh` tokenizer (sacrebleu 2.x,
tokenizers/tokenizer_zh.py), reimplemented because sacrebleu is not installed here and its
numbers are what Chinese MT results (OPUS-MT's Tatoeba BLEU among them) are reported in.

Two steps, as sacreBLEU does them:
1. every character of its "Chinese" ranges becomes a token of its own (a space either side);
2. the rest goes through the regular expressions that sacreBLEU's `13a` tokenizer also ends
   with (TokenizerRegexp): ASCII punctuation split off, `.` and `,` split off unless between
   digits, `-` split off after a digit. Unlike `13a`, `zh` does not first unescape `&quot;`
   and the like or join `-\\n`; neither occurs in our data, and we follow `zh`, not `13a`.

Counting on these tokens rather than on the model's own (tokenizer spec 3) makes our BLEU
comparable with published zh BLEU; for text that is all ideographs and CJK punctuation the
two agree anyway.
"""
import re

# sacreBLEU's ranges, as its code spells them. Two of them are written there as '\u20000' and
# '\u2f800', which Python reads as a 2-character string ('\u2000' then '0'), not as U+20000;
# compared with one character, the "range" '\u20000'..'\u2a6d6' is U+2001..U+2A6D (general
# punctuation such as “ ” … , arrows, maths symbols), and '\u2f800'..'\u2fa1d' is
# U+2F81..U+2FA1 (Kangxi radicals). Extension B ideographs are therefore not split. We keep the
# quirk, since matching sacreBLEU's counts is the point; (lo, hi) below are the effective
# single-character bounds, inclusive.
_RANGES = [
    (0x3400, 0x4DB5), (0x4E00, 0x9FA5), (0x9FA6, 0x9FBB), (0xF900, 0xFA2D), (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0x2001, 0x2A6D),  # '\u20000'..'\u2a6d6', see above
    (0x2F81, 0x2FA1),  # '\u2f800'..'\u2fa1d', see above
    (0xFF00, 0xFFEF), (0x2E80, 0x2EFF), (0x3000, 0x303F), (0x31C0, 0x31EF), (0x2F00, 0x2FDF),
    (0x2FF0, 0x2FFF), (0x3100, 0x312F), (0x31A0, 0x31BF), (0xFE10, 0xFE1F), (0xFE30, 0xFE4F),
    (0x2600, 0x26FF), (0x2700, 0x27BF), (0x3200, 0x32FF), (0x3300, 0x33FF),
]

# TokenizerRegexp, in its order.
_REGEXP = [
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),  # ASCII punctuation
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),   # . , unless preceded by a digit
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),   # . , unless followed by a digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),        # - after a digit
]


def is_chinese_char(ch):
    """True for a character sacreBLEU's zh tokenizer makes a token of its own."""
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _RANGES)


def tokenize(text):
    """text -> the list of tokens sacreBLEU's `zh` tokenizer gives ("我有3只猫。" ->
    我 有 3 只 猫 。)."""
    line = "".join(f" {ch} " if is_chinese_char(ch) else ch for ch in text.strip())
    for pattern, repl in _REGEXP:
        line = pattern.sub(repl, line)
    return line.split()
