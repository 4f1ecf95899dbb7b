"""ElementwiseKernel and ReductionKernel: generated sources compile for every dtype (NVRTC for
sm_90, or the C++ compiler where kernels run on the CPU); results match NumPy on random data
over dtypes, broadcasting, non-contiguous and negative-stride inputs, axes and keepdims, on
every device (the CPU device always, the GPU when there is one)."""

import numpy as np
import pytest

import accelpy as ap

nvrtc_available = any(lib["name"] == "nvrtc" and lib["found"] for lib in ap.cuda._c.libraries())
needs_nvrtc = pytest.mark.skipif(not nvrtc_available, reason="NVRTC not found")

FLOATS = [np.float16, np.float32, np.float64]
ALL_NUMERIC = [np.int8, np.uint8, np.int32, np.int64, np.uint64, np.float16, np.float32,
               np.float64, np.complex64, np.complex128]


def _compile(kernel, types, dtypes, *layout):
    from accelpy._kernels import RawModule

    src = kernel._source(types, dtypes, *layout)
    RawModule(code=src, name=kernel.name, _with_prelude=True).compile()
    return src


@needs_nvrtc
@pytest.mark.parametrize("dt", ALL_NUMERIC + [np.bool_])
@pytest.mark.parametrize("contiguous", [True, False])
def test_elementwise_sources_compile_for_every_dtype(dt, contiguous):
    k = ap.ElementwiseKernel("T x, T y, raw T z", "T w", "w = x + y + z[0]", "ew_all")
    name = ap._kernel_gen._dtype_name(dt)
    _compile(k, {"T": name}, [name, name, name, name], contiguous, 0 if contiguous else 3)


@needs_nvrtc
@pytest.mark.parametrize("dt", ALL_NUMERIC)
@pytest.mark.parametrize("identity", ["0", None])
def test_reduction_sources_compile_for_every_dtype(dt, identity):
    k = ap.ReductionKernel("T x", "T y", "x", "a + b", "y = a", identity, "red_all")
    name = ap._kernel_gen._dtype_name(dt)
    _compile(k, {"T": name}, [name], name, 2, 1)


@needs_nvrtc
def test_user_errors_in_operations_are_compile_errors():
    k = ap.ElementwiseKernel("T x", "T y", "y = x + undefined_name", "ew_bad")
    with pytest.raises(ap.CompileError) as info:
        _compile(k, {"T": "float32"}, ["float32", "float32"], True, 0)
    assert "undefined_name" in info.value.log
    assert "undefined_name" in info.value.source_lines


def test_parameter_parsing_errors():
    with pytest.raises(ValueError, match="bad parameter"):
        ap.ElementwiseKernel("x", "T y", "y = x")
    with pytest.raises(ValueError, match="qualifier"):
        ap.ElementwiseKernel("volatile T x", "T y", "y = x")
    with pytest.raises(ValueError, match="duplicate"):
        ap.ElementwiseKernel("T x, T x", "T y", "y = x")
    with pytest.raises(ValueError, match="both in_params and out_params"):
        ap.ElementwiseKernel("T x", "T x", "x = x")
    with pytest.raises(ValueError, match="C identifier"):
        ap.ElementwiseKernel("T x", "T y", "y = x", name="not a name")
    with pytest.raises(ValueError, match="output parameter"):
        ap.ReductionKernel("T x", "", "x", "a + b", "", "0")
    with pytest.raises(ValueError, match="raw"):
        ap.ReductionKernel("raw T x", "T y", "x[0]", "a + b", "y = a", "0")


def test_cpu_arrays_run_on_the_cpu_device():
    k = ap.ElementwiseKernel("T x", "T y", "y = x * 2", "ew_cpu")
    y = k(ap.arange(3.0, device="cpu"))
    assert y.device == ap.device("cpu")
    np.testing.assert_array_equal(ap.asnumpy(y), [0.0, 2.0, 4.0])
    r = ap.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", "red_cpu")
    assert float(ap.asnumpy(r(ap.arange(5.0, device="cpu")))) == 10.0


