"""The corpus's loop programs (tests/programs/loops.py: public NumPy programs that loop over small
and medium arrays) timed under NumPy and under accelpy on the CPU, and on a GPU under accelpy
and CuPy (the same import swap), in the same run. Each time is the median of --repeat runs
after one warm-up run (compiles, caches, the inputs a program builds once), the columns' runs
interleaved (the machine's load changes fall on all of them), and a run counts
until its final variables are NumPy values (deferred work and device-to-host copies inside;
the scratch directory the harness makes for a program outside: corpus_timing.py).

    python bench/host_corpus.py [--repeat N] [--only NAME]... [--out PATH] [--smoke]
                                [--clock wall|thread]

Prints NumPy's time over each (>1 = faster than NumPy), per program and as a geometric mean;
the CPU targets (issue 31): geometric mean >= 1.2x, no program < 0.9x. --smoke (CI): one timed
run each, no targets. --out writes the times as JSON. --clock thread times the running thread's
CPU time (what a loaded machine's waiting does not inflate; the CPU pool's other threads are
left out, so accelpy's parallel work is undercounted). Needs the corpus checkouts
(scripts/program-corpus).
"""

import argparse
import datetime
import functools
import json
import os
import platform
import sys
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "programs"))

import numpy as np  # noqa: E402
from corpus_timing import columns, geomean, median_times, program_seconds  # noqa: E402
from loops import LOOP_PROGRAMS  # noqa: E402

import accelpy as ap  # noqa: E402
import runner  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--only", action="append", default=[], metavar="NAME")
    parser.add_argument("--out", help="write the times (seconds) here as JSON")
    parser.add_argument("--smoke", action="store_true", help="one timed run each (CI)")
    parser.add_argument("--clock", choices=("wall", "thread"), default="wall")
    args = parser.parse_args()
    programs = [runner.Program(meta={}, **p) for p in LOOP_PROGRAMS
                if not args.only or p["name"] in args.only]
    if any(runner.checkout_dir(p.source) is None for p in programs):
        sys.exit("bench/host_corpus.py: the corpus is not checked out (run scripts/program-corpus)")
    repeat = 1 if args.smoke else args.repeat
    cols = columns()
    times, spread = {}, {}
    warnings.simplefilter("ignore")
    for p in programs:
        fns = {label: functools.partial(program_seconds, p, module, device, args.clock)
               for label, module, device in cols}
        measured = median_times(fns, repeat)
        times[p.name] = {label: t for label, (t, _) in measured.items()}
        spread[p.name] = {label: s for label, (_, s) in measured.items()}
        print(f"  {p.name}: " + ", ".join(
            f"{k} {v * 1e3:.1f} ms" for k, v in times[p.name].items() if v), flush=True)
    labels = [c[0] for c in cols]
    ratios = {name: {label: row["numpy"] / row[label] if row[label] and row["numpy"] else None
                     for label in labels[1:]} for name, row in times.items()}
    means = {label: geomean([r[label] for r in ratios.values()]) for label in labels[1:]}
    print(f"==== loop programs: NumPy's time / each ({platform.node()}) ====")
    print(f"{'program':26} {'numpy ms':>9} " + " ".join(f"{x:>13}" for x in labels[1:]))
    for name, row in times.items():
        cells = [f"{ratios[name][label]:12.2f}x" if ratios[name][label] else f"{'-':>13}"
                 for label in labels[1:]]
        base = row["numpy"]
        print(f"{name:26} {base * 1e3 if base else float('nan'):9.2f} " + " ".join(cells))
    print(f"{'geometric mean':26} {'':9} " + " ".join(
        f"{means[label]:12.2f}x" if means[label] else f"{'-':>13}" for label in labels[1:]))
    cpu = [r["accelpy cpu"] for r in ratios.values() if r["accelpy cpu"]]
    if cpu and not args.smoke:
        print(f"CPU targets: geometric mean >= 1.20x (is {means['accelpy cpu']:.2f}x), none "
              f"< 0.90x ({sum(r < 0.9 for r in cpu)} of {len(cpu)} are)")
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                       "host": platform.node(), "cores": os.cpu_count(),
                       "load_avg": os.getloadavg(), "repeat": repeat, "clock": args.clock,
                       "versions": {"accelpy": ap.__version__, "numpy": np.__version__,
                                    "python": platform.python_version()},
                       "columns": labels, "seconds": times, "spread": spread,
                       "ratio": ratios, "geomean": means}, f, indent=1)


if __name__ == "__main__":
    main()
