"""`x[mask] = values` and `x[mask]` over every path the front end picks, against NumPy: one pass
of the backend's `place` (contiguous x, a mask of its shape, one value per true element), the
where() of one value, and the index arrays of everything else (views of x, masks of part of its
dimensions, values broadcast along the rest). Dtypes of every element size, 0-d, empty, random
masks over more than one of the CPU's 64K chunks, masks all true and all false, masks and
values in views (non-contiguous, reversed) and in the memory being written."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_exact, assert_raises_like, random_values, to_device

DTYPES = [
    np.bool_,
    np.int8,
    np.uint8,
    np.int16,
    np.float16,
    np.int32,
    np.float32,
    np.int64,
    np.float64,
    np.complex64,
    np.complex128,
]


def fill(rng, shape, kind):
    if kind == "all true":
        return np.ones(shape, bool)
    if kind == "all false":
        return np.zeros(shape, bool)
    return rng.random(shape) < {"random": 0.5, "sparse": 0.03, "dense": 0.97}[kind]


def assign_both(x_np, x, m_np, m, v_np, v):
    x_np[m_np] = v_np
    x[m] = v
    assert_exact(x, x_np)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kind", ["random", "sparse", "dense", "all true", "all false"])
@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (1,), (37,), (5, 7), (3, 4, 5), (70000,)])
def test_assignment_and_selection_match_numpy(device, rng, dtype, kind, shape):
    m_np = fill(rng, shape, kind)
    m = to_device(m_np, device)
    x_np = random_values(rng, shape, dtype)
    x_np = np.array(x_np)  # 0-d: an array, not a NumPy scalar
    x = to_device(x_np, device)
    assert_exact(x[m], x_np[m_np])
    v_np = random_values(rng, (int(m_np.sum()),), dtype)
    assign_both(x_np, x, m_np, m, v_np, to_device(v_np, device))
    # the same values from a reversed view, and cast from another dtype
    assign_both(x_np, x, m_np, m, v_np[::-1], to_device(v_np, device)[::-1])
    w_np = random_values(rng, v_np.shape, np.int8)
    assign_both(x_np, x, m_np, m, w_np.astype(dtype), to_device(w_np, device).astype(dtype))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float32, np.complex128])
@pytest.mark.parametrize(
    "view",
    ["strided", "reversed", "reversed 2-d", "transposed", "column", "offset"],
)
def test_assignment_into_views_matches_numpy(device, rng, dtype, view):
    """x a view of a larger array (the index-array path), or an offset contiguous view (place);
    the base must change only where the view's mask is true."""
    base_np = random_values(rng, (12, 10), dtype)
    base = to_device(base_np, device)
    key = {
        "strided": (slice(None, None, 2), slice(1, None, 3)),
        "reversed": (3, slice(None, None, -1)),
        "reversed 2-d": (slice(None, None, -1), slice(None, None, -2)),
        "transposed": (slice(None), slice(None)),
        "column": (slice(None), 4),
        "offset": (slice(2, 9), slice(None)),
    }[view]
    x_np, x = base_np[key], base[key]
    if view == "transposed":
        x_np, x = x_np.T, x.T
    m_np = rng.random(x_np.shape) < 0.5
    v_np = random_values(rng, (int(m_np.sum()),), dtype)
    x_np[m_np] = v_np
    x[to_device(m_np, device)] = to_device(v_np, device)
    assert_exact(base, base_np)
    assert_exact(x[to_device(m_np, device)], x_np[m_np])


@pytest.mark.parametrize("dtype", [np.int8, np.float64, np.complex64])
@pytest.mark.parametrize("view", ["strided", "reversed", "transposed", "broadcast"])
def test_masks_in_views_match_numpy(device, rng, dtype, view):
    """The mask a non-contiguous, reversed, transposed or broadcast view (copied before the
    pass), over contiguous x."""
    shape = (9, 8)
    if view == "strided":
        mb_np = rng.random((18, 8)) < 0.5
        m_np, m = mb_np[::2], to_device(mb_np, device)[::2]
    elif view == "reversed":
        mb_np = rng.random(shape) < 0.5
        m_np, m = mb_np[::-1, ::-1], to_device(mb_np, device)[::-1, ::-1]
    elif view == "transposed":
        mb_np = rng.random(shape[::-1]) < 0.5
        m_np, m = mb_np.T, to_device(mb_np, device).T
    else:
        mb_np = rng.random((1, 8)) < 0.5
        m_np = np.broadcast_to(mb_np, shape)
        m = ap.broadcast_to(to_device(mb_np, device), shape)
    x_np = random_values(rng, shape, dtype)
    x = to_device(x_np, device)
    assert_exact(x[m], x_np[m_np])
    v_np = random_values(rng, (int(m_np.sum()),), dtype)
    assign_both(x_np, x, m_np, m, v_np, to_device(v_np, device))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float32, np.complex128])
