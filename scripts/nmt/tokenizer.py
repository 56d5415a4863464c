"""Reference tokenizer, spec version 3 (docs/tokenization.md); versions 1 and 2 by parameter.

Every rule here is table-driven on purpose: the C++ core (src/core/tokenizer.cpp) implements
the same tables without ICU, and tests/fixtures/tokenizer.json (version 2) and
tokenizer-zh.json (version 3) pin the two together. Do not use
str.lower()/unicodedata inside tokenize(): they know far more of Unicode than the C++ side does.
Full NFC is the front end's job (prepare()), before tokenize().
"""
import unicodedata

SPEC_VERSION = 3  # 2 added case repair (step 6), which only runs when given a vocabulary;
# 3 made each CJK ideograph a token, folded full-width letters and digits (Chinese). Every
# function takes version= (default SPEC_VERSION); 1 and 2 tokenize alike (2 only adds step 6).

# Characters that become a plain space.
SPACES = {0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F,
          0x205F, 0x3000} | set(range(0x2000, 0x200B))
# Characters that are dropped: C0/C1 controls, zero-width and bidi controls, variation selectors.
DROPPED_RANGES = [(0x00, 0x1F), (0x7F, 0x9F), (0x200B, 0x200F), (0x202A, 0x202E),
                  (0x2060, 0x206F), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB)]
APOSTROPHES = {0x2018, 0x2019, 0x201B, 0x02BC, 0x00B4, 0x0060, 0x2032}  # -> '
DOUBLE_QUOTES = {0x201C, 0x201D, 0x201E, 0x201F, 0x00AB, 0x00BB, 0x2033}  # -> "
DASHES = {0x2010, 0x2011}  # hyphens -> '-'; en/em dashes stay symbols

# "Word" code points: letters, digits and combining marks of the scripts we expect.
WORD_RANGES = [(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A), (0xAA, 0xAA), (0xB5, 0xB5),
               (0xBA, 0xBA), (0xC0, 0xD6), (0xD8, 0xF6), (0xF8, 0x24F), (0x250, 0x2AF),
               (0x300, 0x36F), (0x370, 0x3FF), (0x400, 0x52F), (0x530, 0x58F),
               (0x5D0, 0x5EA), (0x620, 0x64A), (0x660, 0x669), (0x900, 0x97F),
               (0xE00, 0xE7F), (0x10A0, 0x10FF), (0x1E00, 0x1FFF), (0x3040, 0x30FF),
               (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF),
               (0xFF10, 0xFF19), (0xFF21, 0xFF3A), (0xFF41, 0xFF5A)]

# Version 3 (Chinese). CJK ideographs: each one is a token of its own, and a word character.
# Planes 2 and 3 (extensions B-H, compatibility supplement) were no word characters before.
IDEOGRAPH_RANGES = [(0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x3FFFF)]
WORD_RANGES_V3 = WORD_RANGES + [(0x20000, 0x3FFFF)]
# Full-width digits and Latin letters fold to ASCII (U+FF10-U+FF19, U+FF21-U+FF3A,
# U+FF41-U+FF5A, minus 0xFEE0); full-width and CJK punctuation stay as written.
FULLWIDTH_ALNUM = [(0xFF10, 0xFF19), (0xFF21, 0xFF3A), (0xFF41, 0xFF5A)]
SENTENCE_END_V3 = {"\u3002", "\uff01", "\uff1f"}  # also end a sentence: 。！？

FR_ELISIONS = ("jusqu'", "lorsqu'", "puisqu'", "qu'", "l'", "j'", "c'", "d'", "n'", "s'",
               "m'", "t'")
EN_SUFFIXES = ("n't", "'s", "'m", "'re", "'ve", "'ll", "'d")
SENTENCE_END = {".", "!", "?", "...", "\u2026"}


def _in_ranges(cp, ranges):
    return any(lo <= cp <= hi for lo, hi in ranges)


def is_word_cp(cp, version=SPEC_VERSION):
    return _in_ranges(cp, WORD_RANGES_V3 if version >= 3 else WORD_RANGES)


def is_ideograph(cp, version=SPEC_VERSION):
    return version >= 3 and _in_ranges(cp, IDEOGRAPH_RANGES)


def _sentence_end(version):
    return SENTENCE_END | SENTENCE_END_V3 if version >= 3 else SENTENCE_END


