"""Results laid out as NumPy lays them out where it matters to users: new arrays from sort,
argsort and the scans are C-contiguous along any axis, so a reshape of them is a view and writes
through it land."""

import numpy as np
import pytest

import accelpy as ap
from helpers import random_values, to_device

OPS = {
    "sort": lambda m, x, ax: m.sort(x, axis=ax),
    "argsort": lambda m, x, ax: m.argsort(x, axis=ax),
    "cumsum": lambda m, x, ax: m.cumsum(x, axis=ax),
    "cumprod": lambda m, x, ax: m.cumprod(x, axis=ax),
    "cumsum int8": lambda m, x, ax: m.cumsum(x.astype(np.int8), axis=ax),
    "cumulative_sum": lambda m, x, ax: (m.cumulative_sum(x, axis=ax) if m is ap
                                        else np.cumulative_sum(x, axis=ax)),
}


def _flags(a):
    return (a.flags.c_contiguous, a.strides)


@pytest.mark.parametrize("name", list(OPS))
@pytest.mark.parametrize("axis", [0, 1, -1, 2])
def test_sort_and_scan_results_are_c_contiguous(rng, device, name, axis):
    x_np = rng.permutation(60).reshape(4, 5, 3) % 7 + 1 + rng.random((4, 5, 3))
    expected = OPS[name](np, x_np, axis)
    got = OPS[name](ap, to_device(x_np), axis)
    np.testing.assert_array_equal(ap.asnumpy(got), expected)
    assert got.flags.c_contiguous == expected.flags.c_contiguous
    assert got.strides == expected.strides


def test_reshape_of_sorted_along_axis_0_is_a_view(rng, device):
    x = to_device(rng.standard_normal((4, 5)))
    s = ap.sort(x, axis=0)
    r = s.reshape(5, 4)
    r[0, 0] = 123.0
    assert float(s[0, 0]) == 123.0
    c = ap.cumsum(x, axis=0)
    c.reshape(20)[3] = -7.0
    assert float(c[0, 3]) == -7.0


# ---- elementwise results and gathers: NumPy's order='K' ------------------------------------


def _random_view(rng, shape):
    """A recipe for a view of `shape` (length-1 axes included) of a fresh C-ordered array: its
    axes permuted, some reversed, some strided."""
    nd = len(shape)
    perm = [int(p) for p in rng.permutation(nd)]
    steps = [int(rng.choice([1, 1, 2, -1, -2])) for _ in range(nd)]
    base = [0] * nd
    for i, p in enumerate(perm):
        base[p] = shape[i] * abs(steps[i])
    return base, perm, steps


def _make(m, values, recipe, dtype):
    base, perm, steps = recipe
    full = values[: int(np.prod(base))].reshape(base).astype(dtype)
    x = full if m is np else to_device(full)
    return x.transpose(perm)[tuple(slice(None, None, s) for s in steps)]


ELEMENTWISE = {
    "abs": (1, lambda m, x: m.abs(x)),
    "abs ** 1.5": (1, lambda m, x: m.abs(x) ** 1.5),
    "x + 1": (1, lambda m, x: x + 1),
    "sqrt int8 (cast)": (1, lambda m, x: m.sqrt(x.astype(np.int8))),
    "x + y": (2, lambda m, x, y: x + y),
    "x * y float32 (cast)": (2, lambda m, x, y: x * y.astype(np.float32)),
    "x - y[0] (broadcast)": (2, lambda m, x, y: x - y[:1]),
    "where": (3, lambda m, c, x, y: m.where(c > 0.5, x, y)),
}


@pytest.mark.parametrize("name", list(ELEMENTWISE))
@pytest.mark.parametrize("ndim", [2, 3, 4])
def test_elementwise_result_layout_is_numpys(rng, device, name, ndim):
    arity, fn = ELEMENTWISE[name]
    values = rng.random(4096)
    for _ in range(40):
        shape = [int(n) for n in rng.integers(1, 4, ndim)]
        recipes = [_random_view(rng, shape) for _ in range(arity)]
        xs_np = [_make(np, values, r, np.float64) for r in recipes]
        xs_ap = [_make(ap, values, r, np.float64) for r in recipes]
        expected, got = fn(np, *xs_np), fn(ap, *xs_ap)
        where = f"{name} over {[x.strides for x in xs_np]} of shape {shape}"
        assert got.strides == expected.strides, where
        assert got.flags.c_contiguous == expected.flags.c_contiguous, where
        assert got.flags.f_contiguous == expected.flags.f_contiguous, where
        np.testing.assert_allclose(ap.asnumpy(got.ravel(order="K")), expected.ravel(order="K"))


