"""ElementwiseKernel and ReductionKernel (CuPy's signatures): CUDA C snippets wrapped into
generated kernels, with type placeholders, broadcasting, output allocation, axis and keepdims.

A kernel is generated per combination of argument dtypes, layout class (contiguous or strided)
and number of dimensions; sizes, strides and scalars are parameters (one struct passed by
value), so calls on new shapes reuse the compiled kernel. The generated source is compiled with
accelpy's kernel headers (``accel::float16``, ``accel::complex64``, ...) through the same
path and caches as RawModule: NVRTC for CUDA arrays, the machine's C++ compiler for arrays on
the CPU device (and, without a GPU, for calls that give no array).
"""

from __future__ import annotations

import functools
import os
import re
import struct
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import _core, _dtypes
from ._creation import asarray
from ._kernels import RawModule, _current_cuda_index

_DTYPE_NAMES = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                "float16", "bfloat16", "float32", "float64", "complex64", "complex128")
_CTYPES = {
    "bool": "bool", "int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t",
    "uint16": "uint16_t", "int32": "int32_t", "uint32": "uint32_t", "int64": "int64_t",
    "uint64": "uint64_t", "float16": "accel::float16", "bfloat16": "accel::bfloat16",
    "float32": "float", "float64": "double", "complex64": "accel::complex64",
    "complex128": "accel::complex128",
}
# The NumPy names are C types inside kernels too, as in CuPy.
_TYPEDEFS = "".join(f"typedef {c} {n};\n" for n, c in _CTYPES.items() if n != "bool")
_BLOCK = 256


def _dtype_name(dt):
    dt = np.dtype(dt)
    name = "bfloat16" if dt.name == "bfloat16" else dt.name
    if name not in _CTYPES:
        raise TypeError(f"dtype {dt} is not supported in kernels")
    return name


class _Param:
    """One parameter of ``in_params`` / ``out_params``: "[const] [raw] type name"."""

    def __init__(self, text, is_output):
        words = text.split()
        if len(words) < 2:
            raise ValueError(f"bad parameter {text!r}: expected '[raw] type name'")
        self.name = words[-1]
        self.type = words[-2]
        qualifiers = set(words[:-2])
        if qualifiers - {"raw", "const"}:
            raise ValueError(f"bad parameter {text!r}: unknown qualifier(s) "
                             f"{sorted(qualifiers - {'raw', 'const'})}")
        self.raw = "raw" in qualifiers
        self.is_const = "const" in qualifiers
        self.is_output = is_output
        if not re.fullmatch(r"[A-Za-z_]\w*", self.name):
            raise ValueError(f"bad parameter name {self.name!r} in {text!r}")
        self.placeholder = self.type not in _DTYPE_NAMES
        if self.placeholder and not re.fullmatch(r"[A-Za-z_]\w*", self.type):
            raise ValueError(f"bad type {self.type!r} in {text!r}")


def _parse_params(text, is_output):
    text = text.strip()
    if not text:
        return []
    params = [_Param(p.strip(), is_output) for p in text.split(",")]
    names = [p.name for p in params]
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate parameter names in {text!r}")
    return params


def _is_array(x):
    return isinstance(x, _core.ndarray) or hasattr(x, "__cuda_array_interface__")


def _as_array(x):
    if isinstance(x, _core.ndarray):
        return x
    return asarray(x)  # wraps __cuda_array_interface__ memory without a copy




@functools.cache
def _np_dtypes():
    # accelpy's dtypes by C type name; DTYPES imports ml_dtypes (bfloat16), so this runs on first
    # use of a generated kernel rather than at `import accelpy`.
    return {_dtype_name(d): d for d in _dtypes.DTYPES}


def _bind(types, name, dtype, what):
    dt = _dtype_name(dtype)
    if types.setdefault(name, dt) != dt:
        raise TypeError(f"type {name} is {types[name]} from an earlier argument but {what} is "
                        f"{dt}: arguments sharing a type placeholder must have one dtype")


