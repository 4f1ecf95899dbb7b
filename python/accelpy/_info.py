"""``python -m accelpy info``: versions, devices and their memory, the CUDA libraries found (or
why not: no driver, no NVRTC, version mismatch), the array libraries accelpy exchanges data
with, the kernel cache (where, how big) and the ACCELPY_* settings in effect."""

import importlib.metadata
import os
import platform
import sys

# Libraries accelpy works with, when installed (import names): exchange partners and tools.
PEERS = ["numpy", "ml_dtypes", "cupy", "torch", "jax", "numba", "numba_cuda", "tensorflow",
         "dask", "distributed", "array_api_compat", "numexpr", "matplotlib", "mypy"]

# Environment variables accelpy reads (docs/user-guide.md#configuration).
SETTINGS = {
    "ACCELPY_DEFAULT_DEVICE": "device for new arrays (default: cuda:0 when there is a GPU)",
    "ACCELPY_NUM_THREADS": "CPU backend threads (default: the CPUs this process may use)",
    "ACCELPY_FUSION": "0 turns kernel fusion off (debugging)",
    "ACCELPY_CACHE_DIR": "kernel disk cache (default ~/.cache/accelpy; 'off' disables)",
    "ACCELPY_QUICK_COMPILE": "0 compiles new kernels optimized at once (no quick first build)",
    "ACCELPY_DUMP_KERNELS": "directory to write generated CUDA sources to",
    "ACCELPY_CUDA_MEMORY_LIMIT": "cap on the bytes arrays hold per GPU (K/M/G suffixes)",
    "ACCELPY_CUDA_SMALL_BLOCK_CACHE": "0 turns off reuse of freed blocks up to 1 MiB per GPU",
    "ACCELPY_CPU_CACHE_BYTES": "host memory kept for reuse by the CPU allocator",
    "ACCELPY_CUDA_DRIVER": "libcuda to load (file or directory)",
    "ACCELPY_NVRTC": "NVRTC to load (file or directory)",
    "ACCELPY_CUBLAS": "cuBLAS to load (file or directory)",
    "ACCELPY_CUFFT": "cuFFT to load (file or directory)",
    "ACCELPY_CUSOLVER": "cuSOLVER to load (file or directory)",
    "ACCELPY_CUB": "accelpy's CUB library to load (file or directory)",
    "ACCELPY_COMPILE_WORKER": "accelpy's compile worker to run (a file)",
    "ACCELPY_BLAS": "CPU BLAS to load (file or directory; 'off' uses the built-in GEMM)",
    "ACCELPY_DEBUG_LEAKS": "1 names, at exit, the accelpy objects still alive (nanobind)",
}


def _versions(modules):
    """{import name: "distribution version"} of the installed ones, without importing them
    (torch or tensorflow take seconds): CuPy is distributed as cupy-cuda13x and the like."""
    dists = importlib.metadata.packages_distributions()
    out = {}
    for m in modules:
        for dist in dists.get(m, []):
            try:
                v = importlib.metadata.version(dist)
            except importlib.metadata.PackageNotFoundError:
                continue
            out[m] = v if dist.replace("-", "_").lower() == m else f"{v} ({dist})"
            break
    return out


def _bytes(n):
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"


def _host_memory():
    """(total, available) host memory in bytes, from /proc/meminfo (None elsewhere)."""
    try:
        with open("/proc/meminfo") as f:
            fields = dict(line.split(":", 1) for line in f)
        kib = lambda k: int(fields[k].split()[0]) * 1024  # noqa: E731
        return kib("MemTotal"), kib("MemAvailable")
    except (OSError, KeyError, ValueError):
        return None


def cache_dir():
    """The kernel disk cache directory (None when the cache is off), as the CUDA backend
    chooses it."""
    d = os.environ.get("ACCELPY_CACHE_DIR")
    if d is not None:
        return None if d in ("", "0", "off") else d
    home = os.environ.get("HOME")
    return os.path.join(home, ".cache", "accelpy") if home else None


