"""Indexing, in-place and unary operators through the type's slots (mp_subscript,
mp_ass_subscript, nb_inplace_*, nb_negative, ...), which the bindings fill directly: views alias
as NumPy's, the methods agree with the slots, errors are NumPy's, and subclasses that override
a method are still called."""

import operator
from contextlib import nullcontext

import numpy as np
import pytest

import accelpy as ap
from helpers import (
    VIEW_LAYOUTS,
    assert_exact,
    make_array,
    random_values,
    to_device,
    to_numpy,
    with_fusion,
)

# Basic indices of a (6, 5) grid: what the corpus's loops take (rows, columns, interiors,
# reversed, Ellipsis and newaxis, 0-d and empty results).
KEYS = [
    np.s_[3], np.s_[-1], np.s_[:, 3], np.s_[1:-1, 1:-1], np.s_[1:-1, 0], np.s_[::-1],
    np.s_[::-2, 1::2], np.s_[...], np.s_[None, 1], np.s_[..., None], np.s_[2, ...],
    np.s_[2:2], np.s_[:, 4:1], np.s_[3, 2:], np.s_[1, None, ::-1],
]  # fmt: skip
INPLACE = [operator.iadd, operator.isub, operator.imul, operator.itruediv,
           operator.ifloordiv, operator.imod, operator.iand, operator.ior, operator.ixor,
           operator.ilshift, operator.irshift]  # fmt: skip
UNARY = [operator.neg, operator.pos, abs, operator.invert]


@pytest.mark.parametrize("key", KEYS, ids=repr)
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.complex128, np.bool_])
def test_views_alias_as_numpy(device, rng, key, dtype):
    values = random_values(rng, (6, 10), dtype)
    whole = to_device(values)
    # A base that owns its data, and a reversed strided view (views of it name its base).
    for base_np, base, owner in ((values[:, :5].copy(), None, None),
                                 (values.copy()[::-1, ::2], whole[::-1, ::2], whole)):  # fmt: skip
        base = to_device(base_np) if base is None else base
        owner = base if owner is None else owner
        view, view_np = base[key], base_np[key]
        assert_exact(view, view_np)
        assert view.base is owner and view is not base
        # A write through the view shows in the base, and a write to the base in the view.
        fill = random_values(rng, view_np.shape, dtype)
        view[...] = to_device(fill)
        view_np[...] = fill
        assert_exact(base, base_np)
        base[...] = to_device(base_np[::-1].copy())
        base_np[...] = base_np[::-1].copy()
        assert_exact(view, view_np)


@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_slots_over_layouts(device, rng, layout):
    a_np, a = make_array(rng, layout, np.float64)
    if a.ndim:
        assert_exact(a[::-1], a_np[::-1])
        assert_exact(a[..., None], a_np[..., None])
    if a.ndim > 1 and a.shape[0]:
        assert_exact(a.__getitem__(0), a_np.__getitem__(0))
    assert_exact(-a, -a_np)
    assert_exact(abs(a), abs(a_np))
    assert_exact(a[...], a_np[...])


def test_getitem_slot_and_method_agree(device, rng):
    x_np = random_values(rng, (6, 5), np.float32)
    x = to_device(x_np)
    for key in KEYS:
        assert_exact(x.__getitem__(key), x_np[key])
        assert_exact(ap.ndarray.__getitem__(x, key), x_np[key])


@pytest.mark.parametrize("fusion", [True, False])
def test_setitem_slot_writes_views_as_numpy(device, rng, fusion):
    def run():
        x_np = random_values(rng, (7, 7), np.float64)
        x = to_device(x_np)
        for key, value in [(np.s_[1:-1, 0], lambda g: -g[1:-1, 1]),
                           (np.s_[0, 1:-1], lambda g: g[1, 1:-1]),
                           (np.s_[::-1, 2], lambda g: g[:, 3]),
                           (np.s_[2], lambda g: g[3] * 2),
                           (np.s_[...], lambda g: g.T + 1),
                           (np.s_[3, 3], lambda g: g[4, 4])]:  # fmt: skip
            x[key] = value(x)
            x_np[key] = value(x_np)
        return to_numpy(x), x_np

    got, expected = with_fusion(fusion, run)
    np.testing.assert_array_equal(got, expected)


def test_setitem_method_agrees(device):
    x = to_device(np.zeros((3, 4)))
    x.__setitem__((1, slice(None)), 2.0)
    ap.ndarray.__setitem__(x, (slice(None), 0), 5.0)
    expected = np.zeros((3, 4))
    expected[1, :] = 2.0
    expected[:, 0] = 5.0
    np.testing.assert_array_equal(to_numpy(x), expected)


