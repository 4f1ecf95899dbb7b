"""GPU benchmarks of accelpy.fft and accelpy.linalg against CuPy and PyTorch (issue 8 targets:
each >= 0.97x the faster peer). Imported by bench/gpu.py, which times and reports them with its
other cases; `python bench/gpu_spectral.py [--quick]` runs them alone."""

import sys

import numpy as np

import accelpy as ap

TARGETS = {
    "fft_c64_2^24": ">=0.97x best",
    "rfft_f32_2^26": ">=0.97x best",
    "fft2_c64_64x1024^2": ">=0.97x best",
}


def _rand(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape, dtype=np.float32)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape, dtype=np.float32)
    return x.astype(dtype)


def _time_on(timer, data, fn):
    # The device copy lives only while it is timed (the large cases fill memory otherwise).
    return timer(lambda: fn(data))


def _fft_case(timers, x, ap_fn, torch_fn, cupy_fn):
    timer_ap, timer_torch, timer_cupy, torch, cupy = timers
    out = {"accelpy": _time_on(timer_ap, ap.asarray(x, device="cuda"),
                               lambda a: ap.eval(ap_fn(a)))}
    if torch is not None:
        out["torch"] = _time_on(timer_torch, torch.from_numpy(x).cuda(),
                                lambda t: torch_fn(torch, t))
        torch.cuda.empty_cache()
    if cupy is not None:
        out["cupy"] = _time_on(timer_cupy, cupy.asarray(x), lambda c: cupy_fn(cupy, c))
        cupy.get_default_memory_pool().free_all_blocks()
    return out


def cases(timers, quick=False):
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
    out["fft_c64_2^24"] = {"ms": _fft_case(timers, x1, ap.fft.fft, lambda t, v: t.fft.fft(v),
                                           lambda c, v: c.fft.fft(v))}
    out["rfft_f32_2^26"] = {"ms": _fft_case(timers, xr, ap.fft.rfft, lambda t, v: t.fft.rfft(v),
                                            lambda c, v: c.fft.rfft(v))}
    out["fft2_c64_64x1024^2"] = {"ms": _fft_case(timers, x2, ap.fft.fft2,
                                                 lambda t, v: t.fft.fft2(v),
                                                 lambda c, v: c.fft.fft2(v))}
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
    sys.path.insert(0, __file__.rsplit("/", 1)[0])
    import gpu

    res = cases((gpu.timer_ap, gpu.timer_torch, gpu.timer_cupy, gpu.torch, gpu.cupy),
                quick="--quick" in sys.argv)
    print("\n".join(report(res)))
