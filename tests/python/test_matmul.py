"""matmul and `@` against NumPy: every dtype, NumPy's shape rules (1-D promotion, broadcast
batches, empty operands, K = 0), operand layouts (transposed, strided, negative strides, stride-0
batches), errors, and the built-in GEMM the CPU uses without a BLAS."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import accelpy as ap
from helpers import ALL_DTYPES, BF16, assert_matches, is_bf16, random_values, to_device


def _eps(dt):
    import ml_dtypes

    return float(ml_dtypes.finfo(dt).eps) if is_bf16(dt) else float(np.finfo(dt).eps)


def reference(a, b):
    """NumPy's result for integer/bool operands (bit-exact: both wrap), else the product in
    float64/complex128 with the bound on the error a K-term sum may have."""
    dt = np.result_type(a.dtype, b.dtype) if not (is_bf16(a.dtype) or is_bf16(b.dtype)) else BF16
    if dt.kind in "biu":
        return np.matmul(a, b), None, dt
    wide = np.complex128 if dt.kind == "c" else np.float64
    exact = np.matmul(a.astype(wide), b.astype(wide))
    k = a.shape[-1] if a.ndim else 1
    # float16/bfloat16 accumulate in float32, then round once to their own precision.
    acc_eps = _eps(np.float32) if dt.itemsize == 2 else _eps(dt if dt.kind == "f" else
                                                             np.dtype(dt.char.lower()))
    out_eps = _eps(dt if dt.kind == "f" or is_bf16(dt) else np.dtype(dt.char.lower()))
    scale = np.matmul(np.abs(a.astype(wide)), np.abs(b.astype(wide)))
    bound = (2 * out_eps + 2 * (k + 2) * acc_eps) * np.abs(scale) + 1e-30
    return exact, bound, dt


def check(got, a, b):
    exact, bound, dt = reference(a, b)
    out = ap.asnumpy(got)
    assert out.dtype == dt, f"dtype {out.dtype} != {dt}"
    assert out.shape == exact.shape, f"shape {out.shape} != {exact.shape}"
    if bound is None:
        np.testing.assert_array_equal(out, exact)
        return
    wide = np.complex128 if dt.kind == "c" else np.float64
    err = np.abs(out.astype(wide) - exact)
    assert np.all(err <= bound), f"max error {np.max(err - bound, initial=0)} over the bound"


def values(rng, shape, dt):
    # Integers over their full range (products wrap, as NumPy's); floats in [-2, 2] so that
    # float16 sums of a few hundred terms stay finite.
    if np.dtype(dt).kind in "biu":
        return random_values(rng, shape, dt)
    return random_values(rng, shape, dt, low=-2.0, high=2.0)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
@pytest.mark.parametrize("shapes", [((5, 7), (7, 3)), ((2, 3, 4, 5), (5, 6)),
                                    ((3, 1, 6, 33), (4, 33, 9)), ((70, 300), (300, 40))],
                         ids=["2d", "batched", "broadcast", "k300"])
def test_matmul_dtypes(dtype, shapes, device, rng):
    a = values(rng, shapes[0], dtype)
    b = values(rng, shapes[1], dtype)
    check(ap.matmul(to_device(a), to_device(b)), a, b)
    check(to_device(a) @ to_device(b), a, b)


SHAPES = [
    ((4,), (4,)),  # 0-d result
    ((4,), (4, 3)),
    ((5, 4), (4,)),
    ((2, 5, 4), (4,)),
    ((4,), (3, 4, 2)),
    ((1, 6), (6, 1)),
    ((2, 1, 3, 4), (5, 4, 2)),
    ((0, 4), (4, 3)),  # empty rows
    ((3, 4), (4, 0)),  # empty columns
    ((0, 2, 3), (3, 4)),  # empty batch
    ((3, 0), (0, 5)),  # K = 0: zeros
    ((2, 3, 0), (2, 0, 4)),
    ((0,), (0,)),
    ((1, 1), (1, 1)),
    ((7, 1), (1, 9)),  # outer product through GEMM
]


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int32, np.bool_],
                         ids=str)
def test_matmul_shapes(shapes, dtype, device, rng):
    a = values(rng, shapes[0], dtype)
    b = values(rng, shapes[1], dtype)
    check(ap.matmul(to_device(a), to_device(b)), a, b)


def _layouts(rng, dtype, device):
    """Pairs of (NumPy, accelpy) operands laid out in ways BLAS takes directly (F order =
    transposed flags) and ways that need a copy."""
    base = values(rng, (6, 8, 10), dtype)
    d = to_device(base)
    return {
        "transposed": (base[0].T, d[0].T),  # 10x8 column-major
        "batch_transposed": (base.transpose(0, 2, 1), d.transpose(0, 2, 1)),
        "strided_rows": (base[:, ::2, :], d[:, ::2, :]),  # leading dimension 20
        "strided_cols": (base[:, :, ::2], d[:, :, ::2]),  # no unit stride: copied
        "negative": (base[::-1, ::-1, :], d[::-1, ::-1, :]),
        "batch_step": (base[::2], d[::2]),
        "swapped_batch": (base.transpose(1, 0, 2)[:, :5], d.transpose(1, 0, 2)[:, :5]),
    }


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.float16, BF16,
                                   np.int64, np.uint8], ids=str)
def test_matmul_layouts(dtype, device, rng):
    lay = _layouts(rng, dtype, device)
    for name, (an, aa) in lay.items():
        k = an.shape[-1]
        bn = values(rng, (k, 3), dtype)
        check(aa @ to_device(bn), an, bn)  # the layout on the left
        mn = values(rng, (4, an.shape[-2]), dtype)
        check(to_device(mn) @ aa, mn, an)  # and on the right
        del name


def test_matmul_stride0_and_unmergeable_batches(device, rng):
    a = values(rng, (3, 1, 4, 5), np.float64)
    b = values(rng, (2, 5, 6), np.float64)
    ab = ap.broadcast_to(to_device(a), (3, 2, 4, 5))
    check(ab @ to_device(b), np.broadcast_to(a, (3, 2, 4, 5)), b)
    # batch dimensions whose strides do not merge (a slice of a transposed batch)
    big = values(rng, (4, 6, 3, 5), np.float32)
    view_np = big.transpose(1, 0, 2, 3)[::2, 1:]
    view_ap = to_device(big).transpose(1, 0, 2, 3)[::2, 1:]
    rhs = values(rng, (5, 2), np.float32)
    check(view_ap @ to_device(rhs), view_np, rhs)


BATCH_VIEWS = {
    "one_row_each": lambda d: d[..., :1, :12],  # (4, 6, 1, 12): NPBench's doitgen
    "rows": lambda d: d[..., 3:, :12],  # row stride 16 > k: still the rows of one matrix
    "gap_between": lambda d: d[:, :, :2, :12],  # a row skipped after each: batch by batch
    "reversed_batch": lambda d: d[::-1, :, 3:, :12],
    "one_row_views": lambda d: d[:, :, 1, :12].reshape(4, 6, 1, 12),
    "contiguous": lambda d: d.reshape(4, 6, 12, 8),
    "one_row_of_each": lambda d: d.reshape(4, 6, 12, 8)[..., :1, :],
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.float16, np.int64],
                         ids=str)
def test_batches_over_one_matrix(dtype, device, rng):
    """x @ W with x of several dimensions and W one matrix: x's matrices that are the rows of
    one matrix are multiplied as one, the others batch by batch; each is NumPy's product."""
    big = values(rng, (4, 6, 6, 16), dtype)
    big_dev = to_device(big)
    for view in BATCH_VIEWS.values():
        xn, x = view(big), view(big_dev)
        w = values(rng, (xn.shape[-1], 5), dtype)
        check(x @ to_device(w), xn, w)
        check(ap.matmul(x, to_device(w[:, :1])), xn, w[:, :1])


