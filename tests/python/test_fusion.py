"""The fusion planner: what fuses, what is merged, the limits that cut groups or evaluate early,
the structural kernel key, ap.eval of several arrays, the debug log.

The planner's counters (accelpy.fusion.stats) and the debug log make each decision observable;
every test also checks the values against NumPy.
"""

import os
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches, sum_atol

core = ap._core


def arrays(rng, *shapes, dtype=np.float64):
    nps = [rng.uniform(-2, 2, s).astype(dtype) for s in shapes]
    return nps, [ap.asarray(n.copy()) for n in nps]


def on_cpu(device):
    return str(device).startswith("cpu")


# ---- common subexpressions ---------------------------------------------------------------


def test_identical_subexpressions_run_once(rng, stats):
    (a_np, b_np), (a, b) = arrays(rng, (300,), (300,))
    x = ap.sqrt(a * b + 4.0)
    y = ap.sqrt(a * b + 4.0)
    ap.eval(x, y)
    s = stats()
    assert s["groups_run"] == 1
    assert s["nodes_run"] == 3  # multiply, add, sqrt: once for both
    assert s["outputs_written"] == 2  # x and y each have memory of their own
    expected = np.sqrt(a_np * b_np + 4.0)
    assert_matches(x, expected)
    assert_matches(y, expected)


def test_merged_arrays_stay_distinct(rng, stats):
    (a_np,), (a,) = arrays(rng, (50,))
    x, y = a * 3.0, a * 3.0
    u = x + y
    ap.eval(u)
    assert stats()["nodes_run"] == 2
    x[0] = 100.0  # y is another array: it does not see the write
    assert_matches(y, a_np * 3.0)
    assert_matches(x[1:], a_np[1:] * 3.0)
    assert float(x[0]) == 100.0
    assert_matches(u, a_np * 6.0)


def test_different_scalars_or_views_are_not_merged(rng, stats):
    (a_np,), (a,) = arrays(rng, (6, 6))
    parts = [a * 2.0, a * 3.0, a.T * 2.0, a[::-1] * 2.0, (a * 2.0).astype(ap.float32)]
    ap.eval(*parts)
    assert stats()["nodes_run"] == 5 + 0  # a * 2.0 feeds the cast: merged with parts[0]
    expected = [a_np * 2.0, a_np * 3.0, a_np.T * 2.0, a_np[::-1] * 2.0,
                (a_np * 2.0).astype(np.float32)]
    for p, e in zip(parts, expected, strict=True):
        assert_matches(p, e)


def test_duplicates_in_a_large_plan_merge_by_value_bits(rng, stats):
    # More nodes than the quadratic pre-check takes, each identity seen many times; -0.0 and
    # 0.0 are different scalars (bit for bit), as are the seven values.
    (a_np,), (a,) = arrays(rng, (64,))
    scalars = [float(k % 7) for k in range(70)] + [-0.0, 0.0]
    parts = [a * c for c in scalars]
    ap.eval(*parts)
    s = stats()
    assert s["nodes_run"] == 8
    assert s["outputs_written"] == len(parts)
    for p, c in zip(parts, scalars, strict=True):
        np.testing.assert_array_equal(np.signbit(ap.asnumpy(p)), np.signbit(a_np * c))
        assert_matches(p, a_np * c)


def test_identical_reductions_merge(rng, stats):
    (a_np,), (a,) = arrays(rng, (40, 30))
    z = (a - a.mean(axis=0)) / (a.max(axis=0) - a.mean(axis=0))
    # a - mean cancels: a mean summed in another order moves each z by its error (bounded by
    # the terms' size) over max - mean.
    spread = a_np.max(axis=0) - a_np.mean(axis=0)
    atol = 4 * sum_atol(a_np, axis=0) / a_np.shape[0] / spread.min()
    assert_matches(z, (a_np - a_np.mean(axis=0)) / spread, rtol=1e-12, atol=atol)
    with_cse = stats()["nodes_run"]
    core._set_fusion(False)
    ap.fusion.reset_stats()
    ap.eval((a - a.mean(axis=0)) / (a.max(axis=0) - a.mean(axis=0)))
    assert with_cse < stats()["nodes_run"]


def test_duplicates_read_after_a_write_are_not_merged(rng, stats):
    (a_np,), (a,) = arrays(rng, (20,))
    x = a + 1.0
    a[3] = 50.0  # the barrier computes x first
    y = a + 1.0
    assert_matches(x, a_np + 1.0)
    a_np = a_np.copy()
    a_np[3] = 50.0
    assert_matches(y, a_np + 1.0)


