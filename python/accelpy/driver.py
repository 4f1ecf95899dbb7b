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

import threading

import numpy as np

from . import _core
from . import _driver_cpu as _cpu
from . import cuda as _apcuda
from ._creation import asarray
from ._kernels import CompileError, DevicePointer  # noqa: F401 - PyCUDA has them here too

_raw = _core._raw

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


class device_attribute:  # noqa: N801 - PyCUDA's name
    """Names for Device.get_attribute (the attributes accelpy reads from the driver)."""

    MAX_THREADS_PER_BLOCK = "max_threads_per_block"
    MAX_SHARED_MEMORY_PER_BLOCK = "max_shared_memory_per_block"
    WARP_SIZE = "warp_size"
    CLOCK_RATE = "clock_rate_khz"
    MULTIPROCESSOR_COUNT = "multi_processor_count"
    PCI_BUS_ID = "pci_bus_id"
    MEMORY_CLOCK_RATE = "memory_clock_rate_khz"
    GLOBAL_MEMORY_BUS_WIDTH = "memory_bus_width"
    L2_CACHE_SIZE = "l2_cache_size"
    MAX_THREADS_PER_MULTIPROCESSOR = "max_threads_per_multi_processor"
    COMPUTE_CAPABILITY_MAJOR = "major"
    COMPUTE_CAPABILITY_MINOR = "minor"


class Device:
    """CUDA device number `number`."""

    def __init__(self, number):
        number = int(number)
        count = Device.count()
        if not 0 <= number < count:
            raise ValueError(f"device {number} does not exist: {count} CUDA device(s) found"
                             + ("" if count else f" ({_apcuda.unavailable_reason()})")
                             + (" (the CPU device stands in as device 0)" if _cpu.active()
                                else ""))
        self.number = number

    @staticmethod
    def count():
        return 1 if _cpu.active() else _apcuda.device_count()

    def _props(self):
        return _cpu.properties() if _cpu.active() else _apcuda._c.device_properties(self.number)

    def name(self):
        return self._props()["name"]

    def compute_capability(self):
        p = self._props()
        return (p["major"], p["minor"])

    def total_memory(self):
        return self._props()["total_memory"]

    def pci_bus_id(self):
        return f"0000:{self._props()['pci_bus_id']:02x}:00.0"

    def get_attributes(self):
        """The device's properties as a dict (names as in accelpy.cuda.DeviceProperties)."""
        return dict(self._props())

    def get_attribute(self, attr):
        """One attribute (a :class:`device_attribute` name)."""
        props = self._props()
        key = str(attr).lower().rsplit(".", 1)[-1]
        if key not in props:
            raise ValueError(f"unknown device attribute {attr!r}; known: {sorted(props)}")
        return props[key]

    def make_context(self, flags=0):
        """The device's primary context, pushed (made current) on this thread."""
        ctx = Context(self)
        ctx.push()
        return ctx

    def retain_primary_context(self):
        """The device's primary context (not made current: call push())."""
        return Context(self)

    def __eq__(self, other):
        return isinstance(other, Device) and other.number == self.number

    def __hash__(self):
        return hash(("accelpy.driver.Device", self.number))

    def __repr__(self):
        return f"<accelpy.driver.Device {self.number}: {self.name()}>"


_tls = threading.local()


def _stack():
    if not hasattr(_tls, "stack"):
        _tls.stack = []
    return _tls.stack


class Context:
    """A device's primary context. push()/pop() keep a per-thread stack; the context on top
    is current, and its device is accelpy's default device meanwhile."""

    def __init__(self, device):
        self.device = device
        self._ap_device = _kernel_device(device.number)

    def push(self):
        _stack().append((self, _core.get_default_device()))
        _core.set_default_device(self._ap_device)

    @staticmethod
    def pop():
        stack = _stack()
        if not stack:
            raise RuntimeError("context stack is empty: nothing to pop")
        _, previous = stack.pop()
        _core.set_default_device(previous)

    def detach(self):
        stack = _stack()
        if stack and stack[-1][0] is self:
            Context.pop()

    @staticmethod
    def get_current():
        stack = _stack()
        return stack[-1][0] if stack else None

    @staticmethod
    def get_device():
        ctx = Context.get_current()
        if ctx is None:
            raise RuntimeError("no current context: push one (or import accelpy.autoinit)")
        return ctx.device

    @staticmethod
    def synchronize():
        """Waits for all work on the current context's device."""
        if not _cpu.active():
            _apcuda.synchronize(_current_index())

    def __enter__(self):
        self.push()
        return self

    def __exit__(self, *exc):
        Context.pop()

    def __repr__(self):
        return f"<accelpy.driver.Context of device {self.device.number}>"


def _current_index():
    ctx = Context.get_current()
    if ctx is not None:
        return ctx.device.number
    dev = _core.get_default_device()
    return dev.index if str(dev).startswith("cuda") else 0


