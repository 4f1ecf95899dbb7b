"""accelpy.linalg against numpy.linalg on random well-conditioned matrices (tolerances scaled
by the condition number and the dtype), batched, on every device; the errors NumPy raises
(singular, not positive definite, not square) on every device, from the libraries' info codes."""

import numpy as np
import pytest

import accelpy as ap
from helpers import random_values

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def eps(dtype):
    return np.finfo(np.dtype(dtype)).eps


def well_conditioned(rng, shape, dtype):
    """Random matrices with condition numbers below 10: a dominant unit diagonal plus random
    entries of at most 1/(2n) (determinants near 1, so float32 products do not overflow)."""
    n = shape[-1]
    a = random_values(rng, shape, dtype, low=-1, high=1)
    return (np.eye(n) + a / (2 * n)).astype(dtype)


def hermitian_pd(rng, shape, dtype):
    a = random_values(rng, shape, dtype, low=-1, high=1)
    h = a @ np.conj(np.swapaxes(a, -1, -2))
    return (h + np.eye(shape[-1]) * shape[-1]).astype(dtype)


def close(got, expected, dtype, cond=10.0, scale=None):
    got = ap.asnumpy(got)
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    n = max(expected.shape[-1] if expected.ndim else 1, 1)
    mag = scale if scale is not None else max(float(np.max(np.abs(expected), initial=0)), 1.0)
    tol = 50 * n * cond * eps(dtype) * mag
    np.testing.assert_allclose(got, expected, rtol=0, atol=tol)


