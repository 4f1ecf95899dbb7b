"""ndarray members NumPy programs use: assignable shape, flat, resize, fill, tofile, view,
itemsize, nbytes, strides and iteration, against NumPy over layouts and devices."""

import numpy as np
import pytest

import accelpy as ap


def _pair(rng, shape, dtype=np.float64):
    a = (rng.standard_normal(shape) * 10).astype(dtype)
    return a, ap.asarray(a.copy())  # not sharing a's memory: resize checks references


@pytest.mark.parametrize("shape,new", [((6,), (2, 3)), ((2, 3), (3, 2)), ((2, 3), -1),
                                       ((4,), (2, -1)), ((), (1, 1)), ((0, 3), (3, 0)),
                                       ((2, 3), 6)])
def test_shape_assignment_is_a_view(device, rng, shape, new):
    a, x = _pair(rng, shape)
    base = x
    y = x[...]
    y.shape = new
    a2 = a[...]
    a2.shape = new
    assert y.shape == a2.shape
    np.testing.assert_array_equal(ap.asnumpy(y), a2)
    assert base.shape == shape  # the other object keeps its shape
    if y.size:
        y[(0,) * y.ndim] = 123.0  # and shares the memory
        assert ap.asnumpy(base).reshape(-1)[0] == 123.0


def test_shape_assignment_needing_a_copy_raises(device, rng):
    a, x = _pair(rng, (4, 6))
    t = x.T
    msg = "Incompatible shape for in-place modification"
    with pytest.raises(AttributeError, match=msg):
        t.shape = (24,)
    with pytest.raises(AttributeError, match=msg):
        a.T.shape = (24,)  # NumPy's own rule, the same message
    assert t.shape == (6, 4)
    with pytest.raises(ValueError):
        x.shape = (5, 5)
    with pytest.raises(TypeError):
        x.shape = None
    s = x[:, ::2]
    s.shape = (4, 3, 1)  # a non-contiguous view NumPy can reshape without a copy
    np.testing.assert_array_equal(ap.asnumpy(s), a[:, ::2].reshape(4, 3, 1))


@pytest.mark.parametrize("layout", ["c", "transposed", "strided", "reversed"])
def test_flat_read(device, rng, layout):
    a, x = _pair(rng, (3, 4))
    view = {"c": lambda m: m, "transposed": lambda m: m.T, "strided": lambda m: m[:, ::2],
            "reversed": lambda m: m[::-1, ::-1]}[layout]
    a, x = view(a), view(x)
    assert len(x.flat) == len(a.flat)
    assert list(x.flat) == list(a.flat)
    assert float(x.flat[5]) == a.flat[5]
    np.testing.assert_array_equal(ap.asnumpy(x.flat[2:7]), a.flat[2:7])
    np.testing.assert_array_equal(ap.asnumpy(x.flat[[0, 3, -1]]), a.flat[[0, 3, -1]])
    np.testing.assert_array_equal(np.asarray(x.flat), np.asarray(a.flat))
    np.testing.assert_array_equal(ap.asnumpy(x.flat.copy()), a.flat.copy())


@pytest.mark.parametrize("layout", ["c", "transposed", "reversed"])
def test_flat_assign(device, rng, layout):
    a, x = _pair(rng, (3, 4))
    if layout == "transposed":
        a, x = a.T, x.T
    elif layout == "reversed":
        a, x = a[::-1], x[::-1]
    for key, value in [(5, 7.0), (slice(1, 9, 2), [1.0, 2.0]), ([0, -1], [3.0, 4.0]),
                       (slice(None), 0.5 + np.arange(12.0)), (slice(0, 0), 1.0)]:
        a.flat[key] = value
        x.flat[key] = value
        np.testing.assert_array_equal(ap.asnumpy(x), a)
    a.flat = [9.0, 8.0, 7.0]
    x.flat = [9.0, 8.0, 7.0]
    np.testing.assert_array_equal(ap.asnumpy(x), a)
    with pytest.raises(IndexError):
        x.flat[100] = 1.0


def test_resize_in_place(device, rng):
    for new in [(2, 5), 3, (0,), (4, 4)]:
        a, x = _pair(rng, (3, 3))
        a.resize(new)
        x.resize(new)
        assert x.shape == a.shape
        np.testing.assert_array_equal(ap.asnumpy(x), a)
    a, x = _pair(rng, (2, 3))
    x.resize(3, 2)
    a.resize(3, 2)
    np.testing.assert_array_equal(ap.asnumpy(x), a)


