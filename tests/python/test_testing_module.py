"""accelpy.testing: NumPy's assertions over accelpy arrays, and CuPy's decorators that run a test
with NumPy and accelpy and compare (each must fail where the two disagree)."""

import numpy as np
import pytest

import accelpy as ap
from accelpy import testing


@testing.numpy_cupy_allclose(rtol=1e-6)
def test_allclose_decorator(xp):
    return xp.sqrt(xp.arange(10.0)) * 2


def test_decorator_runs_numpy_then_accelpy():
    calls = []

    @testing.numpy_cupy_allclose()
    def f(xp):
        calls.append(xp)
        return xp.ones(2)

    assert f() is None and calls == [np, ap]


@testing.numpy_cupy_array_equal()
def test_array_equal_decorator_sequences(xp):
    a = xp.arange(6).reshape(2, 3)
    return a.sum(axis=0), [a.T, a[0]]


@testing.numpy_cupy_allclose(accept_error=ValueError)
def test_accept_error_both_raise(xp):
    xp.ones(3).reshape(4)


class TestInAClass:
    @testing.numpy_cupy_allclose(atol=1e-12)
    def test_method(self, xp):
        return xp.linspace(0, 1, 7)

    @testing.numpy_cupy_array_equal(name="mod")
    def test_other_name(self, mod):
        return mod.zeros((2, 2), dtype=mod.int32)


def test_assertions_take_accelpy_arrays(device, rng):
    a = rng.standard_normal((3, 4))
    x = ap.asarray(a)
    testing.assert_allclose(x, a)
    testing.assert_allclose(a, x + 1e-9, rtol=1e-6, atol=1e-8)  # elements near 0: absolute
    testing.assert_array_equal(x, a)
    testing.assert_array_almost_equal(x, a + 1e-8)
    testing.assert_array_less(x, x + 1)
    testing.assert_equal((x, [x]), (a, [a]))
    with pytest.raises(AssertionError):
        testing.assert_allclose(x, a + 1)
    with pytest.raises(AssertionError):
        testing.assert_array_equal(x, a * 2)
    with pytest.raises(AssertionError):
        testing.assert_array_less(x, x)
    with pytest.raises(AssertionError):
        testing.assert_array_almost_equal(x, a + 1e-3)
    with pytest.raises(AssertionError):
        testing.assert_equal(x, a[:2])


def _run(decorated, *args):
    return decorated(*args)


def test_decorators_fail_where_results_differ():
    @testing.numpy_cupy_allclose()
    def values(xp):
        return xp.ones(3) * (2 if xp is ap else 1)

    @testing.numpy_cupy_allclose()
    def dtypes(xp):
        return xp.ones(3, dtype=np.float32 if xp is ap else np.float64)

    @testing.numpy_cupy_allclose(type_check=False)
    def dtypes_unchecked(xp):
        return xp.ones(3, dtype=np.float32 if xp is ap else np.float64)

    @testing.numpy_cupy_array_equal()
    def one_raises(xp):
        if xp is ap:
            raise ValueError("only here")
        return xp.ones(2)

    @testing.numpy_cupy_allclose(accept_error=TypeError)
    def other_error(xp):
        raise ValueError("not accepted")

    @testing.numpy_cupy_equal()
    def scalars(xp):
        return 1 if xp is np else 2

    @testing.numpy_cupy_array_equal()
    def lengths(xp):
        return (xp.ones(1),) * (1 if xp is np else 2)

    for f in (values, dtypes, one_raises, other_error, scalars, lengths):
        with pytest.raises(AssertionError):
            f()
    dtypes_unchecked()


def test_decorator_signatures_hide_the_module_argument():
    import inspect

    @testing.numpy_cupy_allclose()
    def f(self, xp, n=2):
        return xp.ones(n)

    assert list(inspect.signature(f).parameters) == ["self", "n"]
    f(None, n=3)
    with pytest.raises(TypeError, match="name must be a str"):
        testing.numpy_cupy_allclose(name=1)
    with pytest.raises(NotImplementedError, match="sp_name"):
        testing.numpy_cupy_allclose(sp_name="sp")
