"""accelpy: NumPy-compatible arrays on NVIDIA GPUs and CPUs, with automatic fusion.

    import accelpy as ap
    x = ap.asarray(numpy_array)
    y = ap.sqrt(x * x + 1.0).sum(axis=0)   # deferred; runs as one kernel
    print(ap.asnumpy(y))                   # evaluated here

The public names come from one module per chapter of NumPy's reference (docs/api-map.md lists
where each is defined); functions bound in C++ are re-exported by their chapter's module.
"""

import os as _os
import sys as _sys
from typing import Any as _Any

import numpy as _np

# First: the core's functions get their signatures before any module imports them by name.
from . import _signatures  # noqa: F401

# isort: split
from . import _core, _cupy_compat, _interop, _ndarray_methods
from . import cuda as cuda  # touches no GPU until used
from . import emath as emath
from . import random as random
from . import rec as rec
from ._aliases import amax as amax
from ._aliases import amin as amin
from ._aliases import around as around
from ._aliases import permute_dims as permute_dims
from ._aliases import round_ as round_
from ._array_api import __array_api_version__ as __array_api_version__
from ._array_api import __array_namespace_info__ as __array_namespace_info__
from ._array_api import unstack as unstack
from ._bit_packing import binary_repr as binary_repr
from ._bit_packing import packbits as packbits
from ._bit_packing import unpackbits as unpackbits
from ._calculus import convolve as convolve
from ._calculus import cross as cross
from ._calculus import diff as diff
from ._calculus import ediff1d as ediff1d
from ._calculus import gradient as gradient
from ._calculus import interp as interp
from ._calculus import trapezoid as trapezoid
from ._core import Device as Device
from ._core import OutOfMemoryError as OutOfMemoryError
from ._core import eval as eval
from ._core import get_default_device as get_default_device
from ._core import ndarray as ndarray
from ._core import set_default_device as set_default_device
from ._creation import arange as arange
from ._creation import array as array
from ._creation import asanyarray as asanyarray
from ._creation import asarray as asarray
from ._creation import ascontiguousarray as ascontiguousarray
from ._creation import copy as copy
from ._creation import empty as empty
from ._creation import empty_like as empty_like
from ._creation import eye as eye
from ._creation import from_dlpack as from_dlpack
from ._creation import fromfunction as fromfunction
from ._creation import fromiter as fromiter
from ._creation import full as full
from ._creation import full_like as full_like
from ._creation import identity as identity
from ._creation import ones as ones
from ._creation import ones_like as ones_like
from ._creation import zeros as zeros
from ._creation import zeros_like as zeros_like
from ._cupy_compat import get_array_module as get_array_module
from ._cupy_compat import get_default_memory_pool as get_default_memory_pool
from ._cupy_compat import get_default_pinned_memory_pool as get_default_pinned_memory_pool
from ._cupy_compat import synchronize as synchronize
from ._dtypes import False_ as False_
from ._dtypes import ScalarType as ScalarType
from ._dtypes import True_ as True_
from ._dtypes import astype as astype
from ._dtypes import bool as bool
from ._dtypes import bool_ as bool_
from ._dtypes import byte as byte
from ._dtypes import bytes_ as bytes_
from ._dtypes import can_cast as can_cast
from ._dtypes import cdouble as cdouble
from ._dtypes import clongdouble as clongdouble
from ._dtypes import common_type as common_type
from ._dtypes import complex64 as complex64
from ._dtypes import complex128 as complex128
from ._dtypes import complexfloating as complexfloating
from ._dtypes import csingle as csingle
from ._dtypes import double as double
from ._dtypes import dtype as dtype
from ._dtypes import finfo as finfo
from ._dtypes import float16 as float16
from ._dtypes import float32 as float32
from ._dtypes import float64 as float64
from ._dtypes import floating as floating
from ._dtypes import generic as generic
from ._dtypes import half as half
from ._dtypes import iinfo as iinfo
from ._dtypes import inexact as inexact
from ._dtypes import int8 as int8
from ._dtypes import int16 as int16
from ._dtypes import int32 as int32
from ._dtypes import int64 as int64
from ._dtypes import int_ as int_
from ._dtypes import intc as intc
from ._dtypes import integer as integer
from ._dtypes import intp as intp
from ._dtypes import isdtype as isdtype
from ._dtypes import issubdtype as issubdtype
from ._dtypes import little_endian as little_endian
from ._dtypes import load_bfloat16 as _load_bfloat16
from ._dtypes import long as long
from ._dtypes import longdouble as longdouble
from ._dtypes import longlong as longlong
from ._dtypes import min_scalar_type as min_scalar_type
from ._dtypes import mintypecode as mintypecode
from ._dtypes import number as number
from ._dtypes import promote_types as promote_types
from ._dtypes import record as record
from ._dtypes import result_type as result_type
from ._dtypes import short as short
from ._dtypes import signedinteger as signedinteger
from ._dtypes import single as single
from ._dtypes import str_ as str_
from ._dtypes import typecodes as typecodes
from ._dtypes import typename as typename
from ._dtypes import ubyte as ubyte
from ._dtypes import uint as uint
from ._dtypes import uint8 as uint8
from ._dtypes import uint16 as uint16
from ._dtypes import uint32 as uint32
from ._dtypes import uint64 as uint64
from ._dtypes import uintc as uintc
from ._dtypes import uintp as uintp
from ._dtypes import ulong as ulong
from ._dtypes import ulonglong as ulonglong
from ._dtypes import unsignedinteger as unsignedinteger
from ._dtypes import ushort as ushort
from ._dtypes import void as void
from ._fp_errors import errstate as errstate
from ._fp_errors import geterr as geterr
from ._fp_errors import geterrcall as geterrcall
from ._fp_errors import seterr as seterr
from ._fp_errors import seterrcall as seterrcall
from ._functional import apply_along_axis as apply_along_axis
from ._functional import apply_over_axes as apply_over_axes
from ._functional import frompyfunc as frompyfunc
from ._functional import piecewise as piecewise
from ._functional import vectorize as vectorize
from ._histograms import bincount as bincount
from ._histograms import digitize as digitize
from ._histograms import histogram as histogram
from ._histograms import histogram2d as histogram2d
from ._histograms import histogram_bin_edges as histogram_bin_edges
from ._histograms import histogramdd as histogramdd
from ._index_tricks import c_ as c_
from ._index_tricks import index_exp as index_exp
from ._index_tricks import mgrid as mgrid
from ._index_tricks import ndenumerate as ndenumerate
from ._index_tricks import ndindex as ndindex
from ._index_tricks import nditer as nditer
from ._index_tricks import ogrid as ogrid
from ._index_tricks import r_ as r_
from ._index_tricks import s_ as s_
from ._indexing import choose as choose
from ._indexing import compress as compress
from ._indexing import diag_indices as diag_indices
from ._indexing import diag_indices_from as diag_indices_from
from ._indexing import diagonal as diagonal
from ._indexing import fill_diagonal as fill_diagonal
from ._indexing import indices as indices
from ._indexing import ix_ as ix_
from ._indexing import mask_indices as mask_indices
from ._indexing import place as place
from ._indexing import put as put
from ._indexing import put_along_axis as put_along_axis
from ._indexing import putmask as putmask
from ._indexing import ravel_multi_index as ravel_multi_index
from ._indexing import select as select
from ._indexing import take as take
from ._indexing import take_along_axis as take_along_axis
from ._indexing import tril_indices as tril_indices
from ._indexing import tril_indices_from as tril_indices_from
from ._indexing import triu_indices as triu_indices
from ._indexing import triu_indices_from as triu_indices_from
from ._indexing import unravel_index as unravel_index
from ._interop import asnumpy as asnumpy
from ._interop import may_share_memory as may_share_memory
from ._interop import shares_memory as shares_memory
from ._io import frombuffer as frombuffer
from ._io import fromfile as fromfile
from ._io import fromstring as fromstring
from ._io import genfromtxt as genfromtxt
from ._io import load as load
from ._io import loadtxt as loadtxt
from ._io import save as save
from ._io import savetxt as savetxt
from ._io import savez as savez
from ._io import savez_compressed as savez_compressed
from ._kernel_gen import ElementwiseKernel as ElementwiseKernel
from ._kernel_gen import ReductionKernel as ReductionKernel
from ._kernels import CompileError as CompileError
from ._kernels import RawKernel as RawKernel
from ._kernels import RawModule as RawModule
from ._linear_algebra import dot as dot
from ._linear_algebra import einsum as einsum
from ._linear_algebra import einsum_path as einsum_path
from ._linear_algebra import inner as inner
from ._linear_algebra import kron as kron
from ._linear_algebra import matmul as matmul
from ._linear_algebra import matvec as matvec
from ._linear_algebra import outer as outer
from ._linear_algebra import tensordot as tensordot
from ._linear_algebra import trace as trace
from ._linear_algebra import vdot as vdot
from ._linear_algebra import vecdot as vecdot
from ._linear_algebra import vecmat as vecmat
from ._logic import all as all
from ._logic import allclose as allclose
from ._logic import any as any
from ._logic import array_equal as array_equal
from ._logic import array_equiv as array_equiv
from ._logic import equal as equal
from ._logic import greater as greater
from ._logic import greater_equal as greater_equal
from ._logic import isclose as isclose
from ._logic import iscomplex as iscomplex
from ._logic import iscomplexobj as iscomplexobj
from ._logic import isfinite as isfinite
from ._logic import isfortran as isfortran
from ._logic import isinf as isinf
from ._logic import isnan as isnan
from ._logic import isneginf as isneginf
from ._logic import isposinf as isposinf
from ._logic import isreal as isreal
from ._logic import isrealobj as isrealobj
from ._logic import isscalar as isscalar
from ._logic import less as less
from ._logic import less_equal as less_equal
from ._logic import logical_and as logical_and
from ._logic import logical_not as logical_not
from ._logic import logical_or as logical_or
from ._logic import logical_xor as logical_xor
from ._logic import not_equal as not_equal
from ._manipulation import array_split as array_split
from ._manipulation import asarray_chkfinite as asarray_chkfinite
from ._manipulation import asfortranarray as asfortranarray
from ._manipulation import atleast_1d as atleast_1d
from ._manipulation import atleast_2d as atleast_2d
from ._manipulation import atleast_3d as atleast_3d
from ._manipulation import block as block
from ._manipulation import broadcast_arrays as broadcast_arrays
from ._manipulation import broadcast_shapes as broadcast_shapes
from ._manipulation import broadcast_to as broadcast_to
from ._manipulation import column_stack as column_stack
from ._manipulation import concat as concat
from ._manipulation import concatenate as concatenate
from ._manipulation import copyto as copyto
from ._manipulation import dsplit as dsplit
from ._manipulation import dstack as dstack
from ._manipulation import expand_dims as expand_dims
from ._manipulation import hsplit as hsplit
from ._manipulation import hstack as hstack
from ._manipulation import matrix_transpose as matrix_transpose
from ._manipulation import moveaxis as moveaxis
from ._manipulation import ndim as ndim
from ._manipulation import ravel as ravel
from ._manipulation import require as require
from ._manipulation import reshape as reshape
from ._manipulation import rollaxis as rollaxis
from ._manipulation import shape as shape
from ._manipulation import size as size
from ._manipulation import split as split
from ._manipulation import squeeze as squeeze
from ._manipulation import stack as stack
from ._manipulation import swapaxes as swapaxes
from ._manipulation import transpose as transpose
from ._manipulation import vsplit as vsplit
from ._manipulation import vstack as vstack
from ._math import abs as abs
from ._math import absolute as absolute
from ._math import acos as acos
from ._math import acosh as acosh
from ._math import add as add
from ._math import angle as angle
from ._math import arccos as arccos
from ._math import arccosh as arccosh
from ._math import arcsin as arcsin
from ._math import arcsinh as arcsinh
from ._math import arctan as arctan
from ._math import arctan2 as arctan2
from ._math import arctanh as arctanh
from ._math import asin as asin
from ._math import asinh as asinh
from ._math import atan as atan
from ._math import atan2 as atan2
from ._math import atanh as atanh
from ._math import bitwise_and as bitwise_and
from ._math import bitwise_count as bitwise_count
from ._math import bitwise_invert as bitwise_invert
from ._math import bitwise_left_shift as bitwise_left_shift
from ._math import bitwise_not as bitwise_not
from ._math import bitwise_or as bitwise_or
from ._math import bitwise_right_shift as bitwise_right_shift
from ._math import bitwise_xor as bitwise_xor
from ._math import cbrt as cbrt
from ._math import ceil as ceil
from ._math import clip as clip
from ._math import conj as conj
from ._math import conjugate as conjugate
from ._math import copysign as copysign
from ._math import cos as cos
from ._math import cosh as cosh
from ._math import cumprod as cumprod
from ._math import cumsum as cumsum
from ._math import cumulative_prod as cumulative_prod
from ._math import cumulative_sum as cumulative_sum
from ._math import deg2rad as deg2rad
from ._math import degrees as degrees
from ._math import divide as divide
from ._math import divmod as divmod
from ._math import exp as exp
from ._math import exp2 as exp2
from ._math import expm1 as expm1
from ._math import fabs as fabs
from ._math import fix as fix
from ._math import float_power as float_power
from ._math import floor as floor
from ._math import floor_divide as floor_divide
from ._math import fmax as fmax
from ._math import fmin as fmin
from ._math import fmod as fmod
from ._math import frexp as frexp
from ._math import gcd as gcd
from ._math import heaviside as heaviside
from ._math import hypot as hypot
from ._math import i0 as i0
from ._math import imag as imag
from ._math import invert as invert
from ._math import lcm as lcm
from ._math import ldexp as ldexp
from ._math import left_shift as left_shift
from ._math import log as log
from ._math import log1p as log1p
from ._math import log2 as log2
from ._math import log10 as log10
from ._math import logaddexp as logaddexp
from ._math import logaddexp2 as logaddexp2
from ._math import maximum as maximum
from ._math import minimum as minimum
from ._math import mod as mod
from ._math import modf as modf
from ._math import multiply as multiply
from ._math import nan_to_num as nan_to_num
from ._math import negative as negative
from ._math import nextafter as nextafter
from ._math import positive as positive
from ._math import pow as pow
from ._math import power as power
from ._math import prod as prod
from ._math import rad2deg as rad2deg
from ._math import radians as radians
from ._math import real as real
from ._math import real_if_close as real_if_close
from ._math import reciprocal as reciprocal
from ._math import remainder as remainder
from ._math import right_shift as right_shift
from ._math import rint as rint
from ._math import round as round
from ._math import sign as sign
from ._math import signbit as signbit
from ._math import sin as sin
from ._math import sinc as sinc
from ._math import sinh as sinh
from ._math import spacing as spacing
from ._math import sqrt as sqrt
from ._math import square as square
from ._math import subtract as subtract
from ._math import sum as sum
from ._math import tan as tan
from ._math import tanh as tanh
from ._math import true_divide as true_divide
from ._math import trunc as trunc
from ._math import unwrap as unwrap
from ._matrices import diag as diag
from ._matrices import diagflat as diagflat
from ._matrices import tri as tri
from ._matrices import tril as tril
from ._matrices import triu as triu
from ._matrices import vander as vander
from ._miscellaneous import show_config as show_config
from ._padding import pad as pad
from ._polynomial import poly as poly
from ._polynomial import poly1d as poly1d
from ._polynomial import polyadd as polyadd
from ._polynomial import polyder as polyder
from ._polynomial import polydiv as polydiv
from ._polynomial import polyfit as polyfit
from ._polynomial import polyint as polyint
from ._polynomial import polymul as polymul
from ._polynomial import polysub as polysub
from ._polynomial import polyval as polyval
from ._polynomial import roots as roots
from ._printing import array2string as array2string
from ._printing import array_repr as array_repr
from ._printing import array_str as array_str
from ._printing import base_repr as base_repr
from ._printing import format_float_positional as format_float_positional
from ._printing import format_float_scientific as format_float_scientific
from ._printing import get_printoptions as get_printoptions
from ._printing import printoptions as printoptions
from ._printing import set_printoptions as set_printoptions
from ._ranges import geomspace as geomspace
from ._ranges import linspace as linspace
from ._ranges import logspace as logspace
from ._ranges import meshgrid as meshgrid
from ._rearranging import append as append
from ._rearranging import delete as delete
from ._rearranging import flip as flip
from ._rearranging import fliplr as fliplr
from ._rearranging import flipud as flipud
from ._rearranging import insert as insert
from ._rearranging import repeat as repeat
from ._rearranging import resize as resize
from ._rearranging import roll as roll
from ._rearranging import rot90 as rot90
from ._rearranging import tile as tile
from ._rearranging import trim_zeros as trim_zeros
from ._sets import intersect1d as intersect1d
from ._sets import isin as isin
from ._sets import setdiff1d as setdiff1d
from ._sets import setxor1d as setxor1d
from ._sets import union1d as union1d
from ._sets import unique as unique
from ._sets import unique_all as unique_all
from ._sets import unique_counts as unique_counts
from ._sets import unique_inverse as unique_inverse
from ._sets import unique_values as unique_values
from ._sorting import argmax as argmax
from ._sorting import argmin as argmin
from ._sorting import argpartition as argpartition
from ._sorting import argsort as argsort
from ._sorting import argwhere as argwhere
from ._sorting import count_nonzero as count_nonzero
from ._sorting import extract as extract
from ._sorting import flatnonzero as flatnonzero
from ._sorting import lexsort as lexsort
from ._sorting import nonzero as nonzero
from ._sorting import partition as partition
from ._sorting import searchsorted as searchsorted
from ._sorting import sort as sort
from ._sorting import sort_complex as sort_complex
from ._sorting import where as where
from ._statistics import average as average
from ._statistics import corrcoef as corrcoef
from ._statistics import correlate as correlate
from ._statistics import cov as cov
from ._statistics import max as max
from ._statistics import mean as mean
from ._statistics import median as median
from ._statistics import min as min
from ._statistics import nanargmax as nanargmax
from ._statistics import nanargmin as nanargmin
from ._statistics import nancumprod as nancumprod
from ._statistics import nancumsum as nancumsum
from ._statistics import nanmax as nanmax
from ._statistics import nanmean as nanmean
from ._statistics import nanmedian as nanmedian
from ._statistics import nanmin as nanmin
from ._statistics import nanpercentile as nanpercentile
from ._statistics import nanprod as nanprod
from ._statistics import nanquantile as nanquantile
from ._statistics import nanstd as nanstd
from ._statistics import nansum as nansum
from ._statistics import nanvar as nanvar
from ._statistics import percentile as percentile
from ._statistics import ptp as ptp
from ._statistics import quantile as quantile
from ._statistics import std as std
from ._statistics import var as var
from ._ufunc import ufunc as ufunc
from ._window import bartlett as bartlett
from ._window import blackman as blackman
from ._window import hamming as hamming
from ._window import hanning as hanning
from ._window import kaiser as kaiser
from .fusion import debug_fusion as debug_fusion
from .fusion import fuse as fuse
from .fusion import max_pending_bytes as max_pending_bytes
from .fusion import set_max_pending_bytes as set_max_pending_bytes
from .lib import stride_tricks as _stride_tricks  # noqa: F401 (makes accelpy.lib, numpy.lib)
from .rec import recarray as recarray

