"""The plan cache: an evaluation whose pending graph has the structure of one planned before
(the same ops, dtypes, shape classes, references, aliasing and scalar pattern) reuses that
grouping. Hits and misses are counted in accelpy.fusion.stats(); every change of structure plans
again; results match NumPy and are bit-identical to ACCELPY_FUSION=0's.
"""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches

core = ap._core


def cache(stats):
    s = stats()
    return s["plan_cache_hits"], s["plan_cache_misses"]


def step(y):
    """A loop body of four elementwise ops, evaluated."""
    y = ap.sqrt(y * y + 1.0) - 1.0
    ap.eval(y)
    return y


def test_a_loop_plans_once(rng, stats):
    y_np = rng.uniform(-2, 2, 100).astype(np.float32)
    y = ap.asarray(y_np.copy())
    for _ in range(10):
        y = step(y)
        y_np = np.sqrt(y_np * y_np + np.float32(1)) - np.float32(1)
    assert cache(stats) == (9, 1)
    assert stats()["groups_run"] == 10
    assert_matches(y, y_np)


def test_other_sizes_of_the_same_shape_class_hit(rng, stats):
    for n in (10, 1000, 1):
        step(ap.asarray(rng.uniform(-2, 2, n)))
    assert cache(stats) == (2, 1)


def test_scalar_values_are_not_part_of_the_key(rng, stats):
    x_np = rng.uniform(-2, 2, 50)
    x = ap.asarray(x_np.copy())
    for k in range(4):
        r = x * float(k + 2) + float(k + 10)
        ap.eval(r)
        assert_matches(r, x_np * (k + 2) + (k + 10))
    assert cache(stats) == (3, 1)


def changed_structures(rng):
    """(name, fn making and evaluating a graph) pairs: each graph differs in structure from the
    first one in one respect only."""
    a32 = ap.asarray(rng.uniform(-2, 2, 64).astype(np.float32))
    b32 = ap.asarray(rng.uniform(-2, 2, 64).astype(np.float32))
    a64 = ap.asarray(rng.uniform(-2, 2, 64))
    b64 = ap.asarray(rng.uniform(-2, 2, 64))
    m = ap.asarray(rng.uniform(-2, 2, (8, 8)).astype(np.float32))
    one = ap.asarray(rng.uniform(-2, 2, 1).astype(np.float32))

    def run(x, y):
        r = (x * y) + 2.0
        ap.eval(r)
        return r

    def kept_intermediate():
        t = a32 * b32
        r = t + 2.0
        ap.eval(r)
        return t, r

    def equal_scalars():
        r = (a32 * 2.0) + 2.0  # the first graph's scalars are y (an array) and 2.0
        ap.eval(r)

    return [
        ("base", lambda: run(a32, b32)),
        ("dtype", lambda: run(a64, b64)),
        ("shape class", lambda: run(m, m.T)),
        ("aliasing", lambda: run(a32, a32)),
        ("scalar for array", lambda: run(a32, 3.0)),
        ("broadcast operand", lambda: run(a32, one)),
        ("strided operand", lambda: run(a32, ap.asarray(rng.uniform(-2, 2, 128)
                                                        .astype(np.float32))[::2])),
        ("referenced intermediate", kept_intermediate),
        ("scalar pattern", equal_scalars),
    ]


def test_each_change_of_structure_plans_again(rng, stats):
    cases = changed_structures(rng)
    for k, (name, fn) in enumerate(cases):
        fn()
        assert cache(stats) == (k, k + 1), name  # a new structure: planned
        fn()
        assert cache(stats) == (k + 1, k + 1), name  # the same again: from the cache


def test_fusion_off_and_on_are_cached_apart(rng, stats):
    x = ap.asarray(rng.uniform(-2, 2, 30))
    step(x)
    core._set_fusion(False)
    r = step(x)
    core._set_fusion(True)
    assert cache(stats) == (0, 2)
    assert stats()["groups_run"] == 1 + 4
    assert_matches(r, np.sqrt(ap.asnumpy(x) ** 2 + 1.0) - 1.0)


