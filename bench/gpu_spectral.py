"""GPU benchmarks of accelpy.fft and accelpy.linalg against CuPy and PyTorch (issue 8 targets:
each >= 0.97x the faster peer). Imported by bench/gpu.py, which times and reports them with its
other cases; `python bench/gpu_spectral.py [--quick]` runs them alone."""

import sys

import numpy as np
from gpu_timing import REPS, cupy, timer_ap, timer_cupy, timer_torch, torch

import accelpy as ap

TARGETS = {
    "fft_c64_2^24": ">=0.97x best",
    "rfft_f32_2^26": ">=0.97x best",
    "fft2_c64_64x1024^2": ">=0.97x best",
    "solve_f32_8192": ">=0.97x best",
    "inv_f32_4096x32x32": ">=0.97x best",
    "svd_f32_4096": ">=0.97x best",
}


def _rand(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape, dtype=np.float32)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape, dtype=np.float32)
    return x.astype(dtype)


def _time_on(timer, data, fn, reps=REPS):
    # The device copy lives only while it is timed (the large cases fill memory otherwise).
    return timer(lambda: fn(data), reps=reps)


def _one_input_case(x, ap_fn, torch_fn, cupy_fn, reps=REPS):
    out = {"accelpy": _time_on(timer_ap, ap.asarray(x, device="cuda"),
                               lambda a: ap.eval(ap_fn(a)), reps)}
    if torch is not None:
        out["torch"] = _time_on(timer_torch, torch.from_numpy(x).cuda(),
                                lambda t: torch_fn(torch, t), reps)
        torch.cuda.empty_cache()
    if cupy is not None:
        out["cupy"] = _time_on(timer_cupy, cupy.asarray(x), lambda c: cupy_fn(cupy, c), reps)
        cupy.get_default_memory_pool().free_all_blocks()
    return out


def cases(quick=False):
    """{name: {"ms": {library: ms}}} for the FFT targets."""
    shift = 4 if quick else 0
    x1 = _rand(1 << (24 - shift), np.complex64, 0)
    xr = _rand(1 << (26 - shift), np.float32, 1)
    x2 = _rand((64 >> shift, 1024, 1024), np.complex64, 2)
    # Correctness of what is timed, before timing it.
    small = x1[:4096]
    got = ap.asnumpy(ap.fft.fft(ap.asarray(small, device="cuda")))
    np.testing.assert_allclose(got, np.fft.fft(small), rtol=0, atol=1e-3 * np.abs(small).sum())
    out = {}
    out["fft_c64_2^24"] = {"ms": _one_input_case(x1, ap.fft.fft, lambda t, v: t.fft.fft(v),
                                                 lambda c, v: c.fft.fft(v))}
    out["rfft_f32_2^26"] = {"ms": _one_input_case(xr, ap.fft.rfft, lambda t, v: t.fft.rfft(v),
                                                  lambda c, v: c.fft.rfft(v))}
    out["fft2_c64_64x1024^2"] = {"ms": _one_input_case(x2, ap.fft.fft2,
                                                       lambda t, v: t.fft.fft2(v),
                                                       lambda c, v: c.fft.fft2(v))}
    out.update(linalg_cases(quick))
    return out


def _well_conditioned(shape, seed):
    rng = np.random.default_rng(seed)
    n = shape[-1]
    return (np.eye(n) + rng.uniform(-1, 1, shape) / (2 * n)).astype(np.float32)


def linalg_cases(quick=False):
    """The linalg targets: solve of an 8192 x 8192 float32 system, inverses of 4096 matrices of
    32 x 32, svd of a 4096 x 4096 float32 matrix (all values and vectors)."""
    n_solve, n_svd, batch = (2048, 1024, 512) if quick else (8192, 4096, 4096)
    a = _well_conditioned((n_solve, n_solve), 3)
    b = np.random.default_rng(4).standard_normal((n_solve, 1), dtype=np.float32)
    small = _well_conditioned((batch, 32, 32), 5)
    m = np.random.default_rng(6).standard_normal((n_svd, n_svd), dtype=np.float32)
    # Correctness of what is timed, before timing it.
    x = ap.asnumpy(ap.linalg.solve(ap.asarray(a[:256, :256], device="cuda"),
                                   ap.asarray(b[:256], device="cuda")))
    np.testing.assert_allclose(a[:256, :256] @ x, b[:256], rtol=0, atol=1e-3)
    inv = ap.asnumpy(ap.linalg.inv(ap.asarray(small[:8], device="cuda")))
    np.testing.assert_allclose(inv @ small[:8], np.broadcast_to(np.eye(32), (8, 32, 32)),
                               rtol=0, atol=1e-4)
    out = {}
    out["solve_f32_8192"] = {"ms": _pair_case(a, b, ap.linalg.solve,
                                              lambda t, p, q: t.linalg.solve(p, q),
                                              lambda c, p, q: c.linalg.solve(p, q))}
    out["inv_f32_4096x32x32"] = {"ms": _one_input_case(small, ap.linalg.inv,
                                                       lambda t, v: t.linalg.inv(v),
                                                       lambda c, v: c.linalg.inv(v))}
    # About a second a call: 5 timed runs, not 20, keep the three libraries' svd to ~25 s of
    # the bench (it was 75 of the 88 s of the FFT and linalg cases on 2026-12-05).
    out["svd_f32_4096"] = {"ms": _one_input_case(m, lambda v: ap.linalg.svd(v)[1],
                                                 lambda t, v: t.linalg.svd(v),
                                                 lambda c, v: c.linalg.svd(v), reps=5)}
    return out


def _pair_case(x, y, ap_fn, torch_fn, cupy_fn):
    def on(timer, px, py, fn):
        return timer(lambda: fn(px, py))

    out = {"accelpy": on(timer_ap, ap.asarray(x, device="cuda"), ap.asarray(y, device="cuda"),
                         lambda p, q: ap.eval(ap_fn(p, q)))}
    if torch is not None:
        out["torch"] = on(timer_torch, torch.from_numpy(x).cuda(), torch.from_numpy(y).cuda(),
                          lambda p, q: torch_fn(torch, p, q))
        torch.cuda.empty_cache()
    if cupy is not None:
        out["cupy"] = on(timer_cupy, cupy.asarray(x), cupy.asarray(y),
                         lambda p, q: cupy_fn(cupy, p, q))
        cupy.get_default_memory_pool().free_all_blocks()
    return out


def report(results):
    """Lines of the result table (ms, and accelpy's ratio to the faster peer)."""
    lines = [f"\n{'fft / linalg (ms)':26} {'accelpy':>9} {'cupy':>9} {'torch':>9} "
             f"{'vs best':>8} target"]
    for name, target in TARGETS.items():
        if name not in results:
            continue
        m = results[name]["ms"]
        peers = [v for k, v in m.items() if k != "accelpy" and v is not None]
        ratio = min(peers) / m["accelpy"] if peers else None

        def fmt(v):
            return "-" if v is None else f"{v:.3f}"

        lines.append(f"{name:26} {fmt(m['accelpy']):>9} {fmt(m.get('cupy')):>9} "
                     f"{fmt(m.get('torch')):>9} {'-' if ratio is None else f'{ratio:.2f}x':>8} "
                     f"{target}")
    return lines


if __name__ == "__main__":
    print("\n".join(report(cases(quick="--quick" in sys.argv))))
