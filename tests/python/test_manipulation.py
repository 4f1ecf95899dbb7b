"""Manipulation against NumPy: values, and view-versus-copy semantics checked by writing
through the result (the input must change exactly when NumPy's does)."""

import copy

import numpy as np
import pytest

import accelpy as ap
from helpers import (
    ALL_DTYPES,
    VIEW_LAYOUTS,
    assert_matches,
    assert_same_outcome,
    make_array,
    np_outcome,
    random_values,
    sum_atol,
    to_device,
)


def check_view(rng, a_np, a, res_np, res):
    """res equals NumPy's res_np and aliases the input exactly as NumPy's does: writing
    through the result changes the input iff it does in NumPy; read-only iff NumPy's is."""
    assert_matches(res, res_np)
    if res_np.size == 0:
        return
    values = random_values(rng, res_np.shape, res_np.dtype)
    if not res_np.flags.writeable:
        with pytest.raises(ValueError):
            res[...] = values
        return
    res_np[...] = values
    res[...] = values
    assert_matches(res, res_np)
    assert_matches(a, a_np)
    if np.shares_memory(res_np, a_np):
        assert res._storage_id() == a._storage_id()


def reshape_targets(shape):
    size = int(np.prod(shape))
    targets = [(size,), (-1,), shape, (1, size), (size, 1, 1), (1, *shape, 1)]
    if len(shape) >= 2:
        targets += [(shape[0], -1), (-1, shape[-1]), shape[::-1]]
        if shape[0] * shape[1] > 1:
            targets.append((shape[0] * shape[1], -1))
    if len(shape) == 3:
        targets.append((shape[0], shape[1] * shape[2]))
    return targets


@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_reshape(layout, device, rng):
    for dtype in (np.float32, np.int8, np.complex128):
        a_np, a = make_array(rng, layout, dtype, device)
        for target in reshape_targets(a_np.shape):
            a_np, a = make_array(rng, layout, dtype, device)
            outcome = assert_same_outcome(lambda: a_np.reshape(target),  # noqa: B023
                                          lambda: a.reshape(target))  # noqa: B023
            if outcome is None:  # -1 next to a 0 length is ambiguous: NumPy refuses it
                continue
            check_view(rng, a_np, a, *outcome)
            a_np, a = make_array(rng, layout, dtype, device)
            check_view(rng, a_np, a, np.reshape(a_np, target), ap.reshape(a, target))
            if len(target) > 1:
                a_np, a = make_array(rng, layout, dtype, device)
                check_view(rng, a_np, a, a_np.reshape(*target), a.reshape(*target))


def test_reshape_errors(device, rng):
    a_np, a = make_array(rng, "2d", np.float64, device)
    for target in [(-1, -1), (4, 9), (-1, 4), (-2, -1), (0, -1), (36,)]:
        assert assert_same_outcome(lambda: a_np.reshape(target),  # noqa: B023
                                   lambda: a.reshape(target)) is None  # noqa: B023
    assert assert_same_outcome(lambda: a_np.reshape(), lambda: a.reshape()) is None
    # Any negative length is the unknown one.
    assert_matches(a.reshape(-2, 35), a_np.reshape(-2, 35))
    e_np, e = make_array(rng, "empty", np.float64, device)
    for target in [(0, -1), (3, 0, 5), (-1,), (-1, 0), (5, -1), (-1, 0, 2)]:
        outcome = assert_same_outcome(lambda: e_np.reshape(target),  # noqa: B023
                                      lambda: e.reshape(target))  # noqa: B023
        if outcome is not None:
            assert_matches(outcome[1], outcome[0])


def test_reshape_of_pending_result_is_a_view(device, rng):
    a_np, a = make_array(rng, "3d", np.float32, device)
    b = a * 2.0
    v = b.reshape(6, 4)
    assert v._storage_id() == b._storage_id()
    v[1] = 7.0
    expected = a_np * np.float32(2.0)
    expected.reshape(6, 4)[1] = 7.0
    assert_matches(b, expected)


