"""``accelpy.testing``: NumPy's assertions taking accelpy arrays, and CuPy's decorators that run
a test once with NumPy and once with accelpy and compare the results.

    from accelpy import testing

    @testing.numpy_cupy_allclose(rtol=1e-6)
    def test_norm(xp):                     # called with xp=numpy, then xp=accelpy
        return xp.linalg.norm(xp.arange(10.0))

The assertions are ``numpy.testing``'s, with accelpy arrays (anywhere in the arguments, also
inside tuples and lists) copied to NumPy first. The decorators follow CuPy's
(``cupy.testing.numpy_cupy_allclose`` and friends): the function's `name` argument (``xp``)
receives the module; both results must be arrays or scalars of the same shape and, with
`type_check`, the same dtype; with `accept_error`, both runs may raise instead, the same type.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.testing as _npt

from . import _core
from ._cupy_compat import package

__all__ = ["assert_allclose", "assert_array_almost_equal", "assert_array_equal",
           "assert_array_less", "assert_equal", "numpy_cupy_allclose",
           "numpy_cupy_array_almost_equal", "numpy_cupy_array_equal", "numpy_cupy_equal"]


def _host(x: Any) -> Any:
    if isinstance(x, _core.ndarray):
        return _core.asnumpy(x)
    if isinstance(x, tuple):
        return tuple(_host(v) for v in x)
    if isinstance(x, list):
        return [_host(v) for v in x]
    if isinstance(x, dict):
        return {k: _host(v) for k, v in x.items()}
    return x


def assert_allclose(actual: Any, desired: Any, rtol: float = 1e-7, atol: float = 0,
                    err_msg: str = "", verbose: bool = True) -> None:
    _npt.assert_allclose(_host(actual), _host(desired), rtol=rtol, atol=atol, err_msg=err_msg,
                         verbose=verbose)


def assert_array_almost_equal(x: Any, y: Any, decimal: int = 6, err_msg: str = "",
                              verbose: bool = True) -> None:
    _npt.assert_array_almost_equal(_host(x), _host(y), decimal=decimal, err_msg=err_msg,
                                   verbose=verbose)


def assert_array_equal(x: Any, y: Any, err_msg: str = "", verbose: bool = True,
                       strict: bool = False) -> None:
    _npt.assert_array_equal(_host(x), _host(y), err_msg=err_msg, verbose=verbose, strict=strict)


def assert_array_less(x: Any, y: Any, err_msg: str = "", verbose: bool = True) -> None:
    _npt.assert_array_less(_host(x), _host(y), err_msg=err_msg, verbose=verbose)


def assert_equal(actual: Any, desired: Any, err_msg: str = "", verbose: bool = True) -> None:
    _npt.assert_equal(_host(actual), _host(desired), err_msg=err_msg, verbose=verbose)


def _run(impl, args, kwargs, name, xp):
    try:
        return impl(*args, **{**kwargs, name: xp}), None
    except Exception as e:  # compared with the other run's outcome by the caller
        return None, e


def _check_errors(numpy_error, accelpy_error, accept_error):
    """Both runs raised (or one did): passes when accept_error allows both, same type."""
    if accept_error is True:
        accept_error = Exception
    elif not accept_error:
        accept_error = ()
    if numpy_error is not None and accelpy_error is not None:
        if (isinstance(numpy_error, accept_error) and isinstance(accelpy_error, accept_error)
                and type(numpy_error) is type(accelpy_error)):
            return
        raise AssertionError(f"numpy raised {type(numpy_error).__name__}: {numpy_error}; "
                             f"accelpy raised {type(accelpy_error).__name__}: "
                             f"{accelpy_error}") from accelpy_error
    error, who, other = ((numpy_error, "numpy", "accelpy") if numpy_error is not None
                         else (accelpy_error, "accelpy", "numpy"))
    raise AssertionError(f"only {who} raised ({type(error).__name__}: {error}); {other} "
                         "returned") from error


def _compare_decorator(compare: Callable[[Any, Any], None], name: str, type_check: bool,
                       accept_error: Any, contiguous_check: bool = False):
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")

    def decorator(impl):
        @functools.wraps(impl)
        def test(*args, **kwargs):
            accelpy = package()
            expected, numpy_error = _run(impl, args, kwargs, name, np)
            actual, accelpy_error = _run(impl, args, kwargs, name, accelpy)
            if numpy_error is not None or accelpy_error is not None:
                _check_errors(numpy_error, accelpy_error, accept_error)
                return
            _compare_results(actual, expected, compare, type_check, contiguous_check)

        sig = inspect.signature(impl)
        test.__signature__ = sig.replace(  # type: ignore[attr-defined]
            parameters=[p for p in sig.parameters.values() if p.name != name])
        return test

    return decorator


def _compare_results(actual, expected, compare, type_check, contiguous_check):
    if isinstance(expected, (tuple, list)):
        if not isinstance(actual, (tuple, list)) or len(actual) != len(expected):
            raise AssertionError(f"numpy returned a sequence of {len(expected)}, accelpy "
                                 f"{type(actual).__name__}")
        for a, e in zip(actual, expected, strict=True):
            _compare_results(a, e, compare, type_check, contiguous_check)
        return
    if isinstance(expected, np.ndarray) and not isinstance(actual, (_core.ndarray, np.generic,
                                                                    np.ndarray)):
        raise AssertionError(f"numpy returned an ndarray, accelpy {type(actual).__name__}")
    host = _host(actual)
    if type_check and hasattr(expected, "dtype"):
        actual_dtype = getattr(host, "dtype", None)
        if actual_dtype != expected.dtype:
            raise AssertionError(f"dtypes differ: numpy {expected.dtype}, accelpy {actual_dtype}")
    if (contiguous_check and isinstance(expected, np.ndarray) and expected.flags.c_contiguous
            and isinstance(actual, _core.ndarray) and not actual.flags.c_contiguous):
        raise AssertionError("numpy's result is C-contiguous, accelpy's is not")
    compare(host, expected)


def numpy_cupy_allclose(rtol: float = 1e-7, atol: float = 0, err_msg: str = "",
                        verbose: bool = True, name: str = "xp", type_check: bool = True,
                        accept_error: Any = False, sp_name: str | None = None,
                        scipy_name: str | None = None, contiguous_check: bool = True,
                        **kwargs: Any):
    """Runs the test with NumPy and with accelpy; their results must be close (CuPy's)."""
    if sp_name is not None or scipy_name is not None:
        raise NotImplementedError("numpy_cupy_allclose: sp_name/scipy_name (SciPy modules) are "
                                  "not supported")

    def compare(x, y):
        _npt.assert_allclose(x, y, rtol=rtol, atol=atol, err_msg=err_msg, verbose=verbose)

    return _compare_decorator(compare, name, type_check, accept_error, contiguous_check)


def numpy_cupy_array_almost_equal(decimal: int = 6, err_msg: str = "", verbose: bool = True,
                                  name: str = "xp", type_check: bool = True,
                                  accept_error: Any = False, **kwargs: Any):
    """Runs the test with NumPy and with accelpy; results equal to `decimal` places (CuPy's)."""
    def compare(x, y):
        _npt.assert_array_almost_equal(x, y, decimal=decimal, err_msg=err_msg, verbose=verbose)

    return _compare_decorator(compare, name, type_check, accept_error)


def numpy_cupy_array_equal(err_msg: str = "", verbose: bool = True, name: str = "xp",
                           type_check: bool = True, accept_error: Any = False,
                           sp_name: str | None = None, scipy_name: str | None = None,
                           strides_check: bool = False, **kwargs: Any):
    """Runs the test with NumPy and with accelpy; their results must be equal (CuPy's)."""
    def compare(x, y):
        _npt.assert_array_equal(x, y, err_msg=err_msg, verbose=verbose)
        if strides_check and isinstance(x, np.ndarray) and x.strides != y.strides:
            raise AssertionError(f"strides differ: numpy {y.strides}, accelpy {x.strides}")

    return _compare_decorator(compare, name, type_check, accept_error)


def numpy_cupy_equal(name: str = "xp", sp_name: str | None = None,
                     scipy_name: str | None = None):
    """Runs the test with NumPy and with accelpy; their (non-array) results must be equal."""
    def compare(x, y):
        if x != y:
            raise AssertionError(f"results differ: numpy {y!r}, accelpy {x!r}")

    return _compare_decorator(compare, name, False, False)
