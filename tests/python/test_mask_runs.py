"""Boolean selection and mask assignment over masks that come in runs, as real programs' masks do
(Mandelbrot's bounded points, a region of a grid): the CPU skips blocks of false elements and
copies blocks of true ones whole, and runs element by element where a block is mixed. Runs of
every length around the block (32), across the pass's chunks (65,536 elements), the mask's first
and last elements, and the layouts the front end copies first, against NumPy."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_exact, random_values, to_device

DTYPES = [np.complex128, np.complex64, np.float64, np.float32, np.int16, np.uint8, np.bool_]


def run_mask(rng, n, longest):
    """n bools in runs of random lengths 1..longest, starting with either value."""
    out = np.empty(n, bool)
    at, value = 0, bool(rng.integers(2))
    while at < n:
        length = int(rng.integers(1, longest + 1))
        out[at : at + length] = value
        at += length
        value = not value
    return out


MASKS = {
    "short runs": lambda rng, n: run_mask(rng, n, 40),
    "long runs": lambda rng, n: run_mask(rng, n, 300),
    "random": lambda rng, n: rng.random(n) < 0.5,
    "all true": lambda rng, n: np.ones(n, bool),
    "all false": lambda rng, n: np.zeros(n, bool),
    "last only": lambda rng, n: np.arange(n) == n - 1,
    "first only": lambda rng, n: np.arange(n) == 0,
}
SIZES = [0, 1, 31, 32, 33, 95, 1000, 65536 + 70]


@pytest.mark.parametrize("kind", MASKS)
@pytest.mark.parametrize("n", SIZES)
def test_selection_of_runs_matches_numpy(device, rng, kind, n):
    m_np = MASKS[kind](rng, n)
    m = to_device(m_np, device)
    for dtype in DTYPES:
        x_np = random_values(rng, (n,), dtype)
        assert_exact(to_device(x_np, device)[m], x_np[m_np])
    assert_exact(ap.flatnonzero(m), np.flatnonzero(m_np))


@pytest.mark.parametrize("kind", MASKS)
@pytest.mark.parametrize("n", SIZES)
def test_mask_assignment_of_runs_matches_numpy(device, rng, kind, n):
    m_np = MASKS[kind](rng, n)
    m = to_device(m_np, device)
    count = int(m_np.sum())
    for dtype in DTYPES:
        x_np = random_values(rng, (n,), dtype)
        x = to_device(x_np, device)
        v_np = random_values(rng, (count,), dtype)
        x_np[m_np] = v_np
        x[m] = to_device(v_np, device)
        assert_exact(x, x_np)


@pytest.mark.parametrize("kind", MASKS)
@pytest.mark.parametrize("n", SIZES)
def test_mask_assignment_of_one_value_matches_numpy(device, rng, kind, n):
    """x[mask] = scalar, and = a one-element array (Mandelbrot's `N[I] = n`): a where() over
    the mask, beside the selection's paths."""
    m_np = MASKS[kind](rng, n)
    m = to_device(m_np, device)
    for dtype in DTYPES:
        x_np = random_values(rng, (n, 1), dtype)[:, 0]
        x = to_device(x_np, device)
        one_np = random_values(rng, (1,), dtype)
        x_np[m_np] = one_np[0]
        x[m] = one_np[0].item()
        assert_exact(x, x_np)
        x_np[m_np] = one_np
        x[m] = to_device(one_np, device)
        assert_exact(x, x_np)
    x_np = random_values(rng, (n,), np.int64)
    x = to_device(x_np, device)
    x_np, x = x_np * 3, x * 3  # a pending destination
    x_np[m_np] = 7.9  # cast to the destination's dtype, as NumPy's setitem does
    x[m] = 7.9
    assert_exact(x, x_np)


@pytest.mark.parametrize("dtype", [np.complex64, np.float64, np.int32])
def test_mask_assignment_layouts_match_numpy(device, rng, dtype):
    """2-D runs (a disc in a grid, as Mandelbrot's), with the values, the mask and the
    destination in the layouts the front end takes as they are or copies first."""
    yy, xx = np.mgrid[-1:1:70j, -1:1:90j]
    disc = xx**2 + yy**2 < 0.5
    for layout in (
        "plain",
        "reversed values",
        "mask transposed view",
        "mask reversed",
        "offset destination",
        "pending values",
        "cast values",
    ):
        x_np = random_values(rng, disc.shape, dtype)
        x = to_device(x_np, device)
        m_np = disc.copy()
        m = to_device(m_np, device)
        count = int(m_np.sum())
        v_np = random_values(rng, (count,), dtype)
        v = to_device(v_np, device)
        if layout == "reversed values":
            v_np, v = v_np[::-1], v[::-1]
        elif layout == "mask transposed view":
            m_np = np.ascontiguousarray(disc.T).T
            m = to_device(np.ascontiguousarray(disc.T), device).T
        elif layout == "mask reversed":
            m_np = disc[::-1, ::-1].copy()[::-1, ::-1]
            m = to_device(disc[::-1, ::-1].copy(), device)[::-1, ::-1]
        elif layout == "offset destination":
            x_np, x, m_np, m = x_np[1:], x[1:], m_np[1:], m[1:]
            count = int(m_np.sum())
            v_np, v = v_np[:count], v[:count]
        elif layout == "pending values":
            v_np, v = v_np * 2 + v_np, v * 2 + v
        elif layout == "cast values":
            v_np, v = v_np.astype(np.float32), v.astype(np.float32)
            if np.dtype(dtype).kind != "c":
                v_np, v = v_np.real.copy(), ap.real(v).copy()
        x_np[m_np] = v_np
        x[m] = v
        assert_exact(x, x_np)
        x_np[~m_np] = v_np[..., :1]
        x[~m] = v[..., :1]  # one value: a where()
        assert_exact(x, x_np)


def test_mask_in_the_destination_is_read_before_writing(device, rng):
    """b[b] = values: the mask is the array written."""
    b_np = run_mask(rng, 200, 40)
    b = to_device(b_np, device)
    v_np = random_values(rng, (int(b_np.sum()),), np.bool_)
    b_np[b_np.copy()] = v_np
    b[b] = to_device(v_np, device)
    assert_exact(b, b_np)
    b_np[~b_np] = True
    b[~b] = True
    assert_exact(b, b_np)
    b_np[b_np.copy()] = False
    b[b] = False
    assert_exact(b, b_np)
    # a mask that is a shifted view of the destination
    x_np = run_mask(rng, 201, 40)
    x = to_device(x_np, device)
    m_np, m = x_np[:-1], x[:-1]
    v_np = ~x_np[1:][m_np]
    y_np, y = x_np[1:], x[1:]
    y_np[m_np.copy()] = v_np
    y[m] = to_device(v_np, device)
    assert_exact(x, x_np)


def test_mask_assignment_count_mismatch_writes_nothing(device, rng):
    x_np = random_values(rng, (300,), np.float64)
    x = to_device(x_np, device)
    m_np = run_mask(rng, 300, 40)
    count = int(m_np.sum())
    with pytest.raises(
        ValueError,
        match=rf"value array of shape \({count + 1},\) could not be "
        rf"broadcast to indexing result of shape \({count},\)",
    ):
        x[to_device(m_np, device)] = ap.zeros(count + 1, device=device)
    assert_exact(x, x_np)


def test_mask_bytes_other_than_one_count_as_true(device, rng):
    """A bool view of bytes holds any nonzero value as True; a block of them is no block of
    ones, and goes element by element."""
    raw_np = rng.integers(0, 4, 200).astype(np.uint8)
    raw_np[64:128] = 2
    m_np = raw_np.view(np.bool_)
    m = to_device(raw_np, device).view(ap.bool_)
    x_np = random_values(rng, (200,), np.float32)
    x = to_device(x_np, device)
    assert_exact(x[m], x_np[m_np])
    v_np = random_values(rng, (int(np.count_nonzero(m_np)),), np.float32)
    x_np[m_np] = v_np
    x[m] = to_device(v_np, device)
    assert_exact(x, x_np)
