#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""The vector worst case max tr(KG), G PSD, diag(G) = 1, as a competent numpy user would solve it
without an SDP package (cvxpy is not in Debian 12): the same primal-dual interior-point method
(Helmberg, Rendl, Vanderbei & Wolkowicz 1996), numpy/scipy linear algebra, on random projector
blocks like bench/vector_max_bench.cpp. Prints the mean time per call for each m.

Run: /usr/bin/python3 bench/vector_max_numpy.py
"""
import time

import numpy as np
import scipy.linalg as la


def projector_block(m, r, rng):
    q, _ = np.linalg.qr(rng.standard_normal((3 * m + r, r)))
    z = q[:m].T
    return z.T @ z


def is_pd(a):
    try:
        np.linalg.cholesky(a)
        return True
    except np.linalg.LinAlgError:
        return False


def step(a, d):
    alpha = 1.0
    while not is_pd(a + alpha * d):
        alpha *= 0.8
    return alpha if alpha == 1.0 else 0.95 * alpha


def sdp(k, tol=1e-10):
    m = len(k)
    x = np.eye(m)
    y = 1.1 * np.abs(k).sum(1) + 1.0
    z = np.diag(y) - k
    mu = (z * x).sum() / (2 * m)
    for _ in range(100):
        if y.sum() - (k * x).sum() <= tol * abs(y.sum()):
            break
        zi = la.cho_solve(la.cho_factor(z), np.eye(m))
        dy = la.cho_solve(la.cho_factor(zi * x), mu * np.diag(zi) - 1.0)
        dx = mu * zi - x - zi @ np.diag(dy) @ x
        dx = (dx + dx.T) / 2
        ap, ad = step(x, dx), step(z, np.diag(dy))
        x, y = x + ap * dx, y + ad * dy
        z = np.diag(y) - k
        mu = (z * x).sum() / (2 * m)
        if ap + ad > 1.6:
            mu *= 0.5
        if ap + ad > 1.9:
            mu *= 0.2
    # verified upper bound: shift by the smallest eigenvalue of the slack
    lam = np.linalg.eigvalsh(np.diag(y) - k)[0]
    return y.sum() + m * max(0.0, -lam), (k * x).sum()


rng = np.random.default_rng(7)
for m in (8, 20, 50, 100):
    ks = [projector_block(m, m // 2 + 1, rng) for _ in range(20)]
    start = time.perf_counter()
    for k in ks:
        upper, lower = sdp(k)
    per_call = (time.perf_counter() - start) / len(ks)
    print(f"m = {m:3d}: {per_call * 1e3:8.3f} ms per call (last gap {(upper - lower) / upper:.1e})")
