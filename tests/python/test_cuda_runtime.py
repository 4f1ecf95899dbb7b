"""CUDA runtime: streams, events, memory, transfers, kernel caches and fault reports.

Everything here needs a GPU and is skipped, with the reason, without one. The numerical
behaviour of ops on CUDA is covered by the rest of the suite, which runs per device.
"""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import accelpy as ap

pytestmark = pytest.mark.skipif(
    not ap.cuda.is_available(), reason=f"no CUDA GPU: {ap.cuda.unavailable_reason()}")


def run_python(code, env=None, timeout=300):
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env=full_env, timeout=timeout)


def test_device_queries():
    assert ap.cuda.device_count() >= 1
    p = ap.cuda.get_device_properties(0)
    assert p.name and p.total_memory > 0 and p.multi_processor_count > 0
    assert p.compute_capability >= (7, 0)
    assert p.l2_cache_size > 0
    assert ap.get_default_device() in (ap.device("cuda:0"), ap.device("cpu"))


def test_default_device_is_gpu0_in_a_fresh_process():
    r = run_python("import accelpy as ap; print(ap.get_default_device(), ap.zeros(3).device)",
                   env={"ACCELPY_DEFAULT_DEVICE": ""})
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["cuda:0", "cuda:0"]


def test_missing_device_is_a_clear_error():
    n = ap.cuda.device_count()
    with pytest.raises(ValueError, match=f"cuda:{n}"):
        ap.zeros(3, device=f"cuda:{n}")


def test_mixing_devices_names_both():
    a = ap.ones(3, device="cuda")
    b = ap.ones(3, device="cpu")
    with pytest.raises(ValueError, match="cuda:0.*cpu|cpu.*cuda:0"):
        a + b


def test_to_and_cpu_round_trip(rng):
    x = rng.standard_normal((37, 5)).astype(np.float32)
    a = ap.asarray(x, device="cpu")
    g = a.to("cuda")
    assert g.device == ap.device("cuda:0")
    np.testing.assert_array_equal(ap.asnumpy(g.cpu()), x)
    np.testing.assert_array_equal(ap.asnumpy(g * 2), x * 2)


def test_array_protocol_copies_gpu_arrays_to_the_host():
    a = ap.arange(3.0, device="cuda")
    host = np.asarray(a)
    assert isinstance(host, np.ndarray) and host.tolist() == [0.0, 1.0, 2.0]
    with pytest.raises(ValueError, match="avoid copy"):
        np.asarray(a, copy=False)


def test_stream_context_and_events():
    s = ap.cuda.Stream()
    assert ap.cuda.current_stream() != s
    with s:
        assert ap.cuda.current_stream() == s
        start, end = ap.cuda.Event(), ap.cuda.Event()
        start.record()
        x = ap.ones((1024, 1024), dtype=np.float32, device="cuda")
        y = (x * 3).sum()
        ap.eval(y)
        end.record()
    assert ap.cuda.current_stream() != s
    end.synchronize()
    assert end.query()
    assert s.query()
    assert start.elapsed_time(end) >= 0
    assert float(y) == 3 * 1024 * 1024


def test_stream_wait_event_orders_work():
    s1, s2 = ap.cuda.Stream(), ap.cuda.Stream()
    with s1:
        a = ap.ones(1 << 20, dtype=np.float32, device="cuda") * 5
        ap.eval(a)
        ev = s1.record()
    s2.wait_event(ev)
    with s2:
        b = a + 1
        ap.eval(b)
    s2.synchronize()
    assert float(b.sum()) == 6 * (1 << 20)


def test_synchronize():
    x = ap.ones(1 << 20, device="cuda") + 1
    ap.eval(x)
    ap.cuda.synchronize()


def test_memory_stats_and_free_cache():
    ap.cuda.synchronize()
    before = ap.cuda.memory_stats()["allocated_bytes"]
    x = ap.empty((1 << 20,), dtype=np.float32, device="cuda")
    st = ap.cuda.memory_stats()
    assert st["allocated_bytes"] >= before + 4 * (1 << 20)
    assert st["reserved_bytes"] >= 4 * (1 << 20)
    assert st["peak_allocated_bytes"] >= st["allocated_bytes"]
    del x
    assert ap.cuda.memory_stats()["allocated_bytes"] == before
    ap.cuda.free_cache()
    assert ap.cuda.memory_stats()["reserved_bytes"] <= st["reserved_bytes"]


