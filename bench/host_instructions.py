"""Instructions per operation of bench/host.py's loops, counted by callgrind.

Wall time on a shared machine moves with the load; instruction counts do not. Each case runs
under `valgrind --tool=callgrind` twice, with two step counts, and the difference of the two
totals divided by the extra steps is the cost of one step: import, setup and the first
evaluations cancel out. The same is done with NumPy in place of accelpy.

    python bench/host_instructions.py                 # every case, accelpy and NumPy
    python bench/host_instructions.py scale10 sqrt1000  # some cases
    python bench/host_instructions.py --run CASE LIB STEPS  # one run (what valgrind executes)
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

# name: (unit, steps of the short and long run, ops per step)
CASES = {
    "scale10": ("instr/op", (1024, 3072), 2),
    "scale1000": ("instr/op", (1024, 3072), 2),
    "sqrt1000": ("instr/iter", (200, 600), 1),
    "life64": ("instr/step", (10, 30), 1),
    "cabs1000": ("instr/op", (200, 600), 1),
    "hypot1000": ("instr/op", (200, 600), 1),
    "exp1000": ("instr/op", (200, 600), 1),
}


def body(name, xp, steps):
    """Runs `steps` steps of case `name` with the module xp, reading the result at the end."""
    if name.startswith("scale"):
        n = int(name[5:])
        y = xp.asarray(np.linspace(0, 1, n, dtype=np.float32))
        for _ in range(steps):
            y = y * 0.999 + 0.001
        return float(y.sum())
    if name == "sqrt1000":
        y = xp.asarray(np.linspace(0, 1, 1000, dtype=np.float32))
        total = 0.0
        for _ in range(steps):
            y = xp.sqrt(y * y + 1) - 1
            total += float(y.sum())
        return total
    if name == "life64":
        rng = np.random.default_rng(7)
        z = xp.asarray((rng.random((64, 64)) < 0.3).astype(np.int64))
        for _ in range(steps):
            n = sum(
                xp.roll(xp.roll(z, i, 0), j, 1) for i in (-1, 0, 1) for j in (-1, 0, 1) if i or j
            )
            z = ((n == 3) | ((z == 1) & (n == 2))).astype(xp.int64)
        return int(z.sum())
    rng = np.random.default_rng(3)
    if name == "cabs1000":
        a = xp.asarray((rng.random(1000) + 1j * rng.random(1000)).astype(np.complex128))
        return float(sum(float(xp.abs(a)[0]) for _ in range(steps)))
    x = xp.asarray(rng.random(1000))
    if name == "hypot1000":
        return float(sum(float(xp.hypot(x, x)[0]) for _ in range(steps)))
    if name == "exp1000":
        return float(sum(float(xp.exp(x)[0]) for _ in range(steps)))
    raise KeyError(name)


def count(name, lib, steps):
    """Total instructions of one run (callgrind)."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1")
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--run",
                name,
                lib,
                str(steps),
            ],
            env=env,
            check=True,
            capture_output=True,
        )
        with open(out) as f:
            text = f.read()
        m = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
        return int(m.group(1))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("cases", nargs="*", help=f"some of {', '.join(CASES)}")
    p.add_argument("--run", nargs=3, metavar=("CASE", "LIB", "STEPS"), help=argparse.SUPPRESS)
    p.add_argument("--lib", default="accelpy,numpy", help="accelpy, numpy or both")
    args = p.parse_args(argv)
    if args.run:
        name, lib, steps = args.run
        if lib == "accelpy":
            import accelpy as xp
        else:
            xp = np
        body(name, xp, int(steps))
        return 0
    for name in args.cases or CASES:
        unit, (short, long), ops = CASES[name]
        row = [f"{name:<10}"]
        for lib in args.lib.split(","):
            per = (count(name, lib, long) - count(name, lib, short)) / ((long - short) * ops)
            row.append(f"{lib} {per:10,.0f}")
        print("  ".join(row), unit, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
