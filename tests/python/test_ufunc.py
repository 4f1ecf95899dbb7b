"""accelpy.ufunc against numpy.ufunc: the objects and their attributes, the call conventions
(positional and tuple out, where, dtype, casting, order, subok, signature), the methods
(reduce, accumulate, reduceat, outer, at) on fresh random data over dtypes, layouts and
devices, NumPy's own ufuncs dispatching to them, and NumPy's exceptions for bad input."""

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_matches, make_operands, random_values, sum_atol, to_device

NUMPY_UFUNCS = sorted(n for n in dir(np) if isinstance(getattr(np, n), np.ufunc))
# NumPy's generalized ufuncs, which accelpy has as functions (matmul, ...), and datetime's isnat.
NOT_UFUNCS = {"matmul", "matvec", "vecdot", "vecmat", "isnat"}
LAYOUTS = ["0d", "empty", "broadcast", "noncontig", "negstride"]
# A representative set: binary arithmetic, comparison, logical, bitwise, unary, two outputs.
CALLS = [("add", np.float64), ("add", np.int32), ("subtract", np.float32),
         ("multiply", np.int64), ("divide", np.float64), ("power", np.float64),
         ("maximum", np.float64), ("less_equal", np.int16), ("equal", np.float32),
         ("logical_and", np.bool_), ("bitwise_xor", np.uint8), ("left_shift", np.int32),
         ("sin", np.float64), ("exp", np.float32), ("negative", np.int8), ("isnan", np.float64),
         ("divmod", np.float64), ("modf", np.float64), ("frexp", np.float32)]


def _values(rng, name, dt, shape):
    low, high = (0.5, 3) if name in ("power", "divmod", "divide") else (0, 7)
    return random_values(rng, shape, dt, low=low, high=high)


def _ops(rng, name, dt, layout, device):
    nin = getattr(np, name).nin
    low, high = (1, 3) if name in ("power", "divmod", "divide", "left_shift") else (0, 7)
    return make_operands(rng, layout, [dt] * nin, device, low=low, high=high)


def _pair(got, expected, **kw):
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            assert_matches(g, e, **kw)
    else:
        assert_matches(got, expected, **kw)


@pytest.mark.parametrize("name", [n for n in NUMPY_UFUNCS if n not in NOT_UFUNCS])
def test_every_numpy_ufunc_is_an_accelpy_ufunc(name):
    npu, apu = getattr(np, name), getattr(ap, name)
    assert isinstance(apu, ap.ufunc)
    if name in ("degrees", "radians"):  # accelpy's are rad2deg and deg2rad themselves
        npu = getattr(np, {"degrees": "rad2deg", "radians": "deg2rad"}[name])
    for attr in ("__name__", "__qualname__", "nin", "nout", "nargs", "identity", "signature"):
        assert getattr(apu, attr) == getattr(npu, attr), attr
    assert set(apu.types) <= set(npu.types) and apu.ntypes == len(apu.types) > 0
    assert npu.__name__ in apu.__doc__ and repr(apu) == f"<ufunc '{npu.__name__}'>"
    assert getattr(ap, npu.__name__) is apu  # NumPy's other names are the same object


def test_ufuncs_pickle_by_reference():
    import copy
    import pickle

    for uf in (ap.add, ap.abs, ap.degrees, ap.equal, ap.divmod):
        assert pickle.loads(pickle.dumps(uf)) is uf and copy.deepcopy(uf) is uf


def test_the_type_is_not_instantiable_nor_a_plain_function():
    with pytest.raises(TypeError):
        ap.ufunc()
    assert not isinstance(ap.sum, ap.ufunc) and ap.ufunc is ap._core.ufunc


@pytest.mark.parametrize("name,dt", CALLS)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_calls_match_numpy(name, dt, layout, device, rng):
    npu, apu = getattr(np, name), getattr(ap, name)
    np_ops, ap_ops = _ops(rng, name, dt, layout, device)
    expected = npu(*np_ops)
    _pair(apu(*ap_ops), expected, ulps=8)
    # Positional out, out= (a tuple too), and where= with out: False keeps out's values.
    exp_t = expected if isinstance(expected, tuple) else (expected,)
    outs = [to_device(np.ones_like(e), device) for e in exp_t]
    got = apu(*ap_ops, *outs)
    assert (got if isinstance(got, tuple) else (got,)) == tuple(outs)
    _pair(got, expected, ulps=8)
    outs = [to_device(np.ones_like(e), device) for e in exp_t]
    got = apu(*ap_ops, out=tuple(outs))
    assert all(g is o for g, o in zip(got if isinstance(got, tuple) else (got,), outs,
                                      strict=True))
    mask = rng.random(np.broadcast_shapes(*(np.shape(o) for o in np_ops))) < 0.5
    np_outs = tuple(np.full_like(e, 2) for e in exp_t)
    ap_outs = tuple(to_device(o, device) for o in np_outs)
    npu(*np_ops, out=np_outs, where=mask)
    apu(*ap_ops, out=ap_outs, where=to_device(mask, device))
    for g, e in zip(ap_outs, np_outs, strict=True):
        assert_matches(g, e, ulps=8)