def _address(a):
    return a.__cuda_array_interface__["data"][0]


def test_small_block_cache_hands_freed_blocks_to_the_same_stream_only():
    # A small block freed on the default stream goes to the next allocation of its size class
    # (512 B .. 1 MiB, powers of two) on that stream, not to another stream's.
    a = ap.empty(100, dtype=np.float32, device="cuda")
    addr = _address(a)
    del a
    with ap.cuda.Stream():
        other = ap.empty(100, dtype=np.float32, device="cuda")
        assert _address(other) != addr
    b = ap.empty(120, dtype=np.float32, device="cuda")  # 480 bytes: the same 512-byte class
    assert _address(b) == addr
    del b
    big = ap.empty(1000, dtype=np.float32, device="cuda")  # another class
    assert _address(big) != addr
    del other, big
    ap.cuda.free_cache()  # returns the cached blocks to the pool
    assert ap.cuda.memory_stats()["allocated_bytes"] >= 0


def test_small_block_cache_keeps_values_right(rng):
    # Results freed and reused in a loop, in stream order, on the default and another stream.
    x_np = rng.standard_normal(300).astype(np.float32)
    x = ap.asarray(x_np, device="cuda")
    s = ap.cuda.Stream()
    for i in range(200):
        if i % 3 == 0:
            with s:
                y = x * float(i) + 1.0
                got = ap.asnumpy(y)
        else:
            y = x * float(i) + 1.0
            got = ap.asnumpy(y)
        np.testing.assert_allclose(got, x_np * np.float32(i) + np.float32(1), rtol=1e-6)
        del y


def test_memory_limit_raises_out_of_memory():
    ap.cuda.set_memory_limit(64 << 20)
    try:
        with pytest.raises(ap.OutOfMemoryError, match="limit") as info:
            ap.empty((128 << 20,), dtype=np.uint8, device="cuda")
        assert isinstance(info.value, MemoryError)
        assert str(128 << 20) in str(info.value)
        small = ap.empty((1 << 20,), dtype=np.uint8, device="cuda")
        del small
    finally:
        ap.cuda.set_memory_limit(0)


def test_memory_limit_from_environment():
    r = run_python("""
        import accelpy as ap, numpy as np
        assert ap.cuda.memory_stats()["limit_bytes"] == 32 << 20
        try:
            ap.empty((64 << 20,), dtype=np.uint8, device="cuda")
        except ap.OutOfMemoryError as e:
            print("OOM", e)
    """, env={"ACCELPY_CUDA_MEMORY_LIMIT": "32M"})
    assert r.returncode == 0, r.stderr
    assert "OOM" in r.stdout


@pytest.mark.serial
@pytest.mark.faults_device
def test_device_out_of_memory_is_reported_with_sizes():
    # Twice the device's memory: refused by the driver at once, so other processes sharing the
    # GPU (parallel test workers) never see it full.
    total = ap.cuda.get_device_properties().total_memory
    with pytest.raises(ap.OutOfMemoryError, match="free") as info:
        ap.empty((2 * total,), dtype=np.uint8, device="cuda")
    assert str(2 * total) in str(info.value)
    assert ap.cuda.memory_stats()["oom_retries"] >= 1
    x = ap.ones(1000, device="cuda")  # the device still works
    assert float(x.sum()) == 1000


@pytest.mark.parametrize("nbytes", [8, 1000, (1 << 20) + 3, 50 << 20])
def test_pageable_transfers(rng, nbytes):
    x = rng.integers(0, 255, size=nbytes, dtype=np.uint8)
    g = ap.asarray(x, device="cuda")
    x_copy = x.copy()
    x[:] = 0  # the device copy is a snapshot
    np.testing.assert_array_equal(ap.asnumpy(g), x_copy)


