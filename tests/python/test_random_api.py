"""accelpy.random's distribution API against NumPy's: parameters broadcast as NumPy's (arrays,
size None/int/tuple, empty, non-contiguous and reversed parameters), dtypes, NumPy's
ValueErrors, edge parameters, determinism, the legacy module functions, RandomState,
bit_generator and spawn. (The laws themselves: test_random_distributions.py.)"""

import math
import re

import numpy as np
import pytest

import accelpy as ap

# name -> valid parameters (the laws' tests cover the values; these cover the API)
PARAMS = {
    "beta": (2.0, 3.0), "binomial": (10, 0.4), "chisquare": (3.0,), "exponential": (2.0,),
    "f": (3.0, 5.0), "gamma": (2.0, 1.5), "geometric": (0.3,), "gumbel": (0.0, 1.0),
    "hypergeometric": (10, 12, 7), "laplace": (0.0, 1.0), "logistic": (0.0, 1.0),
    "lognormal": (0.0, 1.0), "logseries": (0.5,), "negative_binomial": (3, 0.4),
    "noncentral_chisquare": (3.0, 1.0), "noncentral_f": (3.0, 5.0, 1.0), "normal": (0.0, 1.0),
    "pareto": (3.0,), "poisson": (4.0,), "power": (2.0,), "rayleigh": (1.0,),
    "standard_cauchy": (), "standard_exponential": (), "standard_gamma": (2.0,),
    "standard_normal": (), "standard_t": (4.0,), "triangular": (0.0, 1.0, 2.0),
    "uniform": (0.0, 2.0), "vonmises": (0.0, 1.0), "wald": (1.0, 2.0), "weibull": (2.0,),
    "zipf": (3.0,),
}
DISCRETE = {"binomial", "geometric", "hypergeometric", "logseries", "negative_binomial",
            "poisson", "zipf"}
NAMES = sorted(PARAMS)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("size", [None, 0, 5, (2, 3), (0, 4)])
def test_shapes_and_dtypes_follow_numpy(device, name, size):
    x = getattr(ap.random.default_rng(1), name)(*PARAMS[name], size=size)
    y = getattr(np.random.default_rng(1), name)(*PARAMS[name], size=size)
    assert x.shape == np.shape(y)
    assert x.dtype == (np.int64 if name in DISCRETE else np.float64)
    assert x.device == device


@pytest.mark.parametrize("name", [n for n in NAMES if PARAMS[n]])
def test_array_parameters_broadcast(device, name, rng):
    # The first parameter as an array of its value (3, 1), the others scalars; with a size
    # too, and a size it cannot broadcast to.
    params = list(PARAMS[name])
    first = np.full((3, 1), params[0])
    x = getattr(ap.random.default_rng(2), name)(ap.asarray(first), *params[1:])
    assert x.shape == (3, 1)
    x = getattr(ap.random.default_rng(2), name)(first, *params[1:], size=(2, 3, 4))
    assert x.shape == (2, 3, 4)
    with pytest.raises(ValueError):
        getattr(ap.random.default_rng(2), name)(first, *params[1:], size=(4, 2))


def test_array_parameters_take_each_element_its_own_law(device):
    g = ap.random.default_rng(3)
    lam = np.array([0.5, 3.0, 9.99, 10.0, 200.0, 5e4])  # both inversion and rejection
    x = ap.asnumpy(g.poisson(lam, size=(40_000, lam.size)))
    z = np.abs(x.mean(axis=0) - lam) / np.sqrt(lam / x.shape[0])
    assert (z < 5).all(), z
    n = np.array([[5], [50], [5000]])
    p = np.array([0.1, 0.5, 0.97])
    b = ap.asnumpy(g.binomial(n, p, size=(20_000, 3, 3)))
    mean, var = n * p, n * p * (1 - p)
    z = np.abs(b.mean(axis=0) - mean) / np.sqrt(var / b.shape[0])
    assert (z < 5).all(), z
    shape = np.array([0.2, 1.0, 7.0])
    s = ap.asnumpy(g.gamma(shape, 2.0, size=(40_000, 3)))
    z = np.abs(s.mean(axis=0) - 2 * shape) / np.sqrt(4 * shape / s.shape[0])
    assert (z < 5).all(), z


