"""NumPy names real programs use that accelpy added late: emath, fromiter, nditer, packbits and
unpackbits, asfortranarray, isfortran, asarray_chkfinite, tensorinv/tensorsolve, einsum_path,
mask_indices, the dtype routines, order= of the creation functions, full with an array fill
value, isin's kind=, and boolean masks with empty axes; each against NumPy on fresh data."""

import numpy as np
import pytest

import accelpy as ap

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool"]
SHAPES = [(), (0,), (7,), (3, 5), (2, 0, 3), (4, 9, 2)]


def _same(got, want, exact=True):
    assert isinstance(got, ap.ndarray), type(got)
    host = ap.asnumpy(got)
    assert host.shape == want.shape and host.dtype == want.dtype, (host.dtype, want.dtype)
    if exact:
        np.testing.assert_array_equal(host, want)
    else:
        np.testing.assert_allclose(host, want, rtol=1e-12 if want.dtype.itemsize > 8 or
                                   want.dtype == np.float64 else 1e-5, atol=1e-12)


def _views(rng, shape, dtype):
    """A C-contiguous array, a transposed one and a reversed (negative stride) one."""
    base = rng.integers(-40, 40, size=shape).astype(dtype)
    out = [base]
    if len(shape) >= 2:
        out.append(base.T)
    if len(shape) >= 1:
        out.append(base[::-1])
    return out


