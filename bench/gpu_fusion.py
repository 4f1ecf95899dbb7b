"""GPU benchmarks of automatic fusion: expressions over several arrays against CuPy
(eager and cupy.fuse) and PyTorch (eager and torch.compile), and the first use of a fused
expression never seen before. Imported by bench/gpu.py, which times and reports them."""

import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from gpu_timing import (
    cupy,
    empty_cache_env,
    pipelined_ms,
    timer_ap,
    timer_cupy,
    timer_torch,
    torch,
    torch_event,
)

import accelpy as ap

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "tests", "python"))
import fusion_programs  # noqa: E402  (the programs the fusion tests check)


def _expr_abcde(xp, a, b, c, d, e):
    return a * b + c * d - e


def _expr_trig(xp, x, y):
    return xp.sqrt(x * x + y * y) * xp.sin(x) + xp.exp(-y)


def _expr_sumsq(xp, a, b):
    return ((a - b) ** 2).sum()


def _expr_twenty(xp, a, b, c, d, e, f):
    """20 operations over six arrays."""
    t = a * b + c * d - e * f            # 5
    u = xp.maximum(t, 0.0) * 0.5 + a     # 3
    w = xp.sqrt(xp.abs(u) + 1.0) - b     # 4
    z = w * c + d / (xp.abs(e) + 1.0)    # 5
    return xp.where(z > f, z, f) - 0.25  # 3


def _expr_kept_sumsq(xp, a, b):
    """A reduction whose intermediate stays referenced: one kernel writes t and the sum."""
    t = a - b
    return t, (t * t).sum()


def _expr_black_scholes(xp, S, X, T):
    """The CUDA sample's Black-Scholes: call and put from one pass (fusion_programs.py)."""
    return fusion_programs.black_scholes(xp, S, X, T)


# Prices, strikes and years as the sample draws them.
_expr_black_scholes.inputs = lambda rng, n: [
    rng.uniform(lo, hi, n).astype(np.float32) for lo, hi in ((5, 30), (1, 100), (0.25, 10))]


def _expr_softmax(xp, x):
    """Row softmax: the max, exp(x - max), and its sum, broadcast back over each row."""
    return fusion_programs.softmax(xp, x)


