"""isclose / allclose (composed from fused elementwise ops) against NumPy, per device."""

import numpy as np
import pytest

import accelpy as ap
from helpers import LAYOUTS, make_array, random_values, to_device, to_numpy
from helpers import assert_exact as same


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int32, np.complex64])
def test_isclose_matches_numpy(device, rng, dt):
    a = (rng.standard_normal((7, 9)) * 3).astype(dt)
    b = a + (rng.standard_normal((7, 9)) * 1e-6).astype(dt)
    b[0, :3] += 1
    for rtol, atol in ((1e-5, 1e-8), (0, 1e-3), (1e-2, 0)):
        got = ap.asnumpy(ap.isclose(ap.asarray(a), ap.asarray(b), rtol=rtol, atol=atol))
        np.testing.assert_array_equal(got, np.isclose(a, b, rtol=rtol, atol=atol))
        assert ap.allclose(ap.asarray(a), ap.asarray(b), rtol=rtol, atol=atol) == np.allclose(
            a, b, rtol=rtol, atol=atol)
    assert ap.allclose(ap.asarray(a), ap.asarray(a))


def test_special_values_broadcasting_and_scalars(device):
    a = np.array([np.inf, -np.inf, np.nan, 1.0, np.nan, 0.0])
    b = np.array([np.inf, np.inf, np.nan, 1.0 + 1e-9, 1.0, -0.0])
    for equal_nan in (False, True):
        got = ap.asnumpy(ap.isclose(ap.asarray(a), ap.asarray(b), equal_nan=equal_nan))
        np.testing.assert_array_equal(got, np.isclose(a, b, equal_nan=equal_nan))
    m = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(ap.asnumpy(ap.isclose(ap.asarray(m), 5.0)),
                                  np.isclose(m, 5.0))
    np.testing.assert_array_equal(ap.asnumpy(ap.isclose(ap.asarray(m), ap.asarray(m[:1]))),
                                  np.isclose(m, m[:1]))
    assert ap.allclose(ap.asarray(m[:, ::-1]), np.ascontiguousarray(m[:, ::-1]))
    assert not ap.allclose(ap.asarray(a), ap.asarray(b))
    assert isinstance(ap.allclose(ap.asarray(m), m), bool)


# shape/size/ndim, the complex/real predicates, isscalar, array_equal/array_equiv,
# broadcast_shapes, shares_memory, asanyarray/require, fromfunction, apply_along_axis and
# setxor1d against NumPy, on both devices.


DTYPES = [np.bool_, np.int8, np.uint32, np.int64, np.float32, np.float64, np.complex64,
          np.complex128]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_questions(layout, dtype, device, rng):
    a_np, a = make_array(rng, layout, dtype, device)
    assert ap.shape(a) == np.shape(a_np)
    assert ap.ndim(a) == np.ndim(a_np)
    assert ap.size(a) == np.size(a_np)
    for axis in range(-a_np.ndim, a_np.ndim):
        assert ap.size(a, axis) == np.size(a_np, axis)
    if a_np.ndim >= 2:
        assert ap.size(a, (0, -1)) == np.size(a_np, (0, -1))
    assert ap.iscomplexobj(a) == np.iscomplexobj(a_np)
    assert ap.isrealobj(a) == np.isrealobj(a_np)
    same(ap.iscomplex(a), np.iscomplex(a_np))
    same(ap.isreal(a), np.isreal(a_np))
    assert ap.iscomplex(a).device == a.device
    assert ap.isscalar(a) is False
    with pytest.raises(np.exceptions.AxisError):
        ap.size(a, a_np.ndim)


