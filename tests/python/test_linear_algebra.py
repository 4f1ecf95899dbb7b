"""The products built on matmul against NumPy: dot, vdot, inner, outer, tensordot,
matrix_transpose / .mT, vecdot and einsum, on every device, with their errors."""

import numpy as np
import pytest

import accelpy as ap
from helpers import BF16, assert_matches, assert_same_outcome, random_values, to_device

DTYPES = [np.float32, np.float64, np.complex64, np.complex128, np.int32, np.int8, np.bool_]


def vals(rng, shape, dt):
    if np.dtype(dt).kind in "biu":
        return np.asarray(random_values(rng, shape, dt, low=-50, high=50))
    return np.asarray(random_values(rng, shape, dt, low=-2.0, high=2.0))


def close(got, exp, dt, k=16):
    dt = np.dtype(dt)
    if dt.kind in "biu":
        assert_matches(got, exp)
    else:
        eps = np.finfo(dt).eps
        assert_matches(got, exp, rtol=4 * k * eps, atol=4 * k * eps * 4)


DOT_SHAPES = [((), (3, 4)), ((5,), ()), ((5,), (5,)), ((3, 5), (5,)), ((5,), (5, 2)),
              ((3, 5), (5, 2)), ((2, 3, 5), (5,)), ((2, 3, 5), (4, 5, 2)), ((5,), (2, 5, 3)),
              ((0, 5), (5, 2)), ((3, 0), (0,))]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shapes", DOT_SHAPES, ids=str)
def test_dot(shapes, dtype, device, rng):
    a, b = vals(rng, shapes[0], dtype), vals(rng, shapes[1], dtype)
    close(ap.dot(to_device(a), to_device(b)), np.dot(a, b), dtype)
    close(to_device(a).dot(to_device(b)), a.dot(b), dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shapes", [((5,), (5,)), ((2, 3), (3, 2)), ((3, 4), (12,)), ((0,), (0,))],
                         ids=str)
def test_vdot(shapes, dtype, device, rng):
    a, b = vals(rng, shapes[0], dtype), vals(rng, shapes[1], dtype)
    close(ap.vdot(to_device(a), to_device(b)), np.vdot(a, b), dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shapes", [((5,), (5,)), ((2, 5), (5,)), ((2, 5), (3, 5)),
                                    ((2, 3, 5), (4, 5)), ((), (2, 3)), ((0, 5), (2, 5))], ids=str)
def test_inner(shapes, dtype, device, rng):
    a, b = vals(rng, shapes[0], dtype), vals(rng, shapes[1], dtype)
    close(ap.inner(to_device(a), to_device(b)), np.inner(a, b), dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_outer(dtype, device, rng):
    a, b = vals(rng, (4,), dtype), vals(rng, (2, 3), dtype)
    close(ap.outer(to_device(a), to_device(b)), np.outer(a, b), dtype)
    close(ap.outer(to_device(a)[::-1], to_device(b).T), np.outer(a[::-1], b.T), dtype)
    close(ap.outer(to_device(a)[:0], to_device(b)), np.outer(a[:0], b), dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.complex64, np.int16], ids=str)
@pytest.mark.parametrize("case", [
    ((3, 4, 5), (4, 5, 2), 2),
    ((3, 4), (4, 5), 1),
    ((3, 4), (5, 6), 0),
    ((2, 3, 4), (3, 2, 5), ([0, 1], [1, 0])),
    ((2, 3, 4), (4, 3), ((2, 1), (0, 1))),
    ((2, 3), (3, 2), (1, 0)),
    ((), (), 0),
    ((3, 0), (0, 2), 1),
], ids=str)
def test_tensordot(case, dtype, device, rng):
    sa, sb, axes = case
    a, b = vals(rng, sa, dtype), vals(rng, sb, dtype)
    close(ap.tensordot(to_device(a), to_device(b), axes=axes), np.tensordot(a, b, axes=axes),
          dtype)