def test_matmul_mixed_dtypes_promote(device, rng):
    pairs = [(np.int8, np.uint8), (np.int32, np.float32), (np.float16, np.float32),
             (np.bool_, np.int16), (np.float32, np.complex64), (np.uint64, np.int64)]
    for da, db in pairs:
        a = values(rng, (3, 4), da)
        b = values(rng, (4, 2), db)
        check(ap.matmul(to_device(a), to_device(b)), a, b)


def test_matmul_operators_and_out(device, rng):
    a = values(rng, (4, 4), np.float64)
    b = values(rng, (4, 4), np.float64)
    x, y = to_device(a), to_device(b)
    # Rounding error is relative to the products' magnitudes, not to a result that cancels.
    scale = max(float((np.abs(a) @ np.abs(b)).max()), float((np.abs(b) @ np.abs(a)).max()))
    tol = {"rtol": 1e-13, "atol": 1e-14 * scale}
    assert_matches(x @ b, a @ b, **tol)  # NumPy operand on the right
    assert_matches(x.__rmatmul__(b), b @ a, **tol)
    assert_matches(ap.matmul(a.tolist(), y), a @ b, **tol)  # array-like on the left
    z = to_device(a)
    z @= y
    assert_matches(z, a @ b, **tol)
    with pytest.raises(ValueError):
        w = to_device(a)
        w @= to_device(values(rng, (4, 3), np.float64))
    out = ap.empty((4, 4), dtype=np.float64)
    r = ap.matmul(x, y, out=out)
    assert r is out
    assert_matches(out, a @ b, **tol)
    # Rounding error is relative to the products' magnitudes, not to a result that cancels.
    scale = float((np.abs(a) @ np.abs(b)).max())
    assert_matches(ap.matmul(x, y, dtype=np.float32), np.matmul(a, b, dtype=np.float32),
                   rtol=1e-5, atol=8 * float(np.finfo(np.float32).eps) * scale)
    assert x.__matmul__(object()) is NotImplemented


