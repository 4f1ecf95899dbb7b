"""numpy.lib.recfunctions' joins (accelpy.lib._recjoin): merge_arrays, stack_arrays, join_by,
rec_join and find_duplicates against NumPy's on fresh random records (nested fields, strings
kept on the host, subarray fields, 0-d, empty and strided inputs), on every device; masked
results NumPy's; NumPy's errors."""

import numpy as np
import numpy.lib.recfunctions as nrfn
import pytest
from test_structured import MIXED, NESTED, records, same

import accelpy as ap
import accelpy.lib.recfunctions as arfn

PEOPLE = np.dtype([("name", "U6"), ("age", "i4")])


def masked_same(got, want):
    """Masked results are NumPy's own: data, mask and fill value."""
    assert type(got) is type(want)
    np.testing.assert_array_equal(got.mask, want.mask)
    np.testing.assert_array_equal(got.filled(), want.filled())


def data(rng, shape, dtype):
    return rng.integers(-50, 50, shape).astype(dtype)


# -- merge_arrays ----------------------------------------------------------------------------


@pytest.mark.parametrize("flatten", [False, True])
def test_merge_arrays(device, rng, flatten):
    a = records(rng, (5,), MIXED)
    n = records(rng, (2, 2), NESTED)  # raveled: 4 records
    f = data(rng, (3,), "f8")
    one = records(rng, (6,), np.dtype([("solo", "i2")]))
    p = records(rng, (4,), PEOPLE)
    cases = [(a, f), (a[::-2], f, n), (a, one), (f, p, a[:0]), (n, a[:4]), (data(rng, 4, "u2"), n)]
    for arrays in cases:
        try:
            want = nrfn.merge_arrays(arrays, flatten=flatten)
        except ValueError as e:  # NumPy's fill of records fails when flattened: the same here
            with pytest.raises(ValueError, match=str(e)):
                arfn.merge_arrays([ap.asarray(x) for x in arrays], flatten=flatten)
            continue
        got = arfn.merge_arrays([ap.asarray(x) for x in arrays], flatten=flatten)
        same(got, want)
        assert got.device == device
    got = arfn.merge_arrays((ap.asarray(a), ap.asarray(f)), fill_value=7)
    same(got, nrfn.merge_arrays((a, f), fill_value=7))
    got = arfn.merge_arrays([ap.asarray(f)[:0], ap.asarray(f)[:0]])
    same(got, nrfn.merge_arrays([f[:0], f[:0]]))
    with pytest.raises(ValueError, match="setting an array element with a sequence"):
        nrfn.merge_arrays((a, f), flatten=True)
    with pytest.raises(ValueError, match="setting an array element with a sequence"):
        arfn.merge_arrays((ap.asarray(a), ap.asarray(f)), flatten=True)


def test_merge_one_array_is_a_view(device, rng):
    a = records(rng, (2, 3), MIXED)
    x = ap.asarray(a)
    got = arfn.merge_arrays(x)
    same(got, nrfn.merge_arrays(a))
    got["b"][0] = 77  # a view of x's records, as NumPy's
    a.reshape(-1)["b"][0] = 77
    same(x, a)
    f = data(rng, (4,), "f4")
    y = ap.asarray(f)
    got = arfn.merge_arrays([y])
    same(got, nrfn.merge_arrays([f]))
    got["f0"][1] = -1
    f[1] = -1
    np.testing.assert_array_equal(ap.asnumpy(y), f)
    same(arfn.merge_arrays(x[0, 0]), nrfn.merge_arrays(a[0, 0]))  # one record
    n = records(rng, (3,), NESTED)
    same(arfn.merge_arrays(ap.asarray(n), flatten=True), nrfn.merge_arrays(n, flatten=True))


def test_merge_masked_and_record_arrays(device, rng):
    a, f = records(rng, (4,), MIXED), data(rng, (6,), "i8")
    x, y = ap.asarray(a), ap.asarray(f)
    masked_same(arfn.merge_arrays((x, y), usemask=True), nrfn.merge_arrays((a, f), usemask=True))
    got = arfn.merge_arrays((x, y), asrecarray=True)
    assert isinstance(got, ap.rec.recarray)
    want = nrfn.merge_arrays((a, f), asrecarray=True)
    np.testing.assert_array_equal(got.get(), np.asarray(want))
    np.testing.assert_array_equal(ap.asnumpy(got.f1), want.f1)


