"""Type stubs of accelpy._dtypes (hand-written): the dtypes are NumPy's scalar types."""

from builtins import bool as _builtin_bool
from typing import Any

import numpy

bool = numpy.bool_
int8 = numpy.int8
int16 = numpy.int16
int32 = numpy.int32
int64 = numpy.int64
uint8 = numpy.uint8
uint16 = numpy.uint16
uint32 = numpy.uint32
uint64 = numpy.uint64
float16 = numpy.float16
float32 = numpy.float32
float64 = numpy.float64
complex64 = numpy.complex64
complex128 = numpy.complex128
bfloat16: type[numpy.generic]  # ml_dtypes.bfloat16

ALL: tuple[type[numpy.generic], ...]
DTYPES: tuple[numpy.dtype[Any], ...]

def supported(dt: numpy.dtype[Any]) -> _builtin_bool: ...
