"""Reductions along one contiguous axis: CUDA reads 16-byte vectors there when a row starts
aligned, scalars otherwise, then the elements past the last vector. These cases make every row
(or split of a long row) take each path: row lengths that are and are not multiples of the
vector, views starting off alignment, splits of one long row, a light prologue, argmax indices
and boolean any/all. On the CPU the same cases check the blocked loops."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches, random_values, sum_atol, to_device

SHAPES = [(7, 33), (5, 64), (3, 4099), (1, 1 << 20), (1 << 20,), (129, 7)]


def sum_rtol(dtype, n):
    # A float sum's error grows with the terms; the order differs from NumPy's pairwise one.
    return 0 if np.dtype(dtype).kind in "biu" else float(np.finfo(dtype).eps) * 4 * np.sqrt(n)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.int32, np.float16])
@pytest.mark.parametrize("offset", [0, 1, 3])
def test_sum_along_contiguous_rows(device, rng, shape, dtype, offset):
    flat = random_values(rng, (int(np.prod(shape)) + offset,), dtype, low=-3, high=3)
    a_np = flat[offset:].reshape(shape)
    a = to_device(flat, device)[offset:].reshape(shape)
    axis = a_np.ndim - 1
    assert_matches(a.sum(axis=axis), a_np.sum(axis=axis), rtol=sum_rtol(dtype, shape[-1]),
                   atol=max(sum_rtol(dtype, shape[-1]), sum_atol(a_np, axis=axis)))
    assert_matches(a.sum(), a_np.sum(), rtol=sum_rtol(dtype, a_np.size),
                   atol=max(sum_rtol(dtype, a_np.size), sum_atol(a_np)))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("offset", [0, 2])
def test_fused_prologue_and_arg_reductions(device, rng, shape, offset):
    n = int(np.prod(shape))
    flat_a = random_values(rng, (n + offset,), np.float32, low=-2, high=2)
    flat_b = random_values(rng, (n + offset,), np.float32, low=-2, high=2)
    a_np, b_np = flat_a[offset:].reshape(shape), flat_b[offset:].reshape(shape)
    a = to_device(flat_a, device)[offset:].reshape(shape)
    b = to_device(flat_b, device)[offset:].reshape(shape)
    axis = len(shape) - 1
    d = a - b
    d_np = a_np - b_np
    assert_matches((d * d).sum(axis=axis), (d_np * d_np).sum(axis=axis),
                   rtol=sum_rtol(np.float32, shape[-1]), atol=sum_rtol(np.float32, shape[-1]))
    assert_matches(ap.argmax(d, axis=axis), np.argmax(d_np, axis=axis))
    assert_matches(ap.min(d, axis=axis), np.min(d_np, axis=axis))
    assert_matches(ap.any(d > 1.9, axis=axis), np.any(d_np > 1.9, axis=axis))
    assert_matches(ap.all(d > -3.9, axis=axis), np.all(d_np > -3.9, axis=axis))


def test_argmax_first_index_across_vectors(device, rng):
    # Ties in different vectors and lanes: NumPy's answer is the first index.
    a_np = random_values(rng, (4, 4096), np.float32, low=-1, high=1)
    for row, cols in enumerate([(5, 9), (1, 4095), (0, 2048), (7, 8)]):
        a_np[row, list(cols)] = 5.0
    a = to_device(a_np, device)
    assert_matches(ap.argmax(a, axis=1), np.argmax(a_np, axis=1))
    assert_matches(ap.argmax(a), np.argmax(a_np))
