"""A PyCUDA-compatible driver layer: PyCUDA programs run by changing their imports::

    import accelpy.driver as cuda
    import accelpy.autoinit  # noqa: F401
    from accelpy.compiler import SourceModule

Contexts are CUDA's primary contexts (the ones accelpy, CuPy and PyTorch share); pushing one
also makes its device accelpy's default device. Device memory comes from accelpy's stream-
ordered pool; synchronous copies wait for their stream, ``*_async`` copies do not. Kernels get
the same argument and launch checks as :class:`accelpy.RawKernel`.

Without a GPU (or with ``ACCELPY_KERNELS_ON_CPU=1``) the layer targets the CPU device, as
users' kernels do: it is device 0, ``mem_alloc`` returns host memory, copies are memory copies,
kernels run on the CPU, streams and events are always done (_driver_cpu.py).
"""

from . import _core
from . import _driver_cpu as _cpu
from . import cuda as _apcuda
from ._driver_context import Context, Device, device_attribute  # noqa: F401 - the layer's names
from ._driver_launch import (  # noqa: F401 - the layer's names
    ArgumentHandler,
    Event,
    Function,
    In,
    InOut,
    Out,
    Stream,
    function_attribute,
)
from ._driver_memory import (  # noqa: F401 - the layer's names
    DeviceAllocation,
    from_device,
    from_device_like,
    mem_alloc,
    mem_get_info,
    memcpy_dtod,
    memcpy_dtod_async,
    memcpy_dtoh,
    memcpy_dtoh_async,
    memcpy_htod,
    memcpy_htod_async,
    pagelocked_empty,
    pagelocked_empty_like,
    pagelocked_zeros,
    pagelocked_zeros_like,
    to_device,
)
from ._kernels import CompileError, DevicePointer  # noqa: F401 - PyCUDA has them here too

Error = RuntimeError
LogicError = RuntimeError
LaunchError = RuntimeError
MemoryError = _core.OutOfMemoryError  # noqa: A001 - PyCUDA's name


def init(flags=0):
    """Checks that CUDA can be used (PyCUDA's cuInit); RuntimeError saying why not. Without a
    GPU the CPU device serves."""
    if _cpu.active():
        return
    if not _apcuda.is_available():
        raise RuntimeError(f"cuInit failed: CUDA is not available: "
                           f"{_apcuda.unavailable_reason()}")
    if _apcuda.device_count() == 0:
        raise RuntimeError("cuInit failed: no CUDA device found")


def get_version():
    """The CUDA version of NVRTC, as (major, minor, 0)."""
    for lib in _apcuda._c.libraries():
        if lib["name"] == "nvrtc" and lib["found"]:
            major, minor = (int(x) for x in lib["version"].split(".")[:2])
            return (major, minor, 0)
    return (0, 0, 0)


def get_driver_version():
    for lib in _apcuda._c.libraries():
        if lib["name"] == "driver" and lib["found"]:
            major, minor = (int(x) for x in lib["version"].split(".")[:2])
            return major * 1000 + minor * 10
    return 0
