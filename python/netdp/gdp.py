# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""μ-GDP conversions, the same functions as the library's dp module (docs/reference/dp.md)."""

from typing import Any, Callable

import numpy as np

from . import _netdp


def _apply(function: Callable[..., float], *args: Any) -> Any:
    if all(np.ndim(a) == 0 for a in args):
        return function(*(float(a) for a in args))
    return np.vectorize(function, otypes=[float])(*args)


def epsilon(mu: Any, delta: Any) -> Any:
    """The smallest ε with μ-GDP ⇒ (ε, δ)-DP (Dong, Roth & Su, Corollary 2.13), rounded up.

    Examples
    --------
    >>> import netdp
    >>> round(netdp.gdp.epsilon(1.0, 1e-5), 6)
    4.377178
    """
    return _apply(_netdp.gdp_epsilon, mu, delta)


def delta(mu: Any, epsilon: Any) -> Any:
    """δ(ε) of μ-GDP: the tightest δ at ε (Dong, Roth & Su, Corollary 2.13); arrays broadcast."""
    return _apply(_netdp.gdp_delta, mu, epsilon)


def mu_for(epsilon: Any, delta: Any) -> Any:
    """The largest μ whose μ-GDP gives (ε, δ)-DP (the inverse of :func:`epsilon`); arrays
    broadcast."""
    return _apply(_netdp.gdp_mu_for, epsilon, delta)
