"""accelpy.random's distributions: moments against the closed forms, the whole law against
NumPy's sampler (two-sample Kolmogorov-Smirnov for continuous ones, chi-square homogeneity for
discrete ones), each check shown to fail for a perturbed parameter; CPU-versus-GPU identity.

The seeds are fixed (the streams are deterministic) and the thresholds have a false-alarm
probability of about 1e-4 or less, so a failure means a real defect.
"""

import math

import numpy as np
import pytest

import accelpy as ap

N = 100_000
EULER = 0.5772156649015329
ZETA = {4: math.pi**4 / 90, 5: 1.0369277551433699, 6: math.pi**6 / 945}


def _bessel_i(n, x):
    return sum((x / 2) ** (2 * k + n) / (math.factorial(k) * math.factorial(k + n))
               for k in range(60))


def _vonmises_cos(mu, kappa):
    """Mean and variance of cos(X - mu) for X ~ von Mises(mu, kappa)."""
    a = _bessel_i(1, kappa) / _bessel_i(0, kappa)
    second = (1 + _bessel_i(2, kappa) / _bessel_i(0, kappa)) / 2
    return a, second - a * a


def _logseries(p):
    lg = math.log1p(-p)
    mean = -p / ((1 - p) * lg)
    return mean, -p * (p + lg) / ((1 - p) ** 2 * lg**2)


def _hyper(good, bad, n):
    total = good + bad
    mean = n * good / total
    return mean, mean * bad / total * (total - n) / (total - 1)


def _weibull(a):
    m1 = math.gamma(1 + 1 / a)
    return m1, math.gamma(1 + 2 / a) - m1 * m1


def _ncf(d1, d2, lam):
    mean = d2 * (d1 + lam) / (d1 * (d2 - 2))
    var = 2 * (d2 / d1) ** 2 * ((d1 + lam) ** 2 + (d1 + 2 * lam) * (d2 - 2)) / (
        (d2 - 2) ** 2 * (d2 - 4))
    return mean, var


def _f(d1, d2):
    return d2 / (d2 - 2), 2 * d2**2 * (d1 + d2 - 2) / (d1 * (d2 - 2) ** 2 * (d2 - 4))


def _zipf(a):
    assert a == 6
    mean = ZETA[5] / ZETA[6]
    return mean, ZETA[4] / ZETA[6] - mean * mean


