"""Input generators and NumPy comparisons shared by the test modules."""

import warnings

import ml_dtypes
import numpy as np
import pytest

import accelpy as ap

BF16 = np.dtype(ml_dtypes.bfloat16)
ALL_DTYPES = [np.dtype(t) for t in (
    np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
    np.float16, ml_dtypes.bfloat16, np.float32, np.float64, np.complex64, np.complex128)]
INT_DTYPES = [d for d in ALL_DTYPES if d.kind in "iu"]
FLOAT_DTYPES = [d for d in ALL_DTYPES if d.kind == "f" or d == BF16]
COMPLEX_DTYPES = [d for d in ALL_DTYPES if d.kind == "c"]
NUMERIC_DTYPES = [d for d in ALL_DTYPES if d != np.bool_]

# Input layouts every op is tested on: how the operand is shaped and laid out in memory.
LAYOUTS = ["0d", "empty", "1d", "2d", "3d", "broadcast", "noncontig", "negstride", "transposed"]


def is_bf16(dt):
    return np.dtype(dt) == BF16


def random_values(rng, shape, dtype, *, low=None, high=None, specials=False, zeros=0.0):
    """Fresh random values of `dtype` (never all zeros); `specials` mixes in nan/inf/-0;
    `zeros` is the fraction of elements set to zero (False for bool)."""
    out = _random_values(rng, shape, np.dtype(dtype), low, high, specials)
    if zeros and out.size:
        out = np.array(out)
        mask = rng.random(out.shape) < zeros
        mask.reshape(-1)[rng.integers(out.size)] = False
        out[mask] = 0
    return out


def _random_values(rng, shape, dt, low, high, specials):
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo = info.min if low is None else max(low, info.min)
        hi = info.max if high is None else min(high, info.max)
        return rng.integers(lo, hi, size=shape, endpoint=True, dtype=dt)
    lo = -10.0 if low is None else low
    hi = 10.0 if high is None else high
    real = rng.uniform(lo, hi, size=shape)
    if dt.kind == "c":
        out = (real + 1j * rng.uniform(lo, hi, size=shape)).astype(dt)
    else:
        out = real.astype(dt)
    if specials and out.size >= 4:
        flat = out.reshape(-1)
        idx = rng.choice(flat.size, size=min(4, flat.size), replace=False)
        for i, v in zip(idx, [np.nan, np.inf, -np.inf, -0.0], strict=False):
            flat[i] = v
    return out


def layout_shapes(layout, arity):
    """Shapes of the operands for a layout (broadcast pairs differ per operand)."""
    shapes = {"0d": (), "empty": (0, 3), "1d": (17,), "2d": (5, 7), "3d": (2, 3, 4),
              "noncontig": (6, 5), "negstride": (9,), "transposed": (4, 6)}
    if layout == "broadcast":
        return [(4, 1, 5), (3, 1), (1, 5)][:arity] if arity > 1 else [(1, 5)]
    return [shapes[layout]] * arity


def make_operands(rng, layout, dtypes, device=None, *, per_operand=None, **value_kw):
    """NumPy operands and the accelpy arrays laid out the same way (views where the layout is
    a view), one per dtype in `dtypes`. `value_kw` goes to random_values for every operand;
    `per_operand`, a list of dicts, adds keywords for each operand in turn."""
    shapes = layout_shapes(layout, len(dtypes))
    extra = per_operand or [{}] * len(dtypes)
    np_ops, ap_ops = [], []
    for shape, dt, kw in zip(shapes, dtypes, extra, strict=True):
        value_kw_i = {**value_kw, **kw}
        if layout == "noncontig":
            base = random_values(rng, (shape[0] * 2, shape[1] + 3), dt, **value_kw_i)
            a_np = base[::2, 1:shape[1] + 1]
            a_ap = to_device(base, device)[::2, 1:shape[1] + 1]
        elif layout == "negstride":
            base = random_values(rng, shape, dt, **value_kw_i)
            a_np = base[::-1]
            a_ap = to_device(base, device)[::-1]
        elif layout == "transposed":
            base = random_values(rng, shape[::-1], dt, **value_kw_i)
            a_np = base.T
            a_ap = to_device(base, device).T
        else:
            a_np = random_values(rng, shape, dt, **value_kw_i)
            a_ap = to_device(a_np, device)
        np_ops.append(a_np)
        ap_ops.append(a_ap)
    return np_ops, ap_ops


