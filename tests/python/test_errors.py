"""Bad input gets a clear error: the exception NumPy raises, and a message naming the problem.

Each case is (description, call, exception, message regex, NumPy too). `call(xp, a)` makes the
wrong call with module `xp` (numpy or accelpy) on `a`, a fresh random 2x3 float64 array of
that module. Where NumPy has the same call, it runs too and must raise the same exception
type; the regex applies to accelpy's message, which must name what was wrong (shapes, dtypes,
axes, sizes).
"""

import operator
import re

import numpy as np
import pytest

import accelpy as ap

AxisError = np.exceptions.AxisError


def setitem(x, key, value):
    x[key] = value


def bools(xp, a):
    return xp.less(0, a)


# (description, call, exception, regex, NumPy raises the same)
CREATION = [
    ("negative dimension", lambda xp, a: xp.zeros((2, -1)), ValueError, r"negative dim", True),
    ("float dimension", lambda xp, a: xp.zeros((2.5, 3)), TypeError,
     r"'float' object cannot be interpreted as an integer", True),
    ("str shape", lambda xp, a: xp.ones("abc"), TypeError, r"'str' object", True),
    ("nested list shape", lambda xp, a: xp.empty([[2]]), TypeError, r"'list' object", True),
    ("65 dimensions", lambda xp, a: xp.zeros((1,) * 65), ValueError,
     r"maximum supported dimension.*64.*found 65", True),
    ("negative empty", lambda xp, a: xp.empty(-3), ValueError, r"negative dim", True),
    ("negative eye", lambda xp, a: xp.eye(-1), ValueError, r"negative dim", True),
    ("misspelt dtype", lambda xp, a: xp.ones(3, dtype="flot32"), TypeError,
     r"data type 'flot32' not understood", True),
    ("object dtype", lambda xp, a: xp.ones(3, dtype=object), TypeError,
     r"does not support dtype dtype\('O'\)", False),
    ("str dtype", lambda xp, a: xp.zeros(3, dtype=str), TypeError, r"does not support dtype.*U",
     False),
    ("longdouble dtype", lambda xp, a: xp.empty(2, dtype=np.longdouble), TypeError,
     r"does not support dtype", False),
    ("datetime dtype", lambda xp, a: xp.empty(2, dtype="M8[s]"), TypeError,
     r"does not support dtype.*M8", False),
    ("strings", lambda xp, a: xp.asarray(["a", "b"]), TypeError, r"from list with dtype <U1",
     False),
    ("objects", lambda xp, a: xp.asarray([1, None]), TypeError, r"with dtype object", False),
    ("ragged list", lambda xp, a: xp.asarray([[1, 2], [3]]), ValueError, r"inhomogeneous", True),
    ("copy=False from a list", lambda xp, a: xp.asarray([1, 2], copy=False), ValueError,
     r"Unable to avoid copy", True),
    ("copy=False with a dtype change", lambda xp, a: xp.asarray(a, dtype=xp.float32, copy=False),
     ValueError, r"Unable to avoid copy", True),
    ("copy=False from NumPy with a new dtype",
     lambda xp, a: xp.asarray(np.arange(3), dtype=xp.int8, copy=False), ValueError,
     r"Unable to avoid copy", True),
    ("string fill value", lambda xp, a: xp.full(3, "x"), TypeError, r"fill_value must be a scalar",
     False),
    ("fill value out of range", lambda xp, a: xp.full(3, 300, dtype=xp.int8), OverflowError,
     r"300 out of bounds for int8", True),
    ("arange step 0", lambda xp, a: xp.arange(0, 10, 0), ZeroDivisionError, r"step", True),
    ("linspace negative num", lambda xp, a: xp.linspace(0, 1, -2), ValueError,
     r"-2, must be non-negative", True),
    ("astype unknown", lambda xp, a: a.astype("foo"), TypeError, r"'foo' not understood", True),
    ("astype object", lambda xp, a: a.astype(object), TypeError, r"dtype\('O'\)", False),
    ("reshape float", lambda xp, a: a.reshape(2.0, 3), TypeError, r"'float' object", True),
]

