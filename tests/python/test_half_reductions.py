"""float16 sums and products round where NumPy's do.

NumPy's half loops accumulate one run of the innermost memory axis in float and round once per
run; where the innermost memory axis is kept, each step rounds to float16, and so do the steps
between runs of outer reduced axes. Overflow to inf, inf * 0 = NaN and the sign of a zero then
come out as NumPy's (docs/decisions.md). cumsum/cumprod round every step in NumPy and here; mean
accumulates in float32 in both."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_exact, to_device, to_numpy

# The CPU's rounding by steps (the GPU accumulates float16 in float32, as CuPy does):
# tests not parametrized over devices run on the CPU.
pytestmark = pytest.mark.usefixtures("cpu_default")


def assert_bits(got, expected):
    """Equal as float16 bit patterns (NaN payloads aside): signed zeros and infinities too."""
    g, e = to_numpy(got), np.asarray(expected)
    assert g.dtype == e.dtype and g.shape == e.shape
    both_nan = np.isnan(g) & np.isnan(e)
    differ = (g.view(np.uint16) != e.view(np.uint16)) & ~both_nan
    where = np.argwhere(differ)[:5].tolist()
    assert not differ.any(), f"at {where}: {g[differ][:5]} != {e[differ][:5]}"


def overflowing(rng, shape):
    """Magnitudes whose running products and sums leave float16's range part way (never
    float's), zeros and negative zeros among them: inf, NaN (inf * 0) and signed zeros depend on
    where the steps round."""
    values = np.array([300.0, -300.0, 1e-3, -1e-3, 0.0, -0.0, 2.0, 0.5, 1.0, -1.0, 3e4, -3e4],
                      np.float16)
    return rng.choice(values, size=shape, p=[.1, .1, .1, .1, .05, .05, .1, .1, .1, .1, .05, .05])


LAYOUTS = {
    "c": lambda x: x,
    "transposed": lambda x: x.T,
    "reversed": lambda x: x[::-1, ..., ::-1],
    "strided": lambda x: x[:, ::2],
}
# (layout, axis): the innermost memory axis kept, so NumPy rounds every step; or one
# contiguous run per output, float-accumulated in NumPy and here.
STEPS = [("c", 0), ("c", 1), ("c", (0, 1)), ("transposed", 1), ("transposed", -1),
         ("transposed", (1, 2)), ("strided", 0), ("strided", (0, 1)), ("reversed", 0),
         ("reversed", 1), ("reversed", (0, 1))]
RUNS = [("c", -1), ("c", None), ("c", (1, 2))]


@pytest.mark.parametrize("op", ["sum", "prod"])
@pytest.mark.parametrize("layout, axis", STEPS + RUNS, ids=str)
def test_half_reductions_round_where_numpys_do(rng, op, layout, axis):
    base = overflowing(rng, (6, 5, 4))
    n = LAYOUTS[layout](base)
    a = LAYOUTS[layout](ap.asarray(base.copy()))
    with np.errstate(all="ignore"):
        expected = getattr(n, op)(axis=axis)
        expected_keep = getattr(n, op)(axis=axis, keepdims=True)
    assert_bits(getattr(a, op)(axis=axis), expected)
    assert_bits(getattr(ap, op)(a, axis=axis, keepdims=True), expected_keep)


def test_the_fuzzers_product_is_nan_as_in_numpy():
    """Seed 101788's case: a product along a middle axis of a C array overflows in float16 before
    it meets a zero (NumPy: NaN; accumulating in float gave -0.0)."""
    n = np.array([[[300.0], [300.0], [-0.0]]] * 2, np.float16).repeat(3, axis=2)
    with np.errstate(all="ignore"):
        expected = n.prod(axis=1)
    assert np.isnan(expected).all()
    assert_bits(ap.asarray(n.copy()).prod(axis=1), expected)


@pytest.mark.parametrize("op", ["sum", "prod"])
def test_one_run_per_output_accumulates_in_float(rng, op):
    """A contiguous reduction is one run in NumPy too: float accumulation, one rounding (a
    product that leaves float16's range part way comes back, a long sum of ones passes 2048)."""
    n = np.ones(30000, np.float16)
    n[[5, 6, 20000, 20001]] = [300, 300, 1e-3, 1e-3]
    rows = np.ones((3, 5000), np.float16)
    with np.errstate(all="ignore"):
        for x in (n, rows, rows[:, ::-1]):
            assert_bits(getattr(ap.asarray(x.copy()), op)(axis=-1), getattr(x, op)(axis=-1))


def test_nansum_and_var_follow(rng):
    n = overflowing(rng, (40, 9))
    n[3, 4] = np.nan
    a = ap.asarray(n.copy())
    with np.errstate(all="ignore"):
        assert_bits(ap.nansum(a, axis=0), np.nansum(n, axis=0))
        assert_bits(ap.nanprod(a, axis=0), np.nanprod(n, axis=0))
        small = (n % 3).astype(np.float16)
        assert_bits(ap.var(ap.asarray(small), axis=0), np.var(small, axis=0))


def test_scans_round_every_step():
    """On the CPU, in order, as NumPy's accumulate (CUB's scans on the GPU associate
    differently: docs/decisions.md)."""
    n = np.ones((3000, 2), np.float16)
    assert_exact(ap.cumsum(ap.asarray(n.copy()), axis=0), np.cumsum(n, axis=0))  # 2048 stalls
    assert_exact(ap.cumsum(ap.asarray(n[:, 0].copy())), np.cumsum(n[:, 0]))


def test_half_overflow_on_every_device(device):
    """Every order of these steps overflows: inf wherever NumPy has it, on any device."""
    n = np.full((50, 4), 3000.0, np.float16)
    n[:, 1] = -3000.0
    with np.errstate(all="ignore"):
        for op in ("sum", "prod"):
            got = to_numpy(getattr(to_device(n), op)(axis=0))
            expected = getattr(n, op)(axis=0)
            assert (np.isinf(got) == np.isinf(expected)).all()
            assert (np.signbit(got) == np.signbit(expected)).all()