def test_pageable_transfers_at_odd_addresses(rng):
    # Staged in chunks copied by several threads, from a source at an odd address.
    x = rng.integers(0, 255, size=(17 << 20) + 8, dtype=np.uint8)
    g = ap.asarray(x[3:-2], device="cuda")
    np.testing.assert_array_equal(ap.asnumpy(g), x[3:-2])


def test_non_contiguous_transfers(rng):
    x = rng.standard_normal((300, 200))
    g = ap.asarray(x[::3, ::-2], device="cuda")
    np.testing.assert_array_equal(ap.asnumpy(g), x[::3, ::-2])
    t = ap.asarray(x, device="cuda").T[5:, ::7]
    np.testing.assert_array_equal(ap.asnumpy(t), x.T[5:, ::7])


def test_pinned_transfers_are_asynchronous(rng):
    host = ap.cuda.pinned_empty((1 << 20,), np.float32)
    host[:] = rng.standard_normal(1 << 20).astype(np.float32)
    g = ap.asarray(host, device="cuda")
    ap.cuda.current_stream().synchronize()
    out = ap.cuda.pinned_empty((1 << 20,), np.float32)
    ap.cuda.copy_to_host_async(g * 2, out)
    ap.cuda.current_stream().synchronize()
    np.testing.assert_array_equal(out, host * 2)


def test_large_transfer_round_trip(rng):
    x = rng.standard_normal(64 << 20 >> 3)  # 64 MiB of float64
    g = ap.asarray(x, device="cuda")
    np.testing.assert_array_equal(ap.asnumpy(g), x)


def test_device_to_device_copy():
    a = ap.arange(1000, device="cuda")
    b = a.copy()
    a[:] = 0
    np.testing.assert_array_equal(ap.asnumpy(b), np.arange(1000))


@pytest.mark.skipif(ap.cuda.device_count() < 2, reason="needs two GPUs")
def test_peer_copy():
    a = ap.arange(1000, device="cuda:0")
    b = a.to("cuda:1")
    assert b.device == ap.device("cuda:1")
    np.testing.assert_array_equal(ap.asnumpy(b), np.arange(1000))


def test_scalar_loop_compiles_a_few_kernels():
    b = ap.zeros(1000, dtype=np.float32, device="cuda")
    ap.eval(b)
    before = ap.cuda.kernel_cache_stats()["kernels"]
    for _ in range(1000):
        b = b + 0.02
    ap.eval(b)
    after = ap.cuda.kernel_cache_stats()["kernels"]
    assert after - before <= 4
    np.testing.assert_allclose(ap.asnumpy(b), np.full(1000, 20.0, np.float32), rtol=1e-4)


def test_disk_cache_hit_in_a_new_process(tmp_path):
    code = """
        import accelpy as ap, numpy as np
        x = ap.arange(100, dtype=np.float64, device="cuda")
        y = ap.sqrt(x * 3.0 + 1.0) - x / 7.0
        ap.eval(y)
        s = ap.cuda.kernel_cache_stats()
        # The optimized build is on disk (the compile worker stored it) before this process ends,
        # so no worker writes to the cache while the test corrupts it below.
        assert ap.cuda.wait_for_optimized_kernels(timeout=300)
        print(s["compiled"], s["disk_hits"])
    """
    env = {"ACCELPY_CACHE_DIR": str(tmp_path)}
    first = run_python(code, env)
    assert first.returncode == 0, first.stderr
    compiled, hits = map(int, first.stdout.split())
    assert compiled >= 1
    assert oct(os.stat(tmp_path / "kernels").st_mode & 0o777) == "0o700"
    second = run_python(code, env)
    assert second.returncode == 0, second.stderr
    compiled2, hits2 = map(int, second.stdout.split())
    assert compiled2 == 0 and hits2 >= 1
    # A corrupt entry is recompiled.
    for f in (tmp_path / "kernels").iterdir():
        f.write_bytes(f.read_bytes()[:-5] + b"xxxxx")
    third = run_python(code, env)
    assert third.returncode == 0, third.stderr
    assert int(third.stdout.split()[0]) >= 1


