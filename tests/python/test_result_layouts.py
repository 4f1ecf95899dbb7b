"""Results laid out as NumPy lays them out where it matters to users: new arrays from sort,
argsort and the scans are C-contiguous along any axis, so a reshape of them is a view and writes
through it land."""

import numpy as np
import pytest

import accelpy as ap
from helpers import to_device

OPS = {
    "sort": lambda m, x, ax: m.sort(x, axis=ax),
    "argsort": lambda m, x, ax: m.argsort(x, axis=ax),
    "cumsum": lambda m, x, ax: m.cumsum(x, axis=ax),
    "cumprod": lambda m, x, ax: m.cumprod(x, axis=ax),
    "cumsum int8": lambda m, x, ax: m.cumsum(x.astype(np.int8), axis=ax),
    "cumulative_sum": lambda m, x, ax: (m.cumulative_sum(x, axis=ax) if m is ap
                                        else np.cumulative_sum(x, axis=ax)),
}


def _flags(a):
    return (a.flags.c_contiguous, a.strides)


@pytest.mark.parametrize("name", list(OPS))
@pytest.mark.parametrize("axis", [0, 1, -1, 2])
def test_sort_and_scan_results_are_c_contiguous(rng, device, name, axis):
    x_np = rng.permutation(60).reshape(4, 5, 3) % 7 + 1 + rng.random((4, 5, 3))
    expected = OPS[name](np, x_np, axis)
    got = OPS[name](ap, to_device(x_np), axis)
    np.testing.assert_array_equal(ap.asnumpy(got), expected)
    assert got.flags.c_contiguous == expected.flags.c_contiguous
    assert got.strides == expected.strides


def test_reshape_of_sorted_along_axis_0_is_a_view(rng, device):
    x = to_device(rng.standard_normal((4, 5)))
    s = ap.sort(x, axis=0)
    r = s.reshape(5, 4)
    r[0, 0] = 123.0
    assert float(s[0, 0]) == 123.0
    c = ap.cumsum(x, axis=0)
    c.reshape(20)[3] = -7.0
    assert float(c[0, 3]) == -7.0
