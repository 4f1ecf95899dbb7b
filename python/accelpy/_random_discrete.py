"""accelpy.random's discrete distributions (the Generator methods), as array operations over the
counter-based draws: inversion for small means (a few cumulative-probability steps over the
whole array at once) and transformed rejection for large ones (Hormann's PTRS for Poisson and
BTRS for binomial, Stadlober's HRUA for hypergeometric), as vectorised rejection rounds.

Results are int64 unless ``dtype=`` says otherwise (computed in float64: exact below 2**53).
"""

import numpy as np

from . import _core
from ._random_continuous import Draws
from ._random_support import (
    any_true,
    count,
    finish,
    flat_params,
    log_factorial,
    rejection,
    require,
)

_I64 = np.int64
# NumPy's limit: the largest lam whose samples fit int64 with room for the tail.
_POISSON_LAM_MAX = float(np.iinfo(np.int64).max - np.sqrt(np.iinfo(np.int64).max) * 10)
# Inversion runs while the mean is below this; above, transformed rejection (its constants are
# fitted for means of 10 and more).
_INVERSION_MEAN = 10.0
# Inversion stops adding probabilities smaller than this: what is left is below 1e-16.
_NEGLIGIBLE = 1e-18


def _inversion(u, p0, ratio):
    """The smallest k with u <= P(X <= k), for all elements at once: P(X = 0) = p0 and
    P(X = j + 1) = P(X = j) * ratio(j); steps run in groups of 8 until every element is done."""
    k = _core.zeros(u.shape, np.float64, device=u.device)
    pmf, cdf, j = p0, p0, 0
    while True:
        for _ in range(8):
            k = k + (u > cdf)
            pmf = pmf * ratio(j)
            cdf = cdf + pmf
            j += 1
        _core.eval(k, pmf, cdf)
        if not any_true((u > cdf) & (pmf > _NEGLIGIBLE)):
            return k + (u > cdf)


