"""The corpus of public programs (tests/programs) timed under NumPy and accelpy, and on a GPU
also under CuPy, in the same run: each program's import line is rewritten as in the tests
(runner.rewrite_import), and a run counts until its final variables are NumPy values (so
accelpy's deferred work and the device-to-host copies are inside the time). PyTorch has no port
of these programs (they are written against NumPy's API), so its column is absent. A module that
cannot run a program leaves its cell as "-".

    python bench/programs.py [--repeat N] [--out PATH] [--clock wall|thread] [NAME_PREFIX ...]

Prints a ratio table (NumPy's time over each, >1 = faster than NumPy) and, on a GPU, a last
column "vs cupy" (CuPy's time over accelpy's on cuda, >1 = accelpy faster: the only ratio for
the programs written for CuPy, which NumPy cannot run), then each column's geometric mean;
--out writes the times as JSON. --clock thread times the running thread's CPU time (what a
shared machine's waiting does not inflate; worker threads are left out, so run it with
ACCELPY_NUM_THREADS=1 and OPENBLAS_NUM_THREADS=1, or NumPy's BLAS threads leave its column
undercounted). Needs the corpus checkouts (scripts/program-corpus).
"""

import argparse
import functools
import json
import os
import platform
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "programs"))

from corpus_timing import columns, geomean, median_times, program_seconds  # noqa: E402

import runner  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--out", help="write the times (seconds) here as JSON")
    parser.add_argument("--clock", choices=("wall", "thread"), default="wall")
    parser.add_argument("names", nargs="*", help="programs whose name starts with one of these "
                        "(default: every program)")
    args = parser.parse_args()
    _, programs = runner.load_corpus()
    programs = [p for p in programs if not p.xfail
                and (not args.names or p.name.startswith(tuple(args.names)))]
    if any(runner.checkout_dir(p.source) is None for p in programs):
        sys.exit("bench/programs.py: the corpus is not checked out (run scripts/program-corpus)")
    cols = columns()
    times = {}
    warnings.simplefilter("ignore")
    labels = [c[0] for c in cols]
    # Each row is printed once measured, so that a run cut short by a time limit keeps its rows.
    print(f"==== programs: NumPy's time / each ({platform.node()}) ====")
    # (label, numerator column, denominator column) of each ratio printed
    ratios = [(label, "numpy", label) for label in labels[1:]]
    if "cupy" in labels:
        ratios.append(("vs cupy", "cupy", "accelpy cuda"))
    print(f"{'program':16} {'numpy ms':>9} " + " ".join(f"{r[0]:>13}" for r in ratios))
    seen = {r[0]: [] for r in ratios}
    for p in programs:
        fns = {label: functools.partial(program_seconds, p, module, device, args.clock)
               for label, module, device in cols}
        row = {label: t for label, (t, _) in median_times(fns, args.repeat).items()}
        times[p.name] = row
        cells = []
        for label, num, den in ratios:
            r = row[num] / row[den] if row[num] and row[den] else None
            seen[label].append(r)
            cells.append(f"{r:12.2f}x" if r else f"{'-':>13}")
        base = row["numpy"]
        print(f"{p.name:16} {base * 1e3 if base else float('nan'):9.3f} " + " ".join(cells),
              flush=True)
    means = [geomean(seen[r[0]]) for r in ratios]
    print(f"{'geometric mean':26} " + " ".join(f"{m:12.2f}x" if m else f"{'-':>13}"
                                                for m in means))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"host": platform.node(), "columns": labels, "seconds": times}, f, indent=1)


if __name__ == "__main__":
    main()
