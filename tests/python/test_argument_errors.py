"""Bad arguments raise NumPy's exception type with a message naming the argument, never
nanobind's signature dump nor a RecursionError or OverflowError NumPy does not raise."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches, random_values, to_device

CASTS = [(np.int64, np.int8), (np.int32, np.float64), (np.float64, np.float32),
         (np.float32, np.complex64), (np.uint8, np.int16), (np.int16, np.uint16),
         (np.bool_, np.int8), (np.float64, np.int64), (np.complex64, np.float32)]


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize("src,dst", CASTS)
def test_astype_casting_follows_numpy(device, rng, src, dst, casting):
    a_np = random_values(rng, (3, 4), src, low=0, high=100)
    a = to_device(a_np, device)
    if np.can_cast(src, dst, casting):
        assert_matches(a.astype(dst, casting=casting), a_np.astype(dst, casting=casting))
    else:
        with pytest.raises(TypeError, match=f"'{casting}'"):
            a.astype(dst, casting=casting)
        with pytest.raises(TypeError):
            a_np.astype(dst, casting=casting)


def test_astype_bad_casting_and_order_name_the_argument(device):
    a = ap.arange(3, device=device)
    with pytest.raises(ValueError, match="casting"):
        a.astype(np.float32, casting="lossy")
    with pytest.raises(ValueError, match="order"):
        a.astype(np.float32, order="Q")


@pytest.mark.parametrize("order", ["C", "F", "A", "c", "f"])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "reversed"])
def test_reshape_and_ravel_orders_match_numpy(device, rng, order, layout):
    base = random_values(rng, (4, 6), np.float32)
    a_np = {"contiguous": base, "transposed": base.T, "reversed": base[::-1, ::-2]}[layout]
    a = {"contiguous": lambda x: x, "transposed": lambda x: x.T,
         "reversed": lambda x: x[::-1, ::-2]}[layout](to_device(base, device))
    shape = (a_np.size // 2, 2)
    assert_matches(a.reshape(shape, order=order), a_np.reshape(shape, order=order))
    assert_matches(ap.reshape(a, shape, order=order), np.reshape(a_np, shape, order=order))
    assert_matches(a.ravel(order=order), a_np.ravel(order=order))
    assert_matches(ap.ravel(a, order=order), np.ravel(a_np, order=order))


def test_ravel_order_k_of_c_and_f_layouts(device, rng):
    base = random_values(rng, (3, 5), np.int32)
    a = to_device(base, device)
    assert_matches(a.ravel(order="K"), base.ravel(order="K"))
    assert_matches(a.T.ravel(order="K"), base.T.ravel(order="K"))


@pytest.mark.parametrize("call", [
    lambda m, a: a.reshape(a.size, order="X"),
    lambda m, a: m.reshape(a, (a.size,), order="X"),
    lambda m, a: a.reshape(a.size, order="K"),
    lambda m, a: a.ravel(order="Q"),
    lambda m, a: m.ravel(a, order="Q"),
])
def test_bad_order_raises_valueerror_naming_it(device, call):
    a_np = np.arange(6.0).reshape(2, 3)
    with pytest.raises(ValueError) as numpys:
        call(np, a_np)
    with pytest.raises(ValueError, match="order") as ours:
        call(ap, to_device(a_np, device))
    assert "order" in str(numpys.value)
    assert "incompatible function arguments" not in str(ours.value)


def test_deeply_nested_list_raises_valueerror_not_recursionerror():
    nested = [1.0]
    for _ in range(100_000):
        nested = [nested]
    with pytest.raises(ValueError):
        np.asarray(nested)
    with pytest.raises(ValueError):
        ap.asarray(nested)


@pytest.mark.parametrize("key", [2**70, -(2**70), (0, 2**64)])
def test_index_past_64_bits_is_an_indexerror(device, key):
    a = ap.zeros((3, 3), device=device)
    with pytest.raises(IndexError):
        np.zeros((3, 3))[key]
    with pytest.raises(IndexError, match="valid indices"):  # NumPy's message
        a[key]
    with pytest.raises(IndexError):
        a[key] = 1.0
