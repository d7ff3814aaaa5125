#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""The exact joint view of one Muffliato observer from the SVD of a well-conditioned basis of its
Krylov space, as a numpy/scipy user would check `netdp account --method muffliato --observer V
--out F.npy --field mu` (docs/reference/accounting-muffliato.md, "Ill-conditioned views: the Chebyshev basis").

The observer's messages W^t e_w (t < T, w a neighbour) span K = span{p(W) e_w : deg p < T}. The powers
are too ill-conditioned to give its dimension, so the rows T_t(aW + bI) e_w are built by the Chebyshev
recurrence on [lambda_min - 1e-3, 1] (lambda_min from scipy's eigsh), the observer's column is removed,
and the row space is read off a dense SVD with numpy's own rank rule (singular values above
max(m, n) * eps * sigma_max, as numpy.linalg.matrix_rank). mu^2 = (Delta / sigma)^2 * leverage, with
Delta = sigma = 1. The spectrum printed beside it shows whether that rank has a gap around it.

A block Arnoldi process is not used: it renormalises every new direction, so a direction kept at
relative size tol carries rounding of relative size eps / tol into the next step, and its dimension
grows as tol falls (on facebook_combined, observer 3320, T = 20: 1,320, 1,376 and 2,204 directions for
tol = 1e-8, 1e-10, 1e-13, against 999 singular values of the Chebyshev rows above 1e-15 of the
largest and none between 1e-15 and 1e-9).

Usage: bench/baselines/joint_view_krylov.py EDGE_LIST OBSERVER T NETDP_MU.npy
(hamilton W on the graph of EDGE_LIST, node ids 0..n-1; the .npy from the same netdp run)
"""
import sys

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as sla


def hamilton(path):
    edges = np.loadtxt(path, dtype=int)
    n = edges.max() + 1
    a = sp.coo_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(n, n))
    a = ((a + a.T) > 0).astype(float).tocsr()
    degree = np.asarray(a.sum(1)).ravel()
    rows, cols = a.nonzero()
    w = sp.csr_matrix((1.0 / np.maximum(degree[rows], degree[cols]), (rows, cols)), shape=(n, n))
    return a, w + sp.diags(1.0 - np.asarray(w.sum(1)).ravel())


def chebyshev_rows(a, w, observer, rounds):
    lower = sla.eigsh(w, k=1, which="SA", return_eigenvectors=False)[0] - 1e-3
    alpha, beta = 2.0 / (1.0 - lower), -(1.0 + lower) / (1.0 - lower)
    neighbours = a[observer].indices
    previous = np.zeros((w.shape[0], len(neighbours)))
    previous[neighbours, np.arange(len(neighbours))] = 1.0
    current = alpha * (w @ previous) + beta * previous
    rows = [previous.T, current.T]
    for _ in range(2, rounds):
        previous, current = current, 2.0 * (alpha * (w @ current) + beta * current) - previous
        rows.append(current.T)
    rows = np.vstack(rows[:rounds])
    rows[:, observer] = 0.0
    return rows


def main():
    path, observer, rounds, npy = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    a, w = hamilton(path)
    rows = chebyshev_rows(a, w, observer, rounds)
    _, s, vt = np.linalg.svd(rows, full_matrices=False)
    rank = int((s > max(rows.shape) * np.finfo(float).eps * s[0]).sum())
    leverage = (vt[:rank] ** 2).sum(0)
    leverage[observer] = 0.0
    mu2 = np.load(npy, mmap_mode="r")[observer] ** 2
    others = np.arange(w.shape[0]) != observer
    difference = (mu2 - leverage)[others]
    gap = s[rank] / s[rank - 1] if rank < len(s) else 0.0
    print(f"{rows.shape[0]} messages, rank {rank} (next singular value / last kept: {gap:.2g}); "
          f"mean leverage {leverage[others].mean():.6f}; netdp mean mu^2 {mu2[others].mean():.6f}; "
          f"netdp - reference: min {difference.min():.3g}, max {difference.max():.3g}; "
          f"{int((difference < -1e-9).sum())} targets below the reference")


if __name__ == "__main__":
    main()