def _kernel_device(number=None):
    """The accelpy device kernels of this layer run on: CUDA device `number` (default: the
    current one), or the CPU device."""
    if _cpu.active():
        return _core.Device("cpu")
    return _core.Device(f"cuda:{_current_index() if number is None else number}")


def mem_get_info():
    """(free, total) bytes of the current device."""
    if _cpu.active():
        return _cpu.mem_get_info()
    return tuple(_raw.mem_get_info(_current_index()))


class DeviceAllocation:
    """Device memory from mem_alloc: ``int(a)`` is its address; freed by free() or when
    dropped. Accepted wherever a pointer is (kernels, copies, accelpy.asarray)."""

    def __init__(self, nbytes):
        self._nbytes = int(nbytes)
        dev = _kernel_device()
        self._array = _core.empty((max(self._nbytes, 1),), dtype=np.uint8, device=dev)
        self._ptr = _core._data_ptr(self._array)

    def _live(self):
        if self._array is None:
            raise ValueError("this DeviceAllocation was freed")
        return self._ptr

    def __int__(self):
        return self._live()

    __index__ = __int__

    @property
    def size(self):
        return self._nbytes

    def free(self):
        """Releases the memory (after the work queued on the current stream)."""
        self._array = None

    def as_buffer(self, size, offset=0):
        """A host copy of `size` bytes from `offset`, as a read-only memoryview (device memory
        is not addressable from the host)."""
        ptr = self._live()
        if offset < 0 or size < 0 or offset + size > self._nbytes:
            raise ValueError(f"bytes [{offset}, {offset + size}) are outside the allocation of "
                             f"{self._nbytes} bytes")
        out = np.empty(size, dtype=np.uint8)
        memcpy_dtoh(out, ptr + offset)
        return memoryview(out.tobytes())

    @property
    def __cuda_array_interface__(self):
        return {"shape": (self._nbytes,), "typestr": "|u1", "data": (self._live(), False),
                "strides": None, "version": 3, "stream": None}

    def __repr__(self):
        state = "freed" if self._array is None else f"{self._ptr:#x}"
        return f"<accelpy.driver.DeviceAllocation {state}, {self._nbytes} bytes>"


def mem_alloc(nbytes):
    """Allocates `nbytes` bytes on the current device."""
    if int(nbytes) < 0:
        raise ValueError(f"cannot allocate {nbytes} bytes")
    return DeviceAllocation(nbytes)


def _ptr(obj):
    if isinstance(obj, (DeviceAllocation, DevicePointer, int, np.integer)):
        return int(obj)
    if isinstance(obj, _core.ndarray):
        return _core._data_ptr(obj)
    if hasattr(obj, "__cuda_array_interface__"):
        return int(obj.__cuda_array_interface__["data"][0])
    raise TypeError(f"expected device memory (a DeviceAllocation, an int address, an array "
                    f"with __cuda_array_interface__), got {type(obj).__name__}")


def _host(obj, writable=False):
    if isinstance(obj, np.ndarray) and not obj.flags.c_contiguous:
        raise ValueError("host arrays must be C-contiguous for copies (use "
                         "numpy.ascontiguousarray)")
    if writable and isinstance(obj, np.ndarray) and not obj.flags.writeable:
        raise ValueError("the destination array is read-only")
    return obj


def _stream(stream):
    return None if stream is None else stream.handle


def _htod(dest, src, stream, sync):
    dst, host = _ptr(dest), _host(src)
    if _cpu.active():
        return _cpu.copy_to(dst, host)
    _raw.memcpy_htod(dst, host, _stream(stream), sync)


def _dtoh(dest, src, stream, sync):
    host, ptr = _host(dest, True), _ptr(src)
    if _cpu.active():
        return _cpu.copy_from(host, ptr)
    _raw.memcpy_dtoh(host, ptr, _stream(stream), sync)


def _dtod(dest, src, size, stream, sync):
    if _cpu.active():
        return _cpu.copy_between(_ptr(dest), _ptr(src), int(size))
    _raw.memcpy_dtod(_ptr(dest), _ptr(src), int(size), _stream(stream), sync)


def memcpy_htod(dest, src):
    """Copies the host buffer `src` to device memory `dest` and waits for the copy."""
    _htod(dest, src, None, True)


def memcpy_dtoh(dest, src):
    """Copies device memory `src` into the host buffer `dest` (its size) and waits."""
    _dtoh(dest, src, None, True)


def memcpy_dtod(dest, src, size):
    """Copies `size` bytes between device buffers and waits."""
    _dtod(dest, src, size, None, True)


def memcpy_htod_async(dest, src, stream=None):
    """Queues the copy on `stream` (default: the current stream); `src` must stay unchanged
    until the stream reaches it (page-locked memory makes the copy truly asynchronous)."""
    _htod(dest, src, stream, False)