def test_transposed_result_reshapes_as_a_view(device):
    a_np = np.arange(20.0).reshape(4, 5)
    a = to_device(a_np)
    t = a.T + 1
    assert t.strides == (a_np.T + 1).strides
    k = t.ravel(order="K")
    np.testing.assert_array_equal(ap.asnumpy(k), (a_np.T + 1).ravel(order="K"))
    k[0] = -1.0  # a view, as NumPy's: the write reaches t
    assert float(t[0, 0]) == -1.0
    r = t.T.reshape(20)  # C-contiguous in NumPy: a view
    r[1] = -2.0
    assert float(t[1, 0]) == -2.0


def test_fused_outputs_keep_their_layouts(device):
    """One group writing several results of a transposed input: each has NumPy's strides."""
    a_np = np.arange(24.0).reshape(2, 3, 4).transpose(2, 0, 1)
    a = to_device(np.arange(24.0).reshape(2, 3, 4)).transpose(2, 0, 1)
    x, y = a * 2, a + 0.5
    z = x - y
    ap.eval(x, y, z)
    for got, expected in [(x, a_np * 2), (y, a_np + 0.5), (z, a_np * 2 - (a_np + 0.5))]:
        assert got.strides == expected.strides
        np.testing.assert_array_equal(ap.asnumpy(got), expected)


@pytest.mark.parametrize("axis", [0, 1, 2, None])
def test_reduction_of_a_transposed_chain_is_the_same_fused_or_not(rng, device, axis):
    x = to_device(rng.standard_normal((40, 30, 20))).transpose(2, 0, 1)
    fused = ap.asnumpy(((x * 1.5) ** 2).sum(axis=axis))
    was = ap._core._fusion_enabled()
    ap._core._set_fusion(False)
    try:
        unfused = ap.asnumpy(((x * 1.5) ** 2).sum(axis=axis))
    finally:
        ap._core._set_fusion(was)
    np.testing.assert_array_equal(fused, unfused)


GATHERS = ["a[:, [0, 2]]", "a[:, [[0, 2], [1, 1]]]", "a[:, :, [0, 2]]", "a[[1, 2]]",
           "a[:, [0, 1], [1, 2]]", "a[[0, 1], :, [1, 2]]", "a.T[:, [0, 2]]", "a[..., [0, 2]]",
           "a[:, [True, False, True, False, True]]", "a[1:3, [0, 2]]", "a[:, ::-1][:, [0, 2]]",
           "a[:, [1]]", "a[::-1, [2, 0], ::2]", "a.transpose(1, 0, 2)[[0, 1]]"]


@pytest.mark.parametrize("expr", GATHERS)
def test_gather_result_layout_is_numpys(device, expr):
    a_np = np.arange(120.0).reshape(4, 5, 6)
    expected = eval(expr, {"a": a_np})
    got = eval(expr, {"a": to_device(a_np)})
    assert got.strides == expected.strides
    np.testing.assert_array_equal(ap.asnumpy(got), expected)


# ---- every result's strides are NumPy's: memory order kept, length-1 axes, empty results ----

# (base shape, view of it): the input layouts, built the same way from the same values.
INPUTS = {
    "0d": ((), "b"),
    "C": ((4, 5, 6), "b"),
    "F": ((6, 5, 4), "b.transpose(2, 1, 0)"),
    "permuted": ((6, 4, 5), "b.transpose(1, 2, 0)"),
    "negative": ((4, 5, 6), "b[::-1, :, ::-2]"),
    "strided": ((4, 5, 6), "b[:, 1:4, ::2]"),
    "length-1": ((1, 6, 1), "b"),
    "length-1 F": ((3, 1, 2), "b.T"),
    "row T": ((5, 1), "b.T"),
    "broadcast": ((6,), "xp.broadcast_to(b, (4, 5, 6))"),
    "empty": ((3, 0, 2), "b"),
    "empty T": ((2, 0, 3), "b.T"),
}

