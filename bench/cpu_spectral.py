"""CPU cases of accelpy.fft and accelpy.linalg beside NumPy (issue 8: >= 0.9x NumPy), at the
issue's GPU operations scaled to a 2-core machine. Imported by bench/cpu.py."""

import numpy as np

import accelpy as ap


def cases(rng):
    """(name, bytes (0: not a bandwidth case), accelpy fn, NumPy fn, numexpr expression)."""

    def cplx(shape):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)

    x1 = cplx(1 << 22)
    xr = rng.standard_normal(1 << 24, dtype=np.float32)
    x2 = cplx((8, 512, 512))
    a1, ar, a2 = ap.asarray(x1), ap.asarray(xr), ap.asarray(x2)
    # What is timed agrees with NumPy first.
    np.testing.assert_allclose(ap.asnumpy(ap.fft.fft(a1[:4096])), np.fft.fft(x1[:4096]),
                               rtol=0, atol=1e-3 * float(np.abs(x1[:4096]).sum()))
    n = 2048
    sq = (np.eye(n) + rng.uniform(-1, 1, (n, n)) / (2 * n)).astype(np.float32)
    rhs = rng.standard_normal((n, 1), dtype=np.float32)
    small = (np.eye(32) + rng.uniform(-1, 1, (1024, 32, 32)) / 64).astype(np.float32)
    sv = rng.standard_normal((1024, 1024), dtype=np.float32)
    s_sq, s_rhs, s_small, s_sv = (ap.asarray(v) for v in (sq, rhs, small, sv))
    return [
        ("solve f32 2048", 0, lambda: ap.eval(ap.linalg.solve(s_sq, s_rhs)),
         lambda: np.linalg.solve(sq, rhs), None),
        ("inv f32 1024x32x32", 0, lambda: ap.eval(ap.linalg.inv(s_small)),
         lambda: np.linalg.inv(small), None),
        ("svd f32 1024", 0, lambda: ap.eval(*ap.linalg.svd(s_sv)), lambda: np.linalg.svd(sv),
         None),
        ("fft c64 2^22", 0, lambda: ap.eval(ap.fft.fft(a1)), lambda: np.fft.fft(x1), None),
        ("rfft f32 2^24", 0, lambda: ap.eval(ap.fft.rfft(ar)), lambda: np.fft.rfft(xr), None),
        ("fft2 c64 8x512x512", 0, lambda: ap.eval(ap.fft.fft2(a2)), lambda: np.fft.fft2(x2),
         None),
    ]
