"""NumPy's dispatch protocols on accelpy arrays: ufuncs (__array_ufunc__: calls, out=, dtype=,
reduce, accumulate, outer) and functions (__array_function__, NEP 35 like=) return accelpy
arrays on the arrays' device; what accelpy lacks raises NumPy's TypeError."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches, make_operands, sum_atol

UNARY = ["sin", "exp", "sqrt", "absolute", "negative", "arccos", "conjugate", "rint", "isnan"]
BINARY = ["add", "subtract", "multiply", "true_divide", "power", "maximum", "arctan2", "equal",
          "logical_and", "left_shift", "hypot"]


def _dtype_for(name):
    if name in ("left_shift",):
        return np.int32
    return np.float64


@pytest.mark.parametrize("name", UNARY + BINARY)
@pytest.mark.parametrize("layout", ["0d", "2d", "broadcast", "noncontig", "negstride"])
def test_ufunc_calls_return_accelpy_arrays(name, layout, device, rng):
    ufunc = getattr(np, name)
    dt = _dtype_for(name)
    low, high = (0.1, 0.9) if name in ("arccos", "sqrt") else (0, 5)
    np_ops, ap_ops = make_operands(rng, layout, [dt] * ufunc.nin, device, low=low, high=high)
    got = ufunc(*ap_ops)
    assert isinstance(got, ap.ndarray) and got.device == device
    assert_matches(got, ufunc(*np_ops), ulps=8)
    # A NumPy operand moves to the accelpy operand's device.
    if ufunc.nin == 2:
        mixed = ufunc(np_ops[0], ap_ops[1])
        assert isinstance(mixed, ap.ndarray) and mixed.device == device
        assert_matches(mixed, ufunc(*np_ops), ulps=8)


def test_numpy_operators_defer_to_accelpy(device, rng):
    n = rng.standard_normal((3, 4))
    a = ap.asarray(n, device=device)
    for got, exp in ((n + a, n + n), (n * a, n * n), (n < a, n < n), (n - a, n - n)):
        assert isinstance(got, ap.ndarray) and got.device == device
        assert_matches(got, exp)


def test_ufunc_out_and_dtype(device, rng):
    n = rng.standard_normal(10)
    a = ap.asarray(n, device=device)
    out = ap.empty(10, device=device)
    r = np.multiply(a, 2.0, out=out)
    assert r is out
    assert_matches(out, n * 2)
    r = np.add(n, a, out=(out,))
    assert r is out
    assert_matches(out, n + n)
    f32 = np.add(a, a, dtype=np.float32)
    assert f32.dtype == np.float32
    assert_matches(f32, np.add(n, n, dtype=np.float32))
    with pytest.raises(TypeError):
        np.add(a, a, out=np.empty(10))  # results go to accelpy arrays only
    where_out, expected = ap.zeros(10, device=device), np.zeros(10)
    np.add(a, a, where=n > 0, out=where_out)  # accelpy's ufunc takes where=
    assert_matches(where_out, np.add(n, n, where=n > 0, out=expected))
    i = ap.zeros(10, dtype=np.int32, device=device)
    with pytest.raises(TypeError, match="same_kind"):
        np.add(a, a, out=i)


@pytest.mark.parametrize("name,axis,keepdims", [
    ("add", 0, False), ("add", 1, True), ("add", None, False), ("multiply", (0, 1), False),
    ("maximum", 1, False), ("minimum", 0, True), ("logical_and", 0, False),
    ("logical_or", None, False), ("fmax", 0, False)])
def test_ufunc_reduce(name, axis, keepdims, device, rng):
    ufunc = getattr(np, name)
    dt = np.bool_ if name.startswith("logical") else np.int64 if name == "fmax" else np.float64
    (n,), (a,) = make_operands(rng, "2d", [dt], device, low=-3, high=3)
    got = ufunc.reduce(a, axis=axis, keepdims=keepdims)
    assert isinstance(got, ap.ndarray) and got.device == device
    # Sums cancel: their error is bounded by the magnitude of the terms, not of the result.
    atol = 16 * np.finfo(np.float64).eps * np.abs(n).sum() if name == "add" else None
    assert_matches(got, ufunc.reduce(n, axis=axis, keepdims=keepdims), ulps=16, atol=atol)
    if name == "add":
        assert_matches(np.add.reduce(a), np.add.reduce(n), ulps=16)  # NumPy's default axis 0
        assert_matches(np.add.reduce(a, dtype=np.float32), np.add.reduce(n, dtype=np.float32),
                       rtol=1e-5, atol=1e-5)  # accelpy accumulates float32 sums in double
        out = ap.empty(n.shape[1], device=device)
        assert np.add.reduce(a, axis=0, out=out) is out


def test_ufunc_methods_run_accelpys_ufunc_methods(device, rng):
    # reduceat, reductions without a core reduction, initial=, and at: accelpy's ufunc objects
    # have them all (tests/python/test_ufunc.py covers them in depth).
    n = rng.standard_normal((4, 4))
    a = ap.asarray(n, device=device)
    for ufunc, method, args, kwargs in [(np.add, "reduceat", ([0, 2],), {}),
                                        (np.subtract, "reduce", (), {}),
                                        (np.fmax, "reduce", (), {}),
                                        (np.add, "reduce", (), {"initial": 1.0})]:
        got = getattr(ufunc, method)(a, *args, **kwargs)
        assert isinstance(got, ap.ndarray)
        # subtract.reduce cancels: its error follows the terms' magnitudes, not the result's.
        assert_matches(got, getattr(ufunc, method)(n, *args, **kwargs), ulps=16,
                       atol=sum_atol(n, axis=0, ulps=4))
    np.add.at(a, [0, 1, 1], 1.0)
    np.add.at(n, [0, 1, 1], 1.0)
    assert_matches(a, n)
    with pytest.raises(TypeError):
        np.isnat(a)  # run by NumPy (accelpy has no isnat), which takes no float64


def test_ufunc_accumulate_uses_the_scan_when_accelpy_has_one(device, monkeypatch, rng):
    n = rng.standard_normal((3, 5))
    a = ap.asarray(n, device=device)
    if not hasattr(ap, "cumsum") and not hasattr(ap, "cumulative_sum"):
        with pytest.raises(TypeError, match="add.accumulate"):
            a.__array_ufunc__(np.add, "accumulate", a)  # (see the test above)
        # The dispatch looks the scan up in the live namespace: give it one.
        monkeypatch.setattr(ap, "cumsum", lambda x, axis=None, dtype=None: ap.asarray(
            np.cumsum(ap.asnumpy(x), axis=axis, dtype=dtype), device=x.device), raising=False)
    got = np.add.accumulate(a, axis=1)
    assert isinstance(got, ap.ndarray) and got.device == device
    assert_matches(got, np.add.accumulate(n, axis=1), ulps=16)


def test_ufunc_outer(device, rng):
    (x, y), (a, b) = make_operands(rng, "1d", [np.float64, np.float64], device)
    got = np.multiply.outer(a, b[:5])
    assert isinstance(got, ap.ndarray)
    assert_matches(got, np.multiply.outer(x, y[:5]))
    assert_matches(np.subtract.outer(a[:3], x[:4]), np.subtract.outer(x[:3], x[:4]))


def test_other_libraries_arrays_make_accelpy_step_aside(device):
    class Other:
        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            return "other"

    a = ap.ones(3, device=device)
    assert np.add(a, Other()) == "other"


@pytest.mark.parametrize("layout", ["2d", "noncontig", "transposed"])
def test_array_functions_dispatch_to_accelpy(layout, device, rng):
    (x, y), (a, b) = make_operands(rng, layout, [np.float64, np.float64], device)
    cases = [
        (lambda m, p, q: m.concatenate([p, q]), None),
        (lambda m, p, q: m.concatenate([p, q], axis=1), None),
        (lambda m, p, q: m.stack([p, q], axis=1), None),
        (lambda m, p, q: m.sum(p, axis=0), "terms"),
        (lambda m, p, q: m.mean(p, axis=1, keepdims=True), "terms"),
        (lambda m, p, q: m.std(p), "terms"),
        (lambda m, p, q: m.max(p, axis=0), None),
        (lambda m, p, q: m.transpose(p), None),
        (lambda m, p, q: m.reshape(p, (-1,)), None),
        (lambda m, p, q: m.where(p > 0, p, q), None),
        (lambda m, p, q: m.clip(p, -1, 1), None),
        (lambda m, p, q: m.clip(p, a_min=-1, a_max=1), None),
        (lambda m, p, q: m.round(p, 2), None),
        (lambda m, p, q: m.expand_dims(p, 0), None),
        (lambda m, p, q: m.broadcast_to(p[:1], (3,) + tuple(p.shape[1:])), None),
        (lambda m, p, q: m.zeros_like(p), None),
        (lambda m, p, q: m.copy(q), None),
    ]
    # Sums add in another order than NumPy's pairwise one: under cancellation their error is
    # bounded in ulps of the terms, not of the result.
    terms_atol = 16 * np.finfo(np.float64).eps * float(np.abs(x).max())
    for fn, tol in cases:
        got = fn(np, a, b)
        assert isinstance(got, ap.ndarray) and got.device == device
        assert_matches(got, fn(np, x, y), ulps=16, atol=terms_atol if tol == "terms" else None)
    assert np.shape(a) == x.shape and np.ndim(a) == x.ndim and np.size(a) == x.size
    assert np.size(a, 1) == x.shape[1] and not np.iscomplexobj(a) and np.isrealobj(a)
    assert np.result_type(a, np.float32) == np.float64


def test_array_functions_accelpy_lacks_raise_type_error(device):
    a = ap.ones((3, 3), device=device)
    with pytest.raises(TypeError, match="no implementation found"):
        np.is_busday(a)  # datetime functions: not accelpy's
    # NumPy's functions that accelpy has dispatch to it and stay on the device.
    got = np.nanpercentile(a, 50, axis=0)
    assert isinstance(got, ap.ndarray) and got.device == a.device


def test_array_function_map_follows_the_namespace(device, monkeypatch):
    a = ap.ones((2, 2), device=device)
    calls = []
    monkeypatch.setattr(ap, "trace", lambda x, **kw: calls.append(x) or ap.sum(x), raising=False)
    assert float(np.trace(a)) == 4.0 and calls == [a]  # a function added later is dispatched


def test_like_creation_goes_to_the_like_arrays_device(device):
    a = ap.ones(2, device=device)
    for got, exp in ((np.zeros(3, like=a), np.zeros(3)), (np.arange(4, like=a), np.arange(4)),
                     (np.array([1, 2], like=a, ndmin=2), np.array([[1, 2]])),
                     (np.asarray([1.5], like=a), np.asarray([1.5])),
                     (np.full((2, 2), 7, like=a), np.full((2, 2), 7)),
                     (np.ascontiguousarray(ap.ones((3, 4)).T, like=a), np.ones((4, 3)))):
        assert isinstance(got, ap.ndarray) and got.device == device
        assert_matches(got, exp)


def test_array_conversion(device):
    a = ap.arange(4.0, device=device)
    if device.type == "cpu":
        assert np.asarray(a).dtype == np.float64
        assert not np.shares_memory(np.array(a), np.asarray(a))
    else:  # a host copy (see test_conversion.py)
        assert np.asarray(a).dtype == np.float64 and np.asarray(a).tolist() == [0, 1, 2, 3]


def test_ufuncs_of_other_libraries_run_through_numpy(device, rng):
    # A ufunc accelpy has no kernel for (scipy.special's, a Numba ufunc; here NumPy's test
    # gufuncs) runs in NumPy over host copies: its results come back on the operands' device,
    # out= arrays are written (where= respected), and the result is NumPy's.
    from numpy._core import _umath_tests as ut

    x, y = rng.standard_normal((4, 6)), rng.standard_normal((4, 6))
    a, b = ap.asarray(x, device=device), ap.asarray(y, device=device)
    got = ut.inner1d(a, b)
    assert isinstance(got, ap.ndarray) and got.device == device
    np.testing.assert_array_equal(ap.asnumpy(got), ut.inner1d(x, y))
    out = ap.zeros(4, device=device)
    assert ut.inner1d(a[:, ::-1], y, out=out) is out
    np.testing.assert_array_equal(ap.asnumpy(out), ut.inner1d(x[:, ::-1], y))
    assert ut.inner1d(a[0], b[0]).shape == ()


def test_scipy_special_takes_accelpy_arrays(device, rng):
    special = pytest.importorskip("scipy.special")
    x = rng.uniform(-0.9, 0.9, (3, 5))
    a = ap.asarray(x, device=device)
    for fn in (special.erf, special.erfinv, special.gamma):
        got = fn(a)
        assert isinstance(got, ap.ndarray) and got.device == device
        np.testing.assert_array_equal(ap.asnumpy(got), fn(x))
    out = ap.full((3, 5), -1.0, device=device)
    special.erf(a, out=out)
    np.testing.assert_array_equal(ap.asnumpy(out), special.erf(x))
