"""Miscellaneous routines (NumPy's chapter of that name): ``show_config``."""

import sys

import numpy as np

from . import _core

__all__ = ["show_config"]


def _config():
    # Imported here: importlib.metadata brings zipfile and threading, which `import accelpy`
    # does not load (tests/python/test_startup.py).
    import importlib.metadata  # noqa: PLC0415
    import platform  # noqa: PLC0415

    try:
        version = importlib.metadata.version("accelpy")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    from . import cuda  # noqa: PLC0415 (the CUDA driver is looked for only when asked)

    return {
        "accelpy": {"version": version, "cpu threads": _core._num_threads(),
                    "cuda available": cuda.is_available()},
        "Python Information": {"version": sys.version.split()[0],
                               "platform": platform.platform()},
        "numpy": np.show_config(mode="dicts"),
    }


def show_config(mode="stdout"):
    """accelpy's configuration (its version, CPU threads, whether a GPU is usable) and NumPy's
    (numpy.show_config): printed (mode 'stdout') or returned as a dict (mode 'dicts')."""
    if mode not in ("stdout", "dicts"):
        raise AttributeError("Invalid `mode`, use one of: stdout, dicts")
    config = _config()
    if mode == "dicts":
        return config
    for section in ("accelpy", "Python Information"):
        print(f"{section}:")
        for key, value in config[section].items():
            print(f"  {key}: {value}")
    np.show_config()
    return None
