"""accelpy._polynomial against NumPy on random coefficients: polyval, polyadd/sub/mul/div,
polyder, polyint, poly, roots, polyfit and vander, over dtypes, layouts and devices."""

import warnings

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches, random_values, to_device, to_numpy

DTYPES = [np.int64, np.float32, np.float64, np.complex128]


def coeffs(rng, n, dtype):
    return random_values(rng, (n,), dtype, low=-5, high=5)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("xshape", [(), (0,), (7,), (3, 4)])
def test_polyval(device, rng, dtype, xshape):
    p_np = coeffs(rng, 5, dtype)
    x_np = random_values(rng, xshape, dtype, low=-2, high=2)
    assert_matches(ap.polyval(to_device(p_np, device), to_device(x_np, device)),
                   np.polyval(p_np, x_np), **horner_tolerance(p_np, x_np))
    # Non-contiguous and reversed operands.
    x2 = random_values(rng, (6, 8), dtype, low=-2, high=2)
    assert_matches(ap.polyval(to_device(p_np, device)[::-1], to_device(x2, device)[::2, ::-3]),
                   np.polyval(p_np[::-1], x2[::2, ::-3]), **horner_tolerance(p_np, x2))
    with pytest.raises(TypeError):
        ap.polyval(to_device(p_np[0], device), to_device(x_np, device))
    # 2-D coefficients evaluate one polynomial per column.
    p2 = random_values(rng, (4, 3), dtype, low=-5, high=5)
    x3 = random_values(rng, (3,), dtype, low=-2, high=2)
    assert_matches(ap.polyval(to_device(p2, device), to_device(x3, device)),
                   np.polyval(p2, x3), **horner_tolerance(p2, x3))


def horner_tolerance(p_np, x_np):
    """A value near a root cancels: Horner's rounding error is bounded by the polynomial of
    the magnitudes, |p|(|x|) (complex products may round differently, by an FMA)."""
    if p_np.dtype.kind not in "fc":
        return {"ulps": 64}
    with np.errstate(all="ignore"):
        size = np.polyval(np.abs(p_np).astype(np.float64), np.abs(x_np).astype(np.float64))
    return {"ulps": 64, "atol": 64 * float(np.finfo(p_np.dtype).eps) * float(np.max(size,
                                                                                   initial=0))}


def term_tolerance(name, a_np, b_np):
    """Rounding error relative to the terms' magnitudes, not to a coefficient that cancels
    (a product's -0.018 from terms near 25 differed by 1e-14 relative)."""
    if a_np.dtype.kind not in "fc":
        return {"ulps": 16}
    m, n = np.abs(a_np).astype(np.float64), np.abs(b_np).astype(np.float64)
    scale = np.convolve(m, n).max() if name == "polymul" else m.max() + n.max()
    return {"ulps": 16, "atol": 16 * float(np.finfo(a_np.dtype).eps) * scale}


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("sizes", [(4, 4), (2, 6), (7, 1), (1, 3)])
def test_polyadd_sub_mul(device, rng, dtype, sizes):
    a_np, b_np = coeffs(rng, sizes[0], dtype), coeffs(rng, sizes[1], dtype)
    a, b = to_device(a_np, device), to_device(b_np, device)
    for name in ("polyadd", "polysub", "polymul"):
        tol = term_tolerance(name, a_np, b_np)
        assert_matches(getattr(ap, name)(a, b), getattr(np, name)(a_np, b_np), **tol)
        assert_matches(getattr(ap, name)(a[::-1], b_np.tolist()),
                       getattr(np, name)(a_np[::-1], b_np.tolist()), **tol)
    assert_matches(ap.polyadd(a, 3), np.polyadd(a_np, 3))
    # Leading zeros: polymul trims them (as numpy.poly1d), polyadd keeps them.
    z_np = np.concatenate([np.zeros(2, dtype), a_np])
    z = to_device(z_np, device)
    assert_matches(ap.polymul(z, b), np.polymul(z_np, b_np),
                   **term_tolerance("polymul", z_np, b_np))
    assert_matches(ap.polyadd(z, b), np.polyadd(z_np, b_np))
    assert_matches(ap.polymul(z[:2], b), np.polymul(z_np[:2], b_np))
    with pytest.raises(ValueError):
        ap.polymul(ap.ones((2, 2)), b)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("m", [0, 1, 2, 6])
