"""The elementwise block evaluator and its vector loops (src/cpu/program.cpp,
exact_simd_loops.cpp, vector_math.cpp) against NumPy: fused chains across block boundaries
(blocks of 2048 elements; threads from 32768), every layout an operand can have, step buffers
reused along a chain while their values are still read, scalars taken by value on either
side, and complex abs, hypot, arctan2 and power with special values in every vector lane.
Real chains of +, -, * and / round like NumPy's op-by-op loops, so they compare exactly. Per
device: the GPU computes the same chains."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_exact, assert_matches, sum_atol, to_device

BLOCK = 2048
SIZES = [
    0,
    1,
    7,
    9,
    BLOCK - 1,
    BLOCK,
    BLOCK + 1,
    2 * BLOCK + 3,
    16 * BLOCK - 1,
    16 * BLOCK + 1,
    20 * BLOCK + 5,
]
DTYPES = [np.float32, np.float64, np.int64, np.complex64]


def _values(rng, shape, dt):
    dt = np.dtype(dt)
    if dt.kind == "i":
        return rng.integers(-50, 50, shape).astype(dt)
    x = rng.standard_normal(shape)
    if dt.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def _chain(y, ops, module):
    """`ops` steps mixing array and scalar operands on both sides; integers stay integers."""
    x = y
    s = (lambda v: v) if y.dtype.kind in "iu" else (lambda v: v + 0.25)
    for k in range(ops):
        step = k % 5
        if step == 0:
            y = y * s(3)
        elif step == 1:
            y = s(2) - y
        elif step == 2:
            y = y + x  # the chain's input, read again late
        elif step == 3:
            y = s(1) * y - x * y
        else:
            y = module.negative(y) + s(1)
    return y


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dt", DTYPES, ids=lambda t: np.dtype(t).name)
def test_chain_across_block_boundaries(rng, device, n, dt):
    x = _values(rng, n, dt)
    got, expected = _chain(to_device(x), 23, ap), _chain(x, 23, np)
    if np.dtype(dt).kind == "c":  # complex products round as the compiler's (an ulp or so)
        # s(1)*y - x*y cancels: an element's error follows the magnitudes its chain passed
        # through (up to the largest result's), not its own (the sanitizer build's rounding).
        eps = np.finfo(np.dtype(dt).char.lower()).eps
        scale = float(np.abs(expected).max(initial=0.0))
        assert_matches(got, expected, ulps=16, atol=16 * eps * scale)
    else:
        assert_exact(got, expected)


@pytest.mark.parametrize("layout", ["strided", "reversed", "broadcast", "transposed", "0d"])
@pytest.mark.parametrize("dt", [np.float32, np.int64], ids=lambda t: np.dtype(t).name)
def test_chain_over_layouts(rng, device, layout, dt):
    if layout == "strided":
        base = _values(rng, 3 * BLOCK + 11, dt)
        x_np, x = base[1::3], to_device(base)[1::3]
    elif layout == "reversed":
        base = _values(rng, 2 * BLOCK + 7, dt)
        x_np, x = base[::-1], to_device(base)[::-1]
    elif layout == "broadcast":
        col, row = _values(rng, (65, 1), dt), _values(rng, (1, 70), dt)
        x_np, x = col + row, to_device(col) + to_device(row)
    elif layout == "transposed":
        base = _values(rng, (45, 101), dt)
        x_np, x = base.T, to_device(base).T
    else:
        base = _values(rng, (), dt)
        x_np, x = base, to_device(base)
    assert_exact(_chain(x, 12, ap), _chain(x_np, 12, np))


@pytest.mark.parametrize("n", [BLOCK - 1, 3 * BLOCK + 1, 16 * BLOCK + 3])
def test_chain_writes_into_views(rng, device, n):
    """Results scattered into a strided destination and a negative-stride one."""
    x = _values(rng, n, np.float32)
    out_np, out = np.zeros(2 * n, np.float32), to_device(np.zeros(2 * n, np.float32))
    out_np[::2] = _chain(x, 9, np)
    out[::2] = _chain(to_device(x), 9, ap)
    rev_np, rev = np.zeros(n, np.float32), to_device(np.zeros(n, np.float32))
    rev_np[::-1] = _chain(x, 9, np)
    rev[::-1] = _chain(to_device(x), 9, ap)
    assert_exact(out, out_np)
    assert_exact(rev, rev_np)


@pytest.mark.parametrize("n", [1, BLOCK + 1, 17 * BLOCK + 9])
def test_intermediate_results_kept_while_read(rng, device, n):
    """Several results of one fused group, each also read by later steps: buffers are reused
    only after their last reader."""
    x_np, y_np = _values(rng, n, np.float64), _values(rng, n, np.float64)

    def parts(x, y):
        a = x * 2.0
        b = a + y
        c = b * b - a
        d = c / (a * a + 1.0)
        return a, b, c, d + b - a

    got = parts(to_device(x_np), to_device(y_np))
    ap.eval(*got)
    assert_exact(got, parts(x_np, y_np))


@pytest.mark.parametrize("n", [BLOCK, 3 * BLOCK - 1, 20 * BLOCK + 1])
def test_chain_feeding_reductions(rng, device, n):
    x = _values(rng, n, np.float64)
    y_np, y = _chain(x, 15, np), _chain(to_device(x), 15, ap)
    assert_matches(y.sum(), y_np.sum(), ulps=64, atol=sum_atol(y_np))  # bounded by the terms
    m_np = x[: n - n % 3].reshape(-1, 3)
    m = to_device(m_np)
    assert_matches((m * 0.5 - 1.0).max(axis=0), (m_np * 0.5 - 1.0).max(axis=0), rtol=0, atol=0)


@pytest.mark.parametrize("n", [BLOCK + 1, 3 * BLOCK - 1, 20 * BLOCK + 5])
@pytest.mark.parametrize(
    "dt",
    [np.float64, np.float32, np.int16, np.complex128, np.bool_],
    ids=lambda t: np.dtype(t).name,
)
def test_inputs_broadcast_from_one_element(rng, device, n, dt):
    """0-d arrays (and (1, 1) ones) broadcast over many blocks and threads: the block of copies
    is filled once per thread, read by every block; a masked fill of a 0-d value."""
    x_np = _values(rng, n, dt) if dt is not np.bool_ else rng.random(n) < 0.5
    s_np = _values(rng, (), dt) if dt is not np.bool_ else np.bool_(True)
    x, s = to_device(x_np), to_device(s_np)
    assert_exact(x * s + s, x_np * s_np + s_np)
    assert_exact(ap.where(x == s, s, x), np.where(x_np == s_np, s_np, x_np))
    m_np = x_np.reshape(-1, 1)[: n - n % 2].reshape(-1, 2)
    one_np = s_np.reshape(1, 1)
    m, one = to_device(m_np), to_device(one_np)
    assert_exact(m + one, m_np + one_np)
    y_np, y = x_np.copy(), to_device(x_np.copy())
    y_np[x_np != s_np] = s_np
    y[x != s] = s
    assert_exact(y, y_np)


def test_scalar_of_another_dtype(rng, device):
    """A scalar whose dtype is not the step's (an integer array times a float) goes through
    the array loop after a cast, as NumPy promotes."""
    x = rng.integers(-9, 9, BLOCK + 5)
    assert_exact(to_device(x) * 2.5 - 1, x * 2.5 - 1)
    assert_exact(7 // to_device(x[x != 0]), 7 // x[x != 0])


COMPLEX_SPECIALS = [
    np.inf,
    complex(np.nan, 1),
    complex(1, np.nan),
    complex(np.inf, np.nan),
    complex(np.nan, -np.inf),
    0,
    complex(-0.0, -0.0),
    complex(3e38, 3e38),
    complex(1e300, 1e300),
    complex(1e-40, 1e-45),
    complex(1e-310, 0),
    complex(-3, 4),
]


@pytest.mark.parametrize("n", [1, 5, 8, 9, BLOCK + 3])
@pytest.mark.parametrize("dt", [np.complex64, np.complex128], ids=lambda t: np.dtype(t).name)
def test_complex_abs_specials_in_every_lane(rng, device, n, dt):
    x = _values(rng, n, dt)
    for shift in range(min(n, 8)):  # each special in every lane of a vector
        y = x.copy()
        with np.errstate(all="ignore"):
            y[shift::8][: len(COMPLEX_SPECIALS)] = np.array(COMPLEX_SPECIALS)[
                : len(y[shift::8])
            ].astype(dt)
        with np.errstate(all="ignore"):
            assert_exact(ap.abs(to_device(y)), np.abs(y))


def _hypot_pairs(rng, dt, n):
    """Pairs in every lane class of the vector hypot: ordinary, one far smaller than the other
    (beyond 2^-54), huge, tiny, subnormal, zeros, infinities and NaNs in either operand."""
    info = np.finfo(dt)
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    scale = rng.choice(
        [1.0, 1e-30, 1e30, float(info.max) / 4, float(info.tiny) * 8, float(info.tiny) / 64], n
    )
    ratio = rng.choice([1.0, 1e-3, 2.0**-60, 2.0**-25], n)
    x, y = (x * scale).astype(dt), (y * scale * ratio).astype(dt)
    specials = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1.0], dt)
    pick = rng.random(n) < 0.1
    x[pick] = rng.choice(specials, pick.sum())
    pick = rng.random(n) < 0.1
    y[pick] = rng.choice(specials, pick.sum())
    swap = rng.random(n) < 0.5
    return np.where(swap, y, x), np.where(swap, x, y)


@pytest.mark.parametrize("n", [3, 4, 8, 13, 4 * BLOCK + 5])
@pytest.mark.parametrize("dt", [np.float32, np.float64], ids=lambda t: np.dtype(t).name)
def test_hypot_every_lane_class(rng, device, n, dt):
    x, y = _hypot_pairs(rng, dt, n)
    with np.errstate(all="ignore"):
        expected = np.hypot(x, y)
    got = ap.hypot(to_device(x), to_device(y))
    if device.type == "cpu":  # the C library's bits; CUDA's hypot is its own
        assert_exact(got, expected)
    else:
        assert_matches(got, expected, ulps=8)
    assert_matches(ap.hypot(to_device(x), 0.5), np.hypot(x, dt(0.5)), ulps=2)


MATH_SPECIALS = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    np.inf,
    -np.inf,
    np.nan,
    -2.0,
    -0.5,
    0.5,
    2.0,
    3.0,
    -3.0,
    2.5,
    -2.5,
    1e30,
    -1e30,
    1e-30,
    7.0,
    -7.0,
    0.9999,
    1.0001,
]


@pytest.mark.parametrize("fn", ["arctan2", "power"])
@pytest.mark.parametrize("dt", [np.float32, np.float64], ids=lambda t: np.dtype(t).name)
def test_binary_math_special_values(device, fn, dt):
    a = np.array(MATH_SPECIALS, dt)
    x, y = (v.ravel() for v in np.meshgrid(a, a))
    with np.errstate(all="ignore"):
        expected = getattr(np, fn)(x, y)
        got = getattr(ap, fn)(to_device(x), to_device(y))
        scalar_first = getattr(ap, fn)(dt(2.5), to_device(y))
        expected_first = getattr(np, fn)(dt(2.5), y)
    assert_matches(got, expected, ulps=8)
    number = ~np.isnan(expected)
    assert np.array_equal(np.signbit(ap.asnumpy(got)[number]), np.signbit(expected[number]))
    assert_matches(scalar_first, expected_first, ulps=8)