def test_tensordot_transposed_operands(device, rng):
    a = vals(rng, (6, 5, 4), np.float64)
    b = vals(rng, (4, 5, 3), np.float64)
    got = ap.tensordot(to_device(a).transpose(2, 1, 0), to_device(b)[::-1], axes=([0, 1], [0, 1]))
    close(got, np.tensordot(a.transpose(2, 1, 0), b[::-1], axes=([0, 1], [0, 1])), np.float64)


def test_matrix_transpose(device, rng):
    a = vals(rng, (2, 3, 4), np.float32)
    assert_matches(ap.matrix_transpose(to_device(a)), np.matrix_transpose(a))
    assert_matches(to_device(a).mT, a.mT)
    with pytest.raises(ValueError):
        ap.matrix_transpose(to_device(a[0, 0]))


@pytest.mark.parametrize("dtype", [np.float32, np.complex128, np.int8, np.bool_], ids=str)
def test_vecdot(dtype, device, rng):
    x, y = vals(rng, (4, 1, 5), dtype), vals(rng, (3, 5), dtype)
    close(ap.vecdot(to_device(x), to_device(y)), np.vecdot(x, y), dtype)
    z = vals(rng, (4, 3, 5), dtype)
    close(ap.vecdot(to_device(x), to_device(z), axis=0), np.vecdot(x, z, axis=0), dtype)


@pytest.mark.parametrize("call", [
    lambda m, a, b: m.dot(a, b[:3]),
    lambda m, a, b: m.vdot(a, b[:3]),
    lambda m, a, b: m.inner(a, b[:, :3]),
    lambda m, a, b: m.tensordot(a, b, axes=3),
    lambda m, a, b: m.tensordot(a, b[:, :2], axes=([1], [1])),
    lambda m, a, b: m.tensordot(a, b, axes=([0, 1], [0])),
    lambda m, a, b: m.vecdot(a, b[:, :2]),
    lambda m, a, b: m.tensordot(a, b, axes=([5], [0])),
], ids=["dot", "vdot", "inner", "tensordot_n", "tensordot_size", "tensordot_len",
        "vecdot", "tensordot_axis"])
def test_product_errors(call, device, rng):
    a, b = vals(rng, (4, 4), np.float64), vals(rng, (4, 4), np.float64)
    assert assert_same_outcome(lambda: call(np, a, b),
                               lambda: call(ap, to_device(a), to_device(b))) is None


