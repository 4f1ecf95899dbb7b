"""One element of a CPU array is NumPy's scalar: a[i] (an integer per axis: Python ints, NumPy
integers, operator.index objects, negative indices, () on a 0-d array), iteration over a 1-d
array and a.flat[i] return the scalar of the array's dtype, a copy, exactly as NumPy's a[i]
does. On a GPU the element stays a 0-d device array (CuPy's rule: no synchronization).
a[i] = number stores with NumPy's casting and errors, after the write barrier."""

import operator

import numpy as np
import pytest

import accelpy as ap
from helpers import ALL_DTYPES, builtin_exception_type, random_values, to_device


class Index:
    """An index that only has __index__ (NumPy takes it as an integer)."""

    def __init__(self, i):
        self.i = i

    def __index__(self):
        return self.i

    def __repr__(self):
        return f"Index({self.i})"


def assert_element(got, want, device):
    """`got` is NumPy's scalar `want` on the CPU (type and bits), a 0-d array of it on a GPU."""
    if device.type == "cpu":
        assert type(got) is type(want), f"{type(got)} != NumPy's {type(want)}"
    else:
        assert isinstance(got, ap.ndarray) and got.shape == () and got.device == device
        got = ap.asnumpy(got)[()]
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


KEYS = [
    ((7,), 3),
    ((7,), -1),
    ((7,), np.int64(2)),
    ((7,), np.uint8(6)),
    ((7,), Index(-7)),
    ((7,), np.array(4)),  # a 0-d integer array indexes as its value
    ((3, 4), (2, -1)),
    ((3, 4), (np.intp(1), Index(3))),
    ((2, 3, 4), (1, -3, 2)),
    ((), ()),
]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("shape,key", KEYS, ids=[f"{s}-{k!r}" for s, k in KEYS])
def test_element_is_numpys_scalar(device, rng, dtype, shape, key):
    a_np = random_values(rng, shape, dtype, specials=dtype.kind in "fc")
    a = to_device(a_np, device)
    assert_element(a[key], a_np[key], device)


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex128, np.bool_], ids=str)
def test_element_of_views(device, rng, dtype):
    a_np = random_values(rng, (5, 6), dtype)
    a = to_device(a_np, device)
    views = [
        lambda x: x[::-1],
        lambda x: x[:, ::-2],
        lambda x: x.T,
        lambda x: x[1:4, 2:],
        lambda x: x.reshape(30)[::-3],
    ]
    for view in views:
        v, v_np = view(a), view(a_np)
        for key in [(0, 0), (-1, -1), (1, 0)] if v_np.ndim == 2 else [0, -1, 2]:
            assert_element(v[key], v_np[key], device)
    b = ap.broadcast_to(a[0], (3, 6))
    assert_element(b[2, -2], np.broadcast_to(a_np[0], (3, 6))[2, -2], device)


def test_element_read_is_a_copy(device):
    a = ap.arange(5.0, device=device)
    t = a[1]
    t += 5  # NumPy's scalar: a new value bound to t, the array untouched
    a[2] = 100
    u = a[2]
    a[2] = -1  # a later write does not reach an element read before it
    assert float(t) == 6.0 and float(u) == 100.0
    np.testing.assert_array_equal(ap.asnumpy(a), [0, 1, -1, 3, 4])


