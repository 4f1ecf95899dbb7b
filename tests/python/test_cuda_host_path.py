"""The CUDA backend's host path, without a GPU.

bench/fake_cuda_driver.c is a driver whose calls succeed and do nothing ("device memory" is host
memory, launches are counted, not run). With it standing in for libcuda, everything accelpy does
on the host for a CUDA operation runs here: planning, the launch path's plan reuse, the kernel
caches (NVRTC compiles for real), parameter packing and the allocator's small-block cache.
Values are never checked (no kernel runs); the GPU suite checks them.
"""

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

import accelpy as ap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CC = shutil.which(os.environ.get("CC", "cc"))
NVRTC = any(lib["name"] == "nvrtc" and lib["found"] for lib in ap.cuda._c.libraries())

pytestmark = [
    pytest.mark.skipif(CC is None, reason="no C compiler to build the fake driver"),
    pytest.mark.skipif(not NVRTC, reason="NVRTC not found (kernels are compiled for real)"),
]


@pytest.fixture(scope="module")
def fake_driver(tmp_path_factory):
    d = tmp_path_factory.mktemp("fake_cuda")
    lib = str(d / "libcuda.so.1")
    subprocess.run([CC, "-O2", "-shared", "-fPIC", "-o", lib,
                    os.path.join(ROOT, "bench", "fake_cuda_driver.c")], check=True)
    return lib, str(d / "cache")


def run_fake(fake_driver, code):
    lib, cache = fake_driver
    env = dict(os.environ, ACCELPY_CUDA_DRIVER=lib, ACCELPY_CACHE_DIR=cache,
               ACCELPY_DEFAULT_DEVICE="cuda")
    env.pop("ACCELPY_CUDA_SMALL_BLOCK_CACHE", None)
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                       text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


# A program touching the planner's cases: contiguous, broadcast, strided, transposed and reversed
# operands, one element and none, reductions (one split over the device), a concatenation, and a
# group whose parameters pass by pointer (past 4 KB).
PROGRAM = """
    import numpy as np, accelpy as ap
    rng = np.random.default_rng(0)
    x = ap.asarray(rng.standard_normal((64, 48)).astype(np.float32))
    y = ap.asarray(rng.standard_normal(48).astype(np.float32))
    one = ap.asarray(np.float32([1.5]))

    flat = x.reshape(-1)

    def breaker():  # a group of its own structure
        ap.eval(ap.arange(5, dtype=np.int16) * 7)

    def program(between=lambda: None):
        # Each case twice in a row: the second reuses the launch path's plan (new addresses).
        for i in range(20):
            k = (i // 2) % 10
            r = [lambda: x + y, lambda: x[::2, ::3] * 2.0 + 1, lambda: (x.T - 1.0) * x.T,
                 lambda: ap.sqrt(ap.abs(x)) + y[::-1], lambda: x[5] + y, lambda: one + one,
                 lambda: ap.zeros(0) + 1, lambda: (one + one) * one - one,
                 lambda: flat[i % 2:] * 2.0, lambda: x[:, i % 2:] + 1.0][k]()
            ap.eval(r)
            between()
        for r in (x.sum(), x.sum(axis=0), x.sum(axis=1), (x * x).mean(),
                  ap.ones(1 << 22, dtype=np.float32).sum(), ap.concatenate([x, x * 2, x[:3]])):
            ap.eval(r)
            between()
        arrs = [x[:, ::2][:, ::-1] + float(j) for j in range(60)]
        acc = arrs[0]
        for a in arrs[1:]:
            acc = acc + a
        ap.eval(acc)
        between()
"""


def test_reused_plans_name_the_kernels_fresh_plans_name(fake_driver):
    # The launch path reuses its last plan for a group of the same signature. With another group
    # run between any two (so no plan is reused), every group gets the same kernel (names hash
    # the structural key); a second pass compiles nothing.
    out = run_fake(fake_driver, PROGRAM + """
    def names(between=lambda: None):
        with ap.fusion.debug_fusion(stream=None) as records:
            program(between)
        return [r["kernel"] for r in records]
    with ap.fusion.debug_fusion(stream=None) as records:
        breaker()
    breaker_kernel = records[0]["kernel"]
    reused = names()
    fresh = [k for k in names(breaker) if k != breaker_kernel]
    assert reused == fresh, (reused, fresh)
    stats = ap.cuda.kernel_cache_stats()
    assert names() == reused
    again = ap.cuda.kernel_cache_stats()
    assert again["compiled"] == stats["compiled"] and again["disk_hits"] == stats["disk_hits"]
    assert len(set(reused)) >= 12
    print("ok", len(reused))
    """)
    assert out.startswith("ok")


def test_small_block_cache_reuses_blocks_on_the_default_stream(fake_driver):
    out = run_fake(fake_driver, """
    import numpy as np, accelpy as ap
    addr = lambda a: a.__cuda_array_interface__["data"][0]
    a = ap.empty(100, dtype=np.float32)
    p = addr(a)
    del a
    with ap.cuda.Stream():
        other = ap.empty(100, dtype=np.float32)
        assert addr(other) != p
    b = ap.empty(120, dtype=np.float32)
    assert addr(b) == p
    del b
    ap.cuda.free_cache()
    before = ap.cuda.memory_stats()["allocated_bytes"]
    for _ in range(1000):
        ap.eval(ap.ones(3) + 1)
    assert ap.cuda.memory_stats()["allocated_bytes"] == before
    print("ok")
    """)
    assert out.startswith("ok")