def test_where_without_out_gives_zeros(device, rng):
    x = rng.standard_normal((4, 5))
    mask = rng.random((4, 5)) < 0.5
    got = ap.exp(to_device(x, device), where=mask)
    assert_matches(got, np.where(mask, np.exp(x), 0.0))
    q, r = ap.divmod(to_device(x, device), 0.75, where=mask)
    assert_matches(r, np.where(mask, np.remainder(x, 0.75), 0.0))


def test_out_in_place_and_larger_than_the_operands(device, rng):
    z = rng.standard_normal((3, 4))
    a = to_device(z, device)
    assert ap.multiply(a, a, a) is a  # np.multiply(Z, Z, Z)
    assert_matches(a, z * z)
    o = ap.zeros((2, 3, 4), device=device)
    ap.add(a, 1.0, out=o)
    assert_matches(o, np.broadcast_to(z * z + 1, (2, 3, 4)))
    with pytest.raises(ValueError, match="non-broadcastable output"):
        ap.add(a, 1.0, out=ap.zeros((4,), device=device))


def test_out_fast_path_falls_back_to_numpys_errors(device, rng):
    n = rng.standard_normal(5)
    a = to_device(n, device)
    i = ap.zeros(5, dtype=np.int32, device=device)
    for call in (lambda: ap.add(a, a, i), lambda: ap.add(a, a, out=i),
                 lambda: ap.sin(a, i), lambda: ap.sin(a, out=(i,))):
        with pytest.raises(np._core._exceptions.UFuncTypeError):
            call()
    o = ap.zeros(5, device=device)
    assert ap.sin(a, o) is o and ap.negative(a, out=(o,)) is o
    assert_matches(o, -n)
    with pytest.raises(TypeError):
        ap.add(a, a, np.zeros(5))


def _spy_on_the_python_call():
    """Replaces the Python implementation's general call with one that counts its calls."""
    import types

    from accelpy import _ufunc

    calls = []

    def call(*args, **kwargs):
        calls.append(args[0].__name__)
        return _ufunc.call(*args, **kwargs)

    methods = {m: getattr(_ufunc, m) for m in ("reduce", "accumulate", "reduceat", "outer", "at")}
    ap._core._set_ufunc_impl(types.SimpleNamespace(call=call, **methods))
    restore = types.SimpleNamespace(call=_ufunc.call, **methods)
    return calls, lambda: ap._core._set_ufunc_impl(restore)


# (name, operand dtypes, out dtype, the operands' and out's shapes, the mask's shape): calls with
# out= and a bool where= array, as an n-body step makes them (np.divide(steer, norm, out=steer,
# where=norm != 0)), in layouts and dtypes.
WHERE_CALLS = [
    ("divide", (np.float32, np.float32), np.float32, ((64, 2), (64, 1)), (64, 1)),
    ("multiply", (np.float64, np.float64), np.float64, ((5, 4), (4,)), (5, 4)),
    ("add", (np.int32, np.int32), np.float64, ((3, 7), (3, 7)), (7,)),  # cast into out
    ("subtract", (np.uint8, np.uint8), np.int16, ((6,), (6,)), ()),  # a 0-d mask
    ("sqrt", (np.float32,), np.float32, ((4, 5),), (4, 5)),
    ("negative", (np.int64,), np.int64, ((),), ()),  # 0-d
    ("maximum", (np.float16, np.float16), np.float16, ((0, 3), (3,)), (3,)),  # empty
]


