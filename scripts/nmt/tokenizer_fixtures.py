"""Writes tests/fixtures/tokenizer.json (spec version 2: English, French) and
tests/fixtures/tokenizer-zh.json (spec version 3: Chinese, and English beside it): input ->
tokens -> detokenized, from the reference. Every case names the version it was made with."""
import json
import os
import random
import sys

from . import data
from . import tokenizer as tk

NAMES = {"en": ["I", "Tom", "Mary", "Paris", "NASA", "English", "French", "Monday", "Émile"],
         "fr": ["Tom", "Marie", "Paris", "NASA", "Émile", "Noël", "Œdipe", "Japon"]}

# Case repair (spec step 6) runs with a vocabulary: a few words, some of which are also names
# in lower case ("us", "french"; "paris" in French), so both sides of its rule are exercised.
VOCAB = {"en": ["love", "you", "us", "french", "went", "to", "and", "am", "lower", "the", "is",
                "ok", "i'm"],
         "fr": ["je", "suis", "à", "paris", "l'", "été", "est", "là", "tom"]}

CASE_REPAIR = [
    ("en", "i love you"), ("en", "I LOVE YOU."), ("en", "tom and mary went to paris."),
    ("en", "TOM AND MARY WENT TO PARIS!"), ("en", "we love us and french fries"),
    ("en", "WE LOVE US AND FRENCH FRIES"), ("en", "I"), ("en", "NASA"), ("en", "OK"),
    ("en", "I love NASA."), ("en", "i'm émile"), ("en", "I'M ÉMILE."), ("en", "nasa. i am. ok"),
    ("en", "123 456"), ("en", "你好"), ("fr", "je suis à paris."),
    ("fr", "JE SUIS À PARIS."), ("fr", "L'ÉTÉ EST LÀ"), ("fr", "l'été est là, émile"),
    ("fr", "œdipe et noël"), ("fr", "ŒDIPE ET NOËL"), ("fr", "tom"), ("fr", "TOM EST LÀ"),
    # Step 7 with a vocabulary: a first word is lower-cased only into a word of the vocabulary.
    ("en", "Marie and John went to Paris."), ("en", "The cat is ok. Zorblax is ok."),
    ("en", "Love you. Marie!"), ("fr", "Suis là. Zoé est là."), ("fr", "Est-ce là ?"),
]

