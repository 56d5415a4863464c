"""4-bit weights in groups of 16 (the model file's dtype "q4", docs/model-format.md).

Each row of a matrix is cut into groups of 16 columns. A group holds 16 codes q in -8..7 and one
f16 scale s, and stands for the weights q * s (computed in f32). The file stores a group as 8
bytes, byte i (0..7) holding q_i + 8 in its low nibble and q_{i+8} + 8 in its high nibble, the
order the engine's SIMD kernel splits with one mask and one shift
(src/kernels/gemv-qs4-scalar.cpp), then the scales as an F16 tensor "<name>.scale" [rows,
cols/16].
"""
import numpy as np

GROUP = 16
# The scale of a group is amax/7 times one of these factors, the one of least squared error.
FACTORS = np.linspace(0.6, 1.0, 17)


def quantize(w, group=GROUP):
    """w [r, c] (c a multiple of 16) -> (codes int8 [r, c] in -8..7, scales f16 [r, c/16]).
    Files use groups of 16; scripts/size-tradeoff also tries others."""
    r, c = w.shape
    if c % group:
        raise ValueError(f"q4 needs a width that is a multiple of {group}, not {c}")
    g = np.asarray(w, dtype=np.float32).reshape(r, c // group, group)
    amax = np.abs(g).max(axis=2, keepdims=True)
    best = None
    for frac in FACTORS:
        s16 = np.where(amax > 0, amax * frac / 7.0, 1.0).astype(np.float16)
        s16 = np.where(s16 > 0, s16, np.float16(2.0 ** -24))  # an f16 underflow: the smallest > 0
        s = s16.astype(np.float32)
        q = np.clip(np.rint(g / s), -8, 7)
        err = ((q * s - g) ** 2).sum(axis=2, keepdims=True)
        if best is None:
            best = [err, q, s16]
        else:
            better = err < best[0]
            best = [np.where(better, a, b) for a, b in zip((err, q, s16), best)]
    _, q, s16 = best
    if not np.isfinite(s16).all():
        raise ValueError("q4: a weight too large for an f16 scale (|w| > 7 * 65504)")
    return q.astype(np.int8).reshape(r, c), s16.reshape(r, c // group).astype(np.float16)


def pack(codes):
    """codes int8 [r, c] -> uint8 [r, c/2] in the file's order."""
    r, c = codes.shape
    u = (codes.astype(np.int16) + 8).astype(np.uint8).reshape(r, c // GROUP, 2, GROUP // 2)
    return (u[:, :, 0, :] | (u[:, :, 1, :] << 4)).reshape(r, c // 2)


def unpack(packed):
    """uint8 [r, c/2] -> codes int8 [r, c]."""
    r, half = packed.shape
    p = packed.reshape(r, half // (GROUP // 2), GROUP // 2)
    lo = (p & 0xF).astype(np.int8) - 8
    hi = (p >> 4).astype(np.int8) - 8
    return np.concatenate([lo, hi], axis=2).reshape(r, 2 * half)


def dequantize(packed, scales):
    """The f32 weights a q4 tensor stands for, as the engine computes them: code * f32(scale)."""
    codes = unpack(packed).astype(np.float32)
    r, c = codes.shape
    s = scales.astype(np.float32).reshape(r, c // GROUP, 1)
    return (codes.reshape(r, c // GROUP, GROUP) * s).reshape(r, c)
