"""kron, cross, matvec and vecmat against NumPy over dtypes, shapes (0-d, empty, broadcast),
non-contiguous and reversed operands, and devices."""

import warnings

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches, random_values, to_device

DTYPES = [np.int32, np.float32, np.float64, np.complex64]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shapes", [((), ()), ((3,), (4,)), ((2, 3), (4, 2)), ((3,), (2, 2)),
                                    ((2, 1, 3), (2, 2)), ((0, 2), (3, 3)), ((2, 3), ())])
def test_kron(device, rng, dtype, shapes):
    a_np = random_values(rng, shapes[0], dtype)
    b_np = random_values(rng, shapes[1], dtype)
    a, b = to_device(a_np, device), to_device(b_np, device)
    assert_matches(ap.kron(a, b), np.kron(a_np, b_np))
    if a_np.ndim == 2:
        assert_matches(ap.kron(a.T, b), np.kron(a_np.T, b_np))
        assert_matches(ap.kron(a[::-1], b), np.kron(a_np[::-1], b_np))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shapes", [((3,), (3,)), ((5, 3), (3,)), ((4, 1, 3), (2, 3)),
                                    ((0, 3), (3,))])
def test_cross3(device, rng, dtype, shapes):
    a_np = random_values(rng, shapes[0], dtype)
    b_np = random_values(rng, shapes[1], dtype)
    a, b = to_device(a_np, device), to_device(b_np, device)
    assert_matches(ap.cross(a, b), np.cross(a_np, b_np))
    assert_matches(ap.cross(a[::-1], b), np.cross(a_np[::-1], b_np))


def test_cross_axes(device, rng):
    a_np = rng.standard_normal((3, 4))
    b_np = rng.standard_normal((4, 3))
    a, b = to_device(a_np, device), to_device(b_np, device)
    assert_matches(ap.cross(a, b, axisa=0), np.cross(a_np, b_np, axisa=0))
    assert_matches(ap.cross(a, b, axisa=0, axisc=0), np.cross(a_np, b_np, axisa=0, axisc=0))
    assert_matches(ap.cross(a, b.T, axis=0), np.cross(a_np, b_np.T, axis=0))
    with pytest.raises(np.exceptions.AxisError):
        ap.cross(a, b, axisa=2)


def test_cross_2d_vectors(device, rng):
    a_np = rng.standard_normal((4, 2))
    b_np = rng.standard_normal((4, 3))
    a, b = to_device(a_np, device), to_device(b_np, device)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert_matches(ap.cross(a, a[::-1]), np.cross(a_np, a_np[::-1]))
        assert_matches(ap.cross(a, b), np.cross(a_np, b_np))
        assert_matches(ap.cross(b, a), np.cross(b_np, a_np))
    with pytest.warns(DeprecationWarning):
        ap.cross(a, a)
    with pytest.raises(ValueError):
        ap.cross(ap.ones(4), ap.ones(3))


@pytest.mark.parametrize("dtype", DTYPES + [np.complex128], ids=str)
@pytest.mark.parametrize("shapes", [((3, 4), (4,)), ((2, 3, 4), (4,)), ((3, 4), (5, 4)),
                                    ((2, 1, 3, 4), (5, 4)), ((0, 2, 3), (3,)), ((2, 0), (0,))])
def test_matvec(device, rng, dtype, shapes):
    a_np = random_values(rng, shapes[0], dtype)
    v_np = random_values(rng, shapes[1], dtype)
    a, v = to_device(a_np, device), to_device(v_np, device)
    # Sums of products cancel: the error bound scales with the terms, not the result.
    eps = np.finfo(np.result_type(dtype, np.float32)).eps
    n = max(v_np.shape[-1], 1)
    atol = 8 * n * eps * float(np.abs(a_np).max(initial=0)) * float(np.abs(v_np).max(initial=0))
    tol = {"rtol": 8 * n * eps, "atol": atol}
    assert_matches(ap.matvec(a, v), np.matvec(a_np, v_np), **tol)
    # vecmat(v, A) with A's last two axes swapped: conj(v) @ A.
    at_np = np.swapaxes(a_np, -1, -2)
    assert_matches(ap.vecmat(v, ap.swapaxes(a, -1, -2)), np.vecmat(v_np, at_np), **tol)
    assert_matches(ap.matvec(a[..., ::-1], v[..., ::-1]),
                   np.matvec(a_np[..., ::-1], v_np[..., ::-1]), **tol)


def test_matvec_errors(device):
    with pytest.raises(ValueError):
        ap.matvec(ap.ones(3), ap.ones(3))
    with pytest.raises(ValueError):
        ap.vecmat(ap.ones(3), ap.ones(3))
    with pytest.raises(ValueError):
        ap.matvec(ap.ones((2, 3)), ap.ones(4))
    with pytest.raises(NotImplementedError, match="axes="):
        ap.matvec(ap.ones((2, 3)), ap.ones(3), axes=[(0, 1), 0, 0])
