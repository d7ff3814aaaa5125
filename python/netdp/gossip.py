"""Gossip matrices W (rows summing to 1) and their spectral facts."""

from . import _netdp
from .graphs import as_graph


def gossip_matrix(g, weights="hamilton", lcc=False):
    """W of ``g`` under a weighting (hamilton, metropolis, closed-row, lazy-uniform), as a
    scipy.sparse.csr_matrix indexed like ``g.labels``."""
    import scipy.sparse as sp

    g = as_graph(g, lcc)
    indptr, indices, data = _netdp.gossip_csr(g._core, weights)
    return sp.csr_matrix((data, indices, indptr), shape=(g.num_nodes, g.num_nodes))


def spectrum(g, weights="hamilton", lcc=False):
    """The second eigenvalue modulus, spectral gap, symmetry and mixing-time bound of W."""
    return dict(_netdp.gossip_spectrum(as_graph(g, lcc)._core, weights))
