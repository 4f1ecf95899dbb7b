"""NumPy's functions on structured arrays (accelpy._structured_functions) against NumPy:
concatenate and the stack family, where, take, unique, sort and argsort with order=, the
promotion rules of records and NumPy's errors; fresh random records of several field dtypes,
shapes 0-d, empty, 2-D and non-contiguous, on every device."""

import numpy as np
import pytest
from test_structured import MIXED, NESTED, records

import accelpy as ap
from accelpy._structured import StructuredArray

SIMPLE = np.dtype([("k", "i2"), ("v", "f4")])


def same(got, want):
    """got (accelpy records) equals NumPy's records: dtype, shape, and every field exactly
    (NaN where NumPy has NaN: NumPy's own == of records says NaN != NaN)."""
    assert isinstance(got, StructuredArray), type(got)
    have = ap.asnumpy(got)
    assert have.dtype == want.dtype and have.shape == want.shape
    for name in want.dtype.names:
        if want.dtype[name].names is not None:
            same(got[name], want[name])
        else:
            np.testing.assert_array_equal(have[name], want[name], err_msg=name)


DTYPES = [MIXED, NESTED, SIMPLE]


@pytest.mark.parametrize("dtype", DTYPES, ids=range(len(DTYPES)))
def test_concatenate_joins_every_field(device, rng, dtype):
    a, b = records(rng, (3, 4), dtype), records(rng, (2, 4), dtype)
    x, y = ap.asarray(a), ap.asarray(b)
    same(ap.concatenate([x, y]), np.concatenate([a, b]))
    same(ap.concatenate((x[:, ::-1], y), axis=0), np.concatenate((a[:, ::-1], b), axis=0))
    same(ap.concatenate([x, x[:, :1]], axis=-1), np.concatenate([a, a[:, :1]], axis=-1))
    same(ap.concatenate([x, y], axis=None), np.concatenate([a, b], axis=None))
    same(ap.concatenate([x[:0], y]), np.concatenate([a[:0], b]))
    same(ap.concatenate([x, b]), np.concatenate([a, b]))  # NumPy records come in too


def test_concatenate_promotes_fields_as_numpy(device, rng):
    a = records(rng, (3,), SIMPLE)
    wide = np.zeros(2, [("k", "i8"), ("v", "f8")])
    wide["k"], wide["v"] = [7, -8], [0.5, 1e300]
    got = ap.concatenate([ap.asarray(a), ap.asarray(wide)])
    want = np.concatenate([a, wide])
    assert got.dtype == want.dtype
    same(got, want)
    for other in (
        np.zeros(2, [("x", "i2"), ("v", "f4")]),
        np.zeros(2, "i2"),
        np.zeros(2, [("k", "i2")]),
    ):
        for xp, first, second in ((np, a, other), (ap, ap.asarray(a), ap.asarray(other))):
            with pytest.raises(TypeError) as caught:
                xp.concatenate([first, second])
            if xp is np:
                message = str(caught.value)
        assert str(caught.value) == message
    with pytest.raises(ValueError, match="dimensions except for the concatenation axis"):
        ap.concatenate([ap.zeros((2, 3), SIMPLE), ap.zeros((2, 2), SIMPLE)])
    with pytest.raises(ValueError, match="zero-dimensional"):
        ap.concatenate([ap.zeros((), SIMPLE), ap.zeros((), SIMPLE)])
    with pytest.raises(np.exceptions.AxisError):
        ap.concatenate([ap.zeros(2, SIMPLE)], axis=1)


def test_stack_family(device, rng):
    a, b = records(rng, (4,), MIXED), records(rng, (4,), MIXED)
    x, y = ap.asarray(a), ap.asarray(b)
    for name in ("stack", "hstack", "vstack", "dstack", "column_stack"):
        same(getattr(ap, name)([x, y]), getattr(np, name)([a, b]))
    same(ap.stack([x, y], axis=-1), np.stack([a, b], axis=-1))
    same(ap.stack([x[0], y[1]]), np.stack([a[0], b[1]]))  # records as 0-d arrays
    with pytest.raises(ValueError, match="same shape"):
        ap.stack([x, y[:3]])
    with pytest.raises(np.exceptions.AxisError):
        ap.stack([x, y], axis=3)


def test_recarrays_join_into_records_of_their_dtype(rng):
    a = records(rng, (3,), SIMPLE)
    r = ap.asarray(a).view(np.recarray)
    got = ap.concatenate([r, r])
    want = np.concatenate([a.view(np.recarray)] * 2)
    assert type(want) is np.ndarray and type(got) is StructuredArray
    assert got.dtype == want.dtype and got.dtype.type is np.record
    same(got, want)


@pytest.mark.parametrize("dtype", DTYPES, ids=range(len(DTYPES)))
def test_where_chooses_records(device, rng, dtype):
    a, b = records(rng, (3, 4), dtype), records(rng, (4,), dtype)
    cond = rng.random((3, 4)) < 0.5
    x, y = ap.asarray(a), ap.asarray(b)
    same(ap.where(ap.asarray(cond), x, y), np.where(cond, a, b))
    same(ap.where(cond[:, :1], x[:, ::-1], y), np.where(cond[:, :1], a[:, ::-1], b))
    same(ap.where(True, x[0, 0], y), np.where(True, a[0, 0], b))
    same(ap.where(cond[:0], x[:0], y), np.where(cond[:0], a[:0], b))
    with pytest.raises(TypeError):
        ap.where(ap.asarray(cond), x, 1.0)
    with pytest.raises(TypeError):
        np.where(cond, a, 1.0)


