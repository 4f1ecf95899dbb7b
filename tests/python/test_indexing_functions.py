"""take, take_along_axis, put, put_along_axis, nonzero, argwhere, flatnonzero, one-argument
where, compress, extract and count_nonzero against NumPy, on both devices: dtypes, axes, modes,
empty inputs, non-contiguous operands, and the errors NumPy raises."""

from functools import partial

import numpy as np
import pytest

import accelpy as ap
from helpers import ALL_DTYPES, LAYOUTS, assert_matches, make_array, random_values, to_device
from helpers import assert_exact as same
from helpers import assert_raises_like as raises_like


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


# Index helpers (indices, ix_, tril/triu/diag indices, diagflat, unravel_index,
# ravel_multi_index), choose/select/piecewise and the in-place writers (fill_diagonal, copyto,
# putmask, place) against NumPy, on both devices; bad arguments raise NumPy's exception types.


DTYPES = [np.bool_, np.int8, np.uint16, np.int64, np.float32, np.float64, np.complex64]


def compare(np_fn, ap_fn):
    """ap_fn's result equals np_fn's, or both raise the same exception type."""
    try:
        expected = np_fn()
    except Exception as exc:  # noqa: BLE001 - the type is compared next
        with pytest.raises(type(exc)):
            ap_fn()
        return
    same(ap_fn(), expected)


def in_place(fn, target, *args):
    fn(target, *args)
    return target


def on(device, arrays):
    for a in arrays if isinstance(arrays, tuple) else (arrays,):
        assert a.device == device


@pytest.mark.parametrize("dims", [(), (0,), (4,), (2, 3), (3, 0, 2), (2, 3, 4)])
@pytest.mark.parametrize("dtype", [int, np.int32, np.float32], ids=str)
def test_indices(dims, dtype, device):
    same(ap.indices(dims, dtype=dtype), np.indices(dims, dtype=dtype))
    same(ap.indices(dims, dtype=dtype, sparse=True), np.indices(dims, dtype=dtype, sparse=True))
    on(device, ap.indices(dims))


def test_ix(device, rng):
    x_np = rng.integers(-5, 5, 4)
    m_np = rng.random(6) < 0.5
    y_np = random_values(rng, (3,), np.uint8)
    x, m, y = (to_device(v, device) for v in (x_np, m_np, y_np))
    same(ap.ix_(x, m, y), np.ix_(x_np, m_np, y_np))
    same(ap.ix_([2, 0], [], x[::-1]), np.ix_([2, 0], [], x_np[::-1]))
    same(ap.ix_(), np.ix_())
    a_np = random_values(rng, (4, 6, 3), np.float32)
    same(to_device(a_np, device)[ap.ix_(x % 4, m, y % 3)], a_np[np.ix_(x_np % 4, m_np, y_np % 3)])
    raises_like(lambda: np.ix_(np.ones((2, 2))), lambda: ap.ix_(ap.ones((2, 2))))


@pytest.mark.parametrize("n,m", [(0, None), (1, None), (4, None), (4, 6), (6, 3), (5, 0)])
def test_tri_indices(n, m, device, rng):
    for k in range(-3, 4):
        same(ap.tril_indices(n, k, m), np.tril_indices(n, k, m))
        same(ap.triu_indices(n, k, m), np.triu_indices(n, k, m))
        on(device, ap.tril_indices(n, k, m))
    a_np, _ = make_array(rng, "2d", np.float32)
    a = to_device(a_np, device)
    k = int(rng.integers(-3, 4))
    same(ap.tril_indices_from(a, k), np.tril_indices_from(a_np, k))
    same(ap.triu_indices_from(a.T, k), np.triu_indices_from(a_np.T, k))
    same(a[ap.triu_indices_from(a, k)], a_np[np.triu_indices_from(a_np, k)])
    raises_like(lambda: np.tril_indices_from(a_np[0]), lambda: ap.tril_indices_from(a[0]))


def test_diag_indices(device, rng):
    for n, nd in [(0, 2), (3, 2), (4, 3), (2, 1)]:
        same(ap.diag_indices(n, nd), np.diag_indices(n, nd))
    a_np = random_values(rng, (3, 3, 3), np.int16)
    a = to_device(a_np, device)
    same(ap.diag_indices_from(a), np.diag_indices_from(a_np))
    same(a[ap.diag_indices_from(a)], a_np[np.diag_indices_from(a_np)])
    on(device, ap.diag_indices_from(a))
    raises_like(lambda: np.diag_indices_from(a_np[0, 0]), lambda: ap.diag_indices_from(a[0, 0]))
    raises_like(lambda: np.diag_indices_from(a_np[:2]), lambda: ap.diag_indices_from(a[:2]))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_diagflat(layout, dtype, device, rng):
    v_np, v = make_array(rng, layout, dtype, device)
    for k in (-2, 0, 1):
        same(ap.diagflat(v, k), np.diagflat(v_np, k))


