"""Your own CUDA C kernels, with CuPy's signatures: RawKernel, RawModule (this file),
ElementwiseKernel and ReductionKernel (_kernel_gen.py).

Code is compiled with NVRTC (no nvcc at run time), cached in memory and on disk
(``ACCELPY_CACHE_DIR``), and loaded on each device on first use. Before every launch the
configuration is checked against the device's and the kernel's limits (ValueError naming the
limit) and the arguments against the kernel's parameter list as the driver reports it
(TypeError naming the parameter). A compile failure raises :class:`CompileError` with NVRTC's
log and the offending source lines.

Arguments: accelpy CUDA arrays and any object with ``__cuda_array_interface__`` are passed as
pointers (pending work on an array is computed first, and pending readers of it run before the
kernel may write it); NumPy scalars by value; a Python int as the parameter's integer size (4
or 8 bytes), a Python float as a double, bytes as a struct.
"""

from __future__ import annotations

import atexit
import os
import re
from collections.abc import Sequence
from typing import IO, Any

from . import _core

_raw = _core._raw

CompileError = _raw.CompileError

_KERNEL_RE = r"__global__\b[^;{]*?(?<![\w:])%s\s*\("


def _parameter_names(code, name):
    """The parameter names of kernel `name` in `code` (for messages), or [] when unsure."""
    base = name.split("<", 1)[0].split("::")[-1]
    m = re.search(_KERNEL_RE % re.escape(base), code)
    if not m:
        return []
    depth, start, i = 1, m.end(), m.end()
    while i < len(code) and depth:
        depth += {"(": 1, ")": -1}.get(code[i], 0)
        i += 1
    body = code[start:i - 1]
    parts, depth, cur = [], 0, ""
    for ch in body:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur)
    names = []
    for p in parts:
        p = p.split("=", 1)[0]
        ids = re.findall(r"[A-Za-z_]\w*", re.sub(r"\[.*?\]", "", p))
        if not ids:
            return []
        names.append(ids[-1])
    return names


# Modules by everything that defines them, so that a kernel object made again (in a loop, or
# an ElementwiseKernel per call) reuses the compiled and loaded module, as CuPy does.
_modules = {}
_MAX_MODULES = 512
# Emptied at exit, while the interpreter still runs: modules still referenced when the
# interpreter frees accelpy's extension are reported by nanobind as leaks.
atexit.register(_modules.clear)


def _cache_dir_option(cache_dir):
    if cache_dir is None:
        return ""
    if cache_dir is False or cache_dir == "":
        return "off"
    return os.fspath(cache_dir)


def _current_cuda_index():
    dev = _core.get_default_device()
    return dev.index if str(dev).startswith("cuda") else 0


class RawModule:
    """A CUDA C/C++ module compiled with NVRTC (CuPy's ``cupy.RawModule``).

    ``code`` is the source; ``path`` a file holding a source (``.cu``) or a compiled image
    (``.cubin``, ``.ptx``, ``.fatbin``) to load as it is. ``name_expressions`` lists C++ names
    (template instances such as ``"my_kernel<float>"``) that :meth:`get_function` can then take.
    Compilation happens on first use, or at :meth:`compile`.
    """

    def __init__(self, code: str | None = None, *, path: str | None = None,
                 options: Sequence[str] = (), backend: str = "nvrtc",
                 translate_cucomplex: bool = False, enable_cooperative_groups: bool = False,
                 name_expressions: Sequence[str] | None = None, jitify: bool = False,
                 name: str = "RawModule", cache_dir: str | bool | None = None,
                 _with_prelude=False) -> None:
        if backend != "nvrtc":
            raise ValueError(f"backend must be 'nvrtc' (accelpy compiles with NVRTC), got "
                             f"{backend!r}")
        if jitify:
            raise ValueError("jitify is not supported: accelpy compiles with NVRTC directly")
        if (code is None) == (path is None):
            raise TypeError("give exactly one of code and path")
        if isinstance(options, str):
            options = (options,)
        options = tuple(options)
        if enable_cooperative_groups:
            raise ValueError("enable_cooperative_groups is not supported: accelpy launches "
                             "kernels with cuLaunchKernel, without grid-wide synchronization")
        for o in options:
            if not isinstance(o, str):
                raise TypeError(f"options must be strings, got {type(o).__name__}")
        image = b""
        if path is not None:
            path = os.fspath(path)
            if path.endswith((".cu", ".cuh", ".cpp")):
                with open(path) as f:
                    code = f.read()
            else:
                with open(path, "rb") as f:
                    image = f.read()
                code = ""
        if not isinstance(code, str):
            raise TypeError(f"code must be a str, got {type(code).__name__}")
        if translate_cucomplex:
            code = "#include <cuComplex.h>\n" + code
        self.code = code
        self.path = path
        self.options = options
        self.name_expressions = tuple(name_expressions or ())
        self._with_prelude = _with_prelude
        key = (code, name, options, self.name_expressions, _with_prelude,
               _cache_dir_option(cache_dir), image)
        self._m = _modules.get(key)
        if self._m is None:
            self._m = _raw.RawModule(code, name, list(options), list(self.name_expressions),
                                     _with_prelude, _cache_dir_option(cache_dir), image)
            if len(_modules) >= _MAX_MODULES:
                _modules.pop(next(iter(_modules)))
            _modules[key] = self._m

    def compile(self, log_stream: IO[str] | None = None) -> RawModule:
        """Compiles now (for the current device; for the CPU device without a GPU or with
        ``ACCELPY_KERNELS_ON_CPU=1``); raises CompileError. The compiler's warnings go to
        `log_stream` when given."""
        info = self._m.compile_cpu() if _raw.kernels_on_cpu() else self._m.compile()
        if log_stream is not None and info["log"]:
            log_stream.write(info["log"])
        return self

    def get_function(self, name: str) -> RawKernel:
        """The kernel `name` (an ``extern "C"`` name, or one of ``name_expressions``)."""
        return RawKernel(None, name, _module=self)

    def get_global(self, name: str) -> DevicePointer:
        """A ``__device__`` or ``__constant__`` variable of the module on the current device:
        a :class:`DevicePointer` (``.ptr``, ``.size``, ``int()``, ``__cuda_array_interface__``)."""
        if _raw.kernels_on_cpu():
            ptr, size = self._m.global_cpu(name)
            return DevicePointer(ptr, size, owner=self)
        dev = _current_cuda_index()
        ptr, size = self._m.global_(name, dev)
        return DevicePointer(ptr, size, owner=self)

    def get_lowered_name(self, name_expression: str) -> str:
        """The mangled name NVRTC gave a name expression."""
        return self._m.lowered_name(name_expression)


