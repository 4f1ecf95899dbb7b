"""The CPU device standing in for CUDA device 0 in the PyCUDA-compatible layer (driver.py) when
users' kernels run on the CPU (no GPU, or ``ACCELPY_KERNELS_ON_CPU=1``): its properties,
host-memory copies, and streams and events that are always done (a CPU launch returns when
the kernel has run)."""

import ctypes
import os
import time

import numpy as np

from . import _core

# The launch limits of the CPU device (src/cpu/user_kernels/module.cpp): a current GPU's, so
# that a configuration valid here is valid there.
MAX_SHARED = 227 * 1024


def active():
    """Whether the driver layer targets the CPU device."""
    return _core._raw.kernels_on_cpu()


def properties():
    pages, page = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    return {"name": "cpu", "major": 0, "minor": 0, "total_memory": pages * page,
            "multi_processor_count": os.cpu_count() or 1, "warp_size": 32,
            "max_threads_per_block": 1024, "max_shared_memory_per_block": MAX_SHARED,
            "pci_bus_id": 0}


def mem_get_info():
    page = os.sysconf("SC_PAGE_SIZE")
    return (os.sysconf("SC_AVPHYS_PAGES") * page, os.sysconf("SC_PHYS_PAGES") * page)


def _address(buf, writable):
    a = np.asarray(buf) if isinstance(buf, np.ndarray) else np.frombuffer(buf, np.uint8)
    if writable and not a.flags.writeable:
        raise ValueError("the destination array is read-only")
    return a.ctypes.data, a.nbytes


def copy_to(dst, src):
    """Host buffer `src` into the memory at address `dst` (its size)."""
    ptr, n = _address(src, False)
    if n:
        ctypes.memmove(dst, ptr, n)


def copy_from(dst, src):
    """The memory at address `src` into host buffer `dst` (its size)."""
    ptr, n = _address(dst, True)
    if n:
        ctypes.memmove(ptr, src, n)


def copy_between(dst, src, size):
    if size:
        ctypes.memmove(dst, src, size)


class Stream:
    handle = 0

    def synchronize(self):
        pass

    def query(self):
        return True

    def wait_event(self, event):
        pass


class Event:
    """Records the time: the work queued before it has already run."""

    def __init__(self):
        self.t = time.perf_counter()

    def record(self, stream=None):
        self.t = time.perf_counter()

    def synchronize(self):
        pass

    def query(self):
        return True

    def elapsed_time(self, end):
        return (end.t - self.t) * 1e3
