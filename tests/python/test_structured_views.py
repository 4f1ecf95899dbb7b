"""Views of bytes between records and numbers (accelpy._structured_views) against NumPy: a
plain array viewed as records (writes go both ways, as NumPy's view), records viewed as numbers
or other records (NumPy's values, read-only: writes raise instead of being lost), void rows,
NumPy's own numpy.lib.recfunctions on accelpy records, and NumPy's errors; fresh random data,
on every device."""

import numpy as np
import numpy.lib.recfunctions as nrfn
import pytest
from test_structured import records, same

import accelpy as ap
from accelpy._void import VoidArray

XY = np.dtype([("x", "f4"), ("y", "f4")])
MIXED_WIDTH = np.dtype([("i", "i4"), ("h", "i2"), ("b", "u1"), ("q", "u1")])  # 8 bytes


def data(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return rng.uniform(-5, 5, shape).astype(dtype)
    return rng.integers(-50, 50, shape).astype(dtype)


@pytest.mark.parametrize(
    "dtype, target",
    [
        ("f4", XY),
        ("i8", [("p0", "i8"), ("p1", "i8")]),
        ("f8", [("a", "f8"), ("b", "f8", 2)]),
        ("i4", MIXED_WIDTH),
        ("i2", [("lo", "u1"), ("hi", "i1")]),
        ("f4", [("v", "f4")]),
        ("i4", [("pos", [("x", "i2"), ("y", "i2")]), ("n", "i4")]),
    ],
)
@pytest.mark.parametrize("shape", [(6,), (3, 4), (2, 0)])
def test_plain_array_as_records(device, rng, dtype, target, shape):
    a = data(rng, shape, dtype)
    if a.shape[-1] * a.itemsize % np.dtype(target).itemsize:
        a = data(rng, shape[:-1] + (np.dtype(target).itemsize // a.itemsize,), dtype)
    x = ap.asarray(a)
    got, want = x.view(target), a.view(target)
    same(got, want)
    if want.size:  # a view: writes reach the array, and the array's writes the view
        name = want.dtype.names[-1]
        field = got[name]
        field[...] = 3
        want[name] = 3
        np.testing.assert_array_equal(x.get(), a)
        x[...] = 1
        a[...] = 1
        same(got, want)


def test_zero_d_and_strided_plain_arrays(device, rng):
    a = data(rng, (), "i8")
    same(ap.asarray(a).view([("v", "i8")]), a.view([("v", "i8")]))
    b = data(rng, (4, 6), "f4")
    x = ap.asarray(b)
    same(x[::-1, 2:].view(XY), b[::-1, 2:].view(XY))
    got = x[:, ::2].view([("v", "f4")])  # the same item size: NumPy allows any stride
    same(got, b[:, ::2].view([("v", "f4")]))
    with pytest.raises(ValueError, match="read-only"):
        got["v"][0] = 1  # accelpy copied it: the write could not reach x
    for bad, numpy_bad in ((x[:, ::2], b[:, ::2]), (x[:, :5], b[:, :5])):
        with pytest.raises(ValueError) as numpy_error:
            numpy_bad.view(XY)
        with pytest.raises(ValueError) as error:
            bad.view(XY)
        assert str(error.value) == str(numpy_error.value)


def same_bytes(got, want):
    """got (accelpy) holds NumPy's values bit for bit (NaN payloads included), dtype, shape."""
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.asarray(got.get()).tobytes() == want.tobytes()


@pytest.mark.parametrize("dtype", [MIXED_WIDTH, XY, [("a", "i8"), ("b", "f8", (2,))]])
@pytest.mark.parametrize("target", ["i8", "u1", "f4", "i4", [("w", "i4"), ("z", "f4")], "V8"])
@pytest.mark.parametrize("shape", [(5,), (2, 3), (0,), ()])
def test_records_as_other_dtypes(device, rng, dtype, target, shape):
    want_records = data(rng, shape + (np.dtype(dtype).itemsize // 8 * 2,), "i4").view(dtype)
    want_records = want_records.reshape(shape) if shape == () else want_records[..., 0]
    x = ap.asarray(want_records)
    try:
        want = want_records.view(target)
    except (ValueError, TypeError) as e:
        with pytest.raises(type(e)):
            x.view(target)
        return
    got = x.view(target)
    same_bytes(got, want)
    if got.size and isinstance(got, ap.ndarray):
        with pytest.raises(ValueError, match="read-only"):
            got[...] = 0
    elif got.size and want.dtype.names is not None:
        with pytest.raises(ValueError, match="read-only"):
            got[want.dtype.names[0]][...] = 0


def test_multi_field_index_views_its_parents_bytes(device, rng):
    b = np.zeros(3, [("x", "f4"), ("y", "f4"), ("z", "f4")])
    for name in b.dtype.names:
        b[name] = rng.uniform(-5, 5, 3)
    x = ap.asarray(b)
    np.testing.assert_array_equal(x[["x", "z"]].view("f4").get(), b[["x", "z"]].view("f4"))
    got = x[["x", "z"]].view(np.recarray).view("f4")
    np.testing.assert_array_equal(got.get(), b[["x", "z"]].view(np.recarray).view("f4"))
    with pytest.raises(TypeError, match="bytes between its fields"):
        x[["x", "z"]][1:].view("f4")
    np.testing.assert_array_equal(x[1:][["x", "z"]].view("f4").get(), b[1:][["x", "z"]].view("f4"))


def test_field_kept_on_the_host_views_through_numpy(rng):
    a = np.zeros(2, [("s", "U2"), ("v", "i4")])
    a["s"], a["v"] = ["ab", "c"], [5, -6]
    got = ap.asarray(a).view("i4")
    np.testing.assert_array_equal(got.get(), a.view("i4"))
    got = ap.asarray(a)[["v"]].view("i4")  # the string's bytes, read from the parent
    np.testing.assert_array_equal(got.get(), a[["v"]].view("i4"))
    c = np.zeros((0, 3), [("x", "i4"), ("y", "f4")])
    same(ap.asarray(c.view("i4")).view(c.dtype), c)
    same(ap.zeros((0, 6), "i4").view(c.dtype), c)  # strides 0, as NumPy's zeros((0, 6))
    assert ap.asarray(c).view("i4").shape == c.view("i4").shape


def test_void_rows_unique(device, rng):
    """numpy-100 #96: unique rows through a void view of each row."""
    z = rng.integers(0, 2, (8, 3))
    void = np.dtype((np.void, z.dtype.itemsize * z.shape[1]))
    t = ap.ascontiguousarray(ap.asarray(z)).view(void)
    want_t = np.ascontiguousarray(z).view(void)
    assert isinstance(t, VoidArray) and t.dtype == want_t.dtype and t.shape == want_t.shape
    assert repr(t) == repr(want_t)
    got, idx = ap.unique(t, return_index=True)
    want, want_idx = np.unique(want_t, return_index=True)
    np.testing.assert_array_equal(idx.get(), want_idx)
    np.testing.assert_array_equal(got.get(), want)
    np.testing.assert_array_equal(ap.asarray(z)[idx].get(), z[want_idx])
    np.testing.assert_array_equal(t.view(z.dtype).get(), z)
    assert repr(t.view()) == repr(want_t.view()) and repr(t[1:]) == repr(want_t[1:])


def test_unique_segments(device, rng):
    """numpy-100 #73: pairs of vertices viewed as records, unique."""
    faces = rng.integers(0, 6, (10, 3))
    f = np.sort(np.roll(faces.repeat(2, axis=1), -1, axis=1).reshape(30, 2), axis=1)
    pair = [("p0", f.dtype), ("p1", f.dtype)]
    same(ap.unique(ap.asarray(f).view(pair)), np.unique(f.view(pair)))


def test_numpys_recfunctions_take_accelpy_records(device, rng):
    """What NumPy's user guide runs (its import of numpy.lib.recfunctions stays NumPy's)."""
    a = records(rng, (3,), np.dtype([("a", "i4"), ("b", "i4"), ("c", "f4")]))
    x = ap.asarray(a)
    got = nrfn.repack_fields(x[["a", "c"]]).view("i8")
    np.testing.assert_array_equal(
        np.asarray(got.get()), nrfn.repack_fields(a[["a", "c"]]).view("i8")
    )
    got = nrfn.structured_to_unstructured(x[["a", "c"]])
    np.testing.assert_array_equal(
        np.asarray(ap.asnumpy(got)), nrfn.structured_to_unstructured(a[["a", "c"]])
    )


def test_record_arrays_are_no_ndarrays():
    """The decision of D88: records are accelpy._structured's, not the core's ndarray."""
    x = ap.zeros(2, XY)
    assert not isinstance(x, ap.ndarray)
    assert isinstance(ap.zeros(2), ap.ndarray)