@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_ravel(layout, device, rng):
    for fn in (np.ravel, "method"):
        a_np, a = make_array(rng, layout, np.uint16, device)
        if fn == "method":
            check_view(rng, a_np, a, a_np.ravel(), a.ravel())
        else:
            check_view(rng, a_np, a, np.ravel(a_np), ap.ravel(a))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_transposes(layout, dtype, device, rng):
    cases = [
        (lambda x: x.T, lambda x: x.T),
        (lambda x: np.transpose(x), lambda x: ap.transpose(x)),
        (lambda x: x.transpose(), lambda x: x.transpose()),
    ]
    a_np, _ = make_array(rng, layout, dtype, device)
    nd = a_np.ndim
    perm = tuple(range(nd))[::-1][1:] + (nd - 1,) if nd else ()
    cases += [
        (lambda x: np.transpose(x, perm), lambda x: ap.transpose(x, perm)),
        (lambda x: np.permute_dims(x, perm), lambda x: ap.permute_dims(x, perm)),
        (lambda x: x.transpose(*perm), lambda x: x.transpose(*perm)),
        (lambda x: x.transpose(perm), lambda x: x.transpose(perm)),
    ]
    if nd >= 2:
        cases += [
            (lambda x: x.mT, lambda x: x.mT),
            (lambda x: np.swapaxes(x, 0, -1), lambda x: ap.swapaxes(x, 0, -1)),
            (lambda x: x.swapaxes(-2, 0), lambda x: x.swapaxes(-2, 0)),
            (lambda x: np.moveaxis(x, 0, -1), lambda x: ap.moveaxis(x, 0, -1)),
            (lambda x: np.moveaxis(x, -1, 0), lambda x: ap.moveaxis(x, -1, 0)),
            (lambda x: np.moveaxis(x, (0, 1), (-1, 0)), lambda x: ap.moveaxis(x, (0, 1), (-1, 0))),
        ]
    for np_fn, ap_fn in cases:
        a_np, a = make_array(rng, layout, dtype, device)
        res = ap_fn(a)
        assert res._storage_id() == a._storage_id()
        check_view(rng, a_np, a, np_fn(a_np), res)


def test_transpose_errors(device, rng):
    a_np, a = make_array(rng, "3d", np.float32, device)
    cases = [
        (lambda x: np.transpose(x, (0, 1)), lambda x: ap.transpose(x, (0, 1))),
        (lambda x: np.transpose(x, (0, 1, 1)), lambda x: ap.transpose(x, (0, 1, 1))),
        (lambda x: np.transpose(x, (0, 1, 3)), lambda x: ap.transpose(x, (0, 1, 3))),
        (lambda x: np.swapaxes(x, 0, 3), lambda x: ap.swapaxes(x, 0, 3)),
        (lambda x: np.moveaxis(x, (0, 1), 2), lambda x: ap.moveaxis(x, (0, 1), 2)),
        (lambda x: np.moveaxis(x, (0, 0), (1, 2)), lambda x: ap.moveaxis(x, (0, 0), (1, 2))),
        (lambda x: np.moveaxis(x, 3, 0), lambda x: ap.moveaxis(x, 3, 0)),
        (lambda x: x[0, 0].mT, lambda x: x[0, 0].mT),
    ]
    for np_fn, ap_fn in cases:
        assert assert_same_outcome(lambda: np_fn(a_np), lambda: ap_fn(a)) is None  # noqa: B023


@pytest.mark.parametrize("layout", ["0d", "2d", "3d", "noncontig", "strided3d", "bcast_view"])
def test_squeeze_expand_dims(layout, device, rng):
    a_np, _ = make_array(rng, layout, np.float64, device)
    nd = a_np.ndim
    exp_axes = [0, -1, (0, -1), (0, 1), (1, nd + 1) if nd else (0, 1)]
    for axis in exp_axes:
        a_np, a = make_array(rng, layout, np.float64, device)
        outcome = assert_same_outcome(lambda: np.expand_dims(a_np, axis),  # noqa: B023
                                      lambda: ap.expand_dims(a, axis))  # noqa: B023
        if outcome is None:
            continue
        check_view(rng, a_np, a, *outcome)
        e_np, e = outcome
        unit = tuple(i for i, n in enumerate(e_np.shape) if n == 1)
        for sq in [None, unit[0], unit, -1, 0]:
            squeezed = assert_same_outcome(lambda: np.squeeze(e_np, sq),  # noqa: B023
                                           lambda: ap.squeeze(e, sq))  # noqa: B023
            if squeezed is not None:
                assert_matches(squeezed[1], squeezed[0])
                assert squeezed[1]._storage_id() == a._storage_id()
                assert_matches(e.squeeze(sq), e_np.squeeze(sq))
    for bad in [(0, 0), nd + 2, -(nd + 2)]:
        assert assert_same_outcome(lambda: np.expand_dims(a_np, bad),  # noqa: B023
                                   lambda: ap.expand_dims(a, bad)) is None  # noqa: B023


