"""The PyCUDA-compatible layer's launches (driver.py): streams, events, the In/Out/InOut argument
handlers and Function, a kernel called PyCUDA's way."""

import numpy as np

from . import _core
from . import _driver_cpu as _cpu
from . import cuda as _apcuda
from ._creation import asarray
from ._driver_context import _current_index, _kernel_device
from ._driver_memory import DeviceAllocation, _ptr


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


def _kernel_attribute(name):
    """A read-only property giving the kernel's attribute `name` (PyCUDA's Function has them)."""
    return property(lambda self: getattr(self._kernel, name), doc=f"The kernel's {name}.")


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

    num_regs = _kernel_attribute("num_regs")
    shared_size_bytes = _kernel_attribute("shared_size_bytes")
    local_size_bytes = _kernel_attribute("local_size_bytes")
    const_size_bytes = _kernel_attribute("const_size_bytes")
    max_threads_per_block = _kernel_attribute("max_threads_per_block")