def test_noncontiguous_and_reversed_parameters(device):
    lam = np.linspace(1.0, 60.0, 24)
    base = ap.asarray(lam.reshape(4, 6))
    x = ap.random.default_rng(4).poisson(base[:, ::-2], size=(1000, 4, 3))
    assert x.shape == (1000, 4, 3)
    m = ap.asnumpy(x).mean(axis=0)
    expected = lam.reshape(4, 6)[:, ::-2]
    assert (np.abs(m - expected) / np.sqrt(expected / 1000) < 5).all()


# Drawn natively in float32 (their own float32 stream); the others are computed in float64.
NATIVE_FLOAT32 = {"exponential", "normal", "standard_exponential", "standard_normal", "uniform"}


@pytest.mark.parametrize("name", [n for n in NAMES if n not in DISCRETE])
def test_float32_outputs(device, name):
    x = getattr(ap.random.default_rng(5), name)(*PARAMS[name], size=100, dtype=np.float32)
    assert x.dtype == np.float32
    if name not in NATIVE_FLOAT32:
        y = getattr(ap.random.default_rng(5), name)(*PARAMS[name], size=100)
        np.testing.assert_allclose(ap.asnumpy(x), ap.asnumpy(y).astype(np.float32), rtol=1e-6)


@pytest.mark.parametrize("name", sorted(DISCRETE))
def test_integer_dtypes(device, name):
    x = getattr(ap.random.default_rng(6), name)(*PARAMS[name], size=50, dtype=np.int32)
    assert x.dtype == np.int32
    y = getattr(ap.random.default_rng(6), name)(*PARAMS[name], size=50)
    np.testing.assert_array_equal(ap.asnumpy(x), ap.asnumpy(y))


BAD = [
    ("gamma", (-1.0,)), ("gamma", (1.0, -1.0)), ("standard_gamma", (-1.0,)), ("beta", (0.0, 1.0)),
    ("beta", (1.0, 0.0)), ("binomial", (-1, 0.5)), ("binomial", (1, 1.5)),
    ("binomial", (1, math.nan)), ("chisquare", (0.0,)), ("f", (0.0, 1.0)), ("f", (1.0, 0.0)),
    ("geometric", (0.0,)), ("geometric", (1.5,)), ("gumbel", (0.0, -1.0)),
    ("hypergeometric", (1, 1, -1)), ("hypergeometric", (1, 1, 3)), ("laplace", (0.0, -1.0)),
    ("logistic", (0.0, -1.0)), ("lognormal", (0.0, -1.0)), ("logseries", (1.0,)),
    ("logseries", (-0.1,)), ("negative_binomial", (0.0, 0.5)), ("negative_binomial", (1.0, 0.0)),
    ("noncentral_chisquare", (0.0, 1.0)), ("noncentral_chisquare", (1.0, -1.0)),
    ("noncentral_f", (0.0, 1.0, 1.0)), ("noncentral_f", (1.0, 0.0, 1.0)),
    ("noncentral_f", (1.0, 1.0, -1.0)), ("pareto", (0.0,)), ("poisson", (-1.0,)),
    ("poisson", (1e20,)), ("poisson", (math.nan,)), ("power", (0.0,)), ("rayleigh", (-1.0,)),
    ("standard_t", (0.0,)), ("triangular", (1.0, 0.0, 2.0)), ("triangular", (0.0, 3.0, 2.0)),
    ("triangular", (1.0, 1.0, 1.0)), ("vonmises", (0.0, -1.0)), ("wald", (0.0, 1.0)),
    ("wald", (1.0, 0.0)), ("weibull", (-1.0,)), ("zipf", (1.0,)), ("zipf", (math.nan,)),
    ("exponential", (-1.0,)), ("normal", (0.0, -1.0)),
]


