"""Basic indexing against NumPy: integers, slices with any step, Ellipsis and None, reading
(views that share memory) and assignment (the value broadcast, cast, and allowed extra
leading length-1 dimensions), including through views of pending (lazy) results."""

import numpy as np
import pytest

import accelpy as ap
from helpers import (
    ALL_DTYPES,
    VIEW_LAYOUTS,
    assert_matches,
    assert_same_outcome,
    make_array,
    random_values,
    to_device,
)


def random_slice(rng, n):
    def bound():
        return None if rng.random() < 0.25 else int(rng.integers(-n - 2, n + 3))
    step = [None, 1, 2, 3, -1, -2, -3, n + 1 if n else 5][rng.integers(8)]
    lo, hi = bound(), bound()
    if rng.random() < 0.6 and lo is not None and hi is not None:
        # Mostly non-empty: order the bounds the way the step walks (negative ones too).
        lo, hi = sorted((lo, hi), key=lambda b: b + n if b < 0 else b)
        if step is not None and step < 0:
            lo, hi = hi, lo
    return slice(lo, hi, step)


def random_key(rng, shape):
    """A random basic index for `shape`: ints, slices, at most one Ellipsis, Nones."""
    key = []
    dims = list(shape)
    use_ellipsis = rng.random() < 0.3 and dims
    ellipsis_at = int(rng.integers(0, len(dims) + 1)) if use_ellipsis else -1
    skipped = int(rng.integers(0, len(dims) + 1)) if use_ellipsis else 0
    i = 0
    while i < len(dims):
        if i == ellipsis_at:
            key.append(Ellipsis)
            i += skipped
            ellipsis_at = -1
            continue
        if rng.random() < 0.15:
            key.append(None)
        n = dims[i]
        if n and rng.random() < 0.3:
            key.append(int(rng.integers(-n, n)))
        elif rng.random() < 0.85:
            key.append(random_slice(rng, n))
        else:
            break  # leave the trailing dimensions implicit
        i += 1
    if ellipsis_at >= 0:
        key.append(Ellipsis)
    if rng.random() < 0.1:
        key.append(None)
    return tuple(key) if len(key) != 1 or rng.random() < 0.5 else key[0]


@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_read_random_keys(layout, device, rng):
    for dtype in (np.float64, np.int16, np.bool_, np.complex64):
        a_np, a = make_array(rng, layout, dtype, device)
        for _ in range(40):
            key = random_key(rng, a_np.shape)
            try:
                expected = a_np[key]
            except IndexError:  # the generator can place an Ellipsis after axis-bound integers
                with pytest.raises(IndexError):
                    a[key]
                continue
            res = a[key]
            assert_matches(res, expected)
            # A view, except where NumPy gives an independent scalar (an integer per axis).
            if isinstance(expected, np.ndarray):
                assert res._storage_id() == a._storage_id(), key
            elif device.type == "cpu":  # NumPy's scalar itself
                assert type(res) is type(expected), key
            else:  # a 0-d copy on the device
                assert res._storage_id() != a._storage_id(), key


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_read_every_dtype(dtype, device, rng):
    a_np, a = make_array(rng, "strided3d", dtype, device)
    for key in [(1, slice(None, None, -1)), (Ellipsis, -1), (None, 0, None, slice(1, None, 2)),
                (slice(None, None, -2), Ellipsis, None), (-1, -1, -1), ()]:
        assert_matches(a[key], a_np[key])


def test_read_errors(device, rng):
    a_np, a = make_array(rng, "3d", np.float32, device)
    for key in [(0, 0, 0, 0), 5, -3, (0, 4), (Ellipsis, Ellipsis), (slice(None, None, 0),), 1.5,
                (0, "a"), (None, 0, 0, 0, 0)]:
        assert assert_same_outcome(lambda: a_np[key], lambda: a[key]) is None, key  # noqa: B023
    z_np, z = make_array(rng, "0d", np.float32, device)
    assert assert_same_outcome(lambda: z_np[0], lambda: z[0]) is None
    assert_matches(z[...], z_np[...])
    assert_matches(z[None], z_np[None])
    assert_matches(z[()], z_np[()])