def memcpy_dtoh_async(dest, src, stream=None):
    _dtoh(dest, src, stream, False)


def memcpy_dtod_async(dest, src, size, stream=None):
    _dtod(dest, src, size, stream, False)


def to_device(bf_obj):
    """A DeviceAllocation holding a copy of a host buffer."""
    a = np.ascontiguousarray(bf_obj)
    d = mem_alloc(a.nbytes)
    memcpy_htod(d, a)
    return d


def from_device(devptr, shape, dtype, order="C"):
    """A NumPy array copied from device memory."""
    out = np.empty(shape, dtype=dtype, order=order)
    memcpy_dtoh(out, devptr)
    return out


def from_device_like(devptr, other_ary):
    return from_device(devptr, other_ary.shape, other_ary.dtype)


def pagelocked_empty(shape, dtype, order="C", mem_flags=0):
    """A NumPy array in page-locked host memory (asynchronous copies)."""
    if order != "C":
        raise ValueError("only order='C' page-locked arrays are supported")
    return np.empty(shape, dtype) if _cpu.active() else _apcuda.pinned_empty(shape, dtype)


def pagelocked_zeros(shape, dtype, order="C", mem_flags=0):
    a = pagelocked_empty(shape, dtype, order, mem_flags)
    a.fill(0)
    return a


def pagelocked_empty_like(array, mem_flags=0):
    return pagelocked_empty(array.shape, array.dtype)


def pagelocked_zeros_like(array, mem_flags=0):
    return pagelocked_zeros(array.shape, array.dtype)


class Stream:
    """A CUDA stream (non-blocking with respect to the legacy default stream)."""

    def __init__(self, flags=0):
        self._s = _cpu.Stream() if _cpu.active() else _apcuda.Stream(device=_current_index())

    @property
    def handle(self):
        return self._s.handle

    ptr = handle

    def synchronize(self):
        self._s.synchronize()

    def is_done(self):
        return self._s.query()

    def wait_for_event(self, event):
        self._s.wait_event(event._e)


class Event:
    """A CUDA event: record it, wait for it, time between two."""

    def __init__(self, flags=0):
        self._e = _cpu.Event() if _cpu.active() else _apcuda.Event(device=_current_index())

    def record(self, stream=None):
        self._e.record(None if stream is None else stream._s)
        return self

    def synchronize(self):
        self._e.synchronize()
        return self

    def query(self):
        return self._e.query()

    def time_since(self, event):
        """Milliseconds from `event` (recorded earlier) to this one."""
        return event._e.elapsed_time(self._e)

    def time_till(self, event):
        """Milliseconds from this event to `event` (recorded later)."""
        return self._e.elapsed_time(event._e)


class ArgumentHandler:
    def __init__(self, array):
        if not isinstance(array, np.ndarray):
            raise TypeError(f"In/Out/InOut wrap NumPy arrays, got {type(array).__name__}")
        self.array = array

    def get_device_alloc(self):
        return self._dev


class In(ArgumentHandler):
    """A host array copied to the device before the kernel runs."""


class Out(ArgumentHandler):
    """A host array the kernel writes: copied back after it runs."""


class InOut(In, Out):
    """Copied in before the kernel and back after it."""


class function_attribute:  # noqa: N801 - PyCUDA's name
    """Names for Function.get_attribute."""

    MAX_THREADS_PER_BLOCK = "max_threads_per_block"
    SHARED_SIZE_BYTES = "shared_size_bytes"
    CONST_SIZE_BYTES = "const_size_bytes"
    LOCAL_SIZE_BYTES = "local_size_bytes"
    NUM_REGS = "num_regs"
    PTX_VERSION = "ptx_version"
    BINARY_VERSION = "binary_version"
    MAX_DYNAMIC_SHARED_SIZE_BYTES = "max_dynamic_shared_size_bytes"


_ARG_TYPES = {"P": np.uintp, "i": np.int32, "I": np.uint32, "l": np.int64, "L": np.uint64,
              "q": np.int64, "Q": np.uint64, "f": np.float32, "d": np.float64, "h": np.int16,
              "H": np.uint16, "b": np.int8, "B": np.uint8, "c": np.int8, "F": np.complex64,
              "D": np.complex128, "?": np.bool_, "e": np.float16}


# Arguments a plain call converts before the launch (the rest go to the kernel as they are).
_CONVERTED = (ArgumentHandler, DeviceAllocation)


def _pointer_arg(obj):
    """A pointer argument of a prepared call: an accelpy array goes to the kernel as it is (its
    address, after its pending work and the write barrier, as in a plain call), anything else
    as the address it stands for."""
    if type(obj) is _core.ndarray:
        return obj
    return np.uintp(_ptr(obj))


