"""Ctrl-C while the host waits for a long kernel on a real GPU: KeyboardInterrupt within half a
second of the signal, the kernel runs on to its end, and the library works afterwards
(src/cuda/driver/wait.cpp; the same on the fake driver: test_cuda_interrupt_host_path.py)."""

import os
import subprocess
import sys
import textwrap

import pytest

import accelpy as ap

pytestmark = pytest.mark.cuda

# One thread spins on the GPU's nanosecond timer for 3 s, then writes 1.
PROGRAM = """
    import os, signal, subprocess, sys, time
    import numpy as np, accelpy as ap
    signal.signal(signal.SIGINT, signal.default_int_handler)
    spin = ap.RawKernel(r'''
    extern "C" __global__ void spin(long long ns, int* out) {
      long long start, now;
      asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
      do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
      } while (now - start < ns);
      out[0] = 1;
    }''', "spin")
    out = ap.zeros(1, dtype=np.int32, device="cuda")
    ap.cuda.synchronize()
    spin((1,), (1,), (np.int64(3_000_000_000), out))
    queued = time.perf_counter()
    # SIGINT from another process, as a terminal's Ctrl-C (a thread of ours would need the GIL,
    # which a host read keeps while it waits); it prints when it sent the signal.
    killer = subprocess.Popen([sys.executable, "-c", "import os, signal, time; "
        f"time.sleep(0.3); t = time.perf_counter(); os.kill({os.getpid()}, signal.SIGINT); "
        "print(t, flush=True)"], stdout=subprocess.PIPE, text=True)
    try:
        WAIT
        print("finished", time.perf_counter() - queued)
    except KeyboardInterrupt:
        print("interrupted", time.perf_counter() - float(killer.stdout.readline()))
    killer.wait()
    # The kernel went on: the next read waits for its end and sees what it wrote.
    print("after", int(out[0]), time.perf_counter() - queued)
    print("works", float(ap.ones(10, device="cuda").sum()))
"""


@pytest.mark.parametrize("wait", [
    pytest.param("int(out[0])", marks=pytest.mark.xfail(strict=True, reason=(
        "the first one-element host read behind a running kernel blocks in a driver call "
        "before its wait (H100, 2026-12-07: KeyboardInterrupt 1.65-2.6 s after the signal, its "
        "wait counted fast; a second such read is interrupted within 2 ms); D113"))),
    "ap.cuda.synchronize()",
])
def test_sigint_interrupts_a_wait_for_a_long_kernel(wait):
    assert ap.cuda.is_available()
    code = textwrap.dedent(PROGRAM).replace("WAIT", wait)
    env = dict(os.environ, ACCELPY_DEFAULT_DEVICE="cuda")
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert r.returncode == 0, r.stdout + r.stderr
    lines = [line.split() for line in r.stdout.splitlines()]
    assert lines[0][0] == "interrupted", r.stdout
    assert float(lines[0][1]) < 0.5, r.stdout
    assert lines[1][:2] == ["after", "1"] and float(lines[1][2]) >= 2.9, r.stdout
    assert lines[2] == ["works", "10.0"], r.stdout
