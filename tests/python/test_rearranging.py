"""flip, roll, tile, repeat, the split family, pad, meshgrid, tril/triu, diag, diagonal, trace,
diff: against NumPy over dtypes, layouts (views, broadcasts, negative strides), axes (negative
included), and the errors NumPy raises."""

import numpy as np
import pytest

import accelpy as ap
from helpers import (
    BF16,
    LAYOUTS,
    VIEW_LAYOUTS,
    assert_matches,
    assert_same_outcome,
    make_array,
    random_values,
    to_device,
)
from helpers import assert_exact as same
from helpers import assert_raises_like as raises_like

DTYPES = [np.dtype(t) for t in (np.bool_, np.int8, np.uint16, np.int64, np.float16, np.float32,
                                np.float64, np.complex128)] + [BF16]
ND_LAYOUTS = [lay for lay in VIEW_LAYOUTS if lay != "0d"]


def check(np_fn, ap_fn, **kw):
    out = assert_same_outcome(np_fn, ap_fn)
    if out is None:
        return
    expected, got = out
    if isinstance(expected, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(expected)
        for e, g in zip(expected, got, strict=True):
            assert_matches(g, e, **kw)
    else:
        assert_matches(got, expected, **kw)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_flip(rng, device, dtype, layout):
    a_np, a = make_array(rng, layout, dtype)
    # 1, -2 and NumPy's integers: the errors and the general path beside the view that a
    # vector's flip over None, 0 or -1 takes at once.
    for axis in [None, 0, -1, (0, -1), 1, -2, np.int64(0)]:
        check(lambda axis=axis: np.flip(a_np, axis), lambda axis=axis: ap.flip(a, axis))
    if a_np.ndim >= 2:
        check(lambda: np.fliplr(a_np), lambda: ap.fliplr(a))
    check(lambda: np.flipud(a_np), lambda: ap.flipud(a))


def test_flip_is_a_view(device):
    a = ap.arange(12).reshape(3, 4)
    f = ap.flip(a, 1)
    a[0, 0] = 100
    assert int(f[0, 3]) == 100
    v = ap.arange(6)[1:5]
    for g in (ap.flip(v), ap.flip(v, 0), ap.flip(v, -1), ap.flip(ap.flip(v)[::2])):
        assert g.base is not None and ap.shares_memory(g, v)
    v[0] = 50
    assert int(ap.flip(v)[-1]) == 50


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_roll(rng, device, dtype, layout):
    a_np, a = make_array(rng, layout, dtype)
    # One int shift along one int axis takes the core's path (_core._roll_axis); huge shifts,
    # NumPy integers and bad axes are checked on both paths.
    for shift, axis in [(3, None), (-2, None), (1, 0), (7, -1), ((1, 2), (0, -1)), (2, (0, 0)),
                        (0, 0), (-13, 0), (2**62 + 3, 0), (-(2**63), -1), (1, 5),
                        (1, -4), (np.int64(-2), 1)]:
        check(lambda s=shift, x=axis: np.roll(a_np, s, x), lambda s=shift, x=axis: ap.roll(a, s, x))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_tile_and_repeat(rng, device, dtype, layout):
    a_np, a = make_array(rng, layout, dtype)
    for reps in [2, (2, 1), (1, 3, 2), 0, (2, 0)]:
        check(lambda r=reps: np.tile(a_np, r), lambda r=reps: ap.tile(a, r))
    for repeats, axis in [(2, None), (3, 0), (1, -1), (0, 0), ([2], -1)]:
        check(lambda r=repeats, x=axis: np.repeat(a_np, r, x),
              lambda r=repeats, x=axis: ap.repeat(a, r, x))
    if a_np.ndim >= 1 and a_np.shape[0] > 0:
        counts = rng.integers(0, 3, a_np.shape[0])
        check(lambda: np.repeat(a_np, counts, 0), lambda: ap.repeat(a, counts, 0))
        check(lambda: a_np.repeat(2, axis=0), lambda: a.repeat(2, axis=0))


def test_repeat_and_tile_errors(device):
    a = ap.arange(6).reshape(2, 3)
    a_np = np.arange(6).reshape(2, 3)
    for args in [(-1, 0), ([1, 2, 3], 0), (2, 2), (2.5, 0)]:
        check(lambda args=args: np.repeat(a_np, *args), lambda args=args: ap.repeat(a, *args))
    check(lambda: np.tile(a_np, -1), lambda: ap.tile(a, -1))


@pytest.mark.parametrize("dtype", [np.dtype(np.int32), np.dtype(np.float32), BF16])
@pytest.mark.parametrize("layout", ["1d", "2d", "3d", "noncontig", "negstride", "transposed",
                                    "strided3d", "empty"])
def test_split_family(rng, device, dtype, layout):
    a_np, a = make_array(rng, layout, dtype)
    for fn, args in [("array_split", (3,)), ("array_split", (3, -1)), ("split", ([1, 3],)),
                     ("split", (1,)), ("array_split", ([2, 1, 5], 0)), ("split", (2,)),
                     ("hsplit", (1,)), ("vsplit", (1,)), ("dsplit", (2,)), ("split", (0,))]:
        check(lambda fn=fn, args=args: getattr(np, fn)(a_np, *args),
              lambda fn=fn, args=args: getattr(ap, fn)(a, *args))


def test_split_gives_views(device):
    a = ap.arange(10)
    parts = ap.split(a, 5)
    a[2] = 99
    assert int(parts[1][0]) == 99


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", ND_LAYOUTS)
@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
def test_pad(rng, device, dtype, layout, mode):
    a_np, a = make_array(rng, layout, dtype)
    widths = [1, (2, 0), ((0, 3),) * a_np.ndim, 0]
    if mode in ("reflect", "symmetric", "wrap"):
        widths += [9, (7, 1)]  # wider than the axis: reflected (wrapped) repeatedly
    for w in widths:
        check(lambda w=w: np.pad(a_np, w, mode), lambda w=w: ap.pad(a, w, mode))
    if mode == "constant" and dtype.kind != "b":
        vals = ((1, 2),) + ((3, 4),) * (a_np.ndim - 1)
        check(lambda: np.pad(a_np, 2, constant_values=vals),
              lambda: ap.pad(a, 2, constant_values=vals))


@pytest.mark.parametrize("dtype", [np.dtype(t) for t in (np.int8, np.uint16, np.int64, np.float16,
                                                          np.float32, np.float64)])
@pytest.mark.parametrize("layout", ND_LAYOUTS)
@pytest.mark.parametrize("mode, kwargs", [
    ("maximum", {}), ("minimum", {"stat_length": 2}), ("mean", {}),
    ("mean", {"stat_length": (1, 3)}), ("median", {}), ("median", {"stat_length": 3}),
    ("linear_ramp", {}), ("linear_ramp", {"end_values": (5, -3)}),
    ("reflect", {"reflect_type": "odd"}), ("symmetric", {"reflect_type": "odd"})])
def test_pad_computed_modes(rng, device, dtype, layout, mode, kwargs):
    """The modes whose border is computed from the values: statistics of the ends, linear
    ramps to end values, odd reflections (wider than the axis too)."""
    a_np, a = make_array(rng, layout, dtype)
    if a_np.size == 0:
        return  # NumPy raises for these modes on empty axes; test_pad_errors covers it
    if dtype.kind in "iu":  # small values: the odd reflections stay in range
        a_np = np.asarray(a_np) % 8
        a = ap.asarray(a_np)
    widths = [1, (2, 0), ((0, 3),) * a_np.ndim]
    if mode in ("reflect", "symmetric"):
        widths += [9, (7, 1)]
    for w in widths:
        tol = {}
        if dtype.kind == "f" and mode != "median":
            # Means sum in another order, ramps round their steps, odd reflections wider than the
            # axis repeat 2 edge - x: ulps of the terms, which cancel, so absolute.
            terms = np.abs(np.pad(a_np.astype(np.float64), w, mode, **kwargs))
            tol = {"atol": 16 * float(np.finfo(dtype).eps) * max(float(np.max(terms)), 8.0)}
        check(lambda w=w: np.pad(a_np, w, mode, **kwargs), lambda w=w: ap.pad(a, w, mode, **kwargs),
              **tol)
    e_np = np.pad(np.zeros((0, 3)), 1, "empty")
    assert ap.pad(ap.asarray(np.zeros((0, 3))), 1, "empty").shape == e_np.shape


def test_pad_errors(device):
    a_np = np.arange(6.0).reshape(2, 3)
    a = ap.asarray(a_np)
    for args, kw in [((-1,), {}), (((1, 2, 3),), {}), ((1.5,), {}), ((1, "bogus"), {}),
                     ((1, "edge"), {"constant_values": 3})]:
        check(lambda args=args, kw=kw: np.pad(a_np, *args, **kw),
              lambda args=args, kw=kw: ap.pad(a, *args, **kw))
    with pytest.raises(ValueError, match="stat_length of 0"):
        ap.pad(a, 1, "maximum", stat_length=0)
    with pytest.raises(ValueError, match="reflect_type"):
        ap.pad(a, 1, "reflect", reflect_type="bogus")
    e_np = np.zeros((0, 3))
    check(lambda: np.pad(e_np, 1, "edge"), lambda: ap.pad(ap.asarray(e_np), 1, "edge"))


def test_pad_fuses(device):
    was = ap._core._fusion_enabled()
    ap._core._set_fusion(True)
    try:
        a_np = np.arange(20.0).reshape(4, 5)
        a = ap.asarray(a_np)
        out = ap.pad(a, 1) * 2
        assert_matches(out, np.pad(a_np, 1) * 2)
    finally:
        ap._core._set_fusion(was)


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
def test_meshgrid(rng, device, indexing, sparse):
    xs_np = [rng.standard_normal(n).astype(np.float32) for n in (3, 4, 2)]
    xs = [ap.asarray(x) for x in xs_np]
    for k in (1, 2, 3):
        check(lambda k=k: np.meshgrid(*xs_np[:k], indexing=indexing, sparse=sparse),
              lambda k=k: ap.meshgrid(*xs[:k], indexing=indexing, sparse=sparse))
    check(lambda: np.meshgrid(*xs_np, indexing="bad"), lambda: ap.meshgrid(*xs, indexing="bad"))
    assert ap.meshgrid() == ()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", ["2d", "3d", "noncontig", "transposed", "strided3d",
                                    "bcast_view", "empty", "1d"])