# name, parameters, perturbed parameters, (mean, variance) of the parameters, transform of the
# samples the moments are of (None: the samples).
MOMENTS = [
    ("standard_gamma", (2.5,), (2.7,), lambda k: (k, k), None),
    ("standard_gamma", (0.3,), (0.32,), lambda k: (k, k), None),
    ("gamma", (3.0, 2.0), (3.0, 2.1), lambda k, s: (k * s, k * s * s), None),
    ("beta", (2.0, 5.0), (2.1, 5.0),
     lambda a, b: (a / (a + b), a * b / ((a + b) ** 2 * (a + b + 1))), None),
    ("beta", (0.2, 0.3), (0.22, 0.3),
     lambda a, b: (a / (a + b), a * b / ((a + b) ** 2 * (a + b + 1))), None),
    ("chisquare", (4.0,), (4.2,), lambda k: (k, 2 * k), None),
    ("chisquare", (0.5,), (0.53,), lambda k: (k, 2 * k), None),
    ("f", (5.0, 20.0), (5.0, 17.0), _f, None),
    ("noncentral_chisquare", (3.0, 2.0), (3.0, 2.4), lambda k, lam: (k + lam, 2 * (k + 2 * lam)),
     None),
    ("noncentral_chisquare", (0.5, 1.0), (0.5, 1.2),
     lambda k, lam: (k + lam, 2 * (k + 2 * lam)), None),
    ("noncentral_f", (5.0, 20.0, 2.0), (5.0, 20.0, 2.6), _ncf, None),
    ("standard_t", (10.0,), (6.0,), lambda df: (0.0, df / (df - 2)), None),
    ("gumbel", (1.0, 2.0), (1.1, 2.0), lambda m, s: (m + s * EULER, math.pi**2 / 6 * s * s),
     None),
    ("laplace", (1.0, 2.0), (1.0, 2.1), lambda m, s: (m, 2 * s * s), None),
    ("logistic", (1.0, 2.0), (1.0, 2.1), lambda m, s: (m, s * s * math.pi**2 / 3), None),
    ("lognormal", (0.5, 0.5), (0.52, 0.5),
     lambda m, s: (math.exp(m + s * s / 2), math.expm1(s * s) * math.exp(2 * m + s * s)), None),
    ("pareto", (5.0,), (5.3,), lambda a: (1 / (a - 1), a / ((a - 1) ** 2 * (a - 2))), None),
    ("power", (3.0,), (3.2,), lambda a: (a / (a + 1), a / ((a + 1) ** 2 * (a + 2))), None),
    ("rayleigh", (2.0,), (2.05,), lambda s: (s * math.sqrt(math.pi / 2), (4 - math.pi) / 2 * s * s),
     None),
    ("weibull", (1.5,), (1.6,), _weibull, None),
    ("triangular", (0.0, 1.0, 3.0), (0.0, 1.2, 3.0),
     lambda a, c, b: ((a + b + c) / 3, (a * a + b * b + c * c - a * b - a * c - b * c) / 18), None),
    ("wald", (2.0, 3.0), (2.1, 3.0), lambda m, s: (m, m**3 / s), None),
    ("vonmises", (0.5, 2.0), (0.5, 2.3), lambda mu, k: _vonmises_cos(mu, k),
     lambda x, mu, k: np.cos(x - mu)),
    ("vonmises", (-1.0, 0.2), (-1.0, 0.3), lambda mu, k: _vonmises_cos(mu, k),
     lambda x, mu, k: np.cos(x - mu)),
    ("poisson", (3.5,), (3.6,), lambda lam: (lam, lam), None),
    ("poisson", (40.0,), (40.5,), lambda lam: (lam, lam), None),
    ("poisson", (1e6,), (1e6 + 30,), lambda lam: (lam, lam), None),
    ("binomial", (20, 0.3), (20, 0.31), lambda n, p: (n * p, n * p * (1 - p)), None),
    ("binomial", (1000, 0.4), (1000, 0.402), lambda n, p: (n * p, n * p * (1 - p)), None),
    ("binomial", (100, 0.9), (100, 0.91), lambda n, p: (n * p, n * p * (1 - p)), None),
    ("negative_binomial", (5.0, 0.3), (5.0, 0.31),
     lambda n, p: (n * (1 - p) / p, n * (1 - p) / p**2), None),
    ("geometric", (0.2,), (0.21,), lambda p: (1 / p, (1 - p) / p**2), None),
    ("geometric", (0.7,), (0.72,), lambda p: (1 / p, (1 - p) / p**2), None),
    ("hypergeometric", (20, 30, 8), (22, 30, 8), _hyper, None),
    ("hypergeometric", (200, 300, 100), (205, 300, 100), _hyper, None),
    ("hypergeometric", (200, 300, 450), (200, 300, 440), _hyper, None),
    ("hypergeometric", (300, 200, 495), (300, 200, 490), _hyper, None),
    ("logseries", (0.6,), (0.62,), _logseries, None),
    ("zipf", (6.0,), (6.0,), _zipf, None),
]


def _moment_z(x, mean, var):
    """The larger of the z-scores of the sample mean and variance against (mean, var)."""
    n = x.size
    z_mean = abs(x.mean() - mean) / math.sqrt(var / n)
    c = x - x.mean()
    m4 = float(np.mean(c**4))
    s2 = float(np.mean(c * c))
    z_var = abs(s2 - var) / math.sqrt(max(m4 - s2 * s2, 1e-300) / n)
    return max(z_mean, z_var)


def _ids(cases):
    return [f"{c[0]}{c[1]}" for c in cases]


@pytest.mark.parametrize("name,params,perturbed,moments,transform", MOMENTS, ids=_ids(MOMENTS))
def test_moments(device, name, params, perturbed, moments, transform):
    x = ap.asnumpy(getattr(ap.random.default_rng(2024), name)(*params, size=N)).astype(
        np.float64)
    if transform is not None:
        x = transform(x, *params)
    assert _moment_z(x, *moments(*params)) < 5
    if name == "zipf":  # no second parameter value with finite moments: shift the mean
        assert _moment_z(x, moments(*params)[0] * 1.01, moments(*params)[1]) > 5
    else:
        assert _moment_z(x, *moments(*perturbed)) > 5, "the check cannot see a wrong parameter"


