"""Users' CUDA C kernels on the CPU device, beside NumPy (cases for bench/cpu.py), and their
compile times: run alone it prints the seed's add kernel, a tiled (shared memory, barriers: run
by regions) and a naive (no barriers: a plain loop over a block's threads) 512 x 512 matrix
multiply in GFLOP/s per core, counted both by wall time over the pool's threads and by the
process's CPU time (steadier on a shared machine), the tiled kernel again with its barrier in a
__device__ function (which keeps the fibers) for comparison, the first launch of a new kernel
(compile included) and a disk-cache hit in a new process. Times are medians, accelpy's and
NumPy's calls alternating.

    python bench/cpu_kernels.py
"""

import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import accelpy as ap

ADD = r"""
extern "C" __global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""

MATMUL = r"""
#define TILE 16
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int n) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
        As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = acc;
}
"""

NAIVE_MATMUL = r"""
extern "C" __global__ void matmul_naive(const float* A, const float* B, float* C, int n) {
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n || col >= n) return;
    float acc = 0.0f;
    for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
}
"""

# The same kernel with its barrier in a __device__ function: not run by regions, but as fibers.
MATMUL_FIBERS = MATMUL.replace("__syncthreads()", "sync_block()").replace(
    "#define TILE 16", "#define TILE 16\n__device__ void sync_block() { __syncthreads(); }")

MATMUL_N = 512


def cases(rng, n=1 << 24):
    """(name, bytes moved, accelpy fn, NumPy fn, numexpr expression) for bench/cpu.py."""
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    a_ap, b_ap = ap.asarray(a, device="cpu"), ap.asarray(b, device="cpu")
    c_ap = ap.empty_like(a_ap)
    add = ap.RawKernel(ADD, "add")
    grid = ((n + 255) // 256,)

    def add_kernel():
        add(grid, (256,), (a_ap, b_ap, c_ap, np.int32(n)))

    m = MATMUL_N
    x = rng.standard_normal((m, m), dtype=np.float32)
    y = rng.standard_normal((m, m), dtype=np.float32)
    x_ap, y_ap = ap.asarray(x, device="cpu"), ap.asarray(y, device="cpu")
    z_ap = ap.empty((m, m), dtype=ap.float32, device="cpu")
    mm = ap.RawKernel(MATMUL, "matmul")
    naive = ap.RawKernel(NAIVE_MATMUL, "matmul_naive")

    def matmul_kernel():
        mm((m // 16, m // 16), (16, 16), (x_ap, y_ap, z_ap, np.int32(m)))

    def naive_matmul_kernel():
        naive((m // 16, m // 16), (16, 16), (x_ap, y_ap, z_ap, np.int32(m)))

    return [
        ("raw kernel add 16M f32", 3 * 4 * n, add_kernel, lambda: a + b, None),
        (f"raw kernel tiled matmul {m} f32", 3 * 4 * m * m, matmul_kernel, lambda: x @ y, None),
        (f"raw kernel naive matmul {m} f32", 3 * 4 * m * m, naive_matmul_kernel, lambda: x @ y,
         None),
    ]


# The array is made before the clock starts: the first array of a process starts the CPU
# device (and looks for a CUDA driver), which is not the kernel's cost.
_FRESH = r"""
import resource, time, numpy as np, accelpy as ap
code = %r
x = ap.asarray(np.zeros(256, np.float32), device="cpu")
t0 = time.perf_counter()
k = ap.RawKernel(code, "add")
k((1,), (256,), (x, x, x, np.int32(256)))
t = time.perf_counter() - t0
c = resource.getrusage(resource.RUSAGE_CHILDREN)
print(t, c.ru_utime + c.ru_stime)
"""


def first_launch_times(runs=3):
    """Medians of: seconds of a new kernel's first launch in a new process, compile included;
    CPU seconds its compiler processes took (what the machine's load does not stretch); seconds
    of the same launch in a new process finding it in the disk cache. Each run compiles a kernel
    never compiled before, in a cache directory of its own."""
    first, compiler, hit = [], [], []
    env = dict(os.environ)
    for _ in range(runs):
        code = ADD + f"// {time.time_ns()}\n"  # a kernel never compiled before
        with tempfile.TemporaryDirectory() as d:
            env["ACCELPY_CACHE_DIR"] = d
            out = [[float(v) for v in subprocess.run(
                       [sys.executable, "-c", _FRESH % code], env=env, check=True,
                       capture_output=True, text=True).stdout.split()]
                   for _ in range(3)]
        first.append(out[0][0])
        compiler.append(out[0][1])
        hit += [o[0] for o in out[1:]]
    return tuple(sorted(v)[len(v) // 2] for v in (first, compiler, hit))


def main():
    rng = np.random.default_rng(0)
    threads = ap._core._num_threads()
    for name, _, f_ap, f_np, _ in cases(rng):
        f_ap()
        f_np()
        t_ap, t_np = _medians(f_ap, f_np)
        line = f"{name:34} accelpy {t_ap * 1e3:8.2f} ms  numpy {t_np * 1e3:8.2f} ms"
        if "matmul" in name:
            flop = 2 * MATMUL_N ** 3
            cpu = sorted(_cpu_timed(f_ap) for _ in range(7))[3]
            line += (f"  {flop / t_ap / 1e9:.2f} GFLOP/s ({flop / t_ap / 1e9 / threads:.2f} per "
                     f"core; {flop / cpu / 1e9:.2f} per CPU-second)")
        else:
            line += f"  {t_np / t_ap:.2f}x NumPy"
        print(line)
    m = MATMUL_N
    x = ap.asarray(rng.standard_normal((m, m), dtype=np.float32), device="cpu")
    z = ap.empty((m, m), dtype=ap.float32, device="cpu")
    kernels = {"regions": ap.RawKernel(MATMUL, "matmul"),
               "fibers": ap.RawKernel(MATMUL_FIBERS, "matmul")}
    for k in kernels.values():
        k((m // 16, m // 16), (16, 16), (x, x, z, np.int32(m)))  # compiled, warmed up
    rates = {name: [] for name in kernels}
    for _ in range(5):  # alternating, so that the machine's load falls on both alike
        for name, k in kernels.items():
            rates[name].append(2 * m**3 / _cpu_timed(
                lambda k=k: k((m // 16, m // 16), (16, 16), (x, x, z, np.int32(m)))) / 1e9)
    print("tiled matmul GFLOP per CPU-second, 5 runs: " + "; ".join(
        f"{name} " + " ".join(f"{r:.2f}" for r in rs) for name, rs in rates.items()))
    first, compiler, hit = first_launch_times()
    print(f"first launch of a new kernel: {first * 1e3:.0f} ms ({compiler * 1e3:.0f} ms of CPU in "
          f"the compiler); disk-cache hit in a new process: {hit * 1e3:.1f} ms (medians)")


def _medians(f_ap, f_np, runs=9):
    """Median seconds of each, their calls alternating so that the machine's load falls on both
    alike."""
    t_ap, t_np = [], []
    for _ in range(runs):
        t_ap.append(_timed(f_ap))
        t_np.append(_timed(f_np))
    return sorted(t_ap)[runs // 2], sorted(t_np)[runs // 2]


def _timed(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _cpu_timed(fn):
    """The process's CPU time for one call: what a core spent, whatever else the machine ran."""
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


if __name__ == "__main__":
    main()
