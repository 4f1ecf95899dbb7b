"""Elementwise operations over small computed CPU arrays, and reductions of such an array over
every axis, are computed at the call (eager), up to ap.fusion.eager_elements() elements: the same
bits as the deferred path, fused or not, in every dtype and layout; pending operands, larger
arrays and layouts the step interpreter does not take in place stay deferred; floating-point
errors are reported at the call, as NumPy does."""

import functools
import warnings

import numpy as np
import pytest

import accelpy as ap
from helpers import random_values, sum_atol, to_numpy, with_fusion

pytestmark = pytest.mark.usefixtures("cpu_default")

DTYPES = [np.float64, np.float32, np.float16, np.int32, np.uint8, np.int64, np.complex64, np.bool_]


def _groups_run(fn):
    ap.fusion.reset_stats()
    out = fn()
    return out, ap.fusion.stats()["groups_run"]


def _layouts(rng, dtype):
    """(name, numpy operand a, numpy operand b) in the layouts a program meets."""
    a = random_values(rng, (6, 7), dtype, low=-5, high=5)
    b = random_values(rng, (6, 7), dtype, low=-5, high=5)
    big = random_values(rng, (40, 50), dtype, low=-5, high=5)
    return [
        ("0-d", a[0, 0].copy().reshape(()), b[0, 0].copy().reshape(())),
        ("empty", a[:0], b[:0]),
        ("contiguous", a, b),
        ("transposed", a.T, b.T),
        ("strided", a[:, ::2], b[:, ::2]),
        ("negative strides", a[::-1, ::-1], b[::-1, ::-1]),
        ("broadcast row", a, b[:1]),
        ("contiguous, 2000 elements", big, big[::-1].copy()),
        ("strided, 1000 elements", big[:, ::2], big[:, 1::2]),
    ]


