"""accelpy's dtypes: NumPy's own dtype objects, plus bfloat16 from ml_dtypes.

Using NumPy's dtypes means ``x.dtype == np.float32`` works and every dtype spelling NumPy
accepts (``"f4"``, ``np.float32``, ``float``) works here too.

ml_dtypes is imported on first use of bfloat16 (``ap.bfloat16``, a bfloat16 array or dtype
reaching accelpy), not at ``import accelpy``: importing it took 2/3 of accelpy's import time.
A NumPy bfloat16 dtype exists only once ml_dtypes is imported, so nothing is missed by waiting.
"""

import sys

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
float32 = np.float32
float64 = np.float64
complex64 = np.complex64
complex128 = np.complex128

# In the core's DType order (NumPy's loop order); None where bfloat16 goes until it is loaded.
_EAGER = (bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64,
          float16, None, float32, float64, complex64, complex128)
_SUPPORTED = {np.dtype(t) for t in _EAGER if t is not None}


def load_bfloat16():
    """Imports ml_dtypes and returns the bfloat16 dtype (the core calls this on first need)."""
    import ml_dtypes

    dt = np.dtype(ml_dtypes.bfloat16)
    _SUPPORTED.add(dt)
    return dt


def eager_dtypes():
    """The dtype objects the core starts with, bfloat16's place None (see load_bfloat16)."""
    return [None if t is None else np.dtype(t) for t in _EAGER]


def supported(dt):
    """Whether a NumPy dtype is one accelpy stores."""
    if dt in _SUPPORTED:
        return True
    return "ml_dtypes" in sys.modules and load_bfloat16() == dt


def __getattr__(name):
    # bfloat16 and the tables holding it load ml_dtypes on first access.
    if name == "bfloat16":
        return load_bfloat16().type
    if name == "ALL":
        return tuple(load_bfloat16().type if t is None else t for t in _EAGER)
    if name == "DTYPES":
        return tuple(np.dtype(t) for t in __getattr__("ALL"))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
