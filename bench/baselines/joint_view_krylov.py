#!/usr/bin/python3
"""The exact joint view of one Muffliato observer from an orthonormal basis of its Krylov space, as a
numpy/scipy user would check `netdp account --method muffliato --observer V --out F.npy --field mu`
(docs/accounting-muffliato.md, "Ill-conditioned views: the Chebyshev basis").

The observer's messages W^t e_w (t < T, w a neighbour) span K = span{p(W) e_w : deg p < T}. A block
Arnoldi process (each new block W Q_t orthogonalised twice against all earlier ones, directions of
relative norm below 1e-13 dropped) builds an orthonormal basis of K without forming the powers;
the observer's coordinate is removed, the rest re-orthonormalised by an SVD, and
mu^2 = (Delta / sigma)^2 * leverage, with Delta = sigma = 1.

Usage: bench/baselines/joint_view_krylov.py EDGE_LIST OBSERVER T NETDP_MU.npy
(hamilton W on the graph of EDGE_LIST, node ids 0..n-1; the .npy from the same netdp run)
"""
import sys

import numpy as np
import scipy.sparse as sp


def hamilton(path):
    edges = np.loadtxt(path, dtype=int)
    n = edges.max() + 1
    a = sp.coo_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(n, n))
    a = ((a + a.T) > 0).astype(float).tocsr()
    degree = np.asarray(a.sum(1)).ravel()
    rows, cols = a.nonzero()
    w = sp.csr_matrix((1.0 / np.maximum(degree[rows], degree[cols]), (rows, cols)), shape=(n, n))
    return a, w + sp.diags(1.0 - np.asarray(w.sum(1)).ravel())


def krylov_leverage(a, w, observer, rounds):
    n = w.shape[0]
    neighbours = a[observer].indices
    basis = np.zeros((n, 0))
    block = np.zeros((n, len(neighbours)))
    block[neighbours, np.arange(len(neighbours))] = 1.0
    for _ in range(rounds):
        for _ in range(2):
            block = block - basis @ (basis.T @ block)
        q, r = np.linalg.qr(block)
        keep = np.abs(np.diag(r)) > 1e-13 * max(1.0, np.abs(r).max())
        q = q[:, keep]
        basis = np.hstack([basis, q])
        block = w @ q
    basis[observer, :] = 0.0
    u, s, _ = np.linalg.svd(basis, full_matrices=False)
    u = u[:, s > 1e-12 * s[0]]
    leverage = (u**2).sum(1)
    leverage[observer] = 0.0
    return leverage, basis.shape[1]


def main():
    path, observer, rounds, npy = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    a, w = hamilton(path)
    leverage, dimension = krylov_leverage(a, w, observer, rounds)
    mu2 = np.load(npy, mmap_mode="r")[observer] ** 2
    others = np.arange(w.shape[0]) != observer
    difference = (mu2 - leverage)[others]
    print(f"dim K = {dimension}; mean leverage {leverage[others].mean():.6f}; netdp mean mu^2 "
          f"{mu2[others].mean():.6f}; netdp - reference: min {difference.min():.3g}, max {difference.max():.3g}; "
          f"{int((difference < -1e-9).sum())} targets below the reference")


if __name__ == "__main__":
    main()