RESULTS = {
    "sort 0": lambda xp, a: xp.sort(a, axis=0),
    "sort -1": lambda xp, a: xp.sort(a, axis=-1),
    "sort None": lambda xp, a: xp.sort(a, axis=None),
    "argsort 0": lambda xp, a: xp.argsort(a, axis=0),
    "partition 0": lambda xp, a: xp.partition(a, 0, axis=0),
    "cumsum 0": lambda xp, a: xp.cumsum(a, axis=0),
    "cumsum -1": lambda xp, a: xp.cumsum(a, axis=-1),
    "cumprod 1": lambda xp, a: xp.cumprod(a, axis=1),
    "sum 0 keepdims": lambda xp, a: xp.sum(a, axis=0, keepdims=True),
    "sum 0": lambda xp, a: xp.sum(a, axis=0),
    "sum -1 keepdims": lambda xp, a: xp.sum(a, axis=-1, keepdims=True),
    "sum keepdims": lambda xp, a: xp.sum(a, keepdims=True),
    "max 1 keepdims": lambda xp, a: xp.max(a, axis=1, keepdims=True),
    "any (0, 2) keepdims": lambda xp, a: xp.any(a, axis=(0, 2), keepdims=True),
    "mean 0 keepdims": lambda xp, a: xp.mean(a, axis=0, keepdims=True),
    "var 1": lambda xp, a: xp.var(a, axis=1),
    "argmax 0 keepdims": lambda xp, a: xp.argmax(a, axis=0, keepdims=True),
    "concatenate 0": lambda xp, a: xp.concatenate([a, a], axis=0),
    "concatenate -1": lambda xp, a: xp.concatenate([a, a], axis=-1),
    "concatenate None": lambda xp, a: xp.concatenate([a, a], axis=None),
    "stack 0": lambda xp, a: xp.stack([a, a], axis=0),
    "stack -1": lambda xp, a: xp.stack([a, a], axis=-1),
    "expand_dims 0": lambda xp, a: xp.expand_dims(a, 0),
    "expand_dims 1": lambda xp, a: xp.expand_dims(a, 1),
    "expand_dims -1": lambda xp, a: xp.expand_dims(a, -1),
    "broadcast_to": lambda xp, a: xp.broadcast_to(a, (2, *a.shape)),
    "broadcast_to (1,)": lambda xp, a: xp.broadcast_to(a, (1, *a.shape)),
    "where": lambda xp, a: xp.where(a > 3, a, a * 2),
    "a + 1": lambda xp, a: a + 1,
    "moveaxis of a result": lambda xp, a: xp.moveaxis(a * 2, 0, -1),
    "reshape of a result": lambda xp, a: (a * 2).reshape(a.shape[::-1]),
    "reversed view of a result, flattened": lambda xp, a: (a * 2)[::-1].reshape(-1),
    "new axis on a result": lambda xp, a: (a + 1)[..., None],
    "flatten of a result": lambda xp, a: (a * 2).flatten(),
    "max -2": lambda xp, a: xp.max(a, axis=-2),
    "a >= a[..., :1]": lambda xp, a: a >= a[..., :1],
    "a + 0-d": lambda xp, a: a + xp.asarray(a.dtype.type(2)),
    # np.copy, np.array and the *_like functions keep the memory order (order 'K')
    "copy": lambda xp, a: xp.copy(a),
    "copy F": lambda xp, a: xp.copy(a, order="F"),
    "copy A": lambda xp, a: xp.copy(a, order="A"),
    "method copy": lambda xp, a: a.copy(),
    "array": lambda xp, a: xp.array(a),
    "empty_like": lambda xp, a: xp.empty_like(a),
    "zeros_like": lambda xp, a: xp.zeros_like(a),
    "ones_like int8": lambda xp, a: xp.ones_like(a, dtype=np.int8),
    "full_like": lambda xp, a: xp.full_like(a, 3),
    "nan_to_num": lambda xp, a: xp.nan_to_num(a),  # NumPy fixes an order-K copy in place
    "zeros_like A": lambda xp, a: xp.zeros_like(a, order="A"),
    "zeros_like other shape": lambda xp, a: xp.zeros_like(a, shape=(2, 3)),
    "roll 1 axis 0": lambda xp, a: xp.roll(a, 1, axis=0),
    "roll 2 axis -1": lambda xp, a: xp.roll(a, 2, axis=-1),
    "roll 0 axis 0": lambda xp, a: xp.roll(a, 0, axis=0),
    "roll 1": lambda xp, a: xp.roll(a, 1),
    "tile 2": lambda xp, a: xp.tile(a, 2),
    "tile (2, 1)": lambda xp, a: xp.tile(a, (2, 1)),
    "tile 1": lambda xp, a: xp.tile(a, 1),
    "gather [[0, 0]]": lambda xp, a: a[[0, 0]],
    "gather [..., [1, 0]]": lambda xp, a: a[..., [1, 0]],
    "gather [:, [[0], [0]]]": lambda xp, a: a[:, [[0], [0]]],
}


