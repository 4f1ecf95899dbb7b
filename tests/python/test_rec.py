"""Record arrays (accelpy.rec: numpy.rec) against NumPy: attribute access to the fields,
NumPy's record dtype and printing, rec.fromarrays/fromrecords/array, on every device."""

import numpy as np
import pytest
from test_structured import records, same

import accelpy as ap


def test_recarray(device, rng):
    want = records(rng, (4,))
    x = ap.asarray(want)
    r = x.view(np.recarray)
    assert isinstance(r, ap.recarray)
    np.testing.assert_array_equal(ap.asnumpy(r.a), want.view(np.recarray).a)
    r.b = [1, 2, 3, 4]
    want["b"] = [1, 2, 3, 4]
    same(x, want)
    assert repr(r) == repr(want.view(np.recarray))
    assert float(r[1].a) == want[1]["a"]
    with pytest.raises(AttributeError, match="recarray has no attribute zz"):
        r.zz  # noqa: B018 - the attribute access is the test


def test_rec_functions(device, rng):
    a, b = rng.uniform(size=5), rng.integers(0, 9, 5)
    got = ap.rec.fromarrays([ap.asarray(a), ap.asarray(b)], names="x, y")
    want = np.rec.fromarrays([a, b], names="x, y")
    assert repr(got) == repr(want)
    assert got.x.device == device
    rows = [(1, 2.5), (3, 4.5)]
    assert repr(ap.rec.fromrecords(rows, names="i, f")) == repr(
        np.rec.fromrecords(rows, names="i, f")
    )
    assert repr(ap.rec.array(rows, dtype="i4,f8")) == repr(np.rec.array(rows, dtype="i4,f8"))


def test_record_dtype_and_views(device, rng):
    want = records(rng, (3,))
    x = ap.asarray(want)
    r = x.view(dtype=np.dtype((ap.record, x.dtype)), type=np.recarray)
    n = want.view(dtype=np.dtype((np.record, want.dtype)), type=np.recarray)
    assert repr(r.dtype) == repr(n.dtype) and repr(r) == repr(n)
    assert repr(r[1]) == repr(n[1])
    r[1].b = 5  # a record's attribute writes through
    assert int(x["b"][1]) == 5
    plain = r.view(r.dtype.fields or r.dtype, np.ndarray)
    assert type(plain) is type(x) and repr(plain.dtype) == repr(want.dtype)
    nested = ap.zeros(2, [("pos", [("x", "f8"), ("y", "f8")])]).view(np.recarray)
    assert isinstance(nested.pos, ap.recarray)
    nested.pos.x = [1.0, 2.0]
    assert ap.asnumpy(nested.pos.x).tolist() == [1.0, 2.0]
