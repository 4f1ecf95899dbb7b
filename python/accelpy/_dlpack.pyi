"""Type stubs of accelpy._dlpack (hand-written)."""

import enum
from typing import Any

from ._core import DeviceLike, DTypeLike, ndarray

DLPACK_VERSION: tuple[int, int]

class DLDeviceType(enum.IntEnum):
    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17

def from_dlpack(x: Any, /, *, device: DeviceLike | None = None,
                copy: bool | None = None) -> ndarray: ...
def is_foreign_array(obj: object) -> bool: ...
def asarray_foreign(obj: Any, dtype: DTypeLike | None = None, device: DeviceLike | None = None,
                    copy: bool | None = None) -> ndarray | None: ...
