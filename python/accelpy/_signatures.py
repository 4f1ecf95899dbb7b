"""Signatures (PEP 362) for the functions the C++ core exports.

`inspect.signature` of a nanobind function is (*args, **kwargs) on Python 3.12.3 and later (a
callable of an extension type without ``__text_signature__``) and a ValueError before: the Array
API suite's signature tests, and anything else that inspects accelpy's functions, saw no
parameters. nanobind's functions take no attributes, so each public one is exported as a
``functools.partial`` (called in C: tens of nanoseconds more per call) carrying the signature
parsed from nanobind's own rendering of the binding's ``nb::sig``, the one written signature.
They replace the functions in accelpy._core itself, before any other module imports them.
Internal calls through them pay the same few tens of nanoseconds; operators, ufuncs and
methods are not nanobind functions and are unchanged."""

from __future__ import annotations

import ast
import functools
import inspect
import re
from typing import Any

from . import _core

_NB_FUNC = type(_core.promote_types)
_P = inspect.Parameter


class _Source:
    """A default value that is not a literal, shown as its source text."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


NO_VALUE = _Source("<no value>")  # a parameter that only some overloads take


def _parse(text: str) -> ast.FunctionDef:
    """One overload's ``def name(...) -> ...`` rendering, where nanobind writes a default value
    given in C++ as ``\\N`` (the Nth of the overload's defaults)."""
    text = re.sub(r"\\(\d+)", r"_nb_default_\1", text)
    return ast.parse(text + ": ...").body[0]  # type: ignore[return-value]


def _parameters(text: str, defaults: tuple | None) -> list[inspect.Parameter]:
    """The parameters of one overload, its defaults given their values."""
    args = _parse(text).args
    params: list[inspect.Parameter] = []

    def add(arg: ast.arg, kind: Any, default: ast.expr | None) -> None:
        value = _P.empty
        if isinstance(default, ast.Name) and default.id.startswith("_nb_default_"):
            value = defaults[int(default.id.removeprefix("_nb_default_"))]  # type: ignore[index]
        elif default is not None:
            try:
                value = ast.literal_eval(default)
            except ValueError:
                value = _Source(ast.unparse(default))
        note = ast.unparse(arg.annotation) if arg.annotation is not None else _P.empty
        params.append(_P(arg.arg, kind, default=value, annotation=note))

    positional = args.posonlyargs + args.args
    given = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for i, (arg, default) in enumerate(zip(positional, given, strict=True)):
        add(arg, _P.POSITIONAL_ONLY if i < len(args.posonlyargs) else _P.POSITIONAL_OR_KEYWORD,
            default)
    if args.vararg is not None:
        add(args.vararg, _P.VAR_POSITIONAL, None)
    for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        add(arg, _P.KEYWORD_ONLY, default)
    if args.kwarg is not None:
        add(args.kwarg, _P.VAR_KEYWORD, None)
    return params


def signature_of(fn: Any) -> inspect.Signature:
    """The signature of a nanobind function; of several overloads, the longest, its parameters
    that the others lack given NumPy's ``<no value>`` default (as numpy.where's)."""
    overloads = [_parameters(sig, defaults) for sig, _doc, defaults in fn.__nb_signature__]
    longest = max(overloads, key=len)
    if len(overloads) > 1:
        shortest = min(len(o) for o in overloads)
        longest = [p if i < shortest or p.default is not _P.empty else p.replace(default=NO_VALUE)
                   for i, p in enumerate(longest)]
        return inspect.Signature(longest)
    returns = _parse(fn.__nb_signature__[0][0]).returns
    return inspect.Signature(longest, return_annotation=_P.empty if returns is None
                             else ast.unparse(returns))


class BoundFunction(functools.partial):
    """A function bound in C++, with its signature: called as the binding is, shown and pickled
    as the public function it is (by name, as pickle does Python's builtins, so that Dask's
    distributed scheduler can send ``x.map_blocks(ap.sort)`` to its workers)."""

    @property
    def __signature__(self) -> inspect.Signature:
        # Parsed on first use: all of them at import would add ~10 ms to `import accelpy`.
        sig = self.__dict__.get("_signature")
        if sig is None:
            sig = self.__dict__["_signature"] = signature_of(self.func)
        return sig

    def __repr__(self) -> str:
        return f"<function {self.__module__}.{self.__name__}>"

    def __reduce__(self) -> str:
        return self.__name__


def with_signature(fn: Any, module: str) -> Any:
    """`fn` as a partial that `inspect.signature` and `help` read as the function it is."""
    out = BoundFunction(fn)
    out.__name__ = out.__qualname__ = fn.__name__  # type: ignore[attr-defined]
    out.__module__ = module
    out.__doc__ = fn.__doc__
    return out


def sign_namespace(namespace: dict[str, Any], module: str) -> None:
    """Replaces each public nanobind function in a module's namespace by its signed partial."""
    signed: dict[int, Any] = {}  # one partial for a function exported under two names
    for name, value in list(namespace.items()):
        if type(value) is _NB_FUNC and not name.startswith("_"):
            if id(value) not in signed:
                signed[id(value)] = with_signature(value, module)
            namespace[name] = signed[id(value)]


# The package imports this module first, so that every module importing the core's functions
# by name gets them signed (and the package re-exports the same objects).
sign_namespace(vars(_core), "accelpy")
