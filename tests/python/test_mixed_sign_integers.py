"""Signed integers against uint64 compare exactly, as in NumPy 2 (promotion to float64 would
make 2**63 - 1 == 2**63); the other mixed signed/unsigned 64-bit paths match NumPy whatever it
does (maximum/minimum promote to float64 there)."""

import operator

import numpy as np
import pytest

import accelpy as ap
from helpers import assert_exact, to_device

COMPARISONS = [operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge]
SIGNED = [np.int8, np.int16, np.int32, np.int64]

EDGES_SIGNED = [-(2**63), -1, 0, 1, 2**53, 2**53 + 1, 2**62, 2**63 - 2, 2**63 - 1]
EDGES_UNSIGNED = [0, 1, 2**53, 2**53 + 1, 2**62, 2**63 - 1, 2**63, 2**63 + 1, 2**64 - 1]


def _pairs(rng, n, signed):
    info = np.iinfo(signed)
    s = np.array([v for v in EDGES_SIGNED if info.min <= v <= info.max], dtype=signed)
    s = np.concatenate([s, rng.integers(info.min, info.max, n, dtype=signed, endpoint=True)])
    u = np.array(EDGES_UNSIGNED, dtype=np.uint64)
    u = np.concatenate([u, rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True)])
    # Every signed value against every unsigned one (a broadcast pair), and near-equal pairs.
    return s[:, None], u[None, :]


@pytest.mark.parametrize("op", COMPARISONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("signed", SIGNED, ids=lambda t: np.dtype(t).name)
def test_signed_against_uint64_compares_exactly(rng, device, op, signed):
    s, u = _pairs(rng, 20, signed)
    assert_exact(op(to_device(s), to_device(u)), op(s, u))
    assert_exact(op(to_device(u), to_device(s)), op(u, s))
    # Strided and reversed views, and typed NumPy scalars on either side.
    assert_exact(op(to_device(s)[::-2], to_device(u)[:, ::3]), op(s[::-2], u[:, ::3]))
    assert_exact(op(to_device(u).T, signed(-1)), op(u.T, signed(-1)))
    assert_exact(op(np.uint64(2**63), to_device(s)), op(np.uint64(2**63), s))


def test_the_cases_that_went_through_float64():
    a = ap.asarray(np.array([2**63 - 1, 2**53 + 1], dtype=np.int64))
    b = ap.asarray(np.array([2**63, 2**53], dtype=np.uint64))
    assert ap.asnumpy(a == b).tolist() == [False, False]
    assert ap.asnumpy(a > b).tolist() == [False, True]
    assert ap.asnumpy(ap.equal(a, b)).tolist() == [False, False]
    assert ap.asnumpy(ap.greater_equal(b, a)).tolist() == [True, False]


@pytest.mark.parametrize("fn", ["maximum", "minimum", "fmax", "fmin"])
def test_extrema_of_mixed_sign_match_numpy(rng, device, fn):
    s, u = _pairs(rng, 10, np.int64)
    assert_exact(getattr(ap, fn)(to_device(s), to_device(u)), getattr(np, fn)(s, u))


def test_empty_and_0d_operands(device):
    s = np.array(-5, dtype=np.int64)
    u = np.array([], dtype=np.uint64)
    assert_exact(to_device(s) < to_device(u), s < u)
    assert_exact(to_device(s) < to_device(np.uint64(3)), s < np.uint64(3))


def _mixed(rng):
    s = np.concatenate([np.array([2**63 - 1, 2**53 + 1, -1, 0]),
                        rng.integers(-(2**63), 2**63 - 1, 30)]).astype(np.int64)
    u = np.concatenate([np.array([2**63, 2**53, 2**63 - 1, 0], dtype=np.uint64),
                        rng.integers(0, 2**64 - 1, 30, dtype=np.uint64)])
    return s, u


def _exact_isin(a, b):
    return (a[:, None] == b[None, :]).any(axis=1)  # NumPy 2 compares int64 with uint64 exactly


@pytest.mark.parametrize("signed", SIGNED, ids=lambda t: np.dtype(t).name)
def test_isin_of_signed_and_uint64_is_exact(rng, device, signed):
    s, u = (x.ravel() for x in _pairs(rng, 20, signed))
    s = np.concatenate([s, u[u <= np.iinfo(signed).max].astype(signed)])  # some are found
    for a, b in [(s, u), (u, s), (s[:2], u[:2]), (u[::-1], s[::-2])]:
        assert_exact(ap.isin(to_device(a), to_device(b)), _exact_isin(a, b))
        assert_exact(ap.isin(to_device(a), to_device(b), invert=True), ~_exact_isin(a, b))
    # The case: NumPy answers [False, False] for these two, through ==.
    x = np.array([2**63 - 1, 2**53 + 1], dtype=np.int64)
    y = np.array([2**63, 2**53], dtype=np.uint64)
    assert_exact(ap.isin(to_device(x), to_device(y)), np.isin(x, y))
    assert_exact(ap.setdiff1d(to_device(x), to_device(y)), np.setdiff1d(x, y))


def test_searchsorted_isin_and_sets_match_numpy(rng, device):
    s, u = _mixed(rng)
    ss, su = np.sort(s), np.sort(u)
    for a_np, v_np in [(ss, u), (su, s)]:
        for side in ("left", "right"):
            got = ap.searchsorted(to_device(a_np), to_device(v_np), side=side)
            assert_exact(got, np.searchsorted(a_np, v_np, side=side))
    # isin is exact: NumPy's own is for few test elements (it compares with ==) and goes
    # through float64 past that (its sort path concatenates), which finds 2**53 + 1 in [2**53].
    assert_exact(ap.isin(to_device(s), to_device(u)), _exact_isin(s, u))
    assert_exact(ap.isin(to_device(u), to_device(s)), _exact_isin(u, s))
    assert_exact(ap.intersect1d(to_device(s), to_device(u)), np.intersect1d(s, u))
    assert_exact(ap.union1d(to_device(s), to_device(u)), np.union1d(s, u))
    assert_exact(ap.unique(ap.concatenate([to_device(s), to_device(u)])),
                 np.unique(np.concatenate([s, u])))
    assert_exact(ap.sort(ap.concatenate([to_device(s), to_device(u)])),
                 np.sort(np.concatenate([s, u])))
