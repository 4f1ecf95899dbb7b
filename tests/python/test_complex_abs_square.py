"""Complex abs and square are bit-identical to NumPy's (iterated programs such as Mandelbrot
amplify a last-bit difference), special values included. Both backends compute them from the
same functors with correctly rounded sqrt, division and fma, so the GPU must agree too."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_exact, to_device

COMPLEX = [np.complex64, np.complex128]


def _random_complex(rng, shape, dt, scale=1.0):
    real = np.float32 if dt == np.complex64 else np.float64
    re = (rng.standard_normal(shape) * scale).astype(real)
    im = (rng.standard_normal(shape) * scale).astype(real)
    return (re + 1j * im.astype(dt)).astype(dt)


SPECIALS = [
    0,
    -0.0,
    1j,
    complex(np.inf, 1),
    complex(1, -np.inf),
    complex(np.inf, np.nan),
    complex(np.nan, np.inf),
    complex(np.nan, 1),
    complex(1, np.nan),
    complex(-0.0, -0.0),
    complex(1e-310, 1e-310),
    complex(1e300, 1e300),
    complex(3e38, 3e38),
    complex(1e-40, 0),
    complex(5, 0),
    complex(-3, 4),
]


def _inputs(rng, dt):
    values = [_random_complex(rng, 2000, dt, s) for s in (1.0, 1e-20, 1e20)]
    with np.errstate(all="ignore"):
        values.append(np.array(SPECIALS).astype(dt))
    return np.concatenate(values)


@pytest.mark.parametrize("dt", COMPLEX, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("fn", ["abs", "absolute", "square"])
def test_bit_identical_to_numpy(rng, device, dt, fn):
    x = _inputs(rng, dt)
    with np.errstate(all="ignore"):
        expected = getattr(np, fn)(x)
        # NumPy's strided loops may fall back to C hypot; its contiguous (SIMD) loop is the rule.
        expected_strided = getattr(np, fn)(np.ascontiguousarray(x[::-3]))
    got = getattr(ap, fn)(to_device(x))
    assert_exact(got, expected)
    assert np.array_equal(_bits(ap.asnumpy(got)), _bits(expected))
    got_strided = getattr(ap, fn)(to_device(x)[::-3])
    assert np.array_equal(_bits(ap.asnumpy(got_strided)), _bits(expected_strided))


def _bits(a):
    """The bits of every float (each part of a complex); NaNs as 0, their payloads aside."""
    real = a.real.dtype
    parts = np.ascontiguousarray(a).view(real)
    bits = parts.view({4: np.uint32, 8: np.uint64}[real.itemsize]).copy()
    bits[np.isnan(parts)] = 0
    return bits


def test_mandelbrot_iteration_matches_numpy(rng, device):
    c = _random_complex(rng, (64, 64), np.complex128, 0.8)
    z_np, z = np.zeros_like(c), ap.zeros(c.shape, dtype=ap.complex128)
    cd = to_device(c)
    for _ in range(20):
        with np.errstate(all="ignore"):
            z_np = np.square(z_np) + c
        z = ap.square(z) + cd
    with np.errstate(all="ignore"):
        assert_exact(ap.abs(z), np.abs(z_np))


@pytest.mark.parametrize("dt", COMPLEX, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("n", [1, 3, 7, 17, 1001, 4099])
def test_product_bit_identical_to_numpy(rng, device, dt, n):
    """NumPy's multiply loop (x86 with FMA) rounds re = fma(ar, br, -(ai * bi)) and
    im = fma(ar, bi, ai * br); every length (vector body and scalar tail), a scalar operand,
    x * x and a fused chain give those bits. NumPy's reversed complex64 loop rounds otherwise,
    so views here are forward ones."""
    with np.errstate(all="ignore"):
        a = np.concatenate([_random_complex(rng, n, dt), np.array(SPECIALS[: min(n, 5)], dt)])
        b = np.concatenate([_random_complex(rng, n, dt), np.array(SPECIALS[-min(n, 5) :], dt)])
        cases = [
            (ap.multiply(to_device(a), to_device(b)), a * b),
            (to_device(a) * dt(0.3 - 1.7j), a * dt(0.3 - 1.7j)),
            (to_device(a) * to_device(a), a * a),
            (to_device(a)[::2] * to_device(b)[1::2], a[::2] * b[1::2]),
            (to_device(a) * to_device(b) + to_device(a), a * b + a),
        ]
        for got, expected in cases:
            assert np.array_equal(_bits(ap.asnumpy(got)), _bits(expected))


@pytest.mark.parametrize("dt", COMPLEX, ids=lambda t: np.dtype(t).name)
def test_sqrt_of_imaginary_has_equal_parts(rng, device, dt):
    """glibc's csqrt (NumPy's) gives sqrt(b i) both parts sqrt(|b| / 2); b / (2 t) was an ulp
    off it, and sqrt(z) * sqrt(z) then had a real part of the other sign, which made a complex
    minimum pick the other operand."""
    real = np.float32 if dt == np.complex64 else np.float64
    with np.errstate(all="ignore"):
        edges = np.array([1e-30, -1e-38, 1e-310, 3e38, -1.7e308]).astype(real)
        b = np.concatenate([np.arange(-300, 301) * real(2.5), rng.standard_normal(500), edges])
        b = b.astype(real)
        z = np.empty(2 * b.size, dt)
        z.real = np.repeat(np.array([0.0, -0.0], real), b.size)  # both zeros
        z.imag = np.tile(b, 2)
        expected = np.sqrt(z)
    got = ap.asnumpy(ap.sqrt(to_device(z)))
    assert np.array_equal(_bits(got), _bits(expected))
    assert np.array_equal(got.real, np.abs(got.imag))


def test_minimum_of_a_squared_root_matches_numpy(device):
    """The fuzzer's seed 364, reduced: minimum orders complex values by the real part first, so
    it picks between z and sqrt(z) ** 2 by the sign of a rounding residue."""
    z = np.array([-270j, 32.5j, -130j, 297.5j, -82.5j], np.complex128)
    r = np.sqrt(z) * np.sqrt(z)
    rd = ap.sqrt(to_device(z)) * ap.sqrt(to_device(z))
    assert np.array_equal(_bits(ap.asnumpy(rd)), _bits(r))
    expected = np.minimum(z, r[[1, 0, 3, 2, 4]])
    assert_exact(ap.minimum(to_device(z), rd[[1, 0, 3, 2, 4]]), expected)
