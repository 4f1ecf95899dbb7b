"""DLPack: export (__dlpack__, __dlpack_device__) and import (from_dlpack, asarray) with
versioned and legacy capsules, zero copy checked by pointer identity, the capsule rules
(renaming, deleters, ownership), flags, stream arguments, copies and device moves.

NumPy is the peer here (CPU); test_interop_gpu.py exchanges with PyTorch, JAX, CuPy and
TensorFlow. A `Foreign` wrapper stands in for another library on every device."""

import ctypes
import gc
import sys

import numpy as np
import pytest

import accelpy as ap
from helpers import ALL_DTYPES, BF16, VIEW_LAYOUTS, assert_matches, make_array, random_values


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32),
                ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p),
                ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]


ctypes.pythonapi.PyCapsule_GetName.restype = ctypes.c_char_p
ctypes.pythonapi.PyCapsule_GetName.argtypes = [ctypes.py_object]
ctypes.pythonapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
ctypes.pythonapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def capsule_name(cap):
    return ctypes.pythonapi.PyCapsule_GetName(cap).decode()


def versioned_tensor(cap):
    ptr = ctypes.pythonapi.PyCapsule_GetPointer(cap, b"dltensor_versioned")
    return DLManagedTensorVersioned.from_address(ptr)


class Foreign:
    """Another library's array, as far as the protocol goes: it forwards to an accelpy array
    and records what the consumer asked for."""

    def __init__(self, inner, legacy=False):
        self.inner, self.legacy, self.calls = inner, legacy, []

    def __dlpack_device__(self):
        return self.inner.__dlpack_device__()

    def __dlpack__(self, stream=None, **kwargs):
        if self.legacy and kwargs:
            raise TypeError("__dlpack__() got an unexpected keyword argument")
        self.calls.append({"stream": stream, **kwargs})
        return self.inner.__dlpack__(stream=stream, **kwargs)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_roundtrip_through_a_foreign_producer_is_zero_copy(layout, dtype, device, rng):
    a_np, a = make_array(rng, layout, dtype, device)
    for legacy in (False, True):
        if legacy and layout in ("broadcast", "bcast_view"):
            continue  # read-only views have no legacy export (below)
        b = ap.from_dlpack(Foreign(a, legacy))
        assert b.device == a.device and b.shape == a.shape and b.dtype == a.dtype
        assert b.strides == a.strides
        if a.size:
            assert ap._core._data_ptr(b) == ap._core._data_ptr(a)
        assert_matches(b, a_np)


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if d != BF16], ids=str)
@pytest.mark.parametrize("layout", ["0d", "empty", "2d", "noncontig", "negstride", "transposed"])
def test_numpy_exchange_is_zero_copy(layout, dtype, rng):
    a_np, a = make_array(rng, layout, dtype, "cpu")
    n = np.from_dlpack(a)  # accelpy -> NumPy
    assert n.dtype == dtype and n.shape == a.shape and n.strides == a.strides
    np.testing.assert_array_equal(n, a_np)
    base = np.array(random_values(rng, (6, 5), dtype))
    view = {"0d": base[2, 3:4].reshape(()), "empty": base[:0], "2d": base,
            "noncontig": base[::2, 1:], "negstride": base[::-1], "transposed": base.T}[layout]
    b = ap.from_dlpack(view)  # NumPy -> accelpy
    assert b.device == ap.device("cpu") and b.shape == view.shape
    assert_matches(b, view)
    if view.size:
        assert ap._core._data_ptr(b) == view.ctypes.data
        assert np.from_dlpack(b).ctypes.data == view.ctypes.data


def test_writes_are_shared_both_ways():
    n = np.arange(6.0)
    a = ap.from_dlpack(n)
    a[1] = 10.0
    assert n[1] == 10.0
    back = np.from_dlpack(ap.asarray(n, device="cpu"))
    back[2] = 20.0
    assert float(a[2]) == 20.0


@pytest.mark.usefixtures("deferred")  # counts what the deferred path does
def test_export_runs_the_write_barrier():
    a = ap.asarray(np.arange(4.0), device="cpu")
    pending = a + 1  # reads a; not computed yet
    assert pending._is_pending()
    view = np.from_dlpack(a)  # NumPy may now write: `pending` must see the old values
    view[0] = 100.0
    assert_matches(pending, np.arange(4.0) + 1)
    computed = np.from_dlpack(ap.sqrt(a))  # pending arrays are computed on export
    np.testing.assert_allclose(computed, np.sqrt([100.0, 1, 2, 3]))


