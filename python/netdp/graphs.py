# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Graphs whose nodes keep their labels: from a SPEC string, networkx, scipy or an edge array."""

from __future__ import annotations

import warnings
from typing import Any, Hashable, Iterable, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from . import _netdp
from ._warnings import InputChangedWarning


def _natural(labels: Iterable[str]) -> list[Any]:
    """Labels as the command line writes them: whole numbers when every label is one."""
    labels = list(labels)
    try:
        return [int(label) for label in labels]
    except ValueError:
        return list(labels)


class Graph:
    """An undirected simple graph; node i is called ``labels[i]``.

    Results of :func:`netdp.account` are indexed by these labels, never by a silent
    renumbering: a networkx graph keeps its node names, a file its ids.
    """

    def __init__(self, core: _netdp.Graph, labels: Optional[Sequence[Hashable]] = None) -> None:
        self._core = core
        self.labels: list[Any] = list(labels) if labels is not None else _natural(core.labels)
        self._index = {label: i for i, label in enumerate(self.labels)}
        if len(self._index) != len(self.labels):
            raise ValueError("node labels must be distinct")

    @classmethod
    def from_edges(cls, edges: Any, num_nodes: Optional[int] = None,
                   labels: Optional[Sequence[Hashable]] = None) -> Graph:
        """A graph from an (m, 2) array of node indices (0..n-1).

        Parameters
        ----------
        edges : array_like
            (m, 2) node indices; no self-loops.
        num_nodes : int, optional
            n (default: the number of labels, else the largest index + 1).
        labels : sequence, optional
            The nodes' names, distinct (default: their indices).

        Examples
        --------
        >>> import netdp
        >>> g = netdp.Graph.from_edges([(0, 1), (1, 2)], labels=["a", "b", "c"])
        >>> g.num_nodes, g.index("c")
        (3, 2)
        """
        edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
        if num_nodes is None:
            num_nodes = len(labels) if labels is not None else (int(edges.max()) + 1 if edges.size else 0)
        if labels is not None and len(labels) != num_nodes:
            raise ValueError(f"labels has {len(labels)} entries for {num_nodes} nodes")
        text = [str(label) for label in labels] if labels is not None else None
        return cls(_netdp.Graph.from_edges(int(num_nodes), np.ascontiguousarray(edges), text), labels)

    @classmethod
    def from_networkx(cls, g: Any, symmetrize: bool = False) -> Graph:
        """A networkx graph, its node names kept as labels.

        Self-loops are dropped, a MultiGraph's parallel edges merged and edge weights left unused
        (pass W as ``weights=``), each with an :class:`InputChangedWarning`.

        Parameters
        ----------
        g : networkx.Graph
            Any networkx graph; node names may be any hashable.
        symmetrize : bool
            Read a DiGraph's arcs as undirected edges (with a warning); without it a DiGraph is a
            ValueError.

        Examples
        --------
        >>> import netdp, networkx as nx
        >>> netdp.Graph.from_networkx(nx.path_graph(["x", "y", "z"])).labels
        ['x', 'y', 'z']
        """
        nodes = list(g.nodes())
        index = {v: i for i, v in enumerate(nodes)}
        if g.is_directed():
            if not symmetrize:
                raise ValueError("the networkx graph is directed, and netdp's networks are undirected: pass "
                                 "symmetrize=True to read every arc as an edge, or g.to_undirected()")
            warnings.warn(f"symmetrized: {g.number_of_edges()} arcs read as undirected edges", InputChangedWarning,
                          stacklevel=2)
        loops = [u for u, v in g.edges() if u == v]
        if loops:
            warnings.warn(f"{len(loops)} self-loop(s) dropped, the first at node {loops[0]!r}", InputChangedWarning,
                          stacklevel=2)
        if g.is_multigraph():
            parallel = g.number_of_edges() - len({frozenset((u, v)) for u, v in g.edges()})
            if parallel:
                warnings.warn(f"{parallel} parallel edge(s) merged (a MultiGraph; netdp's graphs are simple)",
                              InputChangedWarning, stacklevel=2)
        weighted = sum(1 for _, _, d in g.edges(data=True) if "weight" in d)
        if weighted:
            warnings.warn(f"the 'weight' of {weighted} edge(s) is not used: a netdp.Graph is unweighted; pass "
                          "your gossip matrix as weights=W", InputChangedWarning, stacklevel=2)
        edges = [(index[u], index[v]) for u, v in g.edges() if u != v]
        return cls.from_edges(np.array(edges, dtype=np.int64).reshape(-1, 2), len(nodes), nodes)

    @classmethod
    def from_scipy(cls, adjacency: Any, labels: Optional[Sequence[Hashable]] = None) -> Graph:
        """A graph from a symmetric adjacency matrix (dense or scipy.sparse): a nonzero entry is
        an edge; the diagonal must be zero. ``labels`` names the nodes."""
        import scipy.sparse as sp

        a = sp.coo_matrix(adjacency)
        if not np.all(np.isfinite(a.data)):
            raise ValueError("the adjacency matrix has a non-finite entry (NaN or infinity)")
        if a.shape[0] != a.shape[1]:
            raise ValueError(f"the adjacency matrix must be square, got {a.shape}")
        if (abs(a - a.T) > 0).nnz:
            raise ValueError("the adjacency matrix must be symmetric (an undirected graph)")
        if a.diagonal().any():
            raise ValueError("the adjacency matrix has a nonzero diagonal: a gossip graph has no self-loops")
        upper = a.row < a.col
        edges = np.stack([a.row[upper], a.col[upper]], axis=1)
        return cls.from_edges(edges, a.shape[0], labels)

    @property
    def num_nodes(self) -> int:
        return self._core.num_nodes

    @property
    def num_edges(self) -> int:
        return self._core.num_edges

    def edges(self) -> npt.NDArray[np.int64]:
        """The edges once each, as an (m, 2) array of indices with u < v."""
        return self._core.edges()

    def index(self, label: Hashable) -> int:
        """The index of the node called ``label``.

        Raises
        ------
        KeyError
            Naming ``label`` when no node has it.
        """
        try:
            return int(self._index[label])
        except (KeyError, TypeError):
            pass
        found = self._core.find(str(label))
        if found is None:
            example = self.labels[0] if self.labels else None
            raise KeyError(f"{label!r} names no node of this graph (labels such as {example!r})")
        return found

    def to_networkx(self) -> Any:
        """A networkx.Graph with the labels as node names."""
        import networkx as nx

        g = nx.Graph()
        g.add_nodes_from(self.labels)
        g.add_edges_from((self.labels[u], self.labels[v]) for u, v in self.edges())
        return g

    def largest_component(self) -> Graph:
        """The largest connected component (ties: the one holding the first node), its nodes in
        their order here and with their labels, as ``--lcc``."""
        import scipy.sparse as sp
        from scipy.sparse.csgraph import connected_components

        n = self.num_nodes
        e = np.asarray(self.edges(), dtype=np.int64).reshape(-1, 2)
        a = sp.coo_matrix((np.ones(len(e)), (e[:, 0], e[:, 1])), shape=(n, n))
        count, component = connected_components(a, directed=False)
        if count <= 1:
            return self
        sizes = np.bincount(component, minlength=count)
        first: dict[int, int] = {}
        for v, c in enumerate(component):
            first.setdefault(int(c), v)
        best = min(range(count), key=lambda c: (-sizes[c], first[c]))
        nodes = np.flatnonzero(component == best)
        index = -np.ones(n, dtype=np.int64)
        index[nodes] = np.arange(len(nodes))
        kept = e[(index[e[:, 0]] >= 0) & (index[e[:, 1]] >= 0)]
        return Graph.from_edges(index[kept], len(nodes), [self.labels[v] for v in nodes])

    def __repr__(self) -> str:
        return f"netdp.Graph({self.num_nodes} nodes, {self.num_edges} edges)"