def test_where_promotes_fields(device, rng):
    a = records(rng, (4,), SIMPLE)
    wide = np.ones(4, [("k", "i4"), ("v", "f8")])
    cond = rng.random(4) < 0.5
    same(ap.where(ap.asarray(cond), ap.asarray(a), ap.asarray(wide)), np.where(cond, a, wide))


def test_fields_kept_on_the_host(device, rng):
    """A string field stays a NumPy array: joined and chosen by NumPy, the others on device."""
    spec = np.dtype({"names": ("name", "age"), "formats": ("U10", "i4")})
    a, b = records(rng, (4,), spec), records(rng, (4,), spec)
    cond = rng.random(4) < 0.5
    x, y = ap.asarray(a), ap.asarray(b)
    same(ap.concatenate([x, y[::-1]]), np.concatenate([a, b[::-1]]))
    same(ap.where(ap.asarray(cond), x, y), np.where(cond, a, b))
    same(ap.unique(ap.concatenate([x, x])), np.unique(np.concatenate([a, a])))


def test_take(device, rng):
    a = records(rng, (4, 5), MIXED)
    x = ap.asarray(a)
    idx = rng.integers(-4, 4, (2, 3))
    same(ap.take(x, ap.asarray(idx)), np.take(a, idx))
    same(ap.take(x, idx, axis=0), np.take(a, idx, axis=0))
    same(ap.take(x, [4, -1], axis=1), np.take(a, [4, -1], axis=1))
    same(ap.take(x, [9, -7], axis=1, mode="wrap"), np.take(a, [9, -7], axis=1, mode="wrap"))
    same(ap.take(x, [9, -7], axis=0, mode="clip"), np.take(a, [9, -7], axis=0, mode="clip"))
    with pytest.raises(IndexError):
        ap.take(x, [5], axis=1)
    with pytest.raises(np.exceptions.AxisError):
        ap.take(x, [0], axis=2)


def test_copies_and_like(device, rng):
    a = records(rng, (3, 2), MIXED)
    x = ap.asarray(a)
    c = ap.copy(x)
    c["a"][...] = 0
    same(x, a)
    for make in ("empty_like", "zeros_like", "ones_like"):
        got = getattr(ap, make)(x)
        assert got.dtype == a.dtype and got.shape == a.shape and got.device == device
    same(ap.zeros_like(x), np.zeros_like(a))
    same(ap.ones_like(x[:, ::-1]), np.ones_like(a[:, ::-1]))


def sortable(rng, shape):
    """Records with many equal keys: ties decide the order of the next fields."""
    out = np.zeros(shape, [("a", "i4"), ("b", "f8"), ("c", "u1", (2,))])
    out["a"] = rng.integers(0, 3, shape)
    out["b"] = rng.choice([-1.5, 0.0, 2.0, np.nan], shape)
    out["c"] = rng.integers(0, 3, shape + (2,))
    return out


@pytest.mark.parametrize("order", [None, "b", ["c", "a"], ["b", "a", "c"]])
def test_sort_and_argsort_functions(device, rng, order):
    a = sortable(rng, (4, 9))
    x = ap.asarray(a)
    same(ap.sort(x, order=order), np.sort(a, order=order))
    same(ap.sort(x, axis=0, order=order), np.sort(a, axis=0, order=order))
    same(ap.sort(x[:, ::-2], axis=None, order=order), np.sort(a[:, ::-2], axis=None, order=order))
    got = ap.argsort(x, order=order, kind="stable").get()
    np.testing.assert_array_equal(got, np.argsort(a, order=order, kind="stable"))
    with pytest.raises(ValueError, match="unknown field name"):
        ap.sort(x, order="zz")
    with pytest.raises(ValueError, match="descending"):
        ap.argsort(x, descending=True)


def test_sort_of_numbers_takes_no_order(device):
    with pytest.raises(ValueError):
        ap.sort(ap.arange(3), order="a")
    with pytest.raises(ValueError):
        np.sort(np.arange(3), order="a")


@pytest.mark.parametrize("shape", [(), (0,), (12,), (3, 5)])
def test_unique_records(device, rng, shape):
    a = sortable(rng, shape)
    x = ap.asarray(a)
    same(ap.unique(x), np.unique(a))
    got = ap.unique(x, return_index=True, return_inverse=True, return_counts=True)
    want = np.unique(a, return_index=True, return_inverse=True, return_counts=True)
    same(got[0], want[0])
    for g, w in zip(got[1:], want[1:], strict=True):
        assert g.shape == w.shape
        np.testing.assert_array_equal(g.get(), w)


def test_unique_of_records_along_an_axis(device, rng):
    a = sortable(rng, (3, 4))
    a[2] = a[0]
    got = ap.unique(ap.asarray(a), axis=0, return_counts=True)
    want = np.unique(a, axis=0, return_counts=True)
    same(got[0], want[0])
    np.testing.assert_array_equal(got[1].get(), want[1])


def test_plain_arrays_keep_their_errors(device):
    with pytest.raises(TypeError):
        ap.concatenate([ap.zeros(2)], bogus=1)
    with pytest.raises(ValueError, match="need at least one array"):
        ap.concatenate([])
    with pytest.raises(TypeError):
        ap.where(ap.zeros(2), "a", None)
