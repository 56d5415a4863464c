#!/usr/bin/env python3
"""Writes the fuzz harnesses' seed corpora (tests/fuzz/corpus/<harness>/seed-*) and the model
dictionary's tensor names from the test fixtures; rerun it when the fixtures or the model
format change (regression inputs, crash-*, in the same folders are kept).

  python3 tests/fuzz/make_seeds.py
"""
import glob
import hashlib
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
TOKENIZERS = ["en", "en+vocab", "fr", "fr+vocab", "xx"]  # tokenizer_fuzz.cpp's order


def write(harness, name, data):
    folder = os.path.join(HERE, "corpus", harness)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"seed-{name}"), "wb") as f:
        f.write(data)


def clear_seeds():
    for path in glob.glob(os.path.join(HERE, "corpus", "*", "seed-*")):
        os.remove(path)


def short_hash(data):
    return hashlib.sha1(data).hexdigest()[:10]


def models():
    for path in sorted(glob.glob(os.path.join(FIXTURES, "tiny*.safetensors"))):
        with open(path, "rb") as f:
            yield os.path.basename(path)[: -len(".safetensors")], f.read()


def loader_and_header():
    names = set()
    for name, data in models():
        (n,) = struct.unpack("<Q", data[:8])
        header = data[8 : 8 + n]
        names.update(k for k in json.loads(header) if k != "__metadata__")
        write("loader", name, data)
        write("header", name, header)  # the harness puts the length in front
        if name == "tiny-additive-int8":
            # Truncations: inside the length, right after it, inside the header, at its end,
            # inside the data, one byte short.
            for cut in [0, 7, 8, 64, 8 + n - 1, 8 + n, 8 + n + 64, len(data) - 1]:
                write("loader", f"{name}-cut{cut}", data[:cut])
            write("header", f"{name}-raw", b"\xff" + data[: 8 + n])  # 0xff: length bytes as given
            write("header", f"{name}-raw-long", b"\xff" + struct.pack("<Q", 1 << 40) + header)
    for text in [b"{}", b'{"__metadata__":{}}', b"[]", b'{"a":1,"a":2}', b"[" * 20 + b"]" * 20]:
        write("header", f"json-{short_hash(text)}", text)
    return sorted(names)


def tokenizer():
    with open(os.path.join(FIXTURES, "tokenizer.json"), encoding="utf-8") as f:
        fixture = json.load(f)
    seen = set()
    for i, case in enumerate(fixture["cases"]):
        # Each case once, with or without the vocabulary by turns.
        k = TOKENIZERS.index(case["lang"] + ("+vocab" if i % 2 else ""))
        data = bytes([k]) + case["input"].encode("utf-8")
        if data not in seen:
            seen.add(data)
            write("tokenizer", short_hash(data), data)
    data = bytes([4]) + "Hello « world » don't c'est".encode("utf-8")
    write("tokenizer", short_hash(data), data)
    write("tokenizer", "invalid-utf8", bytes([0, 0x61, 0xC3, 0x28, 0xED, 0xA0, 0x80, 0xF8]))


def translate():
    with open(os.path.join(FIXTURES, "en-fr-dev100.json"), encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    short = [c for c in cases if len(c["text"].encode("utf-8")) <= 64][:12]
    for i, case in enumerate(short):
        text = case["text"].encode("utf-8")
        # translate_fuzz.cpp's first byte: bits 0-1 max_len - 1, 2 beam - 2, 3-5 top_k - 1,
        # 6-7 greedy / beam / steps / align.
        mode = [0x03, 0x47, 0x93, 0xC0][i % 4]
        if mode == 0xC0:
            text += b"\t" + case["greedy"]["text"].encode("utf-8")
        write("translate", f"dev{i}", bytes([mode]) + text)
    write("translate", "empty", bytes([0x03]))
    write("translate", "unknown-words", bytes([0x93]) + "Zorglub NASA 3,5 l'heure ... !".encode())


def model_dict(tensor_names):
    path = os.path.join(HERE, "model.dict")
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n# tensor names")[0].rstrip("\n")
    lines += "\n# tensor names (make_seeds.py writes these from the fixtures)\n"
    lines += "".join(f'"\\"{n}\\""\n' for n in tensor_names)
    with open(path, "w", encoding="utf-8") as f:
        f.write(lines)


if __name__ == "__main__":
    clear_seeds()
    model_dict(loader_and_header())
    tokenizer()
    translate()
    for harness in sorted(os.listdir(os.path.join(HERE, "corpus"))):
        n = len(glob.glob(os.path.join(HERE, "corpus", harness, "*")))
        print(f"tests/fuzz/corpus/{harness}: {n} files")