@pytest.mark.parametrize(
    "name,dts,out_dt,shapes,mask_shape,layout",
    [(*call, layout) for call in WHERE_CALLS
     for layout in ("contiguous", "strided out", "reversed operands", "out is x")
     # out aliases x where x has out's shape and dtype
     if layout != "out is x"
     or (call[3][0] == np.broadcast_shapes(*call[3]) and call[1][0] == call[2])],
)
def test_out_and_where_arrays_at_the_call(device, rng, name, dts, out_dt, shapes, mask_shape,
                                          layout):
    npu, apu = getattr(np, name), getattr(ap, name)
    ops = [random_values(rng, sh, dt, low=1, high=9) for sh, dt in zip(shapes, dts, strict=True)]
    out_shape = np.broadcast_shapes(*shapes)
    mask = rng.random(mask_shape) < 0.5
    if layout == "out is x":
        out_np = ops[0]
        out_ap = to_device(out_np, device)
        ap_ops = [out_ap] + [to_device(o, device) for o in ops[1:]]
        np_ops = [out_np] + ops[1:]
    else:
        np_ops, ap_ops = ops, [to_device(o, device) for o in ops]
        if layout == "reversed operands":
            np_ops = [o[::-1] if o.ndim else o for o in np_ops]
            ap_ops = [o[::-1] if o.ndim else o for o in ap_ops]
        full = random_values(rng, out_shape + (2,), out_dt, low=1, high=9)
        if layout == "strided out":
            out_np = full[..., 1]
            out_ap = to_device(full, device)[..., 1]
        else:
            out_np = full[..., 0].copy()
            out_ap = to_device(out_np, device)
    calls, restore = _spy_on_the_python_call()
    try:
        with np.errstate(all="ignore"):
            got = apu(*ap_ops, out=out_ap, where=to_device(mask, device))
            again = apu(*ap_ops, where=to_device(mask, device), out=out_ap)  # either order
            npu(*np_ops, out=out_np, where=mask)
            npu(*np_ops, where=mask, out=out_np)
    finally:
        restore()
    assert got is out_ap and again is out_ap
    assert calls == []  # at the call, without the Python implementation
    assert_matches(out_ap, out_np)


def test_out_and_where_that_the_call_leaves_to_python(device, rng):
    x_np = rng.standard_normal((4, 5))
    x = to_device(x_np, device)
    calls, restore = _spy_on_the_python_call()
    try:
        with pytest.raises(ValueError, match="non-broadcastable output"):
            ap.add(x, 1.0, out=ap.zeros((5,), device=device), where=to_device(x_np[0] > 0,
                                                                               device))
        out = ap.zeros((4, 5), device=device)
        want = np.zeros((4, 5))
        ap.add(x, 1.0, out=out, where=(x_np < 0).tolist())  # a list
        np.add(x_np, 1.0, out=want, where=(x_np < 0).tolist())
        with pytest.raises(ValueError):
            ap.add(x, 1.0, out=out, where=to_device(np.ones((2, 4, 5), bool), device))
        with pytest.raises(np._core._exceptions.UFuncTypeError):
            ap.add(x, 1.0, out=ap.zeros((4, 5), np.int32, device=device),
                   where=to_device(x_np > 0, device))
    finally:
        restore()
    assert len(calls) == 4
    assert_matches(out, want)


def test_repeated_calls_with_out_resolve_as_numpy_each_time(device, rng):
    # The loop resolution NumPy accepted is remembered by the operands' dtypes (and a Python
    # int's value): a call that differs in any of them is resolved, and refused, afresh.
    n = rng.integers(0, 50, 6).astype(np.uint8)
    a, o = to_device(n, device), ap.zeros(6, dtype=np.uint8, device=device)
    f = ap.zeros(6, dtype=np.float32, device=device)
    mask = to_device(n > 20, device)
    for _ in range(3):
        assert ap.add(a, 3, out=o, where=mask) is o
    want = np.zeros(6, np.uint8)
    np.add(n, 3, out=want, where=n > 20)
    assert_matches(o, want)
    with pytest.raises(OverflowError, match="out of bounds for uint8"):
        ap.add(a, 300, out=o, where=mask)
    with pytest.raises(np._core._exceptions.UFuncTypeError):
        ap.add(a, 1.5, out=o, where=mask)  # float64 into uint8 under same_kind
    with pytest.raises(np._core._exceptions.UFuncTypeError):
        ap.add(f, f, out=o, where=mask)
    assert ap.add(f, a, out=f, where=mask) is f
    assert ap.add(a, 3, out=o, where=mask, casting="unsafe") is o
    with pytest.raises(np._core._exceptions.UFuncTypeError):
        ap.add(a, 1.5, out=o, where=mask)  # still refused after other calls were accepted