@pytest.mark.parametrize("shape", [(7,), (3, 4), (2, 3, 5), (4, 1, 2)])
@pytest.mark.parametrize("order", ["C", "F"])
def test_unravel_ravel(shape, order, device, rng):
    size = int(np.prod(shape))
    for idx_shape in [(), (0,), (9,), (2, 3)]:
        flat_np = rng.integers(0, size, idx_shape)
        flat = to_device(flat_np, device)
        got = ap.unravel_index(flat, shape, order=order)
        same(got, np.unravel_index(flat_np, shape, order=order))
        on(device, got)
        multi_np = np.unravel_index(flat_np, shape, order=order)
        same(ap.ravel_multi_index(got, shape, order=order),
             np.ravel_multi_index(multi_np, shape, order=order))
    same(ap.unravel_index(ap.asarray(size - 1, dtype=np.uint8), shape),
         np.unravel_index(np.uint8(size - 1), shape))
    out_np = tuple(rng.integers(-2 * n, 2 * n + 1, 6) for n in shape)
    out = tuple(to_device(v, device) for v in out_np)
    for mode in ("wrap", "clip", ("clip",) + ("wrap",) * (len(shape) - 1)):
        same(ap.ravel_multi_index(out, shape, mode=mode, order=order),
             np.ravel_multi_index(out_np, shape, mode=mode, order=order))
    raises_like(lambda: np.ravel_multi_index(out_np, shape),
                lambda: ap.ravel_multi_index(out, shape))
    raises_like(lambda: np.unravel_index(size, shape), lambda: ap.unravel_index(size, shape))
    raises_like(lambda: np.unravel_index(-1, shape), lambda: ap.unravel_index(-1, shape))
    raises_like(lambda: np.unravel_index(1.0, shape), lambda: ap.unravel_index(1.0, shape))
    raises_like(lambda: np.ravel_multi_index(out_np[:-1], shape),
                lambda: ap.ravel_multi_index(out[:-1], shape))


@pytest.mark.parametrize("shape,wrap", [((4, 4), False), ((7, 3), False), ((7, 3), True),
                                        ((3, 7), True), ((3, 3, 3), False), ((0, 0), False)])
@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex64], ids=str)
def test_fill_diagonal(shape, wrap, dtype, device, rng):
    a_np = random_values(rng, shape, dtype)
    a = to_device(a_np, device)
    for val in (random_values(rng, (), dtype)[()], random_values(rng, (2,), dtype)):
        np.fill_diagonal(a_np, val, wrap=wrap)
        ap.fill_diagonal(a, val, wrap=wrap)
        same(a, a_np)
    raises_like(lambda: np.fill_diagonal(a_np.reshape(-1), 1),
                lambda: ap.fill_diagonal(a.reshape(-1), 1))
    b_np = np.zeros((2, 3, 4))
    raises_like(lambda: np.fill_diagonal(b_np, 1), lambda: ap.fill_diagonal(ap.zeros((2, 3, 4)), 1))


@pytest.mark.parametrize("layout", ["1d", "2d", "3d", "noncontig", "negstride", "transposed",
                                    "0d", "empty"])
@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.complex128], ids=str)
def test_copyto(layout, dtype, device, rng):
    src_np, src = make_array(rng, layout, dtype, device)
    base_np = np.array(random_values(rng, src_np.shape, dtype))
    for where_np in (True, rng.random(src_np.shape) < 0.5):
        dst_np, dst = base_np.copy(), to_device(base_np, device)
        where = where_np if where_np is True else to_device(where_np, device)
        np.copyto(dst_np, src_np, where=where_np)
        ap.copyto(dst, src, where=where)
        same(dst, dst_np)
    # Broadcast sources, Python scalars and casting rules.
    dst_np, dst = base_np.copy(), to_device(base_np, device)
    np.copyto(dst_np, 3)
    ap.copyto(dst, 3)
    same(dst, dst_np)
    dst_np = np.zeros((3,) + src_np.shape, dtype)
    dst = to_device(dst_np, device)
    np.copyto(dst_np, src_np, casting="no")
    ap.copyto(dst, src, casting="no")
    same(dst, dst_np)
    i_np = np.zeros(src_np.shape, np.int8)
    compare(lambda: np.copyto(i_np, src_np) or i_np,
            lambda: ap.copyto(i := to_device(i_np, device), src) or i)
    raises_like(lambda: np.copyto(i_np, src_np * 1.5),
                lambda: ap.copyto(to_device(i_np, device), src * 1.5))
    raises_like(lambda: np.copyto(i_np, 1.5), lambda: ap.copyto(to_device(i_np, device), 1.5))
    raises_like(lambda: np.copyto(i_np, 1000), lambda: ap.copyto(to_device(i_np, device), 1000))
    raises_like(lambda: np.copyto(i_np, src_np, casting="bogus"),
                lambda: ap.copyto(to_device(i_np, device), src, casting="bogus"))


