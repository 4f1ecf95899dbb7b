"""Universal functions (NumPy's reference: "Universal functions (ufunc)"): accelpy.ufunc, the
type of accelpy's elementwise functions, and NumPy's call conventions and methods for it.

The type is C (src/python/bind_ufunc.cpp): a plain call, the ufunc's nin operands and nothing
else, goes straight to the op's bound function. Everything else lands here:

- ``call``: positional and keyword ``out`` (a tuple for two-output ufuncs), ``where`` (with out,
  elements where it is False keep out's values; without out they are 0, where NumPy leaves them
  uninitialised), ``dtype``, ``signature`` and ``casting`` (NumPy resolves the loop and checks
  the casts on empty stand-ins of the operands, so its errors, UFuncTypeError included, are
  raised as they are), ``order`` and ``subok`` (accepted: results are C-ordered accelpy arrays).
- ``reduce``, ``accumulate``, ``reduceat``, ``outer``, ``at``: the core's reductions and scans
  where one exists (add.reduce is sum, add.accumulate cumsum, ...); otherwise the ufunc itself,
  pairwise in log2(n) steps for the reorderable ufuncs and in order for the others, all of it
  on the arrays' device. ``at`` is unbuffered: repeated indices apply once per occurrence (float
  add.at scatter-adds through bincount, integer add.at sums the runs of a stable sort; the rest
  apply in rounds, one per repetition).
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np

from . import _core
from ._core import ndarray, ufunc
from ._creation import asarray
from ._util import PY_SCALARS, normalize_axes, normalize_axis

__all__ = ["ufunc"]

_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")
_ORDERS = ("K", "A", "C", "F", None)
# Loops of NumPy's types lists whose every dtype accelpy has (no long double, objects, times).
_TYPE_CODES = set("?bBhHiIlLqQefdFD")
# The core's reductions, by ufunc name (their dtype rules are NumPy's sum, prod, max, ...).
_REDUCTIONS = {"add": _core.sum, "multiply": _core.prod, "maximum": _core.max,
               "minimum": _core.min, "logical_and": _core.all, "logical_or": _core.any}
# The core's scans (inclusive), by ufunc name.
_SCANS = {"add": _core.cumsum, "multiply": _core.cumprod}
# Reorderable without an identity (NumPy's "reorderable None"): may reduce over several axes.
_REORDERABLE_NONE = {"maximum", "minimum", "fmax", "fmin"}
# Non-reorderable ufuncs are folded in order; the lazy graph is evaluated every so many steps.
_FOLD_EVAL_EVERY = 64


F = TypeVar("F", bound=Callable[..., Any])


def make(fast: F, name: str, module: str, doc: str | None = None) -> F:
    """The accelpy ufunc numpy.<name> is, whose plain calls run `fast`; `module` is where the
    package defines it. Type checkers see `fast`'s signature (a ufunc's call; its methods and
    NumPy's keywords are not in the stubs)."""
    npu = getattr(np, name)
    # A bound function of the core is an op-table row of the same name: its plain calls skip
    # the function (see bind_ufunc.cpp); a function written in Python is called.
    op = None if isinstance(fast, types.FunctionType) else fast.__name__
    # Its calls on numbers alone are NumPy's (a NumPy scalar on the CPU, as NumPy gives).
    uf = _core._make_ufunc(fast, npu.nin, op, npu if npu.nout == 1 else None)
    loops = [t for t in npu.types if set(t.replace("->", "")) <= _TYPE_CODES]
    attrs = {
        "__name__": npu.__name__, "__qualname__": npu.__name__, "__module__": module,
        "__doc__": doc or _doc(npu),
        "nin": npu.nin, "nout": npu.nout, "nargs": npu.nargs, "identity": npu.identity,
        "signature": npu.signature, "types": loops, "ntypes": len(loops), "_fast": fast,
    }
    for key, value in attrs.items():
        setattr(uf, key, value)
    return cast(F, uf)


def _doc(npu):
    head = "\n\n".join(npu.__doc__.split("\n\n")[:2])
    return (f"{head}\n\naccelpy's ufunc of numpy.{npu.__name__}: NumPy's conventions and "
            "methods; results are accelpy arrays on the operands' device.")


