"""Reductions against NumPy: every reduction x dtype x layout x axis x keepdims, then dtype=,
ddof, out=, empty inputs, NaN handling, ties, accuracy, fused producers and threaded paths.

Integer, bool, index and min/max results must equal NumPy's exactly. Float sums, means,
products and variances are checked against the exact result (computed in float64/complex128
from the same inputs) within a few units of the result dtype's precision: accelpy may be more
accurate than NumPy (it accumulates 16-bit floats in float32, float32 in float64), never less.
"""

import math

import ml_dtypes
import numpy as np
import pytest

import accelpy as ap
from helpers import (
    ALL_DTYPES,
    VIEW_LAYOUTS,
    assert_matches,
    assert_same_outcome,
    builtin_exception_type,
    make_array,
    np_outcome,
    random_values,
    to_device,
    to_numpy,
)

REDUCTIONS = ["sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax", "any", "all"]
EXACT = {"min", "max", "argmin", "argmax", "any", "all"}
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

INEXACT_DTYPES = [d for d in ALL_DTYPES if d.kind in "fcV" or d.name == "bfloat16"]


def finfo(dt):
    return ml_dtypes.finfo(dt) if dt.name == "bfloat16" else np.finfo(dt)


def axis_variants(ndim):
    """None, every axis as a tuple, 0, -1, a pair, the middle axis; AxisError cases for 0-d."""
    axes = [None, tuple(range(ndim))]
    if ndim == 0:
        axes += [0, -1]
    if ndim >= 1:
        axes += [0, -1]
    if ndim >= 2:
        axes.append((0, -1))
    if ndim == 3:
        axes += [1, (-1, 1)]
    return axes


def value_kwargs(name, dtype):
    """Inputs that make each reduction's result informative: products near 1 (no overflow in
    float16), NaN/inf among min/max inputs, zeros among any/all inputs."""
    dt = np.dtype(dtype)
    inexact = dt in INEXACT_DTYPES
    if name == "prod" and dt.kind == "c":
        return {"low": 0.55, "high": 0.75}
    if name == "prod" and inexact:
        return {"low": 0.75, "high": 1.25}
    if name in ("min", "max", "argmin", "argmax") and inexact:
        return {"specials": True}
    if name in ("any", "all") and dt != np.bool_:
        return {"zeros": 0.2}
    return {}


def _wide(a):
    a = np.asarray(a)
    return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


def _count(shape, axis):
    if axis is None or not shape:
        return math.prod(shape)
    axes = axis if isinstance(axis, tuple) else (axis,)
    return math.prod(shape[a] for a in axes)


def check_reduction(name, got, expected, a_np, axis, keepdims, ddof=0, ulps=8):
    """`got` (accelpy) has NumPy's dtype and shape, and a value NumPy-exact (integer, bool,
    index, min/max results) or within `ulps` of the exact result (computed in float64)."""
    got = to_numpy(got)
    expected = np.asarray(expected)
    assert got.dtype == expected.dtype, f"{name}: dtype {got.dtype} != NumPy's {expected.dtype}"
    assert got.shape == expected.shape, f"{name}: shape {got.shape} != NumPy's {expected.shape}"
    if name in EXACT or expected.dtype.kind in "biu":
        np.testing.assert_array_equal(_wide(got) if got.dtype.kind not in "biu" else got,
                                      _wide(expected) if got.dtype.kind not in "biu" else expected,
                                      err_msg=f"{name} axis={axis} keepdims={keepdims}")
        return
    x = _wide(a_np)
    kw = {"axis": axis, "keepdims": keepdims}
    eps, tiny = float(finfo(expected.dtype).eps), float(finfo(expected.dtype).tiny)
    n = _count(a_np.shape, axis)
    with np.errstate(all="ignore"):
        if name == "sum":
            ref, atol = np.sum(x, **kw), ulps * eps * np.sum(np.abs(x), **kw)
        elif name == "mean":
            ref, atol = np.mean(x, **kw), ulps * eps * np.mean(np.abs(x), **kw)
        elif name == "prod":
            ref = np.prod(x, **kw)
            atol = 2 * (n + ulps) * eps * np.abs(ref)
        else:
            vref = np.var(x, ddof=ddof, **kw)
            vatol = 2 * ulps * eps * np.mean(np.abs(x) ** 2, **kw) * n / max(n - ddof, 1)
            if name == "var":
                ref, atol = vref, vatol
            else:
                ref = np.sqrt(vref)
                atol = np.minimum(np.sqrt(vatol), vatol / ref) + ulps * eps * ref
        err = np.abs(_wide(got) - ref)
        ok = (err <= atol + ulps * tiny) | (np.isnan(ref) & np.isnan(got)) | (ref == _wide(got))
    assert np.all(ok), (f"{name} axis={axis} keepdims={keepdims}: got {got}, exact {ref}, "
                        f"max error {np.max(np.where(ok, 0, err))} > tolerance")


