#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""The Muffliato paper's Theorem 1 for all pairs, as a numpy/scipy user would write it: the
baseline beside `netdp account --method muffliato --bound paper` (docs/reference/performance.md).

    S(v, u) = sum_{t<T} sum_{w ~ v} (W^t)[w, u]^2 / N_t(w, v),  N_t(w, v) = sum_{j != v} (W^t)[w, j]^2
    mu(u -> v) = (Delta / sigma) sqrt(min(S, 1))   (capped at the local value)

on a fixed hamilton W (t = 0 sends y itself), then (eps, delta) for each distinct mu by a root
of the GDP delta (Dong, Roth & Su 2022, Corollary 2.13).
Usage: bench/baselines/muffliato_theorem1.py D T SIGMA [OUT.npy]   (hypercube of dimension D)
"""
import sys

import numpy as np
import scipy.optimize
import scipy.sparse as sp
import scipy.stats


def hypercube(d):
    n = 1 << d
    rows, cols = [], []
    for bit in range(d):
        v = np.arange(n)
        rows.append(v)
        cols.append(v ^ (1 << bit))
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    return sp.csr_matrix((np.ones(rows.size), (rows, cols)), shape=(n, n))


def hamilton(adjacency):
    degree = np.asarray(adjacency.sum(axis=1)).ravel()
    a = adjacency.tocoo()
    weights = 1.0 / np.maximum(degree[a.row], degree[a.col])  # netdp's hamilton: 1 / max(d_u, d_v)
    w = sp.csr_matrix((weights, (a.row, a.col)), shape=adjacency.shape)
    return w + sp.diags(1.0 - np.asarray(w.sum(axis=1)).ravel())


def theorem1_mu(adjacency, w, rounds, sigma):
    n = adjacency.shape[0]
    edges = adjacency.tocoo()  # (v, w) for every ordered edge
    power = np.eye(n)  # W^t, t = 0
    sums = np.zeros((n, n))
    for _ in range(rounds):
        squares = power * power
        norms = squares.sum(axis=1)
        # B[v, w] = 1 / N_t(w, v) on the edges, so that S += B @ squares.
        b = sp.csr_matrix((1.0 / (norms[edges.col] - squares[edges.col, edges.row]), (edges.row, edges.col)),
                          shape=(n, n))
        sums += b @ squares
        power = w @ power
    np.fill_diagonal(sums, 0.0)
    return np.sqrt(np.minimum(sums, 1.0)) / sigma


def gdp_epsilon(mu, delta):
    def excess(eps):
        return (scipy.stats.norm.cdf(-eps / mu + mu / 2) - np.exp(eps) * scipy.stats.norm.cdf(-eps / mu - mu / 2)
                - delta)
    return 0.0 if excess(0.0) <= 0 else scipy.optimize.brentq(excess, 0.0, mu * mu / 2 + 10 * mu + 10, xtol=1e-14)


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    d, rounds, sigma = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    if not 1 <= d <= 14 or rounds < 1 or not (np.isfinite(sigma) and sigma > 0):
        sys.exit(f"need 1 <= D <= 14, T >= 1 and SIGMA > 0 finite, got D = {d}, T = {rounds}, SIGMA = {sigma}")
    adjacency = hypercube(d)
    mu = theorem1_mu(adjacency, hamilton(adjacency), rounds, sigma)
    distinct, index = np.unique(mu, return_inverse=True)
    epsilon = np.array([gdp_epsilon(m, 1e-5) if m > 0 else 0.0 for m in distinct])[index].reshape(mu.shape)
    off = ~np.eye(mu.shape[0], dtype=bool)
    print(f"pairs {off.sum()}  mean epsilon {epsilon[off].mean():.6g}  max epsilon {epsilon[off].max():.6g}"
          f"  distinct mu {distinct.size}")
    if len(sys.argv) > 4:
        np.save(sys.argv[4], mu)


if __name__ == "__main__":
    main()
