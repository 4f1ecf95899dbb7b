"""``accelpy.cuda.runtime``: the CUDA runtime functions CuPy programs call (``cupy.cuda.runtime``),
answered from accelpy's driver layer.

As in CuPy, a machine without a CUDA driver or GPU raises CUDARuntimeError from every function
here, getDeviceCount() included (``accelpy.cuda.is_available()`` is the question that never
raises). Device properties come as CuPy's dict, with CuPy's keys; ``name`` is bytes, as CuPy's.
"""

from __future__ import annotations

from typing import Any

from . import _core

_c = _core._cuda

is_hip = False  # CuPy's flag: whether the runtime is ROCm's


class CUDARuntimeError(RuntimeError):
    """A CUDA runtime call failed (CuPy's ``cupy.cuda.runtime.CUDARuntimeError``); ``status``
    is the CUDA error code."""

    def __init__(self, status: int, message: str) -> None:
        self.status = status
        super().__init__(message)


# cudaErrorNoDevice and cudaErrorInvalidDevice, the two errors raised here.
_NO_DEVICE = 100
_INVALID_DEVICE = 101


def require_device(device: int | None = None) -> int:
    """The device index, checked: raises CUDARuntimeError without a GPU or for an index that
    names none."""
    if not _c.is_available():
        reason = _c.unavailable_reason()
        raise CUDARuntimeError(_NO_DEVICE, "cudaErrorNoDevice: no CUDA-capable device is "
                               f"detected (accelpy: {reason or 'no GPU'})")
    if device is None:
        return current_device()
    count = _c.device_count()
    if not 0 <= int(device) < count:
        raise CUDARuntimeError(_INVALID_DEVICE, f"cudaErrorInvalidDevice: invalid device ordinal "
                               f"{device} (this machine has {count} CUDA device(s))")
    return int(device)


def current_device() -> int:
    """The index of the current CUDA device: the default device's when it is a CUDA device,
    else 0 (CuPy's current device before any is chosen)."""
    d = _core.get_default_device()
    return d.index if d.type == "cuda" else 0


def getDeviceCount() -> int:  # noqa: N802 - CuPy's (the CUDA runtime's) name
    require_device(0)
    return _c.device_count()


def getDevice() -> int:  # noqa: N802
    require_device(None)
    return current_device()


def setDevice(device: int) -> None:  # noqa: N802
    _core.set_default_device(f"cuda:{require_device(device)}")


def deviceSynchronize() -> None:  # noqa: N802
    _c.synchronize(require_device(None))


def memGetInfo() -> tuple[int, int]:  # noqa: N802
    """(free, total) bytes of the current device."""
    s = _c.memory_stats(require_device(None))
    return s["device_free_bytes"], s["device_total_bytes"]


def getDeviceProperties(device: int) -> dict[str, Any]:  # noqa: N802
    """CuPy's dict of the device's properties (cudaDeviceProp's field names)."""
    p = _c.device_properties(require_device(device))
    return {
        "name": p["name"].encode(),
        "totalGlobalMem": p["total_memory"],
        "sharedMemPerBlock": p["max_shared_memory_per_block"],
        "warpSize": p["warp_size"],
        "maxThreadsPerBlock": p["max_threads_per_block"],
        "clockRate": p["clock_rate_khz"],
        "major": p["major"],
        "minor": p["minor"],
        "multiProcessorCount": p["multi_processor_count"],
        "l2CacheSize": p["l2_cache_size"],
        "maxThreadsPerMultiProcessor": p["max_threads_per_multi_processor"],
        "memoryClockRate": p["memory_clock_rate_khz"],
        "memoryBusWidth": p["memory_bus_width"],
        "pciBusID": p["pci_bus_id"],
    }


def _library_version(name: str) -> int:
    for lib in _c.libraries():
        if lib["name"] == name and lib["found"]:
            major, minor = (int(x) for x in lib["version"].split(".")[:2])
            return major * 1000 + minor * 10
    return 0


def driverGetVersion() -> int:  # noqa: N802
    """The driver's CUDA version as CUDA encodes it (12040 for 12.4)."""
    require_device(None)
    return _library_version("driver")


def runtimeGetVersion() -> int:  # noqa: N802
    """accelpy has no CUDA runtime library: the version of NVRTC, which compiles its kernels."""
    require_device(None)
    return _library_version("nvrtc")
