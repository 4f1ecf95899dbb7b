"""scripts/gpu_sanitize.py's reading of compute-sanitizer's output, on output of the shape the
tool prints (no GPU needed): errors counted per report, each named by its kernel or call, and
reports whose backtrace has no accelpy frame (another library's own) set apart."""

import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location(
    "gpu_sanitize", os.path.join(ROOT, "scripts", "gpu_sanitize.py"))
gpu_sanitize = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gpu_sanitize)

OUTPUT = """\
========= COMPUTE-SANITIZER
========= Program hit CUDA_ERROR_INVALID_VALUE (error 1) on CUDA API call to cuGetProcAddress_v2.
=========     Saved host backtrace up to driver entry point at error
=========         Host Frame: [0x2a1f3] in /opt/venv/lib/python3.12/site-packages/jaxlib/libxla.so
=========         Host Frame: [0x1a2b] in /usr/lib/libc.so.6
=========
========= Uninitialized __global__ memory read of size 4 bytes
=========     at 0x1c0 in accel_reduce_sum_f32(float const *, float *, long)
=========     by thread (3,0,0) in block (0,0,0)
=========     Address 0x7f0000000010
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: [0x3f0a1] in /usr/lib/libcuda.so.1
=========         Host Frame: [0x14fe0] in /site/accelpy/_core.cpython-312-x86_64-linux-gnu.so
=========
========= Program hit CUDA_ERROR_NOT_READY (error 600) on CUDA API call to cuEventQuery.
=========     Saved host backtrace up to driver entry point at error
=========         Host Frame: [0x14fe0] in /site/accelpy/_core.cpython-312-x86_64-linux-gnu.so
=========
========= ERROR SUMMARY: 3 errors
"""


def test_reports_are_counted_named_and_attributed():
    errors, warnings, kinds, calls, tests, peers = gpu_sanitize.tally({"text": OUTPUT})
    assert (errors, warnings) == (2, 0)
    assert kinds == {"Uninitialized __global__ memory read of size N bytes in "
                     "accel_reduce_sum_f32": 1}
    assert calls == {"cuEventQuery:CUDA_ERROR_NOT_READY": 1}
    assert peers == {"cuGetProcAddress_v2:CUDA_ERROR_INVALID_VALUE": 1}


def test_a_report_without_a_backtrace_counts_as_accelpys():
    text = OUTPUT.replace("=========         Host Frame: [0x2a1f3] in /opt/venv/lib/python3.12/"
                          "site-packages/jaxlib/libxla.so\n", "").replace(
        "=========         Host Frame: [0x1a2b] in /usr/lib/libc.so.6\n", "")
    errors, _, _, calls, _, peers = gpu_sanitize.tally({"text": text})
    assert errors == 3 and not peers
    assert calls["cuGetProcAddress_v2:CUDA_ERROR_INVALID_VALUE"] == 1


def test_a_report_after_pytests_progress_dots_is_read():
    # pytest prints its dots without a newline, so the tool's next line starts after them.
    text = OUTPUT.replace("========= Program hit CUDA_ERROR_INVALID_VALUE",
                          "........========= Program hit CUDA_ERROR_INVALID_VALUE")
    assert gpu_sanitize.tally({"text": text}) == gpu_sanitize.tally({"text": OUTPUT})
