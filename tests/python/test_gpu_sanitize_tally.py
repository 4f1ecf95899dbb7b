"""scripts/gpu_sanitize.py's reading of compute-sanitizer's output, on output of the shape the
tool prints (no GPU needed): errors counted per report, each named by its kernel or call, and
set apart: reports whose backtrace has no accelpy frame (another library's own), and initcheck's
reads of uninitialized memory inside cuSOLVER, cuBLAS or cuFFT (the vendor libraries' own)."""

import importlib.util
import os

import pytest

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
    t = gpu_sanitize.tally({"text": OUTPUT})
    assert (t.errors, t.warnings, t.unprinted) == (2, 0, 0)
    assert t.kinds == {"Uninitialized __global__ memory read of size N bytes in "
                       "accel_reduce_sum_f32": 1}
    assert t.calls == {"cuEventQuery:CUDA_ERROR_NOT_READY": 1}
    assert t.peers == {"cuGetProcAddress_v2:CUDA_ERROR_INVALID_VALUE": 1}
    assert not t.vendor


def test_a_report_without_a_backtrace_counts_as_accelpys():
    text = OUTPUT.replace("=========         Host Frame: [0x2a1f3] in /opt/venv/lib/python3.12/"
                          "site-packages/jaxlib/libxla.so\n", "").replace(
        "=========         Host Frame: [0x1a2b] in /usr/lib/libc.so.6\n", "")
    t = gpu_sanitize.tally({"text": text})
    assert t.errors == 3 and not t.peers
    assert t.calls["cuGetProcAddress_v2:CUDA_ERROR_INVALID_VALUE"] == 1


def test_a_report_after_pytests_progress_dots_is_read():
    # pytest prints its dots without a newline, so the tool's next line starts after them.
    text = OUTPUT.replace("========= Program hit CUDA_ERROR_INVALID_VALUE",
                          "........========= Program hit CUDA_ERROR_INVALID_VALUE")
    assert gpu_sanitize.tally({"text": text}) == gpu_sanitize.tally({"text": OUTPUT})


# initcheck over test_linalg.py and test_reductions.py on an H100 (2026-12-07), shortened: a read
# in a kernel cuSOLVER launched, a copy cuSOLVER made, and one of accelpy's own kernels.
BACKTRACE = """\
=========     Saved host backtrace up to driver entry point at {when}
=========         Host Frame:  [0xab6180] in {lib}
=========         Host Frame: {call} [0x5f5405] in {lib}
=========         Host Frame:  [0x27969e] in _core.cpython-312-x86_64-linux-gnu.so
=========         Host Frame: PyObject_Vectorcall [0x1499b4] in python3
=========         Host Frame: test_linalg in test_linalg.py:201
=========
"""
GEBAL = """\
========= Uninitialized __global__ memory read of size 4 bytes
=========     at void gebal_singleton_kernel<(long)512, (long)64, float2, float, long>(T5, T5, \
T5, T5, T3 *, T5, T4 *, T4 *, T4 *, T4 *, int *, int *)+0xa0
=========     by thread (7,0,0) in block (0,0,0)
=========     Address 0x2a9a0866bc
""" + BACKTRACE.format(when="kernel launch time", lib="libcusolver.so.12", call="cusolverDnXgeev")
MEMCPY = """\
========= Host API memory access error at host access to 0x2a9a23ec00 of size 40 bytes
=========     Uninitialized access to 0x2a9a23ec20 on access by cudaMemcpy source
""" + BACKTRACE.format(when="error", lib="libcusolver.so.12", call="cusolverDnXgesvd")
OWN = """\
......========= Uninitialized __global__ memory read of size 4 bytes
=========     at accel_red_inner_argmax_f93bf6162e0c80ed+0x2abc0
=========     by thread (1,0,0) in block (0,2,0)
=========     Address 0x2a9ada3e10
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: accel::cuda::launch_kernel(accel::cuda::DeviceContext&) [0x26ace6] \
in _core.cpython-312-x86_64-linux-gnu.so
=========
"""


