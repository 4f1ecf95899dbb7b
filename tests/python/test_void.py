"""Unstructured void arrays (accelpy._void): made directly and from NumPy's, viewed as bytes
and numbers (writes going both ways), indexed, assigned, compared, sorted, joined and made
unique as NumPy's void, and the unique-rows idiom (rows viewed as void, unique, back as rows),
against NumPy on fresh random bytes, on every device."""

import numpy as np
import pytest

import accelpy as ap
from accelpy._void import VoidArray

SHAPES = [(), (0,), (5,), (2, 3)]


def voids(rng, shape, size):
    """Fresh random NumPy void records of `size` bytes."""
    return rng.integers(0, 256, shape + (size,), dtype=np.uint8).view(f"V{size}")[..., 0]


def same(got, want):
    """got (accelpy void records) equals NumPy's: dtype, shape and bytes."""
    assert isinstance(got, VoidArray), type(got)
    have = ap.asnumpy(got)
    assert have.dtype == want.dtype and have.shape == want.shape
    assert have.tobytes() == np.ascontiguousarray(want).tobytes()


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("size", [1, 4, 12])
def test_creation(device, shape, size):
    spec = f"V{size}"
    for make, ref in [(ap.zeros, np.zeros), (ap.ones, np.ones), (ap.empty, np.zeros)]:
        got = make(shape, spec)
        assert got.dtype == np.dtype(spec) and got.shape == shape and got.device == device
        same(got, ref(shape, spec))
    same(ap.empty(shape, np.dtype((np.void, size))), np.zeros(shape, np.dtype((np.void, size))))
    for fill in [b"\x01\xfe", np.void(b"\x07" * size), 7]:
        same(ap.full(shape, fill, spec), np.full(shape, fill, spec))
    row = [b"a", b"bc", b"d"]
    same(ap.full((2, 3), row, spec), np.full((2, 3), row, spec))
    with pytest.raises(ValueError, match=r"could not broadcast input array from shape \(3,\)"):
        ap.full((2, 4), row, spec)
    assert ap.zeros(3, spec).itemsize == size and ap.zeros((2, 3), spec).nbytes == 6 * size


@pytest.mark.parametrize("shape", SHAPES)
def test_round_trips(device, rng, shape):
    want = voids(rng, shape, 8)
    x = ap.asarray(want)
    same(x, want)
    assert x.device == device
    np.testing.assert_array_equal(np.asarray(x), want)
    same(ap.array(want), want)
    same(ap.asarray(x.get()), want)
    if want.ndim:
        same(ap.asarray(want[::-2]), want[::-2])  # strided NumPy memory
        same(x[::-1], want[::-1])
    if want.ndim and want.size:
        same(ap.asarray(list(want)), np.asarray(list(want)))
    assert repr(x) == repr(want) and str(x) == str(want)
    assert x.tolist() == want.tolist() and x.tobytes() == want.tobytes()
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        ap.asarray(want, copy=False)


def test_save_and_load(device, rng, tmp_path):
    want = voids(rng, (4,), 6)
    ap.save(tmp_path / "v.npy", ap.asarray(want))
    same(ap.load(tmp_path / "v.npy"), want)


@pytest.mark.parametrize("target", [np.uint8, np.int16, np.float32, np.int64, "V2"])
@pytest.mark.parametrize("shape", [(), (0,), (4,), (3, 2)])
def test_views_as_numbers(device, rng, target, shape):
    want = voids(rng, shape, 8)
    x = ap.asarray(want)
    try:
        expect = want.view(target)
    except ValueError as e:  # a 0-d array of another item size: NumPy refuses
        with pytest.raises(ValueError, match=str(e)[:30]):
            x.view(target)
        return
    got = x.view(target)
    assert got.shape == expect.shape and got.dtype == expect.dtype
    assert ap.asnumpy(got).tobytes() == expect.tobytes()
    if got.size and np.dtype(target).kind in "iu":  # a view: writes reach the records
        got[...] = 3
        expect[...] = 3
        same(x, want)


def test_views_as_array_types(device, rng):
    want = voids(rng, (4,), 2)
    x = ap.asarray(want)
    for t in [np.ndarray, ap.ndarray]:
        same(x.view(t), want)
        same(x.view(dtype="V2", type=t), want)
    with pytest.raises(NotImplementedError, match="type=recarray"):
        x.view(np.recarray)


def test_strided_views(device, rng):
    want = voids(rng, (6,), 4)
    x = ap.asarray(want)
    got = x[::2].view(np.int32)  # the same item size: NumPy allows a strided view
    np.testing.assert_array_equal(ap.asnumpy(got), want[::2].view(np.int32))
    with pytest.raises(ValueError, match="last axis must be contiguous"):
        want[::2].view(np.int16)
    with pytest.raises(ValueError, match="last axis must be contiguous"):
        x[::2].view(np.int16)


def test_indexing_and_records(device, rng):
    want = voids(rng, (2, 5), 3)
    x = ap.asarray(want)
    for key in [1, (1, 2), (slice(None), [0, 3]), (Ellipsis, None), want[..., 0] != want[..., 1]]:
        expect = want[key]
        got = x[key]
        if isinstance(expect, np.void):
            assert isinstance(got, np.void) and got == expect and bytes(got) == bytes(expect)
        else:
            same(got, expect)
    mask = ap.asarray(want.view(np.uint8)[..., 0] > 128)
    same(x[mask], want[ap.asnumpy(mask)])
    assert [bytes(r) for r in x[0]] == [bytes(r) for r in want[0]]
    with pytest.raises(IndexError, match="only integers"):
        x["f0"]
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, 0]


