"""accelpy.random's legacy module functions (``numpy.random.rand``, ``.poisson``, ...) on one
global generator, and ``RandomState``, the legacy class, over the same Generator machinery.

As CuPy's, the functions take ``dtype=`` (``random(n, dtype=float32)``) and ``device=``
keywords besides NumPy's arguments.
"""

from _thread import allocate_lock

import numpy as np

from ._random_generator import Generator

__all__ = [
    "RandomState",
    "seed",
    "get_state",
    "set_state",
    "rand",
    "randn",
    "randint",
    "random",
    "random_sample",
    "ranf",
    "sample",
    "permutation",
    "shuffle",
    "choice",
    "beta",
    "binomial",
    "chisquare",
    "dirichlet",
    "exponential",
    "f",
    "gamma",
    "geometric",
    "gumbel",
    "hypergeometric",
    "laplace",
    "logistic",
    "lognormal",
    "logseries",
    "multinomial",
    "multivariate_normal",
    "negative_binomial",
    "noncentral_chisquare",
    "noncentral_f",
    "normal",
    "pareto",
    "poisson",
    "power",
    "rayleigh",
    "standard_cauchy",
    "standard_exponential",
    "standard_gamma",
    "standard_normal",
    "standard_t",
    "triangular",
    "uniform",
    "vonmises",
    "wald",
    "weibull",
    "zipf",
]


class RandomState(Generator):
    """NumPy's legacy ``RandomState``: a :class:`Generator` with the legacy methods (``rand``,
    ``randn``, ``randint``, ``random_sample``, ``seed``, ``get_state``/``set_state``). The
    streams are accelpy's Philox ones, not the Mersenne Twister's."""

    def __init__(self, seed=None):
        super().__init__(seed)

    def __repr__(self):
        return f"RandomState(Philox4x32) at {hex(id(self))}"

    def seed(self, seed=None):
        """Reseeds this generator."""
        self.__init__(seed)

    def get_state(self):
        """The key and the next block offset (a dict, for :meth:`set_state`)."""
        return self.state

    def set_state(self, state):
        """Restores a state from :meth:`get_state`."""
        self.state = state

    def rand(self, *shape, dtype=np.float64, device=None):
        """Uniform values in [0, 1) of the given dimensions."""
        return self.random(shape, dtype, device=device)

    def randn(self, *shape, dtype=np.float64, device=None):
        """Standard normal values of the given dimensions."""
        return self.standard_normal(shape, dtype, device=device)

    def randint(self, low, high=None, size=None, dtype=np.int64, *, device=None):
        """Integers in [low, high), or [0, low) without high."""
        return self.integers(low, high, size, dtype, device=device)

    def random_sample(self, size=None, *, dtype=np.float64, device=None):
        """Uniform values in [0, 1)."""
        return self.random(size, dtype, device=device)


# Made on first use, not at import: seeding from OS entropy imports numpy.random (and secrets,
# hashlib, ...), half of accelpy's own import time. The lock makes concurrent first draws share
# one generator, as a generator made at import would be.
_global = None
_global_lock = allocate_lock()  # _thread: threading is slow to import


def _global_generator():
    g = _global
    if g is None:
        with _global_lock:
            g = _global
            if g is None:
                g = _set_global(RandomState())
    return g


def _set_global(g):
    global _global
    _global = g
    return g


def seed(seed=None):
    """Reseeds the global generator behind the module functions."""
    g = RandomState(seed)
    with _global_lock:
        _set_global(g)


def get_state():
    """The global generator's state (a dict, for :func:`set_state`)."""
    return _global_generator().get_state()


def set_state(state):
    """Restores the global generator's state from :func:`get_state`."""
    _global_generator().set_state(state)


def random(size=None, dtype=np.float64, *, device=None):
    """Uniform values in [0, 1) (``numpy.random.random``; float32 or float64)."""
    return _global_generator().random(size, dtype, device=device)


