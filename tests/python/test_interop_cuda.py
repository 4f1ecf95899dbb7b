"""Exchange with the CUDA libraries: __cuda_array_interface__ v3 (export and import, with its
stream field), and zero-copy round trips with PyTorch, JAX, CuPy, Numba and TensorFlow,
checked by pointer identity. Everything here needs a GPU and skips with the reason without one
(or without the peer library); the CPU behaviour of the interface is tested at the end."""

import os

import numpy as np
import pytest

import accelpy as ap
from helpers import ALL_DTYPES, BF16, VIEW_LAYOUTS, assert_matches, make_array, sum_atol

# JAX would otherwise reserve most of the GPU's memory at import, starving the other tests.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

needs_gpu = pytest.mark.skipif(not ap.cuda.is_available(),
                               reason=f"no CUDA device: {ap.cuda.unavailable_reason()}")


def ptr(a):
    return ap._core._data_ptr(a)


class Holder:
    """Any object exporting __cuda_array_interface__ (as Numba's and CuPy's arrays do)."""

    def __init__(self, iface, owner=None):
        self.__cuda_array_interface__ = iface
        self.owner = owner


@pytest.fixture
def gpu():
    if not ap.cuda.is_available():
        pytest.skip(f"no CUDA device: {ap.cuda.unavailable_reason()}")
    with ap.device("cuda:0") as dev:
        yield dev


def _peer(name):
    mod = pytest.importorskip(name, reason=f"{name} is not installed")
    return mod


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if d != BF16], ids=str)
@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_cuda_array_interface_round_trip(layout, dtype, gpu, rng):
    a_np, a = make_array(rng, layout, dtype, gpu)
    iface = a.__cuda_array_interface__
    assert iface["version"] == 3 and iface["shape"] == a.shape
    assert np.dtype(iface["typestr"]) == dtype and iface["descr"] == [("", iface["typestr"])]
    read_only = layout in ("broadcast", "bcast_view")
    assert iface["data"] == (ptr(a) if a.size else 0, read_only)
    contiguous = a.size == 0 or a.strides == np.empty(a.shape, dtype).strides
    assert (iface["strides"] is None) == contiguous
    assert iface["stream"] == ap.cuda.current_stream(gpu).handle and iface["mask"] is None
    b = ap.asarray(Holder(iface, a))
    assert b.device == a.device and b.shape == a.shape and b.strides == a.strides
    if a.size:
        assert ptr(b) == ptr(a)
    assert_matches(b, a_np)


def test_cuda_array_interface_stream_is_waited_for(gpu):
    a = ap.arange(1 << 20, dtype=np.float32)
    other = ap.cuda.Stream(gpu)
    with other:
        b = a * 3.0
        ap.eval(b)  # queued on `other`; the interface names `other` as the stream to wait for
        iface = b.__cuda_array_interface__
    assert iface["stream"] == other.handle
    c = ap.asarray(Holder(iface, b))  # waits for `other` on accelpy's current stream
    assert_matches(c[-3:], (np.arange(1 << 20, dtype=np.float32) * 3)[-3:])
    with pytest.raises(ValueError, match="ambiguous"):
        ap.asarray(Holder({**iface, "stream": 0}, b))


def test_cuda_array_interface_refusals(gpu):
    a = ap.zeros((4,), dtype=ap.bfloat16)
    assert not hasattr(a, "__cuda_array_interface__")  # no type string for bfloat16
    iface = ap.zeros((4,)).__cuda_array_interface__
    with pytest.raises(TypeError, match="masked"):
        ap.asarray(Holder({**iface, "mask": iface["data"]}))
    with pytest.raises(ValueError, match="whole"):
        ap.asarray(Holder({**iface, "strides": (3,)}))
    # A GPU load at a misaligned address is a sticky fault that ends the context: refused.
    b = ap.zeros((5,))
    moved = {**b.__cuda_array_interface__, "shape": (4,)}
    moved["data"] = (moved["data"][0] + 4, False)
    with pytest.raises(ValueError, match="not aligned to its 8-byte elements"):
        ap.asarray(Holder(moved, b))


def test_cpu_arrays_have_no_cuda_array_interface():
    a = ap.zeros((3,), device="cpu")
    assert not hasattr(a, "__cuda_array_interface__")
    with pytest.raises(AttributeError, match="only CUDA arrays"):
        a.__cuda_array_interface__  # noqa: B018


# ---- PyTorch ------------------------------------------------------------------------------------

@needs_gpu
def test_torch_exchange(gpu, rng):
    torch = _peer("torch")
    a = ap.asarray(rng.standard_normal((64, 33)).astype(np.float32))
    t = torch.from_dlpack(a)  # torch passes its current stream: we order our work before it
    assert t.device.type == "cuda" and t.data_ptr() == ptr(a)
    torch.testing.assert_close(t.cpu(), torch.from_numpy(ap.asnumpy(a)))
    u = torch.arange(12, dtype=torch.bfloat16, device="cuda").reshape(3, 4)[:, ::2]
    b = ap.from_dlpack(u)
    assert b.dtype == ap.bfloat16 and b.shape == (3, 2) and ptr(b) == u.data_ptr()
    assert_matches(b, u.float().cpu().numpy().astype(BF16))
    c = ap.asarray(u)  # asarray takes it too, without a copy
    assert ptr(c) == u.data_ptr()
    t2 = torch.from_dlpack(a[:, 1:] * 2)  # pending work is computed, then handed over
    torch.testing.assert_close(t2.cpu(), torch.from_numpy(ap.asnumpy(a)[:, 1:] * 2))
    t[0, 0] = 7.0  # shared memory: torch's write is seen once its stream is synchronized
    torch.cuda.synchronize()
    assert float(a[0, 0]) == 7.0