def test_assignment(device, rng):
    want = voids(rng, (6,), 4)
    x = ap.asarray(want)
    for key, value in [
        (0, b"\x01\x02"),
        (slice(1, 3), np.void(b"wxyz")),
        (slice(3, 5), [b"ab", b"cd"]),
        (5, want[0]),
    ]:
        x[key] = value
        want[key] = value
        same(x, want)
    x[1:] = x[:-1]  # overlapping: read before written, as NumPy
    want[1:] = want[:-1]
    same(x, want)
    x[::2] = ap.asarray(want[1::2])
    want[::2] = want[1::2].copy()
    same(x, want)
    with pytest.raises(TypeError, match="a bytes-like object is required"):
        x[0] = 5
    with pytest.raises(TypeError, match="a bytes-like object is required"):
        want[0] = 5


def test_comparisons(device, rng):
    want = voids(rng, (8,), 2)
    want[::3] = want[0]
    other = voids(rng, (8,), 2)
    other[1::2] = want[1::2]
    x, y = ap.asarray(want), ap.asarray(other)
    for got, expect in [
        (x == y, want == other),
        (x != y, want != other),
        (x == want[0], want == want[0]),
        (x[:, None] == x[None, :], want[:, None] == want[None, :]),
        (x == other, want == other),
    ]:
        assert isinstance(got, ap.ndarray) and got.device == device
        np.testing.assert_array_equal(ap.asnumpy(got), expect)
    for bad in [b"ab", 1, ap.zeros(8, "V4")]:
        with pytest.raises(TypeError) as e:
            want == (bad.get() if isinstance(bad, VoidArray) else bad)  # noqa: B015
        with pytest.raises(TypeError, match=str(e.value)[:30]):
            x == bad  # noqa: B015


def test_refused_as_numpy(device):
    x = ap.zeros(3, "V4")
    n = np.zeros(3, "V4")
    for op in [lambda a: a + 1, lambda a: a < a, lambda a: -a]:
        with pytest.raises(TypeError) as e:
            op(n)
        with pytest.raises(type(e.value), match=str(e.value)[:30]):
            op(x)
    with pytest.raises(ValueError) as e:
        n.astype("i4")
    with pytest.raises(ValueError, match=str(e.value)[:20]):
        x.astype("i4")
    same(x.astype("V4"), n)


def test_functions(device, rng):
    a, b = voids(rng, (5,), 3), voids(rng, (4,), 3)
    x, y = ap.asarray(a), ap.asarray(b)
    same(ap.concatenate([x, y]), np.concatenate([a, b]))
    same(ap.stack([x[:4], y]), np.stack([a[:4], b]))
    cond = rng.random(4) < 0.5
    same(ap.where(ap.asarray(cond), x[:4], y), np.where(cond, a[:4], b))
    same(ap.take(x, [4, 0, 0]), np.take(a, [4, 0, 0]))
    same(ap.sort(x), np.sort(a))
    np.testing.assert_array_equal(ap.asnumpy(ap.argsort(x)), np.argsort(a, kind="stable"))
    with pytest.raises(TypeError, match="void datatypes of different lengths"):
        ap.concatenate([x, ap.zeros(2, "V4")])
    with pytest.raises(TypeError, match="void datatypes of different lengths"):
        np.concatenate([a, np.zeros(2, "V4")])


@pytest.mark.parametrize("dtype", ["i4", "u1", "f8", "i2"])
@pytest.mark.parametrize("rows", [0, 1, 40])
def test_unique_rows(device, rng, dtype, rows):
    """The idiom of numpy-100 #96 and its many copies: rows as void keys for np.unique."""
    a = rng.integers(0, 3, (rows, 3)).astype(dtype)
    a[rows // 2 :] = a[: rows - rows // 2]  # some rows repeat
    x = ap.asarray(a)
    row = np.dtype((np.void, a.dtype.itemsize * a.shape[1]))
    b = ap.ascontiguousarray(x).view(row)
    nb = np.ascontiguousarray(a).view(row)
    assert isinstance(b, VoidArray) and b.shape == nb.shape == (rows, 1)
    got = ap.unique(b, return_index=True, return_inverse=True, return_counts=True)
    want = np.unique(nb, return_index=True, return_inverse=True, return_counts=True)
    same(got[0], want[0])
    for g, w in zip(got[1:], want[1:], strict=True):
        np.testing.assert_array_equal(ap.asnumpy(g), w)
    np.testing.assert_array_equal(ap.asnumpy(x[got[1]]), a[want[1]])
    u = ap.unique(b)
    back = u.view(x.dtype).reshape(-1, x.shape[1])
    np.testing.assert_array_equal(ap.asnumpy(back), np.unique(nb).view(a.dtype).reshape(-1, 3))
    if rows:  # a view of unique's records: a write reaches them, as in NumPy
        back[0, 0] = 9
        assert ap.asnumpy(u.view(x.dtype))[0] == 9


def test_bfloat16_is_no_void(device, rng):
    """ml_dtypes' bfloat16 has NumPy kind "V" too: it stays a number, in records too."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    h = rng.uniform(-4, 4, 6).astype(ml_dtypes.bfloat16)
    x = ap.asarray(h)
    assert isinstance(x, ap.ndarray) and x.dtype == h.dtype
    np.testing.assert_array_equal(ap.asnumpy(ap.concatenate([x, ap.asarray(h)])), np.tile(h, 2))
    rec = np.zeros(6, [("a", ml_dtypes.bfloat16), ("b", "i2")])
    rec["a"], rec["b"] = h, rng.integers(-9, 9, 6)
    got = ap.asarray(rec).view("i4")
    np.testing.assert_array_equal(ap.asnumpy(got), rec.view("i4"))
    back = ap.asarray(rec.view("i4")).view(rec.dtype)
    np.testing.assert_array_equal(back.get(), rec)
