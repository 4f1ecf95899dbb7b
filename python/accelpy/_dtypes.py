"""accelpy's dtypes: NumPy's own dtype objects, plus bfloat16 from ml_dtypes.

Using NumPy's dtypes means ``x.dtype == np.float32`` works and every dtype spelling NumPy
accepts (``"f4"``, ``np.float32``, ``float``) works here too.
"""

import ml_dtypes
import numpy as np

bool = np.bool_  # noqa: A001 - NumPy's name
int8 = np.int8
int16 = np.int16
int32 = np.int32
int64 = np.int64
uint8 = np.uint8
uint16 = np.uint16
uint32 = np.uint32
uint64 = np.uint64
float16 = np.float16
bfloat16 = ml_dtypes.bfloat16
float32 = np.float32
float64 = np.float64
complex64 = np.complex64
complex128 = np.complex128

# In the core's DType order (NumPy's loop order).
ALL = (bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64,
       float16, bfloat16, float32, float64, complex64, complex128)
DTYPES = tuple(np.dtype(t) for t in ALL)
_SUPPORTED = frozenset(DTYPES)


def supported(dt):
    """Whether a NumPy dtype is one accelpy stores."""
    return dt in _SUPPORTED
