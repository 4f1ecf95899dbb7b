"""The lazy-evaluation contract, seen from Python.

Errors are raised at the call; arithmetic waits until data is needed; dropped work costs
nothing; fused chains run as one group; writes keep NumPy's order (every scenario here runs
the same code on NumPy, eagerly, and compares); views of pending results see the computed
data; NumPy interop shares memory and runs the write barrier first.

The evaluator's counters (accelpy._core._eval_stats) make the cost side observable. Every test
here runs with every operation deferred: small operations over computed CPU arrays are otherwise
computed at the call (test_eager.py).
"""

import functools
import gc
import os
import subprocess
import sys

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches

core = ap._core

pytestmark = pytest.mark.usefixtures("deferred")


@pytest.fixture
def stats():
    """Counters since the test started; fusion is on and is restored afterwards."""
    was = core._fusion_enabled()
    core._set_fusion(True)
    core._reset_eval_stats()
    yield core._eval_stats
    core._set_fusion(was)


def on_cpu(test):
    """Runs a test on the CPU device: it checks memory shared with NumPy, which only CPU arrays
    do (the other tests run on the default device, the GPU where there is one)."""

    @functools.wraps(test)
    def run(*args, **kwargs):
        with ap.device("cpu"):
            return test(*args, **kwargs)

    return run


def arrays(rng, *shapes, dtype=np.float64):
    """Fresh random NumPy arrays and accelpy copies of them."""
    nps = [rng.uniform(-4, 4, s).astype(dtype) for s in shapes]
    return nps, [ap.asarray(n.copy()) for n in nps]


# ---- errors at the call --------------------------------------------------------------------

BAD_CALLS = [
    ("broadcast", lambda a: a + ap.ones(5), ValueError),
    ("bool subtract", lambda a: ap.less(0, a) - ap.less(1, a), TypeError),
    ("bool negative", lambda a: -ap.less(0, a), TypeError),
    ("axis", lambda a: a.sum(axis=3), np.exceptions.AxisError),
    ("reshape", lambda a: a.reshape(7, 7), ValueError),
    ("index", lambda a: a[10], IndexError),
    ("overflow", lambda a: a.astype(ap.int8) + 1000, OverflowError),
]


@pytest.mark.parametrize("call,exc", [c[1:] for c in BAD_CALLS], ids=[c[0] for c in BAD_CALLS])
def test_errors_are_raised_at_the_call_and_leave_nothing_pending(rng, stats, call, exc):
    _, (a,) = arrays(rng, (3, 4))
    with pytest.raises(exc):
        call(a)
    gc.collect()
    a[...] = 1.0  # the write barrier finds no half-built reader of a
    assert stats()["groups_run"] == 1


# ---- deferral and cost ---------------------------------------------------------------------


def test_arithmetic_is_deferred(rng, stats):
    (a_np,), (a,) = arrays(rng, (100,))
    y = ap.sqrt(a * a + 1.0) * 2.0  # correctly rounded at every step: exactly NumPy's
    assert y._is_pending() and not a._is_pending()
    assert stats()["groups_run"] == 0
    np.testing.assert_array_equal(ap.asnumpy(y), np.sqrt(a_np * a_np + 1.0) * 2.0)
    assert not y._is_pending()


def test_dropped_pending_work_costs_nothing(rng, stats):
    (a_np,), (a,) = arrays(rng, (1000,))
    for i in range(100):
        t = ap.sqrt(a * a + i).sum() + a
        v = t[::2].T
        del t, v
    gc.collect()
    assert stats()["groups_run"] == 0
    a += 1.0  # no dropped reader is evaluated by the barrier
    assert stats()["groups_run"] == 1
    assert_matches(a, a_np + 1.0)


def test_fused_chain_is_one_group(rng, stats):
    (a_np, b_np), (a, b) = arrays(rng, (300, 7), (300, 7))
    out = ap.sqrt(a * a + b * b) * 2 - a
    ap.eval(out)
    assert stats() == {"groups_run": 1, "nodes_run": 6, "outputs_written": 1}
    assert_matches(out, np.sqrt(a_np * a_np + b_np * b_np) * 2 - a_np)


