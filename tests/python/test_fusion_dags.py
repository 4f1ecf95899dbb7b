"""Whole expression DAGs as one kernel: a node whose consumers are in several elementwise groups
over its iteration space, none depending on another, merges those groups (one kernel, several
outputs) instead of being written to memory and read twice. Black-Scholes (the CUDA sample's
call and put, sharing sqrt(T), d1, d2, exp(-R*T) and each CND) is the model; random DAGs with
shared subexpressions and several outputs check values against NumPy and fused against unfused.
"""

import numpy as np
import pytest

import accelpy as ap
from fusion_programs import black_scholes
from helpers import assert_matches

core = ap._core


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_black_scholes_is_one_kernel_with_two_outputs(rng, device, fused, dtype):
    n = 5000
    S, X, T = (rng.uniform(lo, hi, n).astype(dtype) for lo, hi in ((5, 30), (1, 100), (0.25, 10)))
    with ap.debug_fusion(stream=None) as log:
        call, put = black_scholes(ap, *(ap.asarray(v.copy()) for v in (S, X, T)))
        ap.eval(call, put)
    assert len(log) == 1, [r["ops"] for r in log]
    assert len(log[0]["inputs"]) == 3 and len(log[0]["outputs"]) == 2
    exp_call, exp_put = black_scholes(np, S, X, T)
    tol = dict(rtol=2e-5, atol=2e-4) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-10)
    assert_matches(call, exp_call, **tol)
    assert_matches(put, exp_put, **tol)


def test_shared_subexpression_feeding_two_results_stays_in_registers(rng, device, fused):
    a_np, b_np = rng.uniform(-2, 2, (2, 300, 7))
    a, b = ap.asarray(a_np.copy()), ap.asarray(b_np.copy())
    with ap.debug_fusion(stream=None) as log:
        t = ap.exp(a) * b
        x, y = t + 1.0, ap.sin(t) * 2.0
        del t  # not referenced: never written
        ap.eval(x, y)
    assert len(log) == 1 and len(log[0]["outputs"]) == 2
    t_np = np.exp(a_np) * b_np
    assert_matches(x, t_np + 1.0, rtol=1e-12, atol=1e-12)
    assert_matches(y, np.sin(t_np) * 2.0, rtol=1e-12, atol=1e-12)


def test_a_kept_shared_subexpression_is_written_by_the_merged_kernel(rng, device, fused):
    a_np = rng.uniform(-2, 2, 1000)
    a = ap.asarray(a_np.copy())
    with ap.debug_fusion(stream=None) as log:
        t = a * a + 1.0
        x, y = t - 3.0, t * 4.0
        ap.eval(x, y)
    assert len(log) == 1 and len(log[0]["outputs"]) == 3  # t is still held: written too
    assert_matches(t, a_np * a_np + 1.0)
    assert_matches(x, (a_np * a_np + 1.0) - 3.0)
    assert_matches(y, (a_np * a_np + 1.0) * 4.0)


def test_groups_with_a_path_between_them_are_not_merged(rng, device, fused):
    # t feeds u's group and w's; w also reads a reduction of u: merging u's and w's groups would
    # put the reduction both before and after the merged kernel. (w reads the sum reversed, which
    # keeps it out of a row group: test_fusion_rows.py has the row group this would otherwise be.)
    a_np = rng.uniform(-2, 2, (30, 40))
    a = ap.asarray(a_np.copy())
    with ap.debug_fusion(stream=None) as log:
        t = a * 3.0
        u = t + 1.0
        s = u.sum(axis=0)
        v = u[::-1] * 2.0  # keeps u out of the reduction's group
        w = t * s[::-1]
        ap.eval(w, v)
    assert len(log) >= 3
    t_np = a_np * 3.0
    u_np = t_np + 1.0
    assert_matches(w, t_np * u_np.sum(axis=0)[::-1], rtol=1e-12, atol=1e-10)
    assert_matches(v, u_np[::-1] * 2.0)


def test_consumers_over_other_shapes_or_reductions_are_not_merged(rng, device, fused):
    a_np = rng.uniform(-2, 2, (30, 40))
    a = ap.asarray(a_np.copy())
    t = ap.exp(a * 0.5)
    s = t.sum(axis=1, keepdims=True)  # a reduction group reads t
    x = t / s  # an elementwise group reads t and the reduction
    y = t[:, ::-1] * 2.0  # reads t reversed: not as laid out
    with ap.debug_fusion(stream=None) as log:
        ap.eval(x, y)
    assert sorted(r["kind"] for r in log) == ["elementwise", "rows"]  # t, then the row group
    t_np = np.exp(a_np * 0.5)
    assert_matches(x, t_np / t_np.sum(axis=1, keepdims=True))
    assert_matches(y, t_np[:, ::-1] * 2.0)


OPS = [
    lambda xp, a, b: a + b,
    lambda xp, a, b: a * b - a,
    lambda xp, a, b: xp.maximum(a, b),
    lambda xp, a, b: xp.where(a > b, a, b - 1),
    lambda xp, a, b: (a ^ b) if a.dtype.kind == "i" else xp.abs(a) + b,
    lambda xp, a, b: xp.minimum(a, b) * 3,
]


def random_dag(rng, dtype, n_nodes=30):
    """A DAG as numbers: each node an op over two earlier values (shared freely); outputs a random
    subset of the values, at least two."""
    nodes = [(int(rng.integers(len(OPS))), int(rng.integers(k + 3)), int(rng.integers(k + 3)))
             for k in range(n_nodes)]
    outs = sorted({int(i) for i in rng.integers(3, n_nodes + 3, int(rng.integers(2, 6)))})
    if len(outs) < 2:
        outs.append(n_nodes + 2)
    return nodes, outs


def run_dag(xp, inputs, nodes, outs):
    vals = [xp.asarray(v.copy()) for v in inputs]
    for op, i, j in nodes:
        vals.append(OPS[op](xp, vals[i], vals[j]))
    return [vals[o] for o in outs]


@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.float32])
def test_random_dags_with_several_outputs(rng, device, fused, dtype):
    for _ in range(6):
        inputs = [(rng.uniform(-5, 5, (7, 9)) * (10 if dtype == np.int64 else 1)).astype(dtype)
                  for _ in range(3)]
        nodes, outs = random_dag(rng, dtype)
        expected = run_dag(np, inputs, nodes, outs)
        got = run_dag(ap, inputs, nodes, outs)
        ap.eval(*got)
        for g, e in zip(got, expected, strict=True):
            if dtype == np.int64:
                assert_matches(g, e, rtol=0, atol=0)
            else:
                scale = float(np.abs(e[np.isfinite(e)]).max(initial=1.0))
                assert_matches(g, e, rtol=1e-5, atol=1e-5 * scale)
        if str(device).startswith("cpu") or dtype == np.int64:  # floats: bit for bit on the CPU
            core._set_fusion(False)
            try:
                unfused = run_dag(ap, inputs, nodes, outs)
                ap.eval(*unfused)
            finally:
                core._set_fusion(True)
            for g, u in zip(got, unfused, strict=True):
                assert ap.asnumpy(g).tobytes() == ap.asnumpy(u).tobytes()
