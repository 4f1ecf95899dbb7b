"""A process that used accelpy exits with status 0: nothing at exit touches the interpreter
after it finalized (C++ globals holding Python objects) or a CUDA library after it shut down
(cached cuFFT plans, streams)."""

import subprocess
import sys

import pytest


def run_to_exit(code):
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, (r.returncode, r.stderr[-3000:])
    return r.stdout


def test_exit_after_bfloat16_and_translated_errors():
    out = run_to_exit(
        "import ml_dtypes, numpy as np, accelpy as ap\n"
        "x = ap.asarray(np.arange(5, dtype=np.float32), device='cpu').astype(ap.bfloat16)\n"
        "print(float(x.sum()))\n"
        "try:\n"
        "    ap.linalg.inv(ap.zeros((2, 2), device='cpu'))\n"
        "except np.linalg.LinAlgError:\n"
        "    print('singular')\n")
    assert out.split() == ["10.0", "singular"]


def test_exit_with_users_kernels_alive_reports_no_leak(device):
    """A users' kernel object alive at exit (a module-level kernel, the compiled-module cache)
    is freed before accelpy's extension goes: nanobind reports nothing."""
    r = subprocess.run([sys.executable, "-c", (
        "import accelpy as ap\n"
        "k = ap.ElementwiseKernel('T x', 'T y', 'y = x * 2', 'double_it')\n"
        f"print(k(ap.arange(4.0, device='{device}')).tolist())\n")],
        capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.split() == ["[0.0,", "2.0,", "4.0,", "6.0]"], r.stderr
    assert "leaked" not in r.stderr, r.stderr


@pytest.mark.cuda
def test_exit_after_cuda_libraries():
    out = run_to_exit(
        "import ml_dtypes, numpy as np, accelpy as ap\n"
        "x = ap.asarray(np.random.default_rng(0).standard_normal(1000), device='cuda')\n"
        "i = ap.linalg.inv(ap.eye(4, device='cuda'))\n"
        "ap.eval(ap.sort(x), ap.cumsum(x), ap.fft.fft(x), i)\n"
        "s = ap.cuda.Stream()\n"
        "with s:\n"
        "    y = (x * 2).astype(ap.bfloat16)\n"
        "s.synchronize()\n"
        "print(int(ap.count_nonzero(y)))\n")
    assert out.split() == ["1000"]
