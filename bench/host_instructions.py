"""Instructions per operation of bench/host.py's and bench/dispatch.py's loops (callgrind).

Wall time on a shared machine moves with the load; instruction counts do not. Each case runs
under `valgrind --tool=callgrind` twice, with two step counts, and the difference of the two
totals divided by the extra steps is the cost of one step: import, setup and the first
evaluations cancel out. The same is done with NumPy in place of accelpy. The `import` case is
the whole process `python -c "import accelpy"` minus `python -c pass`.

    python bench/host_instructions.py                 # bench/host.py's cases, accelpy and NumPy
    python bench/host_instructions.py scale10 sqrt1000  # some cases
    python bench/host_instructions.py dispatch        # bench/dispatch.py's cases and import
    python bench/host_instructions.py dispatch --build old=DIR --build new=DIR --json FILE
    python bench/host_instructions.py eval_add --build old=DIR --build new=DIR --functions 30
    python bench/host_instructions.py --run CASE LIB STEPS  # one run (what valgrind executes)

`--build LABEL=DIR` counts the accelpy installed in DIR (`pip install --target DIR`, e.g. an
`-Ccmake.define.ACCEL_CPU_ARCH=x86-64-v3` build of another commit: valgrind cannot run an
AVX-512 build) in a column of its own; builds are counted in turn, case by case.
`--fake-cuda` runs the dispatch cases on the CUDA backend's host path over
bench/fake_cuda_driver.c (no GPU needed; its launches do nothing).
"""

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

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
    # bench/dispatch.py's cases, on one-element float32 arrays.
    "lazy_add": ("instr/op", (2000, 6000), 1),
    "eval_add": ("instr/op", (1000, 3000), 1),
    "eval_chain": ("instr/op", (1000, 3000), 1),
    "ap_add": ("instr/op", (2000, 6000), 1),
    "core_add": ("instr/op", (2000, 6000), 1),
    "import": ("instr", None, None),
}