# The core builds arrays from Python objects through accelpy's asarray (DLPack, CUDA array
# interface, nested sequences of arrays), and ndarray (the C++ type nanobind binds) gets its
# methods written in Python, NumPy's protocols dispatching into this namespace.
_core._set_asarray(asarray)
_ndarray_methods.install(_sys.modules[__name__])
_cupy_compat.use_package(_sys.modules[__name__])

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
euler_gamma = _np.euler_gamma
exceptions = _np.exceptions  # NumPy's exception classes (AxisError, ...), accelpy raises them

__version__ = "0.1.0"

_interop.register_function_pickling()

if "distributed" in _sys.modules:  # a Dask worker or client: accelpy chunks travel as frames
    from ._dask_serialize import register_serializers as _register_serializers

    _register_serializers()

# Imported on first use, keeping `import accelpy` fast: numpy.fft's, numpy.linalg's and
# numpy.polynomial's, accelpy.testing (numpy.testing imports threading, dataclasses, ...), and
# Dask's distributed.
_LAZY_SUBMODULES = ("fft", "linalg", "polynomial", "testing", "distributed")


def __getattr__(name: str) -> _Any:
    # bfloat16 imports ml_dtypes on first use (see _dtypes), keeping `import accelpy` fast.
    if name == "bfloat16":
        return _load_bfloat16().type
    if name in _LAZY_SUBMODULES:
        import importlib  # only here: the lazy submodules are its one use

        try:
            return importlib.import_module(f"{__name__}.{name}")  # sets the attribute too
        except ModuleNotFoundError as e:
            if e.name is None or e.name.startswith(__name__):
                raise
            # An optional dependency is missing: an AttributeError, so that hasattr() and what
            # walks dir(accelpy) (inspect.getmembers, pydoc, completion) go on past it.
            raise AttributeError(
                f"accelpy.{name} needs the {e.name!r} package, which is not installed"
            ) from e
    raise AttributeError(f"module 'accelpy' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | {"bfloat16", *_LAZY_SUBMODULES})