# ---- what joins a group ---------------------------------------------------------------------


@pytest.mark.parametrize("axis", [1, 0, None, (0, 2)])
@pytest.mark.parametrize("transposed", [False, True])
def test_referenced_intermediate_is_written_by_the_reduction_group(rng, stats, axis, transposed):
    # Inner, outer, full (split over the device) and middle reductions; contiguous and strided.
    (a_np, b_np), (a, b) = arrays(rng, (6, 64, 50), (6, 64, 50))
    if transposed:
        a_np, b_np, a, b = a_np.transpose(2, 1, 0), b_np.transpose(2, 1, 0), a.T, b.T
    t = a - b
    u = ap.sqrt(ap.abs(t)) * 0.5
    s = (t * u).sum(axis=axis)
    ap.eval(s)
    assert not t._is_pending() and not u._is_pending()
    # t and u are written from the reduction's own pass, on the CPU and on CUDA.
    assert stats()["groups_run"] == 1
    t_np = a_np - b_np
    u_np = np.sqrt(np.abs(t_np)) * 0.5
    assert_matches(t, t_np)
    assert_matches(u, u_np)
    terms = t_np * u_np  # of both signs: bound the error by their magnitude (order differs)
    atol = 64 * np.finfo(np.float64).eps * float(np.abs(terms).sum(axis=axis).max())
    assert_matches(s, terms.sum(axis=axis), rtol=1e-12, atol=atol)


def test_eval_of_independent_results_is_one_group(rng, stats):
    (a_np, b_np), (a, b) = arrays(rng, (1000,), (1000,))
    with ap.debug_fusion(stream=None) as log:
        u, v, w = a + b, a * b, ap.maximum(a, 0.5)
        ap.eval(u, v, w)
    assert stats()["groups_run"] == 1
    assert len(log) == 1 and len(log[0]["inputs"]) == 2 and len(log[0]["outputs"]) == 3
    assert_matches(u, a_np + b_np)
    assert_matches(v, a_np * b_np)
    assert_matches(w, np.maximum(a_np, 0.5))


def test_eval_over_different_shapes_is_several_groups(rng, stats):
    (a_np, c_np), (a, c) = arrays(rng, (1000,), (10, 10))
    u, v = a + 1.0, c * 2.0
    ap.eval(u, v)
    assert stats()["groups_run"] == 2
    assert_matches(u, a_np + 1.0)
    assert_matches(v, c_np * 2.0)


def test_eval_with_a_dependency_between_results(rng, stats):
    (a_np,), (a,) = arrays(rng, (100,))
    u = a * 2.0
    v = u.sum()
    w = u - v
    ap.eval(w, v, u)
    # w carries the sum's rounding, bounded by its terms' size.
    assert_matches(w, a_np * 2.0 - (a_np * 2.0).sum(), rtol=1e-12, atol=sum_atol(a_np * 2.0))
    assert_matches(v, (a_np * 2.0).sum(), rtol=1e-12, atol=sum_atol(a_np * 2.0))


# ---- limits ---------------------------------------------------------------------------------


def test_group_size_is_bounded(rng, stats):
    (a_np,), (a,) = arrays(rng, (64,))
    terms, terms_np = [a * float(k) for k in range(300)], [a_np * float(k) for k in range(300)]
    while len(terms) > 1:  # a balanced tree: 599 nodes, shallow
        terms = [terms[i] + terms[i + 1] if i + 1 < len(terms) else terms[i]
                 for i in range(0, len(terms), 2)]
        terms_np = [terms_np[i] + terms_np[i + 1] if i + 1 < len(terms_np) else terms_np[i]
                    for i in range(0, len(terms_np), 2)]
    with ap.debug_fusion(stream=None) as log:
        ap.eval(terms[0])
    assert len(log) > 1 and all(len(r["ops"]) <= 128 for r in log)
    assert sum(len(r["ops"]) for r in log) == 599
    assert_matches(terms[0], terms_np[0], rtol=1e-12)


def test_pending_depth_is_bounded(rng, stats):
    (a_np,), (a,) = arrays(rng, (10,))
    with ap.debug_fusion(stream=None) as log:
        x = a
        for k in range(200):
            x = x * 0.5 + float(k)
        ap.eval(x)
    assert len(log) >= 3 and all(len(r["ops"]) <= 64 for r in log)
    e = a_np
    for k in range(200):
        e = e * 0.5 + float(k)
    assert_matches(x, e, rtol=1e-12)


