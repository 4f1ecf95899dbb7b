"""CuPy's top-level names that are not NumPy's: ``get_array_module``, the memory pools and a
device-neutral ``synchronize``, so that CuPy programs run with ``import accelpy as cp``.

The memory pools are views of accelpy's CUDA allocator (src/cuda/driver/allocator.cpp): arrays
come from the driver's stream-ordered pool, whose freed memory stays cached, plus a cache of
small blocks freed on the default stream. CuPy's numbers map onto it:

- ``used_bytes()``: bytes held by live arrays on the current device;
- ``total_bytes()``: bytes the pool holds from the device (live and cached);
- ``free_bytes()``: their difference, the cached bytes;
- ``n_free_blocks()``: the small blocks in the cache (the driver's pool does not count its own);
- ``free_all_blocks()``: returns the cached memory to the device;
- ``set_limit(size=, fraction=)`` / ``get_limit()``: accelpy's cap on live bytes.

Without a GPU every count is 0 and freeing does nothing. The pinned pool: accelpy allocates
pinned host memory directly (``cuda.pinned_empty``) and keeps no cache of it, so its counts are 0.
"""

from __future__ import annotations

import types
from typing import Any

import numpy as np

from . import _core
from ._cuda_runtime import current_device

_c = _core._cuda

__all__ = ["get_array_module", "synchronize", "MemoryPool", "PinnedMemoryPool",
           "get_default_memory_pool", "get_default_pinned_memory_pool", "set_allocator",
           "set_pinned_memory_allocator"]

# The package, given by use_package once it is complete (importing it from here would run back
# up the package).
_package: types.ModuleType | None = None


def use_package(module: types.ModuleType) -> None:
    global _package
    _package = module


def package() -> types.ModuleType:
    """The accelpy package (for modules inside it that need the whole namespace)."""
    assert _package is not None, "accelpy is still being imported"
    return _package


def get_array_module(*args: Any) -> types.ModuleType:
    """accelpy when any argument is an accelpy array, else numpy (CuPy's ``get_array_module``:
    code written against the returned module runs on either)."""
    for a in args:
        if isinstance(a, _core.ndarray):
            return package()
    return np


def synchronize(device: Any = None) -> None:
    """Waits until the work queued on `device` (default: the default device) has finished;
    returns at once on the CPU, whose work finishes when it is evaluated. Deferred work that
    nothing has evaluated yet is not started (``accelpy.eval`` starts it)."""
    d = _core.get_default_device() if device is None else _core.Device(device)
    if d.type == "cuda":
        _c.synchronize(d.index)


def _stats() -> dict[str, int] | None:
    if not _c.is_available():
        return None
    return dict(_c.memory_stats(current_device()))


class MemoryPool:
    """The device memory pool of the current CUDA device (CuPy's ``cupy.cuda.MemoryPool``)."""

    def used_bytes(self) -> int:
        s = _stats()
        return s["allocated_bytes"] if s else 0

    def total_bytes(self) -> int:
        s = _stats()
        return max(s["reserved_bytes"], s["allocated_bytes"]) if s else 0

    def free_bytes(self) -> int:
        s = _stats()
        return max(s["reserved_bytes"] - s["allocated_bytes"], 0) if s else 0

    def n_free_blocks(self) -> int:
        s = _stats()
        return s["small_cached_blocks"] if s else 0

    def free_all_blocks(self, stream: Any = None) -> None:
        """Returns the cached blocks to the device (after the queued work that used them)."""
        if _c.is_available():
            _c.free_cache(current_device())

    def set_limit(self, size: int | None = None, fraction: float | None = None) -> None:
        """Caps the bytes live arrays may hold on the current device: `size` bytes, or `fraction`
        of the device's memory (0 or neither: no cap)."""
        if size is not None and fraction is not None:
            raise ValueError("set_limit: give size or fraction, not both")
        if fraction is not None:
            fraction = float(fraction)
            if not 0.0 <= fraction <= 1.0:
                raise ValueError(f"set_limit: fraction must be in [0, 1], got {fraction}")
            s = _stats()
            size = int(fraction * s["device_total_bytes"]) if s else 0
        if size is not None and int(size) < 0:
            raise ValueError(f"set_limit: size must not be negative, got {size}")
        if _c.is_available():
            _c.set_memory_limit(int(size or 0), current_device())

    def get_limit(self) -> int:
        """The cap set_limit set (0: none)."""
        s = _stats()
        return s["limit_bytes"] if s else 0

    def malloc(self, size: int) -> Any:
        raise NotImplementedError("accelpy allocates its arrays itself: MemoryPool.malloc is "
                                  "only for set_allocator, which accepts it and changes nothing")

    def __repr__(self) -> str:
        return (f"<accelpy MemoryPool: used {self.used_bytes()} bytes, total "
                f"{self.total_bytes()} bytes>")


class PinnedMemoryPool:
    """CuPy's pinned host memory pool. accelpy keeps no cache of pinned memory (each
    ``cuda.pinned_empty`` buffer is allocated and freed directly), so there is nothing to count
    or free."""

    def used_bytes(self) -> int:
        return 0

    def total_bytes(self) -> int:
        return 0

    def free_bytes(self) -> int:
        return 0

    def n_free_blocks(self) -> int:
        return 0

    def free_all_blocks(self) -> None:
        pass

    def malloc(self, size: int) -> Any:
        raise NotImplementedError("accelpy keeps no pinned memory pool: allocate pinned host "
                                  "arrays with accelpy.cuda.pinned_empty")


def _accept_allocator(allocator: Any, pool_type: type, name: str) -> None:
    """CuPy programs hand a pool's malloc to set_allocator; accelpy's arrays always come from
    its own allocator, so its pools' malloc (or None, CuPy's default) is accepted and changes
    nothing. Any other allocator would be silently ignored, so it is refused."""
    if allocator is None or isinstance(getattr(allocator, "__self__", None), pool_type):
        return
    raise NotImplementedError(f"{name}: accelpy allocates from its own pool and cannot use "
                              f"another allocator ({allocator!r})")


def set_allocator(allocator: Any = None) -> None:
    """CuPy's ``cuda.set_allocator``: accepts None or an accelpy MemoryPool's malloc."""
    _accept_allocator(allocator, MemoryPool, "set_allocator")


def set_pinned_memory_allocator(allocator: Any = None) -> None:
    """CuPy's ``cuda.set_pinned_memory_allocator``: accepts None or a PinnedMemoryPool's
    malloc."""
    _accept_allocator(allocator, PinnedMemoryPool, "set_pinned_memory_allocator")


_memory_pool = MemoryPool()
_pinned_memory_pool = PinnedMemoryPool()


def get_default_memory_pool() -> MemoryPool:
    """The device memory pool (one object; it reports on the current device)."""
    return _memory_pool


def get_default_pinned_memory_pool() -> PinnedMemoryPool:
    return _pinned_memory_pool
