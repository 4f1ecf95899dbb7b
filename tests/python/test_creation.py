"""Creation against NumPy: array/asarray from every kind of input with dtype= and NumPy 2's
copy= semantics, the filled constructors and their _like forms, arange and linspace bit for
bit, eye and identity."""

import array

import ml_dtypes
import numpy as np
import pytest

import accelpy as ap
from helpers import (
    ALL_DTYPES,
    BF16,
    assert_matches,
    assert_same_outcome,
    make_array,
    random_values,
    to_numpy,
)

pytestmark = pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")


def assert_identical(got, expected):
    """Same dtype, shape and bits (NaN payloads aside) as NumPy's result."""
    got = to_numpy(got)
    expected = np.asarray(expected)
    assert got.dtype == expected.dtype, f"dtype {got.dtype} != NumPy's {expected.dtype}"
    assert got.shape == expected.shape, f"shape {got.shape} != NumPy's {expected.shape}"
    np.testing.assert_array_equal(got, expected, strict=True)


# ---- asarray / array ----------------------------------------------------------------------

PY_INPUTS = [
    3, -2.5, 1 + 2j, True, [], [[], []], [1, 2, 3], [1, 2.5], [True, 2], [1j, 1], [[1, 2], [3, 4]],
    [[[1.5], [2]], [[3], [4]]], (1, 2, 3), ([1, 2], (3, 4)), [np.float32(1), 2],
    np.float32(2.5), np.int8(-7), np.uint64(2**64 - 1), np.bool_(True), np.complex64(1 - 1j),
    2**63 + 5, -(2**63),
]


@pytest.mark.parametrize("obj", PY_INPUTS, ids=repr)
def test_asarray_python_objects(obj, device):
    for dtype in (None, np.float32, np.int16, np.complex128, np.bool_):
        outcome = assert_same_outcome(lambda: np.asarray(obj, dtype=dtype),  # noqa: B023
                                      lambda: ap.asarray(obj, dtype=dtype))  # noqa: B023
        if outcome is not None:
            assert_identical(outcome[1], outcome[0])
            assert outcome[1].device == device
            assert_identical(ap.array(obj, dtype=dtype), np.array(obj, dtype=dtype))


def test_asarray_rejects_ragged_and_unsupported(device):
    for obj in ([1, [2, 3]], [[1, 2], [3]], "abc", b"abc", {"a": 1}, [None], np.array(["x"]),
                np.array([1], dtype="datetime64[s]"), np.array([1.0], dtype=np.longdouble)):
        with pytest.raises((ValueError, TypeError)):
            ap.asarray(obj)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_asarray_numpy_layouts_share_memory(dtype, device, rng):
    """NumPy arrays on the CPU are wrapped, not copied, whatever their strides."""
    for key in (np.s_[...], np.s_[::2, 1:], np.s_[::-1, ::-3], np.s_[..., 2], np.s_[1:1]):
        base = random_values(rng, (6, 7), dtype)
        view = base[key]
        x = ap.asarray(view)
        assert_identical(x, view)
        if device.type != "cpu" or view.size == 0:
            continue
        view[...] = random_values(rng, view.shape, dtype)  # NumPy writes, accelpy sees
        assert_identical(x, view)
        x[...] = random_values(rng, view.shape, dtype)  # accelpy writes, NumPy sees
        assert_identical(view, x)
        y = ap.array(view)  # a copy
        view[...] = random_values(rng, view.shape, dtype)
        assert not np.array_equal(to_numpy(y), view) or view.dtype == np.bool_


def test_asarray_strides_not_multiple_of_itemsize(device, rng):
    raw = random_values(rng, 40, np.float64).tobytes()
    odd = np.ndarray((3, 2), dtype=np.float64, buffer=raw, strides=(20, 12), offset=4)
    assert_identical(ap.asarray(odd), odd)
    with pytest.raises(ValueError):
        ap.asarray(odd, copy=False)
    unaligned = np.frombuffer(b"x" + raw, dtype=np.float64, offset=1, count=4)
    assert_identical(ap.asarray(unaligned), unaligned)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.int32, np.float16])
