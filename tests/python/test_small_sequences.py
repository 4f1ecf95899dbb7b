"""Flat lists and tuples of Python numbers and NumPy scalars made arrays in the core
(convert_sequence.cpp), the literal-list path of accelpy.array, and iteration's end without a
StopIteration object: NumPy's dtypes, values and errors."""

import numpy as np
import pytest

import accelpy as ap
from accelpy import _core
from helpers import random_values, to_numpy

pytestmark = pytest.mark.usefixtures("cpu_default")

SEQUENCES = [
    [True, False, True],
    (True,),
    [1, 0, 1],
    (True, 2, -3),
    [1, 2.5],
    (False, 0.5),
    [1j, 2, True, 0.25],
    [2**63 - 1, -(2**63)],
    [9007199254740993, 1.0],  # an int that rounds to double
    [float("nan"), float("inf"), -0.0],
    [complex(float("nan"), -0.0)],
    list(range(256)),
    [np.float32(1.5), 2.0],  # NumPy's scalars too, promoted as np.array promotes them
    [True, np.bool_(False)],
]
# NumPy's way (None from the core): past int64, nested, empty, long, arrays among the items.
OTHERS = [
    [2**63],
    [[1, 2], [3, 4]],
    [],
    list(range(257)),
    [np.float64(1.0), np.array(2.0)],  # a NumPy array among the items
]


@pytest.mark.parametrize("seq", SEQUENCES + OTHERS, ids=repr)
def test_asarray_and_array_of_python_numbers(seq):
    want = np.asarray(seq)
    for got in (ap.asarray(seq), ap.array(seq), ap.asarray(list(seq)), ap.array(tuple(seq))):
        assert got.dtype == want.dtype
        assert got.shape == want.shape
        assert to_numpy(got).tobytes() == want.tobytes()


@pytest.mark.parametrize("seq", [*OTHERS, [2**64, 1]], ids=repr)
def test_what_the_core_leaves_to_numpy(seq):
    assert _core._from_sequence(seq) is None


def test_made_in_the_core_and_fresh():
    a = _core._from_sequence((1, 0, 1))
    assert a.dtype == np.int64 and not a._is_pending()
    a[0] = 5  # its own memory
    assert _core._from_sequence((1, 0, 1)).tolist() == [1, 0, 1]
    assert _core._from_sequence([1.5], "cpu").tolist() == [1.5]


def test_sequences_as_operands(rng):
    v_np = random_values(rng, (3,), np.int64, low=0, high=3)
    f_np = random_values(rng, (2,), np.float32)
    v, f = ap.asarray(v_np), ap.asarray(f_np)
    mask = (1, 0, 1)
    cases = [
        (ap.bitwise_and(mask, v), np.bitwise_and(mask, v_np)),
        (mask == ap.bitwise_and(mask, v), mask == np.bitwise_and(mask, v_np)),
        (v == [0, 1, 2], v_np == [0, 1, 2]),
        (f + [1.5, 2], f_np + [1.5, 2]),  # float64 values, float32 array: NumPy 2's result dtype
        (f * (True, False), f_np * (True, False)),
        ([1j, 2] - f, [1j, 2] - f_np),
    ]
    for got, want in cases:
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(to_numpy(got), want)
    with pytest.raises(ValueError, match="could not be broadcast|broadcast"):
        v + [1, 2]


def test_array_of_a_literal_list(rng):
    x_np = random_values(rng, (4,), np.float64)
    x = ap.asarray(x_np)
    got = ap.array([x[0] * 2, x[1]])
    np.testing.assert_array_equal(to_numpy(got), np.array([x_np[0] * 2, x_np[1]]))
    assert ap.array([1, 2], dtype=np.float32).dtype == np.float32
    assert ap.array([x[0], x[1]], dtype=np.float32).dtype == np.float32
    assert ap.array([[1, 2]], order="K").shape == (1, 2)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        ap.array([1, 2], copy=False)
    with pytest.raises(TypeError, match="ndmin must be an integer"):
        ap.array([1, 2], ndmin=0.0)
    assert ap.array([1, 2], ndmin=3).shape == (1, 1, 2)


@pytest.mark.parametrize("shape", [(2,), (3, 2), (0,), (0, 3), (1,)])
def test_iteration_ends_as_numpys(rng, shape):
    a_np = random_values(rng, shape, np.float64)
    a = ap.asarray(a_np)
    rows = list(a)
    assert len(rows) == shape[0]
    for got, want in zip(rows, a_np, strict=True):
        np.testing.assert_array_equal(to_numpy(got), want)
    it = iter(a)
    for _ in range(shape[0]):
        next(it)
    with pytest.raises(StopIteration):
        next(it)
    with pytest.raises(StopIteration):
        it.__next__()
    assert next(it, "end") == "end"


def test_unpacking(rng):
    d = ap.asarray(random_values(rng, (2,), np.float64))
    dx, dy = d
    assert float(dx) == float(d[0]) and float(dy) == float(d[1])
    with pytest.raises(ValueError, match="too many values to unpack"):
        (dx,) = d
    with pytest.raises(ValueError, match="not enough values to unpack"):
        dx, dy, dz = d
    with pytest.raises(TypeError, match="iteration over a 0-d array"):
        iter(ap.asarray(1.0))


@pytest.mark.parametrize(
    "dtypes", [(np.float64, np.float64), (np.float32, np.int64), (np.bool_, np.complex64)]
)
def test_small_joins_are_computed_at_the_call(rng, dtypes):
    parts_np = [
        random_values(rng, shape, dt) for shape, dt in zip([(3, 2), (1, 2)], dtypes, strict=True)
    ]
    want = np.concatenate(parts_np)
    results = []
    for eager in (2048, 0):
        with ap.fusion.eager(eager):
            parts = [ap.asarray(p.copy()) for p in parts_np]
            ap.eval(*parts)
            joined = ap.concatenate(parts)
            assert joined._is_pending() == (eager == 0)
            stacked = ap.stack([parts[0][0], parts[0][1]])  # two rows of one array
            parts[0][0, 0] = 7  # a later write: the join holds the values from before it
            results.append((to_numpy(joined), to_numpy(stacked)))
    for joined, stacked in results:
        assert joined.dtype == want.dtype and joined.tobytes() == want.tobytes()
        np.testing.assert_array_equal(stacked, np.stack([parts_np[0][0], parts_np[0][1]]))
    x = ap.asarray(random_values(rng, (2,), np.float64))
    with ap.fusion.eager(2048):
        ap.eval(x)
        assert not ap.array([x[0] * 2, x[1]])._is_pending()
        many = ap.asarray(np.ones(3000))
        ap.eval(many)
        # a pending part (a full reduction above the bound; small ones are computed at the call)
        assert ap.concatenate([many.sum(keepdims=True), x])._is_pending()
        big = ap.asarray(np.ones(1500))
        ap.eval(big)
        assert ap.concatenate([big, big])._is_pending()  # 3000 elements: above the bound
        assert ap.concatenate([big[:0], big[:0]]).shape == (0,)
