"""Programs the fusion tests and benchmarks share (bench/cpu_fusion.py and bench/gpu_fusion.py
import this module), each written the way its users write it, for any array module `xp`."""


def black_scholes(xp, S, X, T, R=0.02, V=0.30):
    """The CUDA sample's Black-Scholes: call and put from one pass, sharing sqrt(T), d1, d2,
    exp(-R*T) and each CND (a polynomial approximation with a `where`)."""
    def cnd(d):
        A1, A2, A3, A4, A5 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429
        K = 1.0 / (1.0 + 0.2316419 * xp.abs(d))
        ret = 0.3989422804014327 * xp.exp(-0.5 * d * d) * (
            K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))))
        return xp.where(d > 0, 1.0 - ret, ret)

    sqrt_t = xp.sqrt(T)
    d1 = (xp.log(S / X) + (R + 0.5 * V * V) * T) / (V * sqrt_t)
    d2 = d1 - V * sqrt_t
    c1, c2 = cnd(d1), cnd(d2)
    exp_rt = xp.exp(-R * T)
    return S * c1 - X * exp_rt * c2, X * exp_rt * (1.0 - c2) - S * (1.0 - c1)


def softmax(xp, x, axis=-1):
    """Softmax over `axis`: the max, exp(x - max), and its sum, broadcast back over the rows."""
    e = xp.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def layer_norm(xp, x, g, b):
    """Layer norm over the last axis: the mean, the centred variance, then scale and shift."""
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / xp.sqrt(var + 1e-5) * g + b
