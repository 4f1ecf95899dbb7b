"""Small writes into computed CPU arrays are made at the call (src/core/eager_write.cpp): the same
bits as the evaluator's write (eager evaluation off), NumPy's values, in every dtype and layout;
overlapping, pending, read-by-pending and shared destinations keep the evaluator's way."""

import warnings

import numpy as np
import pytest

import accelpy as ap
from helpers import random_values, sum_atol, to_numpy, with_fusion

pytestmark = pytest.mark.usefixtures("cpu_default")

DTYPES = [np.float64, np.float32, np.float16, np.int32, np.uint8, np.int64, np.complex64, np.bool_]


def _writes(rng, dtype, value_dtype):
    """(key, value) pairs of a[key] = value over a 6 x 7 array, in the layouts programs write."""
    v = random_values(rng, (6, 7), value_dtype, low=0, high=5)
    big = random_values(rng, (2000,), value_dtype, low=0, high=5)
    return [
        ((1, 2), v[0, 0].copy().reshape(())),  # one element from a 0-d array
        ((1, 2), v[0, 0].item()),  # a Python scalar
        ((0, slice(1, -1)), v[1, 1:-1]),  # a row from a row of another array
        ((slice(1, -1), 0), v[1:-1, 3]),  # a column: strided both sides
        ((slice(None, None, -1), 6), v[:, 2]),  # negative strides
        ((slice(2, 4),), v[0]),  # a row broadcast over two
        ((slice(None), slice(None, None, 2)), v[0, 0].item()),  # a scalar over a strided view
        ((slice(0, 0),), v[0, 0].item()),  # empty
        ((), v),  # everything
        ("big", big),  # 2000 contiguous elements of a 1-d array (at the bound)
    ]


def _run(rng_seed, dtype, value_dtype, xp, eager):
    rng = np.random.default_rng(rng_seed)
    a_np = random_values(rng, (6, 7), dtype, low=0, high=5)
    big_np = random_values(rng, (2000,), dtype, low=0, high=5)
    writes = _writes(rng, dtype, value_dtype)
    a, big = (xp.asarray(a_np.copy()), xp.asarray(big_np.copy()))
    if xp is ap:
        ap.eval(a, big)
    with ap.fusion.eager(eager):
        for key, value in writes:
            target = big if key == "big" else a
            key = slice(None) if key == "big" else key
            if xp is ap and isinstance(value, np.ndarray):
                value = ap.asarray(value.copy())
                ap.eval(value)
            target[key] = value
    return to_numpy(a), to_numpy(big)


def _bits(arrays):
    return [(x.dtype, x.shape, x.tobytes()) for x in arrays]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("value_dtype", [np.float64, np.int64, "same"])
def test_writes_at_the_call_are_the_evaluators_bits_and_numpys_values(rng, dtype, value_dtype):
    value_dtype = dtype if value_dtype == "same" else value_dtype
    seed = int(rng.integers(2**31))  # fresh data, the same for the three runs
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # values 0..5 cast without a warning
        eager = _run(seed, dtype, value_dtype, ap, 2048)
        deferred = _run(seed, dtype, value_dtype, ap, 0)
        expected = _run(seed, dtype, value_dtype, np, 0)
    assert _bits(eager) == _bits(deferred)
    for got, want in zip(eager, expected, strict=True):
        np.testing.assert_array_equal(got, want)
        assert got.dtype == want.dtype


@pytest.mark.parametrize(
    "key_dst, key_src",
    [
        ((0, slice(1, -1)), (1, slice(1, -1))),  # disjoint parts of one storage (a boundary copy)
        ((slice(1, None), 0), (slice(None, -1), 0)),  # overlapping, strided
        ((slice(1, None),), (slice(None, -1),)),  # overlapping rows, contiguous
        ((slice(None, -1),), (slice(1, None),)),
        ((slice(None, None, -1), 1), (slice(None), 1)),  # a column reversed onto itself
    ],
)
def test_writes_from_the_same_array(rng, key_dst, key_src):
    a_np = random_values(rng, (6, 7), np.float64)
    for eager in (2048, 0):
        a = ap.asarray(a_np.copy())
        ap.eval(a)
        with ap.fusion.eager(eager):
            a[key_dst] = a[key_src]
        want = a_np.copy()
        want[key_dst] = want[key_src]
        np.testing.assert_array_equal(to_numpy(a), want)


