"""CUDA devices, streams, events, memory and kernel caches.

Importing this module touches no GPU: the driver is loaded on first use, so ``import accelpy``
stays fast and works on machines without CUDA (``is_available()`` is then False).

    import accelpy as ap
    s = ap.cuda.Stream()
    with s:                       # work on this thread goes to s
        y = (x * 2).sum()
        ap.eval(y)
    start, end = ap.cuda.Event(), ap.cuda.Event()
    start.record(); ...; end.record(); end.synchronize()
    print(start.elapsed_time(end), "ms")

CuPy's names are here too (``cuda.Device(1).use()``, ``with cuda.Device(0):``,
``cuda.Stream.null.synchronize()``, ``cuda.get_current_stream()``, ``cuda.runtime``,
``cuda.MemoryPool``): see docs/guide/interoperability.md, "CuPy programs".
"""

from __future__ import annotations

import atexit
import os
import sys
import types
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core
from . import _cuda_runtime as runtime
from ._core import ndarray
from ._cuda_runtime import CUDARuntimeError as CUDARuntimeError
from ._cupy_compat import MemoryPool as MemoryPool
from ._cupy_compat import PinnedMemoryPool as PinnedMemoryPool
from ._cupy_compat import set_allocator as set_allocator
from ._cupy_compat import set_pinned_memory_allocator as set_pinned_memory_allocator

if TYPE_CHECKING:
    from ._core import DeviceLike, DTypeLike

    _DeviceArg = int | DeviceLike | None

_c = _core._cuda
# From here on no kernel is swapped for its optimized build (the compile worker still stores
# them on disk): C++ atexit handlers and static destructors run later, and a swap then could
# race with them.
atexit.register(_c.finish_upgrades)


def _wheel_dirs():
    """site-packages directories that may hold NVIDIA's pip wheels (nvidia/*/lib)."""
    out = []
    for p in sys.path:
        if p and os.path.isdir(os.path.join(p, "nvidia")):
            out.append(p)
    return out


_c.add_library_search_dirs(_wheel_dirs())

OutOfMemoryError = _core.OutOfMemoryError


def is_available() -> bool:
    """Whether a CUDA driver and at least one GPU were found."""
    return _c.is_available()


def device_count() -> int:
    """The number of CUDA devices (0 without a driver)."""
    return _c.device_count()


def unavailable_reason() -> str:
    """Why CUDA is unavailable ('' when it is available)."""
    return _c.unavailable_reason()


class DeviceProperties:
    """Properties of a CUDA device (name, compute capability, memory, SMs, L2, ...)."""

    def __init__(self, d):
        self.__dict__.update(d)

    @property
    def compute_capability(self) -> tuple[int, int]:
        return (self.major, self.minor)

    def __repr__(self):
        return (f"DeviceProperties(name={self.name!r}, compute_capability={self.major}."
                f"{self.minor}, total_memory={self.total_memory >> 20} MiB, "
                f"multi_processor_count={self.multi_processor_count}, "
                f"l2_cache_size={self.l2_cache_size >> 10} KiB)")


def get_device_properties(device: _DeviceArg = None) -> DeviceProperties:
    """Properties of a device (an index, 'cuda:N', an accelpy.device; default: current)."""
    return DeviceProperties(_c.device_properties(device))


def get_device_name(device: _DeviceArg = None) -> str:
    return _c.device_properties(device)["name"]


def synchronize(device: _DeviceArg = None) -> None:
    """Waits for all work on the device; raises for a kernel fault since the last check.
    Ctrl-C interrupts the wait (KeyboardInterrupt); the work goes on in the background."""
    _c.synchronize(device)