@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("name", REDUCTIONS)
def test_reduction_matches_numpy(name, dtype, layout, device, rng):
    a_np, a = make_array(rng, layout, dtype, device, **value_kwargs(name, dtype))
    for axis in axis_variants(a_np.ndim):
        for keepdims in (False, True):
            outcome = assert_same_outcome(
                lambda: getattr(np, name)(a_np, axis=axis, keepdims=keepdims),  # noqa: B023
                lambda: getattr(ap, name)(a, axis=axis, keepdims=keepdims))  # noqa: B023
            if outcome is not None:
                check_reduction(name, outcome[1], outcome[0], a_np, axis, keepdims)


@pytest.mark.parametrize("name", REDUCTIONS)
def test_methods_match_functions(name, device, rng):
    a_np, a = make_array(rng, "strided3d", np.float32, device, **value_kwargs(name, np.float32))
    for axis in (None, 1, (0, 2)):
        if name.startswith("arg") and isinstance(axis, tuple):
            continue
        expected = getattr(a_np, name)(axis=axis, keepdims=True)
        check_reduction(name, getattr(a, name)(axis=axis, keepdims=True), expected, a_np, axis,
                        True)
        check_reduction(name, getattr(a, name)(axis), getattr(a_np, name)(axis), a_np, axis,
                        False)


DTYPE_ARGS = [
    (np.int8, np.int8), (np.int8, np.float32), (np.uint16, np.int16), (np.bool_, np.int32),
    (np.bool_, np.bool_), (np.float32, np.float64), (np.float64, np.float32),
    (np.float16, np.float32), (np.float16, np.float16), (np.int64, np.float64),
    (np.float32, np.complex64), (np.complex64, np.complex128), (np.uint32, np.uint8),
]


@pytest.mark.parametrize(("src", "dtype"), DTYPE_ARGS, ids=str)
@pytest.mark.parametrize("name", ["sum", "prod", "mean", "var", "std"])
def test_dtype_argument(name, src, dtype, device, rng):
    kw = value_kwargs(name, src)
    if np.dtype(src).kind in "iu" and name in ("mean", "var", "std"):
        kw = {"low": -100, "high": 100}
    if np.dtype(src).kind in "iu" and name == "prod" and np.dtype(dtype).kind == "f":
        # Small factors: a float product that overflows to inf and then meets a zero is nan in
        # NumPy, 0 in accelpy (float32 products accumulate in double, by design).
        kw = {"low": -2, "high": 3}
    a_np, a = make_array(rng, "noncontig", src, device, **kw)
    for axis in (None, 0, 1):
        outcome = assert_same_outcome(
            lambda: getattr(np, name)(a_np, axis=axis, dtype=dtype),  # noqa: B023
            lambda: getattr(ap, name)(a, axis=axis, dtype=dtype))  # noqa: B023
        if outcome is None:
            continue
        expected, got = outcome
        if np.dtype(dtype).kind in "biu" and name in ("mean", "var", "std"):
            # NumPy truncates the mean into the integer dtype: compare exactly.
            assert_matches(got, expected)
        elif np.dtype(dtype).kind in "biu" or np.dtype(src).kind in "biu" and name == "prod":
            assert_matches(got, expected)
        else:
            # The exact result of the same computation: inputs cast to dtype first.
            check_reduction(name, got, expected, a_np.astype(dtype) if name in ("sum", "prod")
                            else a_np, axis, False)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.complex64], ids=str)