@pytest.mark.parametrize("name,params", BAD, ids=[f"{n}{p}" for n, p in BAD])
def test_bad_parameters_raise_numpys_error(device, name, params):
    with pytest.raises(ValueError) as expected:
        getattr(np.random.default_rng(0), name)(*params)
    with pytest.raises(ValueError, match=re.escape(str(expected.value))):
        getattr(ap.random.default_rng(0), name)(*params)
    # In an array parameter too.
    arr = [np.full(3, p) if i == 0 else p for i, p in enumerate(params)]
    with pytest.raises(ValueError):
        getattr(ap.random.default_rng(0), name)(*arr)


def test_edge_parameters(device):
    g = ap.random.default_rng(7)
    assert (ap.asnumpy(g.poisson(0.0, 100)) == 0).all()
    assert (ap.asnumpy(g.binomial(0, 0.3, 100)) == 0).all()
    assert (ap.asnumpy(g.binomial(7, 0.0, 100)) == 0).all()
    assert (ap.asnumpy(g.binomial(7, 1.0, 100)) == 7).all()
    assert (ap.asnumpy(g.geometric(1.0, 100)) == 1).all()
    assert (ap.asnumpy(g.weibull(0.0, 100)) == 0).all()
    assert (ap.asnumpy(g.standard_gamma(0.0, 100)) == 0).all()
    assert (ap.asnumpy(g.hypergeometric(0, 5, 3, 100)) == 0).all()
    assert (ap.asnumpy(g.hypergeometric(5, 0, 3, 100)) == 3).all()
    assert (ap.asnumpy(g.hypergeometric(50, 60, 0, 100)) == 0).all()
    assert (ap.asnumpy(g.hypergeometric(50, 60, 110, 100)) == 50).all()
    assert (ap.asnumpy(g.logseries(0.0, 100)) == 1).all()
    assert (ap.asnumpy(g.negative_binomial(3, 1.0, 100)) == 0).all()
    b = ap.asnumpy(g.beta(1e-3, 1e-3, 10_000))
    assert ((b >= 0) & (b <= 1)).all()
    v = ap.asnumpy(g.vonmises(3.0, [1e-9, 0.5, 50.0, 1e8], size=(1000, 4)))
    assert (np.abs(v) <= np.pi).all()
    h = ap.asnumpy(g.hypergeometric(10**6, 10**6, 10**5, 1000))
    assert abs(h.mean() - 5e4) < 5 * math.sqrt(1e5 * 0.25 / 1000)


def test_same_seed_same_numbers_and_the_state_advances(device):
    for name in NAMES:
        a = ap.asnumpy(getattr(ap.random.default_rng(8), name)(*PARAMS[name], size=300))
        g = ap.random.default_rng(8)
        b = ap.asnumpy(getattr(g, name)(*PARAMS[name], size=300))
        c = ap.asnumpy(getattr(g, name)(*PARAMS[name], size=300))
        np.testing.assert_array_equal(a, b)
        assert not np.array_equal(b, c), name


def test_legacy_module_functions(device):
    for name in NAMES:
        ap.random.seed(11)
        a = getattr(ap.random, name)(*PARAMS[name], size=(2, 5))
        ap.random.seed(11)
        b = getattr(ap.random, name)(*PARAMS[name], (2, 5))  # size positional, as NumPy
        assert a.shape == np.shape(getattr(np.random, name)(*PARAMS[name], size=(2, 5)))
        np.testing.assert_array_equal(ap.asnumpy(a), ap.asnumpy(b))
    state = ap.random.get_state()
    x = ap.asnumpy(ap.random.dirichlet([1.0, 2.0], 3))
    ap.random.set_state(state)
    np.testing.assert_array_equal(ap.asnumpy(ap.random.dirichlet([1.0, 2.0], 3)), x)
    assert ap.random.multinomial(5, [0.5, 0.5], size=4).shape == (4, 2)
    assert ap.random.multivariate_normal([0.0, 0.0], np.eye(2), 3).shape == (3, 2)
    assert ap.random.standard_t(3.0, size=4, dtype=np.float32).dtype == np.float32


