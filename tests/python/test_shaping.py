"""The stack family, block, atleast_nd, append/delete/insert, resize, rot90, rollaxis,
trim_zeros and ediff1d against NumPy: every operand layout, several dtypes, both devices; bad
arguments raise NumPy's exception types."""

import numpy as np
import pytest

import accelpy as ap
from helpers import (
    LAYOUTS,
    make_array,
    random_values,
    to_device,
)
from helpers import assert_exact as same
from helpers import assert_raises_like as raises_like

DTYPES = [np.bool_, np.int8, np.uint16, np.int64, np.float32, np.float64, np.complex64]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_atleast_nd(layout, dtype, device, rng):
    a_np, a = make_array(rng, layout, dtype, device)
    for name in ("atleast_1d", "atleast_2d", "atleast_3d"):
        same(getattr(ap, name)(a), getattr(np, name)(a_np))
        same(getattr(ap, name)(a, a[...]), getattr(np, name)(a_np, a_np))
        assert getattr(ap, name)(a).device == a.device


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_stacks(layout, dtype, device, rng):
    a_np, a = make_array(rng, layout, dtype, device)
    b_np, b = make_array(rng, layout, dtype, device)
    for name in ("hstack", "vstack", "dstack", "column_stack"):
        expected = getattr(np, name)((a_np, b_np, a_np))
        got = getattr(ap, name)((a, b, a))
        same(got, expected)
        assert got.device == a.device


def test_stacks_mixed(device, rng):
    x_np = random_values(rng, (4,), np.int32)
    m_np = random_values(rng, (4, 3), np.float32)
    x, m = to_device(x_np, device), to_device(m_np, device)
    same(ap.column_stack([x, m, x]), np.column_stack([x_np, m_np, x_np]))
    same(ap.hstack([m, m[:, :1]]), np.hstack([m_np, m_np[:, :1]]))
    same(ap.vstack([m.T, x]), np.vstack([m_np.T, x_np]))
    same(ap.hstack([x, m[0]], dtype=np.float64), np.hstack([x_np, m_np[0]], dtype=np.float64))
    same(ap.vstack([x, x], dtype=np.int8, casting="unsafe"),
         np.vstack([x_np, x_np], dtype=np.int8, casting="unsafe"))
    raises_like(lambda: np.vstack([m_np, m_np], dtype=np.int32),
                lambda: ap.vstack([m, m], dtype=np.int32))
    raises_like(lambda: np.hstack(x_np for _ in range(2)), lambda: ap.hstack(x for _ in range(2)))
    raises_like(lambda: np.vstack([]), lambda: ap.vstack([]))
    raises_like(lambda: np.hstack([m_np, x_np]), lambda: ap.hstack([m, x]))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_block(dtype, device, rng):
    a_np = random_values(rng, (2, 3), dtype)
    b_np = random_values(rng, (2, 2), dtype)
    c_np = random_values(rng, (5,), dtype)
    a, b, c = (to_device(x, device) for x in (a_np, b_np, c_np))
    same(ap.block([[a, b], [c]]), np.block([[a_np, b_np], [c_np]]))
    same(ap.block([a, b]), np.block([a_np, b_np]))
    same(ap.block([c, c[::-1]]), np.block([c_np, c_np[::-1]]))
    same(ap.block([[[a]], [[a[::-1]]]]), np.block([[[a_np]], [[a_np[::-1]]]]))
    same(ap.block(a), np.block(a_np))
    s_np = random_values(rng, (), dtype)
    same(ap.block([[to_device(s_np, device), c[:1]]]), np.block([[s_np, c_np[:1]]]))
    raises_like(lambda: np.block((a_np, b_np)), lambda: ap.block((a, b)))
    raises_like(lambda: np.block([]), lambda: ap.block([]))
    raises_like(lambda: np.block([[a_np], b_np]), lambda: ap.block([[a], b]))
    raises_like(lambda: np.block([a_np, c_np]), lambda: ap.block([a, c]))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.int16, np.float64, np.complex128], ids=str)
def test_append(layout, dtype, device, rng):
    a_np, a = make_array(rng, layout, dtype, device)
    v_np = random_values(rng, (3,), np.float32)
    same(ap.append(a, to_device(v_np, device)), np.append(a_np, v_np))
    for axis in range(a_np.ndim):
        same(ap.append(a, a, axis=axis), np.append(a_np, a_np, axis=axis))


@pytest.mark.parametrize("layout", ["1d", "2d", "3d", "noncontig", "negstride", "transposed",
                                    "empty"])
def test_delete(layout, device, rng):
    a_np, a = make_array(rng, layout, np.float32, device)
    for axis in [None, *range(a_np.ndim)]:
        n = a_np.size if axis is None else a_np.shape[axis]
        objs = [slice(None, None, 2), slice(-1, 0, -2), [], np.array([], dtype=np.int64)]
        if n:
            objs += [0, -1, int(rng.integers(n)), list(rng.integers(-n, n, 3)),
                     rng.random(n) < 0.5]
        for obj in objs:
            same(ap.delete(a, obj, axis=axis), np.delete(a_np, obj, axis=axis))
        raises_like(lambda axis=axis, n=n: np.delete(a_np, n, axis=axis),
                    lambda axis=axis, n=n: ap.delete(a, n, axis=axis))
        raises_like(lambda axis=axis, n=n: np.delete(a_np, np.ones(n + 1, bool), axis=axis),
                    lambda axis=axis, n=n: ap.delete(a, np.ones(n + 1, bool), axis=axis))
    raises_like(lambda: np.delete(a_np, [0.5]), lambda: ap.delete(a, [0.5]))
    raises_like(lambda: np.delete(a_np, 0, axis=5), lambda: ap.delete(a, 0, axis=5))