def test_extreme_slices(device, rng):
    a_np, a = make_array(rng, "2d", np.int64, device)
    big = 2**70
    for key in [np.s_[:big], np.s_[-big:], np.s_[::2**62], np.s_[::-(2**63) + 1],
                np.s_[::-(2**63)], np.s_[3::-big], np.s_[-big:big:big], np.s_[:, big:-big:-1],
                np.s_[:, ::-(2**62)]]:
        assert_matches(a[key], a_np[key])
    for key in [np.s_[1.5:], np.s_[::0], np.s_["a":]]:
        assert assert_same_outcome(lambda: a_np[key], lambda: a[key]) is None  # noqa: B023


def test_numpy_integers_and_index_objects(device, rng):
    a_np, a = make_array(rng, "2d", np.float32, device)
    for key in [np.int64(2), (np.uint8(1), np.int32(-1)), slice(np.int16(1), np.int64(4)),
                ap.asarray(np.array(3)), np.array(2), (np.array(3, np.uint8)[()], 1)]:
        k_np = ap.asnumpy(key).item() if isinstance(key, ap.ndarray) else key
        assert_matches(a[key], a_np[k_np])


@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_assign_random_keys(layout, device, rng):
    """a[key] = value for scalars, same-shape arrays, broadcast values, extra leading ones."""
    for dtype in (np.float32, np.int32, np.complex128, np.uint8):
        a_np, a = make_array(rng, layout, dtype, device)
        if not a_np.flags.writeable:
            with pytest.raises(ValueError):
                a[...] = 1
            continue
        for trial in range(30):
            key = random_key(rng, a_np.shape)
            try:
                shape = a_np[key].shape
            except IndexError:  # an Ellipsis after axis-bound integers (as in the read test)
                with pytest.raises(IndexError):
                    a[key] = 0
                continue
            kind = trial % 5
            if kind == 0:
                value = random_values(rng, (), dtype).item()
            elif kind == 1:
                value = random_values(rng, shape, dtype)
            elif kind == 2:  # broadcast: drop leading dims and set others to 1
                sub = tuple(1 if rng.random() < 0.5 else n for n in shape)
                value = random_values(rng, sub[int(rng.integers(0, len(sub) + 1)):], dtype)
            elif kind == 3:  # extra leading length-1 dimensions
                value = random_values(rng, (1, 1, *shape), dtype)
            else:  # another dtype (cast on assignment), as an accelpy array
                value = random_values(rng, shape, np.int8)
            outcome = assert_same_outcome(
                lambda: a_np.__setitem__(key, value),  # noqa: B023
                lambda: a.__setitem__(key, value if kind != 4  # noqa: B023
                                      else to_device(value, device)))  # noqa: B023
            if outcome is not None:
                assert_matches(a, a_np)


def test_assign_shape_errors(device, rng):
    a_np, a = make_array(rng, "2d", np.float64, device)
    for key, shape in [(slice(None), (5, 6)), (0, (2, 7)), (slice(1, 3), (3, 7)),
                       (slice(None), (2, 1, 7)), (0, (1, 1, 6))]:
        value = random_values(rng, shape, np.float64)
        assert assert_same_outcome(lambda: a_np.__setitem__(key, value),  # noqa: B023
                                   lambda: a.__setitem__(key, value)) is None  # noqa: B023
    assert_matches(a, a_np)


def test_assign_scalar_conversions(device, rng):
    u_np, u = make_array(rng, "1d", np.uint8, device)
    f_np, f = make_array(rng, "1d", np.float32, device)
    i_np, i = make_array(rng, "1d", np.int16, device)
    cases = [(u_np, u, 300), (u_np, u, -1), (u_np, u, 255), (i_np, i, 2.75), (i_np, i, -2.75),
             (i_np, i, True), (f_np, f, 2**70), (f_np, f, np.float64(1e40)), (i_np, i, 2**15),
             (f_np, f, np.int64(7)), (u_np, u, np.int64(300))]
    for x_np, x, value in cases:
        assert_same_outcome(lambda: x_np.__setitem__(slice(2, 5), value),  # noqa: B023
                            lambda: x.__setitem__(slice(2, 5), value))  # noqa: B023
        assert_matches(x, x_np)


