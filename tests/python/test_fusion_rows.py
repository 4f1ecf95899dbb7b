"""Row groups: reductions whose results are broadcast back into elementwise work over the same
rows (softmax, log-softmax, logsumexp, layer and RMS norm, standardisation, `x / x.sum(axis)`,
`x - x.max(axis)`) run as one group that reads each row once. Values against NumPy over dtypes,
axes, keepdims and layouts on every device; fused against unfused (ACCELPY_FUSION=0's switch) bit
for bit on the CPU, where tiles of rows and the two-pass form both run, and for integer dtypes on
every device (CUDA's row kernel sums floats in another order than its reduction kernel).
"""

import numpy as np
import pytest

import accelpy as ap
from fusion_programs import softmax
from helpers import assert_matches, sum_atol, with_fusion


def log_softmax(xp, x, axis):
    s = x - x.max(axis=axis, keepdims=True)
    return s - xp.log(xp.exp(s).sum(axis=axis, keepdims=True))


def logsumexp(xp, x, axis):
    m = x.max(axis=axis, keepdims=True)
    return (xp.log(xp.exp(x - m).sum(axis=axis, keepdims=True)) + m).squeeze(axis)


def layer_norm(xp, x, axis, g=1.5, b=-0.25, eps=1e-5):
    mean = x.mean(axis=axis, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axis, keepdims=True)
    return (x - mean) / xp.sqrt(var + eps) * g + b


def rms_norm(xp, x, axis, eps=1e-6):
    return x / xp.sqrt((x * x).mean(axis=axis, keepdims=True) + eps) * 0.5


def standardize(xp, x, axis):
    return (x - x.mean(axis=axis, keepdims=True)) / (x.std(axis=axis, keepdims=True) + 1.0)


def normalize_sum(xp, x, axis):
    return x / (xp.abs(x).sum(axis=axis, keepdims=True) + 1.0)


def subtract_max(xp, x, axis):
    m = x.max(axis=axis)
    return x - (m if axis == 0 else xp.expand_dims(m, axis))


def centred_variance(xp, x, axis):
    """A reduction feeding a reduction: the mean, then the mean square deviation."""
    return ((x - x.mean(axis=axis, keepdims=True)) ** 2).mean(axis=axis)


FAMILY = [softmax, log_softmax, logsumexp, layer_norm, rms_norm, standardize, normalize_sum,
          subtract_max, centred_variance]


@pytest.mark.parametrize("fn", FAMILY, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("axis", [-1, 0])
def test_family_matches_numpy(rng, device, fn, dtype, axis):
    for shape in [(37, 53), (1, 9), (64, 1), (5, 0), (0, 4)]:
        if shape[axis] == 0 and fn is not normalize_sum:
            continue  # an empty row: NumPy raises (max) or warns (mean); tested with reductions
        x_np = rng.uniform(-3, 3, shape).astype(dtype)
        expected = fn(np, x_np, axis)
        got = fn(ap, ap.asarray(x_np.copy()), axis)
        tol = dict(rtol=2e-5, atol=2e-5) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-12)
        assert_matches(got, expected, **tol)


@pytest.mark.parametrize("fn", [softmax, layer_norm, subtract_max], ids=lambda f: f.__name__)
def test_family_over_views_and_other_axes(rng, device, fn):
    x_np = rng.uniform(-2, 2, (6, 7, 8))
    x = ap.asarray(x_np.copy())
    for view in (lambda a: a, lambda a: a[::-1, :, ::2], lambda a: a.transpose(2, 0, 1)):
        for axis in (0, 1, 2, -1):
            if fn is subtract_max and axis not in (0, -1):
                continue
            assert_matches(fn(ap, view(x), axis), fn(np, view(x_np), axis), rtol=1e-12,
                           atol=1e-12)


def test_keepdims_or_not_and_several_axes(rng, device):
    x_np = rng.uniform(-2, 2, (4, 5, 6))
    x = ap.asarray(x_np.copy())
    for axis in [(0, 2), (1, 2), (0, 1)]:
        got = x - x.mean(axis=axis, keepdims=True) * x.max(axis=axis, keepdims=True)
        exp = x_np - x_np.mean(axis=axis, keepdims=True) * x_np.max(axis=axis, keepdims=True)
        assert_matches(got, exp, rtol=1e-12, atol=1e-12)
    # axis 0 without keepdims broadcasts by itself. A column's sum may cancel to near zero, so
    # the sums compare within their terms' size, and the quotient against accelpy's own sums
    # (dividing by a cancelled sum would magnify its rounding without bound).
    sums = x.sum(axis=0)
    quotient = x / sums
    assert_matches(sums, x_np.sum(axis=0), rtol=1e-12, atol=sum_atol(x_np, axis=0))
    assert_matches(quotient, x_np / ap.asnumpy(sums), rtol=1e-12, atol=1e-12)
    # A whole-array reduction (one row) fed back.
    assert_matches(x - x.sum(), x_np - x_np.sum(), rtol=1e-12, atol=max(1e-12, sum_atol(x_np)))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8, np.int8, np.float32])