def test_pending_readers_see_the_old_values(rng):
    a_np = random_values(rng, (10,), np.float64)
    a = ap.asarray(a_np.copy())
    ap.eval(a)
    with ap.fusion.eager(2048):
        total = a.sum()  # a reduction: pending, reading a
        a[0] = 100.0
        a[1:3] = a[5:7]
    assert float(total) == pytest.approx(a_np.sum(), rel=1e-15, abs=sum_atol(a_np))
    want = a_np.copy()
    want[0] = 100.0
    want[1:3] = want[5:7]
    np.testing.assert_array_equal(to_numpy(a), want)


def test_pending_values_and_destinations(rng):
    a_np = random_values(rng, (4, 5), np.float32)
    with ap.fusion.eager(2048):
        a = ap.asarray(a_np.copy())
        ap.eval(a)
        a[1, 1] = a.sum()  # a pending value that reads the destination
        z = ap.zeros((3, 3))  # a pending destination
        z[1] = 2.5
        z[0, 0] = a[1, 1]
    want = a_np.copy()
    want[1, 1] = a_np.sum(dtype=np.float32)
    # the sum's rounding scales with its terms (it may cancel): sum_atol, not rtol alone
    np.testing.assert_allclose(to_numpy(a), want, rtol=1e-6, atol=sum_atol(a_np))
    zw = np.zeros((3, 3))
    zw[1] = 2.5
    zw[0, 0] = to_numpy(a)[1, 1]
    np.testing.assert_array_equal(to_numpy(z), zw)


def test_memory_numpy_shares(rng):
    n = random_values(rng, (5,), np.float64)
    a = ap.asarray(n)  # NumPy's memory, still NumPy's: the evaluator's write
    with ap.fusion.eager(2048):
        a[2] = -1.0
        a[3:] = a[:2]
    want = n.copy()
    want[2] = -1.0
    want[3:] = want[:2]
    np.testing.assert_array_equal(to_numpy(a), want)


def test_writes_count_one_group_each(rng):
    a = ap.asarray(random_values(rng, (6, 7), np.float64))
    b = ap.asarray(random_values(rng, (6, 7), np.float64))
    ap.eval(a, b)
    with ap.fusion.eager(2048):
        ap.fusion.reset_stats()
        a[0, 0] = 1.5  # one element and a number: stored with NumPy's casting, no group
        a[1] = b[2]
        a[2:4, ::2] = b[0, ::2]
        assert ap.fusion.stats()["groups_run"] == 2


def test_errors_and_warnings_are_the_evaluators(rng):
    for eager in (2048, 0):
        with ap.fusion.eager(eager):
            a = ap.asarray(np.arange(4, dtype=np.int8))
            ap.eval(a)
            with pytest.raises(OverflowError, match="Python integer 300 out of bounds for int8"):
                a[0] = 300
            ints = ap.asarray(np.zeros(3, np.int32))
            ap.eval(ints)
            bad = ap.asarray(np.array([np.nan, 1.0, 2.0]))
            ap.eval(bad)
            with pytest.warns(RuntimeWarning, match="invalid value encountered in cast"):
                ints[:] = bad
            np.testing.assert_array_equal(to_numpy(ints)[1:], [1, 2])
            with np.errstate(invalid="raise"), pytest.raises(FloatingPointError):
                ints[:] = bad
            ro = ap.broadcast_to(ap.asarray(np.arange(3.0)), (2, 3))
            with pytest.raises(ValueError, match="read-only"):
                ro[0] = 1.0


def test_in_place_operators_on_small_views(rng):
    force_np = random_values(rng, (50, 2), np.float64)
    fvec_np = random_values(rng, (2,), np.float64)
    results = []
    for eager in (2048, 0):
        force, fvec = ap.asarray(force_np.copy()), ap.asarray(fvec_np.copy())
        ap.eval(force, fvec)
        with ap.fusion.eager(eager):
            for i in range(1, 50):
                force[i - 1] -= fvec
                force[i] += fvec * 0.5
        results.append(to_numpy(force))
    want = force_np.copy()
    for i in range(1, 50):
        want[i - 1] -= fvec_np
        want[i] += fvec_np * 0.5
    assert results[0].tobytes() == results[1].tobytes()
    np.testing.assert_array_equal(results[0], want)


