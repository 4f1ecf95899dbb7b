#!/usr/bin/env python3
"""Generates the type stub of accelpy's C++ module, python/accelpy/_core.pyi, with nanobind's
stubgen (the Python modules carry their own annotations). Run it after adding or changing
bindings:

    .venv/bin/python scripts/gen_stubs.py           # writes the stubs
    .venv/bin/python scripts/gen_stubs.py --check   # exit 1 if the checked-in stubs are stale

nanobind types every handle argument and result as `object`. Patterns (below, and one per row
of the elementwise op table) give the public functions and the ndarray methods precise
signatures; whatever no pattern names (a function added later) keeps nanobind's argument types
and returns `Any`, so that user code type-checks without false errors until a pattern exists.
"""

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = os.path.join(ROOT, "python", "accelpy")

PREFIX = r"""
accelpy\._core\.__prefix__$:
    from collections.abc import Iterator, Sequence
    from types import ModuleType
    from typing import Any, ClassVar, Literal, TypeAlias, overload
    import numpy
    import numpy.typing

    # What the functions accept as arrays: accelpy and NumPy arrays, Python and NumPy scalars,
    # nested sequences, and other libraries' arrays (DLPack / CUDA array interface).
    ArrayLike: TypeAlias = ndarray | numpy.typing.ArrayLike | Any
    DTypeLike: TypeAlias = numpy.typing.DTypeLike
    DeviceLike: TypeAlias = Device | str
    Axis: TypeAlias = int | tuple[int, ...] | None
    ShapeLike: TypeAlias = int | Sequence[int]
"""

# Module functions and ndarray members nanobind cannot type; keyed by regular expressions over
# qualified names (nanobind's pattern-file syntax; \doc keeps the docstring).
# sum and prod take initial= and where=, mean where=; max and min both, any and all where=.
WHERE = "where: ArrayLike = True"
INITIAL = "initial: complex | None = None"
REDUCTION = ("(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, "
             "out: ndarray | None = None, keepdims: bool = False{}) -> ndarray:")
REDUCTION_NO_DTYPE = ("(a: ArrayLike, axis: Axis = None, out: ndarray | None = None, "
                      "keepdims: bool = False{}) -> ndarray:")
EXTRAS = {"sum": f", {INITIAL}, {WHERE}", "prod": f", {INITIAL}, {WHERE}",
          "mean": f", *, {WHERE}", "max": f", {INITIAL}, {WHERE}", "min": f", {INITIAL}, {WHERE}",
          "any": f", *, {WHERE}", "all": f", *, {WHERE}", "argmax": "", "argmin": ""}


def reductions(self):
    """The reductions' stub patterns, for the module (`a` first) or as methods (`self`)."""
    out = {}
    for name, extra in EXTRAS.items():
        sig = (REDUCTION if name in ("sum", "prod", "mean") else REDUCTION_NO_DTYPE).format(extra)
        if self:
            sig = "(self, " + sig.split("(", 1)[1].split(", ", 1)[1]
        out[name] = f"def {name}{sig}"
    return out


VAR = ("(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, "
       "out: ndarray | None = None, ddof: float = 0.0, keepdims: bool = False, *, "
       "correction: float | None = None) -> ndarray:")
CREATION_DEVICE = "*, device: DeviceLike | None = None) -> ndarray:"

