"""A bool is not an axis: every axis= argument of the reductions and the manipulation functions
raises TypeError for True/False (NumPy's ufunc reductions and most functions do; accelpy does it
everywhere rather than read True as axis 1), naming the argument."""

import numpy as np
import pytest

import accelpy as ap

X = np.arange(24.0).reshape(2, 3, 4)

CALLS = {
    "sum": lambda m, x, ax: m.sum(x, axis=ax),
    "x.sum": lambda m, x, ax: x.sum(axis=ax),
    "prod": lambda m, x, ax: m.prod(x, axis=ax),
    "mean": lambda m, x, ax: m.mean(x, axis=ax),
    "var": lambda m, x, ax: m.var(x, axis=ax),
    "std": lambda m, x, ax: m.std(x, axis=ax),
    "max": lambda m, x, ax: m.max(x, axis=ax),
    "min": lambda m, x, ax: m.min(x, axis=ax),
    "any": lambda m, x, ax: m.any(x, axis=ax),
    "all": lambda m, x, ax: m.all(x, axis=ax),
    "argmax": lambda m, x, ax: m.argmax(x, axis=ax),
    "argmin": lambda m, x, ax: m.argmin(x, axis=ax),
    "x.max tuple": lambda m, x, ax: x.max(axis=(ax,)),
    "cumsum": lambda m, x, ax: m.cumsum(x, axis=ax),
    "cumprod": lambda m, x, ax: m.cumprod(x, axis=ax),
    "sort": lambda m, x, ax: m.sort(x, axis=ax),
    "argsort": lambda m, x, ax: m.argsort(x, axis=ax),
    "concatenate": lambda m, x, ax: m.concatenate([x, x], axis=ax),
    "stack": lambda m, x, ax: m.stack([x, x], axis=ax),
    "expand_dims": lambda m, x, ax: m.expand_dims(x, ax),
    "squeeze": lambda m, x, ax: m.squeeze(x[:, :1], axis=ax),
    "swapaxes": lambda m, x, ax: m.swapaxes(x, ax, 0),
    "moveaxis": lambda m, x, ax: m.moveaxis(x, ax, 0),
    "take": lambda m, x, ax: m.take(x, [0], axis=ax),
    "flip": lambda m, x, ax: m.flip(x, ax),
    "roll": lambda m, x, ax: m.roll(x, 1, axis=ax),
    "count_nonzero": lambda m, x, ax: m.count_nonzero(x, axis=ax),
}


@pytest.mark.parametrize("name", list(CALLS))
@pytest.mark.parametrize("axis", [True, False])
def test_bool_axis_is_a_type_error(device, name, axis):
    x = ap.asarray(X)
    with pytest.raises(TypeError, match="bool|integer"):
        CALLS[name](ap, x, axis)


@pytest.mark.parametrize("name", list(CALLS))
def test_integer_axes_still_work(device, name):
    x = ap.asarray(X)
    expected = CALLS[name](np, X, 1)
    got = CALLS[name](ap, x, 1)
    np.testing.assert_array_equal(ap.asnumpy(got), expected)
    got = CALLS[name](ap, x, np.int64(1))  # NumPy integers are axes too
    np.testing.assert_array_equal(ap.asnumpy(got), expected)


def test_numpy_ufunc_reductions_refuse_bool_too():
    with pytest.raises(TypeError):
        np.sum(X, axis=True)
    with pytest.raises(TypeError):
        ap.sum(ap.asarray(X), axis=True)
