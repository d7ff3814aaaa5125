# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Gossip matrices W (rows summing to 1) and their spectral facts."""

from typing import Any

from . import _netdp
from .graphs import GraphLike, as_graph


def gossip_matrix(g: GraphLike, weights: str = "hamilton", lcc: bool = False) -> Any:
    """W of ``g`` under a weighting, as ``netdp gossip --out`` writes it.

    Parameters
    ----------
    g : netdp.Graph, str or networkx.Graph
        The network.
    weights : str
        hamilton, metropolis, closed-row, lazy-uniform or from-graph (``netdp help weights``).
    lcc : bool
        Keep the graph's largest connected component.

    Returns
    -------
    scipy.sparse.csr_matrix
        n × n, rows summing to 1, indexed like ``g.labels``.

    Examples
    --------
    >>> import netdp
    >>> W = netdp.gossip_matrix("ring:n=4")
    >>> W.shape, W.sum(axis=1).ravel().tolist()
    ((4, 4), [[1.0, 1.0, 1.0, 1.0]])
    """
    import scipy.sparse as sp

    g = as_graph(g, lcc)
    indptr, indices, data = _netdp.gossip_csr(g._core, weights)
    return sp.csr_matrix((data, indices, indptr), shape=(g.num_nodes, g.num_nodes))


def spectrum(g: GraphLike, weights: str = "hamilton", lcc: bool = False) -> dict[str, Any]:
    """The spectral facts of W, as ``netdp gossip --json``.

    Parameters
    ----------
    g, weights, lcc
        As in :func:`gossip_matrix`.

    Returns
    -------
    dict
        second_eigenvalue_modulus, spectral_gap, symmetric, mixing_time_bound (None when W has no
        such bound).
    """
    return dict(_netdp.gossip_spectrum(as_graph(g, lcc)._core, weights))
