"""What the GPU benchmarks share: the peers (PyTorch and CuPy, None where missing or without a
GPU), timers (event-timed medians of one library, host microseconds per call), bandwidth, and
the environment of a process whose kernel caches are empty."""

import os
import statistics
import time

import accelpy as ap

try:
    import torch
    if not torch.cuda.is_available():
        torch = None
except Exception:  # noqa: BLE001 - any import problem means "not measured"
    torch = None
try:
    import cupy
except Exception:  # noqa: BLE001
    cupy = None

REPS = 20
WARMUP = 3


def median_ms(run, start, end, sync, reps=REPS, elapsed=lambda s, e: s.elapsed_time(e),
              host_us=None):
    """Median milliseconds of run() between two events of one library. A list given as host_us
    gets the median of the host's microseconds in run(), the part of that figure the device may
    have waited for."""
    for _ in range(WARMUP):
        run()
    sync()
    times, host = [], []
    for _ in range(reps):
        s, e = start(), end()
        s.record()
        t0 = time.perf_counter()
        run()
        host.append((time.perf_counter() - t0) * 1e6)
        e.record()
        e.synchronize()
        times.append(elapsed(s, e))
    if host_us is not None:
        host_us.append(statistics.median(host))
    return statistics.median(times)


def pipelined_ms(run, start, end, sync, k=20, elapsed=lambda s, e: s.elapsed_time(e)):
    """Median milliseconds per run() of k runs queued back to back between two events: the
    device's time once the host keeps ahead of it. median_ms also counts the host's work
    between the start event and the first launch, all of it for a lazy library, whose one
    launch comes after the whole expression is built. Also returns the host's microseconds per
    run() in those loops (building, planning, launching), which median_ms's figure exceeds the
    device's by."""
    for _ in range(WARMUP):
        run()
    sync()
    times, host = [], []
    for _ in range(5):
        s, e = start(), end()
        s.record()
        t0 = time.perf_counter()
        for _ in range(k):
            run()
        host.append((time.perf_counter() - t0) / k * 1e6)
        e.record()
        e.synchronize()
        times.append(elapsed(s, e) / k)
    return statistics.median(times), statistics.median(host)


def timer_ap(run, host_us=None, reps=REPS):
    # A new elementwise kernel first runs from a quick build; time its optimized build.
    run()
    ap.cuda.wait_for_optimized_kernels()
    return median_ms(run, ap.cuda.Event, ap.cuda.Event, ap.cuda.synchronize, reps=reps,
                     host_us=host_us)


def torch_event():
    return torch.cuda.Event(enable_timing=True)


def timer_torch(run, reps=REPS):
    if torch is None:
        return None
    return median_ms(run, torch_event, torch_event, torch.cuda.synchronize, reps=reps)


def timer_cupy(run, reps=REPS):
    if cupy is None:
        return None
    return median_ms(run, cupy.cuda.Event, cupy.cuda.Event, cupy.cuda.runtime.deviceSynchronize,
                     reps=reps, elapsed=cupy.cuda.get_elapsed_time)


def gbps(nbytes, ms):
    return None if ms is None else nbytes / (ms * 1e-3) / 1e9


def per_op_us(run, sync, reps):
    """Host microseconds per call of run() (queued, not synchronized) after 100 warm-up calls."""
    for _ in range(100):
        run()
    sync()
    t0 = time.perf_counter()
    for _ in range(reps):
        run()
    t1 = time.perf_counter()
    sync()
    return (t1 - t0) / reps * 1e6


def burst_us(run, sync, burst=256, bursts=100):
    """Host microseconds per call of run() in bursts shorter than the driver's launch queue,
    synchronized between bursts (not timed): no call waits for the GPU to drain the queue, so
    this is the host's own cost even when the GPU runs tiny kernels slower than they are queued."""
    for _ in range(burst):
        run()
    samples = []
    for _ in range(bursts):
        sync()
        t0 = time.perf_counter()
        for _ in range(burst):
            run()
        samples.append((time.perf_counter() - t0) / burst * 1e6)
    sync()
    return statistics.median(samples)


def empty_cache_env(d):
    """The environment of a process whose kernel caches are empty: accelpy's, and the CUDA
    driver's compute cache, where NVRTC 12.9+ keeps what it compiled (a program compiled by an
    earlier process, a test run's for instance, comes back from it in ~15 ms on the H200)."""
    os.makedirs(os.path.join(d, "driver"))
    return dict(os.environ, ACCELPY_CACHE_DIR=os.path.join(d, "accelpy"),
                CUDA_CACHE_PATH=os.path.join(d, "driver"))