ELEMENTWISE = [
    ("bool subtract", lambda xp, a: xp.subtract(bools(xp, a), bools(xp, a)), TypeError,
     r"boolean subtract.*bitwise_xor", True),
    ("bool - operator", lambda xp, a: bools(xp, a) - True, TypeError, r"boolean subtract", True),
    ("bool negative", lambda xp, a: xp.negative(bools(xp, a)), TypeError,
     r"boolean negative.*logical_not", True),
    ("-bool operator", lambda xp, a: -bools(xp, a), TypeError, r"boolean negative", True),
    ("broadcast add", lambda xp, a: xp.add(a, xp.ones(4)), ValueError,
     r"could not be broadcast together with shapes \(2, 3\) \(4,\)", True),
    ("broadcast operator", lambda xp, a: a * xp.ones((3, 2)), ValueError,
     r"\(2, 3\) \(3, 2\)", True),
    ("broadcast where", lambda xp, a: xp.where(xp.less(xp.ones(3), 2), xp.ones(2), 0),
     ValueError, r"\(3,\) \(2,\)", True),
    ("int8 + 300", lambda xp, a: xp.add(a.astype(xp.int8), 300), OverflowError,
     r"Python integer 300 out of bounds for int8", True),
    ("uint8 * -1", lambda xp, a: a.astype(xp.uint8) * -1, OverflowError,
     r"-1 out of bounds for uint8", True),
    ("int64 + 2**64", lambda xp, a: a.astype(xp.int64) + 2**64, OverflowError,
     r"18446744073709551616", True),
    ("maximum(int16, 40000)", lambda xp, a: xp.maximum(a.astype(xp.int16), 40000), OverflowError,
     r"40000 out of bounds for int16", True),
    ("out= of another shape", lambda xp, a: xp.add(a, 1, out=xp.ones(4)), ValueError,
     r"\(4,\).*\(2, 3\)", True),
    ("out= not an array", lambda xp, a: xp.sqrt(a, out=[1, 2]), TypeError, r"out=", True),
    ("int32 += 1.5", lambda xp, a: operator.iadd(a.astype(xp.int32), 1.5), TypeError,
     r"Cannot cast ufunc 'add' output from dtype\('float64'\) to dtype\('int32'\)", True),
    ("in-place broadcast grows", lambda xp, a: operator.iadd(a[0], a), ValueError,
     r"non-broadcastable output operand with shape \(3,\).*\(2, 3\)", True),
    ("None operand", lambda xp, a: a + None, TypeError,
     r"unsupported operand type\(s\) for \+: '(accelpy\._core\.)?ndarray' and 'NoneType'", True),
    ("None argument", lambda xp, a: xp.multiply(None, a), TypeError, r"NoneType", True),
    ("str operand", lambda xp, a: xp.add(a, "x"), TypeError, r"<U1", True),
]

# Ops other engineers are adding; their cases run once the op exists.
FUTURE_OPS = [
    ("bitwise_and on floats", "bitwise_and", lambda xp, a: xp.bitwise_and(a, a), TypeError,
     r"bitwise_and.*float64", True),
    ("invert on floats", "bitwise_invert", lambda xp, a: ~a, TypeError, r"float64", True),
    ("left_shift on floats", "bitwise_left_shift", lambda xp, a: a << 1, TypeError, r"float64",
     True),
    ("floor_divide on complex", "floor_divide",
     lambda xp, a: xp.floor_divide(a.astype(xp.complex64), 2), TypeError, r"complex64", True),
]

