"""The host paths of loops over tiny arrays (the program corpus's wave and smoke solvers):
assignments whose value reads other parts of the destination's array, `a[i] += v`, host reads
of small pending chains, iteration over the first axis and np.array of a list of arrays. Each
agrees with NumPy; where the fast path is an evaluation count (one group, not two), that is
checked too. Small elementwise groups (up to 64 elements in any layout, up to a block of 2048
read and written in place) and reductions of every axis over them run on the CPU's step
interpreter, the others on the block executor: both give the same bits."""

import numpy as np
import pytest

import accelpy as ap
from helpers import (
    assert_exact,
    assert_matches,
    random_values,
    sum_atol,
    to_device,
    to_numpy,
    with_fusion,
)

DTYPES = [np.float64, np.float32, np.int32, np.int64, np.uint8, np.complex64, np.bool_]


def _groups_run(fn):
    ap.fusion.reset_stats()
    fn()
    return ap.fusion.stats()["groups_run"]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.complex128])
def test_edge_copies_of_a_grid_match_numpy(device, rng, dtype):
    # smoke_solver's set_bnd: rows and columns copied (negated) from their neighbours.
    x_np = random_values(rng, (7, 6), dtype, low=-100, high=100)
    x = to_device(x_np, device)
    for a in (x_np, x):
        a[0, 1:-1] = -a[1, 1:-1]
        a[-1, 1:-1] = a[5, 1:-1]
        a[1:-1, 0] = -a[1:-1, 1]
        a[1:-1, -1] = a[1:-1, 4]
        a[0, 0] = (a[1, 0] + a[0, 1]) * 3
        a[-1, -1] = a[5, -1] - a[-1, 4]
    assert_exact(x, x_np)


@pytest.mark.usefixtures("deferred")  # counts what the deferred path does
def test_a_value_reading_disjoint_bytes_of_the_destination_is_one_evaluation(device):
    x = ap.asarray(np.arange(36.0).reshape(6, 6))
    ap.eval(x)
    assert _groups_run(lambda: x.__setitem__((0, slice(1, -1)), -x[1, 1:-1])) == 1
    # Elements are NumPy's scalars on the CPU: their arithmetic and the store run no group.
    elements = 0 if device.type == "cpu" else 1
    assert _groups_run(lambda: x.__setitem__((0, 0), 0.5 * (x[1, 0] + x[0, 1]))) == elements
    expected = np.arange(36.0).reshape(6, 6)
    expected[0, 1:-1] = -expected[1, 1:-1]
    expected[0, 0] = 0.5 * (expected[1, 0] + expected[0, 1])
    assert_exact(x, expected)


@pytest.mark.parametrize(
    "case", ["shift", "shift_back", "transpose_row", "interleaved", "reversed", "broadcast_row"]
)
def test_values_reading_overlapping_views_still_see_the_old_data(device, rng, case):
    # Reads that overlap the written bytes through another view go through a temporary.
    x_np = random_values(rng, (6, 6), np.float64)
    x = to_device(x_np, device)
    for a in (x_np, x):
        if case == "shift":
            a[1:] = a[:-1] * 2
        elif case == "shift_back":
            a[:-1] = a[1:] + 1
        elif case == "transpose_row":
            a[0, :] = -a[:, 0]
        elif case == "interleaved":
            a[:, ::2] = a[:, 1::2] - a[:, ::2]
        elif case == "reversed":
            a[0] = a[0, ::-1] * 3
        else:
            a[2:4] = a[3] + 1
    assert_exact(x, x_np)


@pytest.mark.usefixtures("deferred")  # counts what the deferred path does
@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.complex64])
def test_in_place_update_of_a_row_matches_numpy_and_writes_once(device, rng, dtype):
    f_np = random_values(rng, (5, 2), dtype)
    v_np = random_values(rng, (2,), dtype)
    f, v = to_device(f_np, device), to_device(v_np, device)
    ap.eval(f, v)
    for i in range(1, 5):
        f_np[i - 1] -= v_np
        f_np[i] += v_np
        f[i - 1] -= v
        f[i] += v
    assert_exact(f, f_np)

    def update():
        f[2] += v

    assert _groups_run(update) == 1


def test_a_view_assigned_onto_itself_is_unchanged(device, rng):
    x_np = random_values(rng, (4, 3), np.float32)
    x = to_device(x_np, device)
    row = x[1]
    x[1] = row
    x[:, 1:] = x[:, 1:]
    assert_exact(x, x_np)


@pytest.mark.parametrize("dtype", DTYPES)
def test_host_reads_of_small_pending_chains_match_numpy(device, rng, dtype):
    r_np = rng.integers(1, 9, size=2).astype(dtype)  # exact in every dtype
    r = to_device(r_np, device)
    dx, dy = r
    dx_np, dy_np = r_np
    value, value_np = dx * dx + dy * dy, dx_np * dx_np + dy_np * dy_np
    if np.dtype(dtype).kind == "c":
        assert complex(value) == complex(value_np)
    else:
        assert float(value) == float(value_np)
        assert int(value) == int(value_np)
    assert bool(value != 0) == bool(value_np != 0)
    assert value.item() == value_np.item()