def _resolve_types(in_params, out_params, args, outs):
    """Binds the type placeholders from array arguments, then outputs, then scalars."""
    types = {}
    for p, a in zip(in_params, args, strict=True):
        if p.placeholder and _is_array(a):
            _bind(types, p.type, a.dtype, f"argument {p.name!r}")
    for p, o in zip(out_params, outs, strict=True):
        if p.placeholder and o is not None:
            _bind(types, p.type, o.dtype, f"output {p.name!r}")
    for p, a in zip(in_params, args, strict=True):
        if p.placeholder and not _is_array(a) and p.type not in types:
            types[p.type] = _dtype_name(np.result_type(a))
    return types


def _ctype_of(p, types):
    if not p.placeholder:
        return p.type
    if p.type not in types:
        raise TypeError(f"cannot determine type {p.type} of parameter {p.name!r}: no argument "
                        "gives it (pass an array of that type, or the output)")
    return types[p.type]


def _device_of(arrays):
    dev = None
    for a in arrays:
        d = a.device
        if dev is not None and d != dev:
            raise ValueError(f"arguments are on different devices: {dev} and {d}")
        dev = d
    return dev


def _default_device():
    """Where a call without array arguments runs: the CPU device when users' kernels run
    there (no GPU, or ACCELPY_KERNELS_ON_CPU=1), else the current CUDA device."""
    if _core._raw.kernels_on_cpu():
        return _core.Device("cpu")
    return _core.Device(f"cuda:{_current_cuda_index()}")


def _processors(dev):
    """The multiprocessors of a CUDA device, or the cores of the CPU device: grid-stride
    kernels get 32 blocks for each."""
    if not str(dev).startswith("cuda"):
        return os.cpu_count() or 1
    return _core._cuda.device_properties(dev.index)["multi_processor_count"]