def test_dtype_signature_casting_order_subok(device, rng):
    n = rng.integers(-50, 50, (6,)).astype(np.int8)
    a = to_device(n, device)
    for kwargs in ({"dtype": np.float32}, {"dtype": np.int64}, {"signature": "dd->d"},
                   {"signature": (None, None, np.float32)}, {"order": "C", "subok": False},
                   {"casting": "unsafe", "dtype": np.int16}):
        assert_matches(ap.add(a, a, **kwargs), np.add(n, n, **kwargs))
    i_out, n_out = ap.zeros(6, dtype=np.int8, device=device), np.zeros(6, dtype=np.int8)
    ap.multiply(a, 2.5, out=i_out, casting="unsafe")
    np.multiply(n, 2.5, out=n_out, casting="unsafe")
    assert_matches(i_out, n_out)
    with pytest.raises(np._core._exceptions.UFuncTypeError, match="same_kind") as e:
        ap.multiply(a, 2.5, out=i_out)
    assert isinstance(e.value, TypeError)
    with pytest.raises(TypeError, match="'no'"):
        ap.add(a, 1.0, casting="no")
    with pytest.raises(TypeError):
        ap.bitwise_and(a, 1, dtype=np.float64)  # no loop


def test_bad_call_arguments_raise_numpy_exceptions(device):
    a = ap.ones(3, device=device)
    cases = [
        (lambda u: u.add(a, a, foo=1), TypeError, "unexpected keyword argument 'foo'"),
        (lambda u: u.add(a), TypeError, "takes from 2 to 3 positional arguments"),
        (lambda u: u.add(a, a, a, a), TypeError, "takes from 2 to 3 positional arguments"),
        (lambda u: u.add(a, a, order="X"), ValueError, "order must be one of"),
        (lambda u: u.add(a, a, casting="x"), ValueError, "casting must be one of"),
        (lambda u: u.add(a, a, a, out=a), TypeError, "both a positional and keyword"),
        (lambda u: u.divmod(a, a, out=a), TypeError, "'out' must be a tuple of arrays"),
        (lambda u: u.divmod(a, a, out=(a,)), ValueError, "one entry per ufunc output"),
    ]
    for fn, exc, match in cases:
        with pytest.raises(exc, match=match):
            fn(np)  # the same call in NumPy raises the same
        with pytest.raises(exc, match=match):
            fn(ap)
    with pytest.raises(TypeError, match="out= must hold accelpy.ndarray"):
        ap.add(a, a, out=np.empty(3))  # accelpy writes into accelpy arrays only


REDUCE = [("add", np.float64), ("add", np.int8), ("add", np.bool_), ("multiply", np.int32),
          ("maximum", np.float32), ("minimum", np.int64), ("logical_and", np.bool_),
          ("logical_or", np.float64), ("logical_xor", np.bool_), ("bitwise_or", np.uint16),
          ("fmax", np.float64), ("subtract", np.float64), ("divide", np.float64),
          ("hypot", np.float32)]


@pytest.mark.parametrize("name,dt", REDUCE)
@pytest.mark.parametrize("layout", ["2d", "noncontig", "3d", "negstride"])
def test_reduce_matches_numpy(name, dt, layout, device, rng):
    npu, apu = getattr(np, name), getattr(ap, name)
    (n,), (a,) = make_operands(rng, layout, [dt], device, low=1, high=3)
    if name == "fmax":
        n[n > 2.5] = np.nan
        a = to_device(n, device)
    for axis in [0, -1, None] + ([(0, 1)] if n.ndim > 1 else []):
        for keepdims in (False, True):
            try:
                expected = npu.reduce(n, axis=axis, keepdims=keepdims)
            except ValueError as e:  # not reorderable: one axis only
                with pytest.raises(ValueError, match="not reorderable"):
                    apu.reduce(a, axis=axis, keepdims=keepdims)
                assert "not reorderable" in str(e)
                continue
            got = apu.reduce(a, axis=axis, keepdims=keepdims)
            assert_matches(got, expected, ulps=64, atol=1e-12)
            assert_matches(npu.reduce(a, axis=axis, keepdims=keepdims), expected, ulps=64,
                           atol=1e-12)  # NumPy's ufunc on an accelpy array


