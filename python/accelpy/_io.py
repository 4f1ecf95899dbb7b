"""Input and output (NumPy's chapter of that name): ``save``, ``load``, ``savez``,
``savez_compressed``, ``savetxt``, ``loadtxt``, ``genfromtxt``, ``fromfile``, ``frombuffer``,
``fromstring``.

Files are NumPy's formats, read and written by NumPy on the host: saving copies the arrays to
the host first, loading puts the result on the default device. ``numpy.save(f, x)`` of an
accelpy array arrives here through NumPy's ``__array_function__``. ``load`` of an .npz file
returns an NpzFile whose items are accelpy arrays, read when first asked for.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from . import _core
from ._creation import asarray
from ._structured import StructuredArray

__all__ = ["save", "load", "savez", "savez_compressed", "savetxt", "loadtxt", "genfromtxt",
           "fromfile", "frombuffer", "fromstring", "NpzFile"]


def _host(a: Any) -> Any:
    if isinstance(a, StructuredArray):  # records: NumPy's packed copy, from any device
        return a.get()
    return _core.asnumpy(a) if isinstance(a, _core.ndarray) else a


def _to_device(a: np.ndarray[Any, Any]) -> Any:
    """The array on the default device: records (named fields) as a structured array
    (accelpy._structured), void bytes as a void array (accelpy._void); object, string and date
    arrays stay NumPy arrays, as accelpy does not store them."""
    if a.dtype.names is None and a.dtype.kind in "OSUM m":
        return a
    return asarray(a)


def save(file: Any, arr: Any, allow_pickle: bool = True, **kwargs: Any) -> None:
    """Writes one array to a .npy file, as ``numpy.save``."""
    np.save(file, _host(arr), allow_pickle=allow_pickle, **kwargs)


def savez(file: Any, *args: Any, allow_pickle: bool = True, **kwds: Any) -> None:
    """Writes arrays to an uncompressed .npz file, as ``numpy.savez``."""
    np.savez(file, *(_host(a) for a in args), allow_pickle=allow_pickle,
             **{k: _host(v) for k, v in kwds.items()})


def savez_compressed(file: Any, *args: Any, allow_pickle: bool = True, **kwds: Any) -> None:
    """Writes arrays to a compressed .npz file, as ``numpy.savez_compressed``."""
    np.savez_compressed(file, *(_host(a) for a in args), allow_pickle=allow_pickle,
                        **{k: _host(v) for k, v in kwds.items()})


class NpzFile(Mapping):
    """The arrays of an .npz file by name, as ``numpy.lib.npyio.NpzFile``, each an accelpy
    array on the default device. Close it (or use ``with``) to release the file."""

    def __init__(self, npz: Any) -> None:
        self._npz = npz
        self.files = list(npz.files)

    def __getitem__(self, key: str) -> Any:
        return _to_device(self._npz[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self.files)

    def __len__(self) -> int:
        return len(self.files)

    def __contains__(self, key: object) -> bool:
        return key in self.files

    def close(self) -> None:
        self._npz.close()

    def __enter__(self) -> NpzFile:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<accelpy NpzFile of {self.files}>"


def load(file: Any, mmap_mode: str | None = None, allow_pickle: bool = False,
         fix_imports: bool = True, encoding: str = "ASCII", **kwargs: Any) -> Any:
    """Reads a .npy file (an accelpy array) or an .npz file (an NpzFile of accelpy arrays), as
    ``numpy.load``; a pickled object comes back as it was."""
    out = np.load(file, mmap_mode=mmap_mode, allow_pickle=allow_pickle, fix_imports=fix_imports,
                  encoding=encoding, **kwargs)
    if isinstance(out, np.lib.npyio.NpzFile):
        return NpzFile(out)
    if isinstance(out, np.ndarray):
        return _to_device(out)
    return out


def savetxt(fname: Any, X: Any, *args: Any, **kwargs: Any) -> None:  # noqa: N803 - NumPy's
    """Writes a 1-D or 2-D array to a text file, as ``numpy.savetxt`` (same arguments)."""
    np.savetxt(fname, _host(X), *args, **kwargs)


def _result(out: Any) -> Any:
    if isinstance(out, tuple):  # unpack=True of a structured file: one array per field
        return tuple(_to_device(a) for a in out)
    return _to_device(out)


def loadtxt(fname: Any, *args: Any, **kwargs: Any) -> Any:
    """Reads a text file of numbers, as ``numpy.loadtxt`` (same arguments)."""
    return _result(np.loadtxt(fname, *args, **kwargs))


def genfromtxt(fname: Any, *args: Any, **kwargs: Any) -> Any:
    """Reads a text file with missing values, as ``numpy.genfromtxt`` (same arguments)."""
    return _result(np.genfromtxt(fname, *args, **kwargs))


def tofile(self: Any, fid: Any, sep: str = "", format: str = "%s") -> None:
    """``ndarray.tofile``: the elements in C order to a file, as raw bytes or (with `sep`)
    text, as NumPy writes them."""
    _core.asnumpy(self).tofile(fid, sep=sep, format=format)


def fromfile(file: str | os.PathLike[str] | Any, dtype: Any = float, count: int = -1,
             sep: str = "", offset: int = 0, *, like: Any = None) -> Any:
    """Reads raw or text data from a file, as ``numpy.fromfile``."""
    return _to_device(np.fromfile(file, dtype=dtype, count=count, sep=sep, offset=offset))


def frombuffer(buffer: Any, dtype: Any = float, count: int = -1, offset: int = 0, *,
               like: Any = None) -> Any:
    """An array of the bytes of `buffer`, as ``numpy.frombuffer`` (a copy on the device)."""
    return _to_device(np.frombuffer(buffer, dtype=dtype, count=count, offset=offset))


def fromstring(string: str | bytes, dtype: Any = float, count: int = -1, *, sep: str,
               like: Any = None) -> Any:
    """An array of the numbers in text `string`, separated by `sep`, as ``numpy.fromstring``
    (whose binary mode, without `sep`, NumPy has removed)."""
    return _to_device(np.fromstring(string, dtype=dtype, count=count, sep=sep))