def run_of(*reports, errors=None):
    text = "========= COMPUTE-SANITIZER\n" + "".join(reports)
    return {"text": text + f"========= ERROR SUMMARY: {errors or len(reports)} errors\n"}


def under_the_driver(report):
    """The report with a frame of the driver above its innermost one."""
    return report.replace("Host Frame:  [0xab6180]", "Host Frame:  [0x3f0a1] in libcuda.so.1\n"
                          "=========         Host Frame:  [0xab6180]", 1)


def test_uninitialized_reads_inside_a_vendor_library_are_set_apart():
    t = gpu_sanitize.tally(run_of(GEBAL, MEMCPY, under_the_driver(GEBAL), OWN))
    assert t.errors == 1 and t.unprinted == 0
    assert t.vendor == {
        "Uninitialized __global__ memory read of size N bytes in "
        "gebal_singleton_kernel<(long)512, (long)64, float2, float, long>": 2,
        "Host API memory access error at host access to N of size N bytes in "
        "cudaMemcpy source": 1,
    }
    # accelpy's kernels by family: the structure's hash left out.
    assert t.kinds == {"Uninitialized __global__ memory read of size N bytes in "
                       "accel_red_inner_argmax": 1}


def test_a_vendor_kernels_other_faults_and_accelpys_own_launches_count():
    # memcheck's invalid read in cuSOLVER's kernel may come from sizes accelpy passed.
    invalid = GEBAL.replace("Uninitialized __global__ memory read", "Invalid __global__ read")
    t = gpu_sanitize.tally(run_of(invalid))
    assert t.errors == 1 and not t.vendor
    assert t.kinds == {"Invalid __global__ read of size N bytes in "
                       "gebal_singleton_kernel<(long)512, (long)64, float2, float, long>": 1}
    # A kernel accelpy launched itself, below the driver's frames, is accelpy's.
    ours = GEBAL.replace("libcusolver.so.12", "_core.cpython-312-x86_64-linux-gnu.so")
    t = gpu_sanitize.tally(run_of(under_the_driver(ours)))
    assert t.errors == 1 and not t.vendor and not t.peers


def test_errors_past_the_print_limit_stay_counted():
    t = gpu_sanitize.tally(run_of(GEBAL, MEMCPY, errors=5))
    assert (t.errors, t.unprinted) == (3, 3)
    assert sum(t.vendor.values()) == 2


def test_kernel_names():
    name = gpu_sanitize.kernel_name
    assert name("    at 0x1c0 in accel_reduce_sum_f32(float const *, float *, long)") == (
        "accel_reduce_sum_f32")
    assert name("    at accel_red_outer_argmin_0123456789abcdef+0x40") == "accel_red_outer_argmin"
    assert name("    at void ns::k<(int)2, float2>(T1 *)+0x10") == "ns::k<(int)2, float2>"
    assert name("    at static __global__ void DeviceScanKernel<Policy<64>>(int)") == (
        "DeviceScanKernel<Policy<64>>")
    assert name("    by thread (7,0,0) in block (0,0,0)") is None


def test_shards_cover_every_run_once():
    seeds = ["/seed/a.py", "/seed/b.py"]
    whole = gpu_sanitize.plan(["memcheck", "racecheck"], "all", seeds)
    assert len(whole) == 2 * (len(seeds) + len(
        [f for f in os.listdir(gpu_sanitize.TESTS) if f.startswith("test_") and f.endswith(".py")]))
    shards = [gpu_sanitize.plan(["memcheck", "racecheck"], "all", seeds, f"{k}/3")
              for k in (1, 2, 3)]
    assert sorted(sum(shards, [])) == sorted(whole)
    assert max(map(len, shards)) - min(map(len, shards)) <= 1
    assert gpu_sanitize.plan(["synccheck"], "", []) == sorted(
        ("synccheck", os.path.join(gpu_sanitize.TESTS, f)) for f in gpu_sanitize.SHARED)
    with pytest.raises(ValueError, match="K/N"):
        gpu_sanitize.plan(["memcheck"], "", seeds, "4/3")