def test_asarray_copies_memory_at_unaligned_addresses(device, rng, dtype):
    # Kernels load whole elements, so memory NumPy allows at any address is copied to aligned
    # memory (not shared, even on the CPU): later writes to the buffer do not show.
    values = random_values(rng, 6, dtype)
    buf = bytearray(b"x" + values.tobytes())
    unaligned = np.frombuffer(buf, dtype=dtype, offset=1)
    assert not unaligned.flags.aligned
    x = ap.asarray(unaligned)
    buf[1:] = bytes(len(buf) - 1)
    assert_identical(x, values)
    with pytest.raises(ValueError, match="unaligned address"):
        ap.asarray(unaligned, copy=False)


def test_asarray_read_only_and_byte_order(device, rng):
    ro = random_values(rng, (4, 5), np.float64)
    ro.flags.writeable = False
    x = ap.asarray(ro)
    assert_identical(x, ro)
    if device.type == "cpu":  # NumPy's memory is shared, and so is its read-only flag
        with pytest.raises(ValueError):
            x[0, 0] = 1.0
    else:  # a copy on the device, writable (as CuPy's)
        x[0, 0] = 1.0
        assert ro[0, 0] != 1.0
    y = ap.asarray(ro, copy=True)
    y[0, 0] = 1.0
    assert to_numpy(y)[0, 0] == 1.0 and ro[0, 0] != 1.0
    for dt in (">f4", ">i2", ">c16", "<u8", ">u8", ">f2"):
        swapped = random_values(rng, (3, 5), np.dtype(dt).newbyteorder("=")).astype(dt)
        for view in (swapped, swapped[::-1, ::2]):
            z = ap.asarray(view)
            assert z.dtype == np.dtype(dt).newbyteorder("=")
            assert_matches(z, view.astype(z.dtype), ulps=0)
            if not np.dtype(dt).isnative:
                with pytest.raises(ValueError):
                    ap.asarray(view, copy=False)


def test_asarray_buffers(device, rng):
    values = random_values(rng, 6, np.float64)
    cases = [
        (bytearray(b"\x01\x02\xff"), np.uint8),
        (memoryview(b"\x01\x02\x03\x04"), np.uint8),
        (memoryview(bytearray(values.tobytes())).cast("d"), np.float64),
        (memoryview(values.tobytes()).cast("d")[::2], np.float64),
        (array.array("d", values), np.float64),
        (array.array("i", [1, -2, 3]), np.int32),
        (array.array("H", [1, 2, 65535]), np.uint16),
        (array.array("b", []), np.int8),
    ]
    for buf, dt in cases:
        x = ap.asarray(buf)
        assert_identical(x, np.asarray(buf))
        assert x.dtype == dt
        assert_identical(ap.asarray(buf, dtype=np.float32), np.asarray(buf, dtype=np.float32))
    # Writable buffers are shared on the CPU (copy=False works); read-only ones stay read-only.
    ba = bytearray(b"\x05\x06\x07")
    if device.type == "cpu":
        x = ap.asarray(ba, copy=False)
        ba[0] = 42
        assert int(x[0]) == 42
    else:  # host memory cannot be a device array without a copy
        with pytest.raises(ValueError, match="copy"):
            ap.asarray(ba, copy=False)
    ro = ap.asarray(memoryview(b"\x01\x02"))
    if device.type == "cpu":  # shared, so read-only as the buffer is; on a GPU, a writable copy
        with pytest.raises(ValueError):
            ro[0] = 3
    with pytest.raises(ValueError):
        ap.asarray(array.array("i", [1, 2]), dtype=np.float64, copy=False)


@pytest.mark.parametrize("order", ["C", "F", "A", "K", None, "f"])
@pytest.mark.parametrize("layout", ["c", "transposed", "strided", "0-d"])
def test_array_order_and_ndmin(device, rng, order, layout):
    """numpy.array's order= and ndmin=: the result's layout and shape as NumPy's."""
    base = random_values(rng, (3, 4), np.float64)
    a_np = {"c": base, "transposed": base.T, "strided": base[:, ::-2],
            "0-d": base[1, 2, ...]}[layout]
    x = ap.asarray(a_np, device=device)
    for ndmin in (0, 1, 3):
        got, want = ap.array(x, order=order, ndmin=ndmin), np.array(a_np, order=order,
                                                                    ndmin=ndmin)
        np.testing.assert_array_equal(ap.asnumpy(got), want)
        assert got.shape == want.shape
        if order in ("C", "F", "f"):
            assert got.flags.c_contiguous == want.flags.c_contiguous
            assert got.flags.f_contiguous == want.flags.f_contiguous
    assert ap.array(x, subok=True).shape == a_np.shape


