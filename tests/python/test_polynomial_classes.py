"""accelpy.polynomial's series classes and poly1d against NumPy's: values at accelpy arrays
(on their device, over dtypes and shapes), fits on accelpy arrays (coefficients and values,
weights, domains, full output), and NumPy's own coefficient operations keeping the class."""

import warnings

import numpy as np
import pytest

import accelpy as ap
import accelpy.polynomial as P

CLASSES = ["Polynomial", "Chebyshev", "Legendre", "Hermite", "HermiteE", "Laguerre"]


def _pair(name):
    return getattr(P, name), getattr(np.polynomial, name)


@pytest.mark.parametrize("name", CLASSES)
@pytest.mark.parametrize("ncoef", [1, 2, 3, 8])
@pytest.mark.parametrize("shape", [(), (0,), (7,), (3, 4)])
def test_values_at_device_arrays(device, rng, name, ncoef, shape):
    ours, theirs = _pair(name)
    coef = rng.standard_normal(ncoef)
    domain = [-2.0, 3.0]
    x = rng.uniform(-2, 3, shape)
    got = ours(coef, domain=domain)(ap.asarray(x))
    assert isinstance(got, ap.ndarray) and got.device == device
    np.testing.assert_allclose(ap.asnumpy(got), theirs(coef, domain=domain)(x), rtol=1e-10,
                               atol=1e-10)


@pytest.mark.parametrize("name", CLASSES)
def test_values_float32_int_noncontiguous_and_host_inputs(device, rng, name):
    ours, theirs = _pair(name)
    coef = rng.standard_normal(5)
    p, q = ours(coef), theirs(coef)
    x32 = rng.uniform(-1, 1, 50).astype(np.float32)
    got = p(ap.asarray(x32))
    np.testing.assert_allclose(ap.asnumpy(got), q(x32), rtol=2e-5, atol=2e-5)
    xi = np.arange(-3, 4)
    np.testing.assert_allclose(ap.asnumpy(p(ap.asarray(xi))), q(xi), rtol=1e-12)
    base = rng.uniform(-1, 1, (6, 8))
    np.testing.assert_allclose(ap.asnumpy(p(ap.asarray(base)[::-2, 1::3])), q(base[::-2, 1::3]),
                               rtol=1e-12, atol=1e-12)
    # Not accelpy arrays: NumPy's own evaluation, NumPy's results.
    assert isinstance(p(np.array([0.5])), np.ndarray)
    assert p(0.25) == pytest.approx(q(0.25))