@pytest.mark.parametrize("layout", ["0d", "1d", "broadcast", "noncontig", "negstride"])
def test_broadcast_to(layout, device, rng):
    a_np, a = make_array(rng, layout, np.int32, device)
    for shape in [a_np.shape, (2, *a_np.shape), (3, 1, *a_np.shape), (0, *a_np.shape)]:
        res = ap.broadcast_to(a, shape)
        check_view(rng, a_np, a, np.broadcast_to(a_np, shape), res)
        assert res._storage_id() == a._storage_id()
    if a_np.ndim:
        stretched = tuple(4 if n == 1 else n for n in a_np.shape)
        check_view(rng, a_np, a, np.broadcast_to(a_np, stretched), ap.broadcast_to(a, stretched))
    for shape in [(), (a_np.size + 1,), (-1, *a_np.shape), (2, 0)]:
        outcome = assert_same_outcome(lambda: np.broadcast_to(a_np, shape),  # noqa: B023
                                      lambda: ap.broadcast_to(a, shape))  # noqa: B023
        if outcome is not None:
            assert_matches(outcome[1], outcome[0])
    assert_matches(ap.broadcast_to(3, (2, 2)), np.broadcast_to(3, (2, 2)))


def test_broadcast_arrays(device, rng):
    shapes = [(4, 1, 5), (3, 1), (1, 5), ()]
    dtypes = [np.float32, np.int16, np.bool_, np.complex64]
    arrs = [make_array(rng, "2d", dt, device)[0].reshape(-1)[: int(np.prod(s))].reshape(s)
            for s, dt in zip(shapes, dtypes, strict=True)]
    out = ap.broadcast_arrays(*[to_device(x, device) for x in arrs])
    expected = np.broadcast_arrays(*arrs)
    assert isinstance(out, tuple) and len(out) == len(expected)
    for got, exp in zip(out, expected, strict=True):
        assert_matches(got, exp)
    with pytest.raises(ValueError):
        ap.broadcast_arrays(to_device(arrs[0]), ap.zeros((2, 3)))


@pytest.mark.parametrize("layout", ["1d", "2d", "3d", "noncontig", "negstride", "transposed",
                                    "strided3d", "bcast_view", "empty"])
def test_concatenate(layout, device, rng):
    a_np, a = make_array(rng, layout, np.float32, device)
    for axis in [0, -1, 1, None]:
        if axis is not None and (axis >= a_np.ndim):
            continue
        b_shape = list(a_np.shape)
        if axis is not None:
            b_shape[axis] = 2
        b_np = random_values(rng, tuple(b_shape), np.int16)
        c_np, c = make_array(rng, layout, np.float64, device)
        for arrays in ([a_np, b_np, c_np], [a_np], [c_np, a_np]):
            ap_arrays = [a if x is a_np else c if x is c_np else to_device(x, device)
                         for x in arrays]
            expected = np.concatenate(arrays, axis=axis)
            res = ap.concatenate(ap_arrays, axis=axis)
            assert_matches(res, expected)
            assert all(res._storage_id() != x._storage_id() for x in ap_arrays)
            if axis == 0:
                assert_matches(ap.concat(ap_arrays, axis=axis), expected)


def test_concatenate_pending_and_views(device, rng):
    a_np, a = make_array(rng, "3d", np.float32, device)
    b_np, b = make_array(rng, "strided3d", np.int8, device)
    parts = [a * 2.0, (a + 1.0)[:, ::-1], ap.broadcast_to(a[:, :1], (2, 5, 4)), b[:2, :, :]]
    parts_np = [a_np * np.float32(2.0), (a_np + np.float32(1.0))[:, ::-1],
                np.broadcast_to(a_np[:, :1], (2, 5, 4)), b_np[:2, :, :]]
    assert_matches(ap.concatenate(parts, axis=1), np.concatenate(parts_np, axis=1))
    assert_matches(ap.stack(parts[:2], axis=-1), np.stack(parts_np[:2], axis=-1))
    total = ap.concatenate([a * 2.0, a], axis=0).sum(axis=0)
    terms = np.concatenate([a_np * np.float32(2.0), a_np])
    assert_matches(total, terms.sum(axis=0), ulps=8, atol=sum_atol(terms, axis=0))