def test_polyder(device, rng, dtype, m):
    p_np = coeffs(rng, 6, dtype)
    assert_matches(ap.polyder(to_device(p_np, device), m), np.polyder(p_np, m), ulps=16)
    with pytest.raises(ValueError):
        ap.polyder(to_device(p_np, device), -1)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("m, k", [(0, None), (1, None), (2, None), (1, 2.5), (3, [1, 2, 3]),
                                  (2, 4.0)])
def test_polyint(device, rng, dtype, m, k):
    p_np = coeffs(rng, 5, dtype)
    assert_matches(ap.polyint(to_device(p_np, device), m, k), np.polyint(p_np, m, k), ulps=16)


def test_polyint_errors(device):
    with pytest.raises(ValueError):
        ap.polyint(ap.ones(3), -1)
    with pytest.raises(ValueError):
        ap.polyint(ap.ones(3), 3, k=[1, 2])


@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.complex128], ids=str)
@pytest.mark.parametrize("sizes", [(6, 3), (4, 4), (3, 5), (5, 1)])
def test_polydiv(device, rng, dtype, sizes):
    u_np, v_np = coeffs(rng, sizes[0], dtype), coeffs(rng, sizes[1], dtype)
    v_np[0] = 2  # a leading coefficient away from zero
    q, r = ap.polydiv(to_device(u_np, device), to_device(v_np, device))
    eq, er = np.polydiv(u_np, v_np)
    assert_matches(q, eq, rtol=1e-10, atol=1e-10)
    assert_matches(r, er, rtol=1e-10, atol=1e-10)
    # An exact division leaves a zero remainder of length 1, as NumPy trims it.
    prod = np.polymul(u_np, v_np) + 0.0
    q, r = ap.polydiv(to_device(prod, device), to_device(v_np, device))
    eq, er = np.polydiv(prod, v_np)
    assert_matches(q, eq, rtol=1e-10, atol=1e-10)
    assert to_numpy(r).shape == er.shape


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.float64, np.complex128], ids=str)
def test_poly(device, rng, dtype):
    z_np = coeffs(rng, 5, dtype)
    # Coefficients are sums of products of roots, which cancel (accelpy multiplies by one
    # factor at a time, NumPy convolves): the error is bounded by those of prod(x + |z_i|).
    atol = 0.0
    if z_np.dtype.kind in "fc":
        atol = 64 * float(np.finfo(z_np.dtype).eps) * float(np.poly(-np.abs(z_np)).max())
    assert_matches(ap.poly(to_device(z_np, device)), np.poly(z_np), ulps=64, atol=atol or None)
    # Conjugate pairs give real coefficients, as in NumPy.
    c = np.array([1 + 2j, 1 - 2j, 3.0])
    assert_matches(ap.poly(to_device(c, device)), np.poly(c), ulps=64)
    assert ap.poly(to_device(np.zeros(0), device)) == np.poly(np.zeros(0))
    with pytest.raises(ValueError):
        ap.poly(ap.ones((2, 3)))


def test_poly_of_matrix(device, rng):
    a_np = rng.standard_normal((4, 4))
    a_np = a_np + a_np.T  # real eigenvalues: a real characteristic polynomial
    assert_matches(ap.poly(to_device(a_np, device)), np.poly(a_np), rtol=1e-9, atol=1e-9)


def sorted_roots(r):
    r = np.asarray(r)
    return r[np.lexsort((np.round(r.imag, 6), np.round(r.real, 6)))]


