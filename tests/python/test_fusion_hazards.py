"""Writes while fused work is pending keep NumPy's semantics.

Each scenario runs the same code on NumPy (eager) and on accelpy (lazy, fused, with common
subexpressions merged) and with fusion off; every result must match NumPy. The scenarios put a
write between the creation of pending readers and their evaluation: through a view, through
`out=` aliasing an input, through memory exported to NumPy (what a raw kernel or another
library writing the buffer does), and in-place operators in loops.
"""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches

core = ap._core


@pytest.fixture(params=[True, False], ids=["fused", "unfused"])
def fusion(request):
    was = core._fusion_enabled()
    core._set_fusion(request.param)
    yield request.param
    core._set_fusion(was)


def _write_through_view(xp, x):
    r1 = xp.sin(x) * 2.0 + x
    r2 = xp.sin(x) * 2.0 + x  # a duplicate of r1: merged, yet both must see the old x
    v = x[1::2, ::-1]
    v[...] = -1.0
    s = (x * x).sum(axis=0)  # after the write
    return [r1, r2, s, x]


def _write_through_transposed_view_of_pending(xp, x):
    p = x * 3.0 - 1.0
    r = p + x
    pt = p.T
    pt[::2] = 0.5  # writes into the pending result's memory once it exists
    return [r, p, p.sum()]


def _out_aliases_input(xp, x):
    r = x * 2.0
    xp.add(x, x[::-1], out=x)
    xp.multiply(x, x.T, out=x)
    xp.subtract(x[:, :1], x, out=x)
    return [r, x]


def _out_aliases_reduction_input(xp, x):
    m = x.max(axis=0)
    xp.divide(x, x.sum(axis=0), out=x)
    return [m, x]


def _in_place_in_loops(xp, x):
    seen = []
    y = x * 1.0
    for i in range(10):
        y += x * 0.25
        x *= 0.9
        x[i % x.shape[0]] -= y[i % x.shape[0]]
        if i % 3 == 0:
            seen.append(y.sum(axis=1))
        y = y - y.mean()
    return seen + [x, y]


def _reduction_reads_then_write(xp, x):
    t = x - x.mean(axis=1, keepdims=True)
    var = (t * t).mean(axis=1)
    x[:, 0] = var  # t and var were pending readers of x
    return [t, var, x]


SCENARIOS = [_write_through_view, _write_through_transposed_view_of_pending, _out_aliases_input,
             _out_aliases_reduction_input, _in_place_in_loops, _reduction_reads_then_write]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__.strip("_"))
def test_writes_keep_numpy_order(rng, device, fusion, scenario):
    base = rng.uniform(0.5, 2.0, (8, 8))
    expected = scenario(np, base.copy())
    got = scenario(ap, ap.asarray(base.copy()))
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert_matches(g, e, rtol=1e-12, atol=1e-12)


def test_write_by_foreign_code_into_exported_memory(rng, fusion):
    """A raw kernel or another library writing an array's buffer: exporting the buffer runs the
    write barrier first, so every pending reader, fused or merged, has read the old values."""
    with ap.device("cpu"):
        base = rng.uniform(-1, 1, 500)
        x = ap.asarray(base.copy())
        r1 = ap.exp(x) * x + 1.0
        r2 = ap.exp(x) * x + 1.0
        s = (x * x).sum()
        buf = np.asarray(x)  # the export: the barrier evaluates r1, r2 and s
        buf[:] = 7.0  # the foreign write
        assert_matches(r1, np.exp(base) * base + 1.0)
        assert_matches(r2, np.exp(base) * base + 1.0)
        assert_matches(s, (base * base).sum(), rtol=1e-12)
        assert_matches(x + 1.0, np.full(500, 8.0))


def test_assignment_into_an_input_of_a_fused_group(rng, device, fusion):
    base = rng.uniform(-1, 1, (50, 40))
    x = ap.asarray(base.copy())
    a = ap.sqrt(x * x + 1.0)
    b = a.sum(axis=0)
    x[...] = a  # the value reads x: computed, then written
    x[::2] = x[1::2] * b  # the value reads another view of x
    e = base.copy()
    ea = np.sqrt(e * e + 1.0)
    eb = ea.sum(axis=0)
    e[...] = ea
    e[::2] = e[1::2] * eb
    assert_matches(x, e, rtol=1e-12)
    assert_matches(b, eb, rtol=1e-12)
