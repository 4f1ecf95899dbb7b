"""Integer-array and boolean-mask indexing against NumPy: reading (where the advanced
dimensions go, adjacent or separated, mixed with slices, integers, Ellipsis and None) and
assignment (broadcast values, masks with scalars), over dtypes, layouts, empty results,
negative indices and both devices; out-of-range indices raise IndexError naming the index."""

import numpy as np
import pytest

import accelpy as ap
from helpers import (
    ALL_DTYPES,
    assert_matches,
    make_array,
    random_values,
    to_device,
)

SHAPE = (5, 6, 7)


def idx(rng, n, shape, negative=True):
    """Random integer indices into a dimension of length n (negative ones too), with repeats."""
    lo = -n if negative else 0
    return rng.integers(lo, n, size=shape)


# Index expressions over an array of SHAPE, as functions of (rng, xp-converter): each returns
# the key. The same key object is applied to NumPy and (converted) to accelpy.
KEYS = {
    "1d": lambda r: (idx(r, 5, 8),),
    "list": lambda r: ([0, -1, 3, 3],),
    "2d_index": lambda r: (idx(r, 5, (2, 3)),),
    "second_axis": lambda r: (slice(None), idx(r, 6, 4)),
    "last_axis": lambda r: (Ellipsis, idx(r, 7, (2, 2))),
    "adjacent_pair": lambda r: (slice(1, 4), idx(r, 6, 3), idx(r, 7, 3)),
    "separated": lambda r: (idx(r, 5, 4), slice(None), idx(r, 7, 4)),
    "separated_bcast": lambda r: (idx(r, 5, (3, 1)), slice(None, None, 2), idx(r, 7, (1, 2))),
    "int_and_array_adjacent": lambda r: (slice(None), 2, idx(r, 7, 3)),
    "int_and_array_separated": lambda r: (1, slice(None), idx(r, 7, 3)),
    "all_three": lambda r: (idx(r, 5, 2), idx(r, 6, 2), idx(r, 7, 2)),
    "newaxis_first": lambda r: (None, idx(r, 5, 3)),
    "newaxis_between": lambda r: (idx(r, 5, 3), None, idx(r, 6, 3)),
    "slice_step_neg": lambda r: (slice(None, None, -2), idx(r, 6, 4), slice(1, None)),
    "empty_index": lambda r: (np.zeros(0, dtype=np.int64),),
    "empty_in_middle": lambda r: (slice(None), np.zeros((0, 2), dtype=np.int64)),
    "mask_full": lambda r: (r.random(SHAPE) < 0.5,),
    "mask_leading": lambda r: (r.random((5, 6)) < 0.5,),
    "mask_middle": lambda r: (slice(None), r.random(6) < 0.5),
    "mask_last_ellipsis": lambda r: (Ellipsis, r.random(7) < 0.5),
    "mask_and_array": lambda r: (r.random(5) < 0.5, slice(None), np.array([1, 2])[:1]),
    "mask_none_true": lambda r: (np.zeros(SHAPE, dtype=bool),),
    "scalar_true": lambda r: (True,),
    "scalar_false": lambda r: (False,),
    "int32_index": lambda r: (idx(r, 5, 4).astype(np.int32), 1),
    "uint8_index": lambda r: (slice(None), idx(r, 6, 4, negative=False).astype(np.uint8)),
}


def convert(key, device):
    return tuple(to_device(k, device) if isinstance(k, np.ndarray) else k for k in key)


@pytest.mark.parametrize("name", list(KEYS))
def test_read_matches_numpy(device, rng, name):
    a_np = random_values(rng, SHAPE, np.float32)
    a = to_device(a_np, device)
    key = KEYS[name](rng)
    expected = a_np[key]
    assert_matches(a[convert(key, device)], expected)
    # Keys given as NumPy arrays and lists work as well.
    assert_matches(a[key], expected)


@pytest.mark.parametrize("layout", ["2d", "3d", "noncontig", "negstride", "transposed",
                                    "strided3d", "bcast_view"])
def test_read_layouts(device, rng, layout):
    a_np, a = make_array(rng, layout, np.float64)
    key = tuple(idx(rng, n, 5) if i % 2 == 0 else slice(None) for i, n in enumerate(a_np.shape))
    assert_matches(a[key], a_np[key])
    mask = rng.random(a_np.shape) < 0.4
    assert_matches(a[mask], a_np[mask])
    assert_matches(a[to_device(mask, device)], a_np[mask])


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_dtypes(device, rng, dtype):
    a_np = random_values(rng, (9, 4), dtype)
    a = to_device(a_np, device)
    i = idx(rng, 9, 6)
    assert_matches(a[i], a_np[i])
    assert_matches(a[:, [3, 0]], a_np[:, [3, 0]])
    mask = rng.random((9, 4)) < 0.5
    assert_matches(a[mask], a_np[mask])
    b_np, b = a_np.copy(), to_device(a_np, device)
    v = random_values(rng, (6, 4), dtype)
    j = rng.permutation(9)[:6]  # no repeats: the result is defined on every device
    b_np[j] = v
    b[j] = to_device(v, device)
    assert_matches(b, b_np)


