"""Consecutive runs of corpus programs on one device, each run's cost apart: wall and thread
time, the kernels compiled (quick builds and disk hits), the optimized builds swapped in, the
plan-cache misses and the CUDA graph launches of that run. bench/programs.py takes a median of
a few runs after one warm-up; a program whose later runs still compile, plan or swap kernels
pays for it there. decisions.md D103.

    python bench/program_runs.py [--device cuda] [--runs N] [--numpy] NAME...

--numpy: NumPy's time for one run of each program first, for the ratio. --between: a NumPy run
and an accelpy CPU run before each run, as bench/programs.py interleaves its columns (what other
work allocates in between moves where a run's nodes and buffers land).
"""

import argparse
import os
import sys
import time
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "programs"))

from loops import LOOP_PROGRAMS  # noqa: E402

import accelpy as ap  # noqa: E402
import runner  # noqa: E402


def counters(device):
    s = ap.fusion.stats()
    out = {"plan misses": s["plan_cache_misses"]}
    if device.startswith("cuda"):
        k = ap.cuda.kernel_cache_stats()
        out["compiled"] = k["compiled"] + k["disk_hits"]
        out["swapped"] = k["upgraded"]
        out["graph launches"] = ap.cuda.graph_stats()["graph_launches"]
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--numpy", action="store_true")
    parser.add_argument("--between", action="store_true")
    parser.add_argument("names", nargs="+")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    known = {p["name"]: p for p in LOOP_PROGRAMS}
    for name in args.names:
        if name not in known:
            sys.exit(f"bench/program_runs.py: no loop program {name!r}")
        program = runner.Program(meta={}, **known[name])
        if args.numpy:
            print(
                f"{name}: numpy {1e3 * runner.run_program(program, 'numpy', None).seconds:.2f} ms"
            )
        for i in range(args.runs):
            if args.between:
                runner.run_program(program, "numpy", None)
                runner.run_program(program, "accelpy", "cpu")
            before = counters(args.device)
            start = time.perf_counter()
            try:
                run = runner.run_program(program, "accelpy", args.device)
            except Exception as e:  # the fake driver's garbage values (sizes, indices)
                print(f"{name} run {i}: {type(e).__name__}: {str(e)[:80]}")
                break
            wall = time.perf_counter() - start
            after = counters(args.device)
            moved = ", ".join(f"{k} {after[k] - before[k]}" for k in after)
            print(
                f"{name} run {i}: {1e3 * run.seconds:.2f} ms "
                f"(thread {1e3 * run.thread_seconds:.2f}, with the harness {1e3 * wall:.1f}); "
                f"{moved}",
                flush=True,
            )


if __name__ == "__main__":
    main()
