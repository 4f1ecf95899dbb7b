"""What a host wait for the GPU costs (D101: interruptible waits), in microseconds.

Reads of computed arrays whose work is done (1 element, 1 KiB, 256 KiB, 1 MiB: the bounce
buffer's range), a launch-and-read round trip (`float((x + 1.0).sum())`), `synchronize()` with
nothing queued, and a read behind a kernel that spins for 2 ms (wall time past the kernel's
end, and the CPU time the wait used). Medians of `--samples` runs; run it on two builds on the
same machine to compare.

    python bench/host_wait.py [--samples 2000]
"""

import argparse
import statistics
import time

import numpy as np

import accelpy as ap

SPIN = r"""
extern "C" __global__ void spin(long long ns) {
  long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}"""


def median_us(f, samples):
    for _ in range(100):
        f()
    times = []
    for _ in range(samples):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e6


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--samples", type=int, default=2000)
    args = p.parse_args()
    for n in (1, 256, 1 << 16, 1 << 18):
        a = ap.asarray(np.ones(n, np.float32), device="cuda") + 1.0
        ap.eval(a)
        ap.cuda.synchronize()
        print(f"read {n * 4} B: {median_us(lambda a=a: ap.asnumpy(a), args.samples):.2f} us")
    x = ap.asarray(np.ones(1000, np.float32), device="cuda")
    print(
        f"float((x + 1.0).sum()): {median_us(lambda: float((x + 1.0).sum()), args.samples):.2f} us"
    )
    print(f"synchronize(), idle: {median_us(ap.cuda.synchronize, args.samples):.2f} us")
    spin = ap.RawKernel(SPIN, "spin")
    one = ap.asarray(np.ones(1, np.float32), device="cuda") + 1.0
    late, cpu = [], []
    for _ in range(200):
        ap.cuda.synchronize()
        t, c = time.perf_counter(), time.process_time()
        spin((1,), (1,), (np.int64(2_000_000),))
        ap.asnumpy(one)
        late.append(time.perf_counter() - t - 2e-3)
        cpu.append(time.process_time() - c)
    print(
        f"read behind a 2 ms kernel: {statistics.median(late) * 1e6:.1f} us past its end, "
        f"{statistics.median(cpu) * 1e6:.0f} us of CPU"
    )


if __name__ == "__main__":
    main()
