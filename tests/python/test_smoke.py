"""End-to-end checks that the package, the device fixture and lazy evaluation work at all."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches, make_operands


def test_chain_matches_numpy(device, rng):
    (a_np, b_np), (a, b) = make_operands(rng, "2d", [np.float32, np.float32], device)
    out = ap.sqrt(a * a + b * b) * 2.0 - a
    assert_matches(out, np.sqrt(a_np * a_np + b_np * b_np) * np.float32(2.0) - a_np, ulps=8)


@pytest.mark.usefixtures("deferred")  # counts what the deferred path does
def test_results_are_deferred_until_read(device, rng):
    (a_np,), (a,) = make_operands(rng, "1d", [np.float64], device)
    y = a + 1.0
    assert y._is_pending()
    assert_matches(y, a_np + 1.0)
    assert not y._is_pending()
