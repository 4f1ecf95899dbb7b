"""PyCUDA's ``pycuda.compiler.SourceModule``, compiling with NVRTC (no nvcc needed)."""

import os

from ._kernels import CompileError, RawModule  # noqa: F401 - CompileError is re-exported
from .driver import Function


class SourceModule:
    """CUDA C source compiled at once for the current device (PyCUDA's signature).

    Unless `no_extern_c`, the source is wrapped in ``extern "C" { }`` so kernels keep their
    names. `arch` ("sm_90") overrides the device's architecture, `include_dirs` become ``-I``
    options, `cache_dir` picks the disk cache (False: none). A compile error raises
    :class:`accelpy.CompileError` carrying NVRTC's log and the offending lines.
    """

    def __init__(self, source, nvcc="nvcc", options=None, keep=False, no_extern_c=False,
                 arch=None, code=None, cache_dir=None, include_dirs=()):
        if not isinstance(source, str):
            raise TypeError(f"source must be a str, got {type(source).__name__}")
        opts = list(options or [])
        if arch is not None:
            opts.append(f"-arch={arch}")
        if code is not None:
            opts.append(f"--gpu-architecture={code}")
        opts += [f"-I{os.fspath(d)}" for d in include_dirs or ()]
        if not no_extern_c:
            source = 'extern "C" {\n' + source + '\n}\n'
        self.source = source
        self._module = RawModule(code=source, options=tuple(opts), name="SourceModule",
                                 cache_dir=cache_dir)
        self._module.compile()

    def get_function(self, name):
        """The kernel `name`, as a callable :class:`accelpy.driver.Function`."""
        return Function(self._module.get_function(name))

    def get_global(self, name):
        """(address, size in bytes) of a ``__device__`` or ``__constant__`` variable."""
        g = self._module.get_global(name)
        return g, g.size


DynamicSourceModule = SourceModule