#: What every call that takes a graph accepts: a netdp.Graph, a SPEC string, or a networkx graph.
GraphLike = Union["Graph", str, Any]


def graph(spec: str, lcc: bool = False, seed: int = 1) -> Graph:
    """The graph of a SPEC string, as the command line reads it (``netdp help specs``); what the
    file's reader changed (self-loops dropped, weights not kept, ...) is an InputChangedWarning.

    Examples
    --------
    >>> import netdp
    >>> g = netdp.graph("karate")
    >>> g.num_nodes, g.num_edges
    (34, 78)
    """
    core = _netdp.Graph.from_spec(spec, lcc, seed)
    for note in core.notes:
        warnings.warn(note, InputChangedWarning, stacklevel=2)
    return Graph(core)


def as_graph(g: GraphLike, lcc: bool = False) -> Graph:
    """A netdp.Graph from a Graph, a SPEC string or a networkx graph; with ``lcc`` its largest
    connected component (ties: the one holding the first node), as ``--lcc``."""
    if isinstance(g, str):
        return graph(g, lcc)
    if isinstance(g, Graph):
        out = g
    elif hasattr(g, "nodes") and hasattr(g, "edges"):
        out = Graph.from_networkx(g)
    else:
        raise TypeError(f"expected a netdp.Graph, a SPEC string or a networkx graph, got {type(g).__name__}")
    return out.largest_component() if lcc else out


def gossip_matrix_of(w: Any, g: Graph) -> Any:
    """A user's gossip matrix (numpy array or scipy.sparse) as the CSR matrix netdp reads, checked
    to be n × n for the graph ``g``; the rest (finite, non-negative, stochastic rows, support on
    the edges) is checked by netdp with the command line's messages."""
    import scipy.sparse as sp

    m = sp.csr_matrix(w, dtype=float)
    if m.shape != (g.num_nodes, g.num_nodes):
        raise ValueError(f"weights: W is {m.shape[0]} x {m.shape[1]} but the graph has {g.num_nodes} nodes: "
                         "W must have one row per node, in the graph's node order")
    m.sum_duplicates()
    m.sort_indices()
    return m
