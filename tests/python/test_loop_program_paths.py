"""Paths the loop-program corpus (tests/programs/loops.py) takes on every iteration, beyond the
cost of one operation: sequences of Python numbers as operands (check_mask's `mask` tuple), the
residual norm of conjugate gradients. Each agrees with NumPy over dtypes, layouts and devices;
where the fast path replaces a longer graph, it gives the longer graph's bits."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_exact, assert_matches, random_values, to_device, to_numpy

SEQUENCES = [
    (1, 0, 1),
    [True, False, True],
    [1, 2.5, -3],
    (1 + 2j, 3, -0.0),
    [True, 2, 3.0],
    [0.1, float("nan"), float("inf"), -float("inf")],
    [2**63 - 1, -(2**63)],
    [2**63],  # past int64: NumPy's uint64
    (),
    [],
]


@pytest.mark.parametrize("seq", SEQUENCES, ids=repr)
def test_asarray_of_python_numbers_matches_numpy(device, seq):
    expected = np.asarray(seq)
    got = ap.asarray(seq, device=device)
    assert got.device == ap.asarray(np.zeros(1), device=device).device
    assert_exact(got, expected)
    with ap.device(device):
        assert_exact(ap.asarray(seq), expected)
    if isinstance(seq, list) and seq:
        seq[0] = 7  # the array is a copy: the list changing afterwards does not show
        assert_exact(got, expected)


def test_asarray_of_python_numbers_keeps_numpys_errors(device):
    with pytest.raises(OverflowError, match="object array"):
        ap.asarray([2**70], device=device)  # NumPy: an object array, which accelpy does not store
    with pytest.raises(ValueError):
        ap.asarray((1, 2), copy=False, device=device)  # a sequence is always copied
    assert_exact(ap.asarray((1, 2), dtype=np.int8, device=device), np.asarray((1, 2), np.int8))
    assert_exact(ap.asarray((np.float32(1), 2), device=device), np.asarray((np.float32(1), 2)))


@pytest.mark.parametrize("dtype", [np.bool_, np.int64, np.uint8, np.float32, np.complex64])
def test_python_sequences_as_ufunc_operands_match_numpy(device, rng, dtype):
    # check_mask: `(mask == np.bitwise_and(mask, vector)).all()` for each row of a table.
    db_np = random_values(rng, (40, 4), dtype)
    db = to_device(db_np, device)
    mask = (1, 0, 1)
    for line_np, line in zip(db_np, db, strict=True):
        v_np, v = line_np[1:], line[1:]
        if np.dtype(dtype).kind in "biu":
            assert_exact(ap.bitwise_and(mask, v), np.bitwise_and(mask, v_np))
            assert bool((mask == ap.bitwise_and(mask, v)).all()) == bool(
                (mask == np.bitwise_and(mask, v_np)).all())
        assert_exact(mask == v, mask == v_np)
        assert_matches(ap.add([1.5, -2, 0], v), np.add([1.5, -2, 0], v_np))
        assert_matches(v * [2, 3, 4], v_np * [2, 3, 4])


def _norm_inputs(rng, dtype, device):
    base_np = random_values(rng, (300,), dtype, specials=False)
    special_np = np.array([0.0, -0.0, 3.0, -4.0, np.inf, np.nan], dtype=dtype)
    cases = {
        "contiguous": base_np[:256],
        "one": base_np[:1],
        "empty": base_np[:0],
        "strided": base_np[::3],
        "reversed": base_np[::-1],
        "zeros": -np.zeros(5, dtype),
        "inf": special_np[:5],
        "nan": special_np,
    }
    return {k: (v, to_device(v, device)) for k, v in cases.items()}


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_vector_norm_of_a_real_vector_is_numpys_dot_product(device, rng, dtype):
    """norm(x) of all of a real CPU array is NumPy's sqrt(dot(x, x)) (on a GPU the sum of
    squares, fused with its producer); every path to it (norm, norm(x, 2), vector_norm, a
    matrix's Frobenius norm) gives the same bits, and a norm over an axis keeps the sum of
    squares, as NumPy's does."""

    def whole(v):
        if v.device == ap.Device("cpu"):
            return to_numpy(ap.sqrt(ap.dot(v, v)))
        return to_numpy(ap.sqrt(ap.sum(ap.abs(v) * ap.abs(v), axis=0)))

    for name, (x_np, x) in _norm_inputs(rng, dtype, device).items():
        got = ap.linalg.norm(x)
        assert type(got) is ap.ndarray and got.shape == () and got.dtype == x.dtype, name
        product = whole(x)
        assert_exact(got, product)
        assert_exact(ap.linalg.vector_norm(x), product)
        assert_exact(ap.linalg.norm(x, 2), product)
        assert_exact(ap.linalg.vector_norm(x, keepdims=True), product.reshape(1))
        expected = np.linalg.norm(x_np)
        if x_np.size > 1:  # BLAS's summation order may differ (threads, vector width)
            assert_matches(got, expected, rtol=8 * np.finfo(dtype).eps, check_dtype=True)
        else:
            assert_exact(got, expected)
        summed = to_numpy(ap.sqrt(ap.sum(ap.abs(x) * ap.abs(x), axis=0)))
        assert_exact(ap.linalg.norm(x, axis=0), summed)
    m_np = random_values(rng, (6, 5), dtype, specials=False)[::-1, ::2]
    m = to_device(m_np, device)
    assert_exact(ap.linalg.norm(m), whole(ap.reshape(m, (-1,))))
    assert_matches(ap.linalg.norm(m), np.linalg.norm(m_np), rtol=8 * np.finfo(dtype).eps,
                   check_dtype=True)


@pytest.mark.parametrize("dtype", [np.complex128, np.int32, np.bool_])
def test_norm_of_other_dtypes_is_unchanged(device, rng, dtype):
    x_np = random_values(rng, (50,), dtype)
    x = to_device(x_np, device)
    assert_matches(ap.linalg.norm(x), np.linalg.norm(x_np), rtol=1e-6)
    assert_matches(ap.linalg.norm(x[::-2]), np.linalg.norm(x_np[::-2]), rtol=1e-6)


MASK_DTYPES = [np.complex128, np.complex64, np.float32, np.int64, np.uint8, np.bool_]


@pytest.mark.parametrize("dtype", MASK_DTYPES)
@pytest.mark.parametrize("shape", [(100,), (30, 40), (3, 5, 7), (0, 4)], ids=str)
def test_mask_assignment_of_values_matches_numpy(device, rng, dtype, shape):
    """x[mask] = values with a mask of x's shape (the Mandelbrot programs' `Z[I] = Z[I]**2 +
    C[I]`): contiguous x takes the flat positions of the mask, other layouts the coordinates."""
    base_np = random_values(rng, shape, dtype)
    for density in (0.0, 0.3, 1.0):
        for layout in ("contiguous", "pending", "reversed", "transposed", "offset"):
            x_np = base_np.copy()
            x = to_device(base_np, device)
            if layout == "pending":
                x_np, x = x_np * 2, x * 2
            elif layout == "reversed":
                x_np, x = x_np[::-1], x[::-1]
            elif layout == "transposed":
                x_np, x = x_np.T, x.T
            elif layout == "offset":
                x_np, x = x_np[1:], x[1:]
            m_np = rng.random(x_np.shape) < density
            m = to_device(m_np, device)
            count = int(m_np.sum())
            v_np = random_values(rng, (count,), dtype)
            x_np[m_np] = v_np
            x[m] = to_device(v_np, device)
            assert_exact(x, x_np)


def test_mask_assignment_reads_the_destination_before_writing(device, rng):
    z_np = random_values(rng, (20, 30), np.complex128)
    c_np = random_values(rng, (20, 30), np.complex128)
    z, c = to_device(z_np, device), to_device(c_np, device)
    for _ in range(3):  # the Mandelbrot step: mask, gathers and values all from z itself
        i_np = np.less(np.abs(z_np), 1.5)
        i = ap.less(ap.abs(z), 1.5)
        z_np[i_np] = z_np[i_np] ** 2 + c_np[i_np]
        z[i] = z[i] ** 2 + c[i]
        assert_matches(z, z_np)
    flat_np, flat = z_np.reshape(-1), z.reshape(-1)
    m_np = np.abs(z_np) > 1
    m = to_device(m_np, device)
    # Values that are a view of the destination are read before the writes (NumPy's boolean
    # setitem reads them as it writes, so its reference is given a copy).
    z_np[m_np] = flat_np[: int(m_np.sum())][::-1].copy()
    z[m] = flat[: int(m_np.sum())][::-1]
    assert_matches(z, z_np)


def test_mask_assignment_errors_match_numpy(device, rng):
    x = to_device(random_values(rng, (4, 5), np.float64), device)
    mask = to_device(np.arange(20).reshape(4, 5) % 3 == 0, device)  # 7 true
    with pytest.raises(ValueError, match=r"shape mismatch: value array of shape \(6,\) could "
                                         r"not be broadcast to indexing result of shape \(7,\)"):
        x[mask] = ap.zeros(6, device=device)
    with pytest.raises(IndexError, match="boolean index did not match"):
        x[to_device(np.ones((4, 4), bool), device)] = ap.zeros(16, device=device)
    x[mask] = ap.asarray([2.5], device=device)  # one value broadcasts
    assert float(x[0, 0]) == 2.5 and float(x[0, 3]) == 2.5


TRUTH_VALUES = [
    (np.float64, [0.0, -0.0, 1.5, np.nan, np.inf]),
    (np.float32, [0.0, -0.0, 1e-45]),
    (np.complex128, [0j, complex(0, -0.0), 1j, complex(np.nan, 0)]),
    (np.int8, [0, -1]),
    (np.uint64, [0, 2**64 - 1]),
    (np.bool_, [False, True]),
]


@pytest.mark.parametrize(("dtype", "values"), TRUTH_VALUES, ids=lambda v: str(v))
def test_truth_of_a_0d_array_is_numpys(device, dtype, values):
    """bool() of a 0-d array (a loop's `if err < tol:`), computed, pending or a reduction's
    result, is NumPy's truth of the value."""
    for v in values:
        v_np = np.asarray(v, dtype=dtype)
        x = to_device(v_np, device)
        assert bool(x) is bool(v_np)
        assert bool(x + x) is bool(v_np + v_np)
        assert bool(ap.sum(x.reshape(1))) is bool(np.sum(v_np.reshape(1)))
        assert bool(x == x) is bool(v_np == v_np)
    a = to_device(np.asarray(values, dtype=dtype), device)
    with pytest.raises(ValueError, match="more than one element"):
        bool(a)
    with pytest.raises(ValueError, match="empty array is ambiguous"):
        bool(a[:0])
