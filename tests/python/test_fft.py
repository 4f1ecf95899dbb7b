"""accelpy.fft against numpy.fft: every function over dtypes, lengths (cut, padded, odd, even),
axes, norms, layouts and devices; the errors NumPy raises; the cuFFT plan cache."""

import numpy as np
import pytest

import accelpy as ap
from helpers import random_values

NORMS = [None, "backward", "ortho", "forward"]


def _single(dt):
    return np.dtype(dt) in (np.float16, np.float32, np.complex64)


def check(actual, expected, single, *, dtype=None):
    """Values within the FFT's error bound (eps * log2(n) relative to the largest magnitude),
    and NumPy's dtype (or `dtype`)."""
    got = ap.asnumpy(actual)
    assert got.dtype == (expected.dtype if dtype is None else dtype)
    assert got.shape == expected.shape
    if expected.size == 0:
        return
    eps = 1e-6 if single else 1e-14
    if got.dtype == np.float16:
        eps = 2e-3
    n = max(expected.shape) if expected.ndim else 1
    scale = max(float(np.max(np.abs(expected))), 1e-30)
    tol = eps * scale * (4 + np.log2(n + 1)) * 4
    np.testing.assert_allclose(got.astype(expected.dtype), expected, rtol=0, atol=tol)


def values(rng, shape, dtype):
    return random_values(rng, shape, dtype, low=-1, high=1)


def reference(func, x, **kw):
    """numpy.fft's result. float16 input goes in as float32: NumPy computes the scale factor
    1/n in float16 (a 2e-4 relative error); accelpy computes it in float32, as the transform."""
    if x.dtype == np.float16:
        x = x.astype(np.float32)
    return getattr(np.fft, func)(x, **kw)


# ---- one axis -----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128, np.float32, np.float64,
                                   np.float16, np.int32, np.bool_])
@pytest.mark.parametrize("func", ["fft", "ifft"])
def test_fft_dtypes(device, rng, func, dtype):
    x = values(rng, (3, 20), dtype)
    expected = reference(func, x)
    check(getattr(ap.fft, func)(ap.asarray(x)), expected, _single(dtype))


@pytest.mark.parametrize("n", [None, 1, 7, 16, 33, 64])
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("func", ["fft", "ifft"])
def test_fft_n_axis_norm(device, rng, func, n, axis, norm):
    x = values(rng, (12, 16), np.complex128)
    expected = getattr(np.fft, func)(x, n=n, axis=axis, norm=norm)
    check(getattr(ap.fft, func)(ap.asarray(x), n=n, axis=axis, norm=norm), expected, False)


@pytest.mark.parametrize("n", [None, 1, 2, 9, 16, 31, 40])
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.float16])
def test_rfft(device, rng, dtype, n, norm):
    x = values(rng, (4, 24), dtype)
    expected = reference("rfft", x, n=n, norm=norm)
    check(ap.fft.rfft(ap.asarray(x), n=n, norm=norm), expected, _single(dtype))


@pytest.mark.parametrize("n", [None, 1, 2, 9, 16, 31, 40])
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128, np.float32, np.float16])
@pytest.mark.parametrize("func", ["irfft", "hfft"])
def test_irfft_hfft(device, rng, func, dtype, n, norm):
    # Random complex input is not Hermitian: the imaginary parts of the zero and Nyquist
    # frequencies must be ignored as NumPy ignores them.
    x = values(rng, (3, 13), dtype)
    expected = reference(func, x, n=n, norm=norm)
    dtype = np.float16 if x.dtype == np.float16 else None
    check(getattr(ap.fft, func)(ap.asarray(x), n=n, norm=norm), expected, _single(x.dtype),
          dtype=dtype)


@pytest.mark.parametrize("n", [None, 5, 16])
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_ihfft(device, rng, dtype, n, norm):
    x = values(rng, (2, 11), dtype)
    expected = np.fft.ihfft(x, n=n, norm=norm)
    check(ap.fft.ihfft(ap.asarray(x), n=n, norm=norm), expected, _single(dtype))


@pytest.mark.parametrize("layout", ["transposed", "strided", "negstride", "broadcast"])
@pytest.mark.parametrize("func", ["fft", "rfft", "irfft"])
def test_layouts(device, rng, func, layout):
    dtype = np.float64 if func == "rfft" else np.complex128
    base = values(rng, (10, 18), dtype)
    view = {
        "transposed": lambda a: a.T,
        "strided": lambda a: a[::2, 1::3],
        "negstride": lambda a: a[::-1, ::-2],
        "broadcast": lambda a: a[:1] if isinstance(a, np.ndarray) else a[:1],
    }[layout]
    x_np = view(base)
    x_ap = view(ap.asarray(base))
    if layout == "broadcast":
        x_np = np.broadcast_to(x_np, (5, 18))
        x_ap = ap.broadcast_to(x_ap, (5, 18))
    for axis in (0, -1):
        expected = getattr(np.fft, func)(x_np, axis=axis)
        check(getattr(ap.fft, func)(x_ap, axis=axis), expected, False)
    # The input is left as it was (cuFFT's complex-to-real transforms overwrite theirs).
    np.testing.assert_array_equal(ap.asnumpy(x_ap), x_np)