HANDMADE = [
    ("en", ""), ("en", " "), ("en", "   \t\n  "), ("fr", "\u00a0\u202f"),
    ("en", "I am cold."), ("fr", "Je suis froid."), ("fr", "C'est l'heure !"),
    ("fr", "C\u2019est l\u2019heure\u202f!"), ("fr", "Qu\u2019est-ce que c\u2019est\u00a0?"),
    ("fr", "Jusqu'à quand ?"), ("fr", "Lorsqu'il pleut, j'ai froid."),
    ("fr", "Puisqu'on est là, qu'il vienne."), ("fr", "Aujourd'hui, je n'ai rien fait."),
    ("fr", "L'homme l'a vu."), ("fr", "D'accord, s'il te plaît."), ("fr", "M'as-tu vu ?"),
    ("fr", "T'es où ?"), ("fr", "« Bonjour », dit-il."), ("fr", "Il a 3,5 kg de pommes."),
    ("fr", "Rendez-vous à 12:30."), ("fr", "Peut-être demain..."), ("fr", "Est-ce vrai ?!"),
    ("fr", "Œdipe est là."), ("fr", "Émile est à Paris."), ("fr", "ÉTÉ"), ("fr", "À bientôt."),
    ("fr", "Ça va ?"), ("fr", "Noël arrive."), ("fr", "Il coûte 10 €."),
    ("fr", "Il est 100 % sûr."), ("fr", "e\u0301te\u0301"), ("fr", "Ce\u0327a"),
    ("en", "Don't do that."), ("en", "I'm happy."), ("en", "It's Tom's car."),
    ("en", "We're here, you've won, they'll go, he'd know."), ("en", "I can't swim."),
    ("en", "I won't go."), ("en", "It's 5 o'clock."), ("en", "DON'T SHOUT!"),
    ("en", "The black cat is sleeping."), ("en", "Tom and Mary went to Paris."),
    ("en", "NASA launched it."), ("en", "Is it 3.14 or 1,000?"), ("en", "Wait... what?"),
    ("en", "Hi! How are you? Fine."), ("en", "(Really?)"), ("en", "He said \"yes\"."),
    ("en", "He said \u201cyes\u201d."), ("en", "rock \u2013 paper \u2014 scissors"),
    ("en", "state-of-the-art"), ("en", "-5 degrees"), ("en", "'quoted'"), ("en", "'s"),
    ("en", "n't"), ("en", "''"), ("en", "..."), ("en", "...."), ("en", "?!?!"),
    ("en", "I love you \U0001F600"), ("en", "\U0001F468\u200d\U0001F469\u200d\U0001F467"),
    ("en", "\u2764\ufe0f"), ("en", "Tokyo \u6771\u4eac is big."), ("en", "\u4f60\u597d\u4e16\u754c"),
    ("en", "\u041f\u0440\u0438\u0432\u0435\u0442 world"), ("en", "\u05e9\u05dc\u05d5\u05dd"),
    ("en", "\u0645\u0631\u062d\u0628\u0627"), ("en", "\uc548\ub155\ud558\uc138\uc694"),
    ("en", "caf\u00e9 na\u00efve r\u00e9sum\u00e9"), ("en", "a" * 300),
    ("en", "Supercalifragilisticexpialidocious" * 5), ("en", "x\u0000y"),
    ("en", "bell\u0007 and \u001b[31mred"), ("en", "zero\u200bwidth"), ("en", "\ufeffBOM"),
    ("en", "bidi \u202eevil\u202c text"), ("en", "tab\tseparated\nlines\r\n"),
    ("en", "I I I"), ("en", "i am lower"), ("en", "hello.world"), ("en", "a.b.c"),
    ("en", "1.2.3"), ("en", "3."), ("en", ".5"), ("en", "#hashtag @user"),
    ("en", "http://example.com/a?b=c"), ("en", "50%"), ("en", "$100"), ("en", "\u00bfQu\u00e9?"),
    ("fr", "\u00a1Hola!"), ("en", "\u00c9cole"), ("fr", "\u00c9cole"), ("en", "\u00c0 la carte"),
    ("en", "e\u0301"), ("en", "\u0301e"), ("en", "A\u030a"), ("en", "n\u0303"),
    ("en", "q\u0301"), ("en", "ALL CAPS SENTENCE."), ("en", "McDonald is here."),
    ("en", "iPhone"), ("fr", "l'"), ("fr", "l''a"), ("fr", "qu'qu'il"), ("fr", "c'-est"),
    ("fr", "L'\u00c9t\u00e9"), ("fr", "L'ÉTÉ"), ("en", "-"), ("en", "--"), ("en", "a-"),
    ("en", "-a"), ("en", "a--b"), ("en", "a'b'c"), ("en", "1,,2"), ("en", "12:30:45"),
    ("en", "\ufffd"), ("en", "\U0010fffd"), ("en", "\u00d7\u00f7"), ("en", "Tom. Mary! i? ok"),
]


# Spec version 3: Chinese. Names and vocabulary for case repair, as above.
NAMES_ZH = {"en": NAMES["en"], "zh": ["Tom", "Mary", "Twitter", "DJ", "NASA", "CD"]}
VOCAB_ZH = {"en": VOCAB["en"] + ["cat", "\u732b"],
            "zh": ["\u6211", "\u7528", "\u559c", "\u6b22", "\u662f", "ok", "dj", "tom"]}