def test_cupy_style_dtype_arguments(device):
    assert ap.random.random(10, dtype=np.float32).dtype == np.float32
    assert ap.random.random_sample(10, np.float32).dtype == np.float32
    assert ap.random.rand(2, 3, dtype=np.float32).dtype == np.float32
    assert ap.random.randn(2, 3, dtype=np.float32).shape == (2, 3)
    assert ap.random.standard_normal((4,), dtype=np.float32).dtype == np.float32
    assert ap.random.uniform(0, 1, 5, dtype=np.float32).dtype == np.float32
    assert ap.random.normal(0, 1, 5, dtype=np.float32).dtype == np.float32
    assert ap.random.ranf(3).shape == ap.random.sample(3).shape == (3,)


def test_random_state(device):
    rs = ap.random.RandomState(12)
    assert rs.rand(2, 3).shape == (2, 3)
    assert rs.randn(4).shape == (4,)
    r = ap.asnumpy(rs.randint(5, size=1000))
    assert r.min() == 0 and r.max() == 4
    assert rs.random_sample((2,)).shape == (2,)
    state = rs.get_state()
    x = ap.asnumpy(rs.poisson(30.0, 50))
    rs.set_state(state)
    np.testing.assert_array_equal(ap.asnumpy(rs.poisson(30.0, 50)), x)
    rs.seed(12)
    np.testing.assert_array_equal(ap.asnumpy(rs.rand(2, 3)),
                                  ap.asnumpy(ap.random.RandomState(12).rand(2, 3)))


def test_bit_generator_and_spawn(device):
    g = ap.random.default_rng(13)
    assert isinstance(g.bit_generator, ap.random.Philox)
    assert g.bit_generator.state == g.state
    h = ap.random.Generator(ap.random.Philox(13))
    np.testing.assert_array_equal(ap.asnumpy(h.gamma(2.0, size=10)),
                                  ap.asnumpy(g.gamma(2.0, size=10)))
    from_numpy = ap.random.Generator(np.random.PCG64(13))  # keyed from its seed sequence
    np.testing.assert_array_equal(ap.asnumpy(from_numpy.random(5)),
                                  ap.asnumpy(ap.random.default_rng(13).random(5)))
    kids = g.spawn(3)
    again = ap.random.default_rng(13).spawn(3)
    draws = [ap.asnumpy(k.random(20)) for k in kids]
    for k, d in zip(again, draws, strict=True):
        np.testing.assert_array_equal(ap.asnumpy(k.random(20)), d)
    assert not np.array_equal(draws[0], draws[1])
    assert not np.array_equal(draws[0], ap.asnumpy(ap.random.default_rng(13).random(20)))
    assert len(g.bit_generator.spawn(2)) == 2


@pytest.mark.parametrize("seed", [0, 7, 2**64 + 5])
def test_an_integer_seed_keys_as_its_seed_sequence(device, seed):
    # A Python int seed takes a remembered key; NumPy integers, SeedSequences and a second
    # seeding draw the same numbers, and the seed sequence is NumPy's for that seed.
    draws = []
    for s in (seed, np.uint64(seed) if seed < 2**64 else seed, np.random.SeedSequence(seed),
              seed):
        draws.append(ap.asnumpy(ap.random.default_rng(s).random(8, device=device)))
    for d in draws[1:]:
        np.testing.assert_array_equal(d, draws[0])
    ap.random.seed(seed)
    first = ap.asnumpy(ap.random.random(5, device=device))
    ap.random.seed(seed)
    np.testing.assert_array_equal(ap.asnumpy(ap.random.random(5, device=device)), first)
    bits = ap.random.Philox(seed)
    assert bits.seed_seq.entropy == np.random.SeedSequence(seed).entropy
    np.testing.assert_array_equal(
        ap.asnumpy(ap.random.Generator(bits.spawn(1)[0]).random(4, device=device)),
        ap.asnumpy(ap.random.default_rng(seed).spawn(1)[0].random(4, device=device)))