@pytest.mark.parametrize("name", ["var", "std"])
def test_ddof(name, dtype, device, rng):
    a_np, a = make_array(rng, "transposed", dtype, device)
    for ddof in (0, 1, 2.5, 4, 6):  # 4 and 6 reach and pass the length of axis 0
        for axis in (None, 0, 1):
            outcome = assert_same_outcome(
                lambda: getattr(np, name)(a_np, axis=axis, ddof=ddof),  # noqa: B023
                lambda: getattr(ap, name)(a, axis=axis, ddof=ddof))  # noqa: B023
            check_reduction(name, outcome[1], outcome[0], a_np, axis, False, ddof=ddof)


@pytest.mark.parametrize("name", ["var", "std"])
def test_correction_keyword(name, device, rng):
    a_np, a = make_array(rng, "2d", np.float64, device)
    for correction in (0, 1, 1.5):
        check_reduction(name, getattr(ap, name)(a, axis=1, correction=correction),
                        getattr(np, name)(a_np, axis=1, correction=correction), a_np, 1, False,
                        ddof=correction)
        check_reduction(name, getattr(a, name)(correction=correction),
                        getattr(np, name)(a_np, correction=correction), a_np, None, False,
                        ddof=correction)
    with pytest.raises(ValueError):
        getattr(ap, name)(a, ddof=1, correction=1)


@pytest.mark.parametrize("name", REDUCTIONS)
def test_out_argument(name, device, rng):
    a_np, a = make_array(rng, "2d", np.float64, device, **value_kwargs(name, np.float64))
    expected = getattr(np, name)(a_np, axis=0)
    out = ap.asarray(random_values(rng, expected.shape, expected.dtype))
    result = getattr(ap, name)(a, axis=0, out=out)
    assert result is out
    check_reduction(name, out, expected, a_np, 0, False)
    method_out = ap.asarray(random_values(rng, (1, a_np.shape[1]), expected.dtype))
    assert getattr(a, name)(axis=0, keepdims=True, out=method_out) is method_out
    check_reduction(name, method_out, getattr(np, name)(a_np, axis=0, keepdims=True), a_np, 0,
                    True)
    with pytest.raises(ValueError):
        getattr(ap, name)(a, axis=0, out=ap.zeros((a_np.shape[1] + 1,), expected.dtype))


def test_out_argument_casts_to_its_dtype(device, rng):
    a_np, a = make_array(rng, "2d", np.float64, device)
    out_np = np.zeros(a_np.shape[1], np.int32)
    out = ap.zeros(a_np.shape[1], np.int32)
    np.sum(a_np, axis=0, out=out_np)
    ap.sum(a, axis=0, out=out)
    assert_matches(out, out_np)


@pytest.mark.parametrize("name", REDUCTIONS)
def test_empty_reductions(name, device):
    """max/min/argmax/argmin of nothing raise ValueError; sum gives 0, prod 1, mean nan."""
    for shape, axis in [((0,), None), ((0, 3), 0), ((0, 3), 1), ((3, 0), 1), ((3, 0), None),
                        ((2, 0, 3), (0, 1))]:
        a_np = np.zeros(shape, np.float32)
        a = ap.zeros(shape, np.float32)
        if name.startswith("arg") and isinstance(axis, tuple):
            continue
        outcome = assert_same_outcome(lambda: getattr(np, name)(a_np, axis=axis),  # noqa: B023
                                      lambda: getattr(ap, name)(a, axis=axis))  # noqa: B023
        if outcome is not None:
            check_reduction(name, outcome[1], outcome[0], a_np, axis, False)
    if name in ("max", "min", "argmax", "argmin"):
        with pytest.raises(ValueError):
            getattr(ap, name)(ap.zeros((0, 4)))
    elif name == "sum":
        assert float(ap.sum(ap.zeros((0, 4), np.float32))) == 0.0


# NumPy's where= and initial= (keyword names as NumPy's; any/all and mean take only where=).
MASKED = {"sum": (2, True), "prod": (2, True), "max": (0.5, True), "min": (0.5, True),
          "mean": (None, True), "any": (None, True), "all": (None, True)}


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.uint8, np.bool_,
                                   np.complex64], ids=str)