def test_concatenate_errors(device, rng):
    a_np, a = make_array(rng, "2d", np.float32, device)
    b_np, b = make_array(rng, "3d", np.float32, device)
    z_np, z = make_array(rng, "0d", np.float32, device)
    cases = [([a_np, b_np], [a, b], 0), ([a_np, a_np.T], [a, a.T], 0), ([z_np, z_np], [z, z], 0),
             ([a_np, a_np], [a, a], 2), ([a_np, a_np], [a, a], -3), ([], [], 0)]
    for np_list, ap_list, axis in cases:
        assert assert_same_outcome(lambda: np.concatenate(np_list, axis=axis),  # noqa: B023
                                   lambda: ap.concatenate(ap_list, axis=axis)) is None  # noqa: B023
    # axis=None flattens, so differing shapes and 0-d inputs are fine.
    assert_matches(ap.concatenate([a, b, z], axis=None),
                   np.concatenate([a_np, b_np, z_np], axis=None))


@pytest.mark.parametrize("layout", ["0d", "1d", "2d", "noncontig", "transposed", "bcast_view"])
def test_stack(layout, device, rng):
    pairs = [make_array(rng, layout, dt, device) for dt in (np.uint8, np.int64, np.float16)]
    nps = [p[0] for p in pairs]
    aps = [p[1] for p in pairs]
    for axis in range(-nps[0].ndim - 1, nps[0].ndim + 1):
        assert_matches(ap.stack(aps, axis=axis), np.stack(nps, axis=axis))
    for axis in (nps[0].ndim + 1, -nps[0].ndim - 2):
        assert assert_same_outcome(lambda: np.stack(nps, axis=axis),  # noqa: B023
                                   lambda: ap.stack(aps, axis=axis)) is None  # noqa: B023
    if nps[0].ndim:
        other = random_values(rng, nps[0].shape[:-1] + (nps[0].shape[-1] + 1,), np.uint8)
        with pytest.raises(ValueError):
            ap.stack([aps[0], to_device(other)])


@pytest.mark.parametrize("src", ALL_DTYPES, ids=str)
def test_astype(src, device, rng):
    # In-range values: NumPy leaves float-to-int overflow and NaN to the C cast.
    a_np, a = make_array(rng, "noncontig", src, device, low=0, high=100)
    for dst in ALL_DTYPES:
        outcome = assert_same_outcome(lambda: a_np.astype(dst),  # noqa: B023
                                      lambda: a.astype(dst))  # noqa: B023
        assert_matches(outcome[1], outcome[0], ulps=0)
        assert_matches(ap.astype(a, dst), outcome[0], ulps=0)
    same = a.astype(src, copy=False)
    assert same._storage_id() == a._storage_id()
    copied = a.astype(src)
    assert copied._storage_id() != a._storage_id()
    assert ap.astype(a, src, copy=False)._storage_id() == a._storage_id()


@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_copy_is_independent(layout, device, rng):
    for make_copy in (lambda x: x.copy(), ap.copy, copy.copy, copy.deepcopy):
        a_np, a = make_array(rng, layout, np.complex64, device)
        c = make_copy(a)
        assert c._storage_id() != a._storage_id()
        check_view(rng, a_np, a, a_np.copy(), c)


def test_functions_take_array_likes(device, rng):
    nested = random_values(rng, (2, 3), np.float32).tolist()
    ref = np.asarray(nested)
    cases = [
        (lambda m, x: m.reshape(x, (3, 2))), (lambda m, x: m.ravel(x)),
        (lambda m, x: m.transpose(x)), (lambda m, x: m.swapaxes(x, 0, 1)),
        (lambda m, x: m.moveaxis(x, 0, -1)), (lambda m, x: m.squeeze([x])),
        (lambda m, x: m.expand_dims(x, 1)), (lambda m, x: m.broadcast_to(x, (4, 2, 3))),
        (lambda m, x: m.concatenate([x, x], axis=None)), (lambda m, x: m.stack([x, ref])),
        (lambda m, x: m.copy(x)), (lambda m, x: m.astype(ref, np.int8)),
    ]
    for fn in cases:
        assert_matches(fn(ap, nested), fn(np, nested))