GROUPS = {
    "host": ["scale10", "scale1000", "sqrt1000", "life64", "cabs1000", "hypot1000", "exp1000"],
    "dispatch": ["lazy_add", "eval_add", "eval_chain", "ap_add", "core_add", "import"],
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
    if name in GROUPS["dispatch"]:
        return dispatch_body(name, xp, steps)
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


def dispatch_body(name, xp, steps):
    """bench/dispatch.py's cases: `a + b` (the lazy node), `eval(a + b)`, `eval((a + b) * a - b)`,
    `add(a, b)` (the ufunc, or the function it was) and `_core.add(a, b)` (the bound function)."""
    na, nb = np.float32([0.5]), np.float32([1.5])
    device = os.environ.get("HOST_INSTRUCTIONS_DEVICE")
    # accelpy's own copies: an operand in memory NumPy still references is read at the call,
    # so every op on it would be evaluated at once, however it is written.
    a, b = (v if xp is np else xp.asarray(v, device=device, copy=True) for v in (na, nb))
    evaluate = (lambda x: x) if xp is np else xp.eval
    add = xp.add if name == "ap_add" or xp is np else xp._core.add
    for _ in range(steps):
        if name == "lazy_add":
            a + b
        elif name == "eval_add":
            evaluate(a + b)
        elif name == "eval_chain":
            evaluate((a + b) * a - b)
        else:
            add(a, b)
    return float(((a + b) * a - b)[0])


def count(name, lib, steps, env=None, command=None, functions=False):
    """Total instructions of one run (callgrind): `--run name lib steps` of this script, or
    `command` (the arguments after the interpreter). With `functions`, also each function's own
    instructions (callgrind_annotate), as a dict."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "cg.out")
        env = dict(env or os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1")
        command = command or [__file__, "--run", name, lib, str(steps)]
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable]
            + command,
            env=env,
            check=True,
            capture_output=True,
        )
        with open(out) as f:
            text = f.read()
        total = int(re.search(r"^(?:summary|totals): (\d+)", text, re.M).group(1))
        if not functions:
            return total
        annotated = subprocess.run(
            ["callgrind_annotate", "--inclusive=no", "--threshold=100", out],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        own = {}
        for line in annotated.splitlines():
            m = re.match(r"\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*:.*)$", line)
            if m:
                # Builds installed in different places name the same object alike; functions
                # without a symbol (addresses) are summed per object.
                fn = re.sub(r"\[\S*/accelpy/", "[accelpy/", m.group(2))
                fn = re.sub(r"\?\?\?:0x[0-9a-f]+", "???", fn)
                own[fn] = own.get(fn, 0) + int(m.group(1).replace(",", ""))
        return total, own


def per_step(name, lib, env, functions=False):
    """Instructions of one step of case `name` (for `import`: of the import, whole process);
    with `functions`, also each function's own instructions per step."""
    unit, steps, ops = CASES[name]
    if name == "import":
        return count(name, lib, 0, env, ["-c", f"import {lib}"]) - count(
            name, lib, 0, env, ["-c", "pass"]
        )
    short, long = steps
    per = (long - short) * ops
    if not functions:
        return (count(name, lib, long, env) - count(name, lib, short, env)) / per
    (t1, f1), (t2, f2) = (count(name, lib, n, env, functions=True) for n in (short, long))
    return (t2 - t1) / per, {fn: (f2.get(fn, 0) - f1.get(fn, 0)) / per for fn in {*f1, *f2}}


def print_function_changes(name, cols, own, most):
    """The functions whose instructions per step changed most from the first column to each
    other one (symbols of unexported functions need an unstripped build)."""
    base_label = cols[0][0]
    for label, _, _ in cols[1:]:
        a, b = own[base_label], own[label]
        change = {fn: b.get(fn, 0) - a.get(fn, 0) for fn in {*a, *b}}
        print(f"  {name}: functions, {base_label} -> {label} (instructions per step)")
        for fn in sorted(change, key=lambda f: -abs(change[f]))[:most]:
            print(f"    {a.get(fn, 0):9.0f} {b.get(fn, 0):9.0f} {change[fn]:+9.0f}  {fn[:120]}")


def columns(args, fake_driver):
    """(label, lib, environment) of each column: accelpy (the installed one, or each --build)
    and NumPy, as --lib asks."""
    out = []
    for lib in args.lib.split(","):
        if lib != "accelpy" or not args.build:
            out.append((lib, lib, dict(os.environ)))
            continue
        for build in args.build:
            label, _, path = build.partition("=")
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join(
                p for p in (os.path.abspath(path), env.get("PYTHONPATH")) if p
            )
            out.append((label, lib, env))
    if fake_driver:
        for _, lib, env in out:
            if lib == "accelpy":
                env.update(
                    ACCELPY_CUDA_DRIVER=fake_driver,
                    HOST_INSTRUCTIONS_DEVICE="cuda",
                    ACCELPY_CACHE_DIR=os.path.join(os.path.dirname(fake_driver), "cache"),
                )
    return out


def build_fake_driver(directory):
    lib = os.path.join(directory, "libcuda.so.1")
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_cuda_driver.c")
    subprocess.run(
        [os.environ.get("CC", "cc"), "-O2", "-shared", "-fPIC", "-o", lib, src], check=True
    )
    return lib


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("cases", nargs="*", help=f"groups ({', '.join(GROUPS)}) or cases")
    p.add_argument("--run", nargs=3, metavar=("CASE", "LIB", "STEPS"), help=argparse.SUPPRESS)
    p.add_argument("--lib", default="accelpy,numpy", help="accelpy, numpy or both")
    p.add_argument(
        "--build",
        action="append",
        metavar="LABEL=DIR",
        help="count the accelpy installed in DIR (repeatable: a column each)",
    )
    p.add_argument(
        "--fake-cuda",
        action="store_true",
        help="accelpy's dispatch cases on the CUDA host path (bench/fake_cuda_driver.c)",
    )
    p.add_argument("--json", metavar="FILE", help="also write the counts to FILE")
    p.add_argument(
        "--functions",
        type=int,
        default=0,
        metavar="N",
        help="also list the N functions whose count per step changed most from the "
        "first column to each other one (callgrind_annotate, self cost)",
    )
    args = p.parse_args(argv)
    if args.run:
        name, lib, steps = args.run
        if lib == "accelpy":
            import accelpy as xp
        else:
            xp = np
        body(name, xp, int(steps))
        return 0
    names = [n for c in (args.cases or ["host"]) for n in GROUPS.get(c, [c])]
    unknown = [n for n in names if n not in CASES]
    if unknown:
        p.error(f"unknown cases {unknown}: choose from {', '.join([*GROUPS, *CASES])}")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        cols = columns(args, build_fake_driver(tmp) if args.fake_cuda else None)
        for name in names:
            unit = CASES[name][0]
            row = {"case": name, "unit": unit}
            own = {}
            for label, lib, env in cols:
                if args.fake_cuda and name != "import":
                    # Compiles the case's kernels into the disk cache first: NVRTC's work must
                    # not fall into one of the two counted runs only.
                    subprocess.run(
                        [sys.executable, __file__, "--run", name, lib, "1"],
                        env=env,
                        check=True,
                        capture_output=True,
                    )
                if args.functions and name != "import":
                    per, own[label] = per_step(name, lib, env, functions=True)
                else:
                    per = per_step(name, lib, env)
                row[label] = round(per)
            results.append(row)
            cells = "  ".join(f"{label} {row[label]:12,}" for label, _, _ in cols)
            print(f"{name:<10}  {cells}  {unit}", flush=True)
            if own and len(cols) > 1:
                print_function_changes(name, cols, own, args.functions)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {
                    "date": time.strftime("%Y-%m-%d", time.gmtime()),
                    "tool": "bench/host_instructions.py (callgrind; PYTHONHASHSEED=0, "
                    "OPENBLAS_NUM_THREADS=1)",
                    "machine": platform.processor() or platform.machine(),
                    "device": "cuda (fake driver)" if args.fake_cuda else "cpu",
                    "numpy": np.__version__,
                    "builds": dict(b.partition("=")[::2] for b in args.build or []),
                    "results": results,
                },
                f,
                indent=1,
            )
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
