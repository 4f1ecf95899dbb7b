"""The Python Array API standard (2024.12): the namespace and its inspection functions,
isdtype / result_type / can_cast / finfo / iinfo (bfloat16 included), the array object's
required attributes, and generic code written with array-api-compat running on accelpy."""

import math

import ml_dtypes
import numpy as np
import pytest

import accelpy as ap
from helpers import ALL_DTYPES, BF16, assert_matches, make_operands, random_values

KINDS = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
         "complex floating", "numeric"]

# Names the 2024.12 standard puts in the main namespace and accelpy has today (the rest of the
# standard's list is being added by other work: sorting, searching, sets, indexing, linalg).
REQUIRED_NOW = """
arange asarray empty empty_like eye from_dlpack full full_like linspace ones ones_like zeros
zeros_like astype can_cast finfo iinfo isdtype result_type abs acos acosh add asin asinh atan
atan2 atanh bitwise_and bitwise_left_shift bitwise_invert bitwise_or bitwise_right_shift
bitwise_xor ceil clip conj copysign cos cosh divide equal exp expm1 floor floor_divide greater
greater_equal hypot imag isfinite isinf isnan less less_equal log log1p log2 log10 logaddexp
logical_and logical_not logical_or logical_xor maximum minimum multiply negative nextafter
not_equal positive pow real reciprocal remainder round sign signbit sin sinh square sqrt
subtract tan tanh trunc vecdot broadcast_arrays broadcast_to concat expand_dims moveaxis
permute_dims reshape squeeze stack unstack argmax argmin where max mean min prod std sum var all
any e inf nan newaxis pi bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float32 float64
complex64 complex128 __array_namespace_info__
""".split()


def test_namespace():
    assert ap.__array_api_version__ == "2024.12"
    missing = [n for n in REQUIRED_NOW if not hasattr(ap, n)]
    assert not missing, f"the namespace lacks {missing}"
    x = ap.ones(3)
    assert x.__array_namespace__() is ap
    for v in ("2021.12", "2022.12", "2023.12", "2024.12", None):
        assert x.__array_namespace__(api_version=v) is ap
    with pytest.raises(ValueError, match="2024.12"):
        x.__array_namespace__(api_version="2025.12")


def test_array_object_attributes(device):
    x = ap.ones((2, 3), dtype=ap.float32, device=device)
    assert x.device == device and x.mT.shape == (3, 2) and x.T.shape == (3, 2)
    assert x.ndim == 2 and x.size == 6 and x.shape == (2, 3) and x.dtype == ap.float32
    y = x.to_device("cpu")
    assert y.device == ap.device("cpu")
    assert ap._core._data_ptr(x.to_device(device)) == ap._core._data_ptr(x)
    if device.type == "cuda":
        s = ap.cuda.Stream(device)
        z = y.to_device(device, stream=s)
        s.synchronize()
        assert z.device == device
    with pytest.raises(TypeError, match="Stream"):
        x.to_device("cpu", stream=5)


def test_inspection(device):
    info = ap.__array_namespace_info__()
    caps = info.capabilities()
    assert set(caps) == {"boolean indexing", "data-dependent shapes", "max dimensions"}
    assert caps["max dimensions"] == 64
    assert caps["data-dependent shapes"] == all(
        hasattr(ap, n) for n in ("nonzero", "unique_all", "unique_values"))
    assert info.default_device() == ap.get_default_device() == device
    devices = info.devices()
    assert ap.device("cpu") in devices and device in devices
    assert len(devices) == 1 + (ap.cuda.device_count() if ap.cuda.is_available() else 0)
    assert info.default_dtypes() == {"real floating": np.float64, "complex floating":
                                     np.complex128, "integral": np.int64, "indexing": np.int64}
    assert info.default_dtypes(device=device) == info.default_dtypes()
    every = info.dtypes()
    assert len(every) == 13 and every["bool"] == np.bool_ and "bfloat16" not in every
    assert list(info.dtypes(kind="signed integer")) == ["int8", "int16", "int32", "int64"]
    assert set(info.dtypes(kind=("real floating", "bool"))) == {"bool", "float32", "float64"}
    assert info.dtypes(device=device, kind="complex floating") == {
        "complex64": np.complex64, "complex128": np.complex128}
    with pytest.raises(ValueError, match="device"):
        info.dtypes(device="cuda:63")


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_isdtype(dtype):
    k = np.dtype(dtype).kind
    bf = dtype == BF16
    expected = {"bool": k == "b", "signed integer": k == "i", "unsigned integer": k == "u",
                "integral": k in "iu", "real floating": k == "f" or bf,
                "complex floating": k == "c", "numeric": k in "iufc" or bf}
    for kind, want in expected.items():
        assert ap.isdtype(dtype, kind) == want, kind
        assert ap.isdtype(dtype, (kind, "bool")) == (want or k == "b")
    assert ap.isdtype(dtype, dtype) and not ap.isdtype(dtype, "complex floating" if k != "c"
                                                         else "bool")
    with pytest.raises(ValueError, match="unknown kind"):
        ap.isdtype(dtype, "float")
    with pytest.raises(TypeError, match="dtype"):
        ap.isdtype(ap.ones(1), "bool")


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if d.kind in "fc" or d == BF16], ids=str)
def test_finfo(dtype):
    f = ap.finfo(dtype)
    real = {np.complex64: np.float32, np.complex128: np.float64}.get(dtype.type, dtype)
    ref = ml_dtypes.finfo(real) if real == BF16 else np.finfo(real)
    assert f.dtype == np.dtype(real) and f.bits == ref.bits
    for name in ("eps", "max", "min", "smallest_normal"):
        value = getattr(f, name)
        assert type(value) is float and value == float(getattr(ref, name))
    assert ap.finfo(ap.ones(2, dtype=dtype)) == f
    with pytest.raises(ValueError, match="iinfo"):
        ap.finfo(np.int32)


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if d.kind in "iu"], ids=str)
def test_iinfo(dtype):
    i = ap.iinfo(dtype)
    ref = np.iinfo(dtype)
    assert (i.bits, i.min, i.max, i.dtype) == (ref.bits, int(ref.min), int(ref.max), dtype)
    assert type(i.max) is int and ap.iinfo(ap.zeros(1, dtype=dtype)) == i
    with pytest.raises(ValueError, match="finfo"):
        ap.iinfo(np.float32)