def _chain(xp, a, b):
    """A loop body's expressions: binary ops with arrays and scalars, a unary op, a cast."""
    y = a * b + 1
    y = y - a
    z = (a > b) | (b == 0)
    if np.issubdtype(a.dtype, np.inexact):
        w = xp.sqrt(xp.abs(y)) * 0.5
    else:
        w = (y // 3).astype(np.float32)
    return y, z, w


def _bits(x):
    x = to_numpy(x)
    return x.dtype, x.shape, np.ascontiguousarray(x).tobytes()


def _chain_bits(a, b):
    return [_bits(r) for r in _chain(ap, a, b)]


@pytest.mark.parametrize("dtype", DTYPES)
def test_eager_results_are_the_deferred_bits_fused_or_not(rng, dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # overflow in the integer dtypes
        for name, a_np, b_np in _layouts(rng, dtype):
            a, b = ap.asarray(a_np.copy()), ap.asarray(b_np.copy())
            ap.eval(a, b)
            with ap.fusion.eager(0):
                fused = with_fusion(True, functools.partial(_chain_bits, a, b))
                unfused = with_fusion(False, functools.partial(_chain_bits, a, b))
            with ap.fusion.eager(4096):
                eager = _chain_bits(a, b)
            assert eager == fused == unfused, name
            expected = _chain(np, a_np, b_np)
            for got, want in zip(_chain(ap, a, b), expected, strict=True):
                np.testing.assert_allclose(to_numpy(got), want, rtol=1e-3, err_msg=name)
                assert to_numpy(got).dtype == want.dtype, name


# Views of two 40 x 50 grids, taken in each library (a copy would be contiguous): what a stencil
# or an n-body step computes on, each up to the bound.
VIEWS = [
    ("interior", lambda a, b: (a[1:-1, 1:-1], b[2:, :-2])),
    ("negative strides", lambda a, b: (a[::-1, ::-1], b)),
    ("transposed", lambda a, b: (a.T, b[::-1].T)),
    ("columns", lambda a, b: (a[:, 3], b[:, 7])),
    ("broadcast column", lambda a, b: (a, b[:, :1])),
    ("broadcast row over a strided view", lambda a, b: (a[::2], b[3])),
    ("0-d against a reversed view", lambda a, b: (a[1, 1:2].reshape(()), b[:, ::-1])),
    ("a strided view of one grid against itself", lambda a, b: (a[:-1, 1:], a[1:, :-1])),
]


@pytest.mark.parametrize("dtype", DTYPES)
def test_eager_views_are_the_deferred_bits_and_numpys_values(rng, dtype):
    a_np = random_values(rng, (40, 50), dtype, low=-5, high=5)
    b_np = random_values(rng, (40, 50), dtype, low=-5, high=5)
    a, b = ap.asarray(a_np.copy()), ap.asarray(b_np.copy())
    ap.eval(a, b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # overflow in the integer dtypes
        for name, views in VIEWS:
            x, y = views(a, b)
            with ap.fusion.eager(0):
                fused = with_fusion(True, functools.partial(_chain_bits, x, y))
                unfused = with_fusion(False, functools.partial(_chain_bits, x, y))
            with ap.fusion.eager(2048):
                ap.fusion.reset_stats()
                results = _chain(ap, x, y)
                assert not any(r._is_pending() for r in results), name  # made at the call
                eager = [_bits(r) for r in results]
            assert eager == fused == unfused, name
            for got, want in zip(results, _chain(np, *views(a_np, b_np)), strict=True):
                np.testing.assert_allclose(to_numpy(got), want, rtol=1e-3, err_msg=name)
                assert to_numpy(got).dtype == want.dtype, name
            reduced = [_bits(r) for r in _reductions(ap, x)]
            with ap.fusion.eager(0):
                assert reduced == with_fusion(True, functools.partial(_reduction_bits, x)), name


def _reductions(xp, a):
    """Full reductions a loop reads each iteration (a 0-d result each)."""
    out = [a.sum(), a.max(), a.min(), xp.any(a), xp.all(a), a.sum(keepdims=True)]
    if a.dtype != np.bool_:
        out += [a.prod(), a.mean(), a.sum(dtype=np.float64)]
    if np.issubdtype(a.dtype, np.floating):
        out += [a.var(), a.std()]
    return out


def _reduction_bits(a):
    return [_bits(r) for r in _reductions(ap, a)]


@pytest.mark.parametrize("dtype", DTYPES)
def test_eager_full_reductions_are_the_deferred_bits_fused_or_not(rng, dtype):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # overflow in the integer dtypes
        for name, a_np, _ in _layouts(rng, dtype):
            if a_np.size == 0:
                continue  # max and min raise; sum of nothing stays deferred
            a = ap.asarray(a_np.copy())
            ap.eval(a)
            with ap.fusion.eager(0):
                fused = with_fusion(True, functools.partial(_reduction_bits, a))
                unfused = with_fusion(False, functools.partial(_reduction_bits, a))
            with ap.fusion.eager(4096):
                eager = _reduction_bits(a)
            assert eager == fused == unfused, name
            for got, want in zip(_reductions(ap, a), _reductions(np, a_np), strict=True):
                # sums' rounding scales with their terms (a sum may cancel to near 0)
                np.testing.assert_allclose(to_numpy(got), want, rtol=2e-3,
                                           atol=sum_atol(a_np, ulps=8), err_msg=name)
                assert to_numpy(got).dtype == np.asarray(want).dtype, name


def test_full_reductions_of_computed_arrays_are_computed_at_the_call():
    x = ap.asarray(np.linspace(0, 1, 1000, dtype=np.float32))
    ap.eval(x)
    with ap.fusion.eager(2048):
        s, groups = _groups_run(lambda: x.sum())
        assert groups == 1 and not s._is_pending()
        assert float(s) == float(np.linspace(0, 1, 1000, dtype=np.float32).sum())
        empty = ap.asarray(np.zeros(0, np.float32))
        assert empty.sum()._is_pending()  # nothing to read: left to the deferred path
        with pytest.raises(ValueError, match="zero-size"):
            empty.max()
        big = ap.asarray(np.full(4, 1e308))
        ap.eval(big)
        with pytest.warns(RuntimeWarning, match="overflow"):
            total = big.sum()
        assert not total._is_pending() and np.isinf(to_numpy(total))


def test_computed_operands_are_computed_at_the_call():
    x = ap.asarray(np.linspace(0, 1, 100, dtype=np.float32))
    ap.eval(x)
    with ap.fusion.eager(2048):
        y, groups = _groups_run(lambda: x * 2.0)
        assert groups == 1 and not y._is_pending()
        # A chain: each op reads a computed result, so each runs at once.
        z, groups = _groups_run(lambda: (x * 2.0 + 1.0) * x)
        assert groups == 3 and not z._is_pending()
    with ap.fusion.eager(0):
        y, groups = _groups_run(lambda: x * 2.0 + 1.0)
        assert groups == 0 and y._is_pending()
    np.testing.assert_array_equal(to_numpy(y), to_numpy(x) * np.float32(2) + np.float32(1))


def test_what_stays_deferred():
    with ap.fusion.eager(2048):
        big = ap.asarray(np.ones(2049, np.float32))
        small = ap.asarray(np.ones(2048, np.float32))
        ap.eval(big, small)
        assert (big + 1)._is_pending()  # above the bound
        assert not (small + 1)._is_pending()  # at it
        grid = ap.asarray(np.ones((20, 20)))
        ap.eval(grid)
        assert not (grid[:, ::2] + 1)._is_pending()  # 200 strided elements: any layout
        assert not (grid[1:-1, 1:-1].T * grid[:-2, 1:-1])._is_pending()
        assert not (grid[:, :1] + grid)._is_pending()  # a broadcast operand
        larger = ap.asarray(np.ones((50, 50)))
        ap.eval(larger)
        assert (larger[:, ::-1] + 1)._is_pending()  # 2500 elements: above the bound
        pending = big.sum(keepdims=True) * small  # a pending operand
        assert pending._is_pending()
        assert big.sum()._is_pending()  # a full reduction of more than the bound
        assert small.reshape(32, 64).sum(axis=1)._is_pending()  # not over every axis
        with ap.fusion.eager(0):
            assert (small + 1)._is_pending()
            assert small.sum()._is_pending()
    np.testing.assert_array_equal(to_numpy(pending), np.full(2048, 2049, np.float32))


def test_eager_bound_setting():
    was = ap.fusion.eager_elements()
    try:
        ap.fusion.set_eager_elements(10)
        assert ap.fusion.eager_elements() == 10
        ap.fusion.set_eager_elements(-3)
        assert ap.fusion.eager_elements() == 0
    finally:
        ap.fusion.set_eager_elements(was)
    with ap.fusion.eager(5):
        assert ap.fusion.eager_elements() == 5
    assert ap.fusion.eager_elements() == was


def test_floating_point_errors_are_reported_at_the_call():
    x = ap.asarray(np.array([1.0, 2.0, -1.0]))
    ap.eval(x)
    with ap.fusion.eager(2048):
        with pytest.warns(RuntimeWarning, match="divide by zero encountered in divide"):
            y = x / 0.0
        assert not y._is_pending()
        with np.errstate(invalid="raise"), pytest.raises(FloatingPointError, match="invalid value"):
            ap.sqrt(x - 2.0)
    with np.errstate(all="ignore"):
        expected = np.array([1.0, 2.0, -1.0]) / 0.0
    np.testing.assert_array_equal(to_numpy(y), expected)


def test_eager_results_are_written_by_in_place_operators(rng):
    a_np = random_values(rng, (5, 6), np.float64)
    a = ap.asarray(a_np.copy())
    ap.eval(a)
    view = a[1:4]
    with ap.fusion.eager(2048):
        a += a[::-1]
        a_np += a_np[::-1]
        view *= 2.0
        a_np[1:4] *= 2.0
    np.testing.assert_array_equal(to_numpy(a), a_np)