def test_questions_values(device, rng):
    z_np = (random_values(rng, (3, 4), np.float64) + 1j * (rng.random((3, 4)) < 0.5)).astype(
        np.complex128)
    z = to_device(z_np, device)
    same(ap.iscomplex(z), np.iscomplex(z_np))
    same(ap.isreal(z), np.isreal(z_np))
    for obj in (3, 2.5, 1j, "s", b"b", np.float32(1), [1, 2], (3,), None, np.array(1.0)):
        assert ap.isscalar(obj) == np.isscalar(obj)
        assert ap.shape(obj) == np.shape(obj)
        if obj is not None and not isinstance(obj, (str, bytes)):
            assert ap.iscomplexobj(obj) == np.iscomplexobj(obj)
            assert ap.ndim(obj) == np.ndim(obj)
            assert ap.size(obj) == np.size(obj)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.complex128], ids=str)
def test_array_equal(layout, dtype, device, rng):
    a_np, a = make_array(rng, layout, dtype, device)
    b_np = np.array(a_np)
    if b_np.size:
        b_np.reshape(-1)[rng.integers(b_np.size)] += 1
    b = to_device(b_np, device)
    for x_np, x, y_np, y in [(a_np, a, a_np, a), (a_np, a, b_np, b), (a_np, a, a_np[None], a[None]),
                             (a_np, a, np.array(a_np), to_device(a_np, device))]:
        assert ap.array_equal(x, y) == np.array_equal(x_np, y_np)
        assert ap.array_equiv(x, y) == np.array_equiv(x_np, y_np)
    if a_np.ndim >= 1 and a_np.size:
        row_np = np.array(a_np[..., :1])
        assert ap.array_equiv(to_device(row_np, device), a) == np.array_equiv(row_np, a_np)
        flat = np.broadcast_to(row_np, a_np.shape)
        assert ap.array_equiv(to_device(row_np, device), to_device(flat, device))
    assert ap.array_equiv(a, ap.zeros((7, 7, 7), dtype=dtype)) is False


@pytest.mark.parametrize("dtype", [np.float32, np.complex64], ids=str)
def test_array_equal_nan(dtype, device, rng):
    a_np = random_values(rng, (4, 5), dtype, specials=True)
    b_np = a_np.copy()
    a, b = to_device(a_np, device), to_device(b_np, device)
    for equal_nan in (False, True):
        assert ap.array_equal(a, b, equal_nan=equal_nan) == np.array_equal(a_np, b_np,
                                                                           equal_nan=equal_nan)
    assert ap.array_equal(a, a[::-1], equal_nan=True) == np.array_equal(a_np, a_np[::-1],
                                                                        equal_nan=True)
    assert ap.array_equal(ap.arange(3), [0, 1, 2]) is True


def test_broadcast_shapes():
    for shapes in [((3, 1), (1, 4)), ((), (5,)), ((2, 0, 1), (4,)), (7, (1, 7)), ()]:
        assert ap.broadcast_shapes(*shapes) == np.broadcast_shapes(*shapes)
    with pytest.raises(ValueError):
        ap.broadcast_shapes((2,), (3,))


def test_shares_memory(device, rng):
    base = to_device(random_values(rng, (6, 8), np.float32), device)
    cases = [(base, base[2:]), (base[0], base[1]), (base[:, ::2], base[:, 1::2]),
             (base[::-1], base[3]), (base, base.copy()), (base.T, base[5, 7:]),
             (base[:3], base[3:]), (base.reshape(-1)[5:20], base[1])]
    host = np.zeros((6, 8), np.float32)
    host_cases = [(host, host[2:]), (host[0], host[1]), (host[:, ::2], host[:, 1::2]),
                  (host[::-1], host[3]), (host, host.copy()), (host.T, host[5, 7:]),
                  (host[:3], host[3:]), (host.reshape(-1)[5:20], host[1])]
    for (a, b), (a_np, b_np) in zip(cases, host_cases, strict=True):
        assert ap.shares_memory(a, b) == np.shares_memory(a_np, b_np)
        assert ap.may_share_memory(a, b) == np.may_share_memory(a_np, b_np)
    other = "cuda" if device.type == "cpu" else "cpu"
    if ap.cuda.is_available():
        assert ap.shares_memory(base, base.to(ap.device(other))) is False


