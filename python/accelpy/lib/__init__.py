"""numpy.lib's public submodules that programs reach through ``np.lib``: ``stride_tricks``."""

from . import stride_tricks as stride_tricks

__all__ = ["stride_tricks"]