def _numpy_ufunc(uf):
    return getattr(np, uf.__name__)


def _device(values):
    return next((v.device for v in values if isinstance(v, ndarray)), None)


def _operand(x, device):
    if isinstance(x, (ndarray, *PY_SCALARS)):
        return x
    return asarray(x, device=device)


def _probe(x):
    """An empty stand-in with x's dtype for NumPy's type resolution (Python scalars stay weak)."""
    return x if isinstance(x, PY_SCALARS) else np.empty(0, np.dtype(x.dtype))


# Calls with out= or where= in a loop repeat one resolution: those NumPy accepted, by the
# operands' dtypes (a Python int by its value too: NumPy refuses one its dtype cannot hold).
_RESOLVED: set = set()


def _resolve(uf, xs, outs, casting, dtype, signature):
    """NumPy's loop resolution of the call (raises what NumPy raises), run on empty stand-ins."""
    if dtype is None and signature is None:
        key = (uf.__name__, casting,
               *(x if type(x) is int else type(x) if isinstance(x, PY_SCALARS) else x.dtype
                 for x in xs),
               *(None if o is None else o.dtype for o in outs))
        if key in _RESOLVED:
            return
    else:
        key = None
    resolution = {k: v for k, v in (("dtype", dtype), ("signature", signature)) if v is not None}
    _numpy_ufunc(uf)(*(_probe(x) for x in xs),
                     out=tuple(None if o is None else _probe(o) for o in outs),
                     casting=casting, **resolution)
    if key is not None and len(_RESOLVED) < 4096:
        _RESOLVED.add(key)


def _outputs(uf, positional, out):
    """The out tuple (one entry per output, None where not given)."""
    if positional:
        if out is not None:
            raise TypeError("cannot specify 'out' as both a positional and keyword argument")
        out = tuple(positional)
    if out is None:
        return (None,) * uf.nout
    if not isinstance(out, tuple):
        if uf.nout != 1:
            raise TypeError("'out' must be a tuple of arrays")
        out = (out,)
    if len(out) != uf.nout:
        raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    for o in out:
        if o is not None and not isinstance(o, ndarray):
            raise TypeError(f"out= must hold accelpy.ndarray arrays (return arrays must be of "
                            f"ArrayType), got {type(o).__name__}")
    return out


def _write(o, r, mask=None):
    """r into out array o (broadcast to its shape; where mask is False, o keeps its values)."""
    shape = o.shape
    if r.shape != shape:
        try:
            shape = np.broadcast_shapes(shape, r.shape)
        except ValueError:
            shape = None
    if shape != o.shape:
        raise ValueError(f"non-broadcastable output operand with shape {tuple(o.shape)} "
                         f"doesn't match the broadcast shape {tuple(r.shape)}")
    if r.dtype != o.dtype:
        r = r.astype(o.dtype)
    if mask is not None:
        r = _core.where(mask, r, o)
    o[...] = r
    return o


def call(uf, *args, out=None, where=True, dtype=None, casting="same_kind", order="K",
         subok=True, signature=None, **unknown):
    """ufunc(*inputs, *outputs, out=, where=, dtype=, casting=, order=, subok=, signature=)."""
    name = uf.__name__
    nin, nout = uf.nin, uf.nout
    if not nin <= len(args) <= nin + nout:
        raise TypeError(f"{name}() takes from {nin} to {nin + nout} positional arguments but "
                        f"{len(args)} {'was' if len(args) == 1 else 'were'} given")
    for key in unknown:
        raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
    outs = _outputs(uf, args[nin:], out)
    if casting not in _CASTINGS:
        raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' "
                         f"(got {casting!r})")
    if order not in _ORDERS:
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    device = _device(args[:nin] + outs)
    xs = [_operand(x, device) for x in args[:nin]]
    mask = None if where is True else asarray(where, dtype=np.bool_, device=device)
    # NumPy resolves the loop on empty stand-ins: its errors, and its dtypes for dtype=.
    _resolve(uf, xs, outs, casting, dtype, signature)
    if dtype is not None or signature is not None:
        sig = signature if signature is not None else (None,) * nin + (dtype,) * nout
        loop = _numpy_ufunc(uf).resolve_dtypes(
            tuple(type(x) if isinstance(x, PY_SCALARS) else np.dtype(x.dtype) for x in xs)
            + (None,) * nout, signature=sig, casting="unsafe")
        xs = [asarray(x, dtype=dt, device=device) if isinstance(x, PY_SCALARS)
              else x.astype(dt) if x.dtype != dt else x for x, dt in zip(xs, loop, strict=False)]
    results = uf._fast(*xs)
    results = results if isinstance(results, tuple) else (results,)
    if dtype is not None or signature is not None:
        results = tuple(r if r.dtype == dt else r.astype(dt)
                        for r, dt in zip(results, loop[nin:], strict=True))
    final = []
    for o, r in zip(outs, results, strict=True):
        if o is not None:
            final.append(_write(o, r, mask))
        elif mask is not None:
            final.append(_core.where(mask, r, _core.zeros((), r.dtype, device=r.device)))
        else:
            final.append(r)
    return final[0] if nout == 1 else tuple(final)