MODULE = {
    **reductions(self=False),
    r"(var|std)": "def \\1" + VAR,
    r"clip": ("def clip(x: ArrayLike, min: ArrayLike | None = None, max: ArrayLike | None = None,"
              " *, out: ndarray | None = None) -> ndarray:"),
    r"round": "def round(x: ArrayLike, decimals: int = 0, *, out: ndarray | None = None) -> "
              "ndarray:",
    r"where": "def where(condition: ArrayLike, x: ArrayLike, y: ArrayLike) -> ndarray:",
    r"reshape": "def reshape(a: ArrayLike, shape: ShapeLike) -> ndarray:",
    r"ravel": "def ravel(a: ArrayLike) -> ndarray:",
    r"transpose": "def transpose(a: ArrayLike, axes: Sequence[int] | None = None) -> ndarray:",
    r"swapaxes": "def swapaxes(a: ArrayLike, axis1: int, axis2: int) -> ndarray:",
    r"moveaxis": ("def moveaxis(a: ArrayLike, source: int | Sequence[int], "
                  "destination: int | Sequence[int]) -> ndarray:"),
    r"squeeze": "def squeeze(a: ArrayLike, axis: Axis = None) -> ndarray:",
    r"expand_dims": "def expand_dims(a: ArrayLike, axis: int | Sequence[int]) -> ndarray:",
    r"broadcast_to": "def broadcast_to(array: ArrayLike, shape: ShapeLike) -> ndarray:",
    r"broadcast_arrays": "def broadcast_arrays(*arrays: ArrayLike) -> tuple[ndarray, ...]:",
    r"concatenate": ("def concatenate(arrays: Sequence[ArrayLike], axis: int | None = 0) -> "
                     "ndarray:"),
    r"stack": "def stack(arrays: Sequence[ArrayLike], axis: int = 0) -> ndarray:",
    r"copy": "def copy(a: ArrayLike) -> ndarray:",
    r"astype": "def astype(x: ArrayLike, dtype: DTypeLike, *, copy: bool = True) -> ndarray:",
    r"(real|imag)": "def \\1(x: ArrayLike) -> ndarray:",
    r"(empty|zeros|ones)": ("def \\1(shape: ShapeLike, dtype: DTypeLike | None = None, "
                            + CREATION_DEVICE),
    r"full": ("def full(shape: ShapeLike, fill_value: complex, dtype: DTypeLike | None = None, "
              + CREATION_DEVICE),
    r"arange": ("def arange(start: float, stop: float | None = None, step: float | None = None,"
                " dtype: DTypeLike | None = None, " + CREATION_DEVICE),
    r"linspace": ("def linspace(start: complex, stop: complex, num: int = 50, "
                  "endpoint: bool = True, dtype: DTypeLike | None = None, " + CREATION_DEVICE),
    r"eye": ("def eye(N: int, M: int | None = None, k: int = 0, dtype: DTypeLike | None = None, "
             + CREATION_DEVICE),
    r"asnumpy": "def asnumpy(a: ArrayLike) -> numpy.ndarray[Any, Any]:",
    r"eval": "def eval(*arrays: ndarray) -> None:",
    r"result_type": "def result_type(*arrays_and_dtypes: ArrayLike | DTypeLike) -> "
                    "numpy.dtype[Any]:",
    r"can_cast": ("def can_cast(from_: ndarray | DTypeLike, to: DTypeLike, "
                  "casting: str = 'safe') -> bool:"),
    r"promote_types": ("def promote_types(type1: DTypeLike, type2: DTypeLike) -> "
                       "numpy.dtype[Any]:"),
    r"get_default_device": "def get_default_device() -> Device:",
    r"set_default_device": "def set_default_device(device: DeviceLike) -> None:",
    # the matmul family
    r"matmul": ("def matmul(x1: ArrayLike, x2: ArrayLike, /, *, out: ndarray | None = None, "
                "dtype: DTypeLike | None = None) -> ndarray:"),
    r"dot": "def dot(a: ArrayLike, b: ArrayLike, out: ndarray | None = None) -> ndarray:",
    r"outer": "def outer(a: ArrayLike, b: ArrayLike, out: ndarray | None = None) -> ndarray:",
    r"(vdot|inner)": "def \\1(a: ArrayLike, b: ArrayLike) -> ndarray:",
    r"tensordot": ("def tensordot(a: ArrayLike, b: ArrayLike, axes: int | "
                   "tuple[int | Sequence[int], int | Sequence[int]] = 2) -> ndarray:"),
    r"matrix_transpose": "def matrix_transpose(x: ArrayLike, /) -> ndarray:",
    r"vecdot": "def vecdot(x1: ArrayLike, x2: ArrayLike, /, *, axis: int = -1) -> ndarray:",
    r"einsum": ("def einsum(*operands: Any, out: ndarray | None = None, "
                "dtype: DTypeLike | None = None, casting: str = 'safe', "
                "optimize: Any = False) -> ndarray:"),
}

DEVICE = {
    r"__init__": "def __init__(self, device: DeviceLike) -> None:",
    r"__eq__": "def __eq__(self, other: object, /) -> bool:",
    r"__exit__": "def __exit__(self, *args: object) -> None:",
}