def test_reset_forgets_the_plans(rng, stats):
    x = ap.asarray(rng.uniform(-2, 2, 30))
    step(x)
    step(x)
    assert cache(stats) == (1, 1)
    ap.fusion.reset_stats()
    step(x)
    assert cache(stats) == (0, 1)


DTYPES = [np.float32, np.float64, np.int32, np.int64, np.complex64]
SHAPES = [(), (0,), (7,), (3, 5), (4, 1, 6)]


def operand(rng, shape, dtype, layout):
    """A NumPy array of `shape` laid out as named, and the same values in accelpy."""
    if layout == "broadcast":
        base = rng.uniform(-3, 3, (1,) * len(shape)).astype(dtype)
        return base, ap.asarray(base.copy())
    if layout == "strided":
        base = rng.uniform(-3, 3, tuple(2 * d for d in shape)).astype(dtype)
        index = (*(slice(None, None, -2) for _ in shape), Ellipsis)  # 0-d: a view, not a scalar
        return base[index], ap.asarray(base.copy())[index]
    base = rng.uniform(-3, 3, shape).astype(dtype)
    return base, ap.asarray(base.copy())


def body(xp, y, z):
    """Three dependent steps of a loop (a chain over y, reading z); no two nodes are the same
    computation (test_plans_with_merged_subexpressions_replay_their_merges has some)."""
    for k in (2, 3, 4):
        y = (y * z + y) - z * k
    return y


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("layout", ["contiguous", "broadcast", "strided"])
def test_cached_plans_match_numpy_and_unfused(rng, stats, dtype, shape, layout):
    y_np, y = operand(rng, shape, dtype, "contiguous")
    z_np, z = operand(rng, shape, dtype, layout)
    ap.eval(y, z)
    results = []
    for fusion in (True, False, True, True):
        core._set_fusion(fusion)
        r = body(ap, y, z)
        ap.eval(r)
        results.append(ap.asnumpy(r))
    core._set_fusion(True)
    want = body(np, y_np, z_np)
    for r in results:
        assert_matches(r, want)
        np.testing.assert_array_equal(r, results[1])  # bit-identical to fusion off
    hits, misses = cache(stats)
    assert misses == 2 and hits == 2  # fused planned once, unfused once, fused twice from cache


def test_a_producer_read_as_laid_out_or_transposed_plans_apart(rng, stats):
    # Same ops, shape classes and layout flags: a.T + 1 is laid out F-ordered (NumPy's K order)
    # and read as written, c[::2] + 1 C-ordered and read transposed. Only the producers' memory
    # order tells the two apart; a shared plan would read one of them the other's way.
    a_np = rng.standard_normal((4, 4))
    c_np = rng.standard_normal((8, 4))
    for _ in range(2):
        u = (ap.asarray(a_np.copy()).T + 1.0) * 2.0
        ap.eval(u)
        v = (ap.asarray(c_np.copy())[::2] + 1.0).T * 2.0
        ap.eval(v)
        assert_matches(u, (a_np.T + 1.0) * 2.0)
        assert_matches(v, (c_np[::2] + 1.0).T * 2.0)
    assert cache(stats) == (2, 2)


def test_a_producer_view_read_reversed_plans_apart_from_one_read_as_laid_out(rng, stats):
    # w reads a column sum s broadcast as laid out (a row group takes it in) or reversed (s[::-1]
    # is not as laid out: the groups stay apart). Shape classes and flags are alike; only the
    # view's walk over its producer (offset, strides) tells them apart, and a replayed row group
    # would read s[::-1] as s.
    a_np = rng.uniform(-2, 2, (30, 40))
    a = ap.asarray(a_np)
    for reverse in (False, True, False, True):
        t = a * 3.0
        s = (t + 1.0).sum(axis=0)
        w = t * (s[::-1] if reverse else s)
        with ap.debug_fusion(stream=None) as log:
            ap.eval(w)
        assert ("rows" in [r["kind"] for r in log]) != reverse
        s_np = (a_np * 3.0 + 1.0).sum(axis=0)
        assert_matches(w, a_np * 3.0 * (s_np[::-1] if reverse else s_np), rtol=1e-12, atol=1e-10)