def _input(xp, base_np, expr, device):
    b = base_np if xp is np else to_device(base_np, device)
    return eval(expr, {"b": b, "xp": xp})


@pytest.mark.parametrize("dtype", [np.float64, np.int16, np.float32])
@pytest.mark.parametrize("layout", list(INPUTS))
@pytest.mark.parametrize("name", list(RESULTS))
def test_result_strides_and_flags_are_numpys(rng, device, name, layout, dtype):
    shape, expr = INPUTS[layout]
    base = random_values(rng, shape, dtype, low=-20, high=20)
    a_np, a = _input(np, base, expr, device), _input(ap, base, expr, device)
    try:
        expected = np.asarray(RESULTS[name](np, a_np))
    except Exception as e:  # noqa: BLE001 - accelpy must raise the same type
        with pytest.raises(type(e)):
            RESULTS[name](ap, a)
        return
    got = RESULTS[name](ap, a)
    where = f"{name} of {layout} {a_np.strides}"
    assert got.shape == expected.shape, where
    assert got.strides == expected.strides, where
    assert bool(got.flags.c_contiguous) == expected.flags.c_contiguous, where
    assert bool(got.flags.f_contiguous) == expected.flags.f_contiguous, where
    if name == "empty_like":  # its values are whatever the memory held
        return
    values = ap.asnumpy(got)
    if name.startswith("partition"):  # only the kth element's place is promised
        values, expected = np.sort(values, axis=0), np.sort(expected, axis=0)
    # float32 sums and variances round differently in another order: relative to their terms
    scale = 1e-4 * (1 + float(np.abs(base).max(initial=0)) ** 2 * base.size)
    np.testing.assert_allclose(values, expected, rtol=1e-12 if dtype != np.float32 else 1e-4,
                               atol=0 if dtype != np.float32 else scale)


@pytest.mark.parametrize("layout", ["C", "F", "permuted", "negative", "length-1 F", "broadcast"])
@pytest.mark.parametrize("name", ["sort 0", "cumsum 0", "concatenate 0", "stack -1",
                                  "sum -1 keepdims", "expand_dims 1", "mean 0 keepdims"])
def test_writes_through_a_reshaped_result_land_as_in_numpy(rng, device, name, layout):
    """A reshape of a result is a view exactly when NumPy's is: a write through it reaches the
    result, or not, in both libraries."""
    shape, expr = INPUTS[layout]
    base = random_values(rng, shape, np.float64)
    expected = RESULTS[name](np, _input(np, base, expr, device))
    got = RESULTS[name](ap, _input(ap, base, expr, device))
    try:
        expected.reshape(-1)[0] = 1234.5
    except ValueError:  # a read-only view (of a broadcast input)
        with pytest.raises(ValueError):
            got.reshape(-1)[0] = 1234.5
        return
    got.reshape(-1)[0] = 1234.5
    # The write lands exactly where NumPy's does; sums and means elsewhere round in the
    # device's order (a GPU's differs from NumPy's pairwise one).
    values = ap.asnumpy(got)
    np.testing.assert_array_equal(values == 1234.5, expected == 1234.5)
    np.testing.assert_allclose(values, expected, rtol=1e-13, atol=0)
