#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""The random-walk paper's pairwise Renyi DP (Cyffers, Bellet & Upadhyay, Theorem 3 / eq. 16) for
all pairs, as a numpy/scipy user would write it: the baseline beside
`netdp account --method random-walk --contributions expected --alpha A` (docs/reference/performance.md).

    S = sum_{i=1}^{T} W^i / i = U s_T(Lambda) U^T,  s_T(l) = sum_{i<=T} l^i / i   (eq. 13-15)
    local = alpha Delta^2 / (2 sigma^2),  single(u -> v) = min(2 local S[u, v], local)
    rdp = N single,  N = T / n (the paper's count: its expectation, not a bound)
    eps = rdp + log(1 - 1/alpha) - (log delta + log alpha) / (alpha - 1)   (Canonne et al. 2020)

capped by the local Gaussian eps of sqrt(N) Delta / sigma (Dong, Roth & Su 2022, Corollary 2.13), on
the hamilton walk of a hypercube (1/d to each neighbour). netdp's default count is a bound on N_u
(its visit tail), which this script does not compute: it is the paper's formula, timed for speed.
Usage: bench/baselines/random_walk_theorem3.py D T SIGMA ALPHA [OUT.npy]   (hypercube of dimension D)
"""
import sys

import numpy as np
import scipy.optimize
import scipy.stats


def hypercube_walk(d):
    n = 1 << d
    w = np.zeros((n, n))
    v = np.arange(n)
    for bit in range(d):
        w[v, v ^ (1 << bit)] = 1.0 / d
    return w


def partial_log_series(lam, steps):
    """s_T(lambda) for each eigenvalue, by summing the powers (a few thousand terms at most)."""
    total = np.zeros_like(lam)
    power = np.ones_like(lam)
    for i in range(1, steps + 1):
        power = power * lam
        total += power / i
    return total


def gdp_epsilon(mu, delta):
    def excess(eps):
        return (scipy.stats.norm.cdf(-eps / mu + mu / 2) - np.exp(eps) * scipy.stats.norm.cdf(-eps / mu - mu / 2)
                - delta)

    return scipy.optimize.brentq(excess, 0.0, 100.0 * mu + 50.0, xtol=1e-14)


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    d, steps = int(sys.argv[1]), int(sys.argv[2])
    sigma, alpha = float(sys.argv[3]), float(sys.argv[4])
    if not (1 <= d <= 14 and steps >= 1 and sigma > 0 and alpha > 1):
        sys.exit(f"need 1 <= D <= 14, T >= 1, SIGMA > 0, ALPHA > 1; got {sys.argv[1:5]}")
    delta = 1e-5
    w = hypercube_walk(d)
    n = w.shape[0]
    lam, u = np.linalg.eigh(w)
    series = (u * partial_log_series(lam, steps)) @ u.T  # S[u, v]: target u, observer v
    count = steps / n
    local = alpha / (2.0 * sigma**2)
    if sigma**2 < 2.0 * alpha * (alpha - 1.0):
        single = np.full((n, n), local)  # Theorem 3's condition fails: only the local loss holds
    else:
        single = np.minimum(2.0 * local * series, local)
    rdp = count * single
    eps = rdp + np.log1p(-1.0 / alpha) - (np.log(delta) + np.log(alpha)) / (alpha - 1.0)
    eps = np.minimum(np.maximum(eps, 0.0), gdp_epsilon(np.sqrt(count) / sigma, delta)).T  # row = observer
    np.fill_diagonal(eps, np.nan)
    pairs = eps[~np.isnan(eps)]
    print(f"pairs {pairs.size}  epsilon min {pairs.min():.6g}  mean {pairs.mean():.6g}  max {pairs.max():.6g}")
    if len(sys.argv) == 6:
        np.save(sys.argv[5], eps)


if __name__ == "__main__":
    main()