def test_integer_rows_match_numpy_and_unfused_exactly(rng, device, dtype):
    x_np = rng.integers(0, 50, (40, 30)).astype(dtype)

    def program(xp, x):
        m = x.max(axis=1, keepdims=True)
        s = (x * 3 - m).sum(axis=1, keepdims=True)
        return x * 2 - m + s, (x - x.min(axis=0)).sum(axis=0)

    expected = program(np, x_np)
    fused = with_fusion(True, lambda: program(ap, ap.asarray(x_np.copy())))
    unfused = with_fusion(False, lambda: program(ap, ap.asarray(x_np.copy())))
    for f, u, e in zip(fused, unfused, expected, strict=True):
        assert_matches(f, e, rtol=0, atol=0) if dtype != np.float32 else assert_matches(f, e)
        assert ap.asnumpy(f).tobytes() == ap.asnumpy(u).tobytes()


@pytest.mark.parametrize("shape,axis", [((300, 1000), -1), ((1000, 300), 0), ((3, 40000), -1),
                                        ((2000, 40), -1), ((40, 2000), 0), ((16, 8, 700), 1)])
@pytest.mark.parametrize("fn", [softmax, layer_norm, centred_variance], ids=lambda f: f.__name__)
def test_tiles_and_two_pass_are_bit_identical_to_unfused(rng, shape, axis, fn):
    """Sizes that tile (many rows), and that run the passes over the whole group (few long
    rows, column blocks accumulated in bands): the same bits as one group per operation."""
    x_np = rng.uniform(-3, 3, shape).astype(np.float32)
    with ap.device("cpu"):
        with ap.debug_fusion(stream=None) as log:
            fused = with_fusion(True, lambda: ap.asnumpy(fn(ap, ap.asarray(x_np.copy()), axis)))
        assert [r["kind"] for r in log] == ["rows"]
        unfused = with_fusion(False, lambda: ap.asnumpy(fn(ap, ap.asarray(x_np.copy()), axis)))
    assert fused.tobytes() == unfused.tobytes()
    assert_matches(fused, fn(np, x_np, axis), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("shape,axis", [((300, 1000), -1), ((1000, 300), 0), ((2000, 40), -1),
                                        ((40, 2000), 0), ((16, 8, 700), 1), ((7, 3), -1),
                                        ((256, 16500), -1)])
@pytest.mark.parametrize("fn", [softmax, layer_norm, centred_variance], ids=lambda f: f.__name__)
def test_row_layouts_are_one_group_on_every_device(rng, device, shape, axis, fn):
    """The layouts a row kernel maps differently: rows along the fastest axis (short, long, kept
    in registers or looped over: 256 rows of 16500), and reduced axes that are not the fastest
    (axis 0, a middle axis: a column of threads per row); one group each, values as NumPy's."""
    x_np = rng.uniform(-3, 3, shape).astype(np.float32)
    with ap.debug_fusion(stream=None) as log:
        got = ap.asnumpy(fn(ap, ap.asarray(x_np.copy()), axis))
    assert [r["kind"] for r in log] == ["rows"]
    assert_matches(got, fn(np, x_np, axis), rtol=1e-4, atol=1e-4)


def test_kept_reduction_and_intermediate_are_written_once(rng, device):
    x_np = rng.uniform(-2, 2, (20, 30))
    x = ap.asarray(x_np.copy())
    with ap.debug_fusion(stream=None) as log:
        m = x.max(axis=1, keepdims=True)
        e = ap.exp(x - m)
        y = e / e.sum(axis=1, keepdims=True)
        ap.eval(y, m, e)
    assert len(log) == 1 and len(log[0]["outputs"]) == 3
    e_np = np.exp(x_np - x_np.max(axis=1, keepdims=True))
    assert_matches(m, x_np.max(axis=1, keepdims=True))
    assert_matches(e, e_np, rtol=1e-12, atol=1e-12)
    assert_matches(y, e_np / e_np.sum(axis=1, keepdims=True), rtol=1e-12, atol=1e-12)


def test_assigning_a_row_group_into_a_view(rng, device):
    x_np = rng.uniform(-2, 2, (8, 12))
    out_np = np.zeros((12, 8))
    out = ap.asarray(out_np)
    out.T[...] = softmax(ap, ap.asarray(x_np), -1)
    out_np.T[...] = softmax(np, x_np, -1)
    assert_matches(out, out_np, rtol=1e-12, atol=1e-12)
    sums = ap.zeros(16)
    sums[::2] = ap.asarray(x_np).sum(axis=1) / 3.0
    exp = np.zeros(16)
    exp[::2] = x_np.sum(axis=1) / 3.0
    assert_matches(sums, exp, rtol=1e-12, atol=1e-12)


ROW_UNARY = [
    lambda xp, a: xp.exp(xp.minimum(a, 3)),
    lambda xp, a: a * a,
    lambda xp, a: xp.abs(a) + 1,
    lambda xp, a: -a,
]
ROW_BINARY = [
    lambda xp, a, b: a + b,
    lambda xp, a, b: a - b * 2,
    lambda xp, a, b: a * b,
    lambda xp, a, b: xp.maximum(a, b),
]
ROW_REDUCE = [
    lambda xp, a, ax: a.sum(axis=ax, keepdims=True),
    lambda xp, a, ax: a.max(axis=ax, keepdims=True),
    lambda xp, a, ax: a.min(axis=ax),
    lambda xp, a, ax: a.mean(axis=ax, keepdims=True),
]


def row_program(xp, x, y, ops, axis, integer):
    """A random DAG over one row space: elementwise work, reductions over `axis` whose results
    feed more elementwise work (keepdims or broadcast by themselves), shared subexpressions
    (values drawn from the whole pool, not only the last) and several outputs."""
    pool = [x, y]
    for kind, i, j, f in ops:
        a, b = pool[i % len(pool)], pool[j % len(pool)]
        if kind % 3 == 0:
            unary = ROW_UNARY[1:] if integer else ROW_UNARY  # no exp of integers
            pool.append(unary[f % len(unary)](xp, a))
        elif kind % 3 == 1:
            pool.append(ROW_BINARY[f % len(ROW_BINARY)](xp, a, b))
        else:
            r = ROW_REDUCE[f % (3 if integer else 4)](xp, a, axis)
            if r.ndim < a.ndim:  # without keepdims: broadcast back by itself (axis 0) or not
                r = r if axis == 0 else xp.expand_dims(r, axis)
            pool.append(a - r if f % 2 else r * b)
    return pool[2:][-3:] + [pool[len(pool) // 2]]


class Bounded:
    """A float64 value with a bound on what rounding can move it by, in units of the working
    precision: row_program over these gives each result's exact value (from the rounded inputs)
    and the magnitude its rounding error scales with. The error of a sum of cancelling terms
    scales with the terms, not the result, so a tolerance taken from the results fails whenever
    a random program cancels (fresh seeds found one)."""

    def __init__(self, v, m):
        self.v, self.m = v, m

    ndim = property(lambda self: self.v.ndim)

    @staticmethod
    def of(x):
        return x if isinstance(x, Bounded) else Bounded(np.float64(x), abs(np.float64(x)))

    def __add__(self, o):
        o = Bounded.of(o)
        return Bounded(self.v + o.v, self.m + o.m)

    def __sub__(self, o):
        o = Bounded.of(o)
        return Bounded(self.v - o.v, self.m + o.m)

    def __mul__(self, o):
        o = Bounded.of(o)
        return Bounded(self.v * o.v, self.m * o.m)

    def __neg__(self):
        return Bounded(-self.v, self.m)

    def _reduce(self, name, m_name, axis, keepdims=False):
        return Bounded(getattr(self.v, name)(axis=axis, keepdims=keepdims),
                       getattr(self.m, m_name)(axis=axis, keepdims=keepdims))

    def sum(self, axis, keepdims=False):
        return self._reduce("sum", "sum", axis, keepdims)

    def mean(self, axis, keepdims=False):
        return self._reduce("mean", "mean", axis, keepdims)

    def max(self, axis, keepdims=False):
        return self._reduce("max", "max", axis, keepdims)

    def min(self, axis, keepdims=False):
        return self._reduce("min", "max", axis, keepdims)


class BoundedNamespace:
    """The functions row_program calls, over Bounded values."""

    @staticmethod
    def exp(a):  # an error d in the argument moves exp by exp(v) * d
        v = np.exp(a.v)
        return Bounded(v, v * (1 + a.m))

    @staticmethod
    def abs(a):
        return Bounded(np.abs(a.v), a.m)

    @staticmethod
    def minimum(a, b):
        a, b = Bounded.of(a), Bounded.of(b)
        return Bounded(np.minimum(a.v, b.v), np.maximum(a.m, b.m))

    @staticmethod
    def maximum(a, b):
        a, b = Bounded.of(a), Bounded.of(b)
        return Bounded(np.maximum(a.v, b.v), np.maximum(a.m, b.m))

    @staticmethod
    def expand_dims(a, axis):
        return Bounded(np.expand_dims(a.v, axis), np.expand_dims(a.m, axis))


def test_bounded_reference_covers_numpy_cancelling_in_float32():
    # Terms of 3e4 that cancel: float32's error (4e-4, from 3e4 + 0.1) is far above the result's.
    x = np.array([3e4, 0.1, -3e4], dtype=np.float32)
    b = Bounded(x.astype(np.float64), np.abs(x.astype(np.float64))).sum(axis=0)
    err = abs(float(x.sum()) - float(b.v))
    assert err > 1e-6 * max(abs(float(b.v)), 1.0)  # a tolerance from the result would fail
    assert err <= 1e-4 * float(b.m)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32])
@pytest.mark.parametrize("axis", [0, 1])
def test_random_row_programs_match_numpy_and_unfused(rng, device, dtype, axis):
    integer = np.dtype(dtype).kind == "i"
    kinds = []
    for _ in range(6):
        shape = (int(rng.integers(1, 40)), int(rng.integers(1, 40)))
        x_np, y_np = (rng.integers(-3, 4, shape) if integer else rng.uniform(-1, 1, shape)
                      for _ in range(2))
        x_np, y_np = x_np.astype(dtype), y_np.astype(dtype)
        ops = [tuple(int(v) for v in rng.integers(0, 1000, 4)) for _ in range(10)]
        if integer:
            expected = row_program(np, x_np, y_np, ops, axis, integer)
        else:  # exact values from the rounded inputs, and how far rounding may move each
            x64, y64 = x_np.astype(np.float64), y_np.astype(np.float64)
            expected = row_program(BoundedNamespace, Bounded(x64, np.abs(x64)),
                                   Bounded(y64, np.abs(y64)), ops, axis, integer)

        def run(fused, ops=ops, x_np=x_np, y_np=y_np):
            return with_fusion(fused, lambda: [ap.asnumpy(r) for r in row_program(
                ap, ap.asarray(x_np.copy()), ap.asarray(y_np.copy()), ops, axis, integer)])

        with ap.debug_fusion(stream=None) as log:
            got = run(True)
        kinds += [r["kind"] for r in log]
        unfused = run(False)
        for g, u, e in zip(got, unfused, expected, strict=True):
            if integer:
                np.testing.assert_array_equal(g, e)
            else:  # at most 10 ops and sums of < 40 terms: far below these multiples of eps
                tol = 1e-4 if dtype == np.float32 else 1e-12
                assert g.shape == e.v.shape and g.dtype == dtype
                bad = ~(np.abs(g - e.v) <= tol * e.m + np.finfo(dtype).tiny)
                assert not bad.any(), (np.argwhere(bad)[:5], g[bad][:5], e.v[bad][:5],
                                       e.m[bad][:5])
            if device.type == "cpu" or integer:
                assert g.tobytes() == u.tobytes()
    assert "rows" in kinds  # the programs exercise row groups


@pytest.mark.usefixtures("deferred")  # counts what the deferred path does
def test_a_reduction_read_back_by_a_group_it_depends_on_joins_a_row_group(rng, device):
    """t feeds u's group and w's, and w reads a sum of u: the multi-output merge must not join
    u's and w's groups around the reduction, but the row rule takes all three (the reversed
    view v stays apart)."""
    a_np = rng.uniform(-2, 2, (30, 40))
    a = ap.asarray(a_np.copy())
    with ap.debug_fusion(stream=None) as log:
        t = a * 3.0
        u = t + 1.0
        s = u.sum(axis=0)
        v = u[::-1] * 2.0
        w = t * s
        ap.eval(w, v)
    assert sorted(r["kind"] for r in log) == ["elementwise", "rows"]
    t_np = a_np * 3.0
    u_np = t_np + 1.0
    assert_matches(w, t_np * u_np.sum(axis=0), rtol=1e-12, atol=1e-10)
    assert_matches(v, u_np[::-1] * 2.0)

