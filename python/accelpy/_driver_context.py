"""The PyCUDA-compatible layer's devices and contexts (driver.py): device numbers, the
per-thread context stack, and the accelpy device its kernels and memory go to."""

import threading

from . import _core
from . import _driver_cpu as _cpu
from . import cuda as _apcuda


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
