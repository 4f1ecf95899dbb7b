"""Integers to negative integer powers raise NumPy's ValueError at the call, whether the
exponent is a scalar or an array; an empty result raises nothing."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_exact, to_device

MESSAGE = "Integers to negative integer powers are not allowed"
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64]


# uint64 with an int64 exponent promotes to float64 (no error in NumPy either).
@pytest.mark.parametrize("dt", INTS[:-1], ids=lambda t: np.dtype(t).name)
def test_negative_array_exponent_raises(rng, device, dt):
    base = rng.integers(1, 5, (4, 3)).astype(dt)
    exp = rng.integers(0, 4, (4, 3)).astype(np.int64)
    exp[2, 1] = -1
    with pytest.raises(ValueError, match=MESSAGE):
        base ** exp
    with pytest.raises(ValueError, match=MESSAGE):
        to_device(base) ** to_device(exp)
    with pytest.raises(ValueError, match=MESSAGE):
        ap.power(to_device(base)[::-1], to_device(exp)[::-1])
    with pytest.raises(ValueError, match=MESSAGE):
        2 ** to_device(exp)  # a Python int base, an array exponent
    with pytest.raises(ValueError, match=MESSAGE):
        to_device(base) ** to_device(exp[2:3, 1:2])  # a broadcast exponent


@pytest.mark.parametrize("dt", INTS, ids=lambda t: np.dtype(t).name)
def test_non_negative_array_exponent_computes(rng, device, dt):
    base = rng.integers(0, 5, (4, 3)).astype(dt)
    exp = rng.integers(0, 4, (4, 3)).astype(np.int8)
    assert_exact(to_device(base) ** to_device(exp), base ** exp)
    # A pending exponent: checked and still computed right.
    e = to_device(exp) - 0
    assert_exact(to_device(base) ** e, base ** exp)


def test_scalar_negative_exponent_raises(device):
    with pytest.raises(ValueError, match=MESSAGE):
        ap.arange(3) ** -1
    with pytest.raises(ValueError, match=MESSAGE):
        ap.arange(3) ** np.int64(-2)


@pytest.mark.parametrize("exponent", [-1, np.int64(-1), "array"])
def test_empty_result_does_not_raise(device, exponent):
    base_np = np.array([], dtype=np.int64)
    exp = np.array([-1], dtype=np.int64) if exponent == "array" else exponent
    expected = base_np ** exp
    got = to_device(base_np) ** (to_device(exp) if exponent == "array" else exp)
    assert_exact(got, expected)
    # An empty exponent array with a non-empty base broadcast to nothing.
    assert_exact(to_device(np.arange(3)[:0]) ** to_device(np.array([-2])),
                 np.arange(3)[:0] ** np.array([-2]))


def test_float_results_are_untouched(device):
    a = np.array([1.0, 2.0, 4.0])
    assert_exact(to_device(a) ** to_device(np.array([-1, -2, 0])), a ** np.array([-1, -2, 0]))
