"""CUDA graph replay of repeated evaluations (src/cuda/graphs.hpp), on the fake driver.

bench/fake_cuda_driver.c keeps the kernel nodes of a graph (kernel, configuration, parameter
bytes) and launches each through its cuLaunchKernel when the graph is launched, so the launch
count of a loop is the same with and without replay, and the parameters a replayed node was
rebound to can be read back. Values are never computed here; tests/python/test_cuda_graphs.py
compares replayed and unreplayed results on a GPU.
"""

import os

from test_cuda_host_path import ROOT, fake_driver, pytestmark, run_fake  # noqa: F401

PRELUDE = """
    import ctypes, os, struct
    import numpy as np, accelpy as ap
    fake = ctypes.CDLL(os.environ["ACCELPY_CUDA_DRIVER"])

    def counts():
        get = lambda name, t=ctypes.c_ulonglong: t.in_dll(fake, name).value
        return (get("fake_cuda_launches"), get("fake_cuda_graph_launches"),
                get("fake_cuda_live_graph_execs", ctypes.c_longlong))

    def last_node_args():
        n = ctypes.c_size_t.in_dll(fake, "fake_cuda_last_node_size").value
        return bytes((ctypes.c_ubyte * 4096).in_dll(fake, "fake_cuda_last_node_args"))[:n]

    def fail_allocations_after(n):
        ctypes.c_longlong.in_dll(fake, "fake_cuda_fail_allocs_after").value = n

    addr = lambda a: a.__cuda_array_interface__["data"][0]
    x = ap.asarray(np.linspace(0, 1, 1000, dtype=np.float32))

    def step(y, c):
        # Two kernels: t (read reversed below, so a group of its own), then the sum and the
        # update as one row group (the last node launched). Without t the step is one kernel,
        # which is never recorded: a one-node graph saves nothing over its launch.
        t = y + x
        s = (y * y).sum()
        y = y * c + s * 1e-6 + x + t[::-1]
        ap.eval(y, s)
        return y, s

    def loop(steps, y=None, c0=0.5):
        # Per step: (kernels launched, graphs launched); the last step's result.
        y = ap.zeros(1000, dtype=np.float32) if y is None else y
        ap.eval(y)  # not pending: each step is the same structure
        seen = []
        for i in range(steps):
            before = counts()
            y, s = step(y, c0 + i)
            after = counts()
            seen.append((after[0] - before[0], after[1] - before[1]))
        return seen, y
"""


def run(fake_driver, code, **env):  # noqa: F811
    # Optimized kernels built at once: a quick build replaced mid-loop would rebuild a graph.
    return run_fake(fake_driver, PRELUDE + code, env=dict(ACCELPY_QUICK_COMPILE="0", **env))


def test_a_repeated_evaluation_is_replayed_as_one_graph_with_new_buffers_and_scalars(
        fake_driver):  # noqa: F811
    out = run(fake_driver, """
    ap.cuda.graph_stats(reset=True)
    assert ap.cuda.graphs
    y = ap.zeros(1000, dtype=np.float32)
    ap.eval(y)
    seen, replayed = [], []
    for i in range(12):
        c = 0.25 + i
        before, y_old = counts(), y
        y, s = step(y, c)
        after = counts()
        seen.append((after[0] - before[0], after[1] - before[1]))
        if seen[-1][1]:
            replayed.append((last_node_args(), y, y_old, c))
    # The update's node was rebound to each step's output, its inputs and c. (Addresses are read
    # after the loop: exporting an array's memory makes later reads of it run at the call.)
    for i, (args, y_new, y_prev, c) in enumerate(replayed):
        for a in (y_new, y_prev, x):
            assert struct.pack("<Q", addr(a)) in args, (i, a)
        assert struct.pack("<f", c) in args or struct.pack("<d", c) in args, i
    kernels = seen[0][0]
    assert kernels >= 2, seen
    # Planned, then found in the plan cache twice, then recorded (built and launched as a
    # graph), then replayed: the same kernels launched every step.
    assert seen == [(kernels, 0)] * 3 + [(kernels, 1)] * 9, seen
    st = ap.cuda.graph_stats()
    assert st["graphs_built"] == 1 and st["graph_launches"] == 9, st
    assert st["kernels_replayed"] == 9 * kernels and st["kernels_unrecorded"] == 0, st
    assert 8 <= st["nodes_rebound"] <= 8 * kernels, st
    assert counts()[2] == 1
    print("ok")
    """)
    assert out.startswith("ok"), out