def test_kernel_parameter_block_is_bounded(rng, stats):
    # 120 distinct strided inputs: one group would pass over 4 KB of pointers and strides.
    nps = [rng.uniform(-1, 1, (2, 3, 4, 5)) for _ in range(120)]
    # Copies: imports the list still references would be read at the call (shared memory).
    views = [ap.asarray(n.copy()).transpose(3, 1, 0, 2) for n in nps]
    terms, terms_np = list(views), [n.transpose(3, 1, 0, 2) for n in nps]
    while len(terms) > 1:
        terms = [terms[i] + terms[i + 1] for i in range(0, len(terms) - 1, 2)] + (
            [terms[-1]] if len(terms) % 2 else [])
        terms_np = [terms_np[i] + terms_np[i + 1] for i in range(0, len(terms_np) - 1, 2)] + (
            [terms_np[-1]] if len(terms_np) % 2 else [])
    with ap.debug_fusion(stream=None) as log:
        ap.eval(terms[0])
    assert len(log) > 1
    assert all(r["param_bytes"] <= 4000 for r in log)
    assert max(r["param_bytes"] for r in log) > 2000  # groups are cut near the limit, not early
    assert_matches(terms[0], terms_np[0], rtol=1e-12)


@pytest.fixture
def pending_limit():
    was = ap.max_pending_bytes()
    yield
    ap.set_max_pending_bytes(was)


def _accumulate(n, steps, make):
    acc = ap.zeros(n)
    for i in range(steps):
        acc = acc + make(i)
    return acc


def test_pending_memory_is_bounded(stats, pending_limit):
    n = 1 << 16  # 512 KiB of float64 per array
    limit = 4 * n * 8
    ap.set_max_pending_bytes(limit)
    assert ap.max_pending_bytes() == limit
    # Each loaded array is held by the pending chain alone once the loop moves on; NumPy's
    # allocations are traced, so tracemalloc sees the memory the chain keeps alive.
    tracemalloc.start()
    try:
        acc = _accumulate(n, 40, lambda i: ap.asarray(np.full(n, float(i))))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert stats()["early_evaluations"] > 0
    assert peak <= limit + 4 * n * 8, peak  # the limit, plus the arrays in flight
    assert_matches(acc, np.full(n, float(sum(range(40)))))
    assert ap._core._pending_bytes() <= limit


def test_pending_memory_limit_is_not_hit_by_arrays_held_elsewhere(rng, stats, pending_limit):
    ap.set_max_pending_bytes(1 << 10)
    nps, xs = arrays(rng, *[(4096,)] * 6)  # held by this test: not kept alive by pending work
    y = xs[0] * xs[1] + xs[2] * xs[3] - xs[4] * xs[5]
    ap.eval(y)
    assert stats()["early_evaluations"] == 0 and stats()["groups_run"] == 1
    assert_matches(y, nps[0] * nps[1] + nps[2] * nps[3] - nps[4] * nps[5])


def test_pending_memory_env_variable():
    code = "import accelpy as ap; print(ap.max_pending_bytes())"
    env = dict(os.environ, ACCELPY_MAX_PENDING_BYTES="12345")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["12345"]


# ---- the kernel key is structure only -------------------------------------------------------


def test_scalar_loop_compiles_at_most_three_kernels(stats, device):
    cuda = not on_cpu(device)
    before = ap.cuda.kernel_cache_stats() if cuda else None
    b = ap.zeros(1000, dtype=ap.float32)
    ap.eval(b)
    ap.fusion.reset_stats()
    for _ in range(1000):
        b = b + 0.02
    got = ap.asnumpy(b)
    assert stats()["structures"] <= 3
    assert stats()["groups_run"] >= 1000 // 64
    if cuda:
        after = ap.cuda.kernel_cache_stats()
        assert after["kernels"] - before["kernels"] <= 3
    expected = np.zeros(1000, dtype=np.float32)
    for _ in range(1000):
        expected = expected + np.float32(0.02)
    np.testing.assert_array_equal(got, expected)