def random_sample(size=None, dtype=np.float64, *, device=None):
    """Uniform values in [0, 1) (``numpy.random.random_sample``)."""
    return _global_generator().random(size, dtype, device=device)


ranf = sample = random_sample


def rand(*shape, dtype=np.float64, device=None):
    """Uniform values in [0, 1) of the given dimensions (``numpy.random.rand``)."""
    return _global_generator().random(shape, dtype, device=device)


def randn(*shape, dtype=np.float64, device=None):
    """Standard normal values of the given dimensions (``numpy.random.randn``)."""
    return _global_generator().standard_normal(shape, dtype, device=device)


def randint(low, high=None, size=None, dtype=np.int64, *, device=None):
    """Integers in [low, high), or [0, low) without high (``numpy.random.randint``)."""
    return _global_generator().integers(low, high, size, dtype, device=device)


def permutation(x, *, device=None):
    """A permuted ``arange(x)``, or a permuted copy of array x (``numpy.random.permutation``)."""
    return _global_generator().permutation(x, device=device)


def shuffle(x):
    """Permutes accelpy array x in place along its first axis (``numpy.random.shuffle``)."""
    _global_generator().shuffle(x)


def choice(a, size=None, replace=True, p=None, *, device=None):
    """Random samples from ``arange(a)`` or array a (``numpy.random.choice``)."""
    return _global_generator().choice(a, size, replace, p, device=device)


def beta(a, b, size=None, **kwargs):
    """``numpy.random.beta``, on the global generator."""
    return _global_generator().beta(a, b, size, **kwargs)


def binomial(n, p, size=None, **kwargs):
    """``numpy.random.binomial``, on the global generator."""
    return _global_generator().binomial(n, p, size, **kwargs)


def chisquare(df, size=None, **kwargs):
    """``numpy.random.chisquare``, on the global generator."""
    return _global_generator().chisquare(df, size, **kwargs)


def dirichlet(alpha, size=None, **kwargs):
    """``numpy.random.dirichlet``, on the global generator."""
    return _global_generator().dirichlet(alpha, size, **kwargs)


def exponential(scale=1.0, size=None, **kwargs):
    """``numpy.random.exponential``, on the global generator."""
    return _global_generator().exponential(scale, size, **kwargs)


def f(dfnum, dfden, size=None, **kwargs):
    """``numpy.random.f``, on the global generator."""
    return _global_generator().f(dfnum, dfden, size, **kwargs)


def gamma(shape, scale=1.0, size=None, **kwargs):
    """``numpy.random.gamma``, on the global generator."""
    return _global_generator().gamma(shape, scale, size, **kwargs)


def geometric(p, size=None, **kwargs):
    """``numpy.random.geometric``, on the global generator."""
    return _global_generator().geometric(p, size, **kwargs)


def gumbel(loc=0.0, scale=1.0, size=None, **kwargs):
    """``numpy.random.gumbel``, on the global generator."""
    return _global_generator().gumbel(loc, scale, size, **kwargs)


def hypergeometric(ngood, nbad, nsample, size=None, **kwargs):
    """``numpy.random.hypergeometric``, on the global generator."""
    return _global_generator().hypergeometric(ngood, nbad, nsample, size, **kwargs)


def laplace(loc=0.0, scale=1.0, size=None, **kwargs):
    """``numpy.random.laplace``, on the global generator."""
    return _global_generator().laplace(loc, scale, size, **kwargs)


def logistic(loc=0.0, scale=1.0, size=None, **kwargs):
    """``numpy.random.logistic``, on the global generator."""
    return _global_generator().logistic(loc, scale, size, **kwargs)


def lognormal(mean=0.0, sigma=1.0, size=None, **kwargs):
    """``numpy.random.lognormal``, on the global generator."""
    return _global_generator().lognormal(mean, sigma, size, **kwargs)


def logseries(p, size=None, **kwargs):
    """``numpy.random.logseries``, on the global generator."""
    return _global_generator().logseries(p, size, **kwargs)