@pytest.mark.parametrize("layout", ["2d", "transposed", "noncontig", "negstride", "0d"])
def test_asanyarray_require(layout, device, rng):
    a_np, a = make_array(rng, layout, np.float32, device)
    assert ap.asanyarray(a) is a
    same(ap.asanyarray(a_np.tolist()), np.asanyarray(a_np.tolist()))
    same(ap.asanyarray(a, dtype=np.float64), np.asanyarray(a_np, dtype=np.float64))
    for reqs in (None, "C", ["C", "W"], ["A"], ["O"], "E", ("C_CONTIGUOUS", "ALIGNED")):
        got = ap.require(a, requirements=reqs)
        same(got, np.require(a_np, requirements=reqs))
        if reqs is not None and "C" in reqs:
            assert got.flags.c_contiguous
    assert ap.require(a, requirements="O") is not a
    same(ap.require(a, np.int16, "C"), np.require(a_np, np.int16, "C"))
    with pytest.raises(ValueError, match="Fortran"):
        ap.require(a, requirements="F")
    with pytest.raises(KeyError):
        ap.require(a, requirements="Z")
    with pytest.raises(ValueError, match="order"):
        ap.asanyarray(a, order="F")


@pytest.mark.parametrize("dtype", [int, np.float32, np.float64], ids=str)
def test_fromfunction(dtype, device):
    for shape, fn in [((3, 4), lambda i, j: i * 10 + j), ((5,), lambda i: i * i),
                      ((2, 3, 2), lambda i, j, k: i - j + k), ((0, 3), lambda i, j: i + j)]:
        got = ap.fromfunction(fn, shape, dtype=dtype)
        same(got, np.fromfunction(fn, shape, dtype=dtype))
        assert got.device == device
    same(ap.fromfunction(lambda i, j, s: (i + j) * s, (3, 3), s=2),
         np.fromfunction(lambda i, j, s: (i + j) * s, (3, 3), s=2))


@pytest.mark.parametrize("layout", ["1d", "2d", "3d", "noncontig", "negstride", "transposed"])
def test_apply_along_axis(layout, device, rng):
    a_np, a = make_array(rng, layout, np.float64, device)
    for axis in range(-a_np.ndim, a_np.ndim):
        for fn in (lambda v: v[::-1] * 2, lambda v: v.sum(), lambda v, p: v[:2] ** p,
                   lambda v: ap.outer(v, v) if isinstance(v, ap.ndarray) else np.outer(v, v)):
            args = (2,) if fn.__code__.co_argcount == 2 else ()
            got = ap.apply_along_axis(fn, axis, a, *args)
            expected = np.apply_along_axis(fn, axis, a_np, *args)
            assert to_numpy(got).shape == expected.shape
            np.testing.assert_allclose(to_numpy(got), expected, rtol=1e-12)
            assert got.device == a.device
    with pytest.raises(np.exceptions.AxisError):
        ap.apply_along_axis(lambda v: v, a_np.ndim, a)


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.float32, np.float64], ids=str)
def test_setxor1d(dtype, device, rng):
    for n1, n2 in [(20, 15), (0, 5), (0, 0), (7, 1)]:
        x_np = random_values(rng, (n1,), dtype, low=-8, high=8).astype(dtype)
        y_np = random_values(rng, (n2,), dtype, low=-8, high=8).astype(dtype)
        if np.dtype(dtype).kind == "f":
            x_np, y_np = np.round(x_np * 4).astype(dtype), np.round(y_np * 4).astype(dtype)
        x, y = to_device(x_np, device), to_device(y_np, device)
        got = ap.setxor1d(x, y)
        same(got, np.setxor1d(x_np, y_np))
        assert got.device == x.device
        ux, uy = np.unique(x_np), np.unique(y_np)
        same(ap.setxor1d(to_device(ux, device), to_device(uy[::-1], device), assume_unique=True),
             np.setxor1d(ux, uy[::-1], assume_unique=True))
    m_np = random_values(rng, (3, 4), dtype, low=0, high=5)
    same(ap.setxor1d(to_device(m_np, device), to_device(m_np[0], device)),
         np.setxor1d(m_np, m_np[0]))