def test_replay_is_off_with_the_environment_switch_and_at_run_time(fake_driver):  # noqa: F811
    out = run(fake_driver, """
    assert not ap.cuda.graphs and not ap.cuda.graph_stats()["enabled"]
    seen, _ = loop(8)
    assert seen == [(seen[0][0], 0)] * 8 and seen[0][0] >= 2, seen
    assert ap.cuda.graph_stats()["graphs_built"] == 0 and counts()[1:] == (0, 0)
    print("ok")
    """, ACCELPY_CUDA_GRAPHS="0")
    assert out.startswith("ok"), out
    out = run(fake_driver, """
    seen, y = loop(6)
    assert [g for _, g in seen] == [0, 0, 0, 1, 1, 1], seen
    ap.cuda.graphs = False
    off, y = loop(3, y)
    assert [g for _, g in off] == [0, 0, 0] and off[0][0] == seen[0][0], off
    ap.cuda.graphs = True
    on, y = loop(3, y)
    assert [g for _, g in on] == [1, 1, 1], on  # the graph recorded before is replayed
    assert ap.cuda.graph_stats()["graphs_built"] == 1
    print("ok")
    """)
    assert out.startswith("ok"), out


def test_a_graph_goes_with_its_plan_cache_entry(fake_driver):  # noqa: F811
    out = run(fake_driver, """
    seen, y = loop(6)
    assert counts()[2] == 1
    ap.fusion.reset_stats()  # empties the plan cache: its entries' graphs are destroyed
    seen, y = loop(6, y)
    assert [g for _, g in seen] == [0, 0, 0, 1, 1, 1], seen
    assert counts()[2] == 1 and ap.cuda.graph_stats()["graphs_built"] == 2
    print("ok")
    """)
    assert out.startswith("ok"), out


def test_an_evaluation_cut_short_queues_what_it_recorded(fake_driver):  # noqa: F811
    # Two kernels over 2 MiB outputs (allocated by the driver, past the small-block cache): the
    # second output's allocation fails after the first kernel was recorded. That kernel is
    # launched on its own (its result counts as computed), the error reaches the caller, and
    # the plan is replayed again afterwards.
    out = run(fake_driver, """
    big = ap.asarray(np.linspace(0, 1, 1 << 19, dtype=np.float32))

    def body(c):
        a = big * c
        b = a[::-1] + 1.0  # reads a reversed: a group of its own
        return a, b

    for i in range(5):
        ap.eval(*body(i + 0.5))
    a, b = body(7.5)
    before = counts()
    fail_allocations_after(1)
    try:
        ap.eval(a, b)
    except MemoryError as e:
        assert "out of memory" in str(e).lower(), e
    else:
        raise AssertionError("no error")
    fail_allocations_after(-1)
    after = counts()
    assert (after[0] - before[0], after[1] - before[1]) == (1, 0), (before, after)
    ap.eval(b)  # the rest of the evaluation
    before = counts()
    for i in range(3):
        ap.eval(*body(i + 0.5))
    after = counts()
    assert (after[0] - before[0], after[1] - before[1]) == (6, 3), (before, after)
    print("ok")
    """)
    assert out.startswith("ok"), out


def test_plans_a_graph_cannot_hold_are_launched_one_by_one(fake_driver):  # noqa: F811
    out = run(fake_driver, """
    ap.cuda.graph_stats(reset=True)
    # One kernel per evaluation: a graph would not save its launch.
    y = ap.zeros(1000, dtype=np.float32)
    for i in range(8):
        y = y * (i + 0.5) + x
        ap.eval(y, y)
    assert counts()[1] == 0
    # Parameters past the kernel parameter space go through a device copy, no graph node.
    m = ap.asarray(np.ones((8, 64), dtype=np.float32))
    for i in range(6):
        acc = m[:, ::2][:, ::-1] + 0.0
        for j in range(1, 60):
            acc = acc + (m[:, ::2][:, ::-1] + float(j))
        before = counts()
        ap.eval(acc, acc.sum())
        assert counts()[1] == before[1]
    st = ap.cuda.graph_stats()
    assert st["graphs_built"] == 0 and st["graph_launches"] == 0, st
    print("ok")
    """)
    assert out.startswith("ok"), out


