"""take, take_along_axis, put, put_along_axis, nonzero, argwhere, flatnonzero, one-argument
where, compress, extract and count_nonzero against NumPy, on both devices: dtypes, axes, modes,
empty inputs, non-contiguous operands, and the errors NumPy raises."""

import numpy as np
import pytest

import accelpy as ap
from helpers import ALL_DTYPES, assert_matches, make_array, random_values, to_device


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_take(device, rng, axis, mode):
    a_np = random_values(rng, (4, 5, 6), np.float32)
    a = to_device(a_np, device)
    n = a_np.size if axis is None else a_np.shape[axis]
    lo, hi = (-n, n) if mode == "raise" else (-3 * n, 3 * n)
    i = rng.integers(lo, hi, size=(2, 3))
    assert_matches(ap.take(a, i, axis=axis, mode=mode), np.take(a_np, i, axis=axis, mode=mode))
    assert_matches(a.take(to_device(i, device), axis=axis, mode=mode),
                   a_np.take(i, axis=axis, mode=mode))
    # A scalar index drops the axis.
    assert_matches(ap.take(a, 2, axis=axis), np.take(a_np, 2, axis=axis))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_take_dtypes_and_layouts(device, rng, dtype):
    for layout in ("1d", "noncontig", "negstride", "transposed"):
        a_np, a = make_array(rng, layout, dtype)
        i = rng.integers(-a_np.shape[0], a_np.shape[0], size=7)
        assert_matches(ap.take(a, i, axis=0), np.take(a_np, i, axis=0))


def test_take_errors(device, rng):
    a = to_device(random_values(rng, (4, 5), np.float32), device)
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 1 with size 5"):
        ap.take(a, [0, 5], axis=1)
    with pytest.raises(np.exceptions.AxisError):
        ap.take(a, [0], axis=2)
    with pytest.raises(ValueError, match="clipmode"):
        ap.take(a, [0], mode="bogus")
    with pytest.raises(TypeError):
        ap.take(a, np.array([0.5]))
    with pytest.raises(IndexError, match="empty"):
        ap.take(ap.zeros((0,)), [0], mode="wrap")


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_take_along_axis(device, rng, axis):
    a_np = random_values(rng, (4, 5, 6), np.float64)
    a = to_device(a_np, device)
    if axis is None:
        i = rng.integers(-a_np.size, a_np.size, size=9)
    else:
        shape = list(a_np.shape)
        shape[axis] = 3
        shape[0 if axis != 0 else 1] = 1  # broadcast against the array
        i = rng.integers(-a_np.shape[axis], a_np.shape[axis], size=shape)
    assert_matches(ap.take_along_axis(a, to_device(i, device), axis),
                   np.take_along_axis(a_np, i, axis))
    # argsort-style use: sorting indices along the last axis.
    order = np.argsort(a_np, axis=-1)
    assert_matches(ap.take_along_axis(a, to_device(order, device), -1),
                   np.take_along_axis(a_np, order, -1))


def test_take_along_axis_errors(device, rng):
    a = to_device(random_values(rng, (4, 5), np.float32), device)
    with pytest.raises(ValueError, match="same number of dimensions"):
        ap.take_along_axis(a, ap.zeros(3, dtype=ap.int64), 0)
    with pytest.raises(IndexError, match="integer"):
        ap.take_along_axis(a, ap.zeros((1, 1)), 0)
    with pytest.raises(IndexError, match="out of bounds"):
        ap.take_along_axis(a, ap.full((1, 5), 4, dtype=ap.int64), 0)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("layout", ["2d", "transposed"])
def test_put(device, rng, mode, layout):
    a_np, a = make_array(rng, layout, np.int32)
    a_np = np.array(a_np)
    a = to_device(a_np, device) if layout == "2d" else a
    n = a_np.size
    # Distinct targets after the mode maps them (a GPU writes duplicates in any order).
    i = rng.permutation(n)[:5] - (n if mode == "raise" else 0)
    if mode == "wrap":
        i = i + rng.integers(-2, 3, size=5) * n
    elif mode == "clip":
        i = rng.permutation(n - 2)[:5] + 1
        i[0], i[1] = -5, n + 3  # clip to the first and last elements
    v = random_values(rng, (5,), np.int32)
    np.put(a_np, i, v, mode=mode)
    ap.put(a, to_device(i, device), to_device(v, device), mode=mode)
    assert_matches(a, a_np)
    # Values repeat cyclically; a method too.
    np.put(a_np, [0, 1, 2], [7, 8])
    a.put([0, 1, 2], [7, 8])
    assert_matches(a, a_np)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_put_along_axis(device, rng, axis):
    a_np = random_values(rng, (4, 5, 6), np.float32)
    a = to_device(a_np, device)
    # One index per line along the axis: no duplicates, so every device agrees.
    shape = list(a_np.shape)
    shape[axis] = 1
    i = rng.integers(0, a_np.shape[axis], size=shape)
    v = random_values(rng, shape, np.float32)
    np.put_along_axis(a_np, i, v, axis)
    ap.put_along_axis(a, to_device(i, device), to_device(v, device), axis)
    assert_matches(a, a_np)
    np.put_along_axis(a_np, i, 3.5, axis)
    ap.put_along_axis(a, to_device(i, device), 3.5, axis)
    assert_matches(a, a_np)