# -- stack_arrays ----------------------------------------------------------------------------


def test_stack_arrays(device, rng):
    a = records(rng, (4,), np.dtype([("a", "i4"), ("b", "f8"), ("c", "f4", (2,))]))
    b = records(rng, (2, 3), np.dtype([("a", "i4"), ("d", "?"), ("name", "U6")]))
    c = records(rng, (), np.dtype([("d", "?"), ("b", "f8")]))
    x, y, z = ap.asarray(a), ap.asarray(b), ap.asarray(c)
    for got, want in [
        (arfn.stack_arrays((x, y), usemask=False), nrfn.stack_arrays((a, b), usemask=False)),
        (
            arfn.stack_arrays((x[::-1], y, z), usemask=False),
            nrfn.stack_arrays((a[::-1], b, c), usemask=False),
        ),
        (
            arfn.stack_arrays((x, y), defaults={"d": True, "b": -2.5, "zz": 1}, usemask=False),
            nrfn.stack_arrays((a, b), defaults={"d": True, "b": -2.5, "zz": 1}, usemask=False),
        ),
        (
            arfn.stack_arrays((x[:0], y[:0]), usemask=False),
            nrfn.stack_arrays((a[:0], b[:0]), usemask=False),
        ),
        (
            arfn.stack_arrays((x[["a"]], y[["a"]]), usemask=False),  # one field: concatenated
            nrfn.stack_arrays((a[["a"]], b[["a"]]), usemask=False),
        ),
    ]:
        same(got, want)
        assert got.device == device
    masked_same(arfn.stack_arrays((x, y)), nrfn.stack_arrays((a, b)))
    assert arfn.stack_arrays(x) is x and arfn.stack_arrays([y]) is y
    f, g = data(rng, (3,), "i4"), data(rng, (2, 2), "i4")
    got = arfn.stack_arrays((ap.asarray(f), ap.asarray(g)), usemask=False)
    np.testing.assert_array_equal(ap.asnumpy(got), nrfn.stack_arrays((f, g), usemask=False))
    got = arfn.stack_arrays((x, y), usemask=False, asrecarray=True)
    assert isinstance(got, ap.rec.recarray)
    np.testing.assert_array_equal(ap.asnumpy(got.a), nrfn.stack_arrays((a, b)).data["a"])


def test_stack_arrays_converts_only_when_asked(device, rng):
    a = records(rng, (3,), np.dtype([("a", "i4"), ("b", "f4")]))
    b = records(rng, (2,), np.dtype([("a", "i8"), ("c", "u1")]))
    x, y = ap.asarray(a), ap.asarray(b)
    with pytest.raises(TypeError, match="Incompatible type 'int32' <> 'int64'"):
        arfn.stack_arrays((x, y), usemask=False)
    got = arfn.stack_arrays((x, y), usemask=False, autoconvert=True)
    same(got, nrfn.stack_arrays((a, b), usemask=False, autoconvert=True))


# -- join_by ---------------------------------------------------------------------------------