def test_overlapping_assignment(device, rng):
    a_np, a = make_array(rng, "1d", np.int64, device)
    for dst, src in [(slice(1, None), slice(None, -1)), (slice(None, -1), slice(1, None)),
                     (slice(None, None, -1), slice(None)), (slice(0, 10, 2), slice(1, 11, 2))]:
        a_np[dst] = a_np[src]
        a[dst] = a[src]
        assert_matches(a, a_np)
    b_np, b = make_array(rng, "2d", np.float32, device)
    b_np[...] = b_np.T[:5, :5].sum() + b_np[::-1]
    b[...] = b.T[:5, :5].sum() + b[::-1]
    assert_matches(b, b_np, atol=1e-4)  # the float32 sum may differ from NumPy by an ulp
    c_np, c = make_array(rng, "2d", np.float32, device)
    c_np[1:, :] = c_np[:-1, :] * 2 + c_np[1:, :]
    c[1:, :] = c[:-1, :] * 2 + c[1:, :]
    assert_matches(c, c_np)


def test_mask_write_reads_an_overlapping_value_first(device, rng):
    """x[mask] = view of x reads the value before writing, as NumPy's slice and integer-array
    writes do (NumPy's own mask write reads it while writing: the user guide says so)."""
    for dtype in [np.int64, np.float32]:
        x_np, x = make_array(rng, "1d", dtype, device)
        middle = float(np.median(x_np))
        mask_np = x_np > middle
        expected = x_np.copy()
        expected[mask_np] = x_np[::-1].copy()[: int(mask_np.sum())]
        x[x > middle] = x[::-1][: int(mask_np.sum())]
        assert_matches(x, expected)


def test_views_share_memory(device, rng):
    a_np, a = make_array(rng, "3d", np.float64, device)
    views = [(np.s_[::-1, 1], None), (np.s_[..., ::2], None), (np.s_[1, None, :, -1], None)]
    for key, _ in views:
        v_np, v = a_np[key], a[key]
        # base -> view
        new = random_values(rng, a_np.shape, np.float64)
        a_np[...] = new
        a[...] = new
        assert_matches(v, v_np)
        # view -> base
        w = random_values(rng, v_np.shape, np.float64)
        v_np[...] = w
        v[...] = w
        assert_matches(a, a_np)
        # view of a view
        vv_np, vv = v_np[..., ::-1], v[..., ::-1]
        vv_np[...] = 3.5
        vv[...] = 3.5
        assert_matches(a, a_np)


@pytest.mark.usefixtures("deferred")  # counts what the deferred path does
def test_views_of_pending_results(device, rng):
    a_np, a = make_array(rng, "2d", np.float32, device)
    b = a * 2.0 + 1.0
    b_np = a_np * np.float32(2.0) + np.float32(1.0)
    assert b._is_pending()
    v, t = b[::2, ::-1], b.T
    v_np, t_np = b_np[::2, ::-1], b_np.T
    v[0] = 9.0  # writing through a view of a pending result computes the result first
    v_np[0] = 9.0
    assert_matches(b, b_np)
    assert_matches(t, t_np)
    c = a - 1.0
    c_np = a_np - np.float32(1.0)
    w = c[1:3]
    c[1, :] = -4.0  # writing the pending base is visible in views taken before
    c_np[1, :] = -4.0
    assert_matches(w, c_np[1:3])
    d = ap.sqrt(a * a)
    d_view = d[:, 2]
    d[:, 2] = d[:, 3]
    d_np = np.sqrt(a_np * a_np)
    d_np[:, 2] = d_np[:, 3]
    assert_matches(d_view, d_np[:, 2])
    assert_matches(d, d_np)


def test_pending_reader_sees_value_before_write(device, rng):
    """A pending result that reads an array is computed from the data as it was."""
    a_np, a = make_array(rng, "1d", np.float64, device)
    y = a * 3.0
    y_np = a_np * 3.0
    a[2:6] = 0.0
    a_np[2:6] = 0.0
    assert_matches(y, y_np)
    assert_matches(a, a_np)
    v = a[::3]
    z = v + 1.0
    a[...] = 5.0
    assert_matches(z, a_np[::3] + 1.0)


def test_readonly_views_reject_writes(device, rng):
    a_np, a = make_array(rng, "2d", np.float32, device)
    for ro in (ap.broadcast_to(a[0], (3, 7)), ap.broadcast_arrays(a, a[:1])[1]):
        with pytest.raises(ValueError):
            ro[0, 0] = 1.0
        with pytest.raises(ValueError):
            ro[...] = 2.0
    assert_matches(a, a_np)
