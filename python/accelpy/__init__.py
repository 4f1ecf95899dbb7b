"""accelpy: NumPy-compatible arrays on NVIDIA GPUs and CPUs, with automatic fusion.

    import accelpy as ap
    x = ap.asarray(numpy_array)
    y = ap.sqrt(x * x + 1.0).sum(axis=0)   # deferred; runs as one kernel
    print(ap.asnumpy(y))                   # evaluated here
"""

from . import _core
from ._dtypes import (  # noqa: F401 - public dtypes (bfloat16: __getattr__ below)
    bool,
    complex64,
    complex128,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    uint16,
    uint32,
    uint64,
)
from ._dtypes import eager_dtypes as _eager_dtypes
from ._dtypes import load_bfloat16 as _load_bfloat16

_core._set_dtypes(_eager_dtypes(), _load_bfloat16)

from . import _printing  # noqa: E402
from ._core import *  # noqa: E402,F401,F403 - the bound functions
from ._core import Device, OutOfMemoryError, eval, ndarray  # noqa: E402,F401
from ._creation import (  # noqa: E402,F401
    array,
    asarray,
    ascontiguousarray,
    empty_like,
    full_like,
    identity,
    linspace,
    ones_like,
    zeros_like,
)

_core._set_asarray(asarray)
_printing.install()

import os as _os  # noqa: E402

import numpy as _np  # noqa: E402

from . import cuda  # noqa: E402,F401 - touches no GPU until used
from ._aliases import *  # noqa: E402,F401,F403
from ._array_api import (  # noqa: E402,F401 - the Array API beyond NumPy's names
    __array_api_version__,
    __array_namespace_info__,
    finfo,
    iinfo,
    isdtype,
    unstack,
)
from .fusion import debug_fusion, max_pending_bytes, set_max_pending_bytes  # noqa: E402,F401

if not hasattr(_core, "vecdot"):
    from ._array_api import vecdot  # noqa: F401 - composed; the core's own wins when it has one
from . import (  # noqa: E402
    _rearranging,
    _interop,
    random,  # noqa: F401 - accelpy.random (Generator, default_rng, ...)
)
from ._calculus import gradient, trapezoid  # noqa: E402,F401
from ._dlpack import from_dlpack  # noqa: E402,F401
from ._histograms import bincount, histogram, histogram_bin_edges  # noqa: E402,F401
from ._rearranging import *  # noqa: E402,F401,F403 - flip, roll, tile, pad, tril, ...
from ._sorting import convolve, correlate, digitize, interp, lexsort  # noqa: E402,F401
from ._sets import unique, unique_all, unique_counts, unique_inverse, unique_values  # noqa: E402,F401
from ._statistics import *  # noqa: E402,F401,F403 - median, quantile, nan* reductions, ...

_interop.install()
_rearranging.install()

# NumPy's bundled OpenBLAS (numpy.libs/) is the CPU BLAS of choice; its site-packages may differ
# from ours (an editable or user install), so name it to the loader (nothing is loaded yet).
_core._add_blas_search_dirs([_os.path.dirname(_os.path.dirname(_np.__file__))])


device = Device
AxisError = _np.exceptions.AxisError
newaxis = None
pi = _np.pi
e = _np.e
inf = _np.inf
nan = _np.nan

__version__ = "0.1.0"

# Users' CUDA kernels (issue 5): CuPy's RawKernel / RawModule / ElementwiseKernel /
# ReductionKernel; the PyCUDA layer is accelpy.driver, accelpy.compiler, accelpy.autoinit.
from ._kernel_gen import ElementwiseKernel, ReductionKernel  # noqa: E402,F401
from ._kernels import CompileError, RawKernel, RawModule  # noqa: E402,F401

if not hasattr(_core, "allclose"):
    from ._logic import allclose, isclose  # noqa: F401 - composed; the core's own wins


# Imported on first use, keeping `import accelpy` fast: numpy.fft's and numpy.linalg's functions.
_LAZY_SUBMODULES = ("fft", "linalg")


def __getattr__(name):
    # bfloat16 imports ml_dtypes on first use (see _dtypes), keeping `import accelpy` fast.
    if name == "bfloat16":
        return _load_bfloat16().type
    if name in _LAZY_SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")  # sets the attribute too
    raise AttributeError(f"module 'accelpy' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"bfloat16", *_LAZY_SUBMODULES})

# NumPy breadth (issue 6): A - shapes, stacking, indices, inspection; B - elementwise math,
# polynomials, windows, log-scale ranges and products; all composed from the core's ops.
from ._histogramdd import histogram2d, histogramdd  # noqa: E402,F401
from ._indexing import *  # noqa: E402,F401,F403 - indices, ix_, tril_indices, choose, copyto, ...
from ._inspection import *  # noqa: E402,F401,F403 - shape, array_equal, shares_memory, ...
from ._math import *  # noqa: E402,F401,F403 - angle, divmod, modf, frexp, ldexp, gcd, ...
from ._polynomial import *  # noqa: E402,F401,F403 - polyval, polyfit, roots, poly, vander, ...
from ._linear_algebra import *  # noqa: E402,F401,F403 - kron, cross, matvec, vecmat
from ._ranges import *  # noqa: E402,F401,F403 - logspace, geomspace
from ._manipulation import *  # noqa: E402,F401,F403 - hstack, vstack, block, insert, delete, ...
from ._window import *  # noqa: E402,F401,F403 - window functions, unwrap
