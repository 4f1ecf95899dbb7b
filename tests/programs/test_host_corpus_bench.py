"""bench/host_corpus.py's smoke run (CI): the loop programs' benchmark runs, times both
modules and prints its ratio table. Two programs stand for all (the bench itself runs all of
them); the figures are not checked, the columns and the geometric mean are."""

import os
import subprocess
import sys

import pytest

import runner

BENCH = os.path.join(runner.ROOT, "bench", "host_corpus.py")
CHOSEN = ["npbench_diffusion", "fp2n_game_of_life_32"]


def test_host_corpus_smoke_run_prints_every_ratio(tmp_path):
    if any(runner.checkout_dir(s) is None for s in ("numpy-benchmarks", "from-python-to-numpy")):
        pytest.skip("no checkout of the loop programs: run scripts/program-corpus")
    out = tmp_path / "times.json"
    args = [sys.executable, BENCH, "--smoke", "--out", str(out)]
    for name in CHOSEN:
        args += ["--only", name]
    r = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stdout + r.stderr
    rows = {line.split()[0]: line.split()[1:] for line in r.stdout.splitlines() if line.strip()}
    for name in CHOSEN:
        numpy_ms, ratio = rows[name][:2]
        assert float(numpy_ms) > 0 and ratio.endswith("x") and float(ratio[:-1]) > 0, rows[name]
    assert float(rows["geometric"][1][:-1]) > 0
    assert out.exists()