def test_given_outputs_take_part_in_the_broadcast(device, rng):
    """As in CuPy: inputs of shape (n, 1) and a given output of shape (n, m) run n * m threads
    (CuPy's Monte Carlo example fills its samples so)."""
    k = ap.ElementwiseKernel("T x, T y, int32 s", "T z", "z = x * s + y", "ew_bcast_out")
    x, y = rng.standard_normal((4, 1)), rng.standard_normal((1, 5))
    out = ap.empty((3, 4, 5))
    k(ap.asarray(x), ap.asarray(y), 3, out)
    np.testing.assert_allclose(ap.asnumpy(out), np.broadcast_to(x * 3 + y, (3, 4, 5)))
    with pytest.raises(ValueError, match="shape"):
        k(ap.asarray(x), ap.asarray(y), 3, ap.empty((4, 1)))
    with pytest.raises(ValueError, match="broadcast"):
        k(ap.asarray(x), ap.asarray(y), 3, ap.empty((4, 6)))


@needs_nvrtc
@pytest.mark.parametrize("contiguous", [True, False])
def test_preamble_with_device_functions_compiles(contiguous):
    """A preamble of typedefs and __device__ helpers over T, a per-thread loop and a
    broadcast output: the generated source compiles with NVRTC."""
    k = ap.ElementwiseKernel(
        "T s, T v, int32 n", "T out",
        "unsigned long long st = i + 1; T acc = 0;"
        "for (int j = 0; j < n; ++j) acc += payoff(s, v, next_uniform(&st));"
        "out = acc / n;", "ew_preamble",
        preamble="typedef unsigned long long u64;"
                 "__device__ inline T next_uniform(u64* st) {"
                 "  *st ^= *st << 13; *st ^= *st >> 7; *st ^= *st << 17;"
                 "  return (T)(*st >> 11) * (T)(1.0 / 9007199254740992.0); }"
                 "__device__ inline T payoff(T s, T v, T u) {"
                 "  const T p = s * exp(v * (u - (T)0.5)); return p > 1 ? p - 1 : 0; }")
    f64 = ap._kernel_gen._dtype_name(np.float64)
    _compile(k, {"T": f64}, [f64, f64, None, f64], contiguous, 0 if contiguous else 2)


# ---- launching (GPU) -----------------------------------------------------------------------