def _build_composition():
    # Base letter + one combining mark -> precomposed letter, for Latin only. Generated from
    # unicodedata once; the table itself (not unicodedata) is the spec.
    table = {}
    for base in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz":
        for mark in (0x300, 0x301, 0x302, 0x303, 0x308, 0x30A, 0x30C, 0x327):
            s = unicodedata.normalize("NFC", base + chr(mark))
            if len(s) == 1:
                table[(ord(base), mark)] = ord(s)
    return table


COMPOSE = _build_composition()


def _upper_to_lower(cp):
    if 0x41 <= cp <= 0x5A or (0xC0 <= cp <= 0xDE and cp != 0xD7):
        return cp + 0x20
    if cp == 0x152:
        return 0x153
    return cp


def _lower_to_upper(cp):
    if 0x61 <= cp <= 0x7A or (0xE0 <= cp <= 0xFE and cp != 0xF7):
        return cp - 0x20
    if cp == 0x153:
        return 0x152
    return cp


def is_upper(cp):
    return _upper_to_lower(cp) != cp


def prepare(text):
    """What every front end does before tokenize(): full Unicode NFC."""
    return unicodedata.normalize("NFC", text)


def normalize(text, version=SPEC_VERSION):
    """Spec steps 1-3: drop controls, map spaces/apostrophes/quotes (version 3: full-width
    letters and digits), compose Latin accents."""
    out = []
    for ch in text:
        cp = ord(ch)
        if version >= 3 and _in_ranges(cp, FULLWIDTH_ALNUM):
            out.append(cp - 0xFEE0)
        elif cp in SPACES:
            out.append(0x20)
        elif _in_ranges(cp, DROPPED_RANGES):
            continue
        elif cp in APOSTROPHES:
            out.append(0x27)
        elif cp in DOUBLE_QUOTES:
            out.append(0x22)
        elif cp in DASHES:
            out.append(0x2D)
        elif out and (out[-1], cp) in COMPOSE:
            out[-1] = COMPOSE[(out[-1], cp)]
        else:
            out.append(cp)
    return "".join(map(chr, out))


def _split_chunk(chunk, version=SPEC_VERSION):
    """Split one whitespace-free chunk into raw words and symbols (spec step 4). Version 3: an
    ideograph is a token of its own and never part of a longer word."""
    cps = [ord(c) for c in chunk]
    n = len(cps)
    toks = []
    i = 0

    def in_word(c):  # may continue a word
        return is_word_cp(c, version) and not is_ideograph(c, version)

    while i < n:
        cp = cps[i]
        if is_ideograph(cp, version):
            toks.append(chunk[i])
            i += 1
        elif is_word_cp(cp, version):
            j = i + 1
            while j < n:
                if in_word(cps[j]):
                    j += 1
                    continue
                # joiners stay inside a word only between two word characters
                if j + 1 < n and in_word(cps[j + 1]):
                    c = cps[j]
                    if c in (0x27, 0x2D):  # ' and -
                        j += 2
                        continue
                    if c in (0x2C, 0x2E, 0x3A) and 0x30 <= cps[j - 1] <= 0x39 \
                            and 0x30 <= cps[j + 1] <= 0x39:  # 3.14 1,000 12:30
                        j += 2
                        continue
                break
            toks.append(chunk[i:j])
            i = j
        elif cp == 0x2E and chunk[i:i + 3] == "...":
            toks.append("...")
            i += 3
        else:
            toks.append(chunk[i])
            i += 1
    return toks


def _split_clitics(word, lang):
    """French elisions become their own token ("l'", "heure"); English contractions split PTB-style."""
    if lang == "fr":
        out = []
        rest = word
        while True:
            low = _lower(rest)
            for el in FR_ELISIONS:
                if low.startswith(el) and len(rest) > len(el):
                    out.append(rest[:len(el)])
                    rest = rest[len(el):]
                    break
            else:
                break
        return out + [rest]
    if lang == "en":
        low = _lower(word)
        for suf in EN_SUFFIXES:
            if low.endswith(suf) and len(word) > len(suf):
                return [word[:-len(suf)], word[-len(suf):]]
        return [word]
    return [word]


def _lower(tok):
    return "".join(chr(_upper_to_lower(ord(c))) for c in tok)


def _has_word_cp(tok, version=SPEC_VERSION):
    return any(is_word_cp(ord(c), version) for c in tok)


def _is_lower(cp):
    return _lower_to_upper(cp) != cp