@pytest.mark.parametrize("name", sorted(MASKED))
def test_where_and_initial(name, dtype, device, rng):
    a_np = random_values(rng, (4, 5), dtype, low=-3, high=3)
    w_np = rng.random((4, 5)) < 0.6
    w_np[:, 0] = False  # a column with every element masked out
    a, w = to_device(a_np, device), to_device(w_np, device)
    initial, _ = MASKED[name]
    for axis in (None, 0, 1):
        for kw_np, kw in ((dict(where=w_np), dict(where=w)),
                          (dict(where=w_np[0]), dict(where=w[0])),  # broadcast along axis 0
                          (dict(initial=initial), dict(initial=initial)),
                          (dict(where=w_np, initial=initial), dict(where=w, initial=initial))):
            if initial is None and "initial" in kw:
                continue
            if name in ("max", "min") and "where" in kw and "initial" not in kw:
                continue  # a ValueError, below
            outcome = assert_same_outcome(
                lambda: getattr(np, name)(a_np, axis=axis, **kw_np),  # noqa: B023
                lambda: getattr(ap, name)(a, axis=axis, **kw))  # noqa: B023
            if outcome is None:
                continue
            got, expected = outcome[1], outcome[0]
            if name in ("sum", "mean") and np.asarray(expected).dtype.kind in "fc":
                # Sums cancel: the error is one of the terms' magnitude, not the result's.
                eps = float(np.finfo(np.asarray(expected).dtype).eps)
                scale = float(np.abs(a_np.astype(np.complex128)).sum()) + abs(initial or 0)
                assert_matches(got, expected, rtol=16 * eps, atol=16 * eps * scale)
            else:
                assert_matches(got, expected, ulps=16)
            method = getattr(a, name)(axis=axis, **kw)
            assert_matches(method, got, rtol=0, atol=0)
    if name in ("max", "min"):
        with pytest.raises(ValueError, match="initial"):
            getattr(ap, name)(a, where=w)
        # An empty reduction with initial is initial.
        assert_matches(getattr(ap, name)(a[:0], axis=0, initial=1),
                       getattr(np, name)(a_np[:0], axis=0, initial=1))
    with pytest.raises(TypeError, match="boolean"):
        ap.sum(a, where=ap.ones((4, 5)))


@pytest.mark.parametrize("dtype", INEXACT_DTYPES, ids=str)
@pytest.mark.parametrize("name", ["max", "min", "argmax", "argmin"])
def test_nan_propagates(name, dtype, device, rng):
    # Rows with no NaN, one NaN (first, last, middle), two NaNs; long rows use many blocks.
    for cols in (9, 5000):
        a_np = random_values(rng, (5, cols), dtype)
        nan = np.nan if np.dtype(dtype).kind != "c" else complex(1.0, np.nan)
        a_np[1, 0] = nan
        a_np[2, -1] = nan
        a_np[3, cols // 2] = nan
        a_np[4, [cols // 3, cols // 2]] = nan
        a = to_device(a_np)
        for axis in (None, 1, 0):
            check_reduction(name, getattr(ap, name)(a, axis=axis),
                            getattr(np, name)(a_np, axis=axis), a_np, axis, False)
        check_reduction(name, getattr(ap, name)(a.T, axis=0), getattr(np, name)(a_np.T, axis=0),
                        a_np.T, 0, False)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.float32, np.bool_,
                                   np.complex64], ids=str)
@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_arg_ties_pick_the_first(name, dtype, device, rng):
    # Few distinct values, so every extreme is tied; sizes reach the threaded paths.
    for shape in [(7, 9), (3, 50000), (50000, 3), (200, 300)]:
        a_np = random_values(rng, shape, dtype, low=0, high=2)
        if np.dtype(dtype).kind in "fc":
            a_np = np.round(a_np).astype(dtype)
        a = to_device(a_np)
        for axis in (None, 0, 1):
            assert_matches(getattr(ap, name)(a, axis=axis), getattr(np, name)(a_np, axis=axis))


def test_float32_sum_at_least_as_accurate_as_numpy(device, rng):
    a_np = rng.random(10_000_000, dtype=np.float32)
    exact = math.fsum(a_np.astype(np.float64))
    ours = float(ap.sum(to_device(a_np)))
    theirs = float(np.sum(a_np))
    assert abs(ours - exact) <= abs(theirs - exact), (ours, theirs, exact)
    # Along a strided axis too (NumPy adds those naively).
    b_np = a_np[:4_000_000].reshape(100_000, 40)
    exact_cols = b_np.astype(np.float64).sum(axis=0)
    ours_cols = to_numpy(ap.sum(to_device(b_np), axis=0)).astype(np.float64)
    theirs_cols = b_np.sum(axis=0).astype(np.float64)
    assert np.all(np.abs(ours_cols - exact_cols) <= np.abs(theirs_cols - exact_cols))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int32], ids=str)
