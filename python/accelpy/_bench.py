"""python -m accelpy bench: runs the benchmark scripts of a source checkout."""

import os
import runpy
import sys


def run(args):
    here = os.path.dirname(os.path.abspath(__file__))
    for root in (os.path.join(here, "..", ".."), os.getcwd()):
        script = os.path.join(root, "bench", "cpu.py")
        if os.path.exists(script):
            sys.argv = [script, *args]
            runpy.run_path(script, run_name="__main__")
            return 0
    print("bench/cpu.py not found: run from a source checkout of accelpy", file=sys.stderr)
    return 1