@pytest.mark.parametrize("n", [7, 100_000])
def test_element_of_pending_array(device, rng, n):
    x_np = random_values(rng, (n,), np.float32)
    x = to_device(x_np, device)
    with ap.fusion.eager(0):
        y = ap.sqrt(x * x + 1) - 1  # pending: the read computes it
        want = np.sqrt(x_np * x_np + np.float32(1)) - np.float32(1)
        assert_element(y[n // 2], want[n // 2], device)
        z = (x + 2)[::-1]  # a view of pending work
        assert_element(z[-1], (x_np + np.float32(2))[::-1][-1], device)
    x[0] = 5.0  # y was computed from the old x
    assert_element(y[0], want[0], device)


def test_iteration_and_flat(device, rng):
    a_np = random_values(rng, (4,), np.int8)
    a = to_device(a_np, device)
    for got, want in zip(a, a_np, strict=True):
        assert_element(got, want, device)
    b_np = random_values(rng, (2, 3), np.float16)
    b = to_device(b_np, device)
    rows = list(b)
    assert all(isinstance(r, ap.ndarray) and r.shape == (3,) for r in rows)  # rows stay views
    rows[1][0] = 7
    b_np[1, 0] = 7
    assert_element(b.flat[3], b_np.flat[3], device)
    assert_element(b.flat[-1], b_np.flat[-1], device)
    assert b.item(1, 2) == b_np.item(1, 2) and type(b.item(0)) is float


def test_zero_d_indexing(device):
    z_np = np.array(2.5, np.float32)
    z = ap.asarray(z_np, device=device)
    assert_element(z[()], z_np[()], device)
    e = z[...]  # an Ellipsis keeps a 0-d view, as in NumPy
    assert isinstance(e, ap.ndarray) and e.shape == ()
    e[...] = 4
    assert float(z) == 4.0
    assert isinstance(z[None], ap.ndarray) and z[None].shape == (1,)


def test_other_keys_still_give_arrays(device):
    a = ap.arange(12, device=device).reshape(3, 4)
    assert isinstance(a[1], ap.ndarray) and a[1].shape == (4,)
    assert isinstance(a[1, 1:2], ap.ndarray) and a[1, 1:2].shape == (1,)
    assert isinstance(a[1, 2, None], ap.ndarray) and a[1, 2, None].shape == (1,)
    assert isinstance(a[1, ...], ap.ndarray)
    assert a[True].shape == (1, 3, 4)  # a boolean is a mask, not an integer
    assert a[[1], [2]].shape == (1,)


def test_bad_element_indices_raise_numpys_errors(device):
    a_np = np.arange(12.0).reshape(3, 4)
    a = ap.asarray(a_np, device=device)
    for key in [(3, 0), (0, -5), (2**70, 0), (0,) * 3]:
        with pytest.raises(IndexError) as numpys:
            a_np[key]
        with pytest.raises(IndexError) as ours:
            a[key]
        if key != (2**70, 0):
            assert str(ours.value) == str(numpys.value)
        with pytest.raises(IndexError):
            a[key] = 1.0
    with pytest.raises(IndexError):
        a[1.0, 0]
    np.testing.assert_array_equal(ap.asnumpy(a), a_np)


# -- writes ----------------------------------------------------------------------------------

VALUES = [
    1.5,
    -2.7,
    7,
    True,
    2**40,
    3 + 4j,
    np.float32(2.5),
    np.int8(-3),
    np.complex64(1 - 2j),
    np.float16(0.5),
    np.bool_(True),
    np.uint64(2**63),
    float("nan"),
    300,
    -1,
]


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")  # NumPy's, both sides
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_element_write_casts_as_numpy(device, rng, dtype):
    a_np = random_values(rng, (3, 4), dtype)
    a = to_device(a_np, device)
    for value in VALUES:
        for key in [(1, 2), (-1, np.int64(-4)), (0, Index(3))]:
            try:
                with np.errstate(all="ignore"):
                    a_np[key] = value
            except Exception as exc:  # noqa: BLE001 - the same type is expected of accelpy
                with pytest.raises(builtin_exception_type(exc)):
                    with np.errstate(all="ignore"):
                        a[key] = value
            else:
                with np.errstate(all="ignore"):
                    a[key] = value
    got = ap.asnumpy(a)
    assert got.tobytes() == a_np.tobytes() or np.array_equal(got, a_np, equal_nan=True)


def test_element_write_errors_name_numpys_reason():
    a = ap.zeros(3, dtype=np.uint8, device="cpu")
    with pytest.raises(OverflowError, match="300 out of bounds for uint8"):
        a[0] = 300
    f = ap.zeros(3, device="cpu")
    with pytest.raises(TypeError, match="complex"):
        f[0] = 1j
    i = ap.zeros(3, dtype=np.int64, device="cpu")
    with pytest.raises(ValueError, match="NaN"):
        i[1] = float("nan")
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        i[3] = 1j  # the index is checked before the value, as in NumPy
    r = ap.broadcast_to(ap.arange(3, device="cpu"), (2, 3))
    with pytest.raises(ValueError, match="read-only"):
        r[0, 0] = 1
    np.testing.assert_array_equal(ap.asnumpy(i), [0, 0, 0])


@pytest.mark.parametrize("n", [8, 100_000])
def test_element_write_keeps_deferred_work_exact(device, n):
    x_np = np.arange(n, dtype=np.float64)
    x = ap.asarray(x_np.copy(), device=device)
    with ap.fusion.eager(0):
        y = x * 2  # pending, reads x
        v = x[::-1]
        s = (x + 1).sum()  # a pending reduction over x
        x[3] = 100.0
        v[0] = -5.0  # through a view: x[-1]
        assert float(y[3]) == 6.0 and float(y[-1]) == 2.0 * (n - 1)
        assert float(s) == float((x_np + 1).sum())
        w = x * 1  # pending work itself written: computed, then stored into
        w[0] = 9.5
        assert float(w[0]) == 9.5 and float(w[3]) == 100.0
    want = x_np.copy()
    want[3], want[-1] = 100.0, -5.0
    np.testing.assert_array_equal(ap.asnumpy(x), want)


def test_element_write_of_numpy_owned_memory():
    a_np = np.arange(6.0)
    a = ap.asarray(a_np, device="cpu")  # shares a_np's memory on the CPU
    a[2] = -1.0
    assert a_np[2] == -1.0
    b = a[1:][::2]
    b[1] = 9  # a_np[3]
    assert a_np[3] == 9.0 and float(a[3]) == 9.0


def test_inplace_element_update_casts_as_numpy(device):
    a_np = np.arange(4)
    a = ap.asarray(a_np.copy(), device=device)
    a[0] += 1.5
    a_np[0] += 1.5
    a[1] *= np.float32(2.5)
    a_np[1] *= np.float32(2.5)
    np.testing.assert_array_equal(ap.asnumpy(a), a_np)


# -- elements beside arrays ------------------------------------------------------------------


def test_elements_mix_with_arrays_as_numpy(device, rng):
    a_np = random_values(rng, (6,), np.float64, low=-2, high=2)
    a = to_device(a_np, device)
    for got in [np.float64(2.0) * a, a + a[0], a[0] + a, ap.where(a[0] > 0, a, -a), a * a[1]]:
        assert isinstance(got, ap.ndarray) and got.shape == (6,) and got.device == a.device
    np.testing.assert_array_equal(ap.asnumpy(a + a[0]), a_np + a_np[0])
    np.testing.assert_array_equal(
        ap.asnumpy(ap.where(a[0] > 0, a, -a)), np.where(a_np[0] > 0, a_np, -a_np)
    )
    z = ap.asarray(a[0])
    assert isinstance(z, ap.ndarray) and z.shape == () and float(z) == a_np[0]
    assert (a[0] < a[1]) == (a_np[0] < a_np[1])
    hit = "less" if a[0] < a[1] else "not"
    assert hit == ("less" if a_np[0] < a_np[1] else "not")
    assert float(a[2] * a[3] + a[4]) == a_np[2] * a_np[3] + a_np[4]
    i = ap.asarray(np.array([2, 0, 5]), device=device)
    assert int(i[0]) == 2 and operator.index(i[2]) == 5
    assert_element(a[i[0]], a_np[2], device)
    assert ap.asnumpy(a[i[1] : i[2]]).tolist() == a_np[0:5].tolist()


def test_element_arithmetic_types_as_numpy():
    a_np = np.array([1.5, -2.0, 3.0], np.float32)
    a = ap.asarray(a_np, device="cpu")
    for got, want in [
        (a[0] * a[1] + a[2], a_np[0] * a_np[1] + a_np[2]),
        (a[0] * 2.0, a_np[0] * 2.0),
        (a[0] * np.float64(2), a_np[0] * np.float64(2)),
        (abs(a[1]), abs(a_np[1])),
    ]:
        assert type(got) is type(want) and got == want