def test_without_fusion_every_node_is_a_group(rng, stats):
    core._set_fusion(False)
    (a_np, b_np), (a, b) = arrays(rng, (50,), (50,))
    out = ap.sqrt(a * a + b * b) * 2 - a
    ap.eval(out)
    assert stats() == {"groups_run": 6, "nodes_run": 6, "outputs_written": 6}
    assert_matches(out, np.sqrt(a_np * a_np + b_np * b_np) * 2 - a_np)


def test_fusion_env_variable():
    code = ("import accelpy as ap\n"
            "a = ap.ones(10); ap.eval(a); c = ap._core\n"
            "c._reset_eval_stats(); ap.eval(ap.sqrt(a * a + a * a) * 2 - a)\n"
            "print(c._fusion_enabled(), c._eval_stats()['groups_run'])\n")
    env = dict(os.environ, ACCELPY_FUSION="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False", "6"]


def test_fused_reduction_is_one_group(rng, stats):
    (a_np,), (a,) = arrays(rng, (64, 33))
    s = (a * a + 1.0).sum(axis=0)
    ap.eval(s)
    assert stats()["groups_run"] == 1
    assert_matches(s, (a_np * a_np + 1.0).sum(axis=0), rtol=1e-12)


@on_cpu
def test_referenced_intermediate_is_computed_once_and_written(rng, stats):
    (a_np,), (a,) = arrays(rng, (500,))
    t = a * a
    u = t + 1.0
    ap.eval(u)
    assert stats() == {"groups_run": 1, "nodes_run": 2, "outputs_written": 2}
    assert not t._is_pending()
    t_np = np.asarray(t)  # no copy, and nothing left to compute
    assert stats()["nodes_run"] == 2
    np.testing.assert_array_equal(t_np, a_np * a_np)
    assert_matches(u, a_np * a_np + 1.0)


def test_eval_of_several_arrays_shares_work(rng, stats):
    (a_np,), (a,) = arrays(rng, (500,))
    t = ap.exp(a)
    u, v = t + 1.0, t * 2.0
    del t
    ap.eval(u, v)
    assert stats()["nodes_run"] == 3  # exp ran once
    assert_matches(u, np.exp(a_np) + 1.0)
    assert_matches(v, np.exp(a_np) * 2.0)


def test_in_place_operator_writes_no_temporary(rng, stats):
    (a_np,), (a,) = arrays(rng, (1000,))
    a += 1.0
    ap.multiply(a, 3.0, out=a)
    assert stats() == {"groups_run": 2, "nodes_run": 4, "outputs_written": 2}
    assert_matches(a, (a_np + 1.0) * 3.0)


@pytest.mark.parametrize(
    "dst, src, groups",
    [
        ((slice(1, -1), 0), (slice(1, -1), 1), 1),  # a grid's edge column from the next one
        ((slice(1, -1), -1), (slice(-2, 0, -1), -2), 1),  # reversed, from the column before
        ((slice(None), slice(0, None, 2)), (slice(None), slice(1, None, 2)), 1),  # even from odd
        ((slice(1, None), 0), (slice(None, -1), 0), 2),  # a column shifted along itself
        ((slice(None), slice(0, 6)), (slice(None), slice(2, 8)), 2),  # overlapping blocks
        ((slice(1, -1), slice(1, 3)), (slice(1, -1), slice(0, 2)), 2),  # shares column 1
    ],
)
def test_writes_from_interleaved_views_need_no_temporary(rng, device, deferred, dst, src, groups):
    """A write whose value reads another view of the destination's array computes straight
    into it when no element is shared (one group), even where the byte ranges interleave
    (columns); views that share elements go through a temporary (two groups). NumPy's values
    either way: the value is read whole before anything is written."""
    x_np = rng.uniform(-4, 4, (10, 12))
    x = ap.asarray(x_np.copy())
    ap.fusion.reset_stats()
    x[dst] = -x[src] * 2.0
    x_np[dst] = -x_np[src] * 2.0
    assert ap.fusion.stats()["groups_run"] == groups
    assert_matches(x, x_np)


# ---- deep chains ---------------------------------------------------------------------------


def test_deep_chain_evaluates_without_overflow(rng):
    (b_np,), (b,) = arrays(rng, (4,))
    for _ in range(10000):
        b = b + 1
    assert_matches(b, b_np + 10000, rtol=1e-15)


def test_deep_chain_dropped_without_evaluation(rng, stats):
    _, (b,) = arrays(rng, (4,))
    for _ in range(10000 + 40):
        b = b + 1
    runs = stats()["groups_run"]
    assert b._is_pending()
    del b  # the pending tail of the chain goes without being computed
    gc.collect()
    assert stats()["groups_run"] == runs