def test_reduce_keywords(device, rng):
    n = rng.standard_normal((4, 5))
    a = to_device(n, device)
    mask = rng.random((4, 5)) < 0.6
    am = to_device(mask, device)
    # Sums of random signs cancel: their error is bounded by the terms' size, not the result's
    # (the order of the additions is each library's own).
    with_initial = np.concatenate([n, np.full((4, 1), 2.0)], axis=1)
    assert_matches(ap.add.reduce(a, axis=1, initial=2.0), np.add.reduce(n, axis=1, initial=2.0),
                   atol=sum_atol(with_initial, axis=1))
    assert_matches(ap.add.reduce(a, where=am), np.add.reduce(n, where=mask),
                   atol=sum_atol(np.where(mask, n, 0.0)))
    assert_matches(ap.maximum.reduce(a, axis=1, where=am, initial=-10.0),
                   np.maximum.reduce(n, axis=1, where=mask, initial=-10.0))
    assert_matches(ap.subtract.reduce(a, axis=1, initial=1.0),
                   np.subtract.reduce(n, axis=1, initial=1.0),
                   atol=sum_atol(np.concatenate([n, np.ones((4, 1))], axis=1), axis=1))
    assert_matches(ap.add.reduce(a, dtype=np.float32), np.add.reduce(n, dtype=np.float32),
                   rtol=1e-5, atol=sum_atol(n.astype(np.float32), ulps=8))
    assert_matches(ap.maximum.reduce(a, axis=0, dtype=np.float32),
                   np.maximum.reduce(n, axis=0, dtype=np.float32))
    out = ap.zeros(5, device=device)
    assert ap.multiply.reduce(a, out=out) is out
    assert_matches(out, np.multiply.reduce(n))
    # Empty reductions: the identity, or initial.
    e = np.zeros((0, 3))
    assert_matches(ap.add.reduce(to_device(e, device)), np.add.reduce(e))
    assert_matches(ap.maximum.reduce(to_device(e, device), initial=1.5),
                   np.maximum.reduce(e, initial=1.5))
    assert_matches(ap.bitwise_and.reduce(to_device(np.zeros(0, np.int32), device)),
                   np.bitwise_and.reduce(np.zeros(0, np.int32)))
    assert_matches(ap.add.reduce(to_device(np.array(3.5), device)), np.add.reduce(np.array(3.5)))


def test_reduce_errors(device):
    a = ap.ones((2, 3), device=device)
    n = np.ones((2, 3))
    cases = [
        (lambda m, x: m.sin.reduce(x), ValueError, "reduce only supported for binary functions"),
        (lambda m, x: m.divmod.reduce(x), ValueError, "returning a single value"),
        (lambda m, x: m.add.reduce(x, axis=5), np.exceptions.AxisError, "axis 5"),
        (lambda m, x: m.add.reduce(x, axis=(0, 0)), ValueError, "duplicate value"),
        (lambda m, x: m.subtract.reduce(x, axis=(0, 1)), ValueError, "not reorderable"),
        (lambda m, x: m.maximum.reduce(x[:0]), ValueError, "which has no identity"),
        (lambda m, x: m.maximum.reduce(x, where=x > 0), ValueError, "specify 'initial'"),
        (lambda m, x: m.sin.accumulate(x), ValueError, "accumulate only supported for binary"),
        (lambda m, x: m.add.accumulate(x, axis=(0, 1)), ValueError, "multiple axes"),
        (lambda m, x: m.add.accumulate(x[0, 0]), TypeError, "cannot accumulate on a scalar"),
        (lambda m, x: m.sin.outer(x, x), ValueError, "only supported for binary functions"),
        (lambda m, x: m.add.reduceat(x, [0, 5]), IndexError, "out-of-bounds in add.reduceat"),
        (lambda m, x: m.add.at(x, [0]), ValueError, "second operand needed"),
    ]
    for fn, exc, match in cases:
        with pytest.raises(exc, match=match):
            fn(np, n)
        with pytest.raises(exc, match=match):
            fn(ap, a)


ACCUMULATE = [("add", np.float64), ("add", np.int8), ("add", np.bool_), ("multiply", np.int16),
              ("maximum", np.float32), ("minimum", np.int32), ("logical_or", np.bool_),
              ("bitwise_xor", np.int64), ("subtract", np.float64), ("fmin", np.float64)]


