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
    return [
        ("fft c64 2^22", 0, lambda: ap.eval(ap.fft.fft(a1)), lambda: np.fft.fft(x1), None),
        ("rfft f32 2^24", 0, lambda: ap.eval(ap.fft.rfft(ar)), lambda: np.fft.rfft(xr), None),
        ("fft2 c64 8x512x512", 0, lambda: ap.eval(ap.fft.fft2(a2)), lambda: np.fft.fft2(x2),
         None),
    ]