REDUCTIONS = [
    ("sum axis 2 of 2-d", lambda xp, a: xp.sum(a, axis=2), AxisError,
     r"axis 2 is out of bounds for array of dimension 2", True),
    ("sum axis -3", lambda xp, a: a.sum(axis=-3), AxisError, r"axis -3 .*dimension 2", True),
    ("mean axis 1 of 1-d", lambda xp, a: xp.mean(a[0], axis=1), AxisError,
     r"axis 1 .*dimension 1", True),
    ("max axes (0, 5)", lambda xp, a: a.max(axis=(0, 5)), AxisError, r"axis 5", True),
    ("var axis 3", lambda xp, a: xp.var(a, axis=3), AxisError, r"axis 3", True),
    ("duplicate axes", lambda xp, a: xp.sum(a, axis=(0, 0)), ValueError,
     r"duplicate value in 'axis'", True),
    ("duplicate axes 1 and -1", lambda xp, a: a.prod(axis=(1, -1)), ValueError,
     r"duplicate value in 'axis'.*-1", True),
    ("float axis", lambda xp, a: a.sum(axis=1.5), TypeError, r"'float' object", True),
    ("max of empty", lambda xp, a: xp.max(xp.ones(0)), ValueError,
     r"zero-size array to reduction operation maximum which has no identity", True),
    ("min along an empty axis", lambda xp, a: a[:, :0].min(axis=1), ValueError,
     r"reduction operation minimum", True),
    ("argmax of empty", lambda xp, a: xp.argmax(a[:0]), ValueError,
     r"attempt to get argmax of an empty sequence", True),
    ("argmin tuple axis", lambda xp, a: xp.argmin(a, axis=(0, 1)), TypeError, r"axis", True),
]

MANIPULATION = [
    ("reshape size", lambda xp, a: a.reshape(4, 2), ValueError,
     r"cannot reshape array of size 6 into shape \(4, 2\)", True),
    ("reshape two unknowns", lambda xp, a: xp.reshape(a, (-1, -1)), ValueError,
     r"one unknown dimension", True),
    ("reshape unknown misfits", lambda xp, a: a.reshape(4, -1), ValueError,
     r"size 6 into shape \(4, -1\)", True),
    ("transpose axes count", lambda xp, a: xp.transpose(a, (0,)), ValueError,
     r"axes don't match array: 1 axes given for an array of dimension 2", True),
    ("transpose repeated axes", lambda xp, a: a.transpose(0, 0), ValueError, r"axis 0", True),
    ("transpose axis out of range", lambda xp, a: xp.transpose(a, (0, 2)), AxisError,
     r"axis 2 is out of bounds", True),
    ("squeeze a non-1 axis", lambda xp, a: xp.squeeze(a[:, :1], axis=0), ValueError,
     r"size not equal to one \(axis 0 has size 2\)", True),
    ("squeeze axis out of range", lambda xp, a: a[:, :1].squeeze(axis=2), AxisError,
     r"axis 2", True),
    ("expand_dims out of range", lambda xp, a: xp.expand_dims(a, 3), AxisError,
     r"axis 3 is out of bounds for array of dimension 3", True),
    ("expand_dims repeated", lambda xp, a: xp.expand_dims(a, (0, 0)), ValueError, r"axis 0",
     True),
    ("swapaxes out of range", lambda xp, a: xp.swapaxes(a, 0, 2), AxisError, r"axis 2", True),
    ("moveaxis lengths", lambda xp, a: xp.moveaxis(a, (0, 1), (0,)), ValueError,
     r"same number of elements", True),
    ("concatenate shapes", lambda xp, a: xp.concatenate([a, xp.ones((2, 4))], axis=0),
     ValueError, r"along dimension 1, the array at index 0 has size 3 and the array at index 1 "
     r"has size 4", True),
    ("concatenate ndim", lambda xp, a: xp.concatenate([a, a[0]]), ValueError,
     r"same number of dimensions.*index 0 has 2 dimension\(s\).*index 1 has 1 dimension\(s\)",
     True),
    ("concatenate nothing", lambda xp, a: xp.concatenate([]), ValueError, r"at least one array",
     True),
    ("concatenate 0-d", lambda xp, a: xp.concatenate([a[0, 0], a[1, 1]]), ValueError,
     r"zero-dimensional", True),
    ("concatenate axis", lambda xp, a: xp.concatenate([a, a], axis=2), AxisError, r"axis 2",
     True),
    ("stack shapes", lambda xp, a: xp.stack([a[0], xp.ones(4)]), ValueError,
     r"same shape.*index 0 has shape \(3,\).*index 1 has shape \(4,\)", True),
    ("stack nothing", lambda xp, a: xp.stack([]), ValueError, r"at least one array", True),
    ("stack axis", lambda xp, a: xp.stack([a, a], axis=4), AxisError, r"axis 4", True),
    ("broadcast_to incompatible", lambda xp, a: xp.broadcast_to(a, (2, 4)), ValueError,
     r"shape \(2, 3\) to shape \(2, 4\)", True),
    ("broadcast_to fewer dims", lambda xp, a: xp.broadcast_to(a, (3,)), ValueError,
     r"shape \(2, 3\) to shape \(3,\)", True),
    ("broadcast_to negative", lambda xp, a: xp.broadcast_to(a, (-1, 3)), ValueError,
     r"non-negative", True),
    ("broadcast_arrays", lambda xp, a: xp.broadcast_arrays(a, xp.ones(4)), ValueError,
     r"\(2, 3\) \(4,\)", True),
    ("mT of 1-d", lambda xp, a: a[0].mT, ValueError, r"ndim < 2", True),
]

