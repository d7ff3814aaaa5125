# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Rényi DP conversions, the same functions as the library's dp module (docs/reference/dp.md)."""

from typing import Any, Sequence

import numpy as np

from . import _netdp


def default_orders() -> list[float]:
    """The grid of Rényi orders every accountant tabulates."""
    return list(_netdp.default_rdp_orders())


def gaussian(alpha: Any, mu: Any) -> Any:
    """ε(α) = αμ²/2 of the μ-GDP Gaussian mechanism (Mironov 2017, Proposition 7); numpy arrays
    broadcast.

    Examples
    --------
    >>> import netdp
    >>> netdp.rdp.gaussian(2.0, 1.0)
    1.0
    """
    if np.ndim(alpha) == 0 and np.ndim(mu) == 0:
        return _netdp.gaussian_rdp(float(alpha), float(mu))
    return np.vectorize(_netdp.gaussian_rdp, otypes=[float])(alpha, mu)


def to_dp(orders: Sequence[float], epsilons: Sequence[float], delta: float,
          method: str = "improved") -> tuple[float, float]:
    """(ε, α): the smallest ε at δ over the curve ε(α) tabulated on ``orders``, rounded up —
    ``improved`` (Canonne, Kamath & Steinke 2020, Proposition 12) or ``mironov`` (Mironov 2017,
    Proposition 3). Every order gives a valid bound.

    Examples
    --------
    >>> import netdp
    >>> epsilon, alpha = netdp.rdp.to_dp([2.0, 4.0], [1.0, 2.0], 1e-5)
    >>> alpha
    4.0
    """
    return _netdp.rdp_to_dp([float(a) for a in orders], [float(e) for e in epsilons], float(delta), method)