def _grid_for(n, dev):
    return max(1, min((n + _BLOCK - 1) // _BLOCK, _processors(dev) * 32))


def _pack_longs(values):
    return struct.pack(f"<{len(values)}q", *values) if values else b"\0" * 8


class _KernelCache:
    """Generated kernels of one ElementwiseKernel/ReductionKernel, by specialization key."""

    def __init__(self, name, options):
        self.name = name
        self.options = tuple(options)
        self.kernels = {}

    def get(self, key, make_source):
        k = self.kernels.get(key)
        if k is None:
            source = make_source()
            module = RawModule(code=source, options=self.options, name=self.name,
                               _with_prelude=True)
            k = module.get_function(self.name)
            k.source = source
            self.kernels[key] = k
        return k


def _typedefs(types):
    return "".join(f"typedef {_CTYPES[t]} {name};\n" for name, t in sorted(types.items()))


class ElementwiseKernel:
    """A kernel from an elementwise operation in CUDA C (CuPy's ``cupy.ElementwiseKernel``)::

        axpy = ap.ElementwiseKernel("T x, T y, float32 a", "T z", "z = a * x + y", "axpy")
        z = axpy(x, y, 2.0)

    ``in_params``/``out_params`` list "[raw] type name"; a type that is not a dtype name (T)
    is a placeholder bound by the arguments. Array arguments broadcast together; outputs are
    allocated unless given. In ``operation`` each name is the element at index ``i``; ``raw``
    parameters are indexed by hand (``x[j]``, contiguous) and ``_ind.size()`` is the number of
    elements.
    """

    def __init__(self, in_params: str, out_params: str, operation: str, name: str = "kernel",
                 reduce_dims: bool = True, preamble: str = "", no_return: bool = False,
                 return_tuple: bool = False, loop_prep: str = "", after_loop: str = "",
                 options: Sequence[str] = ()) -> None:
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise ValueError(f"kernel name must be a C identifier, got {name!r}")
        self.in_params = _parse_params(in_params, False)
        self.out_params = _parse_params(out_params, True)
        clash = {p.name for p in self.in_params} & {p.name for p in self.out_params}
        if clash:
            raise ValueError(f"parameters named in both in_params and out_params: {sorted(clash)}")
        self.nin = len(self.in_params)
        self.nout = len(self.out_params)
        self.nargs = self.nin + self.nout
        self.operation = operation
        self.name = name
        self.preamble = preamble
        self.no_return = no_return
        self.return_tuple = return_tuple
        self.loop_prep = loop_prep
        self.after_loop = after_loop
        self._cache = _KernelCache(name, options)

    def _source(self, types, arg_dtypes, contiguous, ndim):
        ps = self.in_params + self.out_params
        lines = [_TYPEDEFS, _typedefs(types), "struct accel_index { long long n; "
                 "__device__ long long size() const { return n; } };",
                 "template <class T> struct accel_raw { T* p; long long n; "
                 "__device__ T& operator[](long long k) const { return p[k]; } "
                 "__device__ long long size() const { return n; } };", self.preamble]
        sig, loads = [], []
        for k, (p, dt) in enumerate(zip(ps, arg_dtypes, strict=True)):
            ct = _ctype_of(p, types)
            if dt is None:  # a scalar
                sig.append(f"{ct} {p.name}")
            elif p.raw:
                sig.append(f"{_CTYPES[dt]}* __restrict__ _raw_{p.name}")
                loads.append(f"const accel_raw<{_CTYPES[dt]}> {p.name}{{_raw_{p.name}, "
                             f"_P.rawn[{k}]}};")
            else:
                sig.append(f"char* __restrict__ _p_{p.name}")
                ptr = f"(_p_{p.name} + _o{k})"
                if p.is_output:
                    loads.append(f"{ct}& {p.name} = *reinterpret_cast<{ct}*>{ptr};")
                else:
                    loads.append(f"const {ct} {p.name} = static_cast<{ct}>("
                                 f"*reinterpret_cast<const {_CTYPES[dt]}*>{ptr});")
        nd = max(ndim, 1)
        lines.append(f"struct accel_ew_params {{ long long n; long long shape[{nd}]; "
                     f"long long strides[{len(ps)}][{nd}]; long long rawn[{len(ps)}]; }};")
        offsets = []
        for k, (p, dt) in enumerate(zip(ps, arg_dtypes, strict=True)):
            if dt is None or p.raw:
                continue
            if contiguous:
                offsets.append(f"const long long _o{k} = i * {np.dtype(dt).itemsize}LL;")
            else:
                offsets.append(f"long long _o{k} = 0;")
        walk = ""
        if not contiguous and ndim:
            adds = "".join(f" _o{k} += _c * _P.strides[{k}][_d];"
                           for k, (p, dt) in enumerate(zip(ps, arg_dtypes, strict=True))
                           if dt is not None and not p.raw)
            walk = (f"    long long _r = i;\n    for (int _d = {ndim - 1}; _d >= 0; --_d) {{ "
                    f"const long long _c = _r % _P.shape[_d]; _r /= _P.shape[_d];{adds} }}\n")
        body = "\n    ".join(offsets)
        lines.append(
            f'extern "C" __global__ void {self.name}({", ".join(sig + ["accel_ew_params _P"])}) '
            "{\n  const accel_index _ind{_P.n};\n  (void)_ind;\n  " + self.loop_prep + "\n"
            "  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < _P.n; "
            "i += (long long)blockDim.x * gridDim.x) {\n    " + body + "\n" + walk +
            "    " + "\n    ".join(loads) + "\n    " + self.operation + ";\n  }\n  " +
            self.after_loop + "\n}\n")
        return "\n".join(lines)

    def __call__(self, *args: Any, size: int | None = None, stream: Any = None) -> Any:
        """Runs the kernel over the broadcast shape of the array arguments (or `size` elements
        when none is an array). Pass inputs, then optionally the outputs."""
        if len(args) not in (self.nin, self.nargs):
            raise TypeError(f"{self.name} takes {self.nin} inputs (or {self.nargs} with the "
                            f"outputs), {len(args)} given")
        ins = [_as_array(a) if _is_array(a) else a for a in args[:self.nin]]
        outs = [_as_array(o) for o in args[self.nin:]] or [None] * self.nout
        for p, a in zip(self.in_params, ins, strict=True):
            if not p.raw and not _is_array(a) and not np.isscalar(a):
                raise TypeError(f"argument {p.name!r} must be an array or a scalar, got "
                                f"{type(a).__name__}")
            if p.raw and not _is_array(a):
                raise TypeError(f"raw argument {p.name!r} must be an array")
            if _is_array(a) and p.raw and not p.placeholder and _dtype_name(a.dtype) != p.type:
                raise TypeError(f"raw argument {p.name!r} is {p.type}; got an array of "
                                f"{a.dtype}")
        types = _resolve_types(self.in_params, self.out_params, ins, outs)
        # Given outputs take part in the broadcast, as in CuPy: inputs of shape (n, 1) fill an
        # output of shape (n, m), one thread per output element.
        arrays = [a for p, a in zip(self.in_params, ins, strict=True) if _is_array(a)
                  and not p.raw]
        if arrays:
            arrays += [o for p, o in zip(self.out_params, outs, strict=True)
                       if o is not None and not p.raw]
        try:
            shape = np.broadcast_shapes(*[a.shape for a in arrays]) if arrays else None
        except ValueError:
            raise ValueError(f"{self.name}: the array arguments' shapes "
                             f"{[tuple(a.shape) for a in arrays]} do not broadcast") from None
        if shape is None:
            if size is None:
                given = [o for o in outs if o is not None]
                if given:
                    shape = given[0].shape
                else:
                    raise ValueError(f"{self.name}: no array argument gives the shape; pass "
                                     "size= or the outputs")
            else:
                shape = (int(size),)
        elif size is not None:
            raise ValueError("size= is only for kernels without array arguments")
        everything = [a for a in ins + outs if a is not None and _is_array(a)]
        dev = _device_of(everything) if everything else _default_device()
        for k, p in enumerate(self.out_params):
            if outs[k] is None:
                outs[k] = _core.empty(shape, dtype=_np_dtypes()[_ctype_of(p, types)], device=dev)
            else:
                o = outs[k]
                want = _ctype_of(p, types)
                if _dtype_name(o.dtype) != want:
                    raise TypeError(f"output {p.name!r} has dtype {o.dtype}; the kernel "
                                    f"writes {want}")
                if not p.raw and tuple(o.shape) != tuple(shape):
                    raise ValueError(f"output {p.name!r} has shape {tuple(o.shape)}; the "
                                     f"arguments broadcast to {tuple(shape)}")
        n = int(np.prod(shape, dtype=np.int64))
        ps = self.in_params + self.out_params
        vals = ins + outs
        views, dtypes = [], []
        for p, v in zip(ps, vals, strict=True):
            if not _is_array(v):
                views.append(_np_dtypes()[_ctype_of(p, types)].type(v))
                dtypes.append(None)
                continue
            if p.raw:
                if not _c_contiguous(v):
                    if p.is_output:
                        raise ValueError(f"raw output {p.name!r} must be C-contiguous")
                    v = _core.copy(v)
                views.append(v)
            else:
                views.append(_core.broadcast_to(v, shape) if not p.is_output else v)
            dtypes.append(_dtype_name(v.dtype))
        contiguous = all(d is None or p.raw or (_c_contiguous(v) and tuple(v.shape) == shape)
                         for p, v, d in zip(ps, views, dtypes, strict=True))
        ndim = 0 if contiguous else len(shape)
        key = (tuple(sorted(types.items())), tuple(dtypes), contiguous, ndim)
        kernel = self._cache.get(key, lambda: self._source(types, dtypes, contiguous, ndim))
        nd = max(ndim, 1)
        strides = []
        rawn = []
        for p, v, d in zip(ps, views, dtypes, strict=True):
            st = list(v.strides) if d is not None and not p.raw and ndim else []
            strides += (st + [0] * nd)[:nd]
            rawn.append(int(v.size) if d is not None else 0)
        dims = (list(shape) + [1] * nd)[:nd] if ndim else [1] * nd
        params = _pack_longs([n] + dims + strides + rawn)
        if n:
            kernel((_grid_for(n, dev),), (_BLOCK,), tuple(views) + (params,), stream=stream)
        if self.no_return:
            return None
        if self.nout == 1 and not self.return_tuple:
            return outs[0]
        return tuple(outs)


def _c_contiguous(a):
    if a.size <= 1:
        return True
    expect = a.itemsize
    for n, s in zip(reversed(a.shape), reversed(a.strides), strict=True):
        if n != 1 and s != expect:
            return False
        expect *= n
    return True


def _normalize_axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if np.isscalar(axis) else tuple(axis)
    out = []
    for a in axes:
        a = int(a)
        if not -ndim <= a < ndim:
            raise np.exceptions.AxisError(a, ndim)
        a %= ndim
        if a in out:
            raise ValueError(f"duplicate value in 'axis': {axis}")
        out.append(a)
    return tuple(sorted(out))


class ReductionKernel:
    """A reduction written in CUDA C (CuPy's ``cupy.ReductionKernel``)::

        l2 = ap.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
        l2(x, axis=1)

    ``map_expr`` computes a value from the inputs at one element, ``reduce_expr`` combines two
    values ``a`` and ``b``, ``post_map_expr`` writes the outputs from the result ``a``;
    ``identity`` is the C value reductions start from (None: an empty reduction is an error).
    Values are combined in ``reduce_type`` (default: the first output's type).
    """

    def __init__(self, in_params: str, out_params: str, map_expr: str, reduce_expr: str,
                 post_map_expr: str, identity: str | None, name: str = "reduce_kernel",
                 reduce_type: str | None = None, reduce_dims: bool = True, preamble: str = "",
                 options: Sequence[str] = ()) -> None:
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise ValueError(f"kernel name must be a C identifier, got {name!r}")
        self.in_params = _parse_params(in_params, False)
        self.out_params = _parse_params(out_params, True)
        if not self.out_params:
            raise ValueError("a ReductionKernel needs at least one output parameter")
        for p in self.in_params + self.out_params:
            if p.raw:
                raise ValueError(f"raw parameters are not supported in ReductionKernel "
                                 f"({p.name!r})")
        self.nin = len(self.in_params)
        self.nout = len(self.out_params)
        self.map_expr = map_expr
        self.reduce_expr = reduce_expr
        self.post_map_expr = post_map_expr
        self.identity = None if identity is None else str(identity)
        self.name = name
        self.reduce_type = reduce_type
        self.preamble = preamble
        self._cache = _KernelCache(name, options)

    def _source(self, types, dtypes, rtype, kept_nd, red_nd):
        ps = self.in_params
        sig, loads = [], []
        kn, rn = max(kept_nd, 1), max(red_nd, 1)
        for k, (p, dt) in enumerate(zip(ps, dtypes, strict=True)):
            ct = _ctype_of(p, types)
            if dt is None:
                sig.append(f"{ct} {p.name}")
            else:
                sig.append(f"const char* __restrict__ _p_{p.name}")
                loads.append(f"const {ct} {p.name} = static_cast<{ct}>(*reinterpret_cast<const "
                             f"{_CTYPES[dt]}*>(_p_{p.name} + _ko{k} + _ro{k}));")
        for p in self.out_params:
            sig.append(f"char* __restrict__ _p_{p.name}")
        arrays = [k for k, dt in enumerate(dtypes) if dt is not None]

        def walk(prefix, index, nd, shape, strides):
            decl = "".join(f" long long {prefix}{k} = 0;" for k in arrays)
            if not nd:
                return decl
            adds = "".join(f" {prefix}{k} += _c * _P.{strides}[{k}][_d];" for k in arrays)
            return (f"{decl} {{ long long _r = {index}; for (int _d = {nd - 1}; _d >= 0; --_d) "
                    f"{{ const long long _c = _r % _P.{shape}[_d]; _r /= _P.{shape}[_d];"
                    f"{adds} }} }}")

        has_identity = self.identity is not None
        out_refs = "".join(f"{_ctype_of(p, types)}& {p.name} = *reinterpret_cast<"
                           f"{_ctype_of(p, types)}*>(_p_{p.name} + _i * "
                           f"sizeof({_ctype_of(p, types)})); "
                           for p in self.out_params)
        combine = ("_acc = REDUCE(_acc, _v);" if has_identity else
                   "_acc = _has ? REDUCE(_acc, _v) : _v; _has = true;")
        init = (f"_type_reduce _acc = _type_reduce({self.identity}); const bool _has = true;"
                if has_identity else "_type_reduce _acc{}; bool _has = false;")
        tree = (
            "if (_lane < _s) { _type_reduce& _x = _sm[threadIdx.x]; "
            "const _type_reduce _y = _sm[threadIdx.x + _s]; "
            + ("_x = REDUCE(_x, _y);" if has_identity else
               "if (_hs[threadIdx.x + _s]) { _x = _hs[threadIdx.x] ? REDUCE(_x, _y) : _y; "
               "_hs[threadIdx.x] = true; }") + " }")
        return "\n".join([
            _TYPEDEFS, _typedefs(types), f"typedef {_CTYPES[rtype]} _type_reduce;",
            self.preamble,
            f"#define REDUCE(a, b) ({self.reduce_expr})",
            f"struct accel_red_params {{ long long n_out, n_red; int tpo; "
            f"long long kshape[{kn}]; long long rshape[{rn}]; "
            f"long long kstrides[{len(ps)}][{kn}]; long long rstrides[{len(ps)}][{rn}]; }};",
            f'extern "C" __global__ void {self.name}({", ".join(sig + ["accel_red_params _P"])})'
            " {",
            f"  alignas(16) __shared__ unsigned char _smraw[{_BLOCK} * sizeof(_type_reduce)];",
            "  _type_reduce* _sm = reinterpret_cast<_type_reduce*>(_smraw);",
            "" if has_identity else f"  __shared__ bool _hs[{_BLOCK}];",
            "  const int _tpo = _P.tpo, _lane = threadIdx.x % _tpo;",
            "  const long long _opb = blockDim.x / _tpo;",
            "  for (long long _base = blockIdx.x * _opb; _base < _P.n_out; "
            "_base += (long long)gridDim.x * _opb) {",
            "    const long long _i = _base + threadIdx.x / _tpo;",
            f"    {init}",
            "    if (_i < _P.n_out) {",
            "      " + walk("_ko", "_i", kept_nd, "kshape", "kstrides"),
            "      for (long long _j = _lane; _j < _P.n_red; _j += _tpo) {",
            "        " + walk("_ro", "_j", red_nd, "rshape", "rstrides"),
            "        " + "\n        ".join(loads),
            f"        const _type_reduce _v = static_cast<_type_reduce>({self.map_expr});",
            f"        {combine}",
            "      }",
            "    }",
            "    __syncthreads();",
            "    _sm[threadIdx.x] = _acc;",
            "" if has_identity else "    _hs[threadIdx.x] = _has;",
            "    for (int _s = _tpo >> 1; _s > 0; _s >>= 1) {",
            "      __syncthreads();",
            f"      {tree}",
            "    }",
            "    __syncthreads();",
            "    if (_lane == 0 && _i < _P.n_out) {",
            "      const _type_reduce a = _sm[threadIdx.x];",
            f"      {out_refs}",
            f"      {self.post_map_expr};",
            "    }",
            "  }",
            "}",
        ])

    def __call__(self, *args: Any, out: Any = None, axis: int | tuple[int, ...] | None = None,
                 keepdims: bool = False, stream: Any = None) -> Any:
        """Reduces the broadcast inputs over `axis` (None: all axes); `out` receives the result
        (one output) or a tuple of outputs."""
        if len(args) != self.nin:
            raise TypeError(f"{self.name} takes {self.nin} inputs, {len(args)} given")
        ins = [_as_array(a) if _is_array(a) else a for a in args]
        for p, a in zip(self.in_params, ins, strict=True):
            if not _is_array(a) and not np.isscalar(a):
                raise TypeError(f"argument {p.name!r} must be an array or a scalar, got "
                                f"{type(a).__name__}")
        arrays = [a for a in ins if _is_array(a)]
        if not arrays:
            raise ValueError(f"{self.name}: at least one input must be an array")
        outs = [None] * self.nout
        if out is not None:
            given = list(out) if isinstance(out, tuple | list) else [out]
            if len(given) != self.nout:
                raise ValueError(f"{self.name} has {self.nout} outputs, {len(given)} given")
            outs = [_as_array(o) for o in given]
        types = _resolve_types(self.in_params, self.out_params, ins, outs)
        rtype_name = self.reduce_type or self.out_params[0].type
        rtype = (types.get(rtype_name) if rtype_name not in _CTYPES else rtype_name)
        if rtype is None:
            raise TypeError(f"cannot determine reduce_type {rtype_name}")
        shape = tuple(np.broadcast_shapes(*[a.shape for a in arrays]))
        axes = _normalize_axes(axis, len(shape))
        kept = [d for d in range(len(shape)) if d not in axes]
        out_shape = tuple(1 if d in axes else shape[d] for d in range(len(shape))) if keepdims \
            else tuple(shape[d] for d in kept)
        n_red = int(np.prod([shape[d] for d in axes], dtype=np.int64))
        n_out = int(np.prod([shape[d] for d in kept], dtype=np.int64))
        if n_red == 0 and self.identity is None and n_out:
            raise ValueError(f"zero-size reduction in {self.name}, which has no identity")
        dev = _device_of([a for a in ins + outs if a is not None and _is_array(a)])
        for k, p in enumerate(self.out_params):
            want = _ctype_of(p, types)
            if outs[k] is None:
                outs[k] = _core.empty(out_shape, dtype=_np_dtypes()[want], device=dev)
            else:
                o = outs[k]
                if _dtype_name(o.dtype) != want:
                    raise TypeError(f"output {p.name!r} has dtype {o.dtype}; the kernel "
                                    f"writes {want}")
                if tuple(o.shape) != out_shape or not _c_contiguous(o):
                    raise ValueError(f"output {p.name!r} must be C-contiguous with shape "
                                     f"{out_shape}, got {tuple(o.shape)}")
        views, dtypes = [], []
        for p, v in zip(self.in_params, ins, strict=True):
            if _is_array(v):
                views.append(_core.broadcast_to(v, shape))
                dtypes.append(_dtype_name(v.dtype))
            else:
                views.append(_np_dtypes()[_ctype_of(p, types)].type(v))
                dtypes.append(None)
        key = (tuple(sorted(types.items())), tuple(dtypes), rtype, len(kept), len(axes))
        kernel = self._cache.get(
            key, lambda: self._source(types, dtypes, rtype, len(kept), len(axes)))
        kn, rn = max(len(kept), 1), max(len(axes), 1)
        kshape = ([shape[d] for d in kept] + [1] * kn)[:kn]
        rshape = ([shape[d] for d in axes] + [1] * rn)[:rn]
        kstr, rstr = [], []
        for v, d in zip(views, dtypes, strict=True):
            st = list(v.strides) if d is not None else [0] * len(shape)
            kstr += ([st[d] for d in kept] + [0] * kn)[:kn]
            rstr += ([st[d] for d in axes] + [0] * rn)[:rn]
        tpo = 1
        while tpo < min(n_red, _BLOCK):
            tpo *= 2
        params = (struct.pack("<qqi4x", n_out, n_red, tpo) +
                  _pack_longs(kshape + rshape + kstr + rstr))
        if n_out:
            opb = _BLOCK // tpo
            grid = max(1, min((n_out + opb - 1) // opb, _processors(dev) * 32))
            kernel((grid,), (_BLOCK,), tuple(views) + tuple(outs) + (params,), stream=stream)
        return outs[0] if self.nout == 1 else tuple(outs)