@pytest.mark.parametrize("layout", ["1d", "2d", "3d", "noncontig", "negstride", "transposed"])
@pytest.mark.parametrize("dtype", [np.int32, np.float64], ids=str)
def test_insert(layout, dtype, device, rng):
    a_np, a = make_array(rng, layout, dtype, device)
    for axis in [None, *range(a_np.ndim)]:
        n = a_np.size if axis is None else a_np.shape[axis]
        cases = [(0, 7.5), (n, -3), (-1, random_values(rng, (1,), dtype)),
                 ([int(rng.integers(n + 1))], 11), (list(rng.integers(-n, n + 1, 4)), 5),
                 (slice(None, None, 2), 9), (rng.random(n) < 0.4, 2), ([], 1)]
        if axis is not None and a_np.ndim > 1:
            other = list(a_np.shape)
            other[axis] = 2
            v_np = random_values(rng, tuple(other), dtype)
            cases.append(([1, 0], v_np))
            cases.append((1, random_values(rng, a_np.shape[:axis] + a_np.shape[axis + 1:],
                                           dtype)))
        for obj, values in cases:
            v = to_device(values, device) if isinstance(values, np.ndarray) else values
            got = ap.insert(a, obj, v, axis=axis)
            same(got, np.insert(a_np, obj, values, axis=axis))
            assert got.device == a.device
        raises_like(lambda axis=axis, n=n: np.insert(a_np, n + 1, 0, axis=axis),
                    lambda axis=axis, n=n: ap.insert(a, n + 1, 0, axis=axis))
        raises_like(lambda axis=axis: np.insert(a_np, [[0]], 0, axis=axis),
                    lambda axis=axis: ap.insert(a, [[0]], 0, axis=axis))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_resize(layout, device, rng):
    a_np, a = make_array(rng, layout, np.int64, device)
    for shape in [(), 0, 1, 7, (3, 5), (2, 0), (4, 3, 2), (40,)]:
        same(ap.resize(a, shape), np.resize(a_np, shape))
    raises_like(lambda: np.resize(a_np, (-1, 2)), lambda: ap.resize(a, (-1, 2)))


@pytest.mark.parametrize("layout", ["2d", "3d", "noncontig", "negstride", "transposed",
                                    "broadcast", "empty"])
def test_rot90_rollaxis(layout, device, rng):
    a_np, a = make_array(rng, layout, np.float32, device)
    nd = a_np.ndim
    for k in range(-5, 6):
        for axes in ([(0, 1), (1, 0), (-1, 0)] if nd >= 2 else []):
            same(ap.rot90(a, k, axes), np.rot90(a_np, k, axes))
    for axis in range(-nd, nd):
        for start in range(-nd, nd + 1):
            same(ap.rollaxis(a, axis, start), np.rollaxis(a_np, axis, start))
    raises_like(lambda: np.rollaxis(a_np, nd), lambda: ap.rollaxis(a, nd))
    raises_like(lambda: np.rollaxis(a_np, 0, nd + 1), lambda: ap.rollaxis(a, 0, nd + 1))
    if nd >= 2:
        raises_like(lambda: np.rot90(a_np, 1, (0, 0)), lambda: ap.rot90(a, 1, (0, 0)))
        raises_like(lambda: np.rot90(a_np, 1, (0, nd)), lambda: ap.rot90(a, 1, (0, nd)))
        raises_like(lambda: np.rot90(a_np, 1, (0,)), lambda: ap.rot90(a, 1, (0,)))


@pytest.mark.parametrize("shape", [(12,), (5, 6), (3, 4, 5)])
@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.bool_], ids=str)
def test_trim_zeros(shape, dtype, device, rng):
    base = random_values(rng, shape, dtype, zeros=0.3)
    # Zero borders of random widths, so there is something to trim on every axis.
    f_np = np.zeros_like(base)
    inner = tuple(slice(int(rng.integers(0, 2)), n - int(rng.integers(0, 2))) for n in shape)
    f_np[inner] = base[inner]
    f = to_device(f_np, device)
    axes = [None, *range(len(shape))] + ([(0, -1)] if len(shape) > 1 else [])
    for trim in ("fb", "f", "b", "BF"):
        for axis in axes:
            same(ap.trim_zeros(f, trim, axis=axis), np.trim_zeros(f_np, trim, axis=axis))
    zeros_np = np.zeros(shape, dtype)
    same(ap.trim_zeros(to_device(zeros_np, device)), np.trim_zeros(zeros_np))
    raises_like(lambda: np.trim_zeros(f_np, "x"), lambda: ap.trim_zeros(f, "x"))
    raises_like(lambda: np.trim_zeros(f_np, axis=(0, -len(shape))),
                lambda: ap.trim_zeros(f, axis=(0, -len(shape))))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.int8, np.uint32, np.float32, np.complex128], ids=str)
def test_ediff1d(layout, dtype, device, rng):
    a_np, a = make_array(rng, layout, dtype, device)
    same(ap.ediff1d(a), np.ediff1d(a_np))
    begin = random_values(rng, (2,), dtype)
    same(ap.ediff1d(a, to_begin=to_device(begin, device), to_end=begin[:1]),
         np.ediff1d(a_np, to_begin=begin, to_end=begin[:1]))
    # A Python int is an int64 array to NumPy here: fine for signed and inexact dtypes only.
    if np.dtype(dtype).kind == "u":
        raises_like(lambda: np.ediff1d(a_np, to_end=3), lambda: ap.ediff1d(a, to_end=3))
    else:
        same(ap.ediff1d(a, to_end=3), np.ediff1d(a_np, to_end=3))
    if np.dtype(dtype).kind in "iu":
        raises_like(lambda: np.ediff1d(a_np, to_end=[1.5]), lambda: ap.ediff1d(a, to_end=[1.5]))