class Stream:
    """A CUDA stream. ``with stream:`` makes it current for its device on this thread."""

    def __init__(self, device: _DeviceArg = None, non_blocking: bool = True, *,
                 _handle=None) -> None:
        self._s = _handle if _handle is not None else _c.Stream.create(device, non_blocking)
        self._prev = []

    @classmethod
    def _wrap(cls, s):
        return cls(_handle=s)

    @property
    def device(self) -> _core.Device:
        return _core.Device(f"cuda:{self._s.device_index}")

    @property
    def handle(self) -> int:
        """The CUstream, as an integer (for interoperability)."""
        return self._s.handle

    @property
    def ptr(self) -> int:
        return self._s.handle

    def synchronize(self) -> None:
        self._s.synchronize()

    def query(self) -> bool:
        """True when all work queued on the stream has finished."""
        return self._s.query()

    def wait_event(self, event: Event) -> None:
        """Makes later work on this stream wait for `event`."""
        self._s.wait_event(event._e)

    def record(self, event: Event | None = None) -> Event:
        """Records an event (a new one by default) on this stream and returns it."""
        event = event if event is not None else Event(device=self.device)
        event.record(self)
        return event

    def use(self) -> Stream:
        """Makes this the current stream of its device on this thread until another is made
        current (CuPy's Stream.use, the form without ``with``); returns the stream."""
        _c.set_current_stream(self._s)
        return self

    def __enter__(self) -> Stream:
        self._prev.append(_c.set_current_stream(self._s))
        return self

    def __exit__(self, *exc) -> None:
        _c.set_current_stream(self._prev.pop())

    def __eq__(self, other):
        return isinstance(other, Stream) and self._s == other._s

    def __hash__(self):
        return hash(self._s)

    def __repr__(self):
        return f"<accelpy.cuda.Stream {self.handle:#x} on {self.device}>"


def current_stream(device: _DeviceArg = None) -> Stream:
    """This thread's current stream on the device."""
    return Stream._wrap(_c.Stream.current(device))


def get_current_stream(device_id: int = -1) -> Stream:
    """CuPy's ``cupy.cuda.get_current_stream``: this thread's current stream on device
    `device_id` (-1: the current device); CUDARuntimeError, as CuPy's, without a GPU or for an
    index that names none."""
    index = runtime.require_device(None if device_id == -1 else device_id)
    return current_stream(f"cuda:{index}")


class _NullStream:
    """``Stream.null``, CuPy's name for the default stream of the current device, as CuPy
    programs use it: ``Stream.null.synchronize()`` waits for the default device's work, and
    returns at once on the CPU (or where there is no GPU)."""

    def __init__(self) -> None:
        self._entered: list[Stream] = []

    def synchronize(self) -> None:
        d = _core.get_default_device()
        if d.type == "cuda":
            _c.synchronize(d.index)

    def query(self) -> bool:
        d = _core.get_default_device()
        return d.type != "cuda" or default_stream(d).query()

    def record(self, event: Event | None = None) -> Event:
        return default_stream(runtime.require_device(None)).record(event)

    def use(self) -> Stream:
        """Makes the current device's default stream current again (CuPy's Stream.null.use)."""
        return default_stream(runtime.require_device(None)).use()

    def wait_event(self, event: Event) -> None:
        default_stream(runtime.require_device(None)).wait_event(event)

    def __enter__(self) -> Stream:
        stream = default_stream(runtime.require_device(None))
        self._entered.append(stream)
        return stream.__enter__()

    def __exit__(self, *exc) -> None:
        self._entered.pop().__exit__(*exc)

    @property
    def ptr(self) -> int:
        return 0  # CuPy's null stream is the legacy NULL stream, handle 0

    def __repr__(self):
        return "<accelpy.cuda.Stream.null>"


Stream.null = _NullStream()  # type: ignore[attr-defined]