def _ks_two_sample(x, y):
    x, y = np.sort(x), np.sort(y)
    both = np.concatenate([x, y])
    cx = np.searchsorted(x, both, side="right") / x.size
    cy = np.searchsorted(y, both, side="right") / y.size
    return float(np.max(np.abs(cx - cy)))


def _ks_threshold(n, m, alpha=1e-4):
    return math.sqrt(-math.log(alpha / 2) / 2) * math.sqrt((n + m) / (n * m))


CONTINUOUS = [
    ("standard_gamma", (0.7,), (0.75,)),
    ("gamma", (9.0, 0.5), (9.0, 0.52)),
    ("beta", (0.5, 0.5), (0.55, 0.5)),
    ("beta", (0.01, 0.02), (0.012, 0.02)),
    ("chisquare", (3.0,), (3.2,)),
    ("f", (3.0, 4.0), (3.0, 5.0)),
    ("noncentral_chisquare", (2.0, 5.0), (2.0, 5.5)),
    ("noncentral_f", (3.0, 6.0, 1.0), (3.0, 6.0, 1.5)),
    ("standard_t", (3.0,), (4.0,)),
    ("standard_cauchy", (), None),
    ("gumbel", (0.0, 1.0), (0.05, 1.0)),
    ("laplace", (0.0, 1.0), (0.0, 1.12)),
    ("logistic", (0.0, 1.0), (0.0, 1.12)),
    ("lognormal", (0.0, 1.0), (0.0, 1.06)),
    ("pareto", (2.0,), (2.15,)),
    ("power", (0.5,), (0.53,)),
    ("rayleigh", (1.0,), (1.04,)),
    ("weibull", (0.8,), (0.84,)),
    ("triangular", (-1.0, 0.5, 2.0), (-1.0, 0.7, 2.0)),
    ("wald", (1.0, 0.5), (1.0, 0.55)),
    ("vonmises", (1.0, 4.0), (1.0, 4.4)),
    ("vonmises", (3.0, 0.5), (3.0, 0.6)),
    ("vonmises", (0.0, 1e7), (0.0, 1.2e7)),
    ("vonmises", (0.0, 1e-9), None),
]
M = 50_000


@pytest.mark.parametrize("name,params,perturbed", CONTINUOUS, ids=_ids(CONTINUOUS))
def test_continuous_law_matches_numpy(device, name, params, perturbed):
    x = ap.asnumpy(getattr(ap.random.default_rng(77), name)(*params, size=M))
    y = getattr(np.random.default_rng(78), name)(*params, size=M)
    assert _ks_two_sample(x, y) < _ks_threshold(M, M)
    if perturbed is not None:
        z = getattr(np.random.default_rng(78), name)(*perturbed, size=M)
        assert _ks_two_sample(x, z) > _ks_threshold(M, M), "KS cannot see a wrong parameter"


def _chi2_quantile(df, z=3.719):  # Wilson-Hilferty; z: the normal's 1 - 1e-4 quantile
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def _chi2_homogeneity(x, y, min_count=20):
    """The chi-square statistic of two equal-size integer samples over bins with enough
    counts (the tails pooled into the end bins), and its degrees of freedom."""
    lo, hi = min(x.min(), y.min()), max(x.max(), y.max())
    cx = np.bincount(x - lo, minlength=hi - lo + 1).astype(float)
    cy = np.bincount(y - lo, minlength=hi - lo + 1).astype(float)
    bins, ax, ay = [], 0.0, 0.0
    for a, b in zip(cx, cy, strict=True):
        ax, ay = ax + a, ay + b
        if ax + ay >= min_count:
            bins.append((ax, ay))
            ax = ay = 0.0
    if ax + ay and bins:
        bins[-1] = (bins[-1][0] + ax, bins[-1][1] + ay)
    a, b = np.array(bins).T
    return float(np.sum((a - b) ** 2 / (a + b))), len(bins) - 1