def test_tril_triu(rng, device, dtype, layout):
    a_np, a = make_array(rng, layout, dtype)
    for k in (0, 1, -2, 10, -10):
        check(lambda k=k: np.tril(a_np, k), lambda k=k: ap.tril(a, k))
        check(lambda k=k: np.triu(a_np, k), lambda k=k: ap.triu(a, k))


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.bool_])
def test_tri(device, dtype):
    for args in [(3,), (4, 2), (3, 5, 1), (4, 4, -2), (0, 3), (2, 3, 10)]:
        check(lambda args=args: np.tri(*args, dtype=dtype), lambda args=args: ap.tri(*args,
                                                                                    dtype=dtype))
    check(lambda: np.tri(-1), lambda: ap.tri(-1))


def test_tril_fuses_into_one_kernel(device):
    was = ap._core._fusion_enabled()
    ap._core._set_fusion(True)
    try:
        a_np = np.arange(30.0).reshape(5, 6)
        a = ap.asarray(a_np.copy())
        ap.fusion.reset_stats()
        out = ap.tril(a, 1) * 2 + 1
        ap.eval(out)
        assert ap.fusion.stats()["groups_run"] == 1
        assert_matches(out, np.tril(a_np, 1) * 2 + 1)
    finally:
        ap._core._set_fusion(was)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_diagonal_and_trace(rng, device, dtype, layout):
    a_np, a = make_array(rng, layout, dtype)
    # Sums of up to 9 values in [-10, 10]: accelpy accumulates floats in a wider type, NumPy in
    # the dtype, so cancellation may differ by the dtype's eps times the terms' magnitude.
    tol = {"atol": 90 * 4 * float(np.finfo(dtype).eps)} if dtype.kind in "fc" else {}
    for args in [(), (1,), (-1,), (0, -1, 0), (2, 1, -1), (0, 0, 0), (100,), (-100,), (0, 0, 5)]:
        check(lambda args=args: np.diagonal(a_np, *args),
              lambda args=args: ap.diagonal(a, *args))
        if dtype != BF16 and dtype.kind != "b":
            check(lambda args=args: np.trace(a_np, *args), lambda args=args: ap.trace(a, *args),
                  ulps=64, **tol)
    if a_np.ndim >= 2:
        check(lambda: a_np.diagonal(1), lambda: a.diagonal(1))
        check(lambda: a_np.trace(dtype=np.float64), lambda: a.trace(dtype=np.float64), ulps=64)


