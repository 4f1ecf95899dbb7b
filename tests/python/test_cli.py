"""python -m accelpy info and bench, as a person runs them."""

import ctypes.util
import json
import os
import subprocess
import sys

import pytest

import accelpy as ap


def _run(*args, cwd=None):
    r = subprocess.run([sys.executable, "-m", "accelpy", *args], capture_output=True, text=True,
                       cwd=cwd, timeout=120)
    assert r.returncode == 0, r.stderr
    return r


def test_info_reports_versions_devices_libraries_cache_and_settings(tmp_path):
    cache = tmp_path / "kernels"
    cache.mkdir()
    (cache / "k1.cubin").write_bytes(b"x" * 3000)
    env = {**os.environ, "ACCELPY_CACHE_DIR": str(cache), "ACCELPY_FUSION": "1"}
    r = subprocess.run([sys.executable, "-m", "accelpy", "info"], capture_output=True, text=True,
                       env=env, timeout=60)
    out = r.stdout
    assert r.returncode == 0, r.stderr
    assert f"accelpy {ap.__version__}" in out and "numpy" in out and "DLPack 1.1" in out
    assert "cpu " in out and "cores" in out and "GiB memory" in out
    if ap.cuda.is_available():
        assert "cuda:0" in out and "free" in out
    else:
        assert "no CUDA device" in out
    assert "CUDA libraries:" in out and "nvrtc" in out
    assert "Libraries (exchange partners and tools):" in out
    assert f"{cache}: 1 files, 2.9 KiB" in out
    assert "ACCELPY_FUSION" in out and "ACCELPY_CACHE_DIR" in out
    off = subprocess.run([sys.executable, "-m", "accelpy", "info"], capture_output=True,
                         text=True, env={**env, "ACCELPY_CACHE_DIR": "off"}, timeout=60)
    assert "off (ACCELPY_CACHE_DIR)" in off.stdout


def test_info_says_why_a_named_library_is_not_used(tmp_path):
    """The env overrides are the only place looked; info names the file and what was wrong."""
    libm = ctypes.util.find_library("m")
    env = {**os.environ, "ACCELPY_CUFFT": libm, "ACCELPY_CUSOLVER": str(tmp_path),
           "ACCELPY_BLAS": "off"}
    r = subprocess.run([sys.executable, "-m", "accelpy", "info"], capture_output=True, text=True,
                       env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    cufft = next(i for i, line in enumerate(lines) if line.strip().startswith("cufft "))
    assert f"not usable: {libm}: not cuFFT (does not export cufftCreate)" in lines[cufft]
    assert lines[cufft + 1].split() == ["tried:", libm]
    cusolver = next(i for i, line in enumerate(lines) if line.strip().startswith("cusolver "))
    assert "not usable" in lines[cusolver] and "libcusolver.so.12" in lines[cusolver]
    assert lines[cusolver + 1].split() == ["tried:", f"{tmp_path}/libcusolver.so.12"]
    assert "none usable (turned off by ACCELPY_BLAS)" in r.stdout
    blas_dir = subprocess.run([sys.executable, "-m", "accelpy", "info"], capture_output=True,
                              text=True, env={**env, "ACCELPY_BLAS": str(tmp_path)}, timeout=60)
    assert f"tried: {tmp_path}/libopenblas.so.0" in blas_dir.stdout


def test_bench_writes_table_json_and_chart(tmp_path):
    r = _run("bench", "--quick", "--devices", "cpu", "--out", str(tmp_path))
    assert "accelpy" in r.stdout and "numpy/ap" in r.stdout and "sum(axis=0)" in r.stdout
    assert "cpu 1-element add (dispatch): numpy" in r.stderr  # the progress bar's last steps
    with open(tmp_path / "accelpy-bench.json") as f:
        result = json.load(f)
    assert result["versions"]["accelpy"] == ap.__version__ and result["dtype"] == "float32"
    rows = result["rows"]
    assert len(rows) == 7 and all(r["device"] == "cpu" for r in rows)
    assert all(r["seconds"]["accelpy"] > 0 and r["seconds"]["numpy"] > 0 for r in rows)
    png = tmp_path / "accelpy-bench.png"
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "matplotlib is not installed" in r.stdout and not png.exists()
    else:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f"chart:   {png}" in r.stdout


def test_bench_refuses_absent_devices(tmp_path):
    if ap.cuda.is_available():
        pytest.skip("a GPU is present: every device is available")
    r = subprocess.run([sys.executable, "-m", "accelpy", "bench", "--devices", "cuda"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "not available here" in r.stderr


def test_unknown_arguments_are_refused():
    r = subprocess.run([sys.executable, "-m", "accelpy", "info", "--bogus"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "unrecognized arguments" in r.stderr
