"""numpy.lib's public submodules that programs reach through ``np.lib``: ``stride_tricks`` and
``recfunctions`` (imported on first use: it imports NumPy's, which imports numpy.ma)."""

import importlib
from typing import Any

from . import stride_tricks as stride_tricks

__all__ = ["recfunctions", "stride_tricks"]


def __getattr__(name: str) -> Any:
    if name == "recfunctions":  # `from . import` would ask this function again: recursion
        return importlib.import_module(f"{__name__}.recfunctions")
    raise AttributeError(f"module 'accelpy.lib' has no attribute {name!r}")
