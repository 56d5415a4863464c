"""Golden fixtures against what the reference writes now, within float rounding.

The fixtures are PyTorch's numbers on the machine that wrote them; another CPU's kernels (AVX2
against AVX-512, another BLAS path) round some sums differently, by a few units in the last
place of float32 (seen: 4e-7 on gradients of order 1e-3 to 1, written on an AMD EPYC and
recomputed on an Intel Xeon). Exact equality made these tests a test of the CPU. Everything
but floats must match exactly; a float may differ by ABS + REL * |value|, far below what any
change to the model, the data or the fixture's cases would move.
"""
import math

ABS = 2e-6
REL = 1e-5


def differences(a, b, path="", out=None, limit=5, abs_tol=ABS, rel_tol=REL):
    """The first `limit` places where a and b differ beyond rounding, as 'path: a != b'."""
    out = [] if out is None else out
    kw = dict(limit=limit, abs_tol=abs_tol, rel_tol=rel_tol)
    if len(out) >= limit:
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        if sorted(a) != sorted(b):
            out.append(f"{path}: keys {sorted(a)} != {sorted(b)}")
            return out
        for k in a:
            differences(a[k], b[k], f"{path}.{k}", out, **kw)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} items != {len(b)}")
            return out
        for i, (x, y) in enumerate(zip(a, b)):
            differences(x, y, f"{path}[{i}]", out, **kw)
    elif isinstance(a, float) or isinstance(b, float):
        if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, (int, float)) \
                or not isinstance(b, (int, float)):
            out.append(f"{path}: {a!r} != {b!r}")
        elif not (a == b or (math.isfinite(a) and math.isfinite(b)
                             and abs(a - b) <= abs_tol + rel_tol * max(abs(a), abs(b)))):
            out.append(f"{path}: {a!r} != {b!r}")
    elif a != b:
        out.append(f"{path}: {a!r} != {b!r}")
    return out