@pytest.mark.parametrize("name", CLASSES)
@pytest.mark.parametrize("deg", [0, 1, 4])
def test_fit_on_device_arrays(device, rng, name, deg):
    ours, theirs = _pair(name)
    x = rng.uniform(-2, 5, 400)
    y = np.cos(x) + 0.05 * rng.standard_normal(400)
    w = rng.uniform(0.5, 2.0, 400)
    p = ours.fit(ap.asarray(x), ap.asarray(y), deg, w=ap.asarray(w))
    q = theirs.fit(x, y, deg, w=w)
    assert type(p) is ours
    np.testing.assert_allclose(p.domain, q.domain)
    np.testing.assert_allclose(p.window, q.window)
    np.testing.assert_allclose(p.coef, q.coef, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(ap.asnumpy(p(ap.asarray(x))), q(x), rtol=1e-8, atol=1e-8)


def test_fit_domain_window_full_and_errors(device, rng):
    x = rng.uniform(0, 10, 200)
    y = x**2 - 3 * x + rng.standard_normal(200)
    p, info = P.Chebyshev.fit(ap.asarray(x), ap.asarray(y), 2, domain=[0, 10], full=True)
    q, qinfo = np.polynomial.Chebyshev.fit(x, y, 2, domain=[0, 10], full=True)
    np.testing.assert_allclose(p.coef, q.coef, rtol=1e-9)
    np.testing.assert_allclose(info[0], qinfo[0], rtol=1e-7)
    assert info[1] == qinfo[1]
    np.testing.assert_allclose(info[2], qinfo[2], rtol=1e-9)
    conv = P.Polynomial.fit(ap.asarray(x), ap.asarray(y), 2).convert()
    np.testing.assert_allclose(conv.coef, [0.0, -3.0, 1.0], atol=0.6)
    # A list of degrees goes to NumPy's fit.
    r = P.Legendre.fit(ap.asarray(x), ap.asarray(y), [0, 2])
    np.testing.assert_allclose(r.coef, np.polynomial.Legendre.fit(x, y, [0, 2]).coef,
                               rtol=1e-9)
    with pytest.raises(ValueError, match="deg"):
        P.Polynomial.fit(ap.asarray(x), ap.asarray(y), -1)
    with pytest.raises(TypeError, match="same length"):
        P.Polynomial.fit(ap.asarray(x), ap.asarray(y[:-1]), 2)
    with pytest.raises(TypeError, match="1D"):
        P.Polynomial.fit(ap.asarray(x.reshape(20, 10)), ap.asarray(y), 2)


@pytest.mark.parametrize("name", CLASSES)
def test_coefficient_operations_keep_the_class(name, rng):
    ours, theirs = _pair(name)
    a, b = rng.standard_normal(4), rng.standard_normal(3)
    p, q = ours(a), ours(b)
    for got, want in [(p + q, theirs(a) + theirs(b)), (p * q, theirs(a) * theirs(b)),
                      (p - 2, theirs(a) - 2), (p**2, theirs(a) ** 2),
                      (p.deriv(), theirs(a).deriv()), (p.integ(k=1), theirs(a).integ(k=1)),
                      (p // q, theirs(a) // theirs(b))]:
        assert type(got) is ours
        np.testing.assert_allclose(got.coef, want.coef, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.sort_complex(p.roots()), np.sort_complex(theirs(a).roots()))


def test_poly1d(device, rng):
    c = rng.standard_normal(4)
    p, q = ap.poly1d(c), np.poly1d(c)
    x = rng.uniform(-2, 2, (3, 5))
    got = p(ap.asarray(x))
    assert isinstance(got, ap.ndarray) and got.device == device
    np.testing.assert_allclose(ap.asnumpy(got), q(x), rtol=1e-12)
    assert p(0.5) == pytest.approx(q(0.5))
    for ours, theirs in [(p + p, q + q), (p * 3, q * 3), (2 * p, 2 * q), (p - p * p, q - q * q),
                         (p**2, q**2), (-p, -q), (p.deriv(), q.deriv()),
                         (p.integ(), q.integ()), (p(p), q(q))]:
        assert type(ours) is ap.poly1d
        np.testing.assert_allclose(ours.coeffs, theirs.coeffs, rtol=1e-12)
    quo, rem = (p * p + 1) / p
    assert type(quo) is ap.poly1d and type(rem) is ap.poly1d
    np.testing.assert_allclose(ap.poly1d([1, -3, 2], r=False).roots, [2, 1])
    np.testing.assert_allclose(ap.poly1d(ap.asarray([1.0, -1.0]))(ap.asarray([3.0])).tolist(),
                               [2.0])
    assert p.order == 3 and len(p) == 3


@pytest.mark.parametrize("name,deg", [("Polynomial", 6), ("Chebyshev", 12), ("Legendre", 9),
                                      ("Polynomial", 30)])
def test_fit_on_many_points(device, name, deg):
    # Past 50k points well-conditioned fits take the normal equations with refinement, the
    # others (Polynomial of degree 30) the SVD: both agree with NumPy's SVD fit.
    ours, theirs = _pair(name)
    rng = np.random.default_rng(deg)  # fixed: degree 30's rank-deficient answer varies
    x = rng.uniform(-1, 3, 60_000)
    y = np.sin(3 * x) + 0.01 * rng.standard_normal(x.size)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.RankWarning)
        p = ours.fit(ap.asarray(x), ap.asarray(y), deg)
        q = theirs.fit(x, y, deg)
    # Degree 30 is rank-deficient in the power basis: the SVDs' cut-offs differ in last bits.
    np.testing.assert_allclose(ap.asnumpy(p(ap.asarray(x))), q(x), rtol=0,
                               atol=1e-9 if deg < 30 else 1e-6)
    if deg < 30:
        np.testing.assert_allclose(p.coef, q.coef, rtol=0, atol=1e-10 * np.abs(q.coef).max())
