"""μ-GDP conversions, the same functions as the library's dp module (docs/dp.md)."""

import numpy as np

from . import _netdp


def _apply(function, *args):
    if all(np.ndim(a) == 0 for a in args):
        return function(*(float(a) for a in args))
    return np.vectorize(function, otypes=[float])(*args)


def epsilon(mu, delta):
    """The smallest ε with μ-GDP ⇒ (ε, δ)-DP (Dong, Roth & Su, Corollary 2.13), rounded up."""
    return _apply(_netdp.gdp_epsilon, mu, delta)


def delta(mu, epsilon):
    """δ(ε) of μ-GDP."""
    return _apply(_netdp.gdp_delta, mu, epsilon)


def mu_for(epsilon, delta):
    """The largest μ whose μ-GDP gives (ε, δ)-DP."""
    return _apply(_netdp.gdp_mu_for, epsilon, delta)