class Device:
    """A CUDA device as CuPy names it (``cupy.cuda.Device``): ``Device(1).use()`` makes it the
    default device of this thread, ``with Device(1):`` for a block. ``Device()`` is the current
    one. Constructing never touches the GPU; using one that does not exist (or any, on a machine
    without a GPU) raises CUDARuntimeError, as CuPy does."""

    def __init__(self, device: int | None = None) -> None:
        if device is None:
            device = runtime.current_device()
        elif isinstance(device, Device):
            device = device.id
        elif not isinstance(device, (int, np.integer)) or isinstance(device, bool):
            raise TypeError(f"Device: device must be an int, got {type(device).__name__}")
        if device < 0:
            raise ValueError(f"Device: device must not be negative, got {device}")
        self.id = int(device)
        self._previous: list[_core.Device] = []

    def use(self) -> None:
        runtime.setDevice(self.id)

    def synchronize(self) -> None:
        _c.synchronize(runtime.require_device(self.id))

    @property
    def compute_capability(self) -> str:
        """As CuPy: the major and minor version as one string ('90' for 9.0)."""
        p = _c.device_properties(runtime.require_device(self.id))
        return f"{p['major']}{p['minor']}"

    @property
    def mem_info(self) -> tuple[int, int]:
        """(free, total) bytes of the device."""
        s = _c.memory_stats(runtime.require_device(self.id))
        return s["device_free_bytes"], s["device_total_bytes"]

    def __enter__(self) -> Device:
        runtime.require_device(self.id)
        self._previous.append(_core.get_default_device())
        self.use()
        return self

    def __exit__(self, *exc) -> None:
        _core.set_default_device(self._previous.pop())

    def __int__(self) -> int:
        return self.id

    __index__ = __int__

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(("accelpy.cuda.Device", self.id))

    def __repr__(self):
        return f"<CUDA Device {self.id}>"


def default_stream(device: _DeviceArg = None) -> Stream:
    """The device's default stream (non-blocking with respect to the legacy NULL stream)."""
    return Stream._wrap(_c.Stream.default(device))


class Event:
    """A CUDA event: record it on a stream, then wait for it or time the work between two."""

    def __init__(self, enable_timing: bool = True, blocking: bool = False,
                 device: _DeviceArg = None) -> None:
        self._e = _c.Event.create(device, enable_timing, blocking)

    def record(self, stream: Stream | None = None) -> None:
        """Records the event on `stream` (default: the current stream of its device)."""
        if stream is None:
            stream = current_stream(self._e.device_index)
        self._e.record(stream._s)

    def synchronize(self) -> None:
        self._e.synchronize()

    def query(self) -> bool:
        """True when the work before the event has finished."""
        return self._e.query()

    def elapsed_time(self, end_event: Event) -> float:
        """Milliseconds from this event to `end_event`."""
        return self._e.elapsed_ms(end_event._e)


def get_elapsed_time(start_event: Event, end_event: Event) -> float:
    """Milliseconds between two recorded events (CuPy's name)."""
    return start_event.elapsed_time(end_event)


# CuPy's module path for them: cupy.cuda.stream.Stream, cupy.cuda.stream.Event.
stream = types.SimpleNamespace(Stream=Stream, Event=Event, get_current_stream=current_stream)


def memory_stats(device: _DeviceArg = None) -> dict[str, int]:
    """Allocator statistics: allocated/peak/reserved bytes, the limit, counts, device free/total."""
    return dict(_c.memory_stats(device))


def memory_allocated(device: _DeviceArg = None) -> int:
    return _c.memory_stats(device)["allocated_bytes"]


def free_cache(device: _DeviceArg = None) -> None:
    """Returns the memory pool's cached blocks to the driver (after synchronizing)."""
    _c.free_cache(device)


def set_memory_limit(nbytes: int | None, device: _DeviceArg = None) -> None:
    """Caps the bytes arrays may hold on the device (0 or None: no cap)."""
    _c.set_memory_limit(int(nbytes or 0), device)


def kernel_cache_stats() -> dict[str, Any]:
    """Kernel cache counters: compiled, disk_hits, memory_hits, kernels, compile_ms,
    upgrades_pending, upgraded, upgrade_failures, cache_dir.

    A new elementwise kernel is compiled quickly (NVRTC ``--Ofast-compile=min``) so that its
    first launch waits less, and a worker process compiles its optimized build, which replaces
    it (``upgraded`` counts those) and goes to the disk cache; ``ACCELPY_QUICK_COMPILE=0``
    compiles the optimized build at once instead. Results are the same either way.
    """
    return dict(_c.kernel_cache_stats())


def graph_stats(reset: bool = False) -> dict[str, Any]:
    """CUDA graph replay counters: graphs_built, graph_launches, kernels_replayed,
    nodes_rebound, kernels_unrecorded, enabled (then zeroes them when `reset`).

    A loop body that evaluates the same structure again (the plan cache's hits) is recorded
    from its third cached evaluation on as one CUDA graph of its kernels, then replayed with
    its new buffers and scalars: one graph launch per evaluation instead of one launch per
    kernel. ``accelpy.cuda.graphs = False`` (or ``ACCELPY_CUDA_GRAPHS=0``) turns it off.
    """
    s = dict(_c.graph_stats())
    if reset:
        _c.reset_graph_stats()
    return s


