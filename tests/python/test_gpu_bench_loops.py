"""bench/gpu_loops.py (issue 31's loop of small steps) runs as far as the host goes on the fake
driver, inside bench/gpu.py, and its row reaches the table: an error in it shows here rather
than in a GPU session's one full run. The fake driver computes nothing, so the check of the
loop's result against NumPy's is off and the figures are not checked."""

import os

from test_cuda_host_path import ROOT, fake_driver, pytestmark, run_fake  # noqa: F401


def test_gpu_bench_loop_case_runs_on_the_host_path(fake_driver, tmp_path):  # noqa: F811
    out = run_fake(fake_driver, f"""
    import sys
    sys.path.insert(0, {os.path.join(ROOT, "bench")!r})
    sys.modules["torch"] = sys.modules["cupy"] = None  # on a GPU machine they would run for real
    import gpu, gpu_loops
    gpu_loops.CHECK = False
    sys.argv = ["gpu.py", "--quick", "--out", {str(tmp_path)!r}, "--only", "loops"]
    gpu.main()
    """)
    assert "FAILED" not in out and "Traceback" not in out, out
    assert "case loops (" in out, out
    row = next(line for line in out.splitlines() if line.startswith("y=y*.999+.001 1000 f32"))
    accelpy, cupy, torch, graphs = row.split()[3:7]
    assert float(accelpy) > 0 and cupy == torch == graphs == "-", row
