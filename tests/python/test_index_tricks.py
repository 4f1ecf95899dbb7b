"""Index tricks (mgrid, ogrid, r_, c_, s_, index_exp, ndindex, ndenumerate), NumPy's dtype
aliases and abstract types, and arange with 0-d array arguments, against NumPy."""

import numpy as np
import pytest

import accelpy as ap


def _same(x, expected):
    assert isinstance(x, ap.ndarray)
    assert x.dtype == expected.dtype and x.shape == expected.shape
    np.testing.assert_array_equal(ap.asnumpy(x), expected)


@pytest.mark.parametrize("key", [np.s_[0:5], np.s_[0:4, 0:3], np.s_[-1:1:5j],
                                 np.s_[0:1:3j, 2:5], np.s_[0.5:2.5:0.5]])
def test_mgrid_ogrid(device, key):
    _same(ap.mgrid[key], np.mgrid[key])
    expected = np.ogrid[key]
    got = ap.ogrid[key]
    if isinstance(expected, np.ndarray):
        _same(got, expected)
    else:
        assert type(got) is type(expected) and len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            _same(g, e)
    assert ap.mgrid[key].device == device


def test_grids_take_0d_accelpy_bounds(device):
    n = ap.asarray(4)
    _same(ap.mgrid[0:n], np.mgrid[0:4])
    _same(ap.mgrid[ap.asarray(0.0):1:ap.asarray(5j)], np.mgrid[0.0:1:5j])


def test_r_c(device, rng):
    a = rng.standard_normal(3)
    b = rng.standard_normal((2, 3))
    x, y = ap.asarray(a), ap.asarray(b)
    _same(ap.r_[x, 0, 1:4, x], np.r_[a, 0, 1:4, a])
    _same(ap.r_[-1:1:6j, [0] * 3, 5, 6], np.r_[-1:1:6j, [0] * 3, 5, 6])
    _same(ap.r_["0,2", x, x], np.r_["0,2", a, a])
    _same(ap.r_["-1", y, y], np.r_["-1", b, b])
    _same(ap.c_[x, x[::-1]], np.c_[a, a[::-1]])
    _same(ap.c_[y.T, y.T], np.c_[b.T, b.T])
    assert ap.r_[x, x].device == x.device
    with pytest.raises(ValueError):
        ap.r_["bad directive", x]


def test_s_index_exp_ndindex_are_numpys():
    assert ap.s_ is np.s_ and ap.index_exp is np.index_exp and ap.ndindex is np.ndindex
    x = ap.arange(10)
    assert ap.asnumpy(x[ap.s_[2::3]]).tolist() == [2, 5, 8]
    assert ap.index_exp[1:2] == (slice(1, 2),)
    assert list(ap.ndindex(2, 2)) == [(0, 0), (0, 1), (1, 0), (1, 1)]


@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3), (2, 1, 2)])
def test_ndenumerate(device, rng, shape):
    a = rng.standard_normal(shape)
    x = ap.asarray(a)
    got = list(ap.ndenumerate(x))
    expected = list(np.ndenumerate(a))
    assert [i for i, _ in got] == [i for i, _ in expected]
    assert [v for _, v in got] == [v for _, v in expected]
    if a.ndim:
        assert list(ap.ndenumerate(x[..., ::-1])) == list(np.ndenumerate(a[..., ::-1]))
    assert list(ap.ndenumerate([[1, 2]])) == list(np.ndenumerate([[1, 2]]))


def test_ix(device):
    a = np.arange(20).reshape(4, 5)
    x = ap.asarray(a)
    _same(x[ap.ix_([0, 2], [1, 3, 4])], a[np.ix_([0, 2], [1, 3, 4])])


ALIASES = ["double", "single", "half", "int_", "intp", "uintp", "bool_", "cdouble", "csingle",
           "longlong", "ulonglong", "short", "ushort", "intc", "uintc", "byte", "ubyte",
           "longdouble", "clongdouble"]
ABSTRACT = ["generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact",
            "floating", "complexfloating"]


@pytest.mark.parametrize("name", ALIASES)
def test_dtype_aliases(device, name):
    t = getattr(ap, name)
    assert t is getattr(np, name)
    if np.dtype(t) in (np.dtype(np.longdouble), np.dtype(np.clongdouble)) and (
            np.dtype(np.longdouble).itemsize > 8):
        with pytest.raises(TypeError, match=np.dtype(t).name):
            ap.zeros(3, dtype=t)
        return
    x = ap.zeros(3, dtype=t)
    assert x.dtype == t and x.dtype == np.zeros(3, dtype=t).dtype
    assert ap.asarray([1, 0], dtype=t).dtype == np.dtype(t)


def test_abstract_types_and_issubdtype(device):
    for name in ABSTRACT:
        assert getattr(ap, name) is getattr(np, name)
    assert ap.dtype is np.dtype and ap.issubdtype is np.issubdtype
    x = ap.ones(2, dtype=ap.float32)
    assert ap.issubdtype(x.dtype, ap.floating) and ap.issubdtype(x.dtype, ap.inexact)
    assert not ap.issubdtype(x.dtype, ap.integer)
    assert ap.issubdtype(ap.ones(1, dtype=ap.uint8).dtype, ap.unsignedinteger)
    assert ap.issubdtype(ap.ones(1, dtype=ap.csingle).dtype, ap.complexfloating)
    assert ap.dtype("f8") == ap.double and ap.finfo(ap.single).eps == np.finfo(np.single).eps
    assert ap.iinfo(ap.short).max == np.iinfo(np.short).max
    assert ap.newaxis is None and x[:, ap.newaxis].shape == (2, 1)


@pytest.mark.parametrize("args", [(5,), (1, 7), (1, 7, 2), (0.5, 3.0, 0.25), (10, 0, -3)])
def test_arange_takes_0d_arrays(device, args):
    expected = np.arange(*args)
    _same(ap.arange(*(ap.asarray(a) for a in args)), expected)
    _same(ap.arange(*(np.asarray(a) for a in args)), expected)
    with pytest.raises(ValueError, match="start must be a real number or a 0-d array"):
        ap.arange(ap.asarray([1, 2]))
    with pytest.raises(ValueError, match="stop"):
        ap.arange(0, np.ones(2))