def test_sizes_and_scalars_do_not_change_the_structure(stats):
    for n, k in [(10, 1.5), (1000, -2.0), (77, 3.25)]:
        ap.eval(ap.sqrt(ap.ones(n) * k + 9.0))
    s = stats()
    assert s["structures"] == 1 and s["structure_hits"] == 2


# ---- the debug log --------------------------------------------------------------------------


def test_debug_fusion_logs_every_group(rng, stats, device, capsys):
    (a_np, b_np), (a, b) = arrays(rng, (500,), (500,))
    with ap.debug_fusion() as log:
        r = (ap.sqrt(a * a + b * b) - a).sum()
        ap.eval(r)
        ap.eval(ap.sqrt(b * b + a * a) - b)
        ap.eval(ap.sqrt(b * b + a * a) - b)
    assert len(log) == 3
    first = log[0]
    assert first["kind"] == "reduction"
    assert first["ops"] == ["multiply<float64>", "multiply<float64>", "add<float64>",
                            "sqrt<float64>", "subtract<float64>", "sum<float64>"]
    assert first["inputs"] == ["float64[500] contiguous"] * 2
    assert first["outputs"] == ["float64[] <- step 5"]
    assert first["kernel"] and first["cache"]
    assert not log[1]["structure_seen"] and log[2]["structure_seen"]
    if on_cpu(device):
        assert first["kernel"] == "cpu" and log[2]["cache"] == "hit"
    else:
        assert first["kernel"].startswith("accel_") and log[2]["cache"] == "memory hit"
    err = capsys.readouterr().err
    assert err.count("[accelpy fusion]") == 3 and "sqrt<float64>" in err
    ap.eval(a * 3.0)  # outside the block: not logged
    assert len(log) == 3
    assert_matches(r, (np.sqrt(a_np * a_np + b_np * b_np) - a_np).sum(), rtol=1e-12)


def test_debug_fusion_env_variable():
    code = "import accelpy as ap; ap.eval(ap.ones(4) * 2.0 + 1.0)"
    env = dict(os.environ, ACCELPY_DEBUG_FUSION="1", ACCELPY_DEFAULT_DEVICE="cpu")
    err = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stderr
    assert "[accelpy fusion] elementwise on cpu: 3 ops [fill<float64>, multiply<float64>, " \
           "add<float64>]" in err


# ---- fusion off: identical results ----------------------------------------------------------


def _physics(xp, x, v, m):
    r2 = x * x + v * v + 1e-3
    inv6 = (1.0 / r2) ** 3
    energy = 4.0 * (inv6 * inv6 - inv6)
    damped = xp.exp(-0.1 * v) * xp.cos(2.0 * x) + xp.where(x > 0, x, -x) * m
    return [energy, damped, (energy * m).sum(axis=0), damped.max(axis=1), (x - v).mean()]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fusion_off_gives_identical_bits(rng, dtype):
    """On the CPU (a GPU's fused reductions may sum in another order: the fuzzer holds them to
    a tolerance)."""
    was = core._fusion_enabled()
    try:
        with ap.device("cpu"):
            (x_np, v_np, m_np), (x, v, m) = arrays(rng, (33, 70), (33, 70), (70,), dtype=dtype)
            core._set_fusion(True)
            fused = [ap.asnumpy(r) for r in _physics(ap, x, v, m)]
            core._set_fusion(False)
            unfused = [ap.asnumpy(r) for r in _physics(ap, x, v, m)]
    finally:
        core._set_fusion(was)
    for f, u in zip(fused, unfused, strict=True):
        assert f.dtype == u.dtype and f.tobytes() == u.tobytes()
    expected = _physics(np, x_np, v_np, m_np)
    # The sum and the mean cancel: their error is bounded by their terms' size.
    atols = [1e-5, 1e-5, max(1e-5, sum_atol(expected[0] * m_np, axis=0, ulps=16)), 1e-5,
             max(1e-5, sum_atol(x_np - v_np, ulps=16) / x_np.size)]
    for f, e, atol in zip(fused, expected, atols, strict=True):
        assert_matches(f, e, rtol=1e-4 if dtype == np.float32 else 1e-11, atol=atol)


def test_seed_program_runs(device, capsys):
    """examples/seed/fusion.py checks its results against NumPy before it times them."""
    import importlib.util

    path = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "seed", "fusion.py")
    spec = importlib.util.spec_from_file_location("seed_fusion", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--n", "5000", "--device", str(device)]) == 0
    out = capsys.readouterr().out
    assert "NumPy" in out and "speedup" in out
