"""Attributes and conversions against NumPy: shape/dtype/strides..., repr and str, Python
scalars, iteration, export to NumPy with NumPy's copy= semantics, and devices."""

import copy
import operator

import numpy as np
import pytest

import accelpy as ap
from helpers import (
    ALL_DTYPES,
    BF16,
    VIEW_LAYOUTS,
    assert_matches,
    assert_same_outcome,
    make_array,
    random_values,
    to_device,
)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_attributes(layout, dtype, device, rng):
    a_np, a = make_array(rng, layout, dtype, device)
    assert a.shape == a_np.shape and isinstance(a.shape, tuple)
    assert a.dtype == a_np.dtype
    assert a.ndim == a_np.ndim
    assert a.size == a_np.size
    assert a.nbytes == a_np.nbytes
    assert a.itemsize == a_np.itemsize
    if a_np.size:  # NumPy 2.4 gives new empty arrays zero strides, but not empty views
        assert a.strides == a_np.strides  # the same view of the same (C-ordered) base
    assert a.device == device
    assert_matches(a.T, a_np.T)
    if a.ndim >= 2:
        assert_matches(a.mT, np.swapaxes(a_np, -1, -2))
    pending = a + a if dtype != np.bool_ else a == a
    if a_np.size:  # NumPy's result layout (order='K': a transposed input gives Fortran order)
        expected = a_np + a_np if dtype != np.bool_ else a_np == a_np
        assert pending.strides == expected.strides


REPR_CASES = [
    ((), None), ((0,), None), ((0, 3), None), ((7,), None), ((3, 4), None), ((2, 3, 4), None),
    ((2000,), None), ((40, 40), None), ((3, 4), "noncontig"), ((5,), "specials"),
]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_repr_and_str_match_numpy(dtype, device, rng):
    for shape, kind in REPR_CASES:
        if kind == "noncontig":
            base = random_values(rng, (6, 9), dtype)
            a_np, a = base[::2, 1:5], to_device(base, device)[::2, 1:5]
        else:
            a_np = random_values(rng, shape, dtype, specials=kind == "specials")
            a_np = np.array(a_np)
            a = to_device(a_np, device)
        assert repr(a) == repr(a_np)
        assert str(a) == str(a_np)
        assert f"{a}" == f"{a_np}"
        pending = ap.negative(a) if dtype != np.bool_ else ap.logical_not(a)
        assert repr(pending) == repr(np.asarray(np.negative(a_np) if dtype != np.bool_
                                                else ~a_np))
    z_np = np.array(random_values(rng, (), dtype))
    z = to_device(z_np, device)
    for v_np in np.array(random_values(rng, (12,), dtype, specials=True)):  # 0-d specials
        v = to_device(np.array(v_np), device)
        assert str(v) == str(np.array(v_np)) and repr(v) == repr(np.array(v_np))
    assert str(to_device(a_np, device).max()) == str(np.array(a_np.max()))  # a pending 0-d
    if dtype.kind in "fc" or dtype == BF16:
        assert format(z, ".3f") == format(z_np, ".3f") if dtype.kind == "f" else True


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_python_scalars(dtype, device, rng):
    for shape in ((), (1,), (1, 1), (3,), (0,)):
        a_np = np.array(random_values(rng, shape, dtype))
        a = to_device(a_np, device)
        for fn in (float, int, complex, bool, operator.index, lambda x: x.item(), len,
                   lambda x: list(iter(x))):
            outcome = assert_same_outcome(lambda: fn(a_np), lambda: fn(a))  # noqa: B023
            if outcome is None:
                continue
            expected, got = outcome
            if isinstance(expected, list):
                assert len(got) == len(expected)
                for g, e in zip(got, expected, strict=True):
                    assert_matches(g, e)
                continue
            assert type(got) is type(expected), (fn, type(got), type(expected))
            assert got == expected or (got != got and expected != expected)


def test_int_of_special_floats(device):
    for value in (np.nan, np.inf, -np.inf, -2.7, 2.5e18):
        a_np = np.array(value)
        outcome = assert_same_outcome(lambda: int(a_np), lambda: int(to_device(a_np)))  # noqa: B023
        if outcome is not None:
            assert outcome[0] == outcome[1]


def test_item_with_indices(device, rng):
    a_np, a = make_array(rng, "noncontig", np.int32, device)
    for args in [(0,), (7,), (-1,), ((1, 2),), (2, 3), (-1, -2), (30,), ((6, 0),), (1, 2, 3),
                 (1.5,)]:
        outcome = assert_same_outcome(lambda: a_np.item(*args), lambda: a.item(*args))  # noqa: B023
        if outcome is not None:
            assert outcome[0] == outcome[1] and type(outcome[1]) is int


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("layout", ["0d", "empty", "2d", "3d", "negstride", "bcast_view"])
def test_tolist_and_iteration(layout, dtype, device, rng):
    a_np, a = make_array(rng, layout, dtype, device)
    got, expected = a.tolist(), a_np.tolist()
    assert got == expected or np.array_equal(np.array(got), np.array(expected), equal_nan=True)
    if a_np.ndim:
        rows = list(a)
        assert len(rows) == len(a_np) == len(a)
        for row, row_np in zip(rows, a_np, strict=True):
            assert_matches(row, row_np)
            if a_np.ndim == 1 and device.type == "cpu":  # elements: NumPy's scalars
                assert type(row) is type(row_np)
            else:
                assert isinstance(row, ap.ndarray)