@pytest.mark.parametrize("layout", ["1d", "2d", "3d", "0d", "empty"])
@pytest.mark.parametrize("dtype", [np.uint8, np.float64], ids=str)
def test_putmask_place(layout, dtype, device, rng):
    a_np, _ = make_array(rng, layout, dtype)
    mask_np = rng.random(a_np.shape) < 0.5
    for values_np in (random_values(rng, (3,), dtype), random_values(rng, (1,), np.int64) % 50,
                      random_values(rng, (0,), dtype)):
        mask = to_device(mask_np, device)
        values = to_device(values_np, device)
        for np_fn, ap_fn in ((np.putmask, ap.putmask), (np.place, ap.place)):
            compare(partial(in_place, np_fn, a_np.copy(), mask_np, values_np),
                    partial(in_place, ap_fn, to_device(a_np, device), mask, values))
    raises_like(lambda: np.putmask(np.zeros(3), np.ones(2, bool), 1),
                lambda: ap.putmask(ap.zeros(3), ap.ones(2, dtype=bool), 1))


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.complex64], ids=str)
def test_select(dtype, device, rng):
    x_np = random_values(rng, (4, 5), dtype)
    y_np = random_values(rng, (5,), dtype)
    c1_np = rng.random((4, 5)) < 0.3
    c2_np = rng.random((4, 1)) < 0.5
    x, y, c1, c2 = (to_device(v, device) for v in (x_np, y_np, c1_np, c2_np))
    same(ap.select([c1, c2], [x, y]), np.select([c1_np, c2_np], [x_np, y_np]))
    same(ap.select([c1, c2], [x, 2], default=7), np.select([c1_np, c2_np], [x_np, 2], default=7))
    same(ap.select([c2], [y], default=x), np.select([c2_np], [y_np], default=x_np))
    same(ap.select([c2[:1, :1]], [3], default=x), np.select([c2_np[:1, :1]], [3], default=x_np))
    got = ap.select([c1], [x])
    assert got.device == x.device
    raises_like(lambda: np.select([c1_np], [x_np, y_np]), lambda: ap.select([c1], [x, y]))
    raises_like(lambda: np.select([], []), lambda: ap.select([], []))
    raises_like(lambda: np.select([x_np], [y_np]), lambda: ap.select([x], [y]))


@pytest.mark.parametrize("layout", ["0d", "1d", "2d", "noncontig", "negstride", "empty"])
@pytest.mark.parametrize("dtype", [np.int64, np.float32], ids=str)
def test_piecewise(layout, dtype, device, rng):
    x_np, x = make_array(rng, layout, dtype, device, low=-10, high=10)
    conds_np = [x_np < 0, x_np > 5]
    conds = [x < 0, x > 5]
    funcs = [lambda v: v * 2, 3]
    same(ap.piecewise(x, conds, funcs), np.piecewise(x_np, conds_np, funcs))
    funcs3 = [lambda v, s: v - s, lambda v, s: v + s, lambda v, s: v * 0 + s]
    same(ap.piecewise(x, conds, funcs3, 1), np.piecewise(x_np, conds_np, funcs3, 1))
    compare(lambda: np.piecewise(x_np, x_np < 1, [lambda v: -v]),
            lambda: ap.piecewise(x, x < 1, [lambda v: -v]))
    compare(lambda: np.piecewise(x_np, [x_np < 1], [lambda v: -v]),
            lambda: ap.piecewise(x, [x < 1], [lambda v: -v]))
    raises_like(lambda: np.piecewise(x_np, conds_np, [1]), lambda: ap.piecewise(x, conds, [1]))


@pytest.mark.parametrize("dtype", [np.int8, np.float64], ids=str)
def test_choose(dtype, device, rng):
    choices_np = [random_values(rng, (3, 4), dtype), random_values(rng, (4,), dtype),
                  random_values(rng, (3, 1), dtype)]
    choices = [to_device(c, device) for c in choices_np]
    idx_np = rng.integers(0, 3, (3, 4))
    idx = to_device(idx_np, device)
    same(ap.choose(idx, choices), np.choose(idx_np, choices_np))
    same(ap.choose(idx[:, ::-1], choices), np.choose(idx_np[:, ::-1], choices_np))
    far_np = rng.integers(-7, 8, (2, 3, 4))
    far = to_device(far_np, device)
    for mode in ("wrap", "clip"):
        same(ap.choose(far, choices, mode=mode), np.choose(far_np, choices_np, mode=mode))
    out_np = np.empty((3, 4), dtype)
    out = to_device(out_np, device)
    np.choose(idx_np, choices_np, out=out_np)
    assert ap.choose(idx, choices, out=out) is out
    same(out, out_np)
    raises_like(lambda: np.choose(far_np, choices_np), lambda: ap.choose(far, choices))
    raises_like(lambda: np.choose(far_np, choices_np, mode="bad"),
                lambda: ap.choose(far, choices, mode="bad"))
    raises_like(lambda: np.choose(idx_np * 1.0, choices_np), lambda: ap.choose(idx * 1.0, choices))
