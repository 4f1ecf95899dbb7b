"""A user program with type errors mypy must report (tests/python/test_typing.py)."""

import accelpy as ap

x = ap.ones((3,))
n: int = x.shape  # error: a tuple is not an int
ap.sqrt(x, axis=0)  # error: sqrt takes no axis
ap.zeros((2, 2), device=3.5)  # error: a device is a Device or a string
s: str = ap.sum(x)  # error: sum returns an array