# ---- dtype views, flags, ascontiguousarray, tobytes ------------------------------------------

VIEW_DTYPE_PAIRS = [(np.float32, np.int32), (np.float32, np.uint8), (np.uint8, np.float32),
                    (np.int16, np.float64), (np.float64, np.complex64), (np.complex64, np.float32),
                    (np.float32, np.float32), (np.bool_, np.int8)]


@pytest.mark.parametrize("src,dst", VIEW_DTYPE_PAIRS)
@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_view_as_dtype(layout, src, dst, device, rng):
    a_np, a = make_array(rng, layout, src, device)
    res_np, exc = np_outcome(a_np.view, dst)
    if exc is not None:
        with pytest.raises(type(exc)):
            a.view(dst)
        return
    size = np.dtype(dst).itemsize
    whole = res_np.ctypes.data % size == 0 and all(
        s % size == 0 for s, n in zip(res_np.strides, res_np.shape, strict=True) if n > 1)
    if not whole:  # NumPy allows byte strides that are not whole elements; accelpy says so
        with pytest.raises(ValueError, match="bytes"):
            a.view(dst)
        return
    res = a.view(dst)
    assert res.dtype == res_np.dtype and res.shape == res_np.shape
    assert ap.asnumpy(res).tobytes() == res_np.tobytes()  # bit patterns (NaN payloads, -0)
    if res_np.flags.writeable and res_np.size and res_np.dtype.kind in "iub":
        check_view(rng, a_np, a, res_np, res)


def test_view_of_pending_and_errors(device, rng):
    x = rng.standard_normal((4, 6)).astype(np.float32)
    a = ap.asarray(x, device=device)
    np.testing.assert_array_equal(ap.asnumpy((a * 2 + 1).view(np.int32)),
                                  (x * 2 + 1).view(np.int32))
    assert a.view().dtype == a.dtype and a.view()._storage_id() == a._storage_id()
    with pytest.raises(ValueError, match="0d"):
        ap.asarray(np.float32(1), device=device).view(np.float64)
    with pytest.raises(ValueError, match="contiguous"):
        a.T.view(np.float64)
    with pytest.raises(ValueError, match="divisor"):
        a[:, :3].view(np.float64)
    with pytest.raises(TypeError):
        a.view(np.float32, type=np.ndarray)


@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_flags_match_numpy(layout, device, rng):
    a_np, a = make_array(rng, layout, np.float32, device)
    for key in ("c_contiguous", "f_contiguous", "writeable"):
        assert getattr(a.flags, key) == getattr(a_np.flags, key), key
    assert a.flags["C_CONTIGUOUS"] == a_np.flags["C_CONTIGUOUS"]
    assert a.flags["F"] == a_np.flags["F"] and a.flags.contiguous == a_np.flags.contiguous
    with pytest.raises(KeyError, match="Unknown flag"):
        a.flags["NOPE"]


@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_ascontiguousarray_and_tobytes(layout, device, rng):
    a_np, a = make_array(rng, layout, np.int32, device)
    c = ap.ascontiguousarray(a)
    c_np = np.ascontiguousarray(a_np)
    assert_matches(c, c_np)
    assert c.flags.c_contiguous and c.device == a.device
    if a.ndim and a.flags.c_contiguous:
        assert c._storage_id() == a._storage_id()  # no copy
    assert_matches(ap.ascontiguousarray(a, dtype=np.float64),
                   np.ascontiguousarray(a_np, np.float64))
    for order in ("C", "F", "A"):
        assert a.tobytes(order) == a_np.tobytes(order)


def test_broadcast_to_takes_subok():
    got = ap.broadcast_to(ap.arange(3), (2, 3), subok=True)
    np.testing.assert_array_equal(ap.asnumpy(got), np.broadcast_to(np.arange(3), (2, 3)))