INDEXING = [
    ("too many indices", lambda xp, a: a[0, 0, 0], IndexError,
     r"array is 2-dimensional, but 3 were indexed", True),
    ("too many around None", lambda xp, a: a[None, 0, ..., 0, None, 0], IndexError,
     r"2-dimensional, but 3", True),
    ("index out of bounds", lambda xp, a: a[0, 5], IndexError,
     r"index 5 is out of bounds for axis 1 with size 3", True),
    ("negative index out of bounds", lambda xp, a: a[-3], IndexError,
     r"index -3 is out of bounds for axis 0 with size 2", True),
    ("two ellipses", lambda xp, a: a[..., ...], IndexError, r"single ellipsis", True),
    ("slice step 0", lambda xp, a: a[::0], ValueError, r"slice step cannot be zero", True),
    ("float index", lambda xp, a: a[1.0], IndexError, r"only integers, slices", True),
    ("str index", lambda xp, a: a["x"], IndexError, r"only integers, slices", True),
    ("float slice bound", lambda xp, a: a[0:1.5], TypeError, r"slice indices must be integer",
     True),
    ("assign shape", lambda xp, a: setitem(a, slice(None), xp.ones(2)), ValueError,
     r"could not broadcast input array from shape \(2,\) into shape \(2, 3\)", True),
    ("assign into a slice", lambda xp, a: setitem(a[0], slice(1, 3), xp.ones(3)), ValueError,
     r"from shape \(3,\) into shape \(2,\)", True),
    ("assign out of bounds", lambda xp, a: setitem(a, (1, 3), 0.0), IndexError,
     r"index 3 is out of bounds for axis 1 with size 3", True),
    ("assign out of range", lambda xp, a: setitem(a.astype(xp.uint8), 0, 256), OverflowError,
     r"256 out of bounds for uint8", True),
    ("write into a broadcast view", lambda xp, a: setitem(xp.broadcast_to(a[0], (4, 3)), 0, 1.0),
     ValueError, r"read-only", True),
    ("write into imag of a real array", lambda xp, a: setitem(xp.imag(a), ..., 1.0), ValueError,
     r"read-only", True),
    ("set imag of a real array", lambda xp, a: setattr(a, "imag", 1.0), TypeError,
     r"imaginary part", True),
]

