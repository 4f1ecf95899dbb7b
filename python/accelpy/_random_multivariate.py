"""accelpy.random's multivariate distributions (the Generator methods): multinomial as
conditional binomials, dirichlet as normalised gamma variates, multivariate_normal as standard
normals times a factor of the covariance. The small parameter vectors and matrices are handled
with NumPy on the host; the samples are drawn and combined on the device."""

import warnings

import numpy as np

from . import _core
from ._creation import asarray as _asarray
from ._creation import host_values as _host_values
from ._random_continuous import Draws
from ._random_support import count, param_device, require, shape_of


class MultivariateDistributions(Draws):
    """NumPy's multinomial, dirichlet and multivariate_normal."""

    def multinomial(self, n, pvals, size=None, *, dtype=np.int64, device=None):
        """Counts of each outcome in n trials with probabilities pvals (the last one takes
        what the others leave), of shape ``size + (len(pvals),)``; n may be an array."""
        device = param_device(device, n)
        pv = _host_values(pvals, np.float64)
        if pv.ndim != 1:
            raise ValueError("pvals must be a one-dimensional array")
        if np.any(pv < 0) or np.any(pv > 1) or np.isnan(pv).any():
            raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
        if pv.size and float(np.sum(pv[:-1])) > 1.0 + 1e-12:
            raise ValueError("sum(pvals[:-1]) > 1.0")
        trials = _asarray(n, dtype=np.float64, device=device)
        require(trials < 0, "n < 0")
        shape = shape_of(size) if size is not None else tuple(trials.shape)
        m = count(shape)
        left = _core.broadcast_to(_core.trunc(trials), shape).reshape(-1)
        counts, rest = [], 1.0
        for p in pv[:-1]:
            ratio = min(max(p / rest, 0.0), 1.0) if rest > 0 else 0.0
            x = self._binomial_flat(left, _asarray(ratio, device=device), m, device)
            counts.append(x)
            left = left - x
            rest -= p
        if pv.size:
            counts.append(left)
        if not counts:
            return _core.zeros(shape + (0,), dtype, device=device)
        stacked = _core.stack(counts, axis=-1).reshape(shape + (pv.size,))
        return _core.astype(stacked, dtype)

    def dirichlet(self, alpha, size=None, *, dtype=np.float64, device=None):
        """Dirichlet variates of shape ``size + (len(alpha),)``: gamma variates normalised to
        sum 1, formed from their logarithms so that small alphas do not give 0 / 0."""
        device = param_device(device, alpha)
        a = _host_values(alpha, np.float64)
        if a.ndim != 1:
            raise ValueError("object of too small depth for desired array" if a.ndim == 0
                             else "alpha must be a one-dimensional array")
        if np.any(a < 0) or np.isnan(a).any():
            raise ValueError("alpha < 0")
        shape = shape_of(size) + (a.size,)
        m = count(shape)
        flat = _core.broadcast_to(_asarray(a, device=device), shape).reshape(-1)
        logs = self._log_standard_gamma_flat(flat, m, device).reshape(shape)
        if m == 0:
            return _core.astype(logs, dtype)
        top = _core.max(logs, axis=-1, keepdims=True)
        w = _core.exp(logs - top)
        return _core.astype(w / _core.sum(w, axis=-1, keepdims=True), dtype)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8, *,
                            method="svd", dtype=np.float64, device=None):
        """Normal vectors with the given mean and covariance, of shape ``size + mean.shape``:
        standard normals times a factor of cov (method 'svd', 'eigh' or 'cholesky', computed
        with NumPy on the host: cov is small), plus mean."""
        device = param_device(device, mean, cov)
        mu = _host_values(mean, np.float64)
        c = _host_values(cov, np.float64)
        if mu.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if c.ndim != 2 or c.shape[0] != c.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if mu.shape[0] != c.shape[0]:
            raise ValueError("mean and cov must have same length")
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError("method must be one of {'eigh', 'svd', 'cholesky'}")
        if method == "cholesky":
            factor = np.linalg.cholesky(c).T
        else:
            if method == "eigh":
                s, u = np.linalg.eigh(c)
                s = np.maximum(s, 0.0)
                factor = np.sqrt(s)[:, None] * u.T
                psd = np.allclose(u @ (s[:, None] * u.T), c, rtol=tol, atol=tol)
            else:
                u, s, vh = np.linalg.svd(c)
                factor = np.sqrt(s)[:, None] * vh
                psd = np.allclose((vh.T * s) @ vh, c, rtol=tol, atol=tol)
            if not psd and check_valid != "ignore":
                if check_valid == "warn":
                    warnings.warn("covariance is not symmetric positive-semidefinite.",
                                  RuntimeWarning, stacklevel=2)
                else:
                    raise ValueError("covariance is not symmetric positive-semidefinite.")
        shape = shape_of(size) + mu.shape
        z = self._z(count(shape), device).reshape(shape)
        x = _core.matmul(z, _asarray(factor, device=device)) + _asarray(mu, device=device)
        return _core.astype(x, dtype)