def multinomial(n, pvals, size=None, **kwargs):
    """``numpy.random.multinomial``, on the global generator."""
    return _global_generator().multinomial(n, pvals, size, **kwargs)


def multivariate_normal(mean, cov, size=None, check_valid="warn", tol=1e-8, **kwargs):
    """``numpy.random.multivariate_normal``, on the global generator."""
    return _global_generator().multivariate_normal(mean, cov, size, check_valid, tol, **kwargs)


def negative_binomial(n, p, size=None, **kwargs):
    """``numpy.random.negative_binomial``, on the global generator."""
    return _global_generator().negative_binomial(n, p, size, **kwargs)


def noncentral_chisquare(df, nonc, size=None, **kwargs):
    """``numpy.random.noncentral_chisquare``, on the global generator."""
    return _global_generator().noncentral_chisquare(df, nonc, size, **kwargs)


def noncentral_f(dfnum, dfden, nonc, size=None, **kwargs):
    """``numpy.random.noncentral_f``, on the global generator."""
    return _global_generator().noncentral_f(dfnum, dfden, nonc, size, **kwargs)


def normal(loc=0.0, scale=1.0, size=None, **kwargs):
    """``numpy.random.normal``, on the global generator."""
    return _global_generator().normal(loc, scale, size, **kwargs)


def pareto(a, size=None, **kwargs):
    """``numpy.random.pareto``, on the global generator."""
    return _global_generator().pareto(a, size, **kwargs)


def poisson(lam=1.0, size=None, **kwargs):
    """``numpy.random.poisson``, on the global generator."""
    return _global_generator().poisson(lam, size, **kwargs)


def power(a, size=None, **kwargs):
    """``numpy.random.power``, on the global generator."""
    return _global_generator().power(a, size, **kwargs)


def rayleigh(scale=1.0, size=None, **kwargs):
    """``numpy.random.rayleigh``, on the global generator."""
    return _global_generator().rayleigh(scale, size, **kwargs)


def standard_cauchy(size=None, **kwargs):
    """``numpy.random.standard_cauchy``, on the global generator."""
    return _global_generator().standard_cauchy(size, **kwargs)


def standard_exponential(size=None, **kwargs):
    """``numpy.random.standard_exponential``, on the global generator."""
    return _global_generator().standard_exponential(size, **kwargs)


def standard_gamma(shape, size=None, **kwargs):
    """``numpy.random.standard_gamma``, on the global generator."""
    return _global_generator().standard_gamma(shape, size, **kwargs)


def standard_normal(size=None, **kwargs):
    """``numpy.random.standard_normal``, on the global generator."""
    return _global_generator().standard_normal(size, **kwargs)


def standard_t(df, size=None, **kwargs):
    """``numpy.random.standard_t``, on the global generator."""
    return _global_generator().standard_t(df, size, **kwargs)


def triangular(left, mode, right, size=None, **kwargs):
    """``numpy.random.triangular``, on the global generator."""
    return _global_generator().triangular(left, mode, right, size, **kwargs)


def uniform(low=0.0, high=1.0, size=None, **kwargs):
    """``numpy.random.uniform``, on the global generator."""
    return _global_generator().uniform(low, high, size, **kwargs)


def vonmises(mu, kappa, size=None, **kwargs):
    """``numpy.random.vonmises``, on the global generator."""
    return _global_generator().vonmises(mu, kappa, size, **kwargs)


def wald(mean, scale, size=None, **kwargs):
    """``numpy.random.wald``, on the global generator."""
    return _global_generator().wald(mean, scale, size, **kwargs)


def weibull(a, size=None, **kwargs):
    """``numpy.random.weibull``, on the global generator."""
    return _global_generator().weibull(a, size, **kwargs)


def zipf(a, size=None, **kwargs):
    """``numpy.random.zipf``, on the global generator."""
    return _global_generator().zipf(a, size, **kwargs)