def test_array_order_and_ndmin_bad_input(device):
    x = ap.ones((2, 3), device=device)
    for bad in ("X", "CF", ""):
        with pytest.raises(ValueError, match="order must be one of"):
            np.array(np.ones(2), order=bad)
        with pytest.raises(ValueError, match="order must be one of"):
            ap.array(x, order=bad)
    with pytest.raises(TypeError, match="order must be str"):
        np.array(np.ones(2), order=3)
    with pytest.raises(TypeError, match="order must be str"):
        ap.array(x, order=3)
    with pytest.raises(TypeError):
        np.array(np.ones(2), ndmin=1.5)
    with pytest.raises(TypeError, match="ndmin"):
        ap.array(x, ndmin=1.5)
    with pytest.raises(ValueError):
        np.array(np.ones((2, 3)), order="F", copy=False)
    with pytest.raises(ValueError, match="avoid copy"):
        ap.array(x, order="F", copy=False)


def test_asarray_copy_semantics(device, rng):
    a_np = random_values(rng, (3, 4), np.float32)
    x = ap.asarray(a_np)
    assert ap.asarray(x) is x
    assert ap.asarray(x, copy=False) is x
    assert ap.asarray(x, dtype=np.float32, copy=False) is x
    assert ap.asarray(x, copy=True)._storage_id() != x._storage_id()
    assert ap.array(x)._storage_id() != x._storage_id()
    assert ap.array(x, copy=False) is x
    assert ap.asarray(x, copy=None) is x
    with pytest.raises(ValueError):
        ap.asarray(x, dtype=np.float64, copy=False)
    with pytest.raises(ValueError):
        ap.asarray([1, 2, 3], copy=False)
    with pytest.raises(ValueError):
        ap.asarray(3.0, copy=False)
    with pytest.raises(ValueError):
        ap.asarray(a_np, dtype=np.float64, copy=False)
    assert_identical(ap.asarray(x, dtype=np.int8), a_np.astype(np.int8))
    # asarray of a NumPy array with copy=False shares; copy=True does not.
    if device.type == "cpu":
        shared = ap.asarray(a_np, copy=False)
        own = ap.asarray(a_np, copy=True)
        a_np[0, 0] = 123.0
        assert float(shared[0, 0]) == 123.0
        assert float(own[0, 0]) != 123.0


def test_asarray_of_accelpy_arrays_in_lists(device, rng):
    a_np, a = make_array(rng, "1d", np.float32, device)
    b_np, b = make_array(rng, "1d", np.float32, device)
    assert_identical(ap.asarray([a, b]), np.asarray([a_np, b_np]))
    assert_identical(ap.asarray([a[0], 2.0]), np.asarray([a_np[0], 2.0]))
    assert_identical(ap.stack([a, b]), np.stack([a_np, b_np]))


def test_asarray_device(device, rng):
    a_np = random_values(rng, (2, 3), np.int32)
    x = ap.asarray(a_np, device="cpu")
    assert x.device == ap.device("cpu")
    assert str(x.device) == "cpu"
    assert_identical(x, a_np)
    assert_identical(ap.asarray(x, device=device), a_np)


# ---- filled constructors ------------------------------------------------------------------

SHAPES = [(), 0, 5, (0,), (3, 4), [2, 3], (2, 0, 3), np.int64(3), (np.int8(2), 2)]


@pytest.mark.parametrize("shape", SHAPES, ids=repr)
def test_zeros_ones_empty_full(shape, device):
    for dtype in (None, *ALL_DTYPES):
        assert_identical(ap.zeros(shape, dtype), np.zeros(shape, dtype))
        assert_identical(ap.ones(shape, dtype=dtype), np.ones(shape, dtype=dtype))
        e = ap.empty(shape, dtype)
        assert e.shape == np.empty(shape, dtype).shape and e.dtype == np.empty(shape, dtype).dtype
        for fill in (7, -2.5, True, 1 + 1j, np.float32(0.1), np.uint8(200)):
            outcome = assert_same_outcome(lambda: np.full(shape, fill, dtype),  # noqa: B023
                                          lambda: ap.full(shape, fill, dtype))  # noqa: B023
            if outcome is not None:
                assert_identical(outcome[1], outcome[0])
    assert ap.zeros(shape).device == device