def test_quick_and_optimized_builds_give_the_same_bits():
    # A new elementwise kernel is launched from a quick build (NVRTC --Ofast-compile=min) until
    # its optimized build, compiled by the compile worker, replaces it. Both must give the same
    # bits for each kind of body the generator emits: outlined transcendental functions, light
    # arithmetic, float64, float16, complex, integer division, integer powers (exact by
    # double-double), division and sqrt, strided, reversed and broadcast operands, and a random
    # draw.
    r = run_python("""
        import numpy as np, accelpy as ap
        rng = np.random.default_rng(7)
        def dev(a):
            return ap.asarray(a, device="cuda")
        X, G = dev(rng.standard_normal((300, 257)).astype(np.float32)), dev(
            rng.standard_normal(257).astype(np.float32))
        D = dev(rng.standard_normal(5000))
        H = dev(rng.standard_normal(4099).astype(np.float16))
        C = dev((rng.standard_normal(3001) + 1j * rng.standard_normal(3001)).astype(np.complex64))
        I = dev(rng.integers(-1000, 1000, 5003).astype(np.int32))
        J = dev(rng.integers(1, 50, 5003).astype(np.int32))
        # Integer powers rounded once (scalar_ops.h): double-double products whose exactness
        # needs every fma and no contraction; negative exponents divide.
        B = dev(rng.integers(-10**6, 10**6, 4001))
        E = dev(rng.integers(0, 60, 4001).astype(np.uint64))
        F = dev(rng.integers(-60, 60, 4001).astype(np.float32))
        K = dev(rng.integers(-14, 14, 4001).astype(np.float32))
        cases = [
            lambda: B ** E,
            lambda: F ** ap.abs(K) + F ** K,
            lambda: F.astype(np.float64) ** K.astype(np.float64),
            lambda: D / (D * D + 0.5) + ap.sqrt(ap.abs(D)) - ap.sqrt(ap.abs(X)).sum(),
            lambda: ap.sqrt(X * X + G * G) * ap.sin(X) + ap.exp(-G),
            lambda: ap.tanh(X[:, ::-2] * 0.5) - ap.log1p(ap.abs(X[:, ::-2])),
            lambda: (X - 1.5) * X + 0.25,
            lambda: ap.arctan2(D, D[::-1]) + ap.expm1(D * 0.1) / (D + 3.0),
            lambda: ap.exp(H) * H - H / (H * H + 1),
            lambda: ap.exp(C) * C / (C + 1j),
            lambda: I // J + I % J - (I >> 2),
            lambda: ap.where(X > 0, ap.power(ap.abs(X), 1.7), ap.cos(X)),
            lambda: ap.random.default_rng(11).standard_normal(70001, dtype=np.float32,
                                                             device="cuda"),
        ]
        quick = []
        for f in cases:
            before = ap.cuda.kernel_cache_stats()
            quick.append(ap.asnumpy(f()))
            after = ap.cuda.kernel_cache_stats()
            assert after["compiled"] > before["compiled"]
            assert after["upgrades_pending"] > before["upgrades_pending"], after
            # At most 8 may be pending (more compile optimized at once).
            assert ap.cuda.wait_for_optimized_kernels(timeout=600)
        s = ap.cuda.kernel_cache_stats()
        assert s["upgraded"] >= len(cases) and s["upgrade_failures"] == 0, s
        for i, (f, q) in enumerate(zip(cases, quick)):
            o = ap.asnumpy(f())
            assert q.tobytes() == o.tobytes(), (i, np.flatnonzero(q != o)[:5])
        print("ok", s["upgraded"])
    """, env={"ACCELPY_CACHE_DIR": "off", "ACCELPY_QUICK_COMPILE": "1"}, timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("ok")


def test_dump_kernels(tmp_path):
    r = run_python("""
        import accelpy as ap
        ap.eval(ap.ones(10, device="cuda") * 3 + 1)
    """, env={"ACCELPY_DUMP_KERNELS": str(tmp_path), "ACCELPY_CACHE_DIR": "off"})
    assert r.returncode == 0, r.stderr
    sources = list(tmp_path.glob("*.cu"))
    assert sources and "__global__" in sources[0].read_text()


@pytest.mark.faults_device
def test_kernel_fault_is_reported_at_synchronize():
    r = run_python("""
        import accelpy as ap
        ap.cuda._launch_faulting_kernel()
        try:
            ap.cuda.synchronize()
        except RuntimeError as e:
            print("ERROR:", e)
    """)
    assert "ERROR:" in r.stdout, r.stdout + r.stderr
    assert "accel_fault_test" in r.stdout
    assert "illegal" in r.stdout.lower() or "CUDA_ERROR" in r.stdout


def test_info_reports_devices():
    from accelpy._info import info_text
    text = info_text()
    assert "cuda:0" in text and "nvrtc" in text


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("op", ["sum", "max", "argmin", "any"])
def test_large_reductions_match_numpy(rng, op, axis):
    x = rng.standard_normal((1000, 3000)).astype(np.float32)
    if op == "any":
        x = x > 3.5
    a = ap.asarray(x, device="cuda")
    if op == "argmin":
        if isinstance(axis, tuple):
            return
        got, want = ap.argmin(a, axis=axis), np.argmin(x, axis=axis)
    else:
        got, want = getattr(ap, op)(a, axis=axis), getattr(np, op)(x, axis=axis)
    np.testing.assert_allclose(ap.asnumpy(got), want, rtol=2e-5, atol=1e-3)


def test_fused_reduction_is_deterministic(rng):
    x = ap.asarray(rng.standard_normal(1 << 22).astype(np.float32), device="cuda")
    r1 = float((x * x).sum())
    r2 = float((x * x).sum())
    assert r1 == r2


def _split_reductions(xp, dtype, rows, cols, flat):
    """Reductions too narrow to fill the device, so split across blocks: long rows (inner
    strategy), few columns (outer strategy) and everything."""
    if dtype == np.bool_:
        return [xp.any(rows, axis=1), xp.all(cols, axis=0), xp.any(flat)]
    out = [xp.sum(rows, axis=1), xp.sum(cols, axis=0), xp.sum(flat)]
    if dtype != np.complex128:
        out += [xp.max(rows, axis=1), xp.argmax(cols, axis=0), xp.argmin(flat)]
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.complex128, np.bool_])
def test_split_reductions_on_several_streams(rng, dtype):
    # The last block of a split reduction is found with counters the stream's kernels share and
    # leave zero: kernels queued on two streams at once, streams made and dropped, and repeats
    # give the bits of one run on the default stream.
    shapes = [(3, 1 << 20), (1 << 16, 40), (1 << 22,)]
    if dtype == np.bool_:
        hosts = [rng.standard_normal(shapes[0]) > 4.5, rng.standard_normal(shapes[1]) > -4.5,
                 rng.standard_normal(shapes[2]) > 5.0]
    elif dtype == np.complex128:
        hosts = [rng.standard_normal(s) + 1j * rng.standard_normal(s) for s in shapes]
    else:
        hosts = [rng.uniform(-2, 2, s).astype(dtype) for s in shapes]
    arrays = [ap.asarray(h, device="cuda") for h in hosts]
    ap.cuda.synchronize()
    want = [ap.asnumpy(r) for r in _split_reductions(ap, dtype, *arrays)]
    wide = {np.float32: np.float64, np.float16: np.float64}.get(dtype, dtype)
    expect = _split_reductions(np, dtype, *[h.astype(wide) for h in hosts])
    rtol = 2e-3 if dtype == np.float16 else 1e-6
    for got, exp in zip(want, expect, strict=True):
        np.testing.assert_allclose(np.asarray(got, dtype=np.asarray(exp).dtype), exp, rtol=rtol,
                                   atol=rtol)
    streams = [ap.cuda.Stream(), ap.cuda.Stream()]
    for _ in range(3):
        pending = []
        for s in streams + [ap.cuda.Stream()]:  # the third is dropped after one use
            with s:
                results = _split_reductions(ap, dtype, *arrays)
                ap.eval(*results)
                pending.append((s, results))
        for s, results in pending:
            with s:
                for got, exp in zip(results, want, strict=True):
                    np.testing.assert_array_equal(ap.asnumpy(got), exp)
