"""accelpy.random: Philox4x32-10 streams checked against an independent NumPy implementation,
distributions (moments, Kolmogorov-Smirnov and chi-square at fixed seeds), bounds and dtypes,
reproducibility, fusion, errors, and CPU-versus-GPU identity.

The statistical tests use fixed seeds (the streams are deterministic) and thresholds with a
false-alarm probability of about 1e-4 or less per test, so a failure means a real defect.
"""

import math

import numpy as np
import pytest

import accelpy as ap

core = ap._core

# ---- an independent Philox4x32-10 (Random123's definition), vectorized with NumPy ----------

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_MASK = np.uint64(0xFFFFFFFF)


def philox(c0, c1, c2, c3, k0, k1):
    """Philox4x32-10 of uint64 arrays holding 32-bit words; returns the four output words."""
    c = [np.asarray(x, np.uint64) for x in (c0, c1, c2, c3)]
    k0, k1 = int(k0), int(k1)
    for _ in range(10):
        p0 = _M0 * c[0]
        p1 = _M1 * c[2]
        hi0, lo0 = p0 >> np.uint64(32), p0 & _MASK
        hi1, lo1 = p1 >> np.uint64(32), p1 & _MASK
        c = [hi1 ^ c[1] ^ np.uint64(k0), lo1, hi0 ^ c[3] ^ np.uint64(k1), lo0]
        k0 = (k0 + _W0) & 0xFFFFFFFF
        k1 = (k1 + _W1) & 0xFFFFFFFF
    return c


def reference_words(key, offset, nblocks):
    b = np.arange(offset, offset + nblocks, dtype=np.uint64)
    w = philox(b & _MASK, b >> np.uint64(32), 0, 0, key & 0xFFFFFFFF, key >> 32)
    return np.stack(w, axis=1)  # (nblocks, 4)


