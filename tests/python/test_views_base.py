"""ndarray.base and flags.owndata as NumPy's: a view's base is the first array that owns the
data it reaches (never an intermediate view), results own their data, and the base is the
owner's own object, kept alive by its views."""

import gc
import weakref

import numpy as np
import pytest

import accelpy as ap

# (name, source shape, dtype, operation): each taken from a fresh owner array `a`.
CASES = [
    ("basic slice", (6, 4), "f8", lambda xp, a: a[1:]),
    ("slice of a slice", (6, 4), "f8", lambda xp, a: a[1:][::2]),
    ("negative stride", (6, 4), "f8", lambda xp, a: a[::-1, ::-2]),
    ("ellipsis", (6, 4), "f8", lambda xp, a: a[...]),
    ("newaxis", (6, 4), "f8", lambda xp, a: a[None]),
    ("row", (6, 4), "f8", lambda xp, a: a[2]),
    ("0-d of a 1-d array by empty tuple", (5,), "f8", lambda xp, a: a[()]),
    ("element (a scalar copy)", (6, 4), "f8", lambda xp, a: a[1, 2]),
    ("T", (6, 4), "f8", lambda xp, a: a.T),
    ("mT", (2, 3, 4), "f8", lambda xp, a: a.mT),
    ("transpose()", (2, 3, 4), "f8", lambda xp, a: a.transpose(2, 0, 1)),
    ("xp.transpose", (6, 4), "f8", lambda xp, a: xp.transpose(a)),
    ("reshape", (6, 4), "f8", lambda xp, a: a.reshape(3, 8)),
    ("reshape to its own shape", (6, 4), "f8", lambda xp, a: a.reshape(a.shape)),
    ("xp.reshape", (6, 4), "f8", lambda xp, a: xp.reshape(a, (-1,))),
    ("reshape of a transpose (a copy)", (6, 4), "f8", lambda xp, a: a.T.reshape(-1)),
    ("ravel", (6, 4), "f8", lambda xp, a: a.ravel()),
    ("xp.ravel", (6, 4), "f8", lambda xp, a: xp.ravel(a)),
    ("ravel of a transpose (a copy)", (6, 4), "f8", lambda xp, a: a.T.ravel()),
    ("flatten", (6, 4), "f8", lambda xp, a: a.flatten()),
    ("copy", (6, 4), "f8", lambda xp, a: a.copy()),
    ("xp.copy", (6, 4), "f8", lambda xp, a: xp.copy(a)),
    ("view()", (6, 4), "f8", lambda xp, a: a.view()),
    ("view as another dtype", (6, 4), "f8", lambda xp, a: a.view(np.int64)),
    ("view of a view", (6, 4), "f8", lambda xp, a: a[1:].view()),
    ("swapaxes", (2, 3, 4), "f8", lambda xp, a: a.swapaxes(0, 2)),
    ("xp.swapaxes", (2, 3, 4), "f8", lambda xp, a: xp.swapaxes(a, 0, 2)),
    ("xp.moveaxis", (2, 3, 4), "f8", lambda xp, a: xp.moveaxis(a, 0, -1)),
    ("squeeze", (1, 6, 1), "f8", lambda xp, a: a.squeeze()),
    ("xp.squeeze", (1, 6, 1), "f8", lambda xp, a: xp.squeeze(a, axis=0)),
    ("xp.expand_dims", (6, 4), "f8", lambda xp, a: xp.expand_dims(a, 1)),
    ("xp.broadcast_to", (1, 4), "f8", lambda xp, a: xp.broadcast_to(a, (3, 4))),
    ("diagonal", (4, 4), "f8", lambda xp, a: a.diagonal()),
    ("xp.diagonal", (4, 4), "f8", lambda xp, a: xp.diagonal(a, 1)),
    ("real of complex", (6, 4), "c16", lambda xp, a: a.real),
    ("imag of complex", (6, 4), "c16", lambda xp, a: a.imag),
    ("real of a real array (itself)", (6, 4), "f8", lambda xp, a: a.real),
    ("iteration's row", (6, 4), "f8", lambda xp, a: next(iter(a))),
    ("xp.flip", (6, 4), "f8", lambda xp, a: xp.flip(a, 0)),
    ("xp.fliplr", (6, 4), "f8", lambda xp, a: xp.fliplr(a)),
    ("xp.split", (6, 4), "f8", lambda xp, a: xp.split(a, 2)[1]),
    ("xp.atleast_2d", (6,), "f8", lambda xp, a: xp.atleast_2d(a)),
    ("fancy index (a copy)", (6, 4), "f8", lambda xp, a: a[[2, 1]]),
    ("boolean mask (a copy)", (6, 4), "f8", lambda xp, a: a[a > 0]),
    ("arithmetic", (6, 4), "f8", lambda xp, a: a * 2 + 1),
    ("astype", (6, 4), "f8", lambda xp, a: a.astype(np.float32)),
    ("reduction", (6, 4), "f8", lambda xp, a: a.sum(axis=0)),
    ("xp.asarray of an array (itself)", (6, 4), "f8", lambda xp, a: xp.asarray(a)),
    ("array in Fortran order", (6, 4), "f8", lambda xp, a: xp.array(a, order="F")),
    ("xp.asfortranarray", (6, 4), "f8", lambda xp, a: xp.asfortranarray(a)),
    ("xp.ascontiguousarray of a transpose", (6, 4), "f8", lambda xp, a: xp.ascontiguousarray(a.T)),
]