def cache_usage(path):
    """(files, bytes) under the cache directory."""
    files = size = 0
    for root, _dirs, names in os.walk(path):
        for n in names:
            try:
                size += os.path.getsize(os.path.join(root, n))
                files += 1
            except OSError:
                pass
    return files, size


def info_text():
    """The report as text."""
    import numpy as np

    import accelpy as ap
    from accelpy import cuda

    lines = [
        f"accelpy {ap.__version__} ({os.path.dirname(ap.__file__)})",
        f"python  {platform.python_version()} ({sys.executable})",
        f"numpy   {np.__version__}",
        f"platform {platform.platform()}",
        f"Array API {ap.__array_api_version__}, DLPack "
        f"{'.'.join(map(str, ap._interop.DLPACK_VERSION))}, CUDA array interface 3",
        "",
        "Devices:",
    ]
    mem = _host_memory()
    mem_text = f", {_bytes(mem[0])} memory ({_bytes(mem[1])} available)" if mem else ""
    lines.append(f"  cpu     {platform.processor() or platform.machine()}, "
                 f"{os.cpu_count()} cores ({ap._core._num_threads()} threads used){mem_text}")
    if cuda.is_available():
        for i in range(cuda.device_count()):
            p = cuda.get_device_properties(i)
            try:
                s = cuda.memory_stats(i)
                free = f", {_bytes(s['device_free_bytes'])} free"
            except RuntimeError:
                free = ""
            lines.append(
                f"  cuda:{i}  {p.name}, compute capability {p.major}.{p.minor}, "
                f"{_bytes(p.total_memory)}{free}, {p.multi_processor_count} SMs, "
                f"L2 {_bytes(p.l2_cache_size)}")
    else:
        lines.append(f"  (no CUDA device: {cuda.unavailable_reason()})")
    lines.append(f"  default device: {ap.get_default_device()}")
    lines += ["", "CUDA libraries:"]
    for lib in ap._core._cuda.libraries():
        name = lib["name"]
        if lib["found"]:
            ver = f" {lib['version']}" if lib["version"] else ""
            lines.append(f"  {name:9} found{ver}: {lib['path']}")
        else:
            lines.append(f"  {name:9} not usable: {lib['detail'] or 'not found'}")
            if lib["tried"]:
                lines.append(f"            tried: {', '.join(lib['tried'])}")
    blas = ap._core._blas_info()
    lines += ["", "CPU BLAS (matmul):"]
    if blas["found"]:
        lines.append(f"  {blas['name']}: {blas['path']}")
    else:
        lines.append(f"  none usable ({blas['detail']}): matmul uses accelpy's built-in GEMM")
        if blas["tried"]:
            lines.append(f"            tried: {', '.join(blas['tried'])}")
    lines += ["", "Libraries (exchange partners and tools):"]
    found = _versions(PEERS)
    lines.append("  " + ", ".join(f"{p} {v}" for p, v in found.items()))
    absent = [p for p in PEERS if p not in found]
    if absent:
        lines.append(f"  not installed: {', '.join(absent)}")
    lines += ["", "Kernel cache:"]
    d = cache_dir()
    if d is None:
        lines.append("  off (ACCELPY_CACHE_DIR)")
    elif os.path.isdir(d):
        files, size = cache_usage(d)
        lines.append(f"  {d}: {files} files, {_bytes(size)}")
    else:
        lines.append(f"  {d} (empty: not created yet)")
    if cuda.is_available():
        s = cuda.kernel_cache_stats()
        lines.append(f"  this process: {s['compiled']} compiled, {s['disk_hits']} disk hits, "
                     f"{s['memory_hits']} memory hits, {s['compile_ms']:.0f} ms compiling")
    lines += ["", "Settings (environment):"]
    for var, meaning in SETTINGS.items():
        value = os.environ.get(var)
        lines.append(f"  {var:26} {value if value is not None else '-':12} {meaning}")
    return "\n".join(lines)


def main():
    print(info_text())


if __name__ == "__main__":
    main()
