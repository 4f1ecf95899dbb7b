"""GPU benchmarks of indexing (boolean selection, integer gather) and of NumPy breadth
(histogram2d, select) against CuPy and PyTorch. Imported by bench/gpu.py, which times and reports
them."""

import numpy as np
from gpu_timing import cupy, timer_ap, timer_cupy, timer_torch, torch

import accelpy as ap

# ---- indexing: boolean selection and integer gather ------------------------------------------

def case_mask_select(n):
    """x[x > 0] on n float32 (about half selected): bytes = read x, write the selection."""
    x = np.random.default_rng(2).standard_normal(n, dtype=np.float32)
    a = ap.asarray(x, device="cuda")
    expected = int((x > 0).sum())
    assert ap.asnumpy(a[a > 0]).shape == (expected,)
    out = {"accelpy": timer_ap(lambda: ap.eval(a[a > 0]))}
    if torch is not None:
        t = torch.from_numpy(x).cuda()
        out["torch"] = timer_torch(lambda: t[t > 0])
        del t
    if cupy is not None:
        c = cupy.asarray(x)
        out["cupy"] = timer_cupy(lambda: c[c > 0])
        del c
    return out, 4 * n + 4 * expected


def case_gather(n, m):
    """x[idx]: m random int64 indices into n float32: bytes = indices, result, source reads."""
    rng = np.random.default_rng(3)
    x = rng.standard_normal(n, dtype=np.float32)
    i = rng.integers(0, n, size=m, dtype=np.int64)
    a, ia = ap.asarray(x, device="cuda"), ap.asarray(i, device="cuda")
    np.testing.assert_array_equal(ap.asnumpy(a[ia][:1000]), x[i[:1000]])
    out = {"accelpy": timer_ap(lambda: ap.eval(a[ia]))}
    if torch is not None:
        t, ti = torch.from_numpy(x).cuda(), torch.from_numpy(i).cuda()
        out["torch"] = timer_torch(lambda: t[ti])
        del t, ti
    if cupy is not None:
        c, ci = cupy.asarray(x), cupy.asarray(i)
        out["cupy"] = timer_cupy(lambda: c[ci])
        del c, ci
    return out, 8 * m + 4 * m + 4 * m


def indexing_cases(quick):
    n = 1 << (22 if quick else 28)
    m = 1 << (20 if quick else 26)
    return [("mask_select_2^28_f32", lambda: case_mask_select(n)),
            ("gather_2^26_of_2^28_f32", lambda: case_gather(n, m))]


def print_indexing(cases):
    print(f"\n{'indexing (ms)':28} {'accelpy':>8} {'cupy':>8} {'torch':>8} {'vs best':>8} target")
    for name, _ in indexing_cases(True):
        if name not in cases:
            continue
        m = cases[name]["ms"]
        peers = [v for k, v in m.items() if k != "accelpy" and v is not None]
        ratio = (min(peers) / m["accelpy"]) if peers else None
        fmt = lambda v: "-" if v is None else f"{v:.3f}"  # noqa: E731
        print(f"{name:28} {fmt(m['accelpy']):>8} {fmt(m.get('cupy')):>8} "
              f"{fmt(m.get('torch')):>8} {fmt(ratio):>8} >=0.97x")


# ---- NumPy breadth A: histogram2d (4096 bins) and a three-case select ---------------------

def case_breadth(name, n):
    """accelpy against CuPy (and PyTorch where it has the op on CUDA) on n random float32."""
    rng = np.random.default_rng(4)
    x, y = (rng.standard_normal(n, dtype=np.float32) for _ in range(2))
    ops = {"histogram2d": (lambda m, a, b: m.histogram2d(a, b, bins=64)[0], None),
           "select": (lambda m, a, b: m.select([a > 1, a < -1, b > 0], [a, b, a * b]),
                      lambda a, b: torch.where(a > 1, a, torch.where(
                          a < -1, b, torch.where(b > 0, a * b, 0.0))))}
    run, run_torch = ops[name]
    a, b = ap.asarray(x, device="cuda"), ap.asarray(y, device="cuda")
    out = {"accelpy": timer_ap(lambda: ap.eval(run(ap, a, b)))}
    if torch is not None and run_torch is not None:
        ta, tb = torch.from_numpy(x).cuda(), torch.from_numpy(y).cuda()
        out["torch"] = timer_torch(lambda: run_torch(ta, tb))
        del ta, tb
    if cupy is not None:
        ca, cb = cupy.asarray(x), cupy.asarray(y)
        out["cupy"] = timer_cupy(lambda: run(cupy, ca, cb))
        del ca, cb
    return out