@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.complex128], ids=str)
def test_roots(device, rng, dtype):
    for p_np in (coeffs(rng, 6, dtype), np.poly(rng.uniform(-3, 3, 4)).astype(dtype)
                 if dtype != np.int64 else np.array([1, -3, 2], dtype),
                 np.array([0, 0, 2, -4, 0, 0], dtype)):
        if p_np[p_np != 0].size:
            got, expected = to_numpy(ap.roots(to_device(p_np, device))), np.roots(p_np)
            assert got.shape == expected.shape
            # Where NumPy's roots are all real, accelpy's may stay complex with ~1e-16
            # imaginary parts: accelpy.linalg.eigvals runs LAPACK's complex geev on real
            # matrices, where NumPy's real dgeev gives exact zeros (a linalg matter).
            if expected.dtype.kind == "c":
                assert got.dtype == expected.dtype
            np.testing.assert_allclose(sorted_roots(got), sorted_roots(expected), rtol=1e-7,
                                       atol=1e-7)
    assert to_numpy(ap.roots(to_device(np.zeros(3), device))).size == 0
    with pytest.raises(ValueError):
        ap.roots(ap.ones((2, 2)))


@pytest.mark.parametrize("deg", [0, 1, 3])
@pytest.mark.parametrize("yshape", [(20,), (20, 3)])
def test_polyfit(device, rng, deg, yshape):
    x_np = rng.uniform(-2, 2, 20)
    y_np = rng.standard_normal(yshape)
    w_np = rng.uniform(0.5, 2, 20)
    x, y, w = (to_device(v, device) for v in (x_np, y_np, w_np))
    assert_matches(ap.polyfit(x, y, deg), np.polyfit(x_np, y_np, deg), rtol=1e-8, atol=1e-10)
    assert_matches(ap.polyfit(x[::-1], y[::-1], deg, w=w), np.polyfit(
        x_np[::-1], y_np[::-1], deg, w=w_np), rtol=1e-8, atol=1e-10)
    got = ap.polyfit(x, y, deg, full=True)
    expected = np.polyfit(x_np, y_np, deg, full=True)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_allclose(to_numpy(g), e, rtol=1e-8, atol=1e-10)
    for cov in (True, "unscaled"):
        (gc, gv), (ec, ev) = ap.polyfit(x, y, deg, cov=cov), np.polyfit(x_np, y_np, deg, cov=cov)
        assert_matches(gc, ec, rtol=1e-8, atol=1e-10)
        assert_matches(gv, ev, rtol=1e-7, atol=1e-10)


def test_polyfit_errors_and_warning(device):
    x = ap.arange(5.0)
    with pytest.raises(ValueError):
        ap.polyfit(x, x, -1)
    with pytest.raises(TypeError):
        ap.polyfit(ap.ones((2, 2)), x, 1)
    with pytest.raises(TypeError):
        ap.polyfit(ap.zeros(0), ap.zeros(0), 1)
    with pytest.raises(TypeError):
        ap.polyfit(x, ap.ones(4), 1)
    with pytest.raises(TypeError):
        ap.polyfit(x, x, 1, w=ap.ones(3))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ap.polyfit(ap.asarray([1.0, 1.0, 1.0]), ap.asarray([1.0, 2.0, 3.0]), 2)
    assert any(issubclass(c.category, np.exceptions.RankWarning) for c in caught)


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.float32, np.float64, np.complex64],
                         ids=str)
@pytest.mark.parametrize("N", [None, 0, 1, 4])
@pytest.mark.parametrize("increasing", [False, True])
def test_vander(device, rng, dtype, N, increasing):
    x_np = random_values(rng, (6,), dtype, low=-3, high=3)
    assert_matches(ap.vander(to_device(x_np, device), N, increasing),
                   np.vander(x_np, N, increasing), ulps=8)
    assert_matches(ap.vander(to_device(x_np, device)[::-2], N),
                   np.vander(x_np[::-2], N), ulps=8)
    assert_matches(ap.vander(to_device(x_np[:0], device), N), np.vander(x_np[:0], N))
    with pytest.raises(ValueError):
        ap.vander(ap.ones((2, 2)))
    with pytest.raises(ValueError):
        ap.vander(ap.ones(3), -1)
