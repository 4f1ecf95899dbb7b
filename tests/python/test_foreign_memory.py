"""Results over memory accelpy does not own equal NumPy's eager results.

A NumPy array imported without a copy (asarray), a DLPack or CUDA-array-interface import, or
memory handed to NumPy (np.asarray of a CPU array) can be written by code that never passes
through accelpy, so no write barrier sees it. An operation reading such memory is computed at
the call (docs/decisions.md): whatever the owner writes afterwards, the result is NumPy's."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches, random_values, sum_atol

pytestmark = pytest.mark.usefixtures("cpu_default")


def test_lazy_result_over_an_imported_numpy_array_ignores_later_writes(rng):
    n = random_values(rng, (1000,), np.float64)
    b = ap.asarray(n)
    assert np.shares_memory(np.asarray(b), n)  # zero-copy
    c = ap.negative(b)
    s = b.sum()
    v = b[3:7] * 2  # through a view of the import
    expected_c, expected_s, expected_v = -n, n.sum(), n[3:7] * 2
    n *= 3
    assert_matches(c, expected_c)
    assert_matches(s, expected_s, atol=sum_atol(expected_c))
    assert_matches(v, expected_v)
    assert_matches(b, n)  # the import itself still shares the memory


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.complex64, np.bool_])
def test_fused_chain_over_an_import_keeps_the_values_of_the_call(rng, dtype):
    n = random_values(rng, (7, 33), dtype)
    b = ap.asarray(n)[:, ::-2]  # negative strides, non-contiguous
    expected = np.asarray(n[:, ::-2] + n[:, ::-2]) * 2
    r = (b + b) * 2
    n[...] = random_values(rng, (7, 33), dtype)
    assert_matches(r, expected)


def test_memory_exported_to_numpy_is_read_at_the_call(rng):
    a = ap.asarray(random_values(rng, (5, 4), np.float32))
    exported = np.asarray(a)  # shares a's memory
    before = exported.copy()
    c = ap.sqrt(ap.abs(a))
    exported += 100
    assert_matches(c, np.sqrt(np.abs(before)))
    assert_matches(a, before + 100)


def test_zero_d_and_empty_imports(rng):
    z = np.array(2.5)
    e = np.zeros((0, 3), np.float32)
    c, d = ap.asarray(z) * 2, ap.asarray(e) + 1
    z[...] = 7
    assert_matches(c, np.array(5.0))
    assert_matches(d, e + 1)


def test_write_through_the_import_still_reaches_numpy(rng):
    n = random_values(rng, (10,), np.float64)
    b = ap.asarray(n)
    b[2] = 42.0
    b[3:5] += 1
    assert n[2] == 42.0
    assert_matches(b, n)


def test_dlpack_import_keeps_the_values_of_the_call(rng):
    n = random_values(rng, (64,), np.float32)
    b = ap.from_dlpack(n)
    assert np.shares_memory(np.asarray(b), n)
    r = ap.multiply(b, 3)
    expected = n * 3
    n[...] = 0  # the owner writes through its own handle
    assert_matches(r, expected)


@pytest.mark.cuda
@pytest.mark.parametrize("protocol", ["dlpack", "cuda_array_interface"])
def test_gpu_import_keeps_the_values_of_the_call(rng, protocol):
    numba_cuda = pytest.importorskip("numba.cuda", reason="numba (numba-cuda) is not installed")
    if not numba_cuda.is_available():
        pytest.skip("numba finds no CUDA device")
    host = random_values(rng, (4096,), np.float64)
    d = numba_cuda.to_device(host)
    if protocol == "dlpack":  # numba's device arrays speak only the CUDA array interface
        torch = pytest.importorskip("torch", reason="a DLPack producer on the GPU (torch)")
        a = ap.from_dlpack(torch.as_tensor(d, device="cuda"))
    else:
        a = ap.asarray(d)
    assert str(a.device).startswith("cuda")
    r = ap.negative(a) + 1
    s = a.sum()
    ap.cuda.synchronize()  # the call queued its kernels; the owner writes after they ran
    d.copy_to_device(np.zeros_like(host))
    numba_cuda.synchronize()
    assert_matches(r, 1 - host)
    assert_matches(s, host.sum(), atol=sum_atol(host))


@pytest.mark.usefixtures("deferred")  # counts what the deferred path does
def test_an_import_nothing_else_references_stays_lazy(rng):
    """A temporary NumPy array (or a view whose whole base chain is temporary) is reachable
    through the import only: accelpy's alone, its readers stay lazy and fuse."""
    n = random_values(rng, (6, 8), np.float64)
    for private in (ap.asarray(n.copy()), ap.asarray(n.copy()[:, ::2]),
                    ap.asarray(np.array(n, order="F")), ap.asarray([1.0, 2.0, 3.0])):
        c = private * 2 + 1
        assert c._is_pending()
        assert_matches(c, np.asarray(private) * 2 + 1)


def test_an_import_something_else_references_is_read_at_the_call(rng):
    """Each import below is a temporary expression, so that its own reference count is a
    temporary's: what makes it shared is the name, the base it views, or the buffer under it.
    Its direct reader is computed at the call, and the owner's later write changes nothing."""
    n = random_values(rng, (6, 8), np.float64)
    raw = bytearray(n.tobytes())

    def scribble():
        n[...] = -7.0
        raw[:] = bytes(len(raw))

    imports = {
        "named": lambda: ap.asarray(n),
        "a view of a named array": lambda: ap.asarray(n[:, ::2]),
        "over a bytearray": lambda: ap.asarray(np.frombuffer(raw, np.float64)),
    }
    for what, make in imports.items():
        b = make()
        before = np.asarray(b).copy()
        twice = b * 2
        c = twice + 1
        assert not twice._is_pending(), what
        scribble()
        assert_matches(c, before * 2 + 1)
        n[...] = random_values(rng, (6, 8), np.float64)
        raw[:] = n.tobytes()