@pytest.mark.parametrize("fn", ["sqrt", "log", "log2", "log10", "arccos", "arcsin", "arctanh"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int16", "complex128"])
def test_emath_unary(device, rng, fn, dtype):
    for x in [rng.uniform(-3, 3, (4, 5)), rng.uniform(0.1, 0.9, 6), rng.uniform(-3, 3, 0),
              np.float64(-2.0)]:
        x = np.asarray(x * (8 if dtype.startswith("int") else 1)).astype(dtype)
        with np.errstate(all="ignore"):
            want = np.asarray(getattr(np.emath, fn)(x))
        got = getattr(ap.emath, fn)(ap.asarray(x))
        assert got.device == device
        host = ap.asnumpy(got)
        assert host.dtype == want.dtype and host.shape == want.shape
        tol = 1e-5 if want.dtype in (np.float32, np.complex64) else 1e-12
        np.testing.assert_allclose(host, want, rtol=tol, atol=tol)


def test_emath_power_and_logn(device, rng):
    x = rng.uniform(-4, 4, (3, 4))
    p = rng.integers(-3, 4, (3, 4))
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(ap.asnumpy(ap.emath.power(ap.asarray(x), ap.asarray(p))),
                                   np.emath.power(x, p), rtol=1e-12)
        assert ap.asnumpy(ap.emath.power(ap.asarray([2, 4]), -2)).tolist() == [0.25, 0.0625]
        np.testing.assert_allclose(ap.asnumpy(ap.emath.logn(2, ap.asarray(x))),
                                   np.emath.logn(2, x), rtol=1e-12)
    assert ap.emath.sqrt(-1).item() == 1j
    assert ap.emath.sqrt(4).dtype == np.float64  # real stays real


@pytest.mark.parametrize("dtype", ["float64", "int32", "uint8", "complex64", "bool"])
def test_fromiter(device, rng, dtype):
    values = rng.integers(0, 9, 11).tolist()
    for count in (-1, 5, 0):
        want = np.fromiter(iter(values), dtype=dtype, count=count)
        got = ap.fromiter(iter(values), dtype=dtype, count=count)
        assert got.device == device
        _same(got, want)
    with pytest.raises(ValueError):
        ap.fromiter(iter(values), dtype=dtype, count=20)  # NumPy: too few items


def test_nditer_readonly(device, rng):
    for a in _views(rng, (3, 4), np.float64):
        want = [float(v) for v in np.nditer(a)]
        assert [float(v) for v in ap.nditer(ap.asarray(a))] == want
    a = rng.standard_normal((2, 3))
    it, nit = ap.nditer(ap.asarray(a), flags=["multi_index"]), np.nditer(a, flags=["multi_index"])
    seen, want = [], []
    while not it.finished:
        seen.append((it.multi_index, float(it[0])))
        it.iternext()
    while not nit.finished:
        want.append((nit.multi_index, float(nit[0])))
        nit.iternext()
    assert seen == want
    ext = [v.tolist() for v in ap.nditer(ap.asarray(a), flags=["external_loop"], order="F")]
    assert ext == [v.tolist() for v in np.nditer(a, flags=["external_loop"], order="F")]


def test_nditer_readwrite_and_allocated(device, rng):
    a = rng.integers(0, 50, (3, 4))
    x = ap.asarray(a.copy())  # on the CPU asarray shares a's memory
    with ap.nditer(x, op_flags=["readwrite"]) as it:
        for v in it:
            v[...] = 2 * v + 1
    _same(x, 2 * a + 1)
    y = ap.asarray(a.astype(np.float64))  # a copy
    for v in ap.nditer(y, op_flags=["readwrite"]):  # no `with`: written back at the end
        v[...] = v * v
    _same(y, (a * a).astype(np.float64))
    # numpy-100 exercise 62: broadcasting with an allocated output.
    p, q = rng.integers(0, 9, (3, 1)), rng.integers(0, 9, (1, 3))
    it = ap.nditer([ap.asarray(p), ap.asarray(q), None])
    for u, v, w in it:
        w[...] = u + v
    out = it.operands[2]
    assert out.device == device
    _same(out, p + q)


def test_nditer_bad_input(device):
    with pytest.raises(ValueError):
        ap.nditer(ap.ones(3), op_flags=["bogus"])
    with pytest.raises(ValueError):
        ap.nditer([ap.ones(3), ap.ones(4)])


@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize("shape", SHAPES[1:])
def test_packbits_unpackbits(device, rng, dtype, shape):
    for a in _views(rng, shape, dtype):
        if dtype == "bool":
            a = a != 0
        for axis in [None, *range(-a.ndim, a.ndim)]:
            for order in ("big", "little"):
                want = np.packbits(a, axis=axis, bitorder=order)
                got = ap.packbits(ap.asarray(a), axis=axis, bitorder=order)
                assert got.device == device
                _same(got, want)
                for count in (None, 0, 3, -2, 40):
                    if count == -2 and want.shape[axis or 0] == 0:
                        with pytest.raises(ValueError, match="count"):
                            ap.unpackbits(got, axis=axis, count=count, bitorder=order)
                        continue
                    expected = np.unpackbits(want, axis=axis, count=count, bitorder=order)
                    if want.size == 0:  # NumPy leaves the padding of an empty input unwritten
                        expected = np.zeros_like(expected)
                    _same(ap.unpackbits(got, axis=axis, count=count, bitorder=order), expected)


def test_packbits_bad_input(device):
    with pytest.raises(TypeError, match="packbits"):
        ap.packbits(ap.ones(3))
    with pytest.raises(TypeError, match="unpackbits"):
        ap.unpackbits(ap.ones(3, dtype=ap.int8))
    with pytest.raises(ValueError, match="bitorder"):
        ap.packbits(ap.ones(3, dtype=ap.uint8), bitorder="middle")
    with pytest.raises(np.exceptions.AxisError):
        ap.packbits(ap.ones((2, 3), dtype=ap.uint8), axis=2)
    with pytest.raises(np.exceptions.AxisError):
        ap.unpackbits(ap.asarray(np.uint8(3)), axis=0)


def test_fortran_order(device, rng):
    a = rng.standard_normal((3, 4))
    f = ap.asfortranarray(ap.asarray(a))
    assert f.flags.f_contiguous and ap.isfortran(f) and not ap.isfortran(ap.asarray(a))
    _same(f, np.asfortranarray(a))
    _same(ap.asfortranarray(ap.asarray(a[::-1]), dtype=np.float32),
          np.asfortranarray(a[::-1], dtype=np.float32))
    assert ap.isfortran(ap.asarray(a)) == np.isfortran(a)
    for fn, np_fn in [(ap.zeros, np.zeros), (ap.ones, np.ones), (ap.empty, np.empty)]:
        for order in ("C", "F", "c", "f", None):
            z = fn((2, 3, 4), dtype=np.int16, order=order)
            w = np_fn((2, 3, 4), dtype=np.int16, order=order)
            assert z.device == device and z.shape == w.shape and z.dtype == w.dtype
            assert z.flags.f_contiguous == w.flags.f_contiguous
            assert z.flags.c_contiguous == w.flags.c_contiguous
    _same(ap.full((2, 3), 7, order="F"), np.full((2, 3), 7, order="F"))
    assert ap.full((2, 3), 7, order="F").flags.f_contiguous


def test_creation_order_bad_input(device):
    for order, exc in [("X", ValueError), ("K", ValueError), ("A", ValueError), (1, TypeError)]:
        for fn in (ap.zeros, ap.ones, ap.empty):
            with pytest.raises(exc, match="order"):
                fn(3, order=order)
        with pytest.raises(exc, match="order"):
            ap.full(3, 1.0, order=order)


def test_full_with_array_fill(device, rng):
    for fill, shape, dtype in [([1, 2, 3], (2, 3), None), (rng.standard_normal(4), (3, 4), None),
                               (rng.standard_normal((3, 1)), (2, 3, 5), "float32"),
                               (np.arange(3, dtype=np.int8), (0, 3), None)]:
        got = ap.full(shape, ap.asarray(fill) if isinstance(fill, np.ndarray) else fill, dtype)
        assert got.device == device
        _same(got, np.full(shape, fill, dtype))
    with pytest.raises(ValueError):
        ap.full((2, 2), [1, 2, 3])


def test_asarray_chkfinite(device, rng):
    a = rng.standard_normal(5)
    _same(ap.asarray_chkfinite(a), np.asarray_chkfinite(a))
    _same(ap.asarray_chkfinite([1, 2]), np.asarray_chkfinite([1, 2]))
    for bad in (np.inf, -np.inf, np.nan):
        b = a.copy()
        b[2] = bad
        with pytest.raises(ValueError, match="infs or NaNs"):
            ap.asarray_chkfinite(ap.asarray(b))


def test_tensorinv_tensorsolve(device, rng):
    a = rng.standard_normal((4 * 6, 4 * 6)) + 5 * np.eye(24)
    a4 = a.reshape(4, 6, 8, 3)
    got = ap.linalg.tensorinv(ap.asarray(a4), ind=2)
    np.testing.assert_allclose(ap.asnumpy(got), np.linalg.tensorinv(a4, ind=2), rtol=1e-9,
                               atol=1e-12)
    a5 = a.reshape(6, 4, 2, 3, 4)
    b = rng.standard_normal((6, 4))
    np.testing.assert_allclose(ap.asnumpy(ap.linalg.tensorsolve(ap.asarray(a5), ap.asarray(b))),
                               np.linalg.tensorsolve(a5, b), rtol=1e-9, atol=1e-12)
    a5t = a.reshape(2, 3, 4, 6, 4)
    np.testing.assert_allclose(
        ap.asnumpy(ap.linalg.tensorsolve(ap.asarray(a5t), ap.asarray(b), axes=(0, 1, 2))),
        np.linalg.tensorsolve(a5t, b, axes=(0, 1, 2)), rtol=1e-9, atol=1e-12)
    with pytest.raises(ValueError):
        ap.linalg.tensorinv(ap.asarray(a4), ind=0)
    with pytest.raises(np.linalg.LinAlgError):
        ap.linalg.tensorsolve(ap.ones((2, 3)), ap.ones(2))


def test_einsum_path_and_mask_indices(device, rng):
    ops = [rng.standard_normal(s) for s in [(2, 3), (3, 4), (4, 5)]]
    want = np.einsum_path("ij,jk,kl->il", *ops, optimize="greedy")
    assert ap.einsum_path("ij,jk,kl->il", *map(ap.asarray, ops)) == want
    for k in (-1, 0, 2):
        for fn, np_fn in [(ap.triu, np.triu), (ap.tril, np.tril)]:
            got, want = ap.mask_indices(4, fn, k), np.mask_indices(4, np_fn, k)
            assert len(got) == len(want)
            for g, w in zip(got, want, strict=True):
                assert g.device == device
                np.testing.assert_array_equal(ap.asnumpy(g), w)


def test_dtype_routines(device):
    for dts in [("float32",), ("int8", "float32"), ("float16", "complex64"), ("int64",)]:
        arrs = [ap.ones(2, dtype=d) for d in dts]
        assert ap.common_type(*arrs) is np.common_type(*[np.ones(2, dtype=d) for d in dts])
    for v in (10, -3, 300, 3.5, 1e300, 1j):
        assert ap.min_scalar_type(v) == np.min_scalar_type(v)
        assert ap.min_scalar_type(ap.asarray(v)) == np.min_scalar_type(np.asarray(v))
    assert ap.min_scalar_type(ap.ones(3, dtype=ap.int64)) == np.int64
    assert ap.binary_repr(-5, width=8) == np.binary_repr(-5, width=8)
    assert ap.base_repr(255, 16) == "FF"
    assert ap.euler_gamma == np.euler_gamma and ap.exceptions.AxisError is ap.AxisError
    assert ap.long is np.long and ap.uint is np.uint and ap.True_ is np.True_
    assert ap.mintypecode("idF") == np.mintypecode("idF") and ap.typename("d") == np.typename("d")


def test_isin_kind(device, rng):
    a = rng.integers(0, 9, 20)
    b = rng.integers(0, 9, 5)
    for kind in (None, "sort", "table"):
        _same(ap.isin(ap.asarray(a), ap.asarray(b), kind=kind), np.isin(a, b, kind=kind))
    with pytest.raises(ValueError, match="kind"):
        ap.isin(ap.asarray(a), ap.asarray(b), kind="bogus")
    with pytest.raises(ValueError, match="table"):
        ap.isin(ap.asarray(a * 1.5), ap.asarray(b), kind="table")


@pytest.mark.parametrize("xshape,kshape", [((3,), (0,)), ((1,), (0,)), ((2, 3), (2, 0)),
                                           ((1, 3), (0, 3)), ((1, 3), (0, 0)), ((2, 3), (0,)),
                                           ((2, 3), (3, 0)), ((2, 3), (0, 5)), ((0, 3), (2,))])
def test_boolean_mask_with_empty_axes(device, rng, xshape, kshape):
    """An empty mask axis selects nothing from an axis of any length (NumPy; the Array API's
    getitem_masking); other mismatches stay IndexError."""
    x = rng.standard_normal(xshape)
    k = np.zeros(kshape, dtype=bool)
    try:
        want = x[k]
    except IndexError:
        with pytest.raises(IndexError, match="boolean index"):
            ap.asarray(x)[ap.asarray(k)]
        with pytest.raises(IndexError, match="boolean index"):
            ap.asarray(x)[ap.asarray(k)] = 1.0
        return
    _same(ap.asarray(x)[ap.asarray(k)], want)
    y = ap.asarray(x.copy())
    y[ap.asarray(k)] = 5.0
    _same(y, x)


def test_tolist_and_from_dlpack_errors(device):
    with pytest.raises(TypeError, match="tolist"):
        ap.ones(3).tolist(1)
    with pytest.raises(AttributeError, match="__dlpack__"):
        ap.from_dlpack(5)
    with pytest.raises(TypeError, match="num"):
        ap.linspace(0, 1, 2.5)
    with pytest.raises(TypeError, match="identity"):
        ap.identity(2.5)


@pytest.mark.parametrize("dtype", [None, "float32", "int64", "complex128"])
def test_linspace_with_array_endpoints(device, rng, dtype):
    lo, hi = rng.uniform(-5, 5, (2, 3)), rng.uniform(-5, 5, 3)
    cases = [((0, np.float32(3.0)), {}), ((lo, hi), {}), ((lo, hi), {"axis": 1}),
             ((lo, 9.0), {"axis": -1, "endpoint": False}), ((lo[0, 0], hi[0]), {"axis": 0})]
    for (a, b), kw in cases:
        want = np.linspace(a, b, 7, dtype=dtype, **kw)
        for wrap in (np.asarray, ap.asarray):
            got = ap.linspace(wrap(a) if np.ndim(a) else a, wrap(b) if np.ndim(b) else b, 7,
                              dtype=dtype, **kw)
            assert got.device == device
            _same(got, want, exact=False)
    y, step = ap.linspace(ap.asarray(lo), ap.asarray(hi), 5, retstep=True)
    ny, nstep = np.linspace(lo, hi, 5, retstep=True)
    _same(y, ny, exact=False)
    np.testing.assert_allclose(step, nstep)
    with pytest.raises(TypeError, match="axis"):
        ap.linspace(ap.asarray(lo), 1, 3, axis=1.5)
    with pytest.raises(np.exceptions.AxisError):
        ap.linspace(ap.asarray(lo), 1, 3, axis=4)
