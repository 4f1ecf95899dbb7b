"""No crash, no hang, NumPy's exception type on bad input: the table of bad_input_cases.py, one
subprocess per chapter running all its cases and reporting each; when a subprocess dies or
hangs, its unreported cases run again one per subprocess, so a crash is pinned to its case.
Each case must raise (a subclass of) the public type NumPy raises for the same source (computed
live in the subprocess), with a message that is not nanobind's signature dump. Cases in
KNOWN_BAD must still fail (strict): remove an entry once its fix merges."""

import json
import os
import subprocess
import sys

import pytest
from bad_input_cases import CASES, KNOWN_BAD, cases

HERE = os.path.dirname(os.path.abspath(__file__))
BATCH_SECONDS = 120
CASE_SECONDS = 30


def run_cases(names, timeout):
    """{name: problem or None} for the cases reported before the process ended; rc."""
    code = f"import sys; sys.path.insert(0, {HERE!r}); import bad_input_cases as m; " \
           "m.main(sys.argv[1:])"
    env = {**os.environ, "ACCELPY_DEFAULT_DEVICE": os.environ.get("ACCELPY_DEFAULT_DEVICE",
                                                                   "cpu")}
    try:
        proc = subprocess.run([sys.executable, "-c", code, *names], capture_output=True,
                              text=True, timeout=timeout, env=env)
        out, rc, err = proc.stdout, proc.returncode, proc.stderr
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        rc, err = "timeout", ""
    results = {}
    for line in out.splitlines():
        if line.startswith("RESULT "):
            r = json.loads(line[len("RESULT "):])
            results[r["name"]] = r["problem"]
    return results, rc, err


def test_the_table_is_large_enough():
    assert len(cases()) >= 120
    assert set(KNOWN_BAD) <= {src for src, _ in cases().values()}


@pytest.mark.parametrize("chapter", sorted(CASES))
def test_bad_input_raises_numpys_exception(chapter):
    table = {n: src for n, (src, _) in cases().items() if n.startswith(chapter + "-")}
    results, rc, err = run_cases(sorted(table), BATCH_SECONDS)
    for name in sorted(set(table) - set(results)):  # the batch died or hung: one by one
        one, rc1, err1 = run_cases([name], CASE_SECONDS)
        results[name] = one.get(name) or (
            f"the process died ({'hung' if rc1 == 'timeout' else f'exit status {rc1}'}): "
            f"{err1.strip()[-300:]}")
    failures = []
    for name, problem in sorted(results.items()):
        src = table[name]
        if src in KNOWN_BAD and problem is None:
            failures.append(f"{name} `{src}` passes now: remove it from KNOWN_BAD")
        elif problem and src not in KNOWN_BAD:
            failures.append(f"{name} `{src}`: {problem}")
    known = sum(1 for src in table.values() if src in KNOWN_BAD)
    print(f"{chapter}: {len(table)} cases, {known} known to fail")
    assert not failures, "\n".join(failures)