@pytest.mark.parametrize("dtype,step", [(np.float64, 0.5), (np.float32, 0.1), (np.float16, 0.1),
                                        (np.int32, 3)])
def test_loops_match_numpy(dtype, step):
    b, b_np = ap.zeros(3, dtype=dtype), np.zeros(3, dtype=dtype)
    for _ in range(3000):
        b = b + step
        b_np = b_np + step
    np.testing.assert_array_equal(ap.asnumpy(b), b_np)
    assert b.dtype == b_np.dtype


# ---- views of pending results --------------------------------------------------------------


def test_views_of_pending_results_see_the_data(rng, stats):
    (a_np,), (a,) = arrays(rng, (4, 6))
    p = a * 2.0 + 1.0
    views = [p[1:3, ::-2], p.T, p.reshape(3, 8), p[::-1].reshape(2, 2, 6), p[None, 2], p[..., 5]]
    del p
    assert all(v._is_pending() for v in views)
    ap.eval(views[0])
    assert stats()["groups_run"] == 1
    assert not any(v._is_pending() for v in views)
    p_np = a_np * 2.0 + 1.0
    expected = [p_np[1:3, ::-2], p_np.T, p_np.reshape(3, 8), p_np[::-1].reshape(2, 2, 6),
                p_np[None, 2], p_np[..., 5]]
    for v, e in zip(views, expected, strict=True):
        assert_matches(v, e)


def test_ops_on_views_of_pending_results(rng):
    (a_np,), (a,) = arrays(rng, (5, 5))
    p, p_np = ap.sin(a), np.sin(a_np)
    # sin is within a few ulps of NumPy's; the sum may cancel, hence the absolute tolerance.
    assert_matches(p.T + p[::-1] * p[:, 2:3], p_np.T + p_np[::-1] * p_np[:, 2:3], atol=1e-14)
    assert_matches(ap.concatenate([p[1:], p[:1] + 1]), np.concatenate([p_np[1:], p_np[:1] + 1]),
                   atol=1e-14)  # sin(x) + 1 cancels when sin(x) is near -1
    assert_matches(ap.concatenate([a + 1]), a_np + 1)


# ---- the write barrier: the same code on NumPy (eager) and accelpy (lazy) ----------------


def _in_place(xp, x):
    r = x * 2
    x += 1
    return [r, x]


def _setitem_all(xp, x):
    r = xp.sqrt(x * x) + 1
    s = r * 3
    x[...] = 5.0
    return [s, r, x]


def _setitem_slice(xp, x):
    r = x[::-1] * 1.5
    total = x.sum(axis=0)
    x[1:3] = -7.0
    return [r, total, x]


def _through_view(xp, x):
    r = x + 0.5
    v = x.T[::2]
    v[...] = 9.0
    return [r, x]


def _view_of_pending(xp, x):
    y = x * 2 + 1  # pending in accelpy
    r = y - 3
    v = y[1:4, ::2]
    v[...] = 0.0
    return [r, y]


def _out_aliases_input(xp, x):
    r = x * 1.0
    xp.add(x, x[::-1], out=x)
    xp.multiply(x, 2.0, out=x)
    return [r, x]


def _shift(xp, x):
    r = x + 0
    x[1:] = x[:-1]
    y = x.reshape(-1)
    y[:-1] = y[1:]
    return [r, x]


def _add_transpose(xp, x):
    sq = x[:6, :6]
    r = sq * 1
    sq += sq.T
    sq -= sq[::-1, ::-1]
    return [r, x]


def _loop(xp, x):
    snapshots = []
    for i in range(12):
        snapshots.append(x[i % 3] * 1)
        x += i
        x[i % 6] *= 0.5
    return snapshots + [x]


def _value_reads_destination(xp, x):
    r = x * 2
    x[::-1] = r + 1
    x[:, 1:] = x[:, :-1] + r[:, 1:]
    return [r, x]


def _reduction_of_destination(xp, x):
    m = x.mean(axis=1, keepdims=True)
    x -= x.mean()
    x[...] = x - x.max(axis=0)
    return [m, x]


BARRIER_SCENARIOS = [_in_place, _setitem_all, _setitem_slice, _through_view, _view_of_pending,
                     _out_aliases_input, _shift, _add_transpose, _loop, _value_reads_destination,
                     _reduction_of_destination]