def _binary_only(uf, method):
    if uf.nin != 2:
        raise ValueError(f"{method} only supported for binary functions")
    if uf.nout != 1:
        raise ValueError(f"{method} only supported for functions returning a single value")


def _reorderable(uf):
    return uf.identity is not None or uf.__name__ in _REORDERABLE_NONE


def _fold(uf, x, initial=np._NoValue):
    """uf folded over x's last axis, in order: ((x0 op x1) op x2) ...; initial comes first."""
    acc = x[..., 0] if initial is np._NoValue else uf(initial, x[..., 0])
    for i in range(1, x.shape[-1]):
        acc = uf(acc, x[..., i])
        if i % _FOLD_EVAL_EVERY == 0:
            _core.eval(acc)
    return acc


def _pairwise(uf, x):
    """uf over x's last axis by halving (reorderable ufuncs): log2(n) elementwise steps."""
    while x.shape[-1] > 1:
        n = x.shape[-1]
        half = n // 2
        y = uf(x[..., :half], x[..., half:2 * half])
        x = y if n % 2 == 0 else _core.concatenate([y, x[..., 2 * half:]], axis=-1)
    return x[..., 0]


def _reduce_axes(axis, ndim):
    if ndim == 0 and (axis is None or axis == () or axis in (0, -1)):
        return ()  # NumPy reduces a 0-d array to itself
    if isinstance(axis, (tuple, list)):
        axes = tuple(normalize_axis(a, ndim) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError("duplicate value in 'axis'")
        return axes
    return normalize_axes(axis, ndim)


def reduce(uf, array, axis=0, dtype=None, out=None, keepdims=False, initial=np._NoValue,
           where=True):
    """ufunc.reduce: the ufunc applied along `axis` (None: all; a tuple for reorderable
    ufuncs) until one value is left."""
    _binary_only(uf, "reduce")
    name = uf.__name__
    a = asarray(array)
    axes = _reduce_axes(axis, a.ndim)
    if len(axes) > 1 and not _reorderable(uf):
        raise ValueError(f"reduction operation '{name}' is not reorderable, so at most one axis "
                         "may be specified")
    (o,) = _outputs(uf, (), out)
    fill = initial if initial is not np._NoValue else uf.identity
    if where is not True:
        if fill is None:
            raise ValueError(f"reduction operation '{name}' does not have an identity, so to use "
                             "a where mask one has to specify 'initial'")
        mask = asarray(where, dtype=np.bool_, device=a.device)
        a = _core.where(mask, a, asarray(fill, dtype=a.dtype, device=a.device))
    if dtype is not None and name not in ("add", "multiply"):
        a = a.astype(dtype)
    count = int(np.prod([a.shape[i] for i in axes], dtype=np.int64))
    kept = tuple(s for i, s in enumerate(a.shape) if i not in axes)
    if count == 0 and fill is None:
        raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
    reduction = _REDUCTIONS.get(name)
    if count == 0:
        # The identity (or initial) in the dtype NumPy gives this reduction.
        empty = np.empty(0, np.dtype(a.dtype))
        out_dtype = _numpy_ufunc(uf).reduce(empty, dtype=dtype, initial=fill).dtype
        r = _core.full(kept, fill, dtype=out_dtype, device=a.device)
    elif reduction is not None:
        kwargs = {"dtype": dtype} if name in ("add", "multiply") and dtype is not None else {}
        r = reduction(a, axis=axes, **kwargs)
        if initial is not np._NoValue:
            r = uf(r, initial).astype(r.dtype)
    else:
        rest = [i for i in range(a.ndim) if i not in axes]
        x = _core.reshape(_core.transpose(a, rest + list(axes)), kept + (count,))
        if _reorderable(uf):
            r = _pairwise(uf, x)
            if initial is not np._NoValue:
                r = uf(r, initial)
        else:
            r = _fold(uf, x, initial)
    if keepdims:
        r = _core.reshape(r, tuple(1 if i in axes else s for i, s in enumerate(a.shape)))
    return _write(o, r) if o is not None else r


def _scan(uf, x):
    """Inclusive scan of uf along x's last axis: log2(n) shifted steps (Hillis-Steele) for
    reorderable ufuncs, n in order for the others."""
    n = x.shape[-1]
    if not _reorderable(uf):
        acc, parts = x[..., 0], [x[..., 0]]
        for i in range(1, n):
            acc = uf(acc, x[..., i])
            parts.append(acc)
            if i % _FOLD_EVAL_EVERY == 0:
                _core.eval(acc)
        return _core.stack(parts, axis=-1)
    step = 1
    while step < n:
        x = _core.concatenate([x[..., :step], uf(x[..., :n - step], x[..., step:])], axis=-1)
        step *= 2
    return x


def accumulate(uf, array, axis=0, dtype=None, out=None):
    """ufunc.accumulate: the running results along `axis` (an int)."""
    _binary_only(uf, "accumulate")
    a = asarray(array)
    if a.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")
    if isinstance(axis, (tuple, list)):
        if len(axis) != 1:
            raise ValueError("accumulate does not allow multiple axes")
        (axis,) = axis
    axis = normalize_axis(axis, a.ndim)
    (o,) = _outputs(uf, (), out)
    scan = _SCANS.get(uf.__name__)
    if scan is not None:
        r = scan(a, axis=axis, dtype=dtype)  # NumPy's dtypes: small integers accumulate in int64
    else:
        loop_dtype = np.dtype(dtype) if dtype is not None else np.dtype(a.dtype)
        x = a.astype(loop_dtype) if a.dtype != loop_dtype else a
        if x.shape[axis] == 0:
            r = x
        else:
            r = _core.moveaxis(_scan(uf, _core.moveaxis(x, axis, -1)), -1, axis)
            if r.dtype != loop_dtype:
                r = r.astype(loop_dtype)
    return _write(o, r) if o is not None else r


def reduceat(uf, array, indices, axis=0, dtype=None, out=None):
    """ufunc.reduceat: reduce over a[indices[i]:indices[i+1]] (a[indices[i]] alone where the
    next index is not larger; the last slice runs to the end)."""
    _binary_only(uf, "reduceat")
    a = asarray(array)
    axis = normalize_axis(axis, max(a.ndim, 1))
    (o,) = _outputs(uf, (), out)
    idx = np.asarray(_core.asnumpy(indices) if isinstance(indices, ndarray) else indices)
    if idx.ndim != 1 or (idx.size and idx.dtype.kind not in "iu"):
        raise TypeError("reduceat: indices must be a 1-d sequence of integers")
    n = a.shape[axis]
    parts = []
    for k, start in enumerate(idx.tolist()):
        if not 0 <= start < n:
            raise IndexError(f"index {start} out-of-bounds in {uf.__name__}.reduceat [0, {n})")
        stop = idx[k + 1] if k + 1 < idx.size else n
        piece = a[(slice(None),) * axis + (slice(start, stop if stop > start else start + 1),)]
        parts.append(reduce(uf, piece, axis=axis, dtype=dtype, keepdims=True))
    if not parts:
        raise ValueError("reduceat: indices must not be empty")
    r = _core.concatenate(parts, axis=axis)
    return _write(o, r) if o is not None else r


def outer(uf, A, B, /, **kwargs):
    """ufunc.outer: uf(a, b) for every a in A and b in B, of shape A.shape + B.shape."""
    if uf.nin != 2:
        raise ValueError("outer product only supported for binary functions")
    a = _operand(A, _device((B,)))
    b = _operand(B, _device((a,)))
    a, b = asarray(a, device=_device((a, b))), asarray(b, device=_device((a, b)))
    return uf(_core.reshape(a, tuple(a.shape) + (1,) * b.ndim), b, **kwargs)


def at(uf, a, indices, b=None, /):
    """ufunc.at: a[indices] = uf(a[indices], b) in place, unbuffered (each repetition of an
    index applies again)."""
    if not isinstance(a, ndarray):
        raise TypeError(f"{uf.__name__}.at: the first operand must be an accelpy.ndarray, got "
                        f"{type(a).__name__}")
    if uf.nout != 1:
        raise ValueError(f"{uf.__name__}.at only supported for functions returning one value")
    if uf.nin == 2 and b is None:
        raise ValueError("second operand needed for ufunc")
    if uf.nin == 1 and b is not None:
        raise ValueError("second operand provided when ufunc is unary")
    device = a.device
    pos = _core.reshape(_core.arange(a.size, device=device), a.shape)[indices]
    flat = _core.copy(_core.ravel(a))
    if uf.nin == 2:
        vals = _operand(b, device)
        # NumPy's loop for these operands (TypeError where there is none); the results are
        # cast into a unsafely, as NumPy's at does.
        _numpy_ufunc(uf)(_probe(a), _probe(vals))
        vals = _core.ravel(_core.broadcast_to(asarray(vals, device=device), tuple(pos.shape)))
    pos = _core.ravel(pos)
    if pos.size == 0:
        return None
    kind = np.dtype(a.dtype).kind
    if uf.__name__ == "add" and kind in "fc":
        flat = _scatter_add(flat, pos, vals.astype(a.dtype))
    elif uf.__name__ == "add":
        flat = _segment_add(flat, pos, vals)
    else:
        order = _core.argsort(pos, kind="stable")
        sp = pos[order]
        rank = _core.arange(sp.size, device=device) - _core.searchsorted(sp, sp, side="left")
        sv = vals[order] if uf.nin == 2 else None
        for r in range(int(_core.max(rank)) + 1):
            m = rank == r
            p = sp[m]
            flat[p] = (uf(flat[p], sv[m]) if sv is not None else uf(flat[p])).astype(a.dtype)
    a[...] = _core.reshape(flat, a.shape)
    return None


def _segment_add(flat, pos, vals):
    """flat with integer (or bool) vals added at pos, repeats included: the values sorted by
    position, summed by one cumulative sum in flat's dtype (wrapping as NumPy's repeated adds
    do) and differenced at the ends of the runs of equal positions."""
    is_bool = flat.dtype == np.bool_
    dtype = np.int64 if is_bool else flat.dtype
    order = _core.argsort(pos, kind="stable")
    sp, sv = pos[order], vals[order].astype(dtype)
    last = _core.concatenate([sp[1:] != sp[:-1], _core.ones(1, np.bool_, device=sp.device)])
    ends = _core.flatnonzero(last)
    c = _core.cumsum(sv, dtype=dtype)[ends]
    totals = c - _core.concatenate([_core.zeros(1, dtype, device=sp.device), c[:-1]])
    up = sp[ends]
    flat[up] = (flat[up] | (totals != 0)) if is_bool else (flat[up] + totals).astype(dtype)
    return flat


def _scatter_add(flat, pos, vals):
    """flat with vals added at pos, repeats included, through the core's scatter-add
    (bincount with weights, float64); complex parts separately."""
    touched = _core.flatnonzero(_core._bincount(pos, minlength=flat.size))
    if np.dtype(vals.dtype).kind == "c":
        parts = [_core._bincount(pos, weights=p.astype(np.float64), minlength=flat.size)
                 for p in (_core.real(vals), _core.imag(vals))]
        delta = parts[0] + 1j * parts[1]
    else:
        delta = _core._bincount(pos, weights=vals.astype(np.float64), minlength=flat.size)
    flat[touched] = (flat[touched] + delta[touched]).astype(flat.dtype)
    return flat


# The general call and the methods the C type forwards to.
_core._set_ufunc_impl(types.SimpleNamespace(call=call, reduce=reduce, accumulate=accumulate,
                                            reduceat=reduceat, outer=outer, at=at))