def test_resize_refcheck(device, rng):
    _, x = _pair(rng, (6,))
    view = x[:3]
    with pytest.raises(ValueError, match="cannot resize an array that references"):
        x.resize(10)
    with pytest.raises(ValueError, match="cannot resize an array that references"):
        view.resize(10)
    x.resize(10, refcheck=False)
    assert x.shape == (10,)
    _, y = _pair(rng, (4,))
    alias = y
    with pytest.raises(ValueError, match="cannot resize"):
        y.resize(8)
    del alias
    y.resize(8)
    assert y.shape == (8,)
    y.resize(2, 4)  # same size: no check, as NumPy
    with pytest.raises(ValueError, match="single-segment"):
        ap.zeros((3, 4)).T.resize(5)
    with pytest.raises(ValueError, match="negative"):
        ap.zeros(3).resize(-1)


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex64, np.bool_])
def test_fill_itemsize_nbytes_strides(device, rng, dtype):
    a, x = _pair(rng, (3, 4), dtype)
    assert x.itemsize == a.itemsize and x.nbytes == a.nbytes and x.strides == a.strides
    assert x.T.strides == a.T.strides and x[::-1, ::2].strides == a[::-1, ::2].strides
    x.fill(1)
    a.fill(1)
    np.testing.assert_array_equal(ap.asnumpy(x), a)


@pytest.mark.parametrize("src,dst", [(np.float32, np.int32), (np.float64, np.float32),
                                     (np.int16, np.int64), (np.uint8, np.uint16),
                                     (np.complex64, np.float32)])
def test_view_dtype(device, rng, src, dst):
    a, x = _pair(rng, (4, 8), src)
    np.testing.assert_array_equal(ap.asnumpy(x.view(dst)), a.view(dst))
    assert x.view(dst).shape == a.view(dst).shape
    if np.dtype(dst).itemsize != np.dtype(src).itemsize:
        with pytest.raises(ValueError):
            x.T.view(dst)
        with pytest.raises(ValueError):
            a.T.view(dst)


def test_iteration(device, rng):
    a, x = _pair(rng, (3, 2))
    rows = list(x)
    assert len(rows) == 3 and all(isinstance(r, ap.ndarray) for r in rows)
    for r, e in zip(rows, a, strict=True):
        np.testing.assert_array_equal(ap.asnumpy(r), e)
    with pytest.raises(TypeError, match="iteration over a 0-d array"):
        iter(ap.asarray(1.0))
    assert list(ap.zeros((0, 3))) == []


def test_tofile_fromfile(device, rng, tmp_path):
    a, x = _pair(rng, (3, 4), np.float32)
    f = tmp_path / "raw.bin"
    x.T.tofile(f)
    np.testing.assert_array_equal(np.fromfile(f, np.float32), a.T.reshape(-1))
    back = ap.fromfile(f, dtype=np.float32)
    assert isinstance(back, ap.ndarray)
    np.testing.assert_array_equal(ap.asnumpy(back), a.T.reshape(-1))
    t = tmp_path / "text.txt"
    x.tofile(t, sep=",", format="%.3f")
    a.tofile(tmp_path / "expected.txt", sep=",", format="%.3f")
    assert t.read_text() == (tmp_path / "expected.txt").read_text()
    np.testing.assert_array_equal(ap.asnumpy(ap.fromfile(t, sep=",")),
                                  np.fromfile(t, sep=","))


@pytest.mark.parametrize("layout", ["c", "transposed", "strided", "reversed", "0-d", "empty"])
@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.uint8, np.bool_, np.complex64])
def test_data_buffer(device, rng, layout, dtype):
    """ndarray.data: NumPy's memoryview on the CPU (same format, shape, strides, bytes, and
    writes go to the array); CuPy's pointer on a GPU (the address of element 0)."""
    view = {"c": lambda m: m, "transposed": lambda m: m.T, "strided": lambda m: m[:, ::2],
            "reversed": lambda m: m[::-1, ::-1], "0-d": lambda m: m[1, 2, ...],
            "empty": lambda m: m[:0]}[layout]
    a, x = _pair(rng, (3, 4), dtype)
    a, x = view(a), view(x)
    if device != "cpu":
        assert x.data.ptr == int(x.data) and x.data.size == x.nbytes
        assert x.data.tobytes() == a.data.tobytes()  # NumPy programs' `a.data.tobytes()`
        return
    got, want = x.data, a.data
    assert (got.format, got.shape, got.strides, got.itemsize, got.readonly) == (
        want.format, want.shape, want.strides, want.itemsize, want.readonly)
    assert got.tobytes() == want.tobytes()
    if x.size:
        index = (0,) * x.ndim
        np.asarray(got)[index] = 1  # a write through the buffer reaches the array, as NumPy's
        assert ap.asnumpy(x)[index] == 1


def test_delitem_raises_valueerror(device):
    x, a = ap.arange(6), np.arange(6)
    for key in (2, slice(2, 5), (0,)):
        with pytest.raises(ValueError, match="cannot delete array elements"):
            del x[key]
        with pytest.raises(ValueError, match="cannot delete array elements"):
            del a[key]
    np.testing.assert_array_equal(ap.asnumpy(x), a)