def test_broadcast_values_match_numpy(device, rng, dtype):
    """One value (a where()), a scalar, and a row broadcast along the dimensions the mask
    leaves (index arrays)."""
    x_np = random_values(rng, (6, 5), dtype)
    x = to_device(x_np, device)
    m_np = rng.random((6, 5)) < 0.5
    m = to_device(m_np, device)
    v_np = random_values(rng, (1,), dtype)
    assign_both(x_np, x, m_np, m, v_np, to_device(v_np, device))
    s_np = random_values(rng, (), dtype)
    assign_both(x_np, x, m_np, m, s_np[()], s_np[()].item())
    r_np = rng.random(6) < 0.5
    r_np[1] = True
    r = to_device(r_np, device)
    row_np = random_values(rng, (5,), dtype)
    assign_both(x_np, x, r_np, r, row_np, to_device(row_np, device))
    col_np = random_values(rng, (int(r_np.sum()), 1), dtype)
    assign_both(x_np, x, r_np, r, col_np, to_device(col_np, device))


@pytest.mark.parametrize("shape", [lambda c: (1, c), lambda c: (1, 1, c), lambda c: (c, 1),
                                   lambda c: (1, 1), lambda c: (2, c)])
def test_values_of_more_than_one_dimension_raise_numpys_type_error(device, rng, shape):
    """A mask of x's whole shape is NumPy's boolean assignment: values of at most one
    dimension, else TypeError (even (1, count)), and nothing written."""
    x_np = random_values(rng, (6, 5), np.complex64)
    x = to_device(x_np, device)
    m_np = rng.random((6, 5)) < 0.5
    m_np[0, 0] = True
    m = to_device(m_np, device)
    v_np = random_values(rng, shape(int(m_np.sum())), np.complex64)

    def np_assign():
        x_np.copy()[m_np] = v_np

    def ap_assign():
        x[m] = to_device(v_np, device)

    assert_raises_like(np_assign, ap_assign)
    assert_exact(x, x_np)
    with pytest.raises(TypeError, match="0 or 1-dimensional input, input has 2 dimensions"):
        x[m] = to_device(random_values(rng, (1, 1), np.complex64), device)


@pytest.mark.parametrize(
    "v_shape",
    [lambda c: (c + 1,), lambda c: (c - 1,), lambda c: (0,)],
)
def test_values_that_do_not_fit_raise_like_numpy_and_write_nothing(device, rng, v_shape):
    x_np = random_values(rng, (40,), np.float64)
    x = to_device(x_np, device)
    m_np = rng.random(40) < 0.5
    m_np[:3] = True
    m = to_device(m_np, device)
    v_np = random_values(rng, v_shape(int(m_np.sum())), np.float64)
    v = to_device(v_np, device)

    def np_assign():
        x_np.copy()[m_np] = v_np

    def ap_assign():
        x[m] = v

    assert_raises_like(np_assign, ap_assign)
    assert_exact(x, x_np)


def test_mask_of_other_shape_raises_like_numpy(device, rng):
    x_np = random_values(rng, (4, 5), np.float32)
    x = to_device(x_np, device)
    m_np = rng.random((5, 4)) < 0.5
    v_np = random_values(rng, (int(m_np.sum()),), np.float32)

    def np_assign():
        x_np.copy()[m_np] = v_np

    def ap_assign():
        x[to_device(m_np, device)] = to_device(v_np, device)

    assert_raises_like(np_assign, ap_assign)
    assert_exact(x, x_np)