@pytest.mark.parametrize("call", [
    lambda a, b: ap.matmul(a, b[0, 0]),  # 0-d
    lambda a, b: ap.matmul(a[0, 0], b),
    lambda a, b: ap.matmul(a, a),  # (3,4) @ (3,4): core dimension mismatch
    lambda a, b: ap.matmul(ap.ones((2, 3, 4)), ap.ones((3, 4, 5))),  # batches 2 vs 3
    lambda a, b: a @ 2.0,
    lambda a, b: ap.matmul(ap.ones(3), ap.ones(4)),
], ids=["0d_right", "0d_left", "core", "batch", "scalar", "vectors"])
def test_matmul_errors(call, device):
    a, b = ap.ones((3, 4)), ap.ones((4, 5))
    with pytest.raises(ValueError) as e:
        call(a, b)
    assert "matmul" in str(e.value)


def test_matmul_messages_name_dims():
    with pytest.raises(ValueError, match=r"size 3 is different from 4"):
        ap.matmul(ap.ones((2, 4)), ap.ones((3, 5)))
    with pytest.raises(ValueError, match=r"does not have enough dimensions"):
        ap.matmul(ap.ones(()), ap.ones((3,)))


def test_matmul_mixed_devices_raise():
    if not ap.cuda.is_available():
        pytest.skip("needs a CUDA device beside the CPU")
    with pytest.raises(ValueError, match="cpu"):
        ap.matmul(ap.ones((2, 2), device="cpu"), ap.ones((2, 2), device="cuda"))


def test_matmul_of_pending_inputs_fuses_their_producers(device, rng):
    a = values(rng, (8, 5), np.float32)
    b = values(rng, (5, 6), np.float32)
    x, y = to_device(a), to_device(b)
    got = (x * 2 + 1) @ ap.sin(y)
    check(got, a * 2 + 1, np.sin(b))


def test_builtin_gemm_without_blas(rng):
    """The CPU GEMM accelpy falls back to (ACCELPY_BLAS=off) for floating dtypes, in a new
    process: float32/float64/complex64/complex128/float16, blocked sizes over the tile edges."""
    script = textwrap.dedent("""
        import numpy as np, accelpy as ap
        assert not ap._core._blas_info()["found"]
        rng = np.random.default_rng(SEED)
        for dt in (np.float32, np.float64, np.complex64, np.complex128, np.float16):
            for (m, k, n) in ((33, 257, 300), (1, 5, 1), (64, 3, 513)):
                a = rng.uniform(-1, 1, (m, k)).astype(dt)
                b = rng.uniform(-1, 1, (k, n)).astype(dt)
                if np.dtype(dt).kind == "c":
                    a = a + 1j * rng.uniform(-1, 1, (m, k)).astype(dt)
                got = ap.asnumpy(ap.asarray(a, device="cpu") @ ap.asarray(b, device="cpu").T.T)
                wide = np.complex128 if np.dtype(dt).kind == "c" else np.float64
                ref = a.astype(wide) @ b.astype(wide)
                eps = np.finfo(np.float32 if np.dtype(dt).itemsize <= 4 else np.float64).eps
                eps_out = np.finfo(dt).eps
                bound = (2 * eps_out + 2 * (k + 2) * eps) * (np.abs(a).astype(np.float64) @
                                                            np.abs(b).astype(np.float64))
                assert got.dtype == dt, got.dtype
                assert np.all(np.abs(got - ref) <= bound + 1e-30), (dt, m, k, n)
        print("ok")
    """).replace("SEED", str(int(rng.integers(1 << 30))))
    env = dict(os.environ, ACCELPY_BLAS="off", ACCELPY_DEFAULT_DEVICE="cpu")
    r = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_blas_info_reports_library():
    info = ap._core._blas_info()
    assert set(info) >= {"found", "path", "name", "detail", "tried"}
    if info["found"]:
        assert info["path"] and info["name"]
    else:
        assert info["detail"]