def test_filled_errors(device):
    for fn in (ap.zeros, ap.ones, ap.empty, lambda s: ap.full(s, 1)):
        with pytest.raises(ValueError):
            fn((2, -1))
        with pytest.raises(TypeError):
            fn(2.5)
    for value, dtype in ((300, np.uint8), (-1, np.uint32), (2**64, np.float32), (2**70, np.float64),
                         (2**64, np.int64)):
        assert_same_outcome(lambda: np.full(3, value, dtype),  # noqa: B023
                            lambda: ap.full(3, value, dtype))  # noqa: B023


@pytest.mark.parametrize("shape", SHAPES, ids=repr)
def test_ndarray_constructor(shape, device):
    """ndarray(shape, dtype, order): NumPy's low-level constructor, uninitialised like empty;
    programs fill it in place (a stencil's columns, a history of energies)."""
    for dtype in (None, float, *ALL_DTYPES):
        made, want = ap.ndarray(shape, dtype=dtype), np.ndarray(shape, dtype=dtype)
        assert type(made) is ap.ndarray and made.device == device
        assert (made.shape, made.dtype) == (want.shape, want.dtype)
    assert ap.ndarray(shape=(2, 5), dtype=np.int8).shape == (2, 5)
    f = ap.ndarray((3, 4), np.int32, order="F")
    assert f.flags.f_contiguous and not f.flags.c_contiguous
    filled = ap.ndarray((2, 3), np.float32)
    filled[...] = 1.5
    filled[0] += ap.arange(3)
    assert_identical(filled, np.float32([[1.5, 2.5, 3.5], [1.5, 1.5, 1.5]]))
    with pytest.raises(ValueError):
        ap.ndarray((2, -1))
    with pytest.raises(TypeError):
        ap.ndarray(2.5)
    with pytest.raises(TypeError):
        ap.ndarray()
    with pytest.raises(NotImplementedError, match="buffer"):
        ap.ndarray((2,), np.uint8, buffer=bytearray(2))


@pytest.mark.parametrize("layout", ["0d", "2d", "noncontig", "transposed", "bcast_view", "empty"])
def test_like_constructors(layout, device, rng):
    for src in (np.float32, np.int8, np.complex64, BF16):
        a_np, a = make_array(rng, layout, src, device)
        for dtype in (None, np.int64, np.bool_):
            assert_identical(ap.zeros_like(a, dtype), np.zeros_like(a_np, dtype))
            assert_identical(ap.ones_like(a, dtype=dtype), np.ones_like(a_np, dtype=dtype))
            assert_identical(ap.full_like(a, 2.7, dtype), np.full_like(a_np, 2.7, dtype))
            e = ap.empty_like(a, dtype)
            assert e.shape == a_np.shape and e.dtype == np.empty_like(a_np, dtype).dtype
            assert_identical(ap.zeros_like(a, dtype, shape=(2, 3)),
                             np.zeros_like(a_np, dtype, shape=(2, 3)))
        assert_identical(ap.zeros_like(a_np), np.zeros_like(a_np))  # NumPy input
        assert_identical(ap.ones_like([[1, 2], [3, 4]]), np.ones_like([[1, 2], [3, 4]]))
        assert ap.zeros_like(a).device == a.device


# ---- arange, linspace, eye ----------------------------------------------------------------

ARANGE_ARGS = [
    (10,), (0,), (-3,), (2, 20, 3), (20, 2, -3), (2, 3, 5), (0, 1, 0.1), (1.5, -3, -0.7),
    (-5, 5, 0.25), (0.0, 10.0), (1e10, 1e10 + 5), (0, 1e-6, 1e-7), (3, 1), (0, 5, -1),
    (np.float32(0.1), 1, np.float32(0.1)), (np.int8(3),), (np.uint64(3),), (True,),
    (np.float16(0.5), np.float16(3)), (2**62, 2**62 + 10), (-(2**62), -(2**62) + 7, 2),
    (0, 10, 0), (0, np.inf), (0, np.nan), (0, 7, 1.5),
]
ARANGE_DTYPES = [None, np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64, np.float16,
                 np.float32, np.float64, np.complex64, np.complex128, BF16, np.bool_]