@pytest.mark.parametrize("name, shape, dtype, op", CASES, ids=[c[0] for c in CASES])
def test_base_and_owndata_as_numpy(name, shape, dtype, op, device, rng):
    data = rng.standard_normal(shape).astype(dtype)
    if np.dtype(dtype).kind == "c":
        data = data + 1j * rng.standard_normal(shape)
    want_src = np.array(data)
    want = op(np, want_src)
    src = ap.array(data, device=device)
    got = op(ap, src)
    assert src.base is None and src.flags.owndata
    if np.isscalar(want) or not isinstance(want, np.ndarray):
        if device.type == "cpu":  # NumPy's scalar itself
            assert type(got) is type(want) and got == want
        else:  # a 0-d copy on the device
            assert got.base is None and got.flags.owndata
        return
    assert (got.base is None) == (want.base is None), f"base {got.base!r}, NumPy {want.base!r}"
    assert got.flags.owndata == want.flags.owndata
    assert got.flags["OWNDATA"] == want.flags["O"]
    assert (got is src) == (want is want_src)
    if want.base is not None:
        assert (got.base is src) == (want.base is want_src)
        np.testing.assert_array_equal(ap.asnumpy(got.base), want.base)
    # the values too (a reduction's order differs on CUDA: within its rounding)
    np.testing.assert_allclose(ap.asnumpy(got), want, rtol=1e-12, atol=1e-12)


def test_base_of_a_view_of_a_view_is_the_owner(device):
    a = ap.arange(12, device=device)
    b = a[1:]
    c = b.reshape(11, 1)[::2]
    assert b.base is a and c.base is a and a.base is None
    assert not b.flags.owndata and not c.flags.owndata and a.flags.owndata
    c[0] = 100  # still the owner's memory
    assert int(a[1]) == 100


def test_view_keeps_its_base_alive(device):
    """As in NumPy, the base object lives as long as a view of it (the quickstart's
    `np.arange(12).reshape(3, 4)` is a view whose base no name holds)."""
    a = ap.arange(12, device=device)
    ref = weakref.ref(a)
    v = a.reshape(3, 4)
    del a
    gc.collect()
    assert ref() is not None and v.base is ref()
    np.testing.assert_array_equal(ap.asnumpy(v.base), np.arange(12))
    del v
    gc.collect()
    assert ref() is None


def test_numpy_quickstart_views(device):
    """NumPy's quickstart: a view of a view has the first owner as its base."""
    for xp, dev in ((np, None), (ap, device)):
        a = xp.arange(12).reshape(3, 4) if dev is None else ap.arange(12, device=dev).reshape(3, 4)
        c = a.view()
        assert c is not a and c.base is not a and c.base is a.base and not c.flags.owndata
        d = a.copy()
        assert d.base is None and d.flags.owndata


def test_in_place_shape_keeps_ownership(device):
    a = ap.arange(6, device=device)
    a.shape = (2, 3)
    assert a.base is None and a.flags.owndata
    v = a[1:]
    v.shape = (3,)
    assert v.base is a and not v.flags.owndata


def test_flags_as_numpy(device):
    for make in (lambda xp: xp.arange(6.0).reshape(2, 3), lambda xp: xp.arange(6.0).reshape(2, 3).T,
                 lambda xp: xp.ones((3, 4))[:, 1:]):
        want, got = make(np).flags, make(ap).flags
        for key in ("C", "F", "O", "W", "A", "X", "FNC", "FORC", "B", "CA"):
            assert got[key] == want[key], key
        for attr in ("fnc", "forc", "behaved", "carray", "fortran", "owndata"):
            assert getattr(got, attr) == getattr(want, attr), attr
        assert repr(got) == repr(want)
        assert np.isfortran(make(ap)) == np.isfortran(make(np))