def test_result_type_and_can_cast(rng):
    pairs = [(a, b) for a in ALL_DTYPES for b in ALL_DTYPES if BF16 not in (a, b)]
    for a, b in pairs[:: max(1, len(pairs) // 60)]:
        assert ap.result_type(a, b) == np.result_type(a, b)
        assert ap.result_type(ap.ones(1, dtype=a), b) == np.result_type(a, b)
        assert ap.can_cast(a, b) == np.can_cast(a, b)
    # Python scalars are weak (2024.12 allows them in result_type).
    assert ap.result_type(ap.ones(1, dtype=ap.float32), 1.0) == np.float32
    assert ap.result_type(ap.int8, 1) == np.int8
    assert ap.result_type(ap.bfloat16, ap.float16) == np.float32
    assert ap.can_cast(ap.ones(1, dtype=ap.int8), ap.int16)


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
def test_can_cast_every_numpy_typecode(casting):
    """can_cast is a question about dtypes: for those accelpy does not store (strings, objects,
    datetimes) it answers as NumPy (NumPy's user guide tabulates typecodes['All'])."""
    codes = np.typecodes["All"]
    for a in codes:
        for b in codes:
            assert ap.can_cast(a, b, casting) == np.can_cast(a, b, casting), (a, b)
    assert ap.can_cast(ap.ones(2, dtype=ap.int8), "U4") == np.can_cast(np.int8, "U4")
    with pytest.raises(TypeError):
        ap.can_cast(ap.ones(2), "flot")


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_unstack(axis, device, rng):
    (n,), (a,) = make_operands(rng, "3d", [np.float32], device)
    parts = ap.unstack(a, axis=axis)
    expected = [np.take(n, i, axis=axis) for i in range(n.shape[axis])]
    assert isinstance(parts, tuple) and len(parts) == len(expected)
    for p, e in zip(parts, expected, strict=True):
        assert_matches(p, e)
    with pytest.raises(ValueError, match="0-d"):
        ap.unstack(ap.asarray(1.0))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int32], ids=str)
def test_vecdot(dtype, device, rng):
    x = random_values(rng, (4, 1, 5), dtype)
    y = random_values(rng, (3, 5), dtype)
    got = ap.vecdot(ap.asarray(x, device=device), ap.asarray(y, device=device))
    # Sums in another order: under cancellation the error is ulps of the terms, not the result.
    eps = np.finfo(dtype).eps if np.dtype(dtype).kind in "fc" else 0
    mx, my = (float(np.max(np.abs(v.astype(np.complex128)))) for v in (x, y))
    assert_matches(got, np.vecdot(x, y), ulps=32, atol=32 * eps * mx * my * x.shape[-1])
    assert_matches(ap.vecdot(ap.asarray(x), ap.asarray(x), axis=-3), np.vecdot(x, x, axis=-3),
                   ulps=32, atol=32 * eps * mx * mx * x.shape[-3])
    with pytest.raises(ValueError):
        ap.vecdot(ap.asarray(x), ap.asarray(y[:, :4]))


def _generic_standardize(x):
    """Array-library-agnostic code: what a library supporting "any array" writes."""
    import array_api_compat

    xp = array_api_compat.array_namespace(x)
    mean = xp.mean(x, axis=0, keepdims=True)
    std = xp.std(x, axis=0, keepdims=True, correction=1)
    z = (x - mean) / xp.where(std == 0, xp.ones_like(std), std)
    norms = xp.sqrt(xp.sum(z * z, axis=-1))
    info = xp.__array_namespace_info__()
    assert array_api_compat.device(x) in info.devices()
    eps = xp.finfo(x.dtype).eps
    return xp.clip(z, -3.0, 3.0), norms, eps, xp.concat([xp.max(z, axis=0), xp.min(z, axis=0)])


def test_generic_code_through_array_api_compat(device, rng):
    compat = pytest.importorskip("array_api_compat", reason="array-api-compat is not installed")
    n = rng.standard_normal((40, 6)).astype(np.float32)
    a = ap.asarray(n, device=device)
    assert compat.is_array_api_obj(a) and compat.array_namespace(a) is ap
    assert compat.device(a) == device and compat.size(a) == 40 * 6
    got = _generic_standardize(a)
    exp = _generic_standardize(n)
    for g, e in zip(got, exp, strict=True):
        if isinstance(g, ap.ndarray):
            assert g.device == device
            assert_matches(g, e, rtol=1e-5, atol=1e-5)
        else:
            assert math.isclose(g, float(e))
    moved = compat.to_device(a, "cpu")
    assert moved.device == ap.device("cpu")