@pytest.mark.parametrize("fusion", [True, False], ids=["fused", "unfused"])
@pytest.mark.parametrize("scenario", BARRIER_SCENARIOS, ids=lambda f: f.__name__.strip("_"))
def test_write_barrier_matches_numpy(rng, stats, scenario, fusion):
    core._set_fusion(fusion)
    base = rng.uniform(-4, 4, (6, 8))
    expected = scenario(np, base.copy())
    got = scenario(ap, ap.asarray(base.copy()))
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        # Sums may round differently from NumPy's; x - x.mean() may cancel: absolute tolerance.
        assert_matches(g, e, rtol=1e-13, atol=1e-13)


# ---- NumPy interop -------------------------------------------------------------------------


@on_cpu
def test_asarray_shares_memory_and_runs_the_barrier(rng):
    (a_np,), (a,) = arrays(rng, (10,))
    x = a * 1.0  # accelpy-owned memory, once computed
    r = x + 1.0
    m = np.asarray(x)
    assert np.shares_memory(m, np.asarray(x))
    m[:] = 0.0  # NumPy writes: r was computed before it could
    assert_matches(r, a_np + 1.0)
    assert_matches(x, np.zeros(10))


@on_cpu
def test_wrapped_numpy_memory_is_shared(rng):
    n = rng.uniform(size=8)
    x = ap.asarray(n)
    assert np.shares_memory(np.asarray(x), n)
    x[0] = 42.0
    assert n[0] == 42.0


def test_two_wraps_of_one_buffer(rng):
    n = rng.uniform(size=3000)
    orig = n.copy()
    x, y = ap.asarray(n), ap.asarray(n[::2])
    r = y * 2
    x[1:] = n[:-1]  # overlaps its own value through another wrap of n
    expected = orig.copy()
    expected[1:] = orig[:-1]
    np.testing.assert_array_equal(ap.asnumpy(x), expected)
    np.testing.assert_array_equal(ap.asnumpy(r), orig[::2] * 2)


@on_cpu
def test_exported_memory_wrapped_again(rng):
    (a_np,), (a,) = arrays(rng, (6,))
    x = a + 0.0
    again = ap.asarray(np.asarray(x))
    r = x * 2
    again[...] = -1.0
    assert_matches(r, a_np * 2)
    assert_matches(x, -np.ones(6))


# ---- a random program, against NumPy -------------------------------------------------------

_VIEWS = [lambda v: v, lambda v: v.T, lambda v: v[::-1], lambda v: v[:, ::-1]]


def _random_program(xp, pool, ops):
    """Runs `ops` (drawn once) on `pool`: new arrays, in-place writes through views, drops."""
    out = []
    for kind, i, j, vi, vj, k in ops:
        a, b = pool[i % len(pool)], pool[j % len(pool)]
        va, vb = _VIEWS[vi % 4](a), _VIEWS[vj % 4](b)
        k = k % 5
        if kind == 0:
            pool.append(va * 0.5 + vb)
        elif kind == 1:
            pool.append(xp.sin(va) - xp.maximum(vb, b[k]))
        elif kind == 2:
            pool.append(a - a.sum(axis=k % 2, keepdims=True) * 0.1)
        elif kind == 3:
            va += vb * 0.25
        elif kind == 4:
            a[k:k + 2] = vb[k:k + 2] * 0.5
        elif kind == 5 and len(pool) > 2:
            pool.pop(k % len(pool))
        elif kind == 6:
            out.append(a * 1)
        elif kind == 7:
            pool.append(xp.concatenate([va[:3], vb[3:]]))
        if len(pool) > 10:
            pool.pop(0)
    return out + pool


@pytest.mark.parametrize("fusion", [True, False], ids=["fused", "unfused"])
def test_random_programs_match_numpy(rng, stats, fusion):
    core._set_fusion(fusion)
    for _ in range(5):
        ops = [tuple(int(v) for v in rng.integers(0, 8, 6)) for _ in range(60)]
        start = [rng.uniform(-2, 2, (6, 6)) for _ in range(3)]
        expected = _random_program(np, [s.copy() for s in start], ops)
        got = _random_program(ap, [ap.asarray(s.copy()) for s in start], ops)
        for g, e in zip(got, expected, strict=True):
            assert_matches(g, e, rtol=1e-12, atol=1e-12)