def test_empty_batch_and_3d(device, rng):
    x = values(rng, (0, 8), np.complex64)
    check(ap.fft.fft(ap.asarray(x)), np.fft.fft(x), True)
    check(ap.fft.rfft(ap.asarray(x.real.copy())), np.fft.rfft(x.real), True)
    y = values(rng, (3, 4, 10), np.complex128)
    for axis in (0, 1, 2):
        check(ap.fft.fft(ap.asarray(y), axis=axis), np.fft.fft(y, axis=axis), False)


def test_padding_of_empty_axis(device, rng):
    x = values(rng, (0,), np.float64)
    check(ap.fft.fft(ap.asarray(x), n=4), np.fft.fft(x, n=4), False)


# ---- several axes ---------------------------------------------------------------------------


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("func", ["fft2", "ifft2", "fftn", "ifftn"])
def test_fft_nd(device, rng, func, norm):
    x = values(rng, (3, 6, 10), np.complex64)
    for kw in ({}, {"axes": (0, 2)}, {"s": (5, 12), "axes": (1, 2)}, {"axes": (2, 0)},
               {"s": (4, 3, 9), "axes": (0, 1, 2)}):
        if func.endswith("2") and "axes" in kw and len(kw["axes"]) != 2:
            continue
        expected = getattr(np.fft, func)(x, norm=norm, **kw)
        check(getattr(ap.fft, func)(ap.asarray(x), norm=norm, **kw), expected, True)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("func", ["rfft2", "irfft2", "rfftn", "irfftn"])
def test_real_nd(device, rng, func, norm):
    dtype = np.float64 if func.startswith("r") else np.complex128
    x = values(rng, (4, 6, 9), dtype)
    for kw in ({}, {"axes": (0, 2)}, {"s": (5, 12), "axes": (1, 2)}, {"axes": (2, 1)},
               {"s": (3, 7, 8), "axes": (0, 1, 2)}):
        if func.endswith("2") and "axes" in kw and len(kw["axes"]) != 2:
            continue
        expected = getattr(np.fft, func)(x, norm=norm, **kw)
        check(getattr(ap.fft, func)(ap.asarray(x), norm=norm, **kw), expected, False)


def test_more_axes_than_cufft_rank(device, rng):
    # cuFFT plans at most 3 axes: four are split into two transforms.
    x = values(rng, (3, 4, 5, 6, 2), np.complex128)
    axes = (0, 1, 2, 3)
    for func in ("fftn", "ifftn"):
        check(getattr(ap.fft, func)(ap.asarray(x), axes=axes, norm="ortho"),
              getattr(np.fft, func)(x, axes=axes, norm="ortho"), False)
    r = values(rng, (3, 4, 5, 6), np.float64)
    check(ap.fft.rfftn(ap.asarray(r)), np.fft.rfftn(r), False)
    c = np.fft.rfftn(r)
    check(ap.fft.irfftn(ap.asarray(c), s=r.shape, axes=(0, 1, 2, 3)),
          np.fft.irfftn(c, s=r.shape, axes=(0, 1, 2, 3)), False)


def test_repeated_axes(device, rng):
    x = values(rng, (6, 8), np.complex128)
    check(ap.fft.fftn(ap.asarray(x), axes=(1, 1)), np.fft.fftn(x, axes=(1, 1)), False)
    r = values(rng, (6, 8), np.float64)
    check(ap.fft.rfftn(ap.asarray(r), axes=(0, 1, 0)), np.fft.rfftn(r, axes=(0, 1, 0)), False)


def test_s_without_axes_is_deprecated(device, rng):
    x = values(rng, (4, 6), np.complex128)
    with pytest.warns(DeprecationWarning):
        got = ap.fft.fftn(ap.asarray(x), s=(3, 5))
    with pytest.warns(DeprecationWarning):
        expected = np.fft.fftn(x, s=(3, 5))
    check(got, expected, False)


def test_roundtrips(device, rng):
    x = values(rng, (16, 30), np.float32)
    a = ap.asarray(x)
    check(ap.fft.irfftn(ap.fft.rfftn(a), s=x.shape, axes=(0, 1)), x, True)
    check(ap.fft.ifft(ap.fft.fft(a)), x.astype(np.complex64), True)
    check(ap.fft.hfft(ap.fft.ihfft(a[0]), n=30), x[0], True)