def test_diagonal_is_read_only_view(device):
    a = ap.arange(16.0).reshape(4, 4)
    d = ap.diagonal(a)
    a[1, 1] = -5
    assert float(d[1]) == -5
    with pytest.raises(ValueError):
        d[0] = 3


@pytest.mark.parametrize("dtype", DTYPES)
def test_diag(rng, device, dtype):
    from helpers import random_values

    for n in (0, 1, 5):
        v_np = random_values(rng, (n,), dtype)
        v = ap.asarray(v_np)
        for k in (0, 2, -3):
            check(lambda k=k, v_np=v_np: np.diag(v_np, k), lambda k=k, v=v: ap.diag(v, k))
        m_np = random_values(rng, (n, n + 1), dtype)
        m = ap.asarray(m_np)
        for k in (0, 1, -1):
            check(lambda k=k, m_np=m_np: np.diag(m_np, k), lambda k=k, m=m: ap.diag(m, k))
    check(lambda: np.diag(np.zeros((2, 2, 2))), lambda: ap.diag(ap.zeros((2, 2, 2))))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_diff(rng, device, dtype, layout):
    a_np, a = make_array(rng, layout, dtype)
    for n, axis in [(1, -1), (2, 0), (0, -1), (3, -1), (1, 5)]:
        check(lambda n=n, x=axis: np.diff(a_np, n, x), lambda n=n, x=axis: ap.diff(a, n, x))
    if a_np.ndim >= 1 and dtype.kind != "b":
        # bfloat16 with a Python int: ml_dtypes 0.6 has no promotion (TypeError), 0.7 has one.
        pre = np.asarray(1, dtype=BF16) if dtype == BF16 else 0
        check(lambda: np.diff(a_np, prepend=pre, append=a_np[..., :1]),
              lambda: ap.diff(a, prepend=pre, append=a[..., :1]))
    check(lambda: np.diff(a_np, -1), lambda: ap.diff(a, -1))