HANDMADE_ZH = [
    ("zh", ""), ("zh", " "), ("zh", "\u3000"), ("zh", "\u3000\u3000\u4f60\u597d\u3000"),
    ("zh", "我有3只猫"), ("zh", "我有3只猫。"), ("zh", "我用iPhone"), ("zh", "我用iPhone。"),
    ("zh", "我用iphone"), ("zh", "我用IPHONE！"), ("zh", "iPhone很好。"), ("zh", "Apple很好。"),
    ("zh", "Tom游泳。"), ("zh", "我叫Tom。"), ("zh", "她是Tom的姐妹。"), ("zh", "tom是我哥哥。"),
    ("zh", "TOM是我哥哥。"), ("zh", "他是一个 DJ 。"), ("zh", "我借给他一盘CD。"),
    ("zh", "我用Twitter。"), ("zh", "Tom是加拿大人吗?"), ("zh", "你好吗？"), ("zh", "快跑！"),
    ("zh", "我很好，你呢？"), ("zh", "苹果、香蕉和橙子。"), ("zh", "他说：「你好。」"),
    ("zh", "『书』"), ("zh", "（笑）"), ("zh", "《红楼梦》"), ("zh", "等一下……"),
    ("zh", "等一下..."), ("zh", "\u201c你好，\u201d他说。"), ("zh", "\"你好\"他说。"),
    ("zh", "现在是12:30。"), ("zh", "它重3.5公斤。"), ("zh", "1,000元"), ("zh", "100%"),
    ("zh", "１００％"), ("zh", "我有３只猫"), ("zh", "ｉＰｈｏｎｅ很好"), ("zh", "ＡＢ１２"),
    ("zh", "ＮＡＳＡ发射了火箭。"), ("zh", "ｅ\u0301"), ("zh", "全角！？，．"),
    ("zh", "我 爱 你"), ("zh", "我\t爱\n你"), ("zh", "我\u00a0爱你"), ("zh", "我\u200b爱你"),
    ("zh", "我爱你\U0001F600"), ("zh", "\U0001F468\u200d\U0001F469\u200d\U0001F467"),
    ("zh", "\u2764\ufe0f好"), ("zh", "二〇一九年"), ("zh", "人々"), ("zh", "\u3400\u4dbf"),
    ("zh", "\U00020000\U0002a6d6"), ("zh", "\U00030000字"), ("zh", "\uf900\ufaff"),
    ("zh", "猫\u0301"), ("zh", "A-我"), ("zh", "我-A"), ("zh", "我'A"), ("zh", "3.我"),
    ("zh", "我.3"), ("zh", "Tom's猫"), ("zh", "我和Tom and Mary"), ("zh", "Mary和Tom"),
    ("zh", "iPhone 6"), ("zh", "iPhone6很好"), ("zh", "第1名"), ("zh", "东京Tokyo"),
    ("zh", "你好。Apple很好。"), ("zh", "你好！apple好。"), ("zh", "你好？Apple"),
    ("zh", "東京"), ("zh", "日本語のテキスト"), ("zh", "한국어와中文"), ("zh", "中文English中文"),
    ("zh", "ｶﾀｶﾅ"), ("zh", "￥100"), ("zh", "我\x00你"), ("zh", "\ufeff你好"),
    ("zh", "你" * 300), ("zh", "我们。" * 20), ("zh", "中\u0000文\u001b[31m"),
    ("en", "Tokyo 東京 is big."), ("en", "你好世界"), ("en", "I love 猫."), ("en", "I use ＡＢ１２."),
    ("en", "The cat. 猫。Cats!"), ("en", "i love 猫"), ("en", "Is it 3.14 or 1,000?"),
    ("en", "I don't know Tom."), ("en", "Full-width ！ and ？ stay."),
]


def cases_from_corpus(path, n_per_lang, seed=7, langs=("en", "fr")):
    if not os.path.exists(path):
        return []
    pairs = data.read_pairs(path)
    rng = random.Random(seed)
    picked = rng.sample([p for p in pairs if data.split_of(p[0]) == "dev"], n_per_lang)
    return [(langs[0], p[0]) for p in picked] + [(langs[1], p[1]) for p in picked]


def _write(path_out, cases, version, names, vocab):
    out = []
    for lang, text in cases:
        n = frozenset(names[lang])
        toks = tk.tokenize(text, lang, n, version=version)
        case = {"lang": lang, "input": text, "tokens": toks,
                "tokens_with_vocab": tk.tokenize(text, lang, n, set(vocab[lang]), version),
                "detokenized": tk.detokenize(toks, lang, version)}
        out.append(case if version == 2 else {"version": version, **case})
    doc = {"spec_version": version, "names": names, "vocab": vocab,
           "note": "made by scripts/nmt/tokenizer_fixtures.py; inputs are NOT NFC-normalised; "
                   "tokens_with_vocab: tokenized with the vocabulary, so with case repair",
           "cases": out}
    with open(path_out, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
    return len(out)


def make(path_out, data_path):
    """Spec version 2, as it was made before version 3: the file stays byte for byte."""
    cases = HANDMADE + CASE_REPAIR + cases_from_corpus(data_path, 60)
    return _write(path_out, cases, 2, NAMES, VOCAB)


def make_zh(path_out, data_path):
    """Spec version 3: Chinese handmade cases, and English and Chinese dev-split sentences."""
    cases = HANDMADE_ZH + cases_from_corpus(data_path, 40, langs=("en", "zh"))
    return _write(path_out, cases, 3, NAMES_ZH, VOCAB_ZH)


if __name__ == "__main__":
    fixtures = os.path.join(data.ROOT, "tests", "fixtures")
    os.makedirs(fixtures, exist_ok=True)
    zh_data = os.path.join(os.path.dirname(data.DEFAULT_DATA), "eng-cmn.tsv")
    for made, name, path in ((make, "tokenizer.json", data.DEFAULT_DATA),
                             (make_zh, "tokenizer-zh.json", zh_data)):
        out = os.path.join(fixtures, name)
        given = sys.argv[1 + (made is make_zh)] if len(sys.argv) > 1 + (made is make_zh) else path
        print(made(out, given), "cases ->", out)
