"""Random numbers (``accelpy.random``): NumPy's Generator API and its legacy module functions
over a counter-based generator (``_random_generator``)."""

from ._random_generator import (
    Generator,
    choice,
    default_rng,
    exponential,
    normal,
    permutation,
    rand,
    randint,
    randn,
    random,
    random_sample,
    seed,
    shuffle,
    standard_normal,
    uniform,
)

__all__ = [
    "Generator",
    "default_rng",
    "seed",
    "rand",
    "randn",
    "randint",
    "random",
    "random_sample",
    "uniform",
    "normal",
    "standard_normal",
    "exponential",
    "permutation",
    "shuffle",
    "choice",
]