def wait_for_optimized_kernels(timeout: float | None = None) -> bool:
    """Waits until every quickly compiled kernel has been replaced by its optimized build, as
    a benchmark should before timing kernels, or `timeout` seconds have passed. Returns whether
    none is pending."""
    return _c.wait_for_optimized_kernels(1e9 if timeout is None else float(timeout))


class _PinnedBuffer:
    def __init__(self, nbytes):
        self.ptr = _c.pinned_alloc(nbytes)
        self.nbytes = nbytes

    def __del__(self):
        if getattr(self, "ptr", 0):
            _c.pinned_free(self.ptr)
            self.ptr = 0


def pinned_empty(shape: int | tuple[int, ...],
                 dtype: DTypeLike = np.float32) -> np.ndarray[Any, Any]:
    """A NumPy array over page-locked host memory: copies to and from it are asynchronous
    (``ap.asarray(a, device='cuda')`` queues the copy and returns; synchronize the stream
    before writing to `a` again)."""
    dt = np.dtype(dtype)
    shape = (shape,) if np.isscalar(shape) else tuple(shape)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dt.itemsize
    buf = _PinnedBuffer(max(nbytes, 1))
    import ctypes  # only here: pinned host buffers are its one use

    raw = (ctypes.c_char * max(nbytes, 1)).from_address(buf.ptr)
    raw._accelpy_owner = buf  # the buffer lives as long as any view of it
    return np.frombuffer(raw, dtype=np.uint8, count=nbytes).view(dt).reshape(shape)


def alloc_pinned_memory(nbytes: int) -> Any:
    """`nbytes` of page-locked host memory as a writable buffer (CuPy's
    ``cuda.alloc_pinned_memory``: ``numpy.frombuffer(mem, dtype, n)`` views it); freed when
    nothing refers to it."""
    if not isinstance(nbytes, (int, np.integer)) or nbytes < 0:
        raise ValueError(f"alloc_pinned_memory: nbytes must be a non-negative int, got {nbytes!r}")
    return pinned_empty(int(nbytes), np.uint8).data


def copy_to_host_async(src: ndarray, out: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """Queues a copy of the CUDA array `src` into the pinned NumPy array `out` on the current
    stream and returns at once; synchronize the stream (or an event) before reading `out`."""
    if not isinstance(out, np.ndarray) or not out.flags.c_contiguous:
        raise TypeError("out must be a C-contiguous NumPy array from accelpy.cuda.pinned_empty")
    if out.dtype != src.dtype or out.shape != src.shape:
        raise ValueError(f"out has dtype {out.dtype} and shape {out.shape}; the array has "
                         f"{src.dtype} and {src.shape}")
    _c.copy_to_host_async(src, out.ctypes.data, out.nbytes)
    return out


def _launch_faulting_kernel(device=None):
    """Testing aid: launches a kernel that writes through a null pointer."""
    _c._launch_faulting_kernel(device)


class _CudaModule(type(sys)):
    """The module's class: gives it the ``allow_tf32`` and ``graphs`` switches as properties
    (module attributes cannot run code when set)."""

    @property
    def allow_tf32(self):
        """Whether float32 (and complex64) matmul may use TF32 tensor cores: inputs rounded to
        10 mantissa bits, several times faster, about 1e-3 relative error. False by default
        (NumPy's results); like ``torch.backends.cuda.matmul.allow_tf32``, process-wide."""
        return _c.allow_tf32()

    @allow_tf32.setter
    def allow_tf32(self, value):
        _c.set_allow_tf32(bool(value))

    @property
    def graphs(self):
        """Whether repeated evaluations are replayed as CUDA graphs (see graph_stats). True
        by default, False when the process started with ``ACCELPY_CUDA_GRAPHS=0``;
        process-wide."""
        return _c.graphs_enabled()

    @graphs.setter
    def graphs(self, value):
        _c.set_graphs_enabled(bool(value))


sys.modules[__name__].__class__ = _CudaModule
