"""accelpy.lib.recfunctions' functions of fields against NumPy's on fresh random records
(nested fields, strings kept on the host, subarray fields, 0-d, empty and strided inputs), on
every device: fields to columns and back, adding, dropping, renaming, repacking, assigning and
requiring fields, the rec_ forms, and NumPy's errors. The joins are test_recjoin.py's."""

import numpy as np
import numpy.lib.recfunctions as nrfn
import pytest
from test_structured import MIXED, NESTED, records, same
from test_structured_views import XY, data

import accelpy as ap
import accelpy.lib.recfunctions as arfn


@pytest.mark.parametrize("dtype", [MIXED, NESTED, XY])
def test_accelpy_recfunctions(device, rng, dtype):
    a = records(rng, (2, 3), dtype)
    x = ap.asarray(a)
    got, want = arfn.structured_to_unstructured(x), nrfn.structured_to_unstructured(a)
    assert got.dtype == want.dtype and got.device == device
    np.testing.assert_array_equal(got.get(), want)
    with pytest.raises(ValueError, match="read-only"):
        got[0] = 0
    u = data(rng, (4, 3), "f8")
    spec = [("a", "i4"), ("b", "f4", 2)]
    got = arfn.unstructured_to_structured(ap.asarray(u), np.dtype(spec))
    same(got, nrfn.unstructured_to_structured(u, np.dtype(spec)))
    v = ap.asarray(u)
    view = arfn.unstructured_to_structured(v, names=["p", "q", "r"])
    view["q"][...] = 9  # no cast: the fields are views of v, as NumPy's
    assert (v[:, 1].get() == 9).all()
    names = list(a.dtype.names)
    same(arfn.drop_fields(x, names[0], usemask=False), nrfn.drop_fields(a, names[0], usemask=False))
    dropped = arfn.drop_fields(x, names[0], usemask=False)
    dropped[names[-1]][...] = 0  # a copy, as NumPy's
    same(x, a)
    renamed = {names[-1]: "last"}
    same(arfn.rename_fields(x, renamed), nrfn.rename_fields(a, renamed))
    got, want = arfn.structured_to_unstructured(x[:0]), nrfn.structured_to_unstructured(a[:0])
    assert got.shape == want.shape and got.dtype == want.dtype
    same(arfn.repack_fields(x[names[::-1]]), nrfn.repack_fields(a[names[::-1]]))
    col = data(rng, (2, 3), "i8")
    got = arfn.append_fields(x.reshape(-1), "new", ap.asarray(col.reshape(-1)), usemask=False)
    same(got, nrfn.append_fields(a.reshape(-1), "new", col.reshape(-1), usemask=False))
    masked = arfn.append_fields(x.reshape(-1), "new", col.reshape(-1))
    assert isinstance(masked, np.ma.MaskedArray)
    with pytest.raises(ValueError):
        arfn.unstructured_to_structured(ap.zeros((2, 3)), np.dtype(spec[:1]))
    with pytest.raises(ValueError):
        nrfn.unstructured_to_structured(np.zeros((2, 3)), np.dtype(spec[:1]))


def test_every_function_of_numpys_module():
    assert sorted(arfn.__all__) == sorted(nrfn.__all__)
    for name in ["get_names", "get_names_flat", "flatten_descr", "get_fieldstructure"]:
        assert getattr(arfn, name) is getattr(nrfn, name)  # of dtypes alone: NumPy's


def test_rec_forms(device, rng):
    a = records(rng, (5,), MIXED)
    x = ap.asarray(a)
    col = data(rng, (5,), "i2")
    got = arfn.rec_append_fields(x, "e", ap.asarray(col))
    want = nrfn.rec_append_fields(a, "e", col)
    assert isinstance(got, ap.rec.recarray) and got.dtype == want.dtype
    np.testing.assert_array_equal(got.get(), np.asarray(want))
    np.testing.assert_array_equal(ap.asnumpy(got.e), want.e)
    got, want = arfn.rec_drop_fields(x, ["a", "c"]), nrfn.rec_drop_fields(a, ["a", "c"])
    assert isinstance(got, ap.rec.recarray) and got.dtype == want.dtype
    np.testing.assert_array_equal(got.get(), np.asarray(want))


@pytest.mark.parametrize("shape", [(), (0,), (3, 4)])
def test_apply_along_fields(device, rng, shape):
    dtype = np.dtype([("x", "f8"), ("y", "i4"), ("z", "f4", (2,))])
    a = records(rng, shape, dtype)
    x = ap.asarray(a)
    for func in [np.mean, ap.mean, ap.sum, np.max]:
        got = arfn.apply_along_fields(func, x)
        want = nrfn.apply_along_fields(np.mean if func is ap.mean else func, a)
        assert got.shape == want.shape
        np.testing.assert_allclose(ap.asnumpy(got), want, rtol=1e-12)
    got = arfn.apply_along_fields(np.mean, x[..., ::-1] if x.ndim else x)
    np.testing.assert_allclose(
        ap.asnumpy(got), nrfn.apply_along_fields(np.mean, a[..., ::-1] if a.ndim else a)
    )
    for fn, arg in [(nrfn, np.zeros(3)), (arfn, ap.zeros(3))]:
        with pytest.raises(ValueError, match="arr must be a structured array"):
            fn.apply_along_fields(np.mean, arg)


def test_assign_and_require_fields(device, rng):
    src_dtype = np.dtype([("b", "f8"), ("pos", [("y", "i2"), ("x", "f4")]), ("a", "i4")])
    dst_dtype = np.dtype([("a", "f4"), ("pos", [("x", "f8"), ("z", "u1")]), ("c", "i8")])
    src = records(rng, (2, 3), src_dtype)
    for zero in [True, False]:
        dst = records(rng, (2, 3), dst_dtype)
        x, y = ap.asarray(dst), ap.asarray(src)
        assert arfn.assign_fields_by_name(x, y, zero) is None
        nrfn.assign_fields_by_name(dst, src, zero)
        same(x, dst)
    x = ap.asarray(records(rng, (2, 3), dst_dtype))
    arfn.assign_fields_by_name(x[::-1, 1:], src[:, 1:])  # NumPy's records into a view
    want = np.asarray(x.get())
    want[::-1, 1:] = nrfn.require_fields(src[:, 1:], dst_dtype)
    same(x, want)
    got = arfn.require_fields(ap.asarray(src), dst_dtype)
    same(got, nrfn.require_fields(src, dst_dtype))
    assert got.device == device
    same(
        arfn.require_fields(ap.asarray(src)[0, 0], dst_dtype),
        nrfn.require_fields(src[0, 0:1].reshape(()), dst_dtype),
    )
    plain = ap.zeros(3)
    with pytest.raises(TypeError):
        nrfn.assign_fields_by_name(np.zeros(3, dst_dtype), np.zeros(3))
    with pytest.raises(TypeError):
        arfn.assign_fields_by_name(ap.zeros(3, dst_dtype), plain)


def test_recursive_fill_fields(device, rng):
    src = records(rng, (3,), np.dtype([("a", "i4"), ("pos", NESTED), ("zz", "f4")]))
    out_dtype = np.dtype([("pos", NESTED), ("a", "f8"), ("b", "i2")])
    for n in [3, 5]:
        out = records(rng, (n,), out_dtype)
        x = ap.asarray(out)
        assert arfn.recursive_fill_fields(ap.asarray(src), x) is x
        nrfn.recursive_fill_fields(src, out)
        same(x, out)
    with pytest.raises(TypeError, match="len"):
        arfn.recursive_fill_fields(ap.asarray(src)[0], ap.asarray(out))