@pytest.mark.parametrize("name,dt", ACCUMULATE)
@pytest.mark.parametrize("layout", ["1d", "2d", "noncontig", "empty", "negstride"])
def test_accumulate_matches_numpy(name, dt, layout, device, rng):
    npu, apu = getattr(np, name), getattr(ap, name)
    (n,), (a,) = make_operands(rng, layout, [dt], device, low=-20, high=60)
    # A running sum (or difference) that crosses zero carries the error of its terms' size:
    # bounded by the running sum of their magnitudes (a scan may add in another order).
    atol = 1e-12
    if name in ("add", "subtract") and np.dtype(dt).kind == "f":
        atol = max(atol, sum_atol(n, ulps=16))
    for axis in range(-n.ndim, n.ndim):
        expected = npu.accumulate(n, axis=axis)
        assert_matches(apu.accumulate(a, axis=axis), expected, ulps=64, atol=atol)
        assert_matches(npu.accumulate(a, axis=axis), expected, ulps=64, atol=atol)
    if n.size and dt != np.bool_ and not name.startswith("bitwise"):
        assert_matches(apu.accumulate(a, dtype=np.float64), npu.accumulate(n, dtype=np.float64),
                       ulps=64, atol=atol)
        out = ap.empty(a.shape, dtype=expected.dtype, device=device)
        assert apu.accumulate(a, axis=-1, out=out) is out
        assert_matches(out, npu.accumulate(n, axis=-1), ulps=64, atol=atol)


@pytest.mark.parametrize("name", ["add", "maximum", "multiply", "subtract"])
def test_reduceat_matches_numpy(name, device, rng):
    npu, apu = getattr(np, name), getattr(ap, name)
    n = rng.integers(-9, 9, (8, 5)).astype(np.int64)
    a = to_device(n, device)
    for indices, axis in (([0, 3, 1, 5], 0), ([0, 2, 4], 1), ([4], 0), ([2, 2, 7], 0),
                          (to_device(np.array([1, 4]), device), 1)):
        expected = npu.reduceat(n, ap.asnumpy(ap.asarray(indices)), axis=axis)
        assert_matches(apu.reduceat(a, indices, axis=axis), expected)
        assert_matches(npu.reduceat(a, indices, axis=axis), expected)


@pytest.mark.parametrize("name", ["add", "multiply", "subtract", "greater", "maximum"])
def test_outer_matches_numpy(name, device, rng):
    npu, apu = getattr(np, name), getattr(ap, name)
    x, y = rng.standard_normal(3), rng.standard_normal((2, 4))
    a, b = to_device(x, device), to_device(y, device)
    assert_matches(apu.outer(a, b), npu.outer(x, y))
    assert_matches(apu.outer(a, 2.0), npu.outer(x, 2.0))
    assert_matches(npu.outer(a, b), npu.outer(x, y))
    if name == "add":
        assert_matches(apu.outer(a, b, dtype=np.float32), npu.outer(x, y, dtype=np.float32))


AT = [("add", np.float64), ("add", np.float32), ("add", np.int32), ("add", np.complex128),
      ("add", np.bool_), ("multiply", np.int64), ("maximum", np.float64),
      ("subtract", np.float64), ("bitwise_or", np.uint8), ("negative", np.float64)]


@pytest.mark.parametrize("name,dt", AT)
def test_at_is_unbuffered(name, dt, device, rng):
    npu, apu = getattr(np, name), getattr(ap, name)
    base = random_values(rng, (6, 4), dt, low=1, high=5)
    idx = rng.integers(0, 6, 30)  # many repeats
    vals = random_values(rng, (30, 4), dt, low=1, high=3) if npu.nin == 2 else None
    for index, v in (((idx,), vals), ((idx, 1), None if vals is None else vals[:, 0]),
                     (([0, 0, 0],), None if vals is None else vals[0]), ((slice(1, 3),), None)):
        if npu.nin == 2 and v is None:
            v = vals[0, 0]
        n, a = base.copy(), to_device(base, device)
        args = (v,) if npu.nin == 2 else ()
        assert apu.at(a, index[0] if len(index) == 1 else index, *args) is None
        npu.at(n, index[0] if len(index) == 1 else index, *args)
        assert_matches(a, n, ulps=16, atol=1e-12)
        a = to_device(base, device)  # NumPy's ufunc on an accelpy array
        npu.at(a, index[0] if len(index) == 1 else index,
               *(to_device(np.asarray(x), device) for x in args))
        assert_matches(a, n, ulps=16, atol=1e-12)


def test_at_simple_repeated_index(device):
    a = ap.zeros(3, device=device)
    ap.add.at(a, [0, 0], 1)
    assert_matches(a, np.array([2.0, 0.0, 0.0]))
    np.add.at(a, [0, 2, 2], 1)
    assert_matches(a, np.array([3.0, 0.0, 2.0]))