@pytest.mark.parametrize("shape", [(0,), (1,), (17,), (4, 5), (3, 0, 2), (2, 3, 4, 5)])
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float32, np.complex64], ids=str)
def test_nonzero_family(device, rng, shape, dtype):
    a_np = random_values(rng, shape, dtype, zeros=0.5) if dtype != np.bool_ else \
        random_values(rng, shape, dtype)
    a = to_device(a_np, device)
    got, exp = ap.nonzero(a), np.nonzero(a_np)
    assert len(got) == len(exp)
    for g, e in zip(got, exp, strict=True):
        assert_matches(g, e)
    for g, e in zip(a.nonzero(), exp, strict=True):
        assert_matches(g, e)
    for g, e in zip(ap.where(a), np.where(a_np), strict=True):
        assert_matches(g, e)
    assert_matches(ap.flatnonzero(a), np.flatnonzero(a_np))
    assert_matches(ap.argwhere(a), np.argwhere(a_np))
    assert ap.count_nonzero(a) == np.count_nonzero(a_np)


def test_nonzero_large_and_strided(device, rng):
    # Several selection tiles, a ragged tail, and a non-contiguous input.
    base_np = random_values(rng, (3, 70001), np.float32, zeros=0.7)
    view_np = base_np[:, ::3]
    view = to_device(base_np, device)[:, ::3]
    for g, e in zip(ap.nonzero(view), np.nonzero(view_np), strict=True):
        assert_matches(g, e)
    assert_matches(view[view > 0], view_np[view_np > 0])
    assert_matches(ap.flatnonzero(view), np.flatnonzero(view_np))


def test_nonzero_0d_raises(device):
    with pytest.raises(ValueError, match="0d"):
        ap.nonzero(ap.asarray(1.0))
    assert ap.argwhere(ap.asarray(3.0)).shape == np.argwhere(np.float64(3.0)).shape
    assert ap.argwhere(ap.asarray(0.0)).shape == np.argwhere(np.float64(0.0)).shape


@pytest.mark.parametrize("axis", [None, 0, 1])
def test_compress_extract(device, rng, axis):
    a_np = random_values(rng, (4, 6), np.float32)
    a = to_device(a_np, device)
    n = a_np.size if axis is None else a_np.shape[axis]
    cond = rng.random(n - 1) < 0.5  # shorter than the axis: the rest is dropped
    assert_matches(ap.compress(to_device(cond, device), a, axis=axis),
                   np.compress(cond, a_np, axis=axis))
    assert_matches(a.compress(cond, axis=axis), a_np.compress(cond, axis=axis))
    c2 = rng.random((4, 6)) < 0.5
    assert_matches(ap.extract(to_device(c2, device), a), np.extract(c2, a_np))
    with pytest.raises(ValueError, match="1-d"):
        ap.compress(c2, a)
    too_long = np.ones(n + 1, dtype=bool)
    with pytest.raises(IndexError):
        np.compress(too_long, a_np, axis=axis)
    with pytest.raises(IndexError):
        ap.compress(too_long, a, axis=axis)


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2), -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_count_nonzero(device, rng, axis, keepdims):
    a_np = random_values(rng, (3, 4, 5), np.float64, zeros=0.4)
    a = to_device(a_np, device)
    got = ap.count_nonzero(a, axis=axis, keepdims=keepdims)
    exp = np.count_nonzero(a_np, axis=axis, keepdims=keepdims)
    if isinstance(exp, int):  # a 0-d array, as the Array API asks, where NumPy gives an int
        assert got == exp and isinstance(got, ap.ndarray) and got.shape == ()
    else:
        assert_matches(got, exp)


def test_where_with_one_of_x_y(device):
    with pytest.raises(ValueError, match="both or neither"):
        ap.where(ap.ones(3) > 0, ap.ones(3))