def test_a_loop_over_other_sizes_replays_a_graph_per_size(fake_driver):  # noqa: F811
    out = run(fake_driver, """
    # Row groups plan each size on its own (a plan-cache entry and graph per size): each size
    # is replayed from its fourth evaluation on, its graph rebound to the new buffers (70000,
    # evaluated twice, never is).
    sizes = [1000, 3000, 1000, 70000, 1000, 3000, 1000, 3000] * 2
    got = []
    for i, n in enumerate(sizes):
        v = ap.asarray(np.ones(n, dtype=np.float32))
        before = counts()
        s = (v * v).sum()
        ap.eval(v * (i + 0.5) + s * 1e-6 + (v + 1.0)[::-1], s)  # two kernels
        after = counts()
        got.append((after[0] - before[0], after[1] - before[1]))
    replayed = [g for _, g in got]
    assert all(k >= 2 for k, _ in got), got
    assert [g for g, n in zip(replayed, sizes) if n != 70000][7:] == [1] * 7, got
    assert sum(replayed) == ap.cuda.graph_stats()["graph_launches"]
    print("ok", ap.cuda.graph_stats())
    """)
    assert out.startswith("ok"), out


def test_the_gpu_tests_loops_are_replayed(fake_driver):  # noqa: F811
    # test_cuda_graphs.py's loop bodies, run here so that replay never silently stops engaging
    # in them (values are not computed here; the GPU test compares them bit for bit).
    out = run(fake_driver, f"""
    import sys
    sys.path.insert(0, {os.path.dirname(__file__)!r})
    import test_cuda_graphs as bodies
    rng = np.random.default_rng(0)

    def replayed(loop, *inputs):
        ap.fusion.reset_stats()
        ap.cuda.graph_stats(reset=True)
        loop(*[ap.asarray(a) for a in inputs])
        return ap.cuda.graph_stats()

    for dtype in (np.float32, np.float64):
        u, v = (rng.standard_normal((64, 96)).astype(dtype) for _ in range(2))
        st = replayed(bodies.fields_loop, u, v)
        # From the fourth step on, each step's evaluation is one graph launch.
        assert st["graph_launches"] == 30 - 3 and st["graphs_built"] == 1, st
    st = replayed(bodies.cg_loop, 1.0 + rng.random(200), rng.standard_normal(200))
    # Two evaluations per iteration: the operator's (p, then p * ap_ summed: two kernels) is
    # replayed from its fourth on; the residual's is one kernel, launched as is.
    assert st["graph_launches"] == 25 - 4, st
    st = replayed(bodies.users_kernel_loop, rng.standard_normal(5000).astype(np.float32))
    assert st["graph_launches"] == 20 - 3, st
    print("ok")
    """)
    assert out.startswith("ok"), out


def test_the_gpu_benchmarks_fields_step_is_replayed(fake_driver):  # noqa: F811
    # bench/gpu_loops.py's replay case must stay a step that replay applies to (>= 2 kernels
    # per evaluation after row fusion), or its "with replay" row measures nothing.
    out = run(fake_driver, f"""
    import sys
    sys.path.insert(0, {os.path.join(ROOT, "bench")!r})
    sys.modules["torch"] = sys.modules["cupy"] = None
    import gpu_loops
    u = ap.linspace(0, 1, 1000, dtype=np.float32)
    v = ap.linspace(1, 0, 1000, dtype=np.float32)
    ap.eval(u, v)
    ap.cuda.graph_stats(reset=True)
    seen = []
    for _ in range(10):
        before = counts()
        u, v = gpu_loops._fields_step(ap, u, v)
        after = counts()
        seen.append((after[0] - before[0], after[1] - before[1]))
    assert seen == [(2, 0)] * 3 + [(2, 1)] * 7, seen
    print("ok")
    """)
    assert out.startswith("ok"), out
