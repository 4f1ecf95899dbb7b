"""``python -m accelpy info``: versions, devices, and where each CUDA library was found or why
not (no driver, no NVRTC, version mismatch)."""

import platform
import sys


def info_text():
    """The report as text."""
    import numpy as np

    import accelpy as ap
    from accelpy import cuda

    lines = [
        f"accelpy {ap.__version__}",
        f"python  {platform.python_version()} ({sys.executable})",
        f"numpy   {np.__version__}",
        f"platform {platform.platform()}",
        "",
        "CUDA libraries:",
    ]
    for lib in ap._core._cuda.libraries():
        name = lib["name"]
        if lib["found"]:
            ver = f" {lib['version']}" if lib["version"] else ""
            lines.append(f"  {name:9} found{ver}: {lib['path']}")
        else:
            lines.append(f"  {name:9} not usable: {lib['detail'] or 'not found'}")
            if lib["tried"]:
                lines.append(f"            tried: {', '.join(lib['tried'])}")
    lines.append("")
    if cuda.is_available():
        n = cuda.device_count()
        lines.append(f"CUDA devices: {n}")
        for i in range(n):
            p = cuda.get_device_properties(i)
            lines.append(
                f"  cuda:{i}  {p.name}, compute capability {p.major}.{p.minor}, "
                f"{p.total_memory / 2**30:.1f} GiB, {p.multi_processor_count} SMs, "
                f"L2 {p.l2_cache_size >> 20} MiB")
        stats = cuda.kernel_cache_stats()
        lines.append(f"kernel disk cache: {stats['cache_dir'] or 'off'}")
    else:
        lines.append(f"CUDA unavailable: {cuda.unavailable_reason()}")
    lines.append(f"default device: {ap.get_default_device()}")
    return "\n".join(lines)


def main():
    print(info_text())


if __name__ == "__main__":
    main()