CONVERSIONS = [
    ("len of 0-d", lambda xp, a: len(a[0, 0, ...]), TypeError, r"len\(\) of unsized object", True),
    ("bool of several", lambda xp, a: bool(a), ValueError, r"more than one element", True),
    ("bool of empty", lambda xp, a: bool(a[:0]), ValueError, r"empty array", True),
    ("int of several", lambda xp, a: int(a[0]), TypeError, r"shape \(3,\)", True),
    ("float of 2-d", lambda xp, a: float(a), TypeError, r"shape \(2, 3\)", True),
    ("complex of empty", lambda xp, a: complex(a[:0]), TypeError, r"shape \(0, 3\)", True),
    ("item of several", lambda xp, a: a.item(), ValueError, r"size 1.*size 6", True),
    ("item of empty", lambda xp, a: a[:0].item(), ValueError, r"has size 0", True),
    ("__index__ of float", lambda xp, a: operator.index(a[0, 0, ...]), TypeError,
     r"integer scalar arrays.*float64 array of shape \(\)", True),
    ("__index__ of 1-d int", lambda xp, a: [1, 2][a[0, :1].astype(xp.int64)], TypeError,
     r"int64 array of shape \(1,\)", True),
    ("__index__ of bool", lambda xp, a: range(bools(xp, a)[0, 0]), TypeError, r"bool", True),
    ("iter of 0-d", lambda xp, a: iter(a[0, 0, ...]), TypeError, r"0-d", True),
    ("hash", lambda xp, a: hash(a), TypeError, r"unhashable", True),
]

DEVICES = [
    ("unknown device", lambda xp, a: ap.ones(3, device="tpu"), ValueError,
     r"invalid device string 'tpu'", False),
    ("bad device index", lambda xp, a: ap.zeros(3, device="cuda:x"), ValueError, r"'cuda:x'",
     False),
    ("negative device index", lambda xp, a: ap.device("gpu:-1"), ValueError, r"'gpu:-1'", False),
    ("second cpu", lambda xp, a: ap.asarray([1.0], device="cpu:1"), ValueError,
     r"one cpu device", False),
    ("device as int", lambda xp, a: ap.arange(3, device=3), TypeError, r"expected a device.*3",
     False),
    ("to nowhere", lambda xp, a: a.to("nowhere"), ValueError, r"'nowhere'", False),
    ("device context", lambda xp, a: ap.device("npu").__enter__(), ValueError, r"'npu'", False),
]

CASES = CREATION + ELEMENTWISE + REDUCTIONS + MANIPULATION + INDEXING + CONVERSIONS + DEVICES


def _raised(call, xp, a):
    try:
        call(xp, a)
    except Exception as e:  # noqa: BLE001 - any exception is the result under test
        return e
    return None


@pytest.mark.parametrize("call,exc,match,numpy_too", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_wrong_call(rng, call, exc, match, numpy_too):
    base = rng.uniform(-5, 5, (2, 3))
    got = _raised(call, ap, ap.asarray(base.copy()))
    assert got is not None, "accelpy accepted the call"
    assert isinstance(got, exc), f"accelpy raised {type(got).__name__}: {got}"
    assert re.search(match, str(got)), f"message {str(got)!r} does not match {match!r}"
    if numpy_too:
        expected = _raised(call, np, base.copy())
        assert expected is not None, "NumPy accepts this call"
        # The table names NumPy's exact type, or the public base of a private NumPy subclass
        # (UFuncTypeError is a TypeError).
        private = type(expected).__module__.startswith("numpy._core")
        assert type(expected) is exc or (private and isinstance(expected, exc)), (
            f"NumPy raises {type(expected).__name__}: {expected}")


@pytest.mark.parametrize("op,call,exc,match,numpy_too", [c[1:] for c in FUTURE_OPS],
                         ids=[c[0] for c in FUTURE_OPS])
def test_wrong_dtype_for_op(rng, op, call, exc, match, numpy_too):
    if not hasattr(ap, op):
        pytest.skip(f"accelpy has no {op} yet")
    test_wrong_call(rng, call, exc, match, numpy_too)


def test_the_table_is_large_enough():
    assert len(CASES) >= 60


def test_axis_error_is_value_and_index_error():
    with pytest.raises(ValueError):
        ap.ones((2, 2)).sum(axis=2)
    with pytest.raises(IndexError):
        ap.ones((2, 2)).sum(axis=-3)


def test_missing_device_fails_at_the_call():
    # One past the last GPU (cuda:0 on a machine without one): the creation call itself raises,
    # naming the device, not the first read of its result.
    missing = f"cuda:{ap.cuda.device_count()}"
    with pytest.raises(ValueError, match=rf"{missing}.*does not exist"):
        ap.ones(3, device=missing)