def test_lazy_operands_and_results(device, rng):
    a_np = random_values(rng, (100,), np.float32)
    a = to_device(a_np, device)
    i_np = idx(rng, 100, 50)
    i = to_device(i_np, device)
    # Pending base, pending indices, and the gathered result used in further arithmetic.
    got = (a * 2)[i + 0] * 3 + 1
    assert_matches(got, (a_np * 2)[i_np] * 3 + 1)
    assert_matches((a + 1)[a > 0], (a_np + 1)[a_np > 0])


ASSIGN_KEYS = {
    "1d_unique": (lambda r: (r.permutation(5)[:3],), lambda r: (3, 6, 7)),
    "value_bcast": (lambda r: (r.permutation(5)[:3],), lambda r: (7,)),
    "second_axis": (lambda r: (slice(None), np.array([4, -1, 0])), lambda r: (5, 3, 7)),
    "separated": (lambda r: (np.array([0, 2]), slice(None), np.array([1, -1])), lambda r: (2, 6)),
    "mask_array_value": (lambda r: (r.random(SHAPE) < 0.5,), None),
    "mask_leading_rows": (lambda r: (r.random((5, 6)) < 0.5,), lambda r: (7,)),
    "scalar_value": (lambda r: (np.array([1, 3]), 2), lambda r: ()),
}


@pytest.mark.parametrize("name", list(ASSIGN_KEYS))
def test_assign_matches_numpy(device, rng, name):
    key_fn, value_shape_fn = ASSIGN_KEYS[name]
    a_np = random_values(rng, SHAPE, np.float32)
    a = to_device(a_np, device)
    key = key_fn(rng)
    vshape = a_np[key].shape if value_shape_fn is None else value_shape_fn(rng)
    v_np = random_values(rng, vshape, np.float32)
    a_np[key] = v_np
    a[convert(key, device)] = to_device(v_np, device)
    assert_matches(a, a_np)


def test_mask_assign_scalar_is_a_where(device, rng):
    a_np = random_values(rng, (40, 3), np.int32)
    a = to_device(a_np, device)
    mask = a_np > 0
    a_np[mask] = -7
    a[a > 0] = -7
    assert_matches(a, a_np)
    # Leading-dimension mask with a Python float into an integer array: the value is cast.
    rows = rng.random(40) < 0.5
    a_np[rows] = 2.75
    a[to_device(rows, device)] = 2.75
    assert_matches(a, a_np)


def test_assign_through_view_and_barrier(device, rng):
    a_np = random_values(rng, (8, 8), np.float64)
    a = to_device(a_np, device)
    pending = a * 1.0  # reads a; must see the old values
    before = a_np.copy()
    view = a[::2]
    view_np = a_np[::2]
    view_np[[0, 3], 1:3] = 5.0
    view[[0, 3], 1:3] = 5.0
    assert_matches(a, a_np)
    assert_matches(pending, before)
    # A value that reads the destination itself.
    a_np[[1, 2]] = a_np[0]
    a[[1, 2]] = a[0]
    assert_matches(a, a_np)


def test_duplicate_indices_last_wins_on_cpu(rng):
    a = ap.zeros(4, device="cpu")
    a[[1, 1, 1]] = ap.asarray([1.0, 2.0, 3.0], device="cpu")
    assert ap.asnumpy(a)[1] == 3.0


@pytest.mark.parametrize("key, axis, size", [
    ((np.array([0, 5]),), 0, 5),
    ((np.array([-6]),), 0, 5),
    ((slice(None), np.array([2, 6])), 1, 6),
    ((Ellipsis, np.array([[9]])), 2, 7),
    ((0, slice(None), np.array([1, 70])), 2, 7),
])
def test_out_of_range_raises(device, rng, key, axis, size):
    a = to_device(random_values(rng, SHAPE, np.float32), device)
    bad = next(int(v) for k in key if isinstance(k, np.ndarray) for v in k.ravel()
               if not -size <= v < size)
    msg = f"index {bad} is out of bounds for axis {axis} with size {size}"
    with pytest.raises(IndexError, match=msg):
        a[convert(key, device)]
    with pytest.raises(IndexError, match=msg):
        a[convert(key, device)] = 1.0
    with pytest.raises(IndexError):
        np.zeros(SHAPE)[key]