EINSUM = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("ij,kj->ik", [(3, 4), (5, 4)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("i,i", [(6,), (6,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("ii", [(4, 4)]),
    ("ii->i", [(4, 4)]),
    ("ij->ji", [(3, 4)]),
    ("ij->", [(3, 4)]),
    ("ijk->kj", [(2, 3, 4)]),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
    ("...i,...i", [(2, 3, 4), (3, 4)]),
    ("i...->...", [(3, 2, 4)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("abc,cd,bd->a", [(2, 3, 4), (4, 5), (3, 5)]),
    ("iij->j", [(3, 3, 2)]),
    ("ij,ij->i", [(3, 4), (3, 4)]),
    ("ij,ij->ij", [(3, 4), (1, 4)]),
    ("i,ij->", [(3,), (3, 0)]),
    ("Ab,bC->CA", [(2, 3), (3, 4)]),
    ("", [()]),
    (",ij->ij", [(), (2, 3)]),
]


@pytest.mark.parametrize("dtype", [np.float64, np.complex64, np.int32], ids=str)
@pytest.mark.parametrize("case", EINSUM, ids=[c[0] or "scalar" for c in EINSUM])
def test_einsum(case, dtype, device, rng):
    subs, shapes = case
    ops = [vals(rng, s, dtype) for s in shapes]
    got = ap.einsum(subs, *[to_device(o) for o in ops])
    close(got, np.einsum(subs, *ops), dtype, k=64)


def test_einsum_interleaved_and_views(device, rng):
    a, b = vals(rng, (3, 4), np.float64), vals(rng, (4, 5), np.float64)
    close(ap.einsum(to_device(a), [0, 1], to_device(b), [1, 2], [0, 2]),
          np.einsum(a, [0, 1], b, [1, 2], [0, 2]), np.float64)
    c = vals(rng, (6, 8), np.float64)
    close(ap.einsum("ij,jk->ik", to_device(c)[::2, 1::2], to_device(c).T[::-2, :3]),
          np.einsum("ij,jk->ik", c[::2, 1::2], c.T[::-2, :3]), np.float64)
    close(ap.einsum("ij,jk", to_device(a), to_device(b), dtype=np.float32, casting="same_kind"),
          np.einsum("ij,jk", a, b, dtype=np.float32, casting="same_kind"), np.float32)
    with pytest.raises(TypeError):  # NumPy's default casting for dtype= is "safe"
        ap.einsum("ij,jk", to_device(a), to_device(b), dtype=np.float32)


def test_einsum_mixed_dtypes(device, rng):
    a, b = vals(rng, (3, 4), np.int8), vals(rng, (4, 2), np.float32)
    close(ap.einsum("ij,jk", to_device(a), to_device(b)), np.einsum("ij,jk", a, b), np.float32)


@pytest.mark.parametrize("subs,shapes", [
    ("ij,jk->ik", [(3, 4), (5, 6)]),
    ("ij,jk->ik", [(3, 4)]),
    ("ij->ii", [(3, 3)]),
    ("ij->k", [(3, 3)]),
    ("i$", [(3,)]),
    ("ijk", [(3, 3)]),
    ("ii", [(3, 4)]),
], ids=["size", "count", "repeated_out", "unknown_out", "bad_char", "too_many", "diag_size"])
def test_einsum_errors(subs, shapes, device, rng):
    ops = [vals(rng, s, np.float64) for s in shapes]
    assert assert_same_outcome(lambda: np.einsum(subs, *ops),
                               lambda: ap.einsum(subs, *[to_device(o) for o in ops])) is None


# ---- kron, cross, matvec and vecmat (accelpy._linear_algebra; issue 6, NumPy breadth part B) ----

BREADTH_DTYPES = [np.int32, np.float32, np.float64, np.complex64]


@pytest.mark.parametrize("dtype", BREADTH_DTYPES, ids=str)
@pytest.mark.parametrize("shapes", [((), ()), ((3,), (4,)), ((2, 3), (4, 2)), ((3,), (2, 2)),
                                    ((2, 1, 3), (2, 2)), ((0, 2), (3, 3)), ((2, 3), ())])
def test_kron(device, rng, dtype, shapes):
    a_np = random_values(rng, shapes[0], dtype)
    b_np = random_values(rng, shapes[1], dtype)
    a, b = to_device(a_np, device), to_device(b_np, device)
    assert_matches(ap.kron(a, b), np.kron(a_np, b_np))
    if a_np.ndim == 2:
        assert_matches(ap.kron(a.T, b), np.kron(a_np.T, b_np))
        assert_matches(ap.kron(a[::-1], b), np.kron(a_np[::-1], b_np))


@pytest.mark.parametrize("dtype", BREADTH_DTYPES, ids=str)
@pytest.mark.parametrize("shapes", [((3,), (3,)), ((5, 3), (3,)), ((4, 1, 3), (2, 3)),
                                    ((0, 3), (3,))])
def test_cross3(device, rng, dtype, shapes):
    a_np = random_values(rng, shapes[0], dtype)
    b_np = random_values(rng, shapes[1], dtype)
    a, b = to_device(a_np, device), to_device(b_np, device)
    # Each component is a difference of two products: under cancellation its error is bounded
    # in ulps of the products, not of the result.
    rt = np.result_type(a_np, b_np)
    atol = None
    if rt.kind in "fc":
        mag = float(np.abs(a_np).max(initial=0)) * float(np.abs(b_np).max(initial=0))
        atol = 8 * float(np.finfo(rt).eps) * mag
    assert_matches(ap.cross(a, b), np.cross(a_np, b_np), atol=atol)
    assert_matches(ap.cross(a[::-1], b), np.cross(a_np[::-1], b_np), atol=atol)


def test_cross_axes(device, rng):
    a_np = rng.standard_normal((3, 4))
    b_np = rng.standard_normal((4, 3))
    a, b = to_device(a_np, device), to_device(b_np, device)
    assert_matches(ap.cross(a, b, axisa=0), np.cross(a_np, b_np, axisa=0))
    assert_matches(ap.cross(a, b, axisa=0, axisc=0), np.cross(a_np, b_np, axisa=0, axisc=0))
    assert_matches(ap.cross(a, b.T, axis=0), np.cross(a_np, b_np.T, axis=0))
    with pytest.raises(np.exceptions.AxisError):
        ap.cross(a, b, axisa=2)


def np_cross_2d(a, b):
    """NumPy 2.0-2.4's deprecated cross of 2-vectors (NumPy 2.5 raises): a missing third
    component is 0, and two 2-vectors give the z component alone."""
    def pad(v):
        return np.concatenate([v, np.zeros(v.shape[:-1] + (1,))], -1) if v.shape[-1] == 2 else v

    c = np.cross(pad(a), pad(b))
    return c[..., 2] if a.shape[-1] == b.shape[-1] == 2 else c


def test_cross_2d_vectors(device, rng):
    a_np = rng.standard_normal((4, 2))
    b_np = rng.standard_normal((4, 3))
    a, b = to_device(a_np, device), to_device(b_np, device)
    with pytest.warns(DeprecationWarning):
        assert_matches(ap.cross(a, a[::-1]), np_cross_2d(a_np, a_np[::-1]))
        assert_matches(ap.cross(a, b), np_cross_2d(a_np, b_np))
        assert_matches(ap.cross(b, a), np_cross_2d(b_np, a_np))
    with pytest.warns(DeprecationWarning):
        ap.cross(a, a)
    with pytest.raises(ValueError):
        ap.cross(ap.ones(4), ap.ones(3))


@pytest.mark.parametrize("dtype", BREADTH_DTYPES + [np.complex128], ids=str)
@pytest.mark.parametrize("shapes", [((3, 4), (4,)), ((2, 3, 4), (4,)), ((3, 4), (5, 4)),
                                    ((2, 1, 3, 4), (5, 4)), ((0, 2, 3), (3,)), ((2, 0), (0,))])
def test_matvec(device, rng, dtype, shapes):
    a_np = random_values(rng, shapes[0], dtype)
    v_np = random_values(rng, shapes[1], dtype)
    a, v = to_device(a_np, device), to_device(v_np, device)
    # Sums of products cancel: the error bound scales with the terms, not the result.
    eps = np.finfo(np.result_type(dtype, np.float32)).eps
    n = max(v_np.shape[-1], 1)
    atol = 8 * n * eps * float(np.abs(a_np).max(initial=0)) * float(np.abs(v_np).max(initial=0))
    tol = {"rtol": 8 * n * eps, "atol": atol}
    assert_matches(ap.matvec(a, v), np.matvec(a_np, v_np), **tol)
    # vecmat(v, A) with A's last two axes swapped: conj(v) @ A.
    at_np = np.swapaxes(a_np, -1, -2)
    assert_matches(ap.vecmat(v, ap.swapaxes(a, -1, -2)), np.vecmat(v_np, at_np), **tol)
    assert_matches(ap.matvec(a[..., ::-1], v[..., ::-1]),
                   np.matvec(a_np[..., ::-1], v_np[..., ::-1]), **tol)


def test_matvec_errors(device):
    with pytest.raises(ValueError):
        ap.matvec(ap.ones(3), ap.ones(3))
    with pytest.raises(ValueError):
        ap.vecmat(ap.ones(3), ap.ones(3))
    with pytest.raises(ValueError):
        ap.matvec(ap.ones((2, 3)), ap.ones(4))
    with pytest.raises(NotImplementedError, match="axes="):
        ap.matvec(ap.ones((2, 3)), ap.ones(3), axes=[(0, 1), 0, 0])


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shapes", [((7,), (7,)), ((3, 7), (7,)), ((1,), (1,)), ((0,), (0,)),
                                    ((4, 0), (0,))], ids=str)
def test_inner_with_a_vector_is_tensordots_product(shapes, dtype, device, rng):
    """inner(a, b) with b a vector and a at most a matrix is the one (m, k) x (k, 1) product
    tensordot makes: the same bits, dtype and shape, over strided and reversed operands."""
    a_np = vals(rng, shapes[0][:-1] + (2 * shapes[0][-1],), dtype)[..., ::-2]
    b_np = vals(rng, (3 * shapes[1][0],), dtype)[::3]
    for x_np, y_np in [(a_np, b_np), (np.ascontiguousarray(a_np), b_np[::-1].copy()[::-1])]:
        x, y = to_device(x_np, device), to_device(y_np, device)
        got = ap.inner(x, y)
        expected = np.inner(x_np, y_np)
        # Two vectors' product on the CPU is NumPy's scalar, as NumPy's (test_products_of_two_
        # vectors_are_numpys_scalars_on_the_cpu); tensordot's stays a 0-d array.
        scalar = got.ndim == 0 and x.device == ap.Device("cpu")
        assert type(got) is (type(expected) if scalar else ap.ndarray)
        close(got, expected, dtype)
        assert_matches(got, ap.tensordot(x, y, ([-1], [-1])), rtol=0, atol=0)


PRODUCTS = {
    "dot": lambda xp, a, b: xp.dot(a, b),
    "ndarray.dot": lambda xp, a, b: a.dot(b),
    "vdot": lambda xp, a, b: xp.vdot(a, b),
    "inner": lambda xp, a, b: xp.inner(a, b),
    "matmul": lambda xp, a, b: xp.matmul(a, b),
    "@": lambda xp, a, b: a @ b,
}


@pytest.mark.parametrize("dtype", DTYPES + [np.float16, BF16], ids=str)
@pytest.mark.parametrize("name", list(PRODUCTS))
def test_products_of_two_vectors_are_numpys_scalars_on_the_cpu(name, dtype, device, rng):
    """A 0-d product (two vectors, or dot's two 0-d operands) is NumPy's scalar on the CPU, as
    NumPy's is (type and value), so the scalar work after it in a loop is NumPy's; on a GPU it
    stays a 0-d device array. Contiguous, strided, reversed, one-element and empty operands;
    with out= the result is out."""
    product = PRODUCTS[name]
    base_np = vals(rng, (24,), dtype)
    base = to_device(base_np)
    pairs = [(slice(0, 8), slice(8, 16)), (slice(None, None, 3), slice(1, None, 3)),
             (slice(None, None, -3), slice(0, 8)), (slice(2, 3), slice(5, 6)),
             (slice(0, 0), slice(3, 3))]
    if name in ("dot", "ndarray.dot"):
        pairs.append(((), ()))  # 0-d operands: their product
    for i, j in pairs:
        x_np, y_np = (base_np[i], base_np[j]) if i != () else (base_np[3, ...], base_np[4, ...])
        x, y = (base[i], base[j]) if i != () else (base[3, ...], base[4, ...])
        expected = product(np, x_np, y_np)
        if dtype == BF16:  # ml_dtypes' matmul loop returns float32; accelpy's keeps bfloat16
            expected = np.dtype(BF16).type(expected)
        got = product(ap, x, y)
        if device == ap.Device("cpu"):
            assert type(got) is type(expected), (i, j)
        else:
            assert type(got) is ap.ndarray and got.shape == (), (i, j)
        close(got, expected, dtype)
    if name in ("dot", "matmul"):
        out = ap.empty((), dtype=base.dtype)
        assert getattr(ap, name)(base[:8], base[8:16], out=out) is out
        close(out, np.dot(base_np[:8], base_np[8:16]), dtype)