def test_versioned_capsule_fields(device, rng):
    a_np, a = make_array(rng, "noncontig", np.float32, device)
    cap = a.__dlpack__(max_version=(1, 5))
    assert capsule_name(cap) == "dltensor_versioned"
    t = versioned_tensor(cap)
    assert (t.major, t.minor) == (1, 1)
    assert t.flags == 0
    dl = t.dl_tensor
    assert (dl.device.device_type, dl.device.device_id) == a.__dlpack_device__()
    assert dl.ndim == 2 and (dl.dtype.code, dl.dtype.bits, dl.dtype.lanes) == (2, 32, 1)
    assert [dl.shape[i] for i in range(2)] == list(a.shape)
    assert [dl.strides[i] for i in range(2)] == [s // 4 for s in a.strides]
    assert dl.data == ap._core._data_ptr(a) and dl.byte_offset == 0
    ro = ap.broadcast_to(a[0], (3, a.shape[1])).__dlpack__(max_version=(1, 0))
    assert versioned_tensor(ro).flags & 1  # DLPACK_FLAG_BITMASK_READ_ONLY
    copied = a.__dlpack__(max_version=(1, 0), copy=True)
    t = versioned_tensor(copied)
    assert t.flags & 2 and t.dl_tensor.data != ap._core._data_ptr(a)  # IS_COPIED
    assert_matches(ap._core._from_dlpack_capsule(copied)[0], a_np)


def test_version_negotiation(device):
    a = ap.ones((3,), device=device)
    assert capsule_name(a.__dlpack__()) == "dltensor"  # no max_version: a legacy consumer
    assert capsule_name(a.__dlpack__(max_version=(0, 8))) == "dltensor"
    assert capsule_name(a.__dlpack__(max_version=(1, 0))) == "dltensor_versioned"
    assert capsule_name(a.__dlpack__(max_version=(2, 3))) == "dltensor_versioned"
    with pytest.raises(TypeError, match="max_version"):
        a.__dlpack__(max_version=1)
    # A legacy capsule cannot say "read-only": exporting a read-only view that way is refused.
    ro = ap.broadcast_to(a, (2, 3))
    with pytest.raises(BufferError, match="read-only"):
        ro.__dlpack__()
    assert capsule_name(ro.__dlpack__(copy=True)) == "dltensor"  # a copy is writeable


def test_consumed_capsules_are_renamed_and_used_once():
    n = np.arange(3.0)
    for cap, used in ((n.__dlpack__(max_version=(1, 0)), "used_dltensor_versioned"),
                      (n.__dlpack__(), "used_dltensor")):
        a = ap.from_dlpack(cap)
        assert capsule_name(cap) == used
        assert_matches(a, n)
        with pytest.raises(ValueError, match="already consumed"):
            ap.from_dlpack(cap)
    with pytest.raises(TypeError, match="DLPack"):
        ap.from_dlpack(object())


def test_ownership_follows_the_protocol():
    n = np.arange(1000.0)
    base = sys.getrefcount(n)
    a = ap.from_dlpack(n)  # the producer's deleter runs when the last view is gone
    assert sys.getrefcount(n) > base
    view = a[10:20]
    del a
    gc.collect()
    assert sys.getrefcount(n) > base and float(view[0]) == 10.0
    del view
    gc.collect()
    assert sys.getrefcount(n) == base
    x = ap.asarray(n)
    held = sys.getrefcount(n)
    for kwargs in ({}, {"max_version": (1, 0)}):  # an unconsumed capsule frees its tensor
        cap = x.__dlpack__(**kwargs)
        del x
        gc.collect()
        assert sys.getrefcount(n) == held  # the capsule keeps the memory alive
        x = ap._core._from_dlpack_capsule(cap)[0] if kwargs else ap.asarray(n)
        del cap
        gc.collect()
    del x
    gc.collect()
    assert sys.getrefcount(n) == base


def test_read_only_producers_stay_read_only():
    n = np.arange(4.0)
    n.flags.writeable = False
    a = ap.from_dlpack(n)
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 1.0
    assert_matches(a * 2, n * 2)


def test_from_dlpack_copy_and_device(device):
    a = ap.arange(5.0, device=device)
    f = Foreign(a)
    same = ap.from_dlpack(f, copy=False)
    assert ap._core._data_ptr(same) == ap._core._data_ptr(a)
    assert f.calls[-1]["copy"] is False and f.calls[-1]["max_version"] == (1, 1)
    fresh = ap.from_dlpack(f, copy=True)
    assert ap._core._data_ptr(fresh) != ap._core._data_ptr(a)
    a[0] = 42.0
    assert float(fresh[0]) == 0.0 and float(same[0]) == 42.0
    on_cpu = ap.from_dlpack(f, device="cpu")
    assert on_cpu.device == ap.device("cpu")
    assert_matches(on_cpu, np.array([42.0, 1, 2, 3, 4]))
    if device.type == "cuda":
        with pytest.raises(BufferError, match="copy=False"):
            ap.from_dlpack(f, device="cpu", copy=False)
    assert ap.from_dlpack(a) is a  # an accelpy array is taken as it is
    assert ap.from_dlpack(a, copy=True) is not a


def test_consumer_passes_its_stream(device):
    a = ap.arange(4.0, device=device)
    f = Foreign(a)
    ap.from_dlpack(f)
    if device.type == "cpu":
        assert f.calls[-1]["stream"] is None  # CPU producers get no stream
    else:
        assert f.calls[-1]["stream"] == ap.cuda.current_stream(device).handle
        s = ap.cuda.Stream(device)
        with s:
            ap.from_dlpack(f)
        assert f.calls[-1]["stream"] == s.handle


def test_stream_argument(device):
    a = ap.arange(4.0, device=device) * 2  # pending: export computes it first
    if device.type == "cpu":
        with pytest.raises(BufferError, match="stream must be None"):
            a.__dlpack__(stream=1)
        assert capsule_name(a.__dlpack__(stream=None)) == "dltensor"
        return
    other = ap.cuda.Stream(device)
    for stream in (None, 1, 2, -1, other.handle, ap.cuda.current_stream(device).handle):
        b = ap._core._from_dlpack_capsule(a.__dlpack__(stream=stream, max_version=(1, 0)))[0]
        assert_matches(b, np.arange(4.0) * 2)
    with pytest.raises(ValueError, match="ambiguous"):
        a.__dlpack__(stream=0)


def test_dl_device_requests(device):
    a = ap.arange(3.0, device=device)
    kind, index = a.__dlpack_device__()
    assert (kind, index) == ((1, 0) if device.type == "cpu" else (2, device.index))
    same = a.__dlpack__(dl_device=(kind, index), max_version=(1, 0))
    assert versioned_tensor(same).flags == 0
    host = a.__dlpack__(dl_device=(1, 0), max_version=(1, 0))
    t = versioned_tensor(host)
    assert t.dl_tensor.device.device_type == 1
    assert t.flags == (0 if device.type == "cpu" else 2)
    np.testing.assert_array_equal(np.from_dlpack(ap._core._from_dlpack_capsule(host)[0]),
                                  [0.0, 1.0, 2.0])
    with pytest.raises(BufferError, match="device type 4"):
        a.__dlpack__(dl_device=(4, 0))
    if device.type == "cuda":
        with pytest.raises(BufferError, match="copy=False"):
            a.__dlpack__(dl_device=(1, 0), copy=False)
        # NumPy asks for a host copy when given device="cpu"; without it the data stays put.
        np.testing.assert_array_equal(np.from_dlpack(a, device="cpu"), [0.0, 1.0, 2.0])
        with pytest.raises((BufferError, RuntimeError)):  # NumPy reads CPU memory only
            np.from_dlpack(a)


def test_asarray_takes_dlpack_producers(device):
    a = ap.arange(6, device=device).reshape(2, 3)
    b = ap.asarray(Foreign(a))
    assert ap._core._data_ptr(b) == ap._core._data_ptr(a)
    c = ap.asarray(Foreign(a), dtype=np.float32)
    assert c.dtype == np.float32 and c.device == a.device
    with pytest.raises(ValueError, match="avoid copy"):
        ap.asarray(Foreign(a), dtype=np.float32, copy=False)
    assert_matches(a + Foreign(a), np.arange(6).reshape(2, 3) * 2)  # operators take them too
    assert_matches(ap.sin(Foreign(a)), np.sin(np.arange(6).reshape(2, 3)))


def test_unsupported_dtypes_and_devices_raise_buffer_error():
    n = np.zeros(3, dtype="datetime64[s]")
    with pytest.raises(BufferError):
        ap.from_dlpack(n)

    class OnOpenCL(Foreign):
        def __dlpack_device__(self):
            return (4, 0)

    with pytest.raises(BufferError, match="kDLOpenCL"):
        ap.from_dlpack(OnOpenCL(ap.zeros(2)))


def test_from_dlpack_refuses_unaligned_memory():
    # NumPy exports memory at any address; kernels load whole elements (asarray copies it).
    unaligned = np.frombuffer(bytearray(33), dtype=np.float64, offset=1)
    with pytest.raises(BufferError, match="not aligned to its 8-byte float64 elements"):
        ap.from_dlpack(unaligned)
