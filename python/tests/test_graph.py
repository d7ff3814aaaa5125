# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Graphs keep their labels from networkx, scipy and edge arrays; gossip matrices are stochastic."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import netdp


def test_networkx_round_trip_keeps_non_integer_labels():
    g = nx.Graph()
    g.add_edges_from([("alice", ("bob", 2)), (("bob", 2), 3.5), (3.5, "alice"), ("alice", "dan")])
    ours = netdp.Graph.from_networkx(g)
    assert ours.labels == list(g.nodes())
    back = ours.to_networkx()
    assert set(back.nodes()) == set(g.nodes())
    assert {frozenset(e) for e in back.edges()} == {frozenset(e) for e in g.edges()}
    result = netdp.account(g, rounds=3, observers="dan", targets=[("bob", 2)])
    assert result.to_pandas().loc[0, "observer"] == "dan"
    assert result.to_pandas().loc[0, "target"] == ("bob", 2)


def test_integer_labels_are_not_renumbered():
    g = nx.path_graph([10, 20, 30, 40])
    result = netdp.account(g, rounds=3)
    assert set(result.to_pandas()["observer"]) == {10, 20, 30, 40}
    assert result.observers == [10, 20, 30, 40]


def test_self_loops_are_dropped_with_a_warning():
    g = nx.cycle_graph(4)
    g.add_edge(2, 2)
    with pytest.warns(UserWarning, match="1 self-loop"):
        ours = netdp.Graph.from_networkx(g)
    assert ours.num_edges == 4


def test_scipy_and_edges_build_the_same_graph():
    a = nx.to_scipy_sparse_array(nx.cycle_graph(6))
    from_scipy = netdp.Graph.from_scipy(sp.csr_matrix(a))
    from_edges = netdp.Graph.from_edges(np.array([[i, (i + 1) % 6] for i in range(6)]))
    assert from_scipy.edges().tolist() == from_edges.edges().tolist()
    with pytest.raises(ValueError, match="symmetric"):
        netdp.Graph.from_scipy(np.triu(np.ones((3, 3)), 1))
    with pytest.raises(ValueError, match="non-finite entry"):
        netdp.Graph.from_scipy([[0.0, np.nan], [np.nan, 0.0]])
    with pytest.raises(ValueError, match="endpoint outside 0..2"):
        netdp.Graph.from_edges(np.array([[0, 3]]), num_nodes=3)


def test_spec_graphs_and_gossip_matrices():
    g = netdp.graph("hypercube:d=4")
    assert (g.num_nodes, g.num_edges) == (16, 32)
    w = netdp.gossip_matrix(g, "metropolis")
    assert isinstance(w, sp.csr_matrix)
    assert np.allclose(np.asarray(w.sum(axis=1)).ravel(), 1.0)
    assert (w != w.T).nnz == 0
    facts = netdp.spectrum(g, "metropolis")
    assert 0.0 < facts["spectral_gap"] < 1.0 and facts["symmetric"]


def test_a_missing_file_is_file_not_found_with_the_commands_message():
    with pytest.raises(FileNotFoundError, match="cannot open edge list file '/nonexistent/g.txt'"):
        netdp.graph("edgelist:/nonexistent/g.txt")
