"""The latest committed GPU run prints as the benchmark's table: `bench/gpu.py --table` reads
bench/results/NVIDIA_H200.json (a full run), so a table that breaks on a new case (as one did
on the H200, after every case had run) fails here, without a GPU. Older result files keep the
schema of their day and are not read."""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LATEST = os.path.join(ROOT, "bench", "results", "NVIDIA_H200.json")


def test_table_of_the_latest_run():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "gpu.py"), "--table", LATEST],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
    with open(LATEST) as f:
        device = json.load(f)["device"]
    lines = r.stdout.splitlines()
    assert lines[0] == f"==== results {device} ===="
    for section in ("fusion (ms)", "library op (ms)", "fft / linalg (ms)", "indexing (ms)"):
        assert any(line.startswith(section) for line in lines), section