DISCRETE = [
    ("poisson", (0.3,), (0.32,)),
    ("poisson", (7.0,), (7.1,)),
    ("poisson", (25.0,), (25.3,)),
    ("binomial", (10, 0.5), (10, 0.51)),
    ("binomial", (60, 0.25), (60, 0.255)),
    ("binomial", (5000, 0.02), (5000, 0.0205)),
    ("negative_binomial", (2.5, 0.5), (2.5, 0.51)),
    ("geometric", (0.05,), (0.055,)),
    ("hypergeometric", (5, 7, 6), (6, 7, 6)),
    ("hypergeometric", (60, 40, 30), (62, 40, 30)),
    ("logseries", (0.9,), (0.91,)),
    ("zipf", (2.5,), (2.65,)),
]


@pytest.mark.parametrize("name,params,perturbed", DISCRETE, ids=_ids(DISCRETE))
def test_discrete_law_matches_numpy(device, name, params, perturbed):
    x = ap.asnumpy(getattr(ap.random.default_rng(91), name)(*params, size=M))
    y = getattr(np.random.default_rng(92), name)(*params, size=M)
    stat, df = _chi2_homogeneity(x, y)
    assert stat < _chi2_quantile(df)
    z = getattr(np.random.default_rng(92), name)(*perturbed, size=M)
    stat, df = _chi2_homogeneity(x, z)
    assert stat > _chi2_quantile(df), "chi-square cannot see a wrong parameter"


def test_multinomial_counts(device):
    p = [0.1, 0.25, 0.05, 0.6]
    x = ap.asnumpy(ap.random.default_rng(3).multinomial(50, p, size=N))
    assert x.shape == (N, 4) and x.dtype == np.int64
    assert (x.sum(axis=1) == 50).all()
    for i, pi in enumerate(p):
        assert _moment_z(x[:, i].astype(float), 50 * pi, 50 * pi * (1 - pi)) < 5
    assert _moment_z(x[:, 0].astype(float), 50 * 0.11, 50 * 0.11 * 0.89) > 5
    big = ap.asnumpy(ap.random.default_rng(3).multinomial([10, 10**6], [0.5, 0.5]))
    assert big.shape == (2, 2) and (big.sum(axis=1) == [10, 10**6]).all()


def test_dirichlet_moments(device):
    alpha = np.array([0.5, 1.0, 3.0])
    x = ap.asnumpy(ap.random.default_rng(4).dirichlet(alpha, size=N))
    assert x.shape == (N, 3)
    np.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-12)
    a0 = alpha.sum()
    for i, a in enumerate(alpha):
        assert _moment_z(x[:, i], a / a0, a * (a0 - a) / (a0 * a0 * (a0 + 1))) < 5
    small = ap.asnumpy(ap.random.default_rng(4).dirichlet([1e-3, 1e-3], size=1000))
    assert np.isfinite(small).all()  # gamma variates underflow; their logarithms do not


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal_moments(device, method):
    mean = np.array([1.0, -2.0, 0.5])
    cov = np.array([[2.0, 0.6, -0.3], [0.6, 1.0, 0.2], [-0.3, 0.2, 0.5]])
    x = ap.asnumpy(ap.random.default_rng(5).multivariate_normal(mean, cov, size=N,
                                                                 method=method))
    assert x.shape == (N, 3)
    np.testing.assert_allclose(x.mean(axis=0), mean, atol=5 * math.sqrt(2.0 / N))
    np.testing.assert_allclose(np.cov(x.T), cov, atol=5 * math.sqrt(8.0 / N))
    with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
        ap.random.default_rng(5).multivariate_normal([0, 0], [[1, 2], [2, 1]])
    with pytest.raises(ValueError, match="positive-semidefinite"):
        ap.random.default_rng(5).multivariate_normal([0, 0], [[1, 2], [2, 1]],
                                                     check_valid="raise")


needs_cuda = pytest.mark.skipif(not ap.cuda.is_available(), reason="needs a CUDA device")


@needs_cuda
@pytest.mark.parametrize("name,params", [(c[0], c[1]) for c in MOMENTS + CONTINUOUS + DISCRETE])
def test_cpu_and_cuda_draw_the_same_numbers(name, params):
    c = ap.asnumpy(getattr(ap.random.default_rng(6), name)(*params, size=20_000, device="cpu"))
    g = ap.asnumpy(getattr(ap.random.default_rng(6), name)(*params, size=20_000, device="cuda"))
    if c.dtype.kind == "f":  # the libms' last bits differ
        np.testing.assert_allclose(g, c, rtol=1e-9, atol=1e-300)
    else:
        np.testing.assert_array_equal(g, c)