def test_row_groups_replay_with_their_rows(rng, stats):
    # A softmax (one row group) planned once and replayed over other sizes, empty ones included:
    # the replayed group keeps its reduced axes and iterates over the reduction's input.
    for rows, cols in ((6, 9), (3, 4), (0, 4), (6, 9)):
        x_np = rng.standard_normal((rows, cols))
        x = ap.asarray(x_np.copy())
        e = ap.exp(x - x.max(axis=1, keepdims=True))
        y = e / e.sum(axis=1, keepdims=True)
        ap.eval(y)
        e_np = np.exp(x_np - x_np.max(axis=1, keepdims=True))
        assert_matches(y, e_np / e_np.sum(axis=1, keepdims=True))
        total = x.astype(ap.int64).sum(axis=(0, 1)) + 0
        assert int(total) == int(x_np.astype(np.int64).sum())
    assert cache(stats)[0] > 0


def scalar_body(xp, y, c, d):
    """Steps whose scalars the CPU reads by value (multiply, add) or as blocks of copies (where's
    branch, arctan2's second operand, a scalar of another dtype than the step computes in)."""
    t = xp.where(y > c, y * c, d)
    u = xp.arctan2(t, d) + y
    return u - np.float32(c) * 3


@pytest.mark.parametrize("layouts", [("c", "c", "c"), ("c", "s", "c"), ("s", "c", "s")])
def test_replayed_programs_read_each_evaluations_scalars_and_arrays(rng, stats, layouts):
    # The plan and (on the CPU) the compiled program are replayed; every iteration brings new
    # scalar values, new arrays and, between parametrisations, other memory layouts of the same
    # key: results must be NumPy's, and bit-identical to unfused evaluation.
    n = 3000  # more than one block of the CPU's program (2048 elements)
    for i, lay in enumerate(layouts * 2):
        base = rng.uniform(-2, 2, 2 * n).astype(np.float32)
        y_np = base[::2] if lay == "s" else base[:n]
        y = ap.asarray(base)[::2] if lay == "s" else ap.asarray(base[:n])
        c, d = float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1)) + i
        fused = scalar_body(ap, y, c, d)
        ap.eval(fused)
        core._set_fusion(False)
        unfused = scalar_body(ap, y, c, d)
        ap.eval(unfused)
        core._set_fusion(True)
        # (atol: the sums cancel near zero; bit-identity with unfused is the strict check)
        assert_matches(fused, scalar_body(np, y_np, c, d), atol=1e-5)
        np.testing.assert_array_equal(ap.asnumpy(fused), ap.asnumpy(unfused))
    assert cache(stats)[0] > 0  # replayed at least once


def test_replayed_programs_keep_equal_scalars_apart_when_they_differ(rng, stats):
    # where(y > 0, c, d): c == d shares one block of copies when compiled; an evaluation with
    # c != d must not read c's block for d.
    y_np = rng.uniform(-2, 2, 100)
    y = ap.asarray(y_np)
    for c, d in ((1.5, 1.5), (1.5, -2.5), (0.5, 0.5), (3.0, -3.0)):
        r = ap.where(y > 0, y * 0 + c, d) + ap.where(y < 0, c, y)
        want = np.where(y_np > 0, y_np * 0 + c, d) + np.where(y_np < 0, c, y_np)
        assert_matches(r, want)


