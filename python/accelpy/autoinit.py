"""``import accelpy.autoinit``: as ``pycuda.autoinit``, makes device 0's primary context
current for the rest of the program (and accelpy's default device). Raises RuntimeError,
saying why, when there is no GPU."""

import atexit

from . import driver as cuda

cuda.init()
device = cuda.Device(0)
context = device.make_context()


def _clean_up():
    if cuda.Context.get_current() is context:
        cuda.Context.pop()


atexit.register(_clean_up)