def _repair_case(tokens, names, vocab):
    """Spec step 6 (version 2): all-lowercase or shouted (all-caps) text reads like normal case.
    Shouted text is lower-cased first; then each token that is not a word of the vocabulary
    but is a name in lower case gets the name's capitals back ("i" -> "I", "paris" -> "Paris";
    "us" stays, it is a word). Text that mixes cases is left alone."""
    cps = [ord(c) for t in tokens for c in t]
    upper = sum(map(is_upper, cps))
    lower = sum(map(_is_lower, cps))
    if lower == 0 and upper >= 2:
        tokens = [_lower(t) for t in tokens]
    elif not (upper == 0 and lower > 0):
        return tokens
    by_lower = {}
    for n in sorted(names):  # a shared lower-case form goes to the name that sorts first
        by_lower.setdefault(_lower(n), n)
    return [t if t in vocab else by_lower.get(t, t) for t in tokens]


def _truecase(tokens, names, vocab=None, version=SPEC_VERSION):
    """Lower-case the first letter of a sentence-initial word unless it is a known name. With a
    vocabulary, also unless the lower-cased word is not in it: an unknown capitalised word at
    the start is more likely a name ("Marie and John") than a common word, and lower-casing it
    would make the copied <unk> read as another word ("la marie", French for "marries")."""
    at_start = True
    out = []
    ends = _sentence_end(version)
    for t in tokens:
        if at_start and _has_word_cp(t, version):
            at_start = False
            if t not in names and is_upper(ord(t[0])) and not any(is_upper(ord(c)) for c in t[1:]):
                low = chr(_upper_to_lower(ord(t[0]))) + t[1:]
                if vocab is None or low in vocab:
                    t = low
        elif t in ends:
            at_start = True
        out.append(t)
    return out


def tokenize(text, lang, names=frozenset(), vocab=None, version=SPEC_VERSION):
    """vocab: the model's vocabulary (a set or dict of tokens) for case repair (step 6), which
    the engines apply to every text they read; None (training data, which are in normal case)
    skips it. version: the spec version (1, 2 or 3) of the model's tokenizer_version."""
    text = normalize(text, version)
    toks = []
    for chunk in text.split(" "):
        if not chunk:
            continue
        for raw in _split_chunk(chunk, version):
            if _has_word_cp(raw, version):
                toks.extend(_split_clitics(raw, lang))
            else:
                toks.append(raw)
    if vocab is not None:
        toks = _repair_case(toks, names, vocab)
    return _truecase(toks, names, vocab, version)


# Detokenization (docs/tokenization.md, "Detokenization").
NO_SPACE_BEFORE = {".", ",", ")", "]", "}", "...", "\u2026", "%"}
NO_SPACE_BEFORE_EN = {"!", "?", ":", ";"}
NO_SPACE_AFTER = {"(", "[", "{", "\u00bf", "\u00a1", "-"}


def _alnum_edge(cp, version):  # a Latin (or other non-ideograph) word character
    return is_word_cp(cp, version) and not is_ideograph(cp, version)


def detokenize(tokens, lang, version=SPEC_VERSION):
    """Version 3, Chinese ("zh"): no spaces, except between two tokens whose facing characters
    are both word characters other than ideographs (Latin words, digit runs: "iPhone 6")."""
    out = ""
    prev = None
    quote_open = False
    cap_next = True
    ends = _sentence_end(version)
    zh = lang == "zh" and version >= 3
    for t in tokens:
        glue = prev is None
        if not glue and zh:
            glue = not (prev and t and _alnum_edge(ord(prev[-1]), version)
                        and _alnum_edge(ord(t[0]), version))
        elif not glue:
            if t in NO_SPACE_BEFORE or (lang != "fr" and t in NO_SPACE_BEFORE_EN):
                glue = True
            elif lang == "en" and _lower(t) in EN_SUFFIXES:
                glue = True
            elif prev in NO_SPACE_AFTER or (prev.endswith("'") and _has_word_cp(prev, version)):
                glue = True
            elif prev == '"' and quote_open:
                glue = True
            elif t == '"' and quote_open:
                glue = True
        if t == '"':
            quote_open = not quote_open
        if cap_next and _has_word_cp(t, version):
            t = chr(_lower_to_upper(ord(t[0]))) + t[1:]
            cap_next = False
        elif t in ends:
            cap_next = True
        out += t if glue else " " + t
        prev = t
    return out