def test_fused_chain_ending_in_reduction(dtype, device, rng):
    (a_np, b_np) = (random_values(rng, (6, 40, 9), dtype) for _ in range(2))
    a, b = to_device(a_np), to_device(b_np)
    for axis in (None, 1, (0, 2), -1):
        d = a - b
        got = (d * d).sum(axis=axis)
        dn = a_np - b_np
        check_reduction("sum", got, (dn * dn).sum(axis=axis), dn * dn, axis, False)
    # Reductions over views of a pending result (strided, reversed, broadcast). The reference
    # reduces accelpy's own product: NumPy's complex64 multiply may use FMA.
    prod_np = to_numpy(a * b)
    for view in (np.s_[:, ::3], np.s_[::-1, :, 1], np.s_[:, None, 2]):
        got = ap.sum((a * b)[view], axis=-1)
        check_reduction("sum", got, np.sum(prod_np[view], axis=-1), prod_np[view], -1, False)
    bcast = ap.broadcast_to((a * b)[:, :1], (6, 40, 9))
    check_reduction("max", ap.max(bcast, axis=(0, 1)),
                    np.max(np.broadcast_to(prod_np[:, :1], (6, 40, 9)), axis=(0, 1)), None, None,
                    False)
    # Strided, broadcast operands and a mean of a chain.
    got = ap.mean(ap.sqrt(a[:, ::-2] * a[:, ::-2] + b[:, :1]), axis=1)
    with np.errstate(all="ignore"):
        expected_in = np.sqrt(a_np[:, ::-2] * a_np[:, ::-2] + b_np[:, :1])
    check_reduction("mean", got, np.mean(expected_in, axis=1), expected_in, 1, False)


THREAD_SHAPES = [
    ((40, 5000), 1),  # inner: many outputs, each longer than a block
    ((3, 120_000), 1),  # inner: few outputs, each split across threads
    ((120_000, 3), 0),  # inner over a strided axis: three outputs, each split across threads
    ((20_000, 24), 0),  # outer: few columns, rows split into bands
    ((20, 20_000), 0),  # outer: many columns, split into column blocks
    ((10, 3000, 7), (0, 2)),  # mixed axes
    ((300_000,), None),
]


@pytest.mark.parametrize("threads", [1, 3, 8])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.float16, np.complex128, np.bool_],
                         ids=str)
def test_threaded_paths(dtype, threads, rng):
    previous = ap._core._num_threads()
    ap._core._set_num_threads(threads)
    try:
        for shape, axis in THREAD_SHAPES:
            a_np = random_values(rng, shape, dtype)
            check_reduction("sum", ap.sum(to_device(a_np) * 3, axis=axis),  # fused producer
                            np.sum(a_np * 3, axis=axis), a_np * 3, axis, False)
            for name in ("sum", "max", "argmin", "all"):
                a_np = random_values(rng, shape, dtype, **value_kwargs(name, dtype))
                if name == "all":
                    a_np[..., 1:] = a_np[..., 1:] | True if dtype == np.bool_ else 1
                if name.startswith("arg") and isinstance(axis, tuple):
                    continue
                a = to_device(a_np)
                check_reduction(name, getattr(ap, name)(a, axis=axis),
                                getattr(np, name)(a_np, axis=axis), a_np, axis, False)
    finally:
        ap._core._set_num_threads(previous)


def test_axis_errors(device, rng):
    a_np, a = make_array(rng, "3d", np.float32, device)
    for name in REDUCTIONS:
        for axis in (3, -4, (0, 0), (1, -2), (0, 5)):
            expected, exc = np_outcome(getattr(np, name), a_np, axis=axis)
            assert exc is not None
            with pytest.raises(builtin_exception_type(exc)):
                getattr(ap, name)(a, axis=axis)


@pytest.mark.parametrize("name", REDUCTIONS)
def test_functions_take_array_likes(name, device, rng):
    a_np = random_values(rng, (3, 4), np.int16, **value_kwargs(name, np.int16))
    for obj in (a_np.tolist(), a_np, a_np[::-1, 1:]):
        expected = getattr(np, name)(obj, axis=0)
        check_reduction(name, getattr(ap, name)(obj, axis=0), expected, np.asarray(obj), 0, False)