@pytest.mark.parametrize("args", ARANGE_ARGS, ids=repr)
def test_arange_bit_exact(args, device):
    for dtype in ARANGE_DTYPES:
        outcome = assert_same_outcome(lambda: np.arange(*args, dtype=dtype),  # noqa: B023
                                      lambda: ap.arange(*args, dtype=dtype))  # noqa: B023
        if outcome is not None:
            assert_identical(outcome[1], outcome[0])


def test_arange_long_float_ranges(device):
    for args, dtype in [((0, 5000, 0.37), np.float32), ((-7, 7, 0.001), np.float16),
                        ((1, 100_000, 3.3), np.float64), ((0.5, 3000.5), BF16),
                        ((0, 300), np.uint8), ((100, -100_000, -7), np.int16)]:
        assert_identical(ap.arange(*args, dtype=dtype), np.arange(*args, dtype=dtype))
    assert_identical(ap.arange(start=2, stop=9, step=2), np.arange(start=2, stop=9, step=2))
    assert_identical(ap.arange(2, step=0.5), np.arange(2, step=0.5))


LINSPACE_ARGS = [
    (0, 1), (0, 1, 7), (-3.5, 10.25, 101), (10, -10, 13), (2, 2, 5), (0, 1, 0), (0, 1, 1),
    (5, 9, 1), (1e-310, 3e-310, 6), (0, 1e-320, 4), (-1e300, 1e300, 9), (0, 10, 11),
    (np.float32(0.1), np.float32(7.3), 17), (np.float16(-2), 3, 9), (np.int8(-4), 9, 6),
    (0, 1 + 2j, 5), (1j, -1, 4), (np.complex64(1 + 1j), 2, 6), (-7, 7, 15), (0.5, 9.5, 10),
    (0, np.inf, 3), (0, 1, 2),
]
LINSPACE_DTYPES = [None, np.float32, np.float64, np.float16, np.int32, np.int8, np.uint8,
                   np.int64, np.complex64, np.complex128, np.bool_]


@pytest.mark.parametrize("args", LINSPACE_ARGS, ids=repr)
def test_linspace_bit_exact(args, device):
    for endpoint in (True, False):
        for dtype in LINSPACE_DTYPES:
            outcome = assert_same_outcome(
                lambda: np.linspace(*args, endpoint=endpoint, dtype=dtype),  # noqa: B023
                lambda: ap.linspace(*args, endpoint=endpoint, dtype=dtype))  # noqa: B023
            if outcome is not None:
                assert_identical(outcome[1], outcome[0])


def test_linspace_errors_and_keywords(device):
    with pytest.raises(ValueError):
        ap.linspace(0, 1, -1)
    with pytest.raises(TypeError):
        ap.linspace(0, 1, 2.5)
    assert_identical(ap.linspace(start=1, stop=2, num=4), np.linspace(start=1, stop=2, num=4))
    got, step = ap.linspace(0, 3, 7, retstep=True)
    expected, np_step = np.linspace(0, 3, 7, retstep=True)
    assert_identical(got, expected)
    assert step == np_step


@pytest.mark.parametrize("dtype", [None, *ALL_DTYPES], ids=str)
def test_eye_identity(dtype, device):
    for n, m, k in [(3, None, 0), (4, 6, 1), (5, 3, -2), (4, 4, 7), (4, 4, -7), (0, 3, 0),
                    (3, 0, 0), (1, None, 0), (6, 2, -5)]:
        assert_identical(ap.eye(n, m, k, dtype=dtype), np.eye(n, m, k, dtype=dtype))
        assert_identical(ap.eye(n, M=m, k=k, dtype=dtype), np.eye(n, M=m, k=k, dtype=dtype))
    assert_identical(ap.identity(4, dtype=dtype), np.identity(4, dtype=dtype))
    with pytest.raises(ValueError):
        ap.eye(-1, dtype=dtype)