def merged_body(xp, x, g, c, d):
    """A layer norm (x - mean written twice: CSE merges the copies), y * c + y * d (merged when
    c == d) and a duplicate the caller keeps."""
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    y = (x - mean) / xp.sqrt(var + 1e-5) * g
    kept = y * c
    return y * c + y * d, kept


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_plans_with_merged_subexpressions_replay_their_merges(rng, stats, dtype):
    # A plan in which CSE merged nodes is cached with its merges, which a hit replays: results
    # stay NumPy's and bit-identical to unfused evaluation, over other sizes and scalar values;
    # c == d and c != d are other structures (equal scalars merge), so neither replays the other.
    seen = set()
    for rows, cols, c, d in ((5, 8, 2.0, 2.0), (5, 8, 2.0, 3.0), (3, 17, 0.5, 0.5),
                             (0, 4, 1.0, 1.0), (6, 1, 4.0, -1.0), (5, 8, 2.0, 2.0)):
        x_np = rng.standard_normal((rows, cols)).astype(dtype)
        g_np = rng.uniform(0.5, 2, cols).astype(dtype)
        x, g = ap.asarray(x_np.copy()), ap.asarray(g_np.copy())
        fused = merged_body(ap, x, g, c, d)
        ap.eval(*fused)
        core._set_fusion(False)
        unfused = merged_body(ap, x, g, c, d)
        ap.eval(*unfused)
        core._set_fusion(True)
        want = merged_body(np, x_np, g_np, dtype(c), dtype(d))
        for f, u, w in zip(fused, unfused, want, strict=True):
            # (the sums cancel: a tolerance from the terms' size; bit-identity is the strict check
            # on the CPU, whose fused sums keep the unfused order; CUDA's row kernels do not, D60)
            eps = np.finfo(dtype).eps
            tol = {"rtol": 64 * eps, "atol": 64 * eps * (np.abs(w).max(initial=0) + 1)}
            assert_matches(f, w, **tol)
            if x.device.type == "cpu":
                np.testing.assert_array_equal(ap.asnumpy(f), ap.asnumpy(u))
            else:
                assert_matches(f, ap.asnumpy(u), **tol)
        seen.add(c == d)
    hits, misses = cache(stats)
    assert hits >= 3 and seen == {True, False}


def test_a_replayed_merge_keeps_each_arrays_own_memory(rng, stats):
    # u and v are the same computation, merged: each keeps its own memory on every replay.
    a_np = rng.standard_normal(40)
    for k in range(3):
        a = ap.asarray(a_np + k)
        u, v = a * 3.0 + 1.0, a * 3.0 + 1.0
        w = u - v * 0.5
        ap.eval(u, v, w)
        u[0] = -7.0
        assert float(v[0]) == (a_np[0] + k) * 3.0 + 1.0
        assert_matches(w, (a_np + k) * 3.0 + 1.0 - ((a_np + k) * 3.0 + 1.0) * 0.5)
    assert cache(stats)[0] >= 2


def test_a_merge_into_an_out_target_replays(rng, stats):
    # The caller's out= view is never merged away, in planning or in replay.
    x_np = rng.standard_normal((4, 6))
    for _ in range(3):
        x = ap.asarray(x_np.copy())
        out = ap.zeros((4, 6))
        ap.add(ap.exp(x) * 2.0, ap.exp(x) * 2.0, out=out)
        np.testing.assert_allclose(ap.asnumpy(out), np.exp(x_np) * 4.0, rtol=1e-13)


def test_a_writes_pending_readers_plan_alike_wherever_their_nodes_lie(rng, stats):
    """A write into memory that pending work reads evaluates that work first (the write
    barrier), its readers as the targets. They are taken in the order they were made, not by
    their nodes' addresses: with the junk below freed in another order each step, the readers'
    nodes land elsewhere each step, and a key that followed the addresses made a new plan (and
    on a GPU compiled a new kernel) in the middle of the loop. The game of life's step."""
    z_np = rng.integers(0, 2, (12, 20))
    z = ap.asarray(z_np.copy())
    w = ap.asarray(rng.uniform(size=32))
    shuffle = np.random.default_rng(5)
    misses = []
    for _ in range(12):
        junk = [w * float(k) for k in range(16)]
        for k in shuffle.permutation(len(junk)):
            junk[k] = None
        before = cache(stats)[1]
        n = z[:-2, :-2] + z[:-2, 2:] + z[2:, :-2] + z[2:, 2:]
        birth = (n == 3) & (z[1:-1, 1:-1] == 0)
        survive = ((n == 2) | (n == 3)) & (z[1:-1, 1:-1] == 1)
        z[...] = 0
        z[1:-1, 1:-1] = birth | survive
        misses.append(cache(stats)[1] - before)
        n_np = z_np[:-2, :-2] + z_np[:-2, 2:] + z_np[2:, :-2] + z_np[2:, 2:]
        alive = ((n_np == 3) & (z_np[1:-1, 1:-1] == 0)) | (
            ((n_np == 2) | (n_np == 3)) & (z_np[1:-1, 1:-1] == 1)
        )
        z_np[...] = 0
        z_np[1:-1, 1:-1] = alive
    assert misses[2:] == [0] * 10, misses
    assert_matches(z, z_np)
