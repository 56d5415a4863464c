"""Minimal safetensors reader/writer (8-byte little-endian header length, JSON header, raw data).

Written by hand rather than with the `safetensors` package, which Debian does not ship.
"""
import json
import struct

import numpy as np

DTYPES = {"F32": np.float32, "I8": np.int8, "U8": np.uint8, "F16": np.float16}
NAMES = {np.dtype(np.float32): "F32", np.dtype(np.int8): "I8", np.dtype(np.uint8): "U8",
         np.dtype(np.float16): "F16"}


def save(path, tensors, metadata):
    """tensors: dict name -> numpy array (float32, float16, int8 or uint8). F32 tensors come
    first, then F16, so that each starts at a multiple of its size from the start of the file."""
    rank = {"F32": 0, "F16": 1}
    order = sorted(tensors, key=lambda n: (rank.get(NAMES[tensors[n].dtype], 2), n))
    header = {"__metadata__": {k: str(v) for k, v in metadata.items()}}
    offset = 0
    for name in order:
        arr = tensors[name]
        header[name] = {"dtype": NAMES[arr.dtype], "shape": list(arr.shape),
                        "data_offsets": [offset, offset + arr.nbytes]}
        offset += arr.nbytes
    raw = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    raw += b" " * (-len(raw) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(raw)))
        f.write(raw)
        for name in order:
            f.write(np.ascontiguousarray(tensors[name]).astype(
                tensors[name].dtype.newbyteorder("<"), copy=False).tobytes())


def load(path):
    with open(path, "rb") as f:
        buf = f.read()
    (n,) = struct.unpack("<Q", buf[:8])
    header = json.loads(buf[8:8 + n].decode("utf-8"))
    meta = header.pop("__metadata__", {})
    base = 8 + n
    tensors = {}
    for name, info in header.items():
        b, e = info["data_offsets"]
        tensors[name] = np.frombuffer(buf[base + b:base + e], dtype=DTYPES[info["dtype"]]) \
            .reshape(info["shape"]).copy()
    return tensors, meta