def keyed(rng, n, dtype, keys=("k",), pool=12):
    """Records of `dtype` whose fields `keys` are unique together (as join_by asks)."""
    out = records(rng, (n,), dtype)
    picks = rng.choice(pool ** len(keys), n, replace=False)
    for i, k in enumerate(keys):
        out[k] = (picks // pool**i) % pool
    return out


R1 = np.dtype([("k", "i4"), ("v", "f8"), ("w", "i2", (2,))])
R2 = np.dtype([("k", "i8"), ("v", "f4"), ("name", "U6")])


@pytest.mark.parametrize("jointype", ["inner", "outer", "leftouter"])
def test_join_by(device, rng, jointype):
    r1, r2 = keyed(rng, 7, R1), keyed(rng, 9, R2)
    x, y = ap.asarray(r1), ap.asarray(r2)
    for args, kwargs in [
        ((), {}),
        ((), {"r1postfix": "_l", "r2postfix": ""}),
        ((), {"defaults": {"v1": -1.5, "name": "none"}}),
    ]:
        got = arfn.join_by("k", x, y, jointype, *args, usemask=False, **kwargs)
        same(got, nrfn.join_by("k", r1, r2, jointype, *args, usemask=False, **kwargs))
        assert got.device == device
    masked_same(arfn.join_by("k", x, y, jointype), nrfn.join_by("k", r1, r2, jointype))
    got = arfn.join_by("k", x[::-1], y[:0], jointype, usemask=False)
    same(got, nrfn.join_by("k", r1[::-1], r2[:0], jointype, usemask=False))
    got = arfn.rec_join("k", x, y, jointype)
    want = nrfn.rec_join("k", r1, r2, jointype)
    assert isinstance(got, ap.rec.recarray)
    np.testing.assert_array_equal(got.get(), np.asarray(want))


def test_join_by_several_keys(device, rng):
    d1 = np.dtype([("a", "i4"), ("x", "f8"), ("b", "u1")])
    d2 = np.dtype([("b", "u1"), ("a", "i4"), ("pos", NESTED)])
    r1, r2 = keyed(rng, 10, d1, ("a", "b"), 4), keyed(rng, 8, d2, ("a", "b"), 4)
    x, y = ap.asarray(r1), ap.asarray(r2)
    for key in [("a", "b"), ["b", "a"]]:
        for jointype in ["inner", "outer"]:
            got = arfn.join_by(key, x, y, jointype, usemask=False)
            same(got, nrfn.join_by(key, r1, r2, jointype, usemask=False))


def test_join_by_refuses_as_numpy(device, rng):
    r1, r2 = keyed(rng, 3, R1), keyed(rng, 3, R2)
    for args, kwargs in [
        (("k", r1, r2, "left"), {}),
        (("zz", r1, r2), {}),
        ((("k", "k"), r1, r2), {}),
        (("k", r1, r2), {"r1postfix": "", "r2postfix": ""}),
    ]:
        with pytest.raises(ValueError) as e:
            nrfn.join_by(*args, usemask=False, **kwargs)
        mine = [ap.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
        with pytest.raises(ValueError, match=str(e.value)[:40].replace("(", r"\(")):
            arfn.join_by(*mine, usemask=False, **kwargs)
    with pytest.raises(TypeError):
        arfn.join_by("k", ap.zeros(3), ap.asarray(r2), usemask=False)


# -- find_duplicates -------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 12, 40])
def test_find_duplicates(device, rng, n):
    dtype = np.dtype([("a", "i4"), ("b", "f4"), ("c", "?")])
    a = records(rng, (n,), dtype)
    a["a"] = rng.integers(0, max(n // 3, 1), n)
    a["b"] = rng.integers(0, 2, n)
    a["c"] = False
    if n == 0:
        for fn, arg in [(nrfn.find_duplicates, np.ma.array(a)), (arfn.find_duplicates, a)]:
            with pytest.raises(IndexError, match="invalid index to scalar variable"):
                fn(arg)
        return
    x = ap.asarray(a)
    for key in [None, "a"]:
        got, idx = arfn.find_duplicates(x, key, return_index=True)
        want, widx = nrfn.find_duplicates(np.ma.array(a), key, return_index=True)
        # NumPy's sort is not stable: equal keys may come in another order
        np.testing.assert_array_equal(np.sort(ap.asnumpy(idx)), np.sort(widx))
        np.testing.assert_array_equal(got.get(), a[ap.asnumpy(idx)])
        keys = got.get() if key is None else got.get()[key]
        assert (np.sort(keys, kind="stable") == keys).all()
        assert got.device == device
    same(arfn.find_duplicates(x[::-1]), np.asarray(nrfn.find_duplicates(np.ma.array(a[::-1]))))
    masked = arfn.find_duplicates(np.ma.array(a))
    masked_same(masked, nrfn.find_duplicates(np.ma.array(a)))
    with pytest.raises(TypeError):
        arfn.find_duplicates(ap.zeros(3))
