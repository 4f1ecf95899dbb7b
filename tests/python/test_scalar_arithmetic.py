"""Scalar work beside arrays, as a loop over a CPU array's elements does it: accelpy's ufuncs
called on numbers alone give NumPy's scalar on the CPU (np.sqrt(np.float64(2)) is np.float64)
and a 0-d device array on a GPU; a list of NumPy scalars becomes an array without NumPy, with
NumPy's dtype; a 0-d CPU array stored into one element is stored as NumPy stores its value; a
NumPy scalar in arithmetic with accelpy arrays (NumPy's scalar operators call the ufunc, hence
ndarray.__array_ufunc__) gives NumPy's result dtype (NEP 50) and values."""

import operator
import warnings

import numpy as np
import pytest

import accelpy as ap
from helpers import random_values, to_device

PY = [True, 3, -2, 2.5, -0.75, 1.5 - 2j]
NP_SCALARS = [
    np.bool_(True),
    np.int8(-3),
    np.uint8(200),
    np.int32(7),
    np.int64(-9),
    np.uint64(5),
    np.float16(1.5),
    np.float32(0.3),
    np.float64(2.25),
    np.complex64(1 - 1j),
    np.complex128(0.5 + 2j),
]
NUMBERS = PY + NP_SCALARS


def _name(x):
    return f"{type(x).__name__}({x!r})"


def _outcome(fn, *args):
    """fn(*args)'s result, or its exception's type, with its warnings' categories."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(*args)
        except Exception as e:  # noqa: BLE001 - the type is compared
            result = type(e)
    return result, sorted({w.category.__name__ for w in caught})


def _assert_numpys_scalar(got, want, device, ulps=0):
    if isinstance(want, type):  # an exception
        assert got is want
        return
    if device.type == "cpu":
        assert type(got) is type(want), f"{type(got)} != NumPy's {type(want)}"
    else:
        assert isinstance(got, ap.ndarray) and got.shape == () and got.device == device
        got = ap.asnumpy(got)[()]
        assert got.dtype == want.dtype
    if ulps == 0 or want.dtype.kind not in "fc":
        np.testing.assert_array_equal(got, want)
    else:
        eps = np.finfo(want.dtype).eps
        np.testing.assert_allclose(got, want, rtol=ulps * eps, atol=ulps * eps)


BINARY = [
    "add",
    "subtract",
    "multiply",
    "true_divide",
    "maximum",
    "less",
    "not_equal",
    "power",
    "arctan2",
    "floor_divide",
    "bitwise_and",
    "logical_and",
    "hypot",
]


@pytest.mark.parametrize("name", BINARY)
def test_binary_ufunc_of_numbers_is_numpys_scalar(device, name):
    for x in NUMBERS:
        for y in NUMBERS:
            with np.errstate(all="ignore"), ap.errstate(all="ignore"):
                want, _ = _outcome(getattr(np, name), x, y)
                got, _ = _outcome(getattr(ap, name), x, y)
            if isinstance(want, type):
                # NumPy's refusals (no loop for complex floor_divide, bitwise on floats: its
                # UFuncTypeError is a TypeError; -2 + uint8(200): OverflowError)
                assert isinstance(got, type) and issubclass(want, got), (
                    name,
                    _name(x),
                    _name(y),
                    got,
                    want,
                )
                continue
            exact = name not in ("power", "arctan2", "hypot", "true_divide")
            ulps = 0 if exact else 4
            if name == "power" and device.type != "cpu":
                # A GPU's power is exp(y log x) in the device's functions (NumPy's is the C
                # library's cpow, or repeated products for small integer y): the log's rounding
                # grows |y| times (complex128(0.5+2j) ** uint8(200): 5.7e-14 relative on an H100)
                ulps *= max(1.0, abs(complex(y)))
            _assert_numpys_scalar(got, want, device, ulps=ulps)


UNARY = [
    "sqrt",
    "conjugate",
    "absolute",
    "negative",
    "exp",
    "log",
    "sin",
    "floor",
    "isnan",
    "sign",
    "square",
    "logical_not",
]


@pytest.mark.parametrize("name", UNARY)
def test_unary_ufunc_of_numbers_is_numpys_scalar(device, rng, name):
    numbers = NUMBERS + [float(rng.standard_normal()), np.float32(rng.random() + 0.5)]
    for x in numbers:
        with np.errstate(all="ignore"), ap.errstate(all="ignore"):
            want, _ = _outcome(getattr(np, name), x)
            got, _ = _outcome(getattr(ap, name), x)
        if isinstance(want, type):
            assert isinstance(got, type) and issubclass(want, got), (name, _name(x), got, want)
            continue
        exact = name in (
            "conjugate",
            "absolute",
            "negative",
            "floor",
            "isnan",
            "sign",
            "logical_not",
            "square",
            "sqrt",
        )
        _assert_numpys_scalar(got, want, device, ulps=0 if exact else 4)


def test_numbers_call_is_numpys_on_the_cpu(rng):
    """On the CPU, a call on numbers alone is NumPy's own: the same bits as NumPy's ufunc."""
    x = rng.standard_normal(16) * 3
    with ap.device("cpu"), np.errstate(all="ignore"):
        for name in ("exp", "sin", "log1p", "tanh", "cbrt", "arctan2", "power"):
            fn, npfn = getattr(ap, name), getattr(np, name)
            args = (
                [(v, w) for v, w in zip(x, x[::-1], strict=True)]
                if npfn.nin == 2
                else [(v,) for v in x]
            )
            for arg in args + [(np.float32(a[0]),) * npfn.nin for a in args]:
                got, want = fn(*arg), npfn(*arg)
                assert type(got) is type(want) and got.tobytes() == want.tobytes(), (name, arg)


def test_numbers_call_keeps_error_state():
    with ap.device("cpu"), ap.errstate(invalid="raise"), pytest.raises(FloatingPointError):
        ap.sqrt(np.float64(-1.0))
    with ap.device("cpu"), ap.errstate(divide="ignore"):
        assert ap.log(0.0) == -np.inf and type(ap.log(0.0)) is np.float64


def test_array_operands_still_give_arrays(device):
    """Only numbers alone become NumPy's scalar: a 0-d array in the call keeps it an array."""
    z = ap.asarray(2.0)
    for r in (ap.sqrt(z), ap.add(z, np.float64(1)), ap.add(1.0, z), ap.sqrt(z.sum())):
        assert isinstance(r, ap.ndarray) and r.shape == ()


