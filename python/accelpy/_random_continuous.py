"""accelpy.random's continuous distributions (the Generator methods), as array operations over
the counter-based draws: transforms of uniforms, normals and exponentials, and gamma variates
by Marsaglia and Tsang's method, vectorised as rejection rounds (_random_support.rejection).

The formulas are NumPy's (numpy/random/src/distributions/distributions.c) except where noted;
the streams are not NumPy's, the distributions are.
"""

import math

import numpy as np

from . import _core
from ._random_support import (
    any_true,
    count,
    finish,
    flat_params,
    rejection,
    require,
)

_F64 = np.float64


class Draws:
    """The flat float64 draws the distributions are built from (self._state: the Philox)."""

    def _u(self, n, device):
        return self._state.random((n,), _F64, device)

    def _z(self, n, device):
        return self._state.standard_normal((n,), _F64, device)

    def _e(self, n, device):
        return self._state.standard_exponential((n,), _F64, device)

    def _gamma_parts(self, alpha, n, device):
        """(g, log_boost): standard gamma variates of shape alpha are g * exp(log_boost).

        alpha >= 1: Marsaglia-Tsang (log_boost None); alpha < 1: G(alpha + 1) * U^(1/alpha),
        whose logarithm stays finite where the variate itself underflows (beta, dirichlet)."""
        small = alpha < 1
        boosted = _core.where(small, alpha + 1.0, alpha)

        def propose(params, m):
            (a,) = params
            d = a - 1.0 / 3.0
            c = 1.0 / _core.sqrt(9.0 * d)
            x = self._z(m, device)
            v = 1.0 + c * x
            v = v * v * v
            u = self._u(m, device)
            ok = (v > 0) & (_core.log(u) < 0.5 * x * x + d - d * v + d * _core.log(v))
            return d * v, ok

        g = rejection(propose, [boosted], n)
        log_boost = None
        if any_true(small):
            log_boost = _core.where(small, _core.log(self._u(n, device)) / alpha, 0.0)
        return g, log_boost

    def _standard_gamma_flat(self, alpha, n, device):
        g, log_boost = self._gamma_parts(alpha, n, device)
        return g if log_boost is None else g * _core.exp(log_boost)

    def _log_standard_gamma_flat(self, alpha, n, device):
        g, log_boost = self._gamma_parts(alpha, n, device)
        return _core.log(g) if log_boost is None else _core.log(g) + log_boost


