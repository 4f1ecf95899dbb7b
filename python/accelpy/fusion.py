"""Controls of automatic fusion: the debug log and the bound on memory pending work keeps alive.

    import accelpy as ap
    with ap.debug_fusion() as groups:          # every group run is printed to stderr ...
        ap.eval(ap.sqrt(x * x + y * y) * 2.0)
    groups[0]["ops"]                           # ... and kept: ops, inputs, outputs, kernel, cache

    ap.set_max_pending_bytes(256 << 20)        # evaluate pending work that alone holds 256 MiB

ACCELPY_DEBUG_FUSION=1 logs every group of the process to stderr; ACCELPY_MAX_PENDING_BYTES sets
the initial bound; ACCELPY_FUSION=0 runs every operation as its own kernel (results identical).
Elementwise operations over computed CPU arrays of at most ACCELPY_EAGER_ELEMENTS elements
(default 2048; 0: none) are computed at the call, where deferring costs more than computing
(`set_eager_elements`, `with eager(0):`); the values are the same either way.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from . import _core

max_pending_bytes = _core.max_pending_bytes
set_max_pending_bytes = _core.set_max_pending_bytes
eager_elements = _core.eager_elements
set_eager_elements = _core.set_eager_elements


@contextlib.contextmanager
def eager(n: int) -> Iterator[None]:
    """Within the block, elementwise operations over computed CPU arrays of results up to `n`
    elements are computed at the call (0: all are deferred and fuse); restored after."""
    previous = _core.eager_elements()
    _core.set_eager_elements(n)
    try:
        yield
    finally:
        _core.set_eager_elements(previous)


@contextlib.contextmanager
def debug_fusion(stream: TextIO | str | None = "stderr") -> Iterator[list[dict[str, Any]]]:
    """Logs every group (kernel) run inside the block: its ops, inputs, outputs, kernel name and
    whether it was a cache hit. Each record (a dict) is appended to the list this yields and, when
    `stream` is not None, written to it as one line (default: sys.stderr as it is when the block
    starts). Blocks nest; the outer log resumes after."""
    records = []
    if stream == "stderr":
        stream = sys.stderr

    def log(record):
        records.append(record)
        if stream is not None:
            print(record["line"], file=stream)

    previous = _current[-1] if _current else _from_environment()
    _current.append(log)
    _core._set_fusion_logger(log)
    try:
        yield records
    finally:
        _current.pop()
        _core._set_fusion_logger(previous)


_current = []


def _from_environment():
    """The logger ACCELPY_DEBUG_FUSION=1 starts the process with (to stderr), else None."""
    if os.environ.get("ACCELPY_DEBUG_FUSION", "0") in ("", "0"):
        return None
    return lambda record: print(record["line"], file=sys.stderr)


def stats() -> dict[str, int]:
    """Counters since the last reset_stats(): groups (kernels) run, nodes computed, results
    written, distinct group structures run (what compiled kernels depend on: a bound on the kernels
    a program compiles), runs of a structure seen before, early evaluations by the
    pending-memory bound, and evaluations whose plan came from the plan cache (a pending graph of
    the same structure planned before: plan_cache_hits) or was made (plan_cache_misses)."""
    return dict(_core._fusion_stats())


def reset_stats() -> None:
    """Sets the counters of stats() to zero and forgets the structures and plans seen."""
    _core._reset_eval_stats()


def fuse(*args: Any, kernel_name: str | None = None) -> Any:
    """CuPy's ``@fuse`` decorator, as ``@fuse``, ``@fuse()`` or ``@fuse(kernel_name=...)``.
    accelpy fuses every chain of elementwise operations and reductions by itself, so the
    function is returned as it is (it runs on accelpy and NumPy arrays alike); `kernel_name`
    is accepted and unused."""
    if kernel_name is not None and not isinstance(kernel_name, str):
        raise TypeError(f"fuse: kernel_name must be a str, got {type(kernel_name).__name__}")
    if len(args) == 1 and callable(args[0]):
        return args[0]
    if args:
        raise TypeError("fuse: expected a function or only keyword arguments, got "
                        f"{', '.join(type(a).__name__ for a in args)}")
    return lambda f: f