def _data(rng, shape, dt):
    x = rng.standard_normal(shape) * 10
    if np.issubdtype(dt, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


@pytest.mark.parametrize("dt", [np.int32, np.int64, np.float16, np.float32, np.float64,
                                np.complex64])
def test_elementwise_axpy_matches_numpy(rng, dt, device):
    k = ap.ElementwiseKernel("T x, T y, T a", "T z", "z = a * x + y", "axpy")
    x_np, y_np = _data(rng, (37, 41), dt), _data(rng, (37, 41), dt)
    x, y = ap.asarray(x_np, device=device), ap.asarray(y_np, device=device)
    z = k(x, y, 3)
    assert z.dtype == dt and z.shape == (37, 41)
    ref = (dt(3) * x_np + y_np).astype(dt)
    tol = 1e-2 if dt == np.float16 else 1e-6
    # Users' kernels may contract a * x + y to one FMA (as CuPy's do): one rounding fewer, so
    # under cancellation the difference is an ulp of the terms, not of the result.
    terms = float(np.max(np.abs(dt(3) * x_np) + np.abs(y_np)))
    np.testing.assert_allclose(ap.asnumpy(z), ref, rtol=tol, atol=tol * max(terms, 1.0))


def test_elementwise_broadcast_strided_negative_strides_and_out(rng, device):
    k = ap.ElementwiseKernel("float32 x, T y", "T z", "z = x * y + (T)i", "mixed")
    x_np = rng.standard_normal((5, 1, 7)).astype(np.float32)
    y_full = rng.standard_normal((6, 4, 14)).astype(np.float64)
    y_np = y_full[::-1, :, ::2]  # non-contiguous, negative strides
    x = ap.asarray(x_np, device=device)
    y = ap.asarray(y_full, device=device)[::-1, :, ::2]
    with pytest.raises(ValueError):  # (5,1,7) and (6,4,7) do not broadcast
        k(x, y)
    x2_np = x_np[:1]
    x2 = x[:1]
    z = k(x2, y)
    idx = np.arange(y_np.size, dtype=np.float64).reshape(y_np.shape)
    np.testing.assert_allclose(ap.asnumpy(z), x2_np.astype(np.float64) * y_np + idx, rtol=1e-12)
    out = ap.zeros((6, 4, 7), dtype=np.float64, device=device)
    res = k(x2, y, out)
    assert res is out
    np.testing.assert_allclose(ap.asnumpy(out), ap.asnumpy(z), rtol=0)
    with pytest.raises(TypeError, match="dtype"):
        k(x2, y, ap.zeros((6, 4, 7), dtype=np.float32, device=device))
    with pytest.raises(ValueError, match="shape"):
        k(x2, y, ap.zeros((6, 4), dtype=np.float64, device=device))


def test_elementwise_type_errors_and_raw_params(rng, device):
    k = ap.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add_same")
    a32 = ap.ones(4, dtype=np.float32, device=device)
    a64 = ap.ones(4, dtype=np.float64, device=device)
    with pytest.raises(TypeError, match="type T is float32.*float64"):
        k(a32, a64)
    only_scalars = ap.ElementwiseKernel("T x", "U y", "y = x", "no_u")
    with pytest.raises(TypeError, match="cannot determine type U"):
        only_scalars(a32)
    rev = ap.ElementwiseKernel("raw T x", "T y", "y = x[_ind.size() - 1 - i]", "reverse")
    v_np = rng.standard_normal(1000).astype(np.float32)
    v = ap.asarray(v_np, device=device)
    out = ap.empty(1000, dtype=np.float32, device=device)
    rev(v, out)
    np.testing.assert_array_equal(ap.asnumpy(out), v_np[::-1])
    fill = ap.ElementwiseKernel("", "int64 y", "y = i * i", "squares")
    np.testing.assert_array_equal(ap.asnumpy(fill(ap.empty(10, dtype=np.int64, device=device))),
                                  np.arange(10) ** 2)
    assert fill(ap.empty(0, dtype=np.int64, device=device)).shape == (0,)


@pytest.mark.parametrize("dt", [np.int32, np.int64, np.float32, np.float64])
@pytest.mark.parametrize("shape, axis", [((1000,), None), ((33, 700), 1), ((33, 700), 0),
                                         ((4, 5, 6), (0, 2)), ((7, 3), ()), ((0, 5), 1),
                                         ((5, 0), 1), ((), None)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reduction_sum_of_squares_matches_numpy(rng, dt, shape, axis, keepdims, device):
    k = ap.ReductionKernel("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq")
    x_np = _data(rng, shape, dt)
    x = ap.asarray(x_np, device=device)
    got = ap.asnumpy(k(x, axis=axis, keepdims=keepdims))
    ref = (x_np * x_np).sum(axis=axis, keepdims=keepdims, dtype=dt)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    tol = 1e-5 if dt == np.float32 else 1e-12
    np.testing.assert_allclose(got, ref, rtol=tol)


def test_reduction_without_identity_post_map_and_strided(rng, device):
    k = ap.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", None, "mymax")
    full = rng.standard_normal((50, 80)).astype(np.float32)
    x = ap.asarray(full, device=device)[::-2, 3::3]
    np.testing.assert_array_equal(ap.asnumpy(k(x, axis=1)), full[::-2, 3::3].max(axis=1))
    with pytest.raises(ValueError, match="zero-size reduction"):
        k(ap.zeros((3, 0), dtype=np.float32, device=device), axis=1)
    l2 = ap.ReductionKernel("T x, T w", "float64 y", "(double)x * x * w", "a + b", "y = sqrt(a)",
                            "0", "weighted_l2", reduce_type="float64")
    w_np = rng.random(80).astype(np.float32)
    got = ap.asnumpy(l2(ap.asarray(full, device=device), ap.asarray(w_np, device=device),
                        axis=1))
    f64 = full.astype(np.float64)
    np.testing.assert_allclose(got, np.sqrt((f64 * f64 * w_np).sum(axis=1)),
                               rtol=1e-12)
    with pytest.raises(np.exceptions.AxisError):
        k(x, axis=2)
    with pytest.raises(ValueError, match="duplicate"):
        k(x, axis=(1, -1))
    out = ap.empty(25, dtype=np.float32, device=device)
    assert k(x, axis=1, out=out) is out