@pytest.mark.parametrize("n", [1, 2, 7, 64, 65, 200, 2047, 2048])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int16, np.complex128])
def test_small_groups_agree_with_the_block_executor_bit_for_bit(device, rng, n, dtype):
    # The same chain over the first n elements alone (the step interpreter up to 2048) and as
    # part of 5000 (the block executor).
    a_np = random_values(rng, (5000,), dtype, low=1, high=5)
    b_np = random_values(rng, (5000,), dtype, low=1, high=5)
    a, b = to_device(a_np, device), to_device(b_np, device)

    def chain(x, y):
        return (x * y + x) * 3 - y * y

    small = chain(a[:n], b[:n])
    large = chain(a, b)
    assert_exact(small, to_numpy(large)[:n])
    # Beside NumPy, within a few roundings of the terms' size (up to ~256 here): `- y * y` cancels,
    # so an error relative to the result alone would be a flaky bound.
    kind = np.dtype(dtype).kind
    atol = 4 * 256 * float(np.finfo(dtype).eps) if kind in "fc" else None
    assert_matches(small, chain(a_np[:n], b_np[:n]), atol=atol)
    if kind == "f":
        assert_exact(ap.sqrt(ap.abs(small)), to_numpy(ap.sqrt(ap.abs(large)))[:n])


REDUCTIONS = ["sum", "prod", "max", "min", "argmax", "argmin", "any", "all"]


@pytest.mark.parametrize("n", [1, 7, 64, 65, 1000, 2048, 2049])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.complex64])
def test_small_reductions_agree_with_the_block_executor_bit_for_bit(device, rng, n, dtype):
    # A chain reduced over every axis: its values read in place (the step interpreter up to
    # 2048), through a strided view of the same values (the block executor from 65 on), and
    # without fusion (each node on its own) give the same bits; beside NumPy within rounding.
    kind = np.dtype(dtype).kind
    a_np = random_values(rng, (n,), dtype, low=-2, high=2)
    b_np = random_values(rng, (n,), dtype, low=-2, high=2)
    wide_np = np.zeros(2 * n, dtype)
    wide_np[::2] = a_np
    a, b, wide = to_device(a_np, device), to_device(b_np, device), to_device(wide_np, device)
    for name in REDUCTIONS:
        if kind == "c" and name in ("max", "min", "argmax", "argmin"):
            continue

        def terms(x, y, name=name):
            v = x * y + x
            if name == "prod" and kind in "fc":
                v = v * 0.01 + 1  # a product of thousands of terms that stays finite
            if name in ("any", "all"):
                v = v > 0.5
            return v

        def reduce(x, y, name=name):
            return getattr(terms(x, y), name)()  # noqa: B023

        dense = reduce(a, b)
        strided = reduce(wide[::2], b)
        unfused = with_fusion(False, lambda: to_numpy(reduce(a, b)))  # noqa: B023
        expected = reduce(a_np, b_np)
        if name in ("sum", "prod") and kind in "fc":
            # A GPU's fused and unfused reductions add in different orders (testing.md): the same
            # bits on the CPU only.
            same = assert_exact if device.type == "cpu" else _within_rounding(dtype)
            same(dense, to_numpy(strided))
            same(dense, unfused)
            # A sum's error scales with its terms, not its result (near zero after cancellation).
            atol = sum_atol(terms(a_np, b_np)) if name == "sum" else None
            _within_rounding(dtype, atol)(dense, expected)
        else:
            assert_exact(dense, to_numpy(strided))
            assert_exact(dense, unfused)
            assert_exact(dense, expected)
    # A reduction of a 2-d chain over every axis, and its value read by the host.
    m_np = random_values(rng, (n, 3), dtype, low=-2, high=2)
    m = to_device(m_np, device)
    same = assert_exact if device.type == "cpu" or kind not in "fc" else _within_rounding(dtype)
    same((m * 2).sum(), to_numpy((m.T * 2).T.sum()))
    _within_rounding(dtype, sum_atol(m_np * 2))(complex((m * 2).sum()), complex((m_np * 2).sum()))


def _within_rounding(dtype, atol=None):
    rtol = 1e-4 if dtype in (np.float32, np.complex64) else 1e-10
    return lambda got, expected: assert_matches(got, expected, rtol=rtol, atol=atol)


def test_small_groups_report_the_operation_that_raised(device):
    # The interpreter attributes IEEE flags per step, as the block executor does: exp overflows,
    # not the add after it. A GPU's kernels have no status flags: nothing is reported there (D63).
    import warnings

    for n in (3, 64, 1000):
        x = np.full(n, 1000.0)
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            ap.asnumpy(ap.exp(to_device(x, device) * 2.0) + 1.0)
        expected = ["overflow encountered in exp"] if device.type == "cpu" else []
        assert [str(w.message) for w in got] == expected