class DiscreteDistributions(Draws):
    """NumPy's discrete Generator distributions; each takes ``dtype=`` and ``device=``."""

    def _poisson_flat(self, lam, n, device):
        if n == 0:
            return _core.zeros((0,), np.float64, device=device)
        big = lam >= _INVERSION_MEAN
        result = None
        if any_true(~big):
            small = _core.where(big, 0.0, lam)
            result = _inversion(self._u(n, device), _core.exp(-small),
                                lambda j: small / (j + 1.0))
        if any_true(big):
            lam_b = _core.where(big, lam, _INVERSION_MEAN)

            def ptrs(params, m):
                lam, ok_already = params
                slam = _core.sqrt(lam)
                b = 0.931 + 2.53 * slam
                a = -0.059 + 0.02483 * b
                inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
                vr = 0.9277 - 3.6224 / (b - 2.0)
                u = self._u(m, device) - 0.5
                v = self._u(m, device)
                us = 0.5 - _core.abs(u)
                k = _core.floor((2.0 * a / us + b) * u + lam + 0.43)
                quick = (us >= 0.07) & (v <= vr)
                reject = (k < 0) | ((us < 0.013) & (v > us))
                lhs = _core.log(v) + _core.log(inv_alpha) - _core.log(a / (us * us) + b)
                rhs = -lam + k * _core.log(lam) - log_factorial(_core.maximum(k, 0.0))
                return k, quick | ok_already | (~reject & (lhs <= rhs))

            large = rejection(ptrs, [lam_b, ~big], n)
            result = large if result is None else _core.where(big, large, result)
        return result

    def poisson(self, lam=1.0, size=None, *, dtype=_I64, device=None):
        """Poisson variates (``0 <= lam`` and not too large for int64)."""
        out, device, (lam,) = flat_params(size, device, lam)
        require((lam < 0) | (lam != lam), "lam < 0 or lam is NaN")
        require(lam > _POISSON_LAM_MAX, "lam value too large")
        return finish(self._poisson_flat(lam, count(out), device), out, dtype)

    def _binomial_flat(self, trials, p, n, device):
        if n == 0:
            return _core.zeros((0,), np.float64, device=device)
        flip = p > 0.5
        pp = _core.where(flip, 1.0 - p, p)  # <= 0.5: the rejection method's constants need it
        big = trials * pp >= _INVERSION_MEAN
        result = None
        if any_true(~big):
            ps = _core.where(big, 0.0, pp)
            ns = _core.where(big, 0.0, trials)
            odds = ps / (1.0 - ps)
            result = _inversion(self._u(n, device), _core.exp(ns * _core.log1p(-ps)),
                                lambda j: (ns - j) / (j + 1.0) * odds)
        if any_true(big):
            pb = _core.where(big, pp, 0.5)
            nb = _core.where(big, trials, 2 * _INVERSION_MEAN)

            def btrs(params, m):
                nn, p, ok_already = params
                q = 1.0 - p
                spq = _core.sqrt(nn * p * q)
                b = 1.15 + 2.53 * spq
                a = -0.0873 + 0.0248 * b + 0.01 * p
                c = nn * p + 0.5
                vr = 0.92 - 4.2 / b
                alpha = (2.83 + 5.1 / b) * spq
                mode = _core.floor((nn + 1.0) * p)
                h = log_factorial(mode) + log_factorial(nn - mode)
                u = self._u(m, device) - 0.5
                v = self._u(m, device)
                us = 0.5 - _core.abs(u)
                k = _core.floor((2.0 * a / us + b) * u + c)
                quick = (us >= 0.07) & (v <= vr)
                reject = (k < 0) | (k > nn)
                kc = _core.clip(k, 0.0, nn)
                lhs = _core.log(v * alpha / (a / (us * us) + b))
                rhs = (h - log_factorial(kc) - log_factorial(nn - kc)
                       + (k - mode) * _core.log(p / q))
                return k, quick | ok_already | (~reject & (lhs <= rhs))

            large = rejection(btrs, [nb, pb, ~big], n)
            result = large if result is None else _core.where(big, large, result)
        return _core.where(flip, trials - result, result)

    def binomial(self, n, p, size=None, *, dtype=_I64, device=None):
        """Binomial variates (``n >= 0`` an integer, ``0 <= p <= 1``)."""
        out, device, (trials, p) = flat_params(size, device, n, p)
        require(trials < 0, "n < 0")
        require((p < 0) | (p > 1) | (p != p), "p < 0, p > 1 or p is NaN")
        return finish(self._binomial_flat(_core.trunc(trials), p, count(out), device), out,
                      dtype)

    def negative_binomial(self, n, p, size=None, *, dtype=_I64, device=None):
        """Negative binomial variates: Poisson(Gamma(n, (1 - p) / p)) (``n > 0``,
        ``0 < p <= 1``)."""
        out, device, (n, p) = flat_params(size, device, n, p)
        require((n <= 0) | (n != n), "n <= 0")
        require((p <= 0) | (p > 1) | (p != p), "p <= 0, p > 1 or p contains NaNs")
        m = count(out)
        lam = self._standard_gamma_flat(n, m, device) * ((1.0 - p) / p)
        return finish(self._poisson_flat(lam, m, device), out, dtype)

    def geometric(self, p, size=None, *, dtype=_I64, device=None):
        """Geometric variates (trials to the first success) by inversion: ceil(E / -log(1-p))."""
        out, device, (p,) = flat_params(size, device, p)
        require((p <= 0) | (p > 1) | (p != p), "p <= 0, p > 1 or p contains NaNs")
        e = self._e(count(out), device)
        k = _core.ceil(e / -_core.log1p(-p))
        return finish(_core.maximum(k, 1.0), out, dtype)

    def logseries(self, p, size=None, *, dtype=_I64, device=None):
        """Logarithmic-series variates by Kemp's method (``0 <= p < 1``)."""
        out, device, (p,) = flat_params(size, device, p)
        require((p < 0) | (p >= 1) | (p != p), "p < 0, p >= 1 or p is NaN")
        r = _core.log1p(-p)

        def propose(params, m):
            p, r = params
            v = self._u(m, device)
            q = -_core.expm1(r * self._u(m, device))
            k = _core.floor(1.0 + _core.log(v) / _core.log(q))
            tail = (v < p) & (v <= q * q)
            value = _core.where(v >= p, 1.0, _core.where(v <= q * q, k, _core.where(
                v >= q, 1.0, 2.0)))
            return value, ~(tail & ((k < 1) | (v == 0)))

        return finish(rejection(propose, [p, r], count(out)), out, dtype)

    def zipf(self, a, size=None, *, dtype=_I64, device=None):
        """Zipf variates by Devroye's rejection method (``a > 1``)."""
        out, device, (a,) = flat_params(size, device, a)
        require((a <= 1) | (a != a), "a <= 1 or a is NaN")

        def propose(params, m):
            (a,) = params
            am1 = a - 1.0
            b = _core.exp2(am1)
            u = 1.0 - self._u(m, device)
            v = self._u(m, device)
            x = _core.floor(_core.pow(u, -1.0 / am1))
            t = _core.pow(1.0 + 1.0 / x, am1)
            in_range = (x >= 1) & (x <= 2.0**62)
            return x, in_range & (v * x * (t - 1.0) / (b - 1.0) <= t / b)

        return finish(rejection(propose, [a], count(out)), out, dtype)

    def hypergeometric(self, ngood, nbad, nsample, size=None, *, dtype=_I64, device=None):
        """Hypergeometric variates: an urn simulation below 10 draws, else Stadlober's
        ratio-of-uniforms method (HRUA), as NumPy."""
        out, device, (good, bad, sample) = flat_params(size, device, ngood, nbad, nsample)
        require(good < 0, "ngood < 0")
        require(bad < 0, "nbad < 0")
        require(sample < 0, "nsample < 0")
        require(good + bad < sample, "ngood + nbad < nsample")
        n = count(out)
        total = good + bad
        cs = _core.minimum(sample, total - sample)  # the draws simulated: sample or the rest
        small = cs < 10
        result = None
        if any_true(small):
            steps = int(_core.max(_core.where(small, cs, 0.0))) if n else 0
            drawn = _core.zeros((n,), np.float64, device=device)
            good_left, total_left = good, total
            for j in range(steps):
                active = small & (j < cs)
                pick = active & (self._u(n, device) * total_left < good_left)
                drawn = drawn + pick
                good_left = good_left - pick
                total_left = total_left - active
            result = drawn
        if not any_true(small):
            result = self._hrua(good, bad, cs, small, n, device)
        elif any_true(~small):
            result = _core.where(small, result, self._hrua(good, bad, cs, small, n, device))
        # Counted among the complement of the sample when that is the smaller.
        return finish(_core.where(cs < sample, good - result, result), out, dtype)

    def _hrua(self, good, bad, cs, skip, n, device):
        d1, d2 = 1.7155277699214135, 0.8989161620588988
        # Positions the urn handles get harmless parameters here and are accepted at once.
        good = _core.where(skip, 10.0, good)
        bad = _core.where(skip, 10.0, bad)
        cs = _core.where(skip, 10.0, cs)
        total = good + bad
        lo, hi = _core.minimum(good, bad), _core.maximum(good, bad)
        p, q = lo / total, hi / total
        a = cs * p + 0.5
        c = _core.sqrt((total - cs) * cs * p * q / (total - 1.0) + 0.5)
        h = d1 * c + d2
        mode = _core.floor((cs + 1.0) * (lo + 1.0) / (total + 2.0))
        g = (log_factorial(mode) + log_factorial(lo - mode) + log_factorial(cs - mode)
             + log_factorial(hi - cs + mode))
        b = _core.minimum(_core.minimum(cs, lo) + 1.0, _core.floor(a + 16.0 * c))

        def propose(params, m):
            lo, hi, cs, a, h, b, g, skip = params
            u = self._u(m, device)
            v = self._u(m, device)
            x = a + h * (v - 0.5) / u
            in_range = (x >= 0) & (x < b)
            k = _core.floor(_core.clip(x, 0.0, b))
            gp = (log_factorial(k) + log_factorial(lo - k) + log_factorial(cs - k)
                  + log_factorial(hi - cs + k))
            t = g - gp
            ok = (u * (4.0 - u) - 3.0 <= t) | ((u * (u - t) < 1.0) & (2.0 * _core.log(u) <= t))
            return k, skip | (in_range & ok)

        k = rejection(propose, [lo, hi, cs, a, h, b, g, skip], n)
        return _core.where(good > bad, cs - k, k)