SHAPES = [(1, 1), (5, 5), (3, 7, 7), (2, 3, 4, 4), (0, 3, 3), (33, 33)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_inv_det_slogdet(device, rng, dtype, shape):
    a = well_conditioned(rng, shape, dtype)
    x = ap.asarray(a)
    inv = ap.linalg.inv(x)
    close(inv, np.linalg.inv(a), dtype)
    assert inv.flags.c_contiguous  # as NumPy's
    # Transposed and reversed views: the factorization reads a C-ordered copy.
    view = np.swapaxes(a, -1, -2)[..., ::-1, :]
    close(ap.linalg.inv(np.swapaxes(x, -1, -2)[..., ::-1, :]), np.linalg.inv(view), dtype)
    d = np.linalg.det(a)
    close(ap.linalg.det(x), d, dtype, scale=max(float(np.max(np.abs(d), initial=1)), 1))
    sign, logdet = ap.linalg.slogdet(x)
    s_np, l_np = np.linalg.slogdet(a)
    close(sign, s_np, dtype)
    close(logdet, l_np, dtype, scale=max(float(np.max(np.abs(l_np), initial=1)), 1))
    assert isinstance(ap.linalg.slogdet(x), tuple) and ap.linalg.slogdet(x).sign is not None


@pytest.mark.parametrize("dtype", DTYPES)
def test_solve(device, rng, dtype):
    for a_shape, b_shape in [((5, 5), (5,)), ((5, 5), (5, 3)), ((4, 6, 6), (4, 6, 2)),
                             ((2, 1, 3, 3), (4, 3, 1)), ((3, 3), (2, 3, 5)), ((4, 4), (0, 4, 2))]:
        a = well_conditioned(rng, a_shape, dtype)
        b = random_values(rng, b_shape, dtype, low=-1, high=1)
        close(ap.linalg.solve(ap.asarray(a), ap.asarray(b)), np.linalg.solve(a, b), dtype)


def test_solve_layouts_and_promotion(device, rng):
    a = well_conditioned(rng, (6, 6), np.float64)
    b = random_values(rng, (6, 4), np.float32, low=-1, high=1)
    # Transposed and strided operands, mixed dtypes (float64 result), integer right-hand sides.
    close(ap.linalg.solve(ap.asarray(a).T, ap.asarray(b)[:, ::2]),
          np.linalg.solve(a.T, b[:, ::2]), np.float64)
    bi = rng.integers(-5, 5, size=(6,))
    close(ap.linalg.solve(ap.asarray(a), ap.asarray(bi)), np.linalg.solve(a, bi), np.float64)
    ai = rng.integers(-3, 3, size=(4, 4)) + 10 * np.eye(4, dtype=np.int64)
    close(ap.linalg.inv(ap.asarray(ai)), np.linalg.inv(ai), np.float64)


@pytest.mark.parametrize("shape", [(1, 1), (6, 6), (3, 5, 5), (0, 4, 4), (40, 40)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_cholesky(device, rng, dtype, shape):
    a = hermitian_pd(rng, shape, dtype)
    x = ap.asarray(a)
    close(ap.linalg.cholesky(x), np.linalg.cholesky(a), dtype)
    close(ap.linalg.cholesky(x, upper=True), np.linalg.cholesky(a, upper=True), dtype)


@pytest.mark.parametrize("shape", [(1, 1), (6, 6), (3, 5, 5), (0, 4, 4), (30, 30)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_eigh(device, rng, dtype, shape):
    a = hermitian_pd(rng, shape, dtype)
    x = ap.asarray(a)
    for uplo in ("L", "U"):
        w, v = ap.linalg.eigh(x, UPLO=uplo)
        w_np = np.linalg.eigvalsh(a, UPLO=uplo)
        scale = max(float(np.max(np.abs(w_np), initial=1)), 1)
        close(w, w_np, dtype, scale=scale)
        close(ap.linalg.eigvalsh(x, UPLO=uplo), w_np, dtype, scale=scale)
        # Eigenvectors are unique up to phase: check a v = v diag(w) and orthonormality.
        v_np, w_got = ap.asnumpy(v), ap.asnumpy(w)
        assert v_np.dtype == np.dtype(dtype)
        close(ap.asarray(a @ v_np), v_np * w_got[..., None, :], dtype, scale=scale)
        eye = np.broadcast_to(np.eye(shape[-1], dtype=dtype), shape)
        close(ap.asarray(np.conj(np.swapaxes(v_np, -1, -2)) @ v_np), eye.copy(), dtype)


def test_uplo_reads_one_triangle(device, rng):
    a = hermitian_pd(rng, (5, 5), np.float64)
    junk = a.copy()
    junk[np.triu_indices(5, 1)] = 99.0  # the upper triangle is not read with UPLO="L"
    close(ap.linalg.eigvalsh(ap.asarray(junk)), np.linalg.eigvalsh(a), np.float64, scale=20)
    junk = a.copy()
    junk[np.tril_indices(5, -1)] = -7.0
    close(ap.linalg.eigvalsh(ap.asarray(junk), UPLO="U"), np.linalg.eigvalsh(a), np.float64,
          scale=20)


@pytest.mark.parametrize("shape", [(4, 4), (6, 4, 4)])  # a batch: inverses read a in place
def test_inputs_unchanged(device, rng, shape):
    a = well_conditioned(rng, shape, np.float64)
    x = ap.asarray(a)
    for fn in (ap.linalg.inv, ap.linalg.det, ap.linalg.cholesky, ap.linalg.eigvalsh):
        try:
            ap.eval(fn(x))
        except ap.linalg.LinAlgError:
            pass
    np.testing.assert_array_equal(ap.asnumpy(x), a)


# ---- errors: the info codes, on every device ----------------------------------------------


def test_singular(device, rng):
    a = well_conditioned(rng, (3, 4, 4), np.float64)
    a[1, 2] = 0  # one singular matrix in the batch (a zero row: an exact zero pivot)
    x = ap.asarray(a)
    with pytest.raises(ap.linalg.LinAlgError, match="Singular matrix"):
        ap.linalg.inv(x)
    with pytest.raises(ap.linalg.LinAlgError, match="Singular matrix"):
        ap.linalg.solve(x, ap.asarray(np.ones((3, 4, 1))))
    assert issubclass(ap.linalg.LinAlgError, ValueError)
    assert ap.linalg.LinAlgError is np.linalg.LinAlgError
    # A singular matrix has determinant 0 (no error), as in NumPy.
    z = np.zeros((3, 3))
    assert float(ap.asnumpy(ap.linalg.det(ap.asarray(z)))) == 0.0
    sign, logdet = ap.linalg.slogdet(ap.asarray(z))
    assert float(ap.asnumpy(sign)) == 0.0 and float(ap.asnumpy(logdet)) == -np.inf


def test_not_positive_definite(device, rng):
    a = hermitian_pd(rng, (2, 5, 5), np.complex128)
    a[1] = -a[1]
    with pytest.raises(ap.linalg.LinAlgError, match="not positive definite"):
        ap.linalg.cholesky(ap.asarray(a))


def test_shape_and_dtype_errors(device, rng):
    with pytest.raises(ap.linalg.LinAlgError, match="must be square"):
        ap.linalg.inv(ap.asarray(np.ones((3, 4))))
    with pytest.raises(ap.linalg.LinAlgError, match="at least two-dimensional"):
        ap.linalg.det(ap.asarray(np.ones(3)))
    with pytest.raises(ap.linalg.LinAlgError, match="must be square"):
        ap.linalg.eigh(ap.asarray(np.ones((2, 3, 4))))
    with pytest.raises(TypeError, match="float16"):
        ap.linalg.inv(ap.asarray(np.eye(3, dtype=np.float16)))
    with pytest.raises(ValueError, match="must equal"):
        ap.linalg.solve(ap.asarray(np.eye(3)), ap.asarray(np.ones(4)))
    with pytest.raises(ValueError, match="UPLO"):
        ap.linalg.eigh(ap.asarray(np.eye(3)), UPLO="X")


def test_reexports():
    assert callable(ap.linalg.__getattr__)
    with pytest.raises(AttributeError):
        ap.linalg.no_such_function  # noqa: B018
    if hasattr(ap, "matmul"):
        assert ap.linalg.matmul is ap.matmul


# ---- svd and qr -------------------------------------------------------------------------------

MATRIX_SHAPES = [(1, 1), (6, 4), (4, 6), (5, 5), (3, 7, 2), (2, 3, 5), (0, 3), (3, 0),
                 (0, 4, 4), (40, 25)]


@pytest.mark.parametrize("shape", MATRIX_SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_svd(device, rng, dtype, shape):
    a = random_values(rng, shape, dtype, low=-1, high=1)
    x = ap.asarray(a)
    s_np = np.linalg.svd(a, compute_uv=False)
    scale = max(float(np.max(s_np, initial=1)), 1)
    close(ap.linalg.svdvals(x), s_np, dtype, scale=scale)
    close(ap.linalg.svd(x, compute_uv=False), s_np, dtype, scale=scale)
    for full in (True, False):
        u, s, vh = ap.linalg.svd(x, full_matrices=full)
        u_np, _, vh_np = np.linalg.svd(a, full_matrices=full)
        assert ap.asnumpy(u).shape == u_np.shape and ap.asnumpy(vh).shape == vh_np.shape
        # Singular vectors are unique up to phase: check the reconstruction and orthonormality.
        u_h, s_h, vh_h = ap.asnumpy(u), ap.asnumpy(s), ap.asnumpy(vh)
        k = s_h.shape[-1]
        rebuilt = (u_h[..., :, :k] * s_h[..., None, :]) @ vh_h[..., :k, :]
        close(ap.asarray(rebuilt), a, dtype, scale=scale)
        for q in (u_h, np.conj(np.swapaxes(vh_h, -1, -2))):
            gram = np.conj(np.swapaxes(q, -1, -2)) @ q
            eye = np.broadcast_to(np.eye(q.shape[-1], dtype=dtype), gram.shape)
            close(ap.asarray(gram), eye.copy(), dtype)


@pytest.mark.parametrize("shape", MATRIX_SHAPES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_qr(device, rng, dtype, shape):
    a = random_values(rng, shape, dtype, low=-1, high=1)
    x = ap.asarray(a)
    scale = max(float(np.max(np.abs(a), initial=1)), 1) * max(shape[-1], 1)
    for mode in ("reduced", "complete"):
        q, r = ap.linalg.qr(x, mode=mode)
        q_np, r_np = np.linalg.qr(a, mode=mode)
        q_h, r_h = ap.asnumpy(q), ap.asnumpy(r)
        assert q_h.shape == q_np.shape and r_h.shape == r_np.shape
        assert q_h.dtype == q_np.dtype and r_h.dtype == r_np.dtype
        close(ap.asarray(q_h @ r_h), a, dtype, scale=scale)
        assert np.all(np.tril(r_h, -1) == 0)
        # R is unique up to the signs (phases) of its rows: |R| matches NumPy's.
        close(ap.asarray(np.abs(r_h)), np.abs(r_np), dtype, scale=scale)
    r_only = ap.linalg.qr(x, mode="r")
    close(ap.asarray(np.abs(ap.asnumpy(r_only))), np.abs(np.linalg.qr(a, mode="r")), dtype,
          scale=scale)
    if a.ndim == 2:
        h, tau = ap.linalg.qr(x, mode="raw")
        h_np, tau_np = np.linalg.qr(a, mode="raw")
        assert ap.asnumpy(h).shape == h_np.shape and ap.asnumpy(tau).shape == tau_np.shape


def test_svd_qr_errors(device):
    with pytest.raises(ap.linalg.LinAlgError, match="at least two-dimensional"):
        ap.linalg.svd(ap.asarray(np.ones(3)))
    with pytest.raises(ValueError, match="Unrecognized mode"):
        ap.linalg.qr(ap.asarray(np.eye(3)), mode="economic")
    with pytest.raises(TypeError, match="float16"):
        ap.linalg.svd(ap.asarray(np.eye(3, dtype=np.float16)))


# ---- composed functions ---------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int32])
def test_norms(device, rng, dtype):
    x = random_values(rng, (3, 4, 5), dtype, low=-5, high=5)
    a = ap.asarray(x)
    single = np.dtype(dtype) in (np.float32, np.complex64)
    tol = 1e-5 if single else 1e-12

    def same(got, expected):
        got = ap.asnumpy(got)
        assert got.shape == np.shape(expected)
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol)

    for ord in (None, 1, 2, np.inf, -np.inf, 0, 3, 0.5):
        for axis in (0, -1, (1,)):
            same(ap.linalg.norm(a, ord=ord, axis=axis), np.linalg.norm(x, ord=ord, axis=axis))
    same(ap.linalg.norm(a), np.linalg.norm(x))
    same(ap.linalg.norm(a, keepdims=True), np.linalg.norm(x, keepdims=True))
    for ord in (None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf):
        same(ap.linalg.norm(a, ord=ord, axis=(1, 2)), np.linalg.norm(x, ord=ord, axis=(1, 2)))
        same(ap.linalg.norm(a, ord=ord, axis=(2, 0), keepdims=True),
             np.linalg.norm(x, ord=ord, axis=(2, 0), keepdims=True))
    same(ap.linalg.vector_norm(a, axis=(0, 2), ord=1), np.sum(np.abs(x), axis=(0, 2)))
    same(ap.linalg.matrix_norm(a, ord="nuc"), np.linalg.norm(x, "nuc", axis=(-2, -1)))
    with pytest.raises(ValueError):
        ap.linalg.norm(a, ord="fro", axis=0)
    with pytest.raises(ValueError):
        ap.linalg.matrix_norm(a, ord=3)


def test_matrix_rank_and_cond(device, rng):
    x = random_values(rng, (4, 6, 5), np.float64, low=-1, high=1)
    x[1, :, 4] = x[1, :, 0] + x[1, :, 1]  # rank 4
    x[2] = 0
    a = ap.asarray(x)
    np.testing.assert_array_equal(ap.asnumpy(ap.linalg.matrix_rank(a)), np.linalg.matrix_rank(x))
    np.testing.assert_array_equal(ap.asnumpy(ap.linalg.matrix_rank(a, tol=0.5)),
                                  np.linalg.matrix_rank(x, tol=0.5))
    assert int(ap.asnumpy(ap.linalg.matrix_rank(ap.asarray(np.ones(3))))) == 1
    w = well_conditioned(rng, (3, 5, 5), np.float64)
    for p in (None, 2, -2, 1, np.inf, "fro"):
        np.testing.assert_allclose(ap.asnumpy(ap.linalg.cond(ap.asarray(w), p)),
                                   np.linalg.cond(w, p), rtol=1e-10)


def test_cross(device, rng):
    x = random_values(rng, (4, 3), np.float64, low=-1, high=1)
    y = random_values(rng, (2, 1, 3), np.float32, low=-1, high=1)
    # Each component is a difference of two products, which may cancel: the error is bounded
    # by the products' size, not by the result's.
    def term_atol(u, v):
        return 8 * float(eps(np.float64)) * float(np.abs(u).max()) * float(np.abs(v).max())

    got = ap.linalg.cross(ap.asarray(x), ap.asarray(y))
    np.testing.assert_allclose(ap.asnumpy(got), np.cross(x, y), rtol=1e-12, atol=term_atol(x, y))
    z = random_values(rng, (3, 5), np.float64)
    np.testing.assert_allclose(
        ap.asnumpy(ap.linalg.cross(ap.asarray(z), ap.asarray(z[::-1]), axis=0)),
        np.cross(z, z[::-1], axis=0), rtol=1e-12, atol=term_atol(z, z))
    with pytest.raises(ValueError, match="3 elements"):
        ap.linalg.cross(ap.asarray(np.ones((2, 2))), ap.asarray(np.ones((2, 2))))


# ---- on top of matmul -----------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
def test_pinv_lstsq(device, rng, dtype):
    for shape in [(6, 4), (4, 6), (3, 5, 5), (5, 1)]:
        a = random_values(rng, shape, dtype, low=-1, high=1)
        close(ap.linalg.pinv(ap.asarray(a)), np.linalg.pinv(a), dtype, cond=100)
    r = random_values(rng, (6, 4), dtype, low=-1, high=1)
    r[:, 3] = r[:, 0]  # rank 3: cut singular values
    close(ap.linalg.pinv(ap.asarray(r), rtol=None), np.linalg.pinv(r, rtol=None), dtype, cond=100)
    for a_shape, b_shape in [((8, 5), (8,)), ((8, 5), (8, 3)), ((4, 6), (4, 2))]:
        a = random_values(rng, a_shape, dtype, low=-1, high=1)
        b = random_values(rng, b_shape, dtype, low=-1, high=1)
        x, res, rank, s = ap.linalg.lstsq(ap.asarray(a), ap.asarray(b))
        x_np, res_np, rank_np, s_np = np.linalg.lstsq(a, b)
        close(x, x_np, dtype, cond=100)
        close(res, res_np, dtype, cond=100)
        assert rank == rank_np
        close(s, s_np, dtype)


def test_matrix_power_multi_dot(device, rng):
    a = well_conditioned(rng, (2, 4, 4), np.float64)
    for n in (0, 1, 2, 5, -1, -3):
        close(ap.linalg.matrix_power(ap.asarray(a), n), np.linalg.matrix_power(a, n),
              np.float64)
    with pytest.raises(TypeError):
        ap.linalg.matrix_power(ap.asarray(a), 1.5)
    mats = [random_values(rng, s, np.float64, low=-1, high=1)
            for s in [(5,), (5, 30), (30, 2), (2, 9), (9,)]]
    got = ap.linalg.multi_dot([ap.asarray(m) for m in mats])
    close(got, np.linalg.multi_dot(mats), np.float64, scale=10)
    with pytest.raises(ValueError):
        ap.linalg.multi_dot([ap.asarray(mats[1])])


# ---- general eigenproblems ------------------------------------------------------------------


def same_spectrum(got, expected, dtype, scale):
    """Every eigenvalue of each matrix has a computed one within the tolerance, and back
    (eigenvalues come in no particular order)."""
    got = ap.asnumpy(got)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if not got.size:
        return
    dist = np.abs(got[..., :, None] - expected[..., None, :])
    tol = 200 * got.shape[-1] * eps(dtype) * scale
    assert np.all(dist.min(axis=-1) <= tol) and np.all(dist.min(axis=-2) <= tol), dist


@pytest.mark.parametrize("shape", [(1, 1), (6, 6), (3, 5, 5), (0, 4, 4), (20, 20)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_eig(device, rng, dtype, shape):
    a = well_conditioned(rng, shape, dtype) + random_values(rng, shape, dtype, low=-1, high=1)
    a = a.astype(dtype)
    x = ap.asarray(a)
    w, v = ap.linalg.eig(x)
    # Complex as in NumPy 2.5; NumPy before 2.5 returned real eigenvalues when all were real.
    w_np = np.linalg.eigvals(a).astype(np.result_type(a.dtype, np.complex64))
    w_h, v_h = ap.asnumpy(w), ap.asnumpy(v)
    scale = max(float(np.max(np.abs(w_np), initial=1)), 1)
    same_spectrum(w, w_np, dtype, scale)
    same_spectrum(ap.linalg.eigvals(x), w_np, dtype, scale)
    # a v = v diag(w), unit columns.
    close(ap.asarray(a @ v_h), v_h * w_h[..., None, :], dtype, cond=100, scale=scale)
    if v_h.size:
        np.testing.assert_allclose(np.linalg.norm(v_h, axis=-2), 1, rtol=1e-4)


def test_eig_results_are_complex_even_when_eigenvalues_are_real(device, rng):
    """NumPy 2.5 and the Array API: complex whatever the values (NumPy 2.4 made them real)."""
    t = np.triu(random_values(rng, (5, 5), np.float64, low=1, high=2))  # real eigenvalues
    w, v = ap.linalg.eig(ap.asarray(t))
    assert ap.asnumpy(w).dtype == np.complex128 and ap.asnumpy(v).dtype == np.complex128
    np.testing.assert_allclose(np.sort(ap.asnumpy(w).real), np.sort(np.diag(t)), rtol=1e-12)
    np.testing.assert_array_equal(ap.asnumpy(w).imag, 0)
    assert ap.asnumpy(ap.linalg.eigvals(ap.asarray(t.astype(np.float32)))).dtype == np.complex64
    rot = np.array([[0.0, -1.0], [1.0, 0.0]])  # eigenvalues +-i
    w = ap.asnumpy(ap.linalg.eigvals(ap.asarray(rot)))
    assert w.dtype == np.complex128
    np.testing.assert_allclose(np.sort(w.imag), [-1, 1], atol=1e-12)
    np.testing.assert_allclose(w.real, 0, atol=1e-12)