class ContinuousDistributions(Draws):
    """NumPy's continuous Generator distributions; each takes ``dtype=`` (float32 or float64:
    computed in float64, then cast) and ``device=``."""

    def standard_gamma(self, shape, size=None, dtype=_F64, *, device=None):
        """Gamma variates with scale 1 (``shape >= 0``)."""
        out, device, (a,) = flat_params(size, device, shape)
        require(a < 0, "shape < 0")
        return finish(self._standard_gamma_flat(a, count(out), device), out, dtype)

    def gamma(self, shape, scale=1.0, size=None, *, dtype=_F64, device=None):
        """Gamma variates (``shape >= 0``, ``scale >= 0``)."""
        out, device, (a, s) = flat_params(size, device, shape, scale)
        require(a < 0, "shape < 0")
        require(s < 0, "scale < 0")
        return finish(self._standard_gamma_flat(a, count(out), device) * s, out, dtype)

    def chisquare(self, df, size=None, *, dtype=_F64, device=None):
        """Chi-square variates: 2 * standard_gamma(df / 2) (``df > 0``)."""
        out, device, (k,) = flat_params(size, device, df)
        require(k <= 0, "df <= 0")
        return finish(2.0 * self._standard_gamma_flat(k / 2.0, count(out), device), out, dtype)

    def beta(self, a, b, size=None, *, dtype=_F64, device=None):
        """Beta variates X / (X + Y) of gamma variates X, Y, formed from their logarithms so
        that small a and b (whose gamma variates underflow) still give values in [0, 1]."""
        out, device, (a, b) = flat_params(size, device, a, b)
        require(a <= 0, "a <= 0")
        require(b <= 0, "b <= 0")
        n = count(out)
        log_x = self._log_standard_gamma_flat(a, n, device)
        log_y = self._log_standard_gamma_flat(b, n, device)
        return finish(1.0 / (1.0 + _core.exp(log_y - log_x)), out, dtype)

    def f(self, dfnum, dfden, size=None, *, dtype=_F64, device=None):
        """F variates: (chi2(dfnum) / dfnum) / (chi2(dfden) / dfden)."""
        out, device, (d1, d2) = flat_params(size, device, dfnum, dfden)
        require(d1 <= 0, "dfnum <= 0")
        require(d2 <= 0, "dfden <= 0")
        n = count(out)
        num = self._standard_gamma_flat(d1 / 2.0, n, device) / d1
        den = self._standard_gamma_flat(d2 / 2.0, n, device) / d2
        return finish(num / den, out, dtype)

    def _noncentral_chisquare_flat(self, df, nonc, n, device):
        # A Poisson mixture of central ones, chi2(df + 2 * Poisson(nonc / 2)), for every df
        # (NumPy takes chi2(df - 1) + (Z + sqrt(nonc))^2 when df > 1: the same distribution).
        i = self._poisson_flat(nonc / 2.0, n, device)
        return 2.0 * self._standard_gamma_flat(df / 2.0 + i, n, device)

    def noncentral_chisquare(self, df, nonc, size=None, *, dtype=_F64, device=None):
        """Noncentral chi-square variates (``df > 0``, ``nonc >= 0``)."""
        out, device, (df, nonc) = flat_params(size, device, df, nonc)
        require(df <= 0, "df <= 0")
        require((nonc < 0) | (nonc != nonc), "nonc < 0")
        return finish(self._noncentral_chisquare_flat(df, nonc, count(out), device), out, dtype)

    def noncentral_f(self, dfnum, dfden, nonc, size=None, *, dtype=_F64, device=None):
        """Noncentral F variates: (ncchi2(dfnum, nonc) / dfnum) / (chi2(dfden) / dfden)."""
        out, device, (d1, d2, nonc) = flat_params(size, device, dfnum, dfden, nonc)
        require(d1 <= 0, "dfnum <= 0")
        require(d2 <= 0, "dfden <= 0")
        require((nonc < 0) | (nonc != nonc), "nonc < 0")
        n = count(out)
        t = self._noncentral_chisquare_flat(d1, nonc, n, device) * d2
        return finish(t / (2.0 * self._standard_gamma_flat(d2 / 2.0, n, device) * d1), out,
                      dtype)

    def standard_t(self, df, size=None, *, dtype=_F64, device=None):
        """Student's t variates: Z * sqrt(df / 2) / sqrt(G(df / 2)) (``df > 0``)."""
        out, device, (df,) = flat_params(size, device, df)
        require(df <= 0, "df <= 0")
        n = count(out)
        num = self._z(n, device)
        den = self._standard_gamma_flat(df / 2.0, n, device)
        return finish(_core.sqrt(df / 2.0) * num / _core.sqrt(den), out, dtype)

    def standard_cauchy(self, size=None, *, dtype=_F64, device=None):
        """Cauchy variates: the ratio of two standard normals."""
        out, device, () = flat_params(size, device)
        n = count(out)
        return finish(self._z(n, device) / self._z(n, device), out, dtype)

    def gumbel(self, loc=0.0, scale=1.0, size=None, *, dtype=_F64, device=None):
        """Gumbel variates: loc - scale * log(-log(1 - U))."""
        out, device, (loc, scale) = flat_params(size, device, loc, scale)
        require(scale < 0, "scale < 0")
        u = 1.0 - self._u(count(out), device)
        return finish(loc - scale * _core.log(-_core.log(u)), out, dtype)

    def laplace(self, loc=0.0, scale=1.0, size=None, *, dtype=_F64, device=None):
        """Laplace (double exponential) variates by inversion."""
        out, device, (loc, scale) = flat_params(size, device, loc, scale)
        require(scale < 0, "scale < 0")
        u = self._u(count(out), device)
        hi = loc - scale * _core.log(2.0 - 2.0 * u)
        lo = loc + scale * _core.log(2.0 * u)
        return finish(_core.where(u >= 0.5, hi, lo), out, dtype)

    def logistic(self, loc=0.0, scale=1.0, size=None, *, dtype=_F64, device=None):
        """Logistic variates: loc + scale * log(U / (1 - U))."""
        out, device, (loc, scale) = flat_params(size, device, loc, scale)
        require(scale < 0, "scale < 0")
        u = self._u(count(out), device)
        return finish(loc + scale * _core.log(u / (1.0 - u)), out, dtype)

    def lognormal(self, mean=0.0, sigma=1.0, size=None, *, dtype=_F64, device=None):
        """Log-normal variates: exp(mean + sigma * Z)."""
        out, device, (mean, sigma) = flat_params(size, device, mean, sigma)
        require(sigma < 0, "sigma < 0")
        return finish(_core.exp(mean + sigma * self._z(count(out), device)), out, dtype)

    def pareto(self, a, size=None, *, dtype=_F64, device=None):
        """Pareto II (Lomax) variates: exp(E / a) - 1 (``a > 0``)."""
        out, device, (a,) = flat_params(size, device, a)
        require(a <= 0, "a <= 0")
        return finish(_core.expm1(self._e(count(out), device) / a), out, dtype)

    def power(self, a, size=None, *, dtype=_F64, device=None):
        """Power-function variates: (1 - exp(-E))^(1 / a) (``a > 0``)."""
        out, device, (a,) = flat_params(size, device, a)
        require(a <= 0, "a <= 0")
        return finish(_core.pow(-_core.expm1(-self._e(count(out), device)), 1.0 / a), out, dtype)

    def rayleigh(self, scale=1.0, size=None, *, dtype=_F64, device=None):
        """Rayleigh variates: scale * sqrt(2 E)."""
        out, device, (scale,) = flat_params(size, device, scale)
        require(scale < 0, "scale < 0")
        return finish(scale * _core.sqrt(2.0 * self._e(count(out), device)), out, dtype)

    def weibull(self, a, size=None, *, dtype=_F64, device=None):
        """Weibull variates: E^(1 / a), 0 where a == 0 (``a >= 0``)."""
        out, device, (a,) = flat_params(size, device, a)
        require(a < 0, "a < 0")
        e = self._e(count(out), device)
        return finish(_core.where(a == 0, 0.0, _core.pow(e, 1.0 / a)), out, dtype)

    def triangular(self, left, mode, right, size=None, *, dtype=_F64, device=None):
        """Triangular variates by inversion (``left <= mode <= right``, ``left < right``)."""
        out, device, (left, mode, right) = flat_params(size, device, left, mode, right)
        require(left > mode, "left > mode")
        require(mode > right, "mode > right")
        require(left == right, "left == right")
        base = right - left
        ratio = (mode - left) / base
        u = self._u(count(out), device)
        lo = left + _core.sqrt(u * (mode - left) * base)
        hi = right - _core.sqrt((1.0 - u) * (right - mode) * base)
        return finish(_core.where(u <= ratio, lo, hi), out, dtype)

    def wald(self, mean, scale, size=None, *, dtype=_F64, device=None):
        """Wald (inverse Gaussian) variates by Michael, Schucany and Haas' transform."""
        out, device, (mean, scale) = flat_params(size, device, mean, scale)
        require(mean <= 0, "mean <= 0")
        require(scale <= 0, "scale <= 0")
        n = count(out)
        y = self._z(n, device)
        y = mean * y * y
        x = mean + mean / (2.0 * scale) * (y - _core.sqrt(4.0 * scale * y + y * y))
        u = self._u(n, device)
        return finish(_core.where(u <= mean / (mean + x), x, mean * mean / x), out, dtype)

    def vonmises(self, mu, kappa, size=None, *, dtype=_F64, device=None):
        """Von Mises variates on [-pi, pi] by Best and Fisher's rejection method; kappa < 1e-8
        gives uniform angles and kappa > 1e6 a wrapped normal, as NumPy."""
        out, device, (mu, kappa) = flat_params(size, device, mu, kappa)
        require((kappa < 0) | (kappa != kappa), "kappa < 0")
        n = count(out)
        k = _core.clip(kappa, 1e-8, 1e6)
        r = 1.0 + _core.sqrt(1.0 + 4.0 * k * k)
        rho = (r - _core.sqrt(2.0 * r)) / (2.0 * k)
        s = _core.where(k < 1e-5, 1.0 / k + k, (1.0 + rho * rho) / (2.0 * rho))

        def propose(params, m):
            s, k = params
            z = _core.cos(math.pi * self._u(m, device))
            w = (1.0 + s * z) / (s + z)
            y = k * (s - w)
            v = self._u(m, device)
            ok = (y * (2.0 - y) - v >= 0) | (_core.log(y / v) + 1.0 - y >= 0)
            return w, ok

        w = _core.clip(rejection(propose, [s, k], n), -1.0, 1.0)
        angle = _core.acos(w)
        angle = _core.where(self._u(n, device) < 0.5, -angle, angle)
        if any_true(kappa > 1e6):
            angle = _core.where(kappa > 1e6, _core.sqrt(1.0 / kappa) * self._z(n, device), angle)
        # Wrapped to [-pi, pi] keeping the sign, as NumPy.
        shifted = angle + mu
        wrapped = _core.fmod(_core.abs(shifted) + math.pi, 2 * math.pi) - math.pi
        wrapped = _core.where(shifted < 0, -wrapped, wrapped)
        if any_true(kappa < 1e-8):
            uniform = math.pi * (2.0 * self._u(n, device) - 1.0)
            wrapped = _core.where(kappa < 1e-8, uniform, wrapped)
        return finish(wrapped, out, dtype)