def test_philox_known_answers():
    # Random123's kat_vectors, "philox4x32 10" lines.
    cases = [
        ((0, 0, 0, 0, 0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
        ((0xFFFFFFFF,) * 6, (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
        ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344, 0xA4093822, 0x299F31D0),
         (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
    ]
    for args, expected in cases:
        assert [int(x) for x in philox(*args)] == list(expected)


# ---- streams: the exact values ---------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_random_is_philox_words(device, dtype):
    g = ap.random.default_rng(1234)
    key = g.state["key"]
    first = ap.asnumpy(g.random(37, dtype=dtype))
    second = ap.asnumpy(g.random((3, 5), dtype=dtype))
    lanes = 4 if dtype == np.float32 else 2
    blocks1 = -(-37 // lanes)
    w = reference_words(key, 0, blocks1 + -(-15 // lanes))
    if dtype == np.float32:
        vals = ((w >> np.uint64(8)).astype(np.float64) * 2.0**-24).reshape(-1)
    else:
        w64 = w[:, 0::2] | (w[:, 1::2] << np.uint64(32))
        vals = ((w64 >> np.uint64(11)).astype(np.float64) * 2.0**-53).reshape(-1)
    vals = vals.astype(dtype)
    np.testing.assert_array_equal(first, vals[:37])
    np.testing.assert_array_equal(second.reshape(-1), vals[blocks1 * lanes:blocks1 * lanes + 15])
    assert g.state["offset"] == blocks1 + -(-15 // lanes)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_large_draws_are_philox_words(device, dtype):
    # Enough elements for the CPU's threads to split the draw at unaligned elements, and for
    # its batched Philox blocks, with a tail that fills neither.
    n = 300_003
    g = ap.random.default_rng(4321)
    key = g.state["key"]
    g.random(5)  # an offset that is not a multiple of the batch
    offset = g.state["offset"]
    lanes = 2 if dtype == np.float64 else 4
    w = reference_words(key, offset, -(-n // lanes))
    if dtype == np.int32:
        got = ap.asnumpy(g.integers(0, 2**20, n, dtype=dtype))  # a power of two: no rejection
        expected = ((w.reshape(-1) * np.uint64(2**20)) >> np.uint64(32)).astype(dtype)
    elif dtype == np.float32:
        got = ap.asnumpy(g.random(n, dtype=dtype))
        expected = ((w >> np.uint64(8)).astype(np.float64) * 2.0**-24).reshape(-1).astype(dtype)
    else:
        got = ap.asnumpy(g.random(n, dtype=dtype))
        w64 = w[:, 0::2] | (w[:, 1::2] << np.uint64(32))
        expected = ((w64 >> np.uint64(11)).astype(np.float64) * 2.0**-53).reshape(-1)
    np.testing.assert_array_equal(got, expected[:n])


def test_integers_are_lemire_of_philox_words(device):
    g = ap.random.default_rng(99)
    key = g.state["key"]
    n, low, high = 1000, -5, 1000  # range 1005: rejections are rare but possible
    got = ap.asnumpy(g.integers(low, high, n, dtype=np.int32))
    w = reference_words(key, 0, n // 4).reshape(-1)
    rng_ = np.uint64(high - low)
    m = w * rng_
    lo32 = m & _MASK
    threshold = (2**32 - (high - low)) % (high - low)
    accepted = lo32 >= np.uint64(threshold)
    expected = (m >> np.uint64(32)).astype(np.int64) + low
    np.testing.assert_array_equal(got[accepted], expected[accepted])
    assert accepted.sum() > n - 5


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_reproducible_and_independent_of_chunking(device, dtype):
    a = ap.asnumpy(ap.random.default_rng(7).standard_normal(4096, dtype=dtype))
    g = ap.random.default_rng(7)
    parts = [ap.asnumpy(g.standard_normal(s, dtype=dtype)) for s in (1024, 2048, 1024)]
    np.testing.assert_array_equal(a, np.concatenate(parts))
    b = ap.asnumpy(ap.random.default_rng(8).standard_normal(4096, dtype=dtype))
    assert np.mean(a == b) < 0.01
    # Successive draws of one generator differ.
    assert np.mean(parts[0] == parts[2]) < 0.01


def test_state_roundtrip(device):
    g = ap.random.default_rng(5)
    g.random(10)
    saved = g.state
    x = ap.asnumpy(g.integers(0, 100, 50))
    g.state = saved
    np.testing.assert_array_equal(ap.asnumpy(g.integers(0, 100, 50)), x)


def test_seeds(device):
    np.testing.assert_array_equal(ap.asnumpy(ap.random.default_rng([1, 2, 3]).random(8)),
                                  ap.asnumpy(ap.random.default_rng(
                                      np.random.SeedSequence([1, 2, 3])).random(8)))
    g = ap.random.default_rng(3)
    assert ap.random.default_rng(g) is g
    # None draws fresh entropy: two generators differ.
    assert not np.array_equal(ap.asnumpy(ap.random.default_rng().random(8)),
                              ap.asnumpy(ap.random.default_rng().random(8)))


def test_values_do_not_depend_on_layout_or_fusion(device, rng):
    x_np = rng.standard_normal((64, 48))
    x = ap.asarray(x_np)
    fused = ap.asnumpy(ap.random.default_rng(11).random((48, 64)) + x.T)
    alone = ap.asnumpy(ap.random.default_rng(11).random((48, 64)))
    np.testing.assert_array_equal(fused, alone + x_np.T)
    was = core._fusion_enabled()
    core._set_fusion(False)
    try:
        unfused = ap.asnumpy(ap.random.default_rng(11).random((48, 64)) + x.T)
    finally:
        core._set_fusion(was)
    np.testing.assert_array_equal(unfused, fused)
    # A strided view of the draw sees the same values.
    v = ap.random.default_rng(11).random((48, 64))[::-3, 1::2]
    np.testing.assert_array_equal(ap.asnumpy(v), alone[::-3, 1::2])


# ---- distributions ---------------------------------------------------------------------------


def ks_statistic(sample, cdf):
    """Kolmogorov-Smirnov D of a sample against an exact continuous CDF."""
    x = np.sort(np.asarray(sample, np.float64))
    n = x.size
    f = cdf(x)
    i = np.arange(1, n + 1)
    return max(np.max(i / n - f), np.max(f - (i - 1) / n))


# D > 1.95 / sqrt(n) has probability below 0.001 for a correct distribution; 2.3 / sqrt(n)
# (p ~ 4e-5) keeps fixed-seed tests meaningful without flakiness.
KS_LIMIT = 2.3

_erf = np.vectorize(math.erf)
CDFS = {
    "random": lambda x: np.clip(x, 0, 1),
    "standard_normal": lambda x: 0.5 * (1 + _erf(x / math.sqrt(2))),
    "standard_exponential": lambda x: 1 - np.exp(-np.maximum(x, 0)),
}
MOMENTS = {"random": (0.5, 1 / 12), "standard_normal": (0.0, 1.0),
           "standard_exponential": (1.0, 1.0)}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("dist", sorted(CDFS))
@pytest.mark.parametrize("seed", [0, 20261201])
def test_distribution(device, dist, dtype, seed):
    n = 1 << 16
    x = ap.asnumpy(getattr(ap.random.default_rng(seed), dist)(n, dtype=dtype))
    assert x.dtype == dtype and x.shape == (n,)
    assert np.isfinite(x).all()
    d = ks_statistic(x, CDFS[dist])
    assert d * math.sqrt(n) < KS_LIMIT, f"KS D={d}"
    mean, var = MOMENTS[dist]
    xd = x.astype(np.float64)
    assert abs(xd.mean() - mean) < 5 * math.sqrt(var / n)
    # The sample variance's standard error: sqrt((mu4 - var^2) / n); mu4 = 9/80, 3, 9.
    mu4 = {"random": 1 / 80, "standard_normal": 3.0, "standard_exponential": 9.0}[dist]
    assert abs(xd.var() - var) < 5 * math.sqrt((mu4 - var**2) / n)
    if dist == "random":
        assert x.min() >= 0 and x.max() < 1
    if dist == "standard_exponential":
        assert x.min() >= 0


def test_normal_tails_and_pairs(device):
    # Box-Muller pairs are independent: the correlation of neighbours is ~0.
    x = ap.asnumpy(ap.random.default_rng(1).standard_normal(1 << 18, dtype=np.float32))
    r = np.corrcoef(x[0::2].astype(np.float64), x[1::2].astype(np.float64))[0, 1]
    assert abs(r) < 5 / math.sqrt(x.size / 2)
    # Tails: P(|z| > 3) = 0.0027.
    frac = np.mean(np.abs(x) > 3)
    assert abs(frac - 0.0026998) < 5 * math.sqrt(0.0027 / x.size)


def test_uniform_normal_exponential_parameters(device, rng):
    g = ap.random.default_rng(21)
    n = 1 << 15
    u = ap.asnumpy(g.uniform(-3.0, 5.0, n))
    assert u.min() >= -3 and u.max() < 5 and abs(u.mean() - 1) < 5 * 8 / math.sqrt(12 * n)
    z = ap.asnumpy(g.normal(10.0, 0.5, n))
    assert abs(z.mean() - 10) < 5 * 0.5 / math.sqrt(n) and abs(z.std() - 0.5) < 0.02
    e = ap.asnumpy(g.exponential(4.0, n))
    assert abs(e.mean() - 4) < 5 * 4 / math.sqrt(n)
    # Array parameters broadcast, as NumPy.
    lo = rng.uniform(-5, 0, (4, 1))
    hi = lo + rng.uniform(1, 2, (1, 6))
    v = g.uniform(lo, ap.asarray(hi))
    assert v.shape == (4, 6) and v.dtype == np.float64
    v = ap.asnumpy(v)
    assert (v >= lo).all() and (v < hi).all()
    loc = rng.uniform(-5, 5, 3)
    w = ap.asnumpy(g.normal(loc, 1e-3, (1000, 3)))
    np.testing.assert_allclose(w.mean(axis=0), loc, atol=1e-3)
    f = g.normal(0, 1, 10, dtype=np.float32)
    assert f.dtype == np.float32


# ---- integers ----------------------------------------------------------------------------------

INT_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_integers_full_range_and_bounds(device, dtype):
    info = np.iinfo(dtype)
    g = ap.random.default_rng(17)
    x = ap.asnumpy(g.integers(info.min, info.max, 1 << 14, dtype=dtype, endpoint=True))
    assert x.dtype == dtype
    assert x.min() >= info.min and x.max() <= info.max
    if np.dtype(dtype).itemsize == 1:
        assert x.min() == info.min and x.max() == info.max  # every value appears
    # Both halves of the range appear.
    mid = info.min // 2 + info.max // 2
    assert 0.45 < np.mean(x > mid) < 0.55
    y = ap.asnumpy(g.integers(info.max - 3, info.max, 4000, dtype=dtype))  # [max-3, max)
    assert set(np.unique(y).tolist()) == {info.max - 3, info.max - 2, info.max - 1}
    z = ap.asnumpy(g.integers(info.min, info.min + 1, 10, dtype=dtype))
    assert (z == info.min).all()


@pytest.mark.parametrize("span", [7, 1000, 2**31 + 1, 3 * 2**30])
def test_integers_uniform_chi_square(device, span):
    # 2**31 + 1 and 3 * 2**30 reject half and a quarter of the 32-bit words: the redraws must
    # stay uniform. Chi-square over 8 equal bins of the span.
    n = 1 << 16
    dtype = np.int64 if span > 2**31 else np.int32
    x = ap.asnumpy(ap.random.default_rng(span).integers(0, span, n, dtype=dtype)).astype(
        np.float64)
    assert x.min() >= 0 and x.max() < span
    k = min(span, 8)  # bin b holds the integers v with floor(v k / span) == b
    counts = np.bincount((x * k // span).astype(np.int64), minlength=k)
    sizes = np.array([-((-(b + 1) * span) // k) + ((-b * span) // k) for b in range(k)])
    expected = n * sizes / span
    chi2 = float(np.sum((counts - expected) ** 2 / expected))
    assert chi2 < 31.0  # at most 7 degrees of freedom: P(chi2 > 31) ~ 6e-5


def test_integers_32bit_rejection_heavy_uniform(device):
    # A span of 2**31 + 1 in int32: the values agree with the 64-bit path's distribution.
    n = 1 << 16
    x = ap.asnumpy(ap.random.default_rng(4).integers(0, 2**31 + 1, n, dtype=np.uint32))
    top = np.mean(x >= 2**30)
    assert abs(top - 0.5) < 5 * 0.5 / math.sqrt(n)


def test_integers_small_and_bool(device):
    g = ap.random.default_rng(2)
    b = ap.asnumpy(g.integers(0, 2, 10000, dtype=np.bool_))
    assert b.dtype == np.bool_ and 0.45 < b.mean() < 0.55
    x = ap.asnumpy(g.integers(5, size=(30, 40)))
    assert x.shape == (30, 40) and x.dtype == np.int64
    assert set(np.unique(x).tolist()) == {0, 1, 2, 3, 4}
    y = ap.asnumpy(g.integers(-3, 3, 5000, endpoint=True))
    assert set(np.unique(y).tolist()) == set(range(-3, 4))
    # A full 64-bit span uses the raw words.
    u = ap.asnumpy(g.integers(0, 2**64 - 1, 1000, dtype=np.uint64, endpoint=True))
    assert u.max() > 2**63 and u.min() < 2**62


# ---- sizes, dtypes, devices, errors --------------------------------------------------------


def test_sizes_and_dtypes(device):
    g = ap.random.default_rng(0)
    assert g.random().shape == ()
    assert g.random(0).shape == (0,)
    assert g.random((2, 0, 3)).shape == (2, 0, 3)
    assert g.standard_normal((2, 3, 4)).shape == (2, 3, 4)
    assert g.random(5).dtype == np.float64
    assert g.random(5, dtype="float32").dtype == np.float32
    assert g.integers(0, 10, np.int64(4)).shape == (4,)
    x = g.random(10)
    assert str(x.device).split(":")[0] == str(device).split(":")[0]
    c = g.random(10, device="cpu")
    assert str(c.device).startswith("cpu")


def test_errors():
    g = ap.random.default_rng(0)
    with pytest.raises(TypeError, match="Unsupported dtype"):
        g.random(3, dtype=np.int32)
    with pytest.raises(TypeError, match="Unsupported dtype"):
        g.standard_normal(3, dtype=np.float16)
    with pytest.raises(TypeError, match="Unsupported dtype"):
        g.integers(0, 3, 3, dtype=np.float32)
    with pytest.raises(ValueError, match="negative dimensions"):
        g.random(-1)
    with pytest.raises(ValueError, match="low >= high"):
        g.integers(5, 5)
    with pytest.raises(ValueError, match="low >= high"):
        g.integers(0)
    with pytest.raises(ValueError, match="low > high"):
        g.integers(5, 4, endpoint=True)
    with pytest.raises(ValueError, match="high 257 is out of bounds for uint8"):
        g.integers(0, 257, dtype=np.uint8)
    with pytest.raises(ValueError, match="low -1 is out of bounds for uint8"):
        g.integers(-1, 5, dtype=np.uint8)
    with pytest.raises(ValueError, match="high 128 is out of bounds for int8"):
        g.integers(0, 128, dtype=np.int8, endpoint=True)
    with pytest.raises(TypeError, match="must be an integer"):
        g.integers(0.5, 3)
    with pytest.raises(TypeError, match="array bounds"):
        g.integers(0, np.array([3, 4]))
    with pytest.raises(ValueError, match="scale < 0"):
        g.normal(0, -1.0, 3)
    with pytest.raises(ValueError, match="scale < 0"):
        g.exponential(np.array([1.0, -1.0]))
    # The generator did not advance on failed calls.
    assert g.state["offset"] == 0


# ---- fusion ----------------------------------------------------------------------------------


def test_draw_fuses_into_one_kernel(device):
    was = core._fusion_enabled()
    core._set_fusion(True)
    try:
        ap.fusion.reset_stats()
        y = ap.random.default_rng(3).random(10000, dtype=np.float32) * 2 + 1
        ap.eval(y)
        s = ap.fusion.stats()
        assert s["groups_run"] == 1
        assert s["outputs_written"] == 1
        ap.fusion.reset_stats()
        z = ap.random.default_rng(3).standard_normal((100, 100)).sum()
        ap.eval(z)
        assert ap.fusion.stats()["groups_run"] == 1  # the draw is the reduction's prologue
    finally:
        core._set_fusion(was)
    expected = ap.asnumpy(ap.random.default_rng(3).random(10000, dtype=np.float32))
    np.testing.assert_array_equal(ap.asnumpy(y), expected * np.float32(2) + np.float32(1))


# ---- legacy module functions -------------------------------------------------------------


def test_legacy_functions(device):
    ap.random.seed(123)
    a = ap.asnumpy(ap.random.rand(3, 4))
    ap.random.seed(123)
    b = ap.asnumpy(ap.random.random((3, 4)))
    np.testing.assert_array_equal(a, b)
    assert a.dtype == np.float64 and (a >= 0).all() and (a < 1).all()
    assert ap.random.randn(2, 5).shape == (2, 5)
    assert ap.random.standard_normal(7).shape == (7,)
    r = ap.asnumpy(ap.random.randint(3, 9, size=500))
    assert r.min() >= 3 and r.max() <= 8
    assert ap.random.randint(4).shape == ()
    assert ap.asnumpy(ap.random.uniform(2, 3, 100)).min() >= 2
    assert ap.random.normal(1.0, 2.0, (2, 2)).shape == (2, 2)
    assert (ap.asnumpy(ap.random.exponential(2.0, 100)) >= 0).all()
    assert ap.random.random_sample(3).shape == (3,)


# ---- CPU and GPU give the same numbers -------------------------------------------------------

needs_cuda = pytest.mark.skipif(not ap.cuda.is_available(), reason="needs a CUDA device")


@needs_cuda
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cpu_and_cuda_draw_the_same_numbers(dtype):
    n = (1 << 20) + 3  # not a multiple of the lanes: the tail path too
    for method in ("random", "standard_normal", "standard_exponential"):
        c = ap.asnumpy(getattr(ap.random.default_rng(42), method)(n, dtype=dtype, device="cpu"))
        g = ap.asnumpy(getattr(ap.random.default_rng(42), method)(n, dtype=dtype, device="cuda"))
        if method == "random":
            np.testing.assert_array_equal(c, g)
        else:
            # Shared polynomials make them identical in practice; the promise is 1 ulp.
            np.testing.assert_array_max_ulp(c, g, maxulp=1)
    for dt in INT_DTYPES:
        info = np.iinfo(dt)
        lo, hi = max(info.min, -(2**40)), min(info.max, 3 * 2**40)
        c = ap.random.default_rng(9).integers(lo, hi, n, dtype=dt, device="cpu")
        g = ap.random.default_rng(9).integers(lo, hi, n, dtype=dt, device="cuda")
        np.testing.assert_array_equal(ap.asnumpy(c), ap.asnumpy(g))
    pc = ap.random.default_rng(4).permutation(100_003, device="cpu")
    pg = ap.random.default_rng(4).permutation(100_003, device="cuda")
    np.testing.assert_array_equal(ap.asnumpy(pc), ap.asnumpy(pg))
    # Fused with strided operands on the GPU: still the same values.
    x = np.arange(64 * 48, dtype=dtype).reshape(64, 48)
    c = ap.random.default_rng(1).random((48, 64), dtype=dtype, device="cpu") + ap.asarray(
        x, device="cpu").T
    g = ap.random.default_rng(1).random((48, 64), dtype=dtype, device="cuda") + ap.asarray(
        x, device="cuda").T
    np.testing.assert_array_equal(ap.asnumpy(c), ap.asnumpy(g))


# ---- permutations and choice ---------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 2, 5, 1000, 65537])
def test_permutation_is_a_permutation(device, n):
    g = ap.random.default_rng(31)
    p = ap.asnumpy(g.permutation(n))
    assert p.dtype == np.int64 and p.shape == (n,)
    np.testing.assert_array_equal(np.sort(p), np.arange(n))
    if n >= 1000:
        q = ap.asnumpy(g.permutation(n))  # the next call: another permutation
        assert np.mean(p == q) < 0.01
        # No trace of the identity: positions are uncorrelated with values.
        assert abs(np.corrcoef(p, np.arange(n))[0, 1]) < 5 / math.sqrt(n)


def test_permutations_are_uniform(device):
    # 6000 permutations of 4 elements: each of the 24 orders ~250 times (chi-square, 23 dof).
    g = ap.random.default_rng(2024)
    perms = [tuple(ap.asnumpy(g.permutation(4)).tolist()) for _ in range(6000)]
    counts = np.array([perms.count(t) for t in set(perms)])
    assert len(counts) == 24
    chi2 = float(np.sum((counts - 250.0) ** 2 / 250.0))
    assert chi2 < 60.0  # P(chi2_23 > 60) ~ 4e-5


def test_choice_of_integers(device):
    g = ap.random.default_rng(8)
    x = ap.asnumpy(g.choice(7, size=(40, 50)))
    assert x.shape == (40, 50) and x.min() >= 0 and x.max() <= 6
    assert set(np.unique(x).tolist()) == set(range(7))
    s = ap.asnumpy(g.choice(100, size=60, replace=False))
    assert len(set(s.tolist())) == 60 and s.min() >= 0 and s.max() < 100
    p = np.array([0.1, 0.0, 0.6, 0.3])
    n = 40000
    w = ap.asnumpy(g.choice(4, size=n, p=p))
    freq = np.bincount(w, minlength=4) / n
    assert freq[1] == 0
    assert np.all(np.abs(freq - p) < 5 * np.sqrt(p * (1 - p) / n) + 1e-12)
    assert g.choice(5).shape == ()


def test_weighted_choice_without_replacement(device):
    """Successive weighted draws without replacement: the first pick has probability p, the
    second sum_i p_i p_j / (1 - p_i); p = 0 is never drawn; no repeats within a sample."""
    g = ap.random.default_rng(21)
    p = np.array([0.45, 0.3, 0.15, 0.1, 0.0])
    trials = 3000
    picks = np.array([ap.asnumpy(g.choice(5, 2, replace=False, p=p)) for _ in range(trials)])
    assert picks.shape == (trials, 2)
    assert np.all(picks[:, 0] != picks[:, 1]) and not np.any(picks == 4)
    second = np.array([sum(p[i] * p[j] / (1 - p[i]) for i in range(5) if i != j)
                       for j in range(5)])
    for column, expected in ((picks[:, 0], p), (picks[:, 1], second)):
        freq = np.bincount(column, minlength=5) / trials
        assert np.all(np.abs(freq - expected) < 5 * np.sqrt(expected * (1 - expected) / trials)
                      + 1e-12), (freq, expected)
    rows = ap.asnumpy(g.choice(ap.asarray(np.arange(12.0).reshape(6, 2)), 3, replace=False,
                               p=np.full(6, 1 / 6)))
    assert rows.shape == (3, 2) and len({tuple(r) for r in rows.tolist()}) == 3
    with pytest.raises(ValueError, match="non-zero entries"):
        g.choice(5, 5, replace=False, p=p)


def test_choice_and_permutation_errors(device):
    g = ap.random.default_rng(0)
    with pytest.raises(ValueError, match="larger sample"):
        g.choice(5, 6, replace=False)
    with pytest.raises(ValueError, match="sum to 1"):
        g.choice(3, 2, p=[0.5, 0.2, 0.2])
    with pytest.raises(ValueError, match="non-negative"):
        g.choice(3, 2, p=[1.5, -0.5, 0.0])
    with pytest.raises(ValueError, match="same size"):
        g.choice(3, 2, p=[0.5, 0.5])
    with pytest.raises(ValueError, match="cannot be empty"):
        g.choice(0, 2)
    with pytest.raises(ValueError, match="negative"):
        g.permutation(-1)
    with pytest.raises(IndexError, match="at least 1-dimensional"):
        g.permutation(np.array(3.0))
    with pytest.raises(TypeError, match="accelpy array"):
        g.shuffle(np.arange(3))


has_take = pytest.mark.skipif(not hasattr(ap._core, "take"), reason="needs accelpy.take")


@has_take
def test_permutation_shuffle_choice_of_arrays(device, rng):
    a_np = rng.standard_normal((30, 4))
    a = ap.asarray(a_np)
    g = ap.random.default_rng(3)
    p = ap.asnumpy(g.permutation(a))
    np.testing.assert_array_equal(np.sort(p, axis=0), np.sort(a_np, axis=0))
    rows = {tuple(r) for r in a_np.tolist()}
    assert {tuple(r) for r in p.tolist()} == rows
    b = ap.asarray(a_np.copy())
    g.shuffle(b)
    assert {tuple(r) for r in ap.asnumpy(b).tolist()} == rows
    c = ap.asnumpy(g.choice(a, 10, axis=0))
    assert c.shape == (10, 4) and {tuple(r) for r in c.tolist()} <= rows


def test_legacy_permutation_and_choice(device):
    ap.random.seed(5)
    p = ap.asnumpy(ap.random.permutation(10))
    np.testing.assert_array_equal(np.sort(p), np.arange(10))
    c = ap.asnumpy(ap.random.choice(10, 5, replace=False))
    assert len(set(c.tolist())) == 5