SEQUENCES = [
    [np.float64(1.5), np.float64(-2.0)],
    [np.float32(1), 1.0],
    [np.float32(1), 1],
    [np.int8(1), np.uint8(2), np.float16(1)],
    [np.float16(1), np.int8(1), np.uint8(2)],
    [np.uint64(2**63 + 5), -1],
    [np.uint64(3), np.int64(-1)],
    [True, np.int8(3)],
    [np.bool_(True), False],
    [np.float32(0.1), 1j],
    [np.complex64(1 + 1j), np.float64(0.1)],
    (np.int16(-7), 3, np.int32(2)),
    [np.float32(v) for v in range(40)],  # more items than the stack holds
    [np.int64(2**62), np.float32(1)],
]


@pytest.mark.parametrize("seq", SEQUENCES, ids=lambda s: ",".join(type(x).__name__ for x in s))
def test_sequence_of_numpy_scalars(seq):
    want = np.array(seq)
    for make in (ap.array, ap.asarray):
        with ap.device("cpu"):
            got = make(seq)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert ap.asnumpy(got).tobytes() == want.tobytes()
    base = np.arange(len(seq), dtype=np.float32)
    with ap.device("cpu"):
        got = ap.asarray(base) + seq  # a list operand, converted the same way
    np.testing.assert_array_equal(ap.asnumpy(got), base + want)
    assert ap.asnumpy(got).dtype == (base + want).dtype