@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_asnumpy_and_get(layout, device, rng):
    for dtype in (np.float32, BF16, np.complex128, np.bool_):
        a_np, a = make_array(rng, layout, dtype, device)
        for out in (ap.asnumpy(a), a.get()):
            assert isinstance(out, np.ndarray)
            assert_matches(out, a_np, ulps=0)
            if out.size:
                out[...] = random_values(rng, out.shape, dtype)  # a copy: a is unchanged
                assert_matches(a, a_np, ulps=0)
        pending = a * 1 if dtype != np.bool_ else ap.logical_not(a)
        assert_matches(ap.asnumpy(pending), a_np * 1 if dtype != np.bool_ else ~a_np)


def test_array_protocol_copy_semantics(device, rng):
    a_np, a = make_array(rng, "noncontig", np.float64, device)
    if device.type != "cpu":
        # A GPU array reaches NumPy as a host copy (as JAX's; CuPy raises TypeError), which
        # never aliases the device memory; copy=False cannot be honoured.
        for convert in (np.asarray, np.array, lambda x: np.array(x, copy=True)):
            host = convert(a)
            assert isinstance(host, np.ndarray) and host.dtype == a_np.dtype
            np.testing.assert_array_equal(host, a_np)
            host[...] = 0
            assert_matches(a, a_np, ulps=0)
        np.testing.assert_array_equal(np.asarray(a, dtype=np.float32), a_np.astype(np.float32))
        with pytest.raises(ValueError, match="avoid copy"):
            np.asarray(a, copy=False)
        return
    if device.type == "cpu":
        shared = np.asarray(a)  # copy=None may share: on the CPU it does
        assert np.shares_memory(shared, np.asarray(a))
        shared[0, 0] = 42.0
        assert float(a[0, 0]) == 42.0
        a_np[0, 0] = 42.0
        no_copy = np.asarray(a, copy=False)
        no_copy[1, 1] = -1.0
        a_np[1, 1] = -1.0
        assert_matches(a, a_np)
        pending = a + 1.0
        exported = np.asarray(pending, copy=False)
        assert_matches(pending, a_np + 1.0)
        exported[...] = 0.0  # NumPy writes into the computed result itself
        assert_matches(pending, np.zeros_like(a_np))
    copied = np.array(a, copy=True)
    copied[...] = 5.0
    assert_matches(a, a_np)
    converted = np.asarray(a, dtype=np.float32)
    assert converted.dtype == np.float32
    assert_matches(converted, a_np.astype(np.float32), ulps=0)
    with pytest.raises(ValueError):
        np.asarray(a, dtype=np.float32, copy=False)
    assert np.asarray(a, dtype=np.float64, copy=False).dtype == np.float64
    ro = ap.broadcast_to(a[0], (3, a.shape[1]))
    assert not np.asarray(ro).flags.writeable
    assert_matches(np.asarray(ro), np.broadcast_to(a_np[0], (3, a_np.shape[1])))


def test_pending_readers_see_data_before_numpy_writes(device, rng):
    """Exporting memory to NumPy computes pending readers first: NumPy may write into it."""
    a_np, a = make_array(rng, "1d", np.float32, device)
    reader = a * 2.0
    if device.type == "cpu":
        np.asarray(a)[...] = 0.0
    else:
        a[...] = 0.0  # the write barrier, through accelpy's own write
    assert_matches(reader, a_np * np.float32(2.0))


def test_to_and_cpu(device, rng):
    a_np, a = make_array(rng, "2d", np.int64, device)
    cpu = a.cpu()
    assert cpu.device == ap.device("cpu")
    assert_matches(cpu, a_np)
    assert a.to(a.device) is a or a.to(a.device)._storage_id() == a._storage_id()
    moved = a.to("cpu")
    assert moved.device == ap.device("cpu")
    assert_matches(moved, a_np)
    assert_matches(a.T.to(ap.device("cpu")), a_np.T)
    assert_matches(copy.deepcopy(a), a_np)


def test_devices():
    cpu = ap.device("cpu")
    assert cpu == "cpu" and cpu == ap.device("cpu") and str(cpu) == "cpu"
    assert repr(cpu) == "device(type='cpu')"
    assert cpu.type == "cpu"
    assert hash(cpu) == hash(ap.device("cpu"))
    before = ap.get_default_device()
    with ap.device("cpu") as d:
        assert d == cpu
        assert ap.get_default_device() == cpu
        with ap.device("cpu"):
            assert ap.zeros(2).device == cpu
        assert ap.get_default_device() == cpu
    assert ap.get_default_device() == before
    with pytest.raises((ValueError, TypeError)):
        ap.device("tpu")
    with pytest.raises(TypeError):
        ap.device(3.5)
