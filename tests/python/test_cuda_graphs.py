"""CUDA graph replay (src/cuda/graphs.hpp) gives the bits launching kernel by kernel gives.

Each loop runs twice on fresh copies of the same random inputs: with replay off
(`accelpy.cuda.graphs = False`) and on; the results must be equal bit for bit, and the run with
replay on must have replayed graphs (so a loop that never replays cannot pass). GPU only: the
host path is tested on the fake driver in test_cuda_graphs_host_path.py.
"""

import numpy as np
import pytest

import accelpy as ap

pytestmark = pytest.mark.cuda


def run_both(loop, *inputs):
    """loop(*device copies of inputs) -> list of arrays, with replay off then on."""
    results = {}
    for replay in (False, True):
        ap.fusion.reset_stats()  # a fresh plan cache: each run records from the start
        ap.cuda.graph_stats(reset=True)
        ap.cuda.graphs = replay
        try:
            out = loop(*[ap.asarray(x, device="cuda") for x in inputs])
            results[replay] = [np.asarray(ap.asnumpy(o)) for o in out]
        finally:
            ap.cuda.graphs = True
        stats = ap.cuda.graph_stats()
        if replay:
            assert stats["graph_launches"] > 0, stats
        else:
            assert stats["graph_launches"] == 0, stats
    for off, on in zip(results[False], results[True], strict=True):
        assert off.dtype == on.dtype and off.shape == on.shape
        np.testing.assert_array_equal(off, on)
    return results[True]


# The loop bodies below are also run on the fake driver (test_cuda_graphs_host_path.py), which
# asserts that replay engages in them. Replay records an evaluation of >= 2 kernels only (a
# graph of one node saves nothing over its launch), and since row groups a reduction broadcast
# back into elementwise work is one kernel: each body reads a value computed in the same
# evaluation reversed, which makes a group of its own.


def fields_loop(u, v, steps=30):
    """A time step of two fields: a 5-point Laplacian, an in-place update of v's interior
    (evaluated at once, outside the replayed evaluation), the energy, and u mirrored."""
    energy, mirrored = [], []
    for _ in range(steps):
        lap = (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
               - 4 * u[1:-1, 1:-1])
        v = v * 0.99
        v[1:-1, 1:-1] += 0.1 * lap
        u = u + 0.05 * v
        e = (u * u).sum() + (v * v).sum() * 0.5
        m = u[::-1, ::-1] - v  # reads this step's u reversed: a second kernel
        ap.eval(u, v, e, m)
        energy.append(e)
        mirrored.append(m[0, 0])
    return [u, v, ap.stack(energy), ap.stack(mirrored)]


def apply_operator(d, p):
    """(diag(d) + J / 2) @ p, J the exchange matrix: symmetric, positive definite for d > 1/2.
    Matrix-free: a dense `a @ p` is a library call, which a graph cannot hold."""
    return d * p + 0.5 * p[::-1]


def cg_loop(d, b, steps=25):
    """Conjugate gradients with two host reads per iteration: each read evaluates what is
    pending, the operator's reversed read of p making it two kernels."""
    x = ap.zeros_like(b)
    r = b - apply_operator(d, x)
    p = r
    # Host reads as NumPy scalars: on the fake driver (no values) a zero divides without raising.
    rr = np.float64((r * r).sum())
    residuals = []
    for _ in range(steps):
        ap_ = apply_operator(d, p)
        alpha = rr / np.float64((p * ap_).sum())
        x = x + alpha * p
        r = r - alpha * ap_
        rr_new = np.float64((r * r).sum())  # a host read every iteration
        p = r + (rr_new / rr) * p
        rr = rr_new
        residuals.append(float(rr))
    return [x, r, ap.asarray(np.array(residuals))]


def users_kernel_loop(x, kernel=None, steps=20):
    """An evaluation of two kernels, then (on a GPU) a users' kernel writing x in place."""
    sums = []
    for _ in range(steps):
        y = ap.sqrt(ap.abs(x)) + x * 0.5
        s = (y * y).sum()
        x = y - s * 1e-4 + y[::-1] * 1e-3  # y read reversed: a second kernel
        ap.eval(x, s)
        if kernel is not None:
            # The users' kernel writes x in place between two replayed evaluations.
            kernel(((x.size + 255) // 256,), (256,), (x, np.float32(0.75), np.int32(x.size)))
        sums.append(s)
    return [x, ap.stack(sums)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_time_step_over_several_fields(rng, dtype):
    u0 = rng.standard_normal((64, 96)).astype(dtype)
    v0 = rng.standard_normal((64, 96)).astype(dtype)
    run_both(fields_loop, u0, v0)


def test_conjugate_gradients_with_a_host_read_per_iteration(rng):
    n = 200
    d_np = 1.0 + rng.random(n)
    b_np = rng.standard_normal(n)
    x = run_both(cg_loop, d_np, b_np)[0]
    a_np = np.diag(d_np) + 0.5 * np.eye(n)[::-1]
    np.testing.assert_allclose(a_np @ x, b_np, rtol=1e-6, atol=1e-6)


def test_a_loop_whose_shapes_change(rng):
    sizes = [1000, 4096, 1000, 333, 70000, 1000, 4096, 333, 1000, 70000] * 2
    inputs = [rng.standard_normal(n).astype(np.float32) for n in sorted(set(sizes))]
    by_size = {len(x): i for i, x in enumerate(inputs)}

    def loop(*xs):
        out = []
        acc = ap.zeros((), dtype=np.float32)
        for i, n in enumerate(sizes):
            x = xs[by_size[n]]
            s = (x * x).sum()
            y = x * (i + 0.5) + s * 1e-3 + acc
            acc = y[:7].sum()
            ap.eval(y, s, acc)
            out.append(y)
        return out

    run_both(loop, *inputs)


SCALE = r"""
extern "C" __global__ void scale(float* x, float f, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * f + 1.0f;
}
"""


def test_a_loop_with_a_users_kernel_in_it(rng):
    x0 = rng.standard_normal(5000).astype(np.float32)
    kernel = ap.RawKernel(SCALE, "scale")
    run_both(lambda x: users_kernel_loop(x, kernel), x0)