SELECTIONS = {
    "strided": (slice(None, None, 2), slice(1, None, 3)),
    "negative": (slice(None, None, -2), slice(None, None, -1)),
    "column": (slice(None), 5),
    "0-d": (3, 5),
}


@pytest.mark.parametrize("layout", sorted(SELECTIONS))
def test_small_groups_read_and_write_any_layout(device, rng, layout):
    x_np = random_values(rng, (6, 8), np.float64)
    y_np = random_values(rng, (6, 8), np.float64)
    x, y = to_device(x_np, device), to_device(y_np, device)
    sel = SELECTIONS[layout]
    for a, b in ((x_np, y_np), (x, y)):
        b[sel] = a[sel] * 2 + b[sel]
        b[:4, :4] = a[:4, :4].T - b[:4, :4]
    assert_exact(y, y_np)
    # A broadcast operand of a small group.
    assert_matches(x[0] + x[:, :1] * 2, x_np[0] + x_np[:, :1] * 2)


def test_small_groups_with_generators_match_numpy(device):
    assert_exact(ap.arange(10) * 2 + 1, np.arange(10) * 2 + 1)
    assert_exact(ap.arange(3.0)[::-1] * ap.arange(3.0), np.arange(3.0)[::-1] * np.arange(3.0))


def assert_element(got, expected, device):
    """A row as NumPy's; an element NumPy's scalar on the CPU, a 0-d array on a GPU."""
    if isinstance(expected, np.generic) and device.type == "cpu":
        assert type(got) is type(expected) and got == expected
    else:
        assert_exact(got, np.asarray(expected))


@pytest.mark.parametrize("shape", [(4,), (3, 2), (2, 0), (0, 3), (5, 1, 2)])
def test_iteration_yields_numpy_rows(device, rng, shape):
    x_np = random_values(rng, shape, np.int32)
    x = to_device(x_np, device)
    rows = list(x)
    assert len(rows) == len(x_np)
    for got, expected in zip(rows, x_np, strict=True):
        assert_element(got, expected, device)
    it = iter(x)
    assert iter(it) is it
    assert len(list(it)) == shape[0] and list(it) == []


def test_iteration_takes_each_row_when_the_loop_asks(device):
    # A write inside the loop shows in the elements not yet taken, and rows are views.
    x = ap.asarray(np.arange(4.0))
    seen = []
    for v in x:
        seen.append(float(v))
        x[2] = 10.0
    assert seen == [0.0, 1.0, 10.0, 3.0]
    m = ap.asarray(np.zeros((2, 3)))
    for row in m:
        row += 1
    assert_exact(m, np.ones((2, 3)))
    a, b = ap.asarray(np.array([[1, 2], [3, 4]]))[:, ::-1].T
    assert_exact(a, np.array([2, 4]))
    assert_exact(b, np.array([1, 3]))


def test_iteration_over_a_0d_array_raises_as_numpy(device):
    with pytest.raises(TypeError, match="0-d"):
        iter(ap.asarray(1.5))


@pytest.mark.parametrize(
    "dtypes",
    [
        (np.float64, np.float64),
        (np.float32, np.float64),
        (np.int32, np.float32),
        (np.bool_, np.int8),
    ],
)
def test_array_of_a_list_of_0d_arrays_matches_numpy(device, rng, dtypes):
    parts_np = [random_values(rng, (), dt) for dt in dtypes]
    parts = [to_device(p, device) for p in parts_np]
    c = parts[0] * parts[1]
    c_np = parts_np[0] * parts_np[1]
    assert_exact(ap.array([c, parts[1]]), np.array([c_np, parts_np[1]]))
    assert_exact(ap.asarray((parts[0], parts[1], c)), np.asarray((parts_np[0], parts_np[1], c_np)))


def test_array_of_a_list_of_arrays_checks_shapes_and_copy(device):
    a, b = ap.asarray(np.ones(2)), ap.asarray(np.ones(3))
    with pytest.raises(ValueError, match="shape"):
        ap.array([a, b])
    with pytest.raises(ValueError, match="copy"):
        ap.asarray([a, a], copy=False)
    assert_exact(ap.array([a, a]), np.ones((2, 2)))
    assert_exact(ap.array([a, a], dtype=np.int8), np.ones((2, 2), np.int8))


@pytest.mark.parametrize("key", [2**70, -(2**70)])
def test_integer_indices_beyond_64_bits_raise_index_error(device, key):
    x = ap.asarray(np.arange(5))
    with pytest.raises(IndexError, match="are valid indices"):  # NumPy's message
        x[key]
    with pytest.raises(IndexError, match="are valid indices"):
        x[key] = 1


def test_python_ints_numpy_ints_and_bools_index_as_numpy(device):
    x_np = np.arange(12).reshape(3, 4)
    x = ap.asarray(x_np)
    assert_element(x[1, -1], x_np[1, -1], device)
    assert_element(x[np.int64(2), np.int8(-2)], x_np[np.int64(2), np.int8(-2)], device)
    assert_exact(x[True], x_np[True])
    assert_exact(x[2, 1:-1], x_np[2, 1:-1])
