"""accelpy: NumPy-compatible arrays on NVIDIA GPUs and CPUs, with automatic fusion.

    import accelpy as ap
    x = ap.asarray(numpy_array)
    y = ap.sqrt(x * x + 1.0).sum(axis=0)   # deferred; runs as one kernel
    print(ap.asnumpy(y))                   # evaluated here
"""

from . import _core
from ._dtypes import DTYPES as _DTYPES
from ._dtypes import (  # noqa: F401 - public dtypes
    bfloat16,
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

_core._set_dtypes(list(_DTYPES))

from . import _format  # noqa: E402
from ._core import *  # noqa: E402,F401,F403 - the bound functions
from ._core import Device, OutOfMemoryError, eval, ndarray  # noqa: E402,F401
from ._creation import (  # noqa: E402,F401
    array,
    asarray,
    empty_like,
    full_like,
    identity,
    linspace,
    ones_like,
    zeros_like,
)

_core._set_asarray(asarray)
_format.install()

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
from . import _protocols  # noqa: E402
from ._dlpack import from_dlpack  # noqa: E402,F401
from ._sets import unique, unique_all, unique_counts, unique_inverse, unique_values  # noqa: E402,F401

_protocols.install()

device = Device
AxisError = _np.exceptions.AxisError
newaxis = None
pi = _np.pi
e = _np.e
inf = _np.inf
nan = _np.nan

__version__ = "0.1.0"