@pytest.mark.parametrize("fn,args", [("flip", (3,)), ("roll", (1, 4)), ("diagonal", (0, 0, 3)),
                                     ("tril", ()), ("diff", (1, -4)), ("split", (3, 1)),
                                     ("array_split", (0,))])
def test_axis_and_shape_errors(device, fn, args):
    a_np = np.arange(6.0).reshape(2, 3)
    if fn == "tril":
        a_np = np.arange(3.0)
    a = ap.asarray(a_np)
    check(lambda: getattr(np, fn)(a_np, *args), lambda: getattr(ap, fn)(a, *args))


# The stack family, block, atleast_nd, append/delete/insert, resize, rot90, rollaxis,
# trim_zeros and ediff1d against NumPy: every operand layout, several dtypes, both devices; bad
# arguments raise NumPy's exception types.


SHAPING_DTYPES = [np.bool_, np.int8, np.uint16, np.int64, np.float32, np.float64, np.complex64]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", SHAPING_DTYPES, ids=str)
def test_atleast_nd(layout, dtype, device, rng):
    a_np, a = make_array(rng, layout, dtype, device)
    for name in ("atleast_1d", "atleast_2d", "atleast_3d"):
        same(getattr(ap, name)(a), getattr(np, name)(a_np))
        same(getattr(ap, name)(a, a[...]), getattr(np, name)(a_np, a_np))
        assert getattr(ap, name)(a).device == a.device


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", SHAPING_DTYPES, ids=str)
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
    raises_like(lambda: np.dstack({x_np.tobytes()}), lambda: ap.dstack({x}))  # a set


@pytest.mark.parametrize("layout", LAYOUTS)
def test_stacks_of_an_array(layout, device, rng):
    """An array is a sequence of its rows, as NumPy reads it: ``dstack(mgrid[a:b, c:d])``
    (From Python to NumPy's Bridson sampling)."""
    a_np, a = make_array(rng, layout, np.float32, device)
    for name in ("hstack", "vstack", "dstack", "column_stack"):
        try:
            expected = getattr(np, name)(a_np)
        except (TypeError, ValueError):  # a 0-d array has no rows, an empty one none to join
            raises_like(lambda: getattr(np, name)(a_np), lambda: getattr(ap, name)(a))  # noqa: B023
            continue
        same(getattr(ap, name)(a), expected)
    same(ap.dstack(ap.mgrid[1:4, 2:6]), np.dstack(np.mgrid[1:4, 2:6]))
    same(ap.vstack(range(3)), np.vstack(range(3)))


@pytest.mark.parametrize("dtype", SHAPING_DTYPES, ids=str)
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
