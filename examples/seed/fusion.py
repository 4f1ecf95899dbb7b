"""Automatic fusion: a physics-style expression over several large arrays, timed against NumPy.

A damped driven oscillator sampled over many particles, plus a Lennard-Jones pair energy:

    x(t)   = A * exp(-gamma * t) * cos(omega * t + phi)
    E_LJ   = 4 * eps * ((sigma / r)**12 - (sigma / r)**6)

NumPy evaluates every operator in its own pass over memory, with a temporary per step. accelpy
defers the arithmetic and runs each expression as one fused kernel (one pass, no temporaries)
on the GPU or across the CPU's cores, with no decorator and no change to the code: the same
function runs on both libraries.

    python examples/seed/fusion.py [--n 4194304] [--device cpu|cuda]
"""

import argparse
import time

import numpy as np

import accelpy as ap


def physics(xp, amp, gamma, omega, phi, t, r, eps, sigma):
    """Oscillator displacement, its energy, and the total Lennard-Jones energy."""
    x = amp * xp.exp(-gamma * t) * xp.cos(omega * t + phi)
    v = amp * xp.exp(-gamma * t) * (-gamma * xp.cos(omega * t + phi)
                                    - omega * xp.sin(omega * t + phi))
    kinetic = 0.5 * v * v
    potential = 0.5 * (omega * x) ** 2
    sr6 = (sigma / r) ** 6
    lj = (4.0 * eps * (sr6 * sr6 - sr6)).sum()
    return x, kinetic + potential, lj


def best_of(fn, sync, repeat=5):
    fn()
    sync()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return min(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1 << 22, help="particles (default 4M)")
    parser.add_argument("--device", default=None, help="cpu or cuda (default: accelpy's)")
    args = parser.parse_args(argv)
    device = ap.device(args.device) if args.device else ap.get_default_device()
    rng = np.random.default_rng(0)
    n = args.n
    host = dict(amp=rng.uniform(0.5, 2.0, n), gamma=rng.uniform(0.01, 0.5, n),
                omega=rng.uniform(1.0, 10.0, n), phi=rng.uniform(0, 2 * np.pi, n),
                t=rng.uniform(0, 5.0, n), r=rng.uniform(0.9, 3.0, n))
    host = {k: v.astype(np.float32) for k, v in host.items()}
    eps, sigma = 0.8, 1.0
    dev = {k: ap.asarray(v, device=device) for k, v in host.items()}

    def run_np():
        return physics(np, eps=eps, sigma=sigma, **host)

    def run_ap():
        out = physics(ap, eps=eps, sigma=sigma, **dev)
        ap.eval(*out)
        return out

    sync = ap.cuda.synchronize if str(device).startswith("cuda") else (lambda: None)
    got = [ap.asnumpy(v) for v in run_ap()]
    want = run_np()
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=2e-3, atol=2e-3 * float(np.max(np.abs(w))))
    # A new fused kernel first runs from a quick build while its optimized build compiles.
    ap.cuda.wait_for_optimized_kernels()
    t_np = best_of(run_np, lambda: None)
    t_ap = best_of(run_ap, sync)
    with ap.debug_fusion(stream=None) as log:
        run_ap()
    print(f"{n:,} particles, float32, accelpy on {device}")
    print(f"  NumPy    {t_np * 1e3:8.2f} ms")
    print(f"  accelpy  {t_ap * 1e3:8.2f} ms   ({len(log)} fused kernels for "
          f"{sum(len(r['ops']) for r in log)} operations)")
    print(f"  speedup  {t_np / t_ap:8.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