def to_device(a_np, device=None):
    return ap.asarray(np.array(a_np, copy=True), device=device)


def to_numpy(x):
    """An accelpy result (array or Python scalar) as a NumPy array."""
    if isinstance(x, ap.ndarray):
        return ap.asnumpy(x)
    return np.asarray(x)


def tolerance(dtype, ulps=4):
    """(rtol, atol) for results of `dtype` computed ~ulps from correctly rounded."""
    dt = np.dtype(dtype)
    if dt.kind in "biu":
        return 0.0, 0.0
    eps = float(ml_dtypes.finfo(dt).eps) if is_bf16(dt) else float(np.finfo(dt).eps)
    tiny = float(ml_dtypes.finfo(dt).tiny) if is_bf16(dt) else float(np.finfo(dt).tiny)
    return ulps * eps, ulps * tiny


def sum_atol(terms, axis=None, ulps=2):
    """atol for a floating-point sum of `terms` (along `axis`) compared with NumPy's.

    Rounding errors of a sum grow with the magnitudes of its terms, not with the result: after
    cancellation a result near zero carries the absolute error of the large terms, so rtol alone
    (relative to that result) flakes. Both sums (accelpy's blocked one, NumPy's pairwise one)
    err by about eps * sum(|terms|); half-precision sums accumulate in float32 in both.
    """
    t = to_numpy(terms)
    if t.dtype.kind not in "fc" and not is_bf16(t.dtype):
        return 0.0
    acc = np.float32 if t.dtype.itemsize <= 2 else t.dtype
    mags = np.sum(np.abs(t.astype(np.complex128 if t.dtype.kind == "c" else np.float64)),
                  axis=axis)
    return float(ulps * np.finfo(acc).eps * np.max(mags, initial=0.0))


def assert_matches(actual, expected, *, rtol=None, atol=None, check_dtype=True, ulps=4):
    """accelpy `actual` equals NumPy `expected`: same dtype and shape, values within tolerance
    (NaN where NumPy has NaN, infinities where it has them)."""
    got = to_numpy(actual)
    exp = to_numpy(expected)  # may be an accelpy result (np.asarray refuses cuda arrays)
    if check_dtype:
        assert got.dtype == exp.dtype, f"dtype {got.dtype} != NumPy's {exp.dtype}"
    assert got.shape == exp.shape, f"shape {got.shape} != NumPy's {exp.shape}"
    if got.size == 0:
        return
    r, a = tolerance(exp.dtype, ulps)
    rtol = r if rtol is None else rtol
    atol = a if atol is None else atol
    if exp.dtype.kind in "biu" and rtol == 0 and atol == 0:
        np.testing.assert_array_equal(got, exp)
        return
    wide = np.complex128 if exp.dtype.kind == "c" else np.float64
    with np.errstate(invalid="ignore"):  # widening a signaling NaN (random bits) flags it
        g, e = got.astype(wide), exp.astype(wide)
    if exp.dtype.kind != "c":
        np.testing.assert_allclose(g, e, rtol=rtol, atol=atol, equal_nan=True)
        return
    # Finite values within tolerance of their modulus. A value with a NaN part is a complex NaN
    # (as np.isnan says), whichever part it is. Where NumPy has an infinite part and no NaN,
    # each part on its own: NumPy 2.5 compares such values exactly, so a finite part one ulp
    # off beside an infinite one would fail.
    finite, nan = np.isfinite(e), np.isnan(e)
    np.testing.assert_allclose(g[finite], e[finite], rtol=rtol, atol=atol)
    np.testing.assert_array_equal(np.isnan(g), nan, err_msg="complex NaNs differ")
    inf = ~finite & ~nan
    for part in (np.real, np.imag):
        np.testing.assert_allclose(part(g[inf]), part(e[inf]), rtol=rtol, atol=atol)