def test_creation_on_device_context(device):
    with ap.device("cpu"):
        assert ap.zeros(3).device == ap.device("cpu")
        assert ap.arange(3).device == ap.device("cpu")
        assert ap.asarray([1, 2]).device == ap.device("cpu")
    assert ap.eye(2, device="cpu").device == ap.device("cpu")
    assert ap.linspace(0, 1, 3, device="cpu").device == ap.device("cpu")
    assert ap.full((2,), 1.0, device=ap.device("cpu")).device == ap.device("cpu")
    assert_identical(ap.asarray(ml_dtypes.bfloat16(1.5)), np.asarray(ml_dtypes.bfloat16(1.5)))


# logspace and geomspace against NumPy: scalar and array endpoints, bases, endpoint, num 0/1,
# negative and complex endpoints, dtype, axis, devices.


@pytest.mark.parametrize("num", [0, 1, 2, 7, 50])
@pytest.mark.parametrize("endpoint", [True, False])
def test_logspace_scalars(device, rng, num, endpoint):
    start, stop = rng.uniform(-3, 3, 2)
    base = float(rng.uniform(1.5, 10))
    got = ap.logspace(start, stop, num, endpoint, base)
    assert got.device == device
    assert_matches(got, np.logspace(start, stop, num, endpoint, base), ulps=64)
    assert_matches(ap.logspace(start, stop, num, endpoint, dtype=np.float32),
                   np.logspace(start, stop, num, endpoint, dtype=np.float32))
    assert_matches(ap.logspace(int(start), 2, num), np.logspace(int(start), 2, num), ulps=64)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_logspace_arrays(device, rng, axis):
    start = rng.uniform(-2, 2, 3)
    stop = rng.uniform(-2, 2, 3)
    base = rng.uniform(2, 5, 3)
    assert_matches(ap.logspace(start, stop, 5, axis=axis),
                   np.logspace(start, stop, 5, axis=axis), ulps=64)
    assert_matches(ap.logspace(start, stop, 4, base=base, axis=axis, endpoint=False),
                   np.logspace(start, stop, 4, base=base, axis=axis, endpoint=False), ulps=64)
    assert_matches(ap.logspace(start, 1.0, 4, axis=axis), np.logspace(start, 1.0, 4, axis=axis),
                   ulps=64)
    with pytest.raises(np.exceptions.AxisError):
        ap.logspace(start, stop, 3, axis=2)


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # opposite signs: NaN
@pytest.mark.parametrize("num", [0, 1, 2, 9])
@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("signs", [(1, 1), (-1, -1), (1, -1)])
def test_geomspace(device, rng, num, endpoint, signs):
    start, stop = rng.uniform(0.01, 100, 2) * np.array(signs)
    expected = np.geomspace(start, stop, num, endpoint)
    got = ap.geomspace(start, stop, num, endpoint)
    assert got.device == device
    assert_matches(got, expected, ulps=64)
    if num > 1 and expected.dtype.kind == "f":  # endpoints exact, as NumPy
        assert to_numpy(got)[0] == start
        if endpoint:
            assert to_numpy(got)[-1] == stop


def test_geomspace_more(device, rng):
    start = rng.uniform(1, 10, 3)
    stop = -rng.uniform(1, 10, 3)
    for axis in (0, 1, -1):
        assert_matches(ap.geomspace(start, -stop, 5, axis=axis),
                       np.geomspace(start, -stop, 5, axis=axis), ulps=64)
    assert_matches(ap.geomspace(1j, 1000j, 4), np.geomspace(1j, 1000j, 4), ulps=64)
    assert_matches(ap.geomspace(-1 + 0j, 1 + 0j, 5), np.geomspace(-1 + 0j, 1 + 0j, 5), ulps=64,
                   atol=1e-15)
    assert_matches(ap.geomspace(2, 64, 6, dtype=np.int64), np.geomspace(2, 64, 6, dtype=np.int64))
    assert_matches(ap.geomspace(1, 100, 3, dtype=np.float32),
                   np.geomspace(1, 100, 3, dtype=np.float32))
    with pytest.raises(ValueError):
        ap.geomspace(0, 10, 3)
    with pytest.raises(ValueError):
        ap.geomspace(1, 10, -1)