def test_out(device, rng):
    x = values(rng, (4, 8), np.complex128)
    out = ap.empty((4, 8), dtype=np.complex128)
    res = ap.fft.fft(ap.asarray(x), out=out)
    assert res is out
    check(out, np.fft.fft(x), False)
    with pytest.raises(ValueError, match="shape"):
        ap.fft.fft(ap.asarray(x), out=ap.empty((4, 4), dtype=np.complex128))


# ---- frequencies and shifts -----------------------------------------------------------------


@pytest.mark.parametrize("n", [1, 2, 7, 8])
@pytest.mark.parametrize("d", [1.0, 0.25])
def test_freqs(device, n, d):
    for name in ("fftfreq", "rfftfreq"):
        got = getattr(ap.fft, name)(n, d)
        assert got.device == device
        expected = getattr(np.fft, name)(n, d)
        assert ap.asnumpy(got).dtype == expected.dtype
        np.testing.assert_allclose(ap.asnumpy(got), expected, rtol=1e-15)
    assert ap.fft.fftfreq(4, device="cpu").device == ap.device("cpu")


@pytest.mark.parametrize("axes", [None, 0, 1, (0, 1), (-1,)])
def test_shifts(device, rng, axes):
    for shape in [(5, 8), (6, 7), (0, 3)]:
        x = values(rng, shape, np.float32)
        for name in ("fftshift", "ifftshift"):
            got = getattr(ap.fft, name)(ap.asarray(x), axes=axes)
            np.testing.assert_array_equal(ap.asnumpy(got), getattr(np.fft, name)(x, axes=axes))


# ---- errors ---------------------------------------------------------------------------------


def test_errors(device, rng):
    x = ap.asarray(values(rng, (4, 6), np.complex64))
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        ap.fft.fft(x, n=0)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        ap.fft.irfft(x, n=-2)
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        ap.fft.irfft(ap.asarray(values(rng, (1,), np.complex64)))  # n = 2 * (1 - 1)
    with pytest.raises(ValueError, match="Invalid norm value"):
        ap.fft.fft(x, norm="ortogonal")
    with pytest.raises(ValueError, match="Invalid norm value"):
        ap.fft.hfft(x, norm="none")
    with pytest.raises(np.exceptions.AxisError):
        ap.fft.fft(x, axis=2)
    with pytest.raises(np.exceptions.AxisError):
        ap.fft.fftn(x, axes=(0, 5))
    with pytest.raises(ValueError, match="Shape and axes have different lengths"):
        ap.fft.fftn(x, s=(3,), axes=(0, 1))
    with pytest.raises(TypeError, match="real input"):
        ap.fft.rfft(x)
    with pytest.raises(TypeError, match="real input"):
        ap.fft.ihfft(x)
    with pytest.raises(np.exceptions.AxisError):
        ap.fft.fft(ap.asarray(np.float64(1.0)))
    with pytest.raises(ValueError, match="integer"):
        ap.fft.fftfreq(2.5)


# ---- the cuFFT plan cache -------------------------------------------------------------------


def test_plan_cache(device, rng):
    cache = ap.fft.config.get_plan_cache(0)
    cache.clear()
    assert cache.size == 0
    x = ap.asarray(values(rng, (8, 64), np.complex64))
    misses = cache.misses
    ap.eval(ap.fft.fft(x))
    ap.eval(ap.fft.fft(x))
    if device == ap.device("cpu"):
        # pocketfft keeps its own tables; the CPU never touches cuFFT's cache.
        assert cache.size == 0 and cache.misses == misses
        return
    assert cache.size == 1 and cache.misses == misses + 1 and cache.hits >= 1
    old = cache.max_size
    try:
        cache.max_size = 2
        for n in (16, 32, 48):
            ap.eval(ap.fft.fft(x, n=n))
        assert cache.size == 2  # the least recently used plans were dropped
        cache.max_size = 0
        assert cache.size == 0
        check(ap.fft.fft(x), np.fft.fft(ap.asnumpy(x)), True)  # uncached plans still work
        assert cache.size == 0
    finally:
        cache.max_size = old
    cache.clear()
    assert cache.size == 0
    assert "plan cache" in repr(cache)
    with pytest.raises(ValueError):
        cache.max_size = -1


def test_unaligned_views(device, rng):
    # Views starting at an odd element are copied to aligned memory for the library.
    x = values(rng, (3, 33), np.float32)
    for func in ("fft", "rfft"):
        check(getattr(ap.fft, func)(ap.asarray(x)[:, 1:]), reference(func, x[:, 1:]), True)
    c = values(rng, (65,), np.complex64)
    check(ap.fft.ifft(ap.asarray(c)[1:]), np.fft.ifft(c[1:]), True)