BINARY_DUNDERS = ("add sub mul truediv floordiv mod and or xor lshift rshift pow matmul").split()
ARRAY = {
    r"(shape|strides)": "@property\ndef \\1(self) -> tuple[int, ...]:",
    r"dtype": "@property\ndef dtype(self) -> numpy.dtype[Any]:",
    r"(T|mT)": "@property\ndef \\1(self) -> ndarray:",
    r"(real|imag)": ("@property\ndef \\1(self) -> ndarray:\n    \\doc\n@\\1.setter\n"
                     "def \\1(self, value: ArrayLike, /) -> None: ..."),
    r"__cuda_array_interface__": "@property\ndef __cuda_array_interface__(self) -> dict[str, Any]:",
    r"__hash__": "__hash__: ClassVar[None]  # type: ignore[assignment]",
    r"__array_priority__": "__array_priority__: ClassVar[int]",
    r"__getitem__": "def __getitem__(self, key: Any, /) -> ndarray:",
    r"__setitem__": "def __setitem__(self, key: Any, value: ArrayLike, /) -> None:",
    r"__iter__": "def __iter__(self) -> Iterator[ndarray]:",
    r"(__repr__|__str__)": "def \\1(self) -> str:",
    r"__format__": "def __format__(self, spec: str, /) -> str:",
    r"__complex__": "def __complex__(self) -> complex:",
    r"__index__": "def __index__(self) -> int:",
    r"item": "def item(self, *args: int) -> Any:",
    r"tolist": "def tolist(self) -> Any:",
    r"get": "def get(self) -> numpy.ndarray[Any, Any]:",
    r"__array__": ("def __array__(self, dtype: DTypeLike | None = None, copy: bool | None = None)"
                   " -> numpy.ndarray[Any, Any]:"),
    r"astype": "def astype(self, dtype: DTypeLike, copy: bool = True) -> ndarray:",
    r"(to|to_device)": "def \\1(self, device: DeviceLike, /, *, stream: Any = None) -> ndarray:",
    r"reshape": "def reshape(self, *shape: int | Sequence[int]) -> ndarray:",
    r"transpose": "def transpose(self, *axes: int | Sequence[int] | None) -> ndarray:",
    r"squeeze": "def squeeze(self, axis: Axis = None) -> ndarray:",
    r"fill": "def fill(self, value: complex) -> None:",
    **reductions(self=True),
    r"(var|std)": "def \\1(self, " + VAR.split("(", 1)[1].split(", ", 1)[1],
    r"clip": ("def clip(self, min: ArrayLike | None = None, max: ArrayLike | None = None, "
              "out: ndarray | None = None) -> ndarray:"),
    r"round": "def round(self, decimals: int = 0, out: ndarray | None = None) -> ndarray:",
    r"__dlpack__": ("def __dlpack__(self, *, stream: int | Any | None = None, "
                    "max_version: tuple[int, int] | None = None, "
                    "dl_device: tuple[int, int] | None = None, copy: bool | None = None) -> Any:"),
    r"__dlpack_device__": "def __dlpack_device__(self) -> tuple[int, int]:",
    r"__array_namespace__": ("def __array_namespace__(self, /, *, api_version: str | None = None)"
                             " -> ModuleType:"),
    r"__array_ufunc__": ("def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, "
                         "**kwargs: Any) -> Any:"),
    r"__array_function__": ("def __array_function__(self, func: Any, types: Any, args: Any, "
                            "kwargs: Any) -> Any:"),
    r"diagonal": "def diagonal(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> ndarray:",
    r"trace": ("def trace(self, offset: int = 0, axis1: int = 0, axis2: int = 1, "
               "dtype: DTypeLike | None = None, out: ndarray | None = None) -> ndarray:"),
    r"repeat": "def repeat(self, repeats: ArrayLike, axis: int | None = None) -> ndarray:",
    r"__reduce__": "def __reduce__(self) -> tuple[Any, ...]:",
    r"__sizeof__": "def __sizeof__(self) -> int:",
    r"flags": "@property\ndef flags(self) -> Any:",
    r"_writeable": "@property\ndef _writeable(self) -> bool:",
    r"tobytes": "def tobytes(self, order: str = 'C') -> bytes:",
    r"view": "def view(self, dtype: DTypeLike | None = None, type: None = None) -> ndarray:",
    r"__dask_tokenize__": "def __dask_tokenize__(self) -> tuple[str, str]:",
    r"dot": "def dot(self, b: ArrayLike, out: ndarray | None = None) -> ndarray:",
    r"(__eq__|__ne__)": "def \\1(self, other: object, /) -> ndarray:  # type: ignore[override]",
    r"(__lt__|__le__|__gt__|__ge__)": "def \\1(self, other: ArrayLike, /) -> ndarray:",
    r"(__neg__|__pos__|__abs__|__invert__)": "def \\1(self) -> ndarray:",
    "(" + "|".join(f"__{d}__|__r{d}__|__i{d}__" for d in BINARY_DUNDERS) + ")":
        "def \\1(self, other: ArrayLike, /) -> ndarray:",
}


