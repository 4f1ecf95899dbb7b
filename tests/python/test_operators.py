"""ndarray's Python operators against NumPy's: binary, reflected, in-place, unary, comparisons,
with arrays of every dtype and with Python scalars (NEP 50)."""

import operator
import warnings

import numpy as np
import pytest

from helpers import (
    ALL_DTYPES,
    BF16,
    assert_matches,
    is_bf16,
    make_operands,
    random_values,
    to_device,
)

BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
          operator.mod, operator.pow, operator.and_, operator.or_, operator.xor,
          operator.lshift, operator.rshift]
INPLACE = [operator.iadd, operator.isub, operator.imul, operator.itruediv, operator.ifloordiv,
           operator.imod, operator.ipow, operator.iand, operator.ior, operator.ixor,
           operator.ilshift, operator.irshift]
COMPARE = [operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge]
UNARY = [operator.neg, operator.pos, abs, operator.invert]
# Through pow or a division of mixed dtypes: a few ulps.
ROUNDING_FREE = {operator.truediv, operator.pow, operator.itruediv, operator.ipow}
OUT_OF_PLACE = dict(zip(INPLACE, BINARY, strict=True))


def numpy_apply(op, *args):
    """NumPy's result; bfloat16 operands compute in float32 (dtypes from float16, the twin)."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if not any(isinstance(a, np.ndarray) and is_bf16(a.dtype) for a in args):
            return op(*args)
        proxy = op(*[a.astype(np.float16) if is_bf16(a.dtype) else a for a in args])
        out = op(*[a.astype(np.float32) if is_bf16(a.dtype) else a for a in args])
        return out.astype(BF16) if proxy.dtype == np.float16 else out


def values_kw(op, dtype):
    dt = np.dtype(dtype)
    if dt.kind in "iu" and op in (operator.pow, operator.ipow):
        return {"low": 0, "high": 6}
    if dt.kind in "iu" and op in (operator.lshift, operator.rshift, operator.ilshift,
                                  operator.irshift):
        return {"low": 0, "high": dt.itemsize * 8 - 1}
    if dt.kind in "fc" or is_bf16(dt):
        return {"specials": True}
    return {}


def check(op, ap_args, np_args, ulps):
    try:
        expected = numpy_apply(op, *np_args)
    except TypeError:
        with pytest.raises(TypeError):
            op(*ap_args)
        return
    assert_matches(op(*ap_args), expected, **ulps)


def ulps_for(op, dtypes):
    complex_ = any(np.dtype(d).kind == "c" for d in dtypes)
    if complex_ and op in (operator.pow, operator.ipow):
        return {"ulps": 256}  # exp(b log a): the error of log a grows with |b log a|
    if op in ROUNDING_FREE or complex_:
        return {"ulps": 8}
    return {"rtol": 0, "atol": 0}


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("op", BINARY + COMPARE, ids=lambda f: f.__name__)
def test_binary_operators(op, dtype, device, rng):
    for layout in ("2d", "broadcast", "noncontig", "0d"):
        (a, b), (x, y) = make_operands(rng, layout, [dtype, dtype], device,
                                       per_operand=[values_kw(op, dtype)] * 2)
        check(op, (x, y), (a, b), ulps_for(op, [dtype]))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("op", UNARY, ids=lambda f: f.__name__)
def test_unary_operators(op, dtype, device, rng):
    for layout in ("1d", "transposed", "0d"):
        (a,), (x,) = make_operands(rng, layout, [dtype], device, **values_kw(op, dtype))
        check(op, (x,), (a,), ulps_for(op, [dtype]))


SCALARS = [2, -1, 0, 1.5, -0.5, 2j, True, False, 200, -200, 70000]


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int32, np.uint64, np.float16,
                                   np.float32, np.float64, np.complex64], ids=str)
@pytest.mark.parametrize("op", BINARY + COMPARE, ids=lambda f: f.__name__)
def test_python_scalars_and_reflected(op, dtype, device, rng):
    a = random_values(rng, (7,), dtype, **values_kw(op, dtype))
    x = to_device(a, device)
    for s in SCALARS:
        for ap_args, np_args in (((x, s), (a, s)), ((s, x), (s, a))):
            try:
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    expected = op(*np_args)
            except (OverflowError, ValueError) as e:
                with pytest.raises(type(e)):
                    op(*ap_args)
                continue
            except TypeError:
                with pytest.raises(TypeError):
                    op(*ap_args)
                continue
            try:
                assert_matches(op(*ap_args), expected, **ulps_for(op, [np.asarray(expected).dtype]))
            except AssertionError as e:
                raise AssertionError(
                    f"{op.__name__}{np_args[0]!r:.20}, {np_args[1]!r:.20}: {e}") from None


def test_out_of_range_python_ints(device):
    a = np.array([0, 100, 255], np.uint8)
    x = to_device(a, device)
    with pytest.raises(OverflowError):
        np.add(a, 300)
    with pytest.raises(OverflowError):
        x + 300
    with pytest.raises(OverflowError):
        x - (-1)
    # NumPy 2 compares with any Python int exactly.
    for v in (-1, 256, 2**63, -(2**63)):
        for op in COMPARE:
            assert_matches(op(x, v), op(a, v))
            assert_matches(op(v, x), op(v, a))
    i = np.array([-(2**63), 0, 2**63 - 1], np.int64)
    for v in (2**63, 2**64 - 1):  # below -2**63 the Python-int conversion refuses
        for op in COMPARE:
            assert_matches(op(to_device(i, device), v), op(i, v))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("op", INPLACE, ids=lambda f: f.__name__)
def test_inplace_operators(op, dtype, device, rng):
    for other_dtype in (dtype, np.int8, np.float64, np.complex64):
        kws = [values_kw(op, dtype), values_kw(op, other_dtype)]
        (a, b), (x, y) = make_operands(rng, "2d", [dtype, other_dtype], device, per_operand=kws)
        a_before = a.copy()
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if is_bf16(dtype) or is_bf16(other_dtype):
                    # float16 decides the casting; the values compute in float32.
                    twin = [v.astype(np.float16) if is_bf16(v.dtype) else v for v in (a, b)]
                    proxy = OUT_OF_PLACE[op](*twin)
                    if not np.can_cast(proxy.dtype, twin[0].dtype, "same_kind"):
                        raise TypeError(proxy.dtype)
                    expected = numpy_apply(OUT_OF_PLACE[op], a, b).astype(a.dtype)
                else:
                    expected = op(a, b)
        except (TypeError, ValueError) as e:
            kind = TypeError if isinstance(e, TypeError) else ValueError
            with pytest.raises(kind):
                op(x, y)
            assert_matches(x, a_before, rtol=0, atol=0)  # untouched
            continue
        storage = x._storage_id()
        res = op(x, y)
        assert res is x and x._storage_id() == storage
        assert x.dtype == a.dtype
        assert_matches(x, expected, **ulps_for(op, [dtype, other_dtype]))


def test_inplace_keeps_dtype_and_views(device, rng):
    a = random_values(rng, (6, 4), np.int16)
    x = to_device(a, device)
    v = x[::2]
    v += 3
    a[::2] += 3
    assert_matches(x, a)
    f = to_device(np.ones(3, np.float32), device)
    f *= 2.5
    assert f.dtype == np.float32
    with pytest.raises(TypeError):
        iv = to_device(np.ones(3, np.int32), device)
        iv += 1.5  # same_kind: float64 result cannot go into int32


@pytest.mark.parametrize("op", ["*=", "+=", "//=", "**="])
@pytest.mark.parametrize("dtypes",
                         [("bool", "complex64"), ("int8", "float32"), ("uint16", "int64")])
def test_inplace_checks_casting_before_broadcasting(device, rng, op, dtypes):
    """x op= y that fails both the output casting and broadcasting raises NumPy's casting
    error (UFuncTypeError, a TypeError): NumPy resolves the loop before it broadcasts."""
    target, other = dtypes
    if op == "//=" and other == "complex64":
        pytest.skip("floor_divide has no complex loop")
    a_np = np.ones((3, 4), target)
    b_np = (rng.random((3, 5)) * 3 + 1).astype(other)
    stmt = f"a[..., ::2] {op} b"
    with pytest.raises(TypeError, match="Cannot cast ufunc") as expected:
        exec(stmt, {"a": a_np, "b": b_np})
    assert type(expected.value).__name__ == "UFuncTypeError"
    with pytest.raises(TypeError, match="Cannot cast ufunc"):
        exec(stmt, {"a": to_device(a_np, device), "b": to_device(b_np, device)})
    # Castable but not broadcastable: NumPy's ValueError, on both.
    stmt = "a[..., ::2] += b"
    with pytest.raises(ValueError):
        exec(stmt, {"a": a_np.astype(np.complex128), "b": b_np})
    with pytest.raises(ValueError):
        exec(stmt, {"a": to_device(a_np.astype(np.complex128), device),
                    "b": to_device(b_np, device)})


def test_pow_with_negative_scalar_exponent(device):
    x = to_device(np.array([1, 2, 3], np.int32), device)
    with pytest.raises(ValueError):
        x ** -1
    with pytest.raises(ValueError):
        x **= -2
    assert_matches(x ** -1.0, np.array([1, 2, 3], np.int32) ** -1.0, ulps=2)
    assert_matches(2 ** x, 2 ** np.array([1, 2, 3], np.int32))


class _Reflects:
    """An operand ndarray does not take: Python falls back to its reflected methods."""

    def __radd__(self, other):
        return ("radd", type(other).__name__)

    def __rmul__(self, other):
        return ("rmul", type(other).__name__)


@pytest.mark.parametrize("op", BINARY, ids=lambda f: f.__name__)
def test_operator_slots_match_the_methods(op, rng):
    # The binary operators are the type's number slots; the dunder methods stay, and agree.
    a_np = random_values(rng, (3, 4), np.int32, low=1, high=5)
    b_np = random_values(rng, (4,), np.int32, low=1, high=3)
    a, b = to_device(a_np), to_device(b_np)
    name = {operator.and_: "and", operator.or_: "or", operator.pow: "pow"}.get(op, op.__name__)
    forward = getattr(a, f"__{name}__")(b)
    reflected = getattr(b, f"__r{name}__")(a)
    for got in (op(a, b), forward, reflected):
        np.testing.assert_array_equal(np.asarray(got), op(a_np, b_np))
    # NumPy arrays and scalars on either side.
    np.testing.assert_array_equal(np.asarray(op(a_np, b)), op(a_np, b_np))
    np.testing.assert_array_equal(np.asarray(op(np.int32(3), b)), op(np.int32(3), b_np))


def test_operator_slots_raise_numpy_exceptions_and_defer_to_other_types():
    a = to_device(np.arange(6.0))
    with pytest.raises(ValueError, match="could not be broadcast"):
        a + to_device(np.ones(4))
    flags = to_device(np.array([True, False]))
    with pytest.raises(TypeError, match="boolean subtract"):
        flags - flags
    with pytest.raises(TypeError, match="unsupported operand type"):
        a + "x"
    with pytest.raises(TypeError, match="unsupported operand type"):
        None - a
    assert a + _Reflects() == ("radd", "ndarray")
    assert a * _Reflects() == ("rmul", "ndarray")
