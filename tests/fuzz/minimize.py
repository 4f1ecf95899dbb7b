"""Shrinks a failing program to the statements its first mismatch needs: drops statements one
at a time, keeping each drop after which NumPy still runs the program and the same statement
still differs in the same way. `cd tests && python -m fuzz.minimize SEED [DEVICE]`."""

import sys

import numpy as np

from .generator import Program
from .known import first_mismatch_class
from .runner import check, compare, run, with_fusion


def still_fails(program, vars_, target, what, device):
    import accelpy as ap

    expected = run(program, np)
    if expected.error is not None and program.stmts[expected.error[0]].src != target:
        return False
    with ap.device(device):
        got = with_fusion(True, lambda: run(program, ap))
        unfused = with_fusion(False, lambda: run(program, ap))
    found = compare(program, expected, got, vars_)
    found += [m for m in compare(program, got, unfused, vars_, bitwise=device == "cpu")
              if what == "fusion"]
    return any(program.stmts[m.index].src == target and (m.what == what or what == "fusion")
               for m in found)


def minimize(seed, device="cpu"):
    program, found = check(seed, device)
    if not found:
        return program, None
    vars_ = program.vars
    first, _ = first_mismatch_class(program, found)
    target, what = program.stmts[first.index].src, first.what
    stmts = list(program.stmts)
    changed = True
    while changed:
        changed = False
        for i in reversed(range(len(stmts))):
            if stmts[i].src == target:
                continue
            trial = Program(seed, stmts[:i] + stmts[i + 1:])
            if still_fails(trial, vars_, target, what, device):
                stmts = trial.stmts
                changed = True
    return Program(seed, stmts), first


if __name__ == "__main__":
    prog, mismatch = minimize(int(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "cpu")
    print(prog.source())
    if mismatch:
        print(f"# {mismatch.what}: {mismatch.detail}")