def test_allow_tf32_switch(device, rng):
    """TF32 is off by default (float32 products are float32-accurate on every device); the
    switch is a documented module property, process-wide, and only loosens CUDA float32."""
    assert ap.cuda.allow_tf32 is False
    a = values(rng, (96, 256), np.float32)
    b = values(rng, (256, 80), np.float32)
    check(to_device(a) @ to_device(b), a, b)
    try:
        ap.cuda.allow_tf32 = True
        assert ap.cuda.allow_tf32 is True
        got = ap.asnumpy(to_device(a) @ to_device(b))
        exact = a.astype(np.float64) @ b.astype(np.float64)
        scale = np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64)
        # TF32 rounds inputs to 10 mantissa bits: about 2^-10 relative per product.
        assert np.all(np.abs(got - exact) <= 2.0**-9 * scale + 1e-6)
    finally:
        ap.cuda.allow_tf32 = False
    assert ap.cuda.allow_tf32 is False


def _vector_cases(rng, dtype, device):
    """(NumPy a, NumPy b, accelpy a, accelpy b) of products with one side a vector, in the
    layouts BLAS takes directly (row-major, transposed, a leading dimension, strided vectors)
    and those copied first (negative strides), at sizes over a BLAS block (300)."""
    m = values(rng, (300, 40), dtype)
    v40, v300 = values(rng, (80,), dtype), values(rng, (600,), dtype)
    dm, d40, d300 = to_device(m), to_device(v40), to_device(v300)
    batch = values(rng, (3, 7, 40), dtype)
    return [
        (m, v40[:40], dm, d40[:40]),  # matrix @ vector
        (m.T, v300[:300], dm.T, d300[:300]),  # transposed matrix @ vector
        (v300[:300], m, d300[:300], dm),  # vector @ matrix
        (v40[:40], m.T, d40[:40], dm.T),  # vector @ transposed matrix
        (m[::2], v40[::2], dm[::2], d40[::2]),  # leading dimension 80, vector stride 2
        (v300[::2], m[:, ::-1], d300[::2], dm[:, ::-1]),  # strided vector, reversed columns
        (m[::-1], v40[::-1][:40], dm[::-1], d40[::-1][:40]),  # negative strides
        (v40[:40], v40[40:], d40[:40], d40[40:]),  # vector @ vector: 0-d
        (batch, v40[:40], to_device(batch), d40[:40]),  # batched matrices @ one vector
        (m[:1], v40[:40], dm[:1], d40[:40]),  # one row
    ]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128,
                                   np.float16, BF16, np.int64, np.bool_], ids=str)
def test_matmul_vector_products(dtype, device, rng):
    """A matrix times a vector, a vector times a matrix (one gemv on the CPU's BLAS), in every
    layout, within the K-term bound of NumPy's (integers and bool exactly)."""
    for an, bn, aa, ba in _vector_cases(rng, dtype, device):
        check(aa @ ba, an, bn)
        check(ap.dot(aa, ba), an, bn)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128], ids=str)
def test_cpu_vector_products_are_numpys_gemv(dtype, rng):
    """With NumPy's own OpenBLAS loaded, a matrix-vector product on the CPU is NumPy's gemv
    call, so the bits agree (a one-column GEMM, which packs the matrix first, rounds otherwise
    and took 5x the time of a 256 x 256 gemv)."""
    if "NumPy's scipy_openblas" not in ap._core._blas_info()["name"]:
        pytest.skip("the BLAS loaded is not NumPy's")
    a = values(rng, (256, 256), dtype)
    x = values(rng, (256,), dtype)
    da, dx = ap.asarray(a, device="cpu"), ap.asarray(x, device="cpu")
    np.testing.assert_array_equal(ap.asnumpy(da @ dx), a @ x)
    np.testing.assert_array_equal(ap.asnumpy(dx @ da), x @ a)
    np.testing.assert_array_equal(ap.asnumpy(da.T @ dx), a.T @ x)
    np.testing.assert_array_equal(ap.asnumpy(ap.dot(da, dx)), np.dot(a, x))