def _grid_writes(g, other, v):
    """(key, value) pairs of g[key] = value over a 34 x 34 grid `g`, in the layouts a stencil
    program writes: views of more than 64 elements that are not contiguous, values from the
    grid itself (overlapping extents, disjoint elements), broadcasts and scalars."""
    return [
        ((slice(1, -1), slice(1, -1)), other[1:-1, 1:-1]),  # the interior: 1,024 strided elements
        ((slice(1, -1), slice(1, -1)), v),  # a Python scalar over it
        ((slice(1, -1), 0), g[1:-1, 1]),  # a column from the next one (extents overlap)
        ((slice(1, -1), -1), g[1:-1, -2] + g[1:-1, -3]),  # a computed value
        ((0, slice(1, -1)), g[1, 1:-1]),  # a row from the next one (disjoint)
        ((slice(None, None, -1), slice(None, None, 2)), g[:, 1::2]),  # negative strides
        ((slice(2, None, 2), slice(None)), g[1:-1:2, :]),  # every other row from the ones above
        ((slice(None), slice(None, 17)), g[:, 17:][:, ::-1]),  # half from the other half, mirrored
        ((slice(1, 33), slice(1, 33)), g[1, 1:33]),  # a row broadcast over the interior
        ((slice(1, 33), slice(1, 33)), g[1:33, :1]),  # a column broadcast: extents overlap
        ((slice(1, -1), slice(1, -1)), g[2:, 1:-1].T),  # transposed, overlapping
    ]


@pytest.mark.parametrize("dtype", DTYPES)
def test_strided_views_written_at_the_call(rng, dtype):
    g_np = random_values(rng, (34, 34), dtype, low=0, high=5)
    o_np = random_values(rng, (34, 34), dtype, low=0, high=5)
    scalar = random_values(rng, (), dtype, low=0, high=5).item()

    def run(eager):
        g, o = ap.asarray(g_np.copy()), ap.asarray(o_np.copy())
        ap.eval(g, o)
        with ap.fusion.eager(eager):
            for key, value in _grid_writes(g, o, scalar):
                g[key] = value
        return to_numpy(g)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # integer overflow of the sum
        results = [run(2048), with_fusion(True, lambda: run(0)), with_fusion(False, lambda: run(0))]
    want = g_np.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for key, value in _grid_writes(want, o_np, scalar):
            want[key] = value.copy() if isinstance(value, np.ndarray) else value
    assert results[0].tobytes() == results[1].tobytes() == results[2].tobytes()
    np.testing.assert_array_equal(results[0], want)


def test_strided_grid_writes_are_one_group_each(rng):
    g = ap.asarray(random_values(rng, (34, 34), np.float32))
    ap.eval(g)
    with ap.fusion.eager(2048):
        ap.fusion.reset_stats()
        g[1:-1, 1:-1] = 0.5  # a fill of a strided view
        g[1:-1, 0] = g[1:-1, 1]  # overlapping extents, gathered first
        g[1:-1, 1:-1] = g[:-2, 1:-1] + g[2:, 1:-1]  # the add at the call, then the write
        assert ap.fusion.stats()["groups_run"] == 4


def test_overlapping_writes_above_one_block(rng):
    # Above one block the executor writes block by block: an overlapping strided copy keeps the
    # evaluator's way (through a copy), whatever the bound says.
    a_np = random_values(rng, (3000, 2), np.float64)
    for eager in (8192, 2048, 0):
        a = ap.asarray(a_np.copy())
        ap.eval(a)
        with ap.fusion.eager(eager):
            a[1:, 0] = a[:-1, 0]
            a[:-1, 1] = a[1:, 1][::-1]
        want = a_np.copy()
        want[1:, 0] = want[:-1, 0].copy()
        want[:-1, 1] = want[1:, 1][::-1].copy()
        np.testing.assert_array_equal(to_numpy(a), want)