class DevicePointer:
    """Device memory owned by something else (a module's global): its address and size."""

    def __init__(self, ptr: int, size: int, owner: object = None) -> None:
        self.ptr = int(ptr)
        self.size = int(size)
        self._owner = owner

    def __int__(self) -> int:
        return self.ptr

    __index__ = __int__

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        return {"shape": (self.size,), "typestr": "|u1", "data": (self.ptr, False),
                "strides": None, "version": 3, "stream": None}

    def tobytes(self, order: str = "C") -> bytes:
        """The bytes, copied to the host: an array's elements in `order`, as NumPy's
        ``a.data.tobytes()`` (a memoryview's) gives them; else the `size` bytes at `ptr`."""
        if isinstance(self._owner, _core.ndarray):
            return self._owner.tobytes(order=order)
        from ._interop import asarray_foreign

        return asarray_foreign(self).tobytes()

    def __repr__(self):
        return f"<accelpy DevicePointer {self.ptr:#x}, {self.size} bytes>"


# The CPU device's limits (src/cpu/user_kernels/module.cpp), in the GPU attributes' names.
_CPU_ATTRIBUTES = {"max_threads_per_block": 1024, "shared_size_bytes": 0, "const_size_bytes": 0,
                   "local_size_bytes": 0, "num_regs": 0, "ptx_version": 0, "binary_version": 0,
                   "max_dynamic_shared_size_bytes": 227 * 1024}


class RawKernel(_raw.Kernel):
    """A CUDA kernel from source (CuPy's ``cupy.RawKernel``)::

        add = ap.RawKernel(code, "add")
        add((blocks,), (256,), (a, b, c, ap.int32(n)))   # grid, block, args

    Called as ``kernel(grid, block, args, shared_mem=0, stream=None)``: launched on the device
    of its first CUDA array argument (else the current device), on the current stream unless
    `stream` is given. The call goes straight to C++ (this class subclasses the binding).
    """

    def __init__(self, code: str, name: str, options: Sequence[str] = (), backend: str = "nvrtc",
                 translate_cucomplex: bool = False, enable_cooperative_groups: bool = False,
                 jitify: bool = False, *, cache_dir: str | bool | None = None,
                 _module=None) -> None:
        if not isinstance(name, str):
            raise TypeError(f"name must be a str, got {type(name).__name__}")
        module = _module if _module is not None else RawModule(
            code=code, options=options, backend=backend,
            translate_cucomplex=translate_cucomplex,
            enable_cooperative_groups=enable_cooperative_groups, jitify=jitify, name=name,
            cache_dir=cache_dir)
        super().__init__(module._m, name, _parameter_names(module.code, name))
        self.module = module
        self.name = name
        self.code = module.code
        self.options = module.options

    def compile(self, log_stream: IO[str] | None = None) -> RawKernel:
        """Compiles now (and loads the kernel on the current device when there is one)."""
        self.module.compile(log_stream)
        if _core._cuda.is_available():
            self._attributes(_current_cuda_index())
        return self

    @property
    def attributes(self) -> dict[str, int]:
        """The kernel's attributes on the current device (registers, shared memory, ...); on
        the CPU device, its limits (no registers or local memory to report)."""
        if _raw.kernels_on_cpu():
            return dict(_CPU_ATTRIBUTES)
        return dict(self._attributes(_current_cuda_index()))

    @property
    def max_threads_per_block(self) -> int:
        return self.attributes["max_threads_per_block"]

    @property
    def num_regs(self) -> int:
        return self.attributes["num_regs"]

    @property
    def shared_size_bytes(self) -> int:
        return self.attributes["shared_size_bytes"]

    @property
    def const_size_bytes(self) -> int:
        return self.attributes["const_size_bytes"]

    @property
    def local_size_bytes(self) -> int:
        return self.attributes["local_size_bytes"]

    @property
    def ptx_version(self) -> int:
        return self.attributes["ptx_version"]

    @property
    def binary_version(self) -> int:
        return self.attributes["binary_version"]

    @property
    def max_dynamic_shared_size_bytes(self) -> int:
        return self.attributes["max_dynamic_shared_size_bytes"]

    @property
    def param_sizes(self) -> list[tuple[int, int]] | None:
        """(offset, size) of each parameter, as the driver reports them (on the CPU device:
        from the compiled signature); None when it cannot (a driver older than CUDA 12.4)."""
        p = self._params(-1 if _raw.kernels_on_cpu() else _current_cuda_index())
        return None if p is None else [tuple(x) for x in p]

    def __repr__(self):
        return f"<accelpy.RawKernel {self.name!r}>"