class Function:
    """A kernel of a SourceModule, called PyCUDA's way::

        func(a_gpu, b_gpu, np.int32(n), block=(256, 1, 1), grid=(blocks, 1))
    """

    def __init__(self, kernel):
        self._kernel = kernel
        self._types = None

    def _convert(self, args):
        handlers, out = [], []
        for a in args:
            if isinstance(a, ArgumentHandler):
                dev = asarray(np.ascontiguousarray(a.array) if isinstance(a, In)
                                    else np.empty_like(a.array), device=_kernel_device())
                a._dev = dev
                handlers.append(a)
                out.append(dev)
            elif isinstance(a, DeviceAllocation):
                out.append(np.uintp(int(a)))
            else:
                out.append(a)
        return out, handlers

    @staticmethod
    def _copy_back(handlers):
        for h in handlers:
            if isinstance(h, Out):
                h.array[...] = _core.asnumpy(h._dev).reshape(h.array.shape)

    def __call__(self, *args, block=None, grid=None, stream=None, shared=0, texrefs=None,
                 time_kernel=False):
        """Launches the kernel; with time_kernel=True waits for it and returns its duration
        in seconds (PyCUDA's convention)."""
        if block is None:
            raise TypeError("block= is required (a tuple of up to 3 ints)")
        if grid is None:
            grid = (1, 1)
        if not time_kernel:
            for a in args:
                if isinstance(a, _CONVERTED):
                    break
            else:  # the common case: every argument goes to the kernel as it is
                if stream is None and not shared:
                    self._kernel(grid, block, args)
                else:
                    self._kernel(grid, block, args, shared_mem=shared,
                                 stream=None if stream is None else stream.handle)
                return None
        converted, handlers = self._convert(args)
        start = end = None
        if time_kernel:
            start, end = Event(), Event()
            start.record(stream)
        self._kernel(grid, block, tuple(converted), shared_mem=shared,
                     stream=None if stream is None else stream.handle)
        if time_kernel:
            end.record(stream)
            end.synchronize()
        self._copy_back(handlers)
        if time_kernel:
            return end.time_since(start) / 1e3
        return None

    def prepare(self, arg_types, texrefs=None):
        """Declares the argument types (a struct-format string such as "PPPi", or a list of
        NumPy dtypes); prepared_call then converts arguments to them."""
        if isinstance(arg_types, str):
            try:
                self._types = [_ARG_TYPES[c] for c in arg_types]
            except KeyError as e:
                raise ValueError(f"unknown argument type code {e.args[0]!r} in {arg_types!r}; "
                                 f"known: {''.join(_ARG_TYPES)}") from None
        else:
            self._types = [np.dtype(t).type for t in arg_types]
        # One converter per argument, chosen once: prepared calls only apply them.
        self._converters = [_pointer_arg if t is np.uintp else t for t in self._types]
        return self

    def _prepared_args(self, args):
        if self._types is None:
            raise RuntimeError("call prepare(arg_types) before prepared_call")
        if len(args) != len(self._types):
            raise TypeError(f"prepared for {len(self._types)} arguments, {len(args)} given")
        return tuple([conv(a) for conv, a in zip(self._converters, args, strict=True)])

    def prepared_call(self, grid, block, *args, shared_size=0):
        if shared_size:
            self._kernel(grid, block, self._prepared_args(args), shared_mem=shared_size)
        else:
            self._kernel(grid, block, self._prepared_args(args))

    def prepared_async_call(self, grid, block, stream, *args, shared_size=0):
        self._kernel(grid, block, self._prepared_args(args), shared_mem=shared_size,
                     stream=None if stream is None else stream.handle)

    def prepared_timed_call(self, grid, block, *args, shared_size=0):
        """Launches, then returns a function giving the kernel's duration in seconds."""
        start, end = Event(), Event()
        start.record()
        self._kernel(grid, block, self._prepared_args(args), shared_mem=shared_size)
        end.record()

        def elapsed():
            end.synchronize()
            return end.time_since(start) / 1e3

        return elapsed

    def get_attribute(self, name):
        """A kernel attribute by name ("num_regs", "max_threads_per_block", ...)."""
        attrs = self._kernel.attributes
        key = str(name).lower().rsplit(".", 1)[-1]
        if key not in attrs:
            raise ValueError(f"unknown attribute {name!r}; known: {sorted(attrs)}")
        return attrs[key]

    @property
    def num_regs(self):
        return self._kernel.num_regs

    @property
    def shared_size_bytes(self):
        return self._kernel.shared_size_bytes

    @property
    def local_size_bytes(self):
        return self._kernel.local_size_bytes

    @property
    def const_size_bytes(self):
        return self._kernel.const_size_bytes

    @property
    def max_threads_per_block(self):
        return self._kernel.max_threads_per_block
