"""An integer index of every axis gives an independent value: NumPy's scalar on the CPU, a 0-d
copy on a GPU (never a view), whose in-place operators rebind the name as NumPy's immutable
scalars do; setitem casts with 'unsafe' casting, in-place ufuncs refuse what 'same_kind'
refuses. test_element_scalars.py checks the scalars over every dtype and key."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches, random_values, to_device


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex64, np.bool_, np.uint8])
@pytest.mark.parametrize("shape,key", [((5,), 1), ((5,), -1), ((3, 4), (2, 1)),
                                       ((2, 3, 4), (1, -1, 2)), ((), ())])
def test_full_integer_index_is_an_independent_copy(device, rng, dtype, shape, key):
    a_np = random_values(rng, shape, dtype)
    a = to_device(a_np, device)
    t = a[key]
    if device.type == "cpu":
        assert type(t) is type(a_np[key])
    else:
        assert isinstance(t, ap.ndarray) and t.shape == () and t.device == a.device
    assert t.dtype == a_np[key].dtype
    assert_matches(t, np.asarray(a_np[key]))
    before = a_np.copy()
    inc = True if dtype == np.bool_ else 5
    t += inc
    assert_matches(a, before)  # the source is unchanged
    a[...] = 0  # a later write to the source does not reach t either
    expected = before[key] + inc  # NumPy's scalar arithmetic: a new scalar
    assert_matches(t, np.asarray(expected))


def test_the_scalar_alias_keeps_its_value(device):
    a = ap.arange(5, device=device)
    t = a[2]
    u = t
    t += 10
    assert int(u) == 2 and int(t) == 12 and int(a[2]) == 2


def test_other_indices_stay_views(device):
    a = ap.arange(12, device=device).reshape(3, 4)
    a[1][2] += 100  # a row is a view: NumPy writes through it too
    v = a[1, ...]
    v += 1
    e = a[1, 2, None]
    e += 1
    expected = np.arange(12).reshape(3, 4)
    expected[1, 2] += 100
    expected[1] += 1
    expected[1, 2] += 1
    assert_matches(a, expected)


@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.uint16, np.bool_])
def test_setitem_casts_unsafely_as_numpy(device, dtype):
    a_np = np.arange(4).astype(dtype)
    a = to_device(a_np, device)
    a[0] += 1.5
    a_np[0] += 1.5
    a[1] = 2.7
    a_np[1] = 2.7
    a[2:4] = np.array([3.9, -0.0])
    a_np[2:4] = np.array([3.9, -0.0])
    assert_matches(a, a_np)


@pytest.mark.parametrize("op", ["__iadd__", "__imul__", "__isub__"])
def test_inplace_ufunc_on_int_refuses_float_like_numpy(device, op):
    a_np = np.arange(4)
    a = to_device(a_np, device)
    with pytest.raises(TypeError) as ours:
        getattr(a, op)(1.5)
    with pytest.raises(TypeError) as numpys:
        getattr(a_np, op)(1.5)
    assert "same_kind" in str(ours.value) and "same_kind" in str(numpys.value)
    assert_matches(a, a_np)


def test_element_in_a_loop_accumulates_like_numpy(device, rng):
    a_np = random_values(rng, (6,), np.float32)
    a = to_device(a_np, device)
    total_np, total = a_np[0], a[0]
    for i in range(1, 6):
        total_np += a_np[i]
        total += a[i]
    assert_matches(total, np.asarray(total_np))
    assert_matches(a, a_np)