def test_indexing_errors_are_numpy_s(device):
    x, x_np = to_device(np.arange(6.0)), np.arange(6.0)
    for key in [10, -7, "x", 1.5, (0, 0), [7]]:
        with pytest.raises(Exception) as np_exc:  # noqa: PT011 - NumPy's type, compared next
            x_np[key]
        with pytest.raises(type(np_exc.value)):
            x[key]
        with pytest.raises(type(np_exc.value)):
            x[key] = 1.0
    with pytest.raises(ValueError, match="cannot delete array elements"):
        del x[0]
    with pytest.raises(ValueError, match="could not broadcast"):
        x[:2] = to_device(np.ones(3))
    with pytest.raises(TypeError):
        x[0] = "x"
    np.testing.assert_array_equal(to_numpy(x), x_np)  # the failed writes wrote nothing


@pytest.mark.parametrize("op", INPLACE, ids=lambda f: f.__name__)
def test_inplace_slots_through_views(device, rng, op):
    base_np = random_values(rng, (4, 6), np.int32, low=1, high=5)
    other_np = random_values(rng, (6,), np.int32, low=1, high=3)
    if op is operator.itruediv:
        base_np = base_np.astype(np.float64)
    base, other = to_device(base_np), to_device(other_np)
    row, row_np = base[2], base_np[2]
    got = op(row, other)
    op(row_np, other_np)
    assert got is row  # in place: the same object
    assert_exact(base, base_np)
    # a[i] op= b: a view, its in-place operator, then the write back (NumPy's order).
    for a, b in ((base, other), (base_np, other_np)):
        a[1] = op(a[1], b)
    assert_exact(base, base_np)
    # The method agrees with the slot.
    getattr(base, f"__{op.__name__}__")(other)
    op(base_np, other_np)
    assert_exact(base, base_np)


def test_inplace_slot_errors_and_fallbacks(device):
    a = to_device(np.arange(6, dtype=np.int32))
    with pytest.raises(TypeError, match="same_kind"):
        a += 1.5
    with pytest.raises(ValueError, match="non-broadcastable output"):
        a += to_device(np.ones((2, 6), dtype=np.int32))
    with pytest.raises(TypeError, match="unsupported operand type"):
        a += "x"
    np.testing.assert_array_equal(to_numpy(a), np.arange(6))
    # An element of a CUDA array is a 0-d scalar: += makes a new value, as NumPy's scalars do.
    t = to_device(np.arange(3.0))[1]
    before = t
    t += 1.5
    assert float(t) == 2.5 and (not isinstance(before, ap.ndarray) or t is not before)


@pytest.mark.parametrize("op", UNARY, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.complex64])
def test_unary_slots(device, rng, op, dtype):
    if op is operator.invert and dtype != np.int16:
        dtype = np.bool_
    x_np = random_values(rng, (5, 4), dtype)[::-1, 1:]
    x = to_device(np.ascontiguousarray(x_np[::-1]))[::-1]
    assert_exact(op(x), op(x_np))
    assert_exact(getattr(x, f"__{op.__name__.strip('_')}__")(), op(x_np))
    with pytest.raises(TypeError):  # NumPy's error for a bool negative, through the method
        -to_device(np.ones(2, bool))


def test_uninitialized_instance_raises_as_the_methods(device):
    # An instance made by __new__ alone holds no array: the slots answer as the methods do.
    x = ap.ndarray.__new__(ap.ndarray)

    def store():
        x[0] = 1.0

    for slot, method in [(lambda: x[0], lambda: ap.ndarray.__getitem__(x, 0)),
                         (lambda: -x, lambda: ap.ndarray.__neg__(x)),
                         (store, lambda: ap.ndarray.__setitem__(x, 0, 1.0))]:  # fmt: skip
        with pytest.warns(RuntimeWarning), pytest.raises(Exception) as by_method:  # noqa: PT011
            method()
        with pytest.warns(RuntimeWarning), pytest.raises(type(by_method.value)):
            slot()


def test_inplace_slot_python_error_is_raised_once(device):
    # A floating-point error raised by the in-place write comes out of the slot as it is (the
    # write is not made again), leaving the array as the method does. A GPU's kernels report no
    # floating-point errors (the user guide): there both write and agree.
    by_slot = to_device(np.array([1.0, 2.0, 1e308]))
    by_method = to_device(np.array([1.0, 2.0, 1e308]))

    def raises():
        return pytest.raises(FloatingPointError) if device.type == "cpu" else nullcontext()

    with np.errstate(over="raise"), ap.errstate(over="raise"):
        with raises():
            by_slot *= 10
        with raises():
            by_method.__imul__(10)
    np.testing.assert_array_equal(to_numpy(by_slot), to_numpy(by_method))