# Layouts of a single operand that views can have beyond LAYOUTS: "strided3d" is a 3-D view
# with steps on every axis, "bcast_view" a stride-0 broadcast (read-only) view.
VIEW_LAYOUTS = [*LAYOUTS, "strided3d", "bcast_view"]


def make_array(rng, layout, dtype, device=None, **value_kw):
    """One NumPy operand and the accelpy array laid out the same way, for any of VIEW_LAYOUTS
    ("broadcast" here is a genuine stride-0 view, like "bcast_view")."""
    if layout in ("broadcast", "bcast_view"):
        base = random_values(rng, (3, 1, 5), dtype, **value_kw)
        shape = (3, 4, 5)
        return np.broadcast_to(base, shape), ap.broadcast_to(to_device(base, device), shape)
    if layout == "strided3d":
        base = random_values(rng, (5, 7, 9), dtype, **value_kw)
        key = (slice(None, None, 2), slice(None, None, -3), slice(1, None, 2))
        return base[key], to_device(base, device)[key]
    (a_np,), (a_ap,) = make_operands(rng, layout, [dtype], device, **value_kw)
    return np.array(a_np) if layout == "0d" else a_np, a_ap  # an array, not a NumPy scalar


def np_outcome(fn, *args, **kwargs):
    """(result, None) or (None, exception) of calling a NumPy function, warnings silenced."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return fn(*args, **kwargs), None
        except Exception as exc:  # noqa: BLE001 - the caller compares exception types
            return None, exc


def assert_exact(got, expected):
    """`got` is accelpy's result (an array, or a tuple of them) equal to NumPy's exactly:
    dtype, shape and every value (for functions that only move or select elements)."""
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            assert_exact(g, e)
        return
    assert isinstance(got, ap.ndarray)
    g, e = to_numpy(got), np.asarray(expected)
    assert g.dtype == e.dtype, f"dtype {g.dtype} != NumPy's {e.dtype}"
    assert g.shape == e.shape, f"shape {g.shape} != NumPy's {e.shape}"
    if g.dtype == BF16:
        # Some NumPy / ml_dtypes pairs (NumPy 2.5 with ml_dtypes 0.6) call bfloat16 NaNs
        # unequal in assert_array_equal; float32 holds every bfloat16 value exactly.
        g, e = g.astype(np.float32), e.astype(np.float32)
    np.testing.assert_array_equal(g, e)


def assert_raises_like(np_fn, ap_fn):
    """NumPy's call raises; accelpy's raises exactly the same exception type."""
    with pytest.raises(Exception) as np_exc:  # noqa: PT011 - the type is NumPy's, compared next
        np_fn()
    with pytest.raises(type(np_exc.value)):
        ap_fn()


def assert_same_outcome(np_fn, ap_fn):
    """Runs both; when NumPy raises, accelpy must raise the same exception type. Returns
    (numpy result, accelpy result), or None when both raised."""
    expected, exc = np_outcome(np_fn)
    if exc is not None:
        with pytest.raises(builtin_exception_type(exc)):
            ap_fn()
        return None
    return expected, ap_fn()


def builtin_exception_type(exc):
    """The exception type accelpy must raise where NumPy raised `exc`: AxisError itself, else
    the nearest built-in base of NumPy's private types (_UFuncOutputCastingError: TypeError)."""
    if isinstance(exc, np.exceptions.AxisError):
        return np.exceptions.AxisError
    return next(t for t in type(exc).__mro__ if t.__module__ == "builtins")


def with_fusion(enabled, fn):
    """fn() with automatic fusion on or off, restored afterwards."""
    was = ap._core._fusion_enabled()
    ap._core._set_fusion(enabled)
    try:
        return fn()
    finally:
        ap._core._set_fusion(was)