def _pattern_block(query, signature, doc=True):
    lines = signature.split("\n")
    body = ["    " + ln for ln in lines]
    if doc and lines[-1].startswith("def ") and not lines[-1].endswith("..."):
        body.append("        \\doc")
    return query + ":\n" + "\n".join(body) + "\n"


def patterns():
    import accelpy

    out = [PREFIX.strip("\n") + "\n"]
    for name, sig in DEVICE.items():
        out.append(_pattern_block(rf"accelpy\._core\.Device\.{name}$", sig))
    for name, sig in ARRAY.items():
        out.append(_pattern_block(rf"accelpy\._core\.ndarray\.{name}$", sig))
    for name, sig in MODULE.items():
        out.append(_pattern_block(rf"accelpy\._core\.{name}$", sig))
    for name, arity, _dtypes, _result in accelpy._core._elementwise_ops():
        args = "x: ArrayLike, /" if arity == 1 else "x1: ArrayLike, x2: ArrayLike, /"
        out.append(_pattern_block(
            rf"accelpy\._core\.{name}$",
            f"def {name}({args}, *, out: ndarray | None = None) -> ndarray:"))
    return "\n".join(out)


def generate_core(tmp):
    pattern_file = os.path.join(tmp, "core.patterns")
    with open(pattern_file, "w") as f:
        f.write(patterns())
    out = os.path.join(tmp, "_core.pyi")
    subprocess.run([sys.executable, "-m", "nanobind.stubgen", "-q", "-m", "accelpy._core",
                    "-p", pattern_file, "-o", out], check=True)
    with open(out) as f:
        text = f.read()
    version = _nanobind_version()
    text = f"# Generated by scripts/gen_stubs.py with nanobind {version}; do not edit.\n" + text
    # The exception is created in C++ under the package's name: declare it here instead.
    text = text.replace("from accelpy import OutOfMemoryError as OutOfMemoryError\n",
                        "class OutOfMemoryError(MemoryError):\n"
                        "    \"\"\"Raised when device or host memory is exhausted.\"\"\"\n")
    # Results nanobind could not type: Any (permissive) rather than object (unusable).
    text = re.sub(r"\) -> object:", ") -> Any:", text)
    text = re.sub(r"\) -> tuple:", ") -> tuple[Any, ...]:", text)
    return text


def _nanobind_version():
    import importlib.metadata

    return importlib.metadata.version("nanobind")


def _recorded_nanobind_version():
    path = os.path.join(PKG, "_core.pyi")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        m = re.match(r"# Generated by scripts/gen_stubs.py with nanobind (\S+);", f.readline())
    return m.group(1) if m else None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    recorded = _recorded_nanobind_version()
    if args.check and recorded and recorded != _nanobind_version():
        # Another stubgen formats differently: only a regeneration can compare.
        print(f"the stubs were generated with nanobind {recorded}; this is nanobind "
              f"{_nanobind_version()}: not compared", file=sys.stderr)
        return 3
    with tempfile.TemporaryDirectory() as tmp:
        generated = {"_core.pyi": generate_core(tmp)}
    stale = []
    for name, text in generated.items():
        path = os.path.join(PKG, name)
        old = open(path).read() if os.path.exists(path) else ""
        if old == text:
            continue
        if args.check:
            stale.append(name)
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True), f"checked-in {name}",
                f"generated {name}", n=1))
        else:
            with open(path, "w") as f:
                f.write(text)
            print(f"wrote {os.path.relpath(path, ROOT)}")
    if stale:
        print(f"\nstale stubs: {', '.join(stale)}; run scripts/gen_stubs.py", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