def test_sequence_of_other_scalars_goes_numpys_way():
    """Items that are not numbers of accelpy's dtypes leave the list to NumPy's conversion."""
    got = ap.array([np.float64(1), np.int64(2), ap.asarray(3.0)], device="cpu")
    np.testing.assert_array_equal(ap.asnumpy(got), [1.0, 2.0, 3.0])
    for seq in ([np.longdouble(1), 2.0], [np.str_("a"), 1]):
        with pytest.raises(TypeError, match="accelpy stores"):
            ap.array(seq, device="cpu")


ELEMENT_DTYPES = [
    np.bool_,
    np.int8,
    np.uint8,
    np.int64,
    np.float16,
    np.float32,
    np.float64,
    np.complex64,
    np.complex128,
]


@pytest.mark.parametrize("dst", ELEMENT_DTYPES, ids=lambda d: np.dtype(d).name)
def test_zero_d_array_stored_into_an_element(rng, dst):
    for src in ELEMENT_DTYPES:
        values = random_values(rng, (3,), np.dtype(src), specials=np.dtype(src).kind in "fc")
        for v in values:
            d_np = np.zeros((3, 4), dst)
            d = ap.asarray(d_np.copy(), device="cpu")
            want, want_warn = _outcome(d_np.__setitem__, (1, 2), np.asarray(v))
            got, got_warn = _outcome(d.__setitem__, (1, 2), ap.asarray(np.asarray(v), device="cpu"))
            assert got_warn == want_warn, (np.dtype(src), np.dtype(dst), v)
            assert isinstance(got, type) == isinstance(want, type)
            assert ap.asnumpy(d).tobytes() == d_np.tobytes(), (np.dtype(src), np.dtype(dst), v)


def test_pending_zero_d_array_stored_into_an_element(rng):
    """The value is computed before the write: a reduction that reads the target sees its old
    values (the write barrier), and a view of the target's element works the same."""
    x = rng.standard_normal((5, 6))
    for layout in (lambda a: a, lambda a: a[::-1, ::2], lambda a: a.T):
        d_np = layout(x.copy())
        d = layout(ap.asarray(x.copy(), device="cpu"))
        d_np[1, 2] = np.sqrt((d_np**2).sum())
        d[1, 2] = ap.sqrt((d**2).sum())
        d_np[0, 0] = d_np[2, 1][...]
        d[0, 0] = d[2, 1][...]
        d_np[-1, -1] = (d_np[:, 0] * 2).max()
        d[-1, -1] = (d[:, 0] * 2).max()
        # (a sum's rounding is its own order's: NumPy sums pairwise)
        np.testing.assert_allclose(ap.asnumpy(d), d_np, rtol=1e-14, atol=0)
    with pytest.raises(IndexError):
        ap.zeros((2, 2), device="cpu")[2, 0] = ap.asarray(1.0)


@pytest.mark.parametrize("layout", ["0d", "1d", "broadcast", "negstride", "empty"])
def test_numpy_scalar_with_array(device, rng, layout):
    """np.complex128(z) - x, np.float32(2) * x, ...: NumPy's ufunc calls x.__array_ufunc__."""
    shapes = {"0d": (), "1d": (7,), "broadcast": (4, 1), "negstride": (9,), "empty": (0, 3)}
    for dt in (np.float32, np.float64, np.complex128, np.int8, np.uint8, np.int64):
        a_np = random_values(rng, shapes[layout], np.dtype(dt))
        if layout == "negstride":
            a_np = a_np[::-2]
        a = to_device(a_np, device)
        for s in (
            np.float32(1.5),
            np.float64(-0.5),
            np.complex128(1 - 2j),
            np.int8(3),
            np.uint8(7),
            np.int64(-4),
            np.bool_(True),
        ):
            for op in (operator.add, operator.sub, operator.mul, operator.lt, operator.eq):
                with np.errstate(all="ignore"), ap.errstate(all="ignore"):
                    want = op(s, a_np)
                    got = op(s, a)
                assert isinstance(got, ap.ndarray), (op, s, dt)
                got = ap.asnumpy(got)
                assert got.dtype == want.dtype and got.shape == want.shape, (op, s, dt)
                np.testing.assert_allclose(got, want, rtol=1e-6)
