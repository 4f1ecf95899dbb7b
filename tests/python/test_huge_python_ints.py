"""Python ints past 64 bits where NumPy takes them: roll's shifts (reduced modulo the axis's
length as Python ints), slice bounds and steps, eye's and rot90's k, searchsorted, comparisons
and clip. Where NumPy refuses such an int, the bad-input table's "huge_ints" chapter checks
accelpy raises NumPy's type; where NumPy makes an object array, accelpy says it has none."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_exact, random_values, to_device

HUGE = [2**63, 2**64, 2**70, -(2**63) - 1, -(2**70), 3**50]


@pytest.mark.parametrize("shift", HUGE)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_roll_by_a_huge_shift_matches_numpy(device, rng, shift, axis):
    a_np = random_values(rng, (5, 7), np.float32)
    a = to_device(a_np, device)
    assert_exact(ap.roll(a, shift, axis=axis), np.roll(a_np, shift, axis=axis))


@pytest.mark.parametrize("layout", ["transposed", "negstride", "empty"])
def test_roll_by_huge_shifts_along_several_axes_matches_numpy(device, rng, layout):
    base = random_values(rng, (0, 6) if layout == "empty" else (6, 5), np.int16)
    a_np = {"transposed": base.T, "negstride": base[::-1, ::-2], "empty": base}[layout]
    a = to_device(base, device)
    a = {"transposed": a.T, "negstride": a[::-1, ::-2], "empty": a}[layout]
    shifts, axes = (2**70, -(2**65) + 3, 1), (0, 1, 0)
    assert_exact(ap.roll(a, shifts, axis=axes), np.roll(a_np, shifts, axis=axes))
    assert_exact(
        ap.roll(a, [2**64, 2**64 + 1], axis=[1, 1]), np.roll(a_np, [2**64, 2**64 + 1], axis=[1, 1])
    )


def test_roll_takes_what_numpy_takes_and_refuses_what_it_refuses(device):
    a_np = np.arange(10)
    a = to_device(a_np, device)
    for shift in (np.uint64(2**64 - 1), np.int64(-3), True):
        assert_exact(ap.roll(a, shift), np.roll(a_np, shift))
    with pytest.raises(ValueError, match="scalars or 1D sequences"):
        np.roll(a_np, [[1]], axis=0)
    with pytest.raises(ValueError, match="scalars or 1D sequences"):
        ap.roll(a, [[1]], axis=0)
    for axis in (2**63, -(2**63) - 1, 2**70):
        with pytest.raises(OverflowError):
            np.roll(a_np, 1, axis=axis)
        with pytest.raises(OverflowError):
            ap.roll(a, 1, axis=axis)


@pytest.mark.parametrize(
    "key",
    [
        np.s_[2**70 :],
        np.s_[: 2**70],
        np.s_[:: 2**70],
        np.s_[-(2**70) : 2**64],
        np.s_[:: -(2**70)],
        np.s_[1, 2**64 :],
        np.s_[2**70 : -(2**70) : -1],
    ],
)
def test_slices_with_huge_bounds_match_numpy(device, rng, key):
    a_np = random_values(rng, (4, 6), np.float64)
    a = to_device(a_np, device)
    assert_exact(a[key], a_np[key])


@pytest.mark.parametrize("k", [2**70, -(2**70), 2**64])
def test_eye_and_rot90_with_a_huge_k_match_numpy(device, rng, k):
    assert_exact(ap.eye(3, 4, k=k, device=device), np.eye(3, 4, k=k))
    m_np = random_values(rng, (3, 4), np.int32)
    assert_exact(ap.rot90(to_device(m_np, device), k), np.rot90(m_np, k))


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.uint64, np.float32])
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_of_ints_past_the_dtype_matches_numpy(device, rng, dtype, side):
    # An int no element of an integer array can equal sorts before or after all of them.
    a_np = np.sort(random_values(rng, (9,), dtype))
    a = to_device(a_np, device)
    for v in (2**70, -(2**70), 2**64, -1, 300, -300, [2**70, 3, -(2**70)], [[2**64], [-1]]):
        assert_exact(ap.searchsorted(a, v, side=side), np.searchsorted(a_np, v, side=side))
    order = rng.permutation(9)
    assert_exact(
        ap.searchsorted(to_device(a_np[order], device), [2**70, -5], sorter=np.argsort(order)),
        np.searchsorted(a_np[order], [2**70, -5], sorter=np.argsort(order)),
    )


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint8, np.uint64, np.float64])
def test_comparisons_and_clip_with_ints_past_the_dtype_match_numpy(device, rng, dtype):
    base = random_values(rng, (3, 4), dtype)
    a_np, a = base[:, ::-1], to_device(base, device)[:, ::-1]
    for v in (2**70, -(2**70), 2**64, 2**63, -1, -(2**63) - 1):
        for op in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
            assert_exact(getattr(a, op)(v), getattr(a_np, op)(v))
    assert_exact(ap.clip(a, 0, 2**70), np.clip(a_np, 0, 2**70))
    assert_exact(ap.clip(a, -(2**70), 2**64), np.clip(a_np, -(2**70), 2**64))


def test_full_and_arange_of_ints_past_64_bits_say_accelpy_has_no_object_arrays(device):
    # NumPy makes object arrays of them; accelpy stores no Python objects.
    assert np.full(3, 2**70).dtype == object
    assert np.arange(2**70, 2**70 + 3).dtype == object
    with pytest.raises(OverflowError, match="object array"):
        ap.full(3, 2**70)
    with pytest.raises(OverflowError, match="object array"):
        ap.full((2, 2), -(2**70))
    with pytest.raises(OverflowError, match="object array"):
        ap.arange(2**70, 2**70 + 3)
    with pytest.raises(OverflowError, match="object array"):
        ap.asarray([1, 2**70])
    # Where NumPy's size check fails first, its ValueError.
    for args in ((2**70,), (0, 2**70), (-(2**70), 0, 1), (0, 2**65, 1)):
        with pytest.raises(ValueError, match="Maximum allowed size exceeded"):
            np.arange(*args)
        with pytest.raises(ValueError, match="Maximum allowed size exceeded"):
            ap.arange(*args)


@pytest.mark.parametrize(
    "key", [[2**70], [-(2**70)], (0, [2**64]), ([0], 2**70), 2**70, (1, -(2**70))]
)
def test_indexing_with_ints_past_64_bits_raises_numpys_index_error(device, key):
    a_np = np.arange(12.0).reshape(3, 4)
    a = to_device(a_np, device)
    with pytest.raises(IndexError) as expected:
        a_np[key]
    with pytest.raises(IndexError) as got:
        a[key]
    assert str(got.value) == str(expected.value)
    with pytest.raises(IndexError) as got:
        a[key] = 1
    assert str(got.value) == str(expected.value)
    assert_exact(a, a_np)  # nothing written
