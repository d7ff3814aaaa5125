"""Gossip matrices W (rows summing to 1) and their spectral facts."""

from typing import Any

from . import _netdp
from .graphs import GraphLike, as_graph


def gossip_matrix(g: GraphLike, weights: str = "hamilton", lcc: bool = False) -> Any:
    """W of ``g`` under a weighting (hamilton, metropolis, closed-row, lazy-uniform), as a
    scipy.sparse.csr_matrix indexed like ``g.labels``."""
    import scipy.sparse as sp

    g = as_graph(g, lcc)
    indptr, indices, data = _netdp.gossip_csr(g._core, weights)
    return sp.csr_matrix((data, indices, indptr), shape=(g.num_nodes, g.num_nodes))


def spectrum(g: GraphLike, weights: str = "hamilton", lcc: bool = False) -> dict[str, Any]:
    """The second eigenvalue modulus, spectral gap, symmetry and mixing-time bound of W."""
    return dict(_netdp.gossip_spectrum(as_graph(g, lcc)._core, weights))