# 8192 rows of n / 8192 float32 (8192 x 8192 at 2^26).
_expr_softmax.inputs = lambda rng, n: [rng.standard_normal((8192, n // 8192), dtype=np.float32)]
_expr_softmax.torch_expr = lambda x: (lambda e: e / e.sum(-1, keepdim=True))(
    torch.exp(x - x.amax(-1, keepdim=True)))
_expr_softmax.torch_library = lambda x: torch.softmax(x, -1)


def _expr_layer_norm(xp, x, g, b):
    """Layer norm: the mean, the centred variance, then scale and shift per column."""
    return fusion_programs.layer_norm(xp, x, g, b)


# 8192 rows of n / 16384 float32 (8192 x 4096 at 2^26), a scale and a shift per column.
_expr_layer_norm.inputs = lambda rng, n: [
    rng.standard_normal((8192, n // 16384), dtype=np.float32),
    rng.uniform(0.5, 1.5, n // 16384).astype(np.float32),
    rng.standard_normal(n // 16384, dtype=np.float32)]
_expr_layer_norm.nbytes = lambda n: 4 * (2 * (n // 2) + 2 * (n // 16384))
_expr_layer_norm.torch_expr = lambda x, g, b: (lambda m: (x - m) / torch.sqrt(
    ((x - m) ** 2).mean(-1, keepdim=True) + 1e-5) * g + b)(x.mean(-1, keepdim=True))
_expr_layer_norm.torch_library = lambda x, g, b: torch.nn.functional.layer_norm(
    x, x.shape[-1:], g, b, 1e-5)


def _expr_sinc(xp, x):
    return xp.sinc(x)


def _expr_i0(xp, x):
    return xp.i0(x)


def _expr_nan_to_num(xp, x):
    return xp.nan_to_num(x)


FUSION_CASES = [
    ("fused a*b+c*d-e 5x2^26", _expr_abcde, 5, 1),
    ("fused sqrt*sin+exp 2x2^26", _expr_trig, 2, 1),
    ("fused ((a-b)**2).sum() 2x2^26", _expr_sumsq, 2, 0),
    ("fused 20 ops 6x2^26", _expr_twenty, 6, 1),
    ("fused t=a-b kept, (t*t).sum()", _expr_kept_sumsq, 2, 1),
    ("black-scholes 3x2^26 -> 2", _expr_black_scholes, 3, 2),
    # Reductions broadcast back over their rows (row groups; the bytes: x read, result written).
    ("softmax 8192x8192 f32", _expr_softmax, 1, 1),
    ("layer norm 8192x4096 f32", _expr_layer_norm, 3, 1),
    # NumPy breadth beyond the op table (issue 6, part B): one kernel each.
    ("sinc 2^26", _expr_sinc, 1, 1),
    ("i0 2^26", _expr_i0, 1, 1),
    ("nan_to_num 2^26", _expr_nan_to_num, 1, 1),
]


def _torch_ns():
    """torch under the NumPy names the expressions use."""
    import types

    def maximum(x, y):
        return torch.maximum(x, y) if torch.is_tensor(y) else torch.clamp_min(x, y)

    return types.SimpleNamespace(sqrt=torch.sqrt, sin=torch.sin, exp=torch.exp, abs=torch.abs,
                                 log=torch.log,
                                 maximum=maximum, where=torch.where, sinc=torch.sinc,
                                 i0=torch.i0, nan_to_num=torch.nan_to_num)


def case_fused(fn, nin, nout, n):
    """accelpy against CuPy (eager, cupy.fuse) and PyTorch (eager, torch.compile); the bytes
    that must move are the inputs read once and the outputs written once."""
    rng = np.random.default_rng(3)
    make = getattr(fn, "inputs", None)
    host = make(rng, n) if make else [rng.standard_normal(n, dtype=np.float32)
                                      for _ in range(nin)]
    nbytes = fn.nbytes(n) if hasattr(fn, "nbytes") else 4 * n * (nin + nout)
    xs = [ap.asarray(h, device="cuda") for h in host]
    def run_ap():
        r = fn(ap, *xs)
        ap.eval(*r) if isinstance(r, tuple) else ap.eval(r)

    host_us = []
    out = {"accelpy": timer_ap(run_ap, host_us), "accelpy_alone_host_us": host_us[0]}
    out["accelpy_pipelined"], out["accelpy_host_us"] = pipelined_ms(
        run_ap, ap.cuda.Event, ap.cuda.Event, ap.cuda.synchronize)
    if cupy is not None:
        cs = [cupy.asarray(h) for h in host]
        out["cupy"] = timer_cupy(lambda: fn(cupy, *cs))
        # A kernel name of our own: cupy.fuse names the kernel after the function, and a
        # lambda's "<lambda>" does not compile (cupy/cupy#3517; no case had a cupy.fuse figure
        # up to 2026-12-02). Its sums take ~65 ms at 2^26 (H200, 2026-12-05): cupy.fuse launches
        # a reduction fused with elementwise work on a tiny grid (cupy/cupy#9008).
        fused = cupy.fuse(kernel_name=fn.__name__.lstrip("_"))(lambda *args: fn(cupy, *args))
        try:
            out["cupy.fuse"] = timer_cupy(lambda: fused(*cs))
        except Exception as e:  # noqa: BLE001 - cupy.fuse cannot express every expression
            print(f"cupy.fuse failed on {fn.__name__}: {type(e).__name__}: {str(e)[:300]}",
                  file=sys.stderr)
            out["cupy.fuse"] = None
    if torch is not None:
        ts = [torch.from_numpy(h).cuda() for h in host]
        ns = _torch_ns()
        expr = getattr(fn, "torch_expr", None) or (lambda *args: fn(ns, *args))
        out["torch"] = timer_torch(lambda: expr(*ts))
        library = getattr(fn, "torch_library", None)
        if library is not None:  # torch's own kernel for the whole operation (torch.softmax)
            out["torch_library"] = timer_torch(lambda: library(*ts))
        compiled = torch.compile(expr)
        t0 = time.perf_counter()
        compiled(*ts)
        torch.cuda.synchronize()
        out["torch.compile_first_call_ms"] = (time.perf_counter() - t0) * 1e3
        out["torch.compile"] = timer_torch(lambda: compiled(*ts))
        out["torch.compile_pipelined"], out["torch.compile_host_us"] = pipelined_ms(
            lambda: compiled(*ts), torch_event, torch_event, torch.cuda.synchronize)
    return out, nbytes


FIRST_USE_FUSED = """
import time, accelpy as ap, numpy as np
x = ap.arange(1 << 20, dtype=np.float32, device="cuda")
y = x * 0.5
ap.eval(y)              # CUDA, NVRTC and the cache are warm
ap.cuda.synchronize()
t0 = time.perf_counter()
z = ap.tanh(x * y - 1.5) * ap.exp(-y * 0.001) + ap.sqrt(x + y) * 0.25 - ap.minimum(x, y)
ap.eval(z)              # a fused structure not used before
ap.cuda.synchronize()
t1 = time.perf_counter()
s = ap.cuda.kernel_cache_stats()
print((t1 - t0) * 1e3, s["compiled"], s["disk_hits"])
"""


def first_use_fused_ms():
    """Compile time of a never-seen fused expression, then a warm disk-cache hit in a new
    process (targets: <= 100 ms and <= 2 ms)."""
    with tempfile.TemporaryDirectory() as d:
        env = empty_cache_env(d)
        cold, warm = (subprocess.run([sys.executable, "-c", FIRST_USE_FUSED], env=env,
                                     capture_output=True, text=True, check=True).stdout.split()
                      for _ in range(2))
    return {"empty_cache_ms": float(cold[0]), "disk_hit_ms": float(warm[0]),
            "compiled_cold": int(cold[1]), "disk_hits_warm": int(warm[2])}