@needs_gpu
def test_torch_bool_and_complex(gpu):
    torch = _peer("torch")
    for dt in (torch.bool, torch.complex64, torch.int8, torch.float16):
        u = torch.ones(5, dtype=dt, device="cuda")
        b = ap.from_dlpack(u)
        assert ptr(b) == u.data_ptr()
        assert torch.from_dlpack(b).data_ptr() == u.data_ptr()


# ---- JAX ----------------------------------------------------------------------------------------

@needs_gpu
def test_jax_exchange(gpu, rng):
    jax = _peer("jax")
    jnp = pytest.importorskip("jax.numpy")
    if not any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("jax has no GPU backend here")
    a = ap.asarray(rng.standard_normal((128, 64)).astype(np.float32))
    j = jnp.from_dlpack(a)
    assert j.unsafe_buffer_pointer() == ptr(a)
    np.testing.assert_array_equal(np.asarray(j), ap.asnumpy(a))
    k = jnp.arange(256, dtype=jnp.float32) * 2
    b = ap.from_dlpack(k)
    assert ptr(b) == k.unsafe_buffer_pointer()
    assert_matches(b, np.arange(256, dtype=np.float32) * 2)


# ---- CuPy ---------------------------------------------------------------------------------------

@needs_gpu
def test_cupy_exchange(gpu, rng):
    cp = _peer("cupy")
    a = ap.asarray(rng.standard_normal((50, 40)).astype(np.float32))
    c = cp.from_dlpack(a)
    assert c.data.ptr == ptr(a)
    c2 = cp.asarray(a)  # CuPy reads __cuda_array_interface__
    assert c2.data.ptr == ptr(a)
    np.testing.assert_array_equal(cp.asnumpy(c2), ap.asnumpy(a))
    d = cp.arange(30, dtype=cp.float64).reshape(5, 6)[:, ::-2]
    b = ap.from_dlpack(d)
    assert ptr(b) == d.data.ptr
    assert_matches(b, cp.asnumpy(d))
    e = ap.asarray(d)  # via DLPack (CuPy has both protocols)
    assert ptr(e) == d.data.ptr
    s = cp.cuda.Stream(non_blocking=True)
    with s:  # CuPy on its own stream: from_dlpack orders CuPy's work before ours
        f = cp.ones(1 << 22, dtype=cp.float32) * 5
        g = ap.from_dlpack(f)
    assert float(g.sum()) == 5.0 * (1 << 22)


# ---- Numba --------------------------------------------------------------------------------------

@needs_gpu
def test_numba_kernel_on_accelpy_arrays(gpu):
    numba_cuda = pytest.importorskip("numba.cuda", reason="numba (numba-cuda) is not installed")
    if not numba_cuda.is_available():
        pytest.skip("numba finds no CUDA device")

    @numba_cuda.jit
    def axpy(out, x, y, alpha):
        i = numba_cuda.grid(1)
        if i < out.size:
            out[i] = alpha * x[i] + y[i]

    n = 100_000
    x = ap.arange(n, dtype=np.float32)
    y = ap.ones(n, dtype=np.float32) * 2  # pending: the interface computes it first
    out = ap.empty(n, dtype=np.float32)
    axpy[(n + 255) // 256, 256](out, x, y, np.float32(3))
    numba_cuda.synchronize()  # Numba launched on its stream; ours does not wait for it
    assert_matches(out, 3 * np.arange(n, dtype=np.float32) + 2)
    d = numba_cuda.as_cuda_array(x)
    assert d.__cuda_array_interface__["data"][0] == ptr(x)


@needs_gpu
def test_numba_device_arrays_in_accelpy_operations(gpu, rng):
    numba_cuda = pytest.importorskip("numba.cuda", reason="numba (numba-cuda) is not installed")
    if not numba_cuda.is_available():
        pytest.skip("numba finds no CUDA device")
    h = rng.standard_normal(1000)
    d = numba_cuda.to_device(h)
    a = ap.asarray(d)
    assert ptr(a) == d.__cuda_array_interface__["data"][0] and a.device == gpu
    assert_matches(ap.sin(d), np.sin(h))
    assert_matches(a + d, 2 * h)
    assert_matches(ap.sum(d), np.sum(h), rtol=1e-12, atol=sum_atol(h))


# ---- TensorFlow (where installed) --------------------------------------------------------------

def test_tensorflow_exchange(device, rng):
    tf = pytest.importorskip("tensorflow", reason="tensorflow is not installed")
    h = rng.standard_normal((4, 5)).astype(np.float32)
    a = ap.asarray(h, device=device)
    t = tf.experimental.dlpack.from_dlpack(a.__dlpack__())  # TF takes legacy capsules
    np.testing.assert_array_equal(t.numpy(), h)
    b = ap.from_dlpack(tf.experimental.dlpack.to_dlpack(t))
    assert b.device == device
    if device.type == "cuda":
        assert ptr(b) == ptr(a)  # TF wrapped our memory and handed the same memory back
    assert_matches(b, h)