@pytest.mark.parametrize("key, exc", [
    ((np.ones(4, dtype=bool),), IndexError),  # mask of the wrong length
    ((np.ones((5, 5), dtype=bool),), IndexError),
    ((np.array([0.5]),), IndexError),  # float indices
    ((np.array([0, 1]), np.array([0, 1, 2])), IndexError),  # do not broadcast
    ((np.array([0]), 0, 0, 0), IndexError),  # too many indices
])
def test_bad_indices(device, rng, key, exc):
    a_np = random_values(rng, SHAPE, np.float32)
    with pytest.raises(exc):
        a_np[key]
    a = to_device(a_np, device)
    with pytest.raises(exc):
        a[convert(key, device)]


@pytest.mark.parametrize("key", [
    lambda a: range(3),  # a range indexes as the array it converts to
    lambda a: range(4, -1, -2),
    lambda a: range(0),
    lambda a: (np.array([0, 2, 4, 0]), range(4)),  # NumPy's quickstart: data[ind, range(n)]
    lambda a: (slice(None), range(1, 6, 2)),
    lambda a: (Ellipsis, range(-1, -4, -1)),
])
def test_sequence_indices(device, rng, key):
    """Sequences other than lists and tuples (range) are integer-array indices, as in NumPy;
    for reading and for assignment."""
    a_np = random_values(rng, SHAPE, np.float32)
    a = to_device(a_np, device)
    assert_matches(a[key(a)], a_np[key(a_np)])
    b, b_np = a.copy(), a_np.copy()
    b[key(b)] = 7.0
    b_np[key(b_np)] = 7.0
    assert_matches(b, b_np)


@pytest.mark.parametrize("key", ["ab", b"ab"])
def test_string_indices_raise(device, key):
    with pytest.raises(IndexError):
        np.zeros(3)[key]
    with pytest.raises(IndexError):
        ap.zeros(3, device=device)[key]


def test_assign_shape_mismatch(device, rng):
    a = to_device(random_values(rng, (5, 3), np.float32), device)
    with pytest.raises(ValueError, match="could not be broadcast"):
        a[[0, 1]] = ap.ones((3, 3))
    with pytest.raises(ValueError, match="read-only"):
        ap.broadcast_to(a[0], (4, 3))[[0]] = 1.0


def test_empty_base(device):
    a = ap.zeros((0, 3))
    assert a[[], :].shape == (0, 3)
    assert a[a > 0].shape == (0,)
    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 0"):
        a[[0]]


@pytest.mark.parametrize("threads", [1, 3, 8])
def test_threaded_cpu_paths(rng, threads):
    """Gathers split across threads start mid-row; selections span many chunks."""
    previous = ap._core._num_threads()
    ap._core._set_num_threads(threads)
    try:
        a_np = random_values(rng, (301, 499), np.float32)
        a = to_device(a_np, "cpu")
        rows, cols = idx(rng, 301, (400, 1)), idx(rng, 499, (1, 300))
        assert_matches(a[rows, cols], a_np[rows, cols])  # 120000 elements, no merging
        assert_matches(a.T[::-1][cols.T, 5:], a_np.T[::-1][cols.T, 5:])
        big_np = random_values(rng, (1 << 18) + 7, np.int16)
        big = to_device(big_np, "cpu")
        assert_matches(big[big > 0], big_np[big_np > 0])
        assert_matches(ap.flatnonzero(big < 0), np.flatnonzero(big_np < 0))
        with pytest.raises(IndexError, match="index 301 is out of bounds for axis 0"):
            a[np.full(100_000, 301)]
    finally:
        ap._core._set_num_threads(previous)


FALLBACK = """
import numpy as np, accelpy as ap
rng = np.random.default_rng(5)
x = rng.standard_normal((3, 70001)).astype(np.float32)[:, ::2]
a = ap.asarray(x, device="cuda")
assert (ap.asnumpy(a[a > 0]) == x[x > 0]).all()
for g, e in zip(ap.nonzero(a < 0), np.nonzero(x < 0)):
    assert (ap.asnumpy(g) == e).all()
c = (x + 1j * x).astype(np.complex128)
assert (ap.asnumpy(ap.asarray(c, device="cuda")[a > 0]) == c[x > 0]).all()
print("ok")
"""


def test_cuda_selection_without_cub():
    """Builds without nvcc select with our own write kernel: forced here by hiding the CUB
    library (ACCELPY_CUB names a file that does not exist)."""
    import os
    import subprocess
    import sys

    if not (ap.cuda.is_available()):
        pytest.skip("no CUDA GPU")
    env = dict(os.environ, ACCELPY_CUB="/nonexistent/libaccel_cub.so")
    r = subprocess.run([sys.executable, "-c", FALLBACK], env=env, capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
