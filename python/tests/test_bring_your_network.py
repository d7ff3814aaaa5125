# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Networks as researchers bring them: files written by networkx and pandas, weighted and directed
graphs, and a gossip matrix of one's own. Each format gives the same account, labels kept."""

import networkx as nx
import numpy as np
import pandas as pd
import pytest

import netdp


def _rows(result):
    """The account's rows as plain values (labels as text, numbers bit for bit)."""
    frame = result.to_pandas()
    frame["observer"] = frame["observer"].astype(str)
    frame["target"] = frame["target"].astype(str)
    return frame.sort_values(["observer", "target"]).reset_index(drop=True)


def _les_miserables():
    g = nx.les_miserables_graph()  # weighted co-appearances, character names as nodes
    return nx.relabel_nodes(g, {v: v.replace(" ", "_") for v in g.nodes()})


def test_every_format_written_by_networkx_and_pandas_gives_the_same_account(tmp_path):
    g = _les_miserables()
    paths = {
        "graphml": tmp_path / "g.graphml",
        "adjlist": tmp_path / "g.adjlist",
        "edgelist": tmp_path / "g.edges",
        "csv": tmp_path / "g.csv",
        "tsv": tmp_path / "g.tsv",
    }
    nx.write_graphml(g, paths["graphml"])
    nx.write_adjlist(g, paths["adjlist"])
    nx.write_weighted_edgelist(g, paths["edgelist"])
    frame = nx.to_pandas_edgelist(g)  # source, target, weight
    frame.to_csv(paths["csv"])  # pandas writes its index as a first, unnamed column
    frame.to_csv(paths["tsv"], sep="\t", index=False)
    reference = None
    for kind, path in paths.items():
        graph = netdp.graph(f"{kind}:{path}")
        assert sorted(map(str, graph.labels)) == sorted(g.nodes()), kind
        rows = _rows(netdp.account(graph, rounds=4, observers="Valjean"))
        assert set(rows["observer"]) == {"Valjean"}
        if reference is None:
            reference = rows
        else:
            pd.testing.assert_frame_equal(rows, reference, check_exact=True, obj=kind)


def test_weighted_files_feed_from_graph_weights(tmp_path):
    g = _les_miserables()
    nx.write_weighted_edgelist(g, tmp_path / "g.edges")
    nx.to_pandas_edgelist(g).to_csv(tmp_path / "g.csv", index=False)
    nx.write_graphml(g, tmp_path / "g.graphml")
    accounts = [_rows(netdp.account(f"{kind}:{tmp_path / name}", rounds=4, observers="Valjean",
                                    weights="from-graph"))
                for kind, name in (("edgelist", "g.edges"), ("csv", "g.csv"), ("graphml", "g.graphml"))]
    for other in accounts[1:]:
        pd.testing.assert_frame_equal(other, accounts[0], check_exact=True)
    unweighted = _rows(netdp.account(f"edgelist:{tmp_path / 'g.edges'}", rounds=4, observers="Valjean"))
    assert not np.array_equal(unweighted["epsilon"].to_numpy(), accounts[0]["epsilon"].to_numpy())


def test_a_users_matrix_equal_to_a_weighting_gives_its_numbers():
    g = netdp.graph("florentine")
    for weights in ("hamilton", "closed-row"):
        w = netdp.gossip_matrix(g, weights)
        for method in ("muffliato", "random-walk", "linear-system", "mf"):
            built_in = _rows(netdp.account(g, method, rounds=5, weights=weights))
            own = _rows(netdp.account(g, method, rounds=5, weights=w))
            dense = _rows(netdp.account(g, method, rounds=5, weights=w.toarray()))
            pd.testing.assert_frame_equal(own, built_in, check_exact=True, obj=f"{weights} {method}")
            pd.testing.assert_frame_equal(dense, built_in, check_exact=True, obj=f"{weights} {method} dense")


def test_a_users_matrix_that_does_not_fit_is_refused_by_name():
    g = netdp.graph("ring:n=5")
    with pytest.raises(ValueError, match="W is 4 x 4 but the graph has 5 nodes"):
        netdp.account(g, weights=np.eye(4))
    with pytest.raises(ValueError, match="W_uv = W_vu = 0"):
        netdp.account(g, weights=np.eye(5))
    bad = netdp.gossip_matrix(g).toarray()
    bad[0, 0] += 0.5
    with pytest.raises(ValueError, match="row 0 sums to"):
        netdp.account(g, weights=bad)
    negative = netdp.gossip_matrix(g).toarray()
    negative[0, 1], negative[0, 0] = -0.5, negative[0, 0] + negative[0, 1] + 0.5
    with pytest.raises(ValueError, match="-0.5"):
        netdp.account(g, weights=negative)
    not_a_number = netdp.gossip_matrix(g).toarray()
    not_a_number[1, 2] = np.nan
    with pytest.raises(ValueError):
        netdp.account(g, weights=not_a_number)
    with pytest.raises(ValueError, match="weights a new graph each round"):
        netdp.account(g, weights=netdp.gossip_matrix(g), schedule="dropout:p=0.5")


def test_lcc_on_every_call_that_takes_a_graph():
    g = nx.union(nx.cycle_graph(6), nx.path_graph([10, 11]))
    with pytest.raises(ValueError, match="disconnected"):
        netdp.account(g, rounds=3)
    result = netdp.account(g, rounds=3, lcc=True)
    assert set(result.to_pandas()["observer"]) == set(range(6))
    assert netdp.gossip_matrix(g, lcc=True).shape == (6, 6)
    assert netdp.account("er:n=40,p=0.03,seed=3", rounds=3, lcc=True).to_pandas().shape[0] > 0
    assert netdp.spectrum(g, "metropolis", lcc=True)["spectral_gap"] > 0
    assert netdp.factorize("dl", rounds=4, graph=g, lcc=True, method="identity").c.shape == (4, 4)


def test_directed_multi_and_weighted_networkx_graphs_are_never_changed_silently():
    d = nx.DiGraph([(0, 1), (1, 0), (1, 2)])
    with pytest.raises(ValueError, match="directed"):
        netdp.Graph.from_networkx(d)
    with pytest.warns(UserWarning, match="symmetrized: 3 arcs"):
        assert netdp.Graph.from_networkx(d, symmetrize=True).num_edges == 2
    m = nx.MultiGraph([(0, 1), (0, 1), (1, 2)])
    with pytest.warns(UserWarning, match="1 parallel edge"):
        netdp.Graph.from_networkx(m)
    w = nx.Graph()
    w.add_weighted_edges_from([(0, 1, 2.0), (1, 2, 1.0)])
    with pytest.warns(UserWarning, match="'weight' of 2 edge"):
        netdp.Graph.from_networkx(w)


def test_a_files_notes_are_python_warnings(tmp_path):
    path = tmp_path / "g.edges"
    path.write_text("a b\nb b\nb c\n")
    with pytest.warns(UserWarning, match="1 self-loop dropped"):
        netdp.graph(f"edgelist:{path}")
    directed = tmp_path / "d.edges"
    directed.write_text("a b\nb a\nb c\n")
    with pytest.raises(ValueError, match="--symmetrize"):
        netdp.graph(f"edgelist:{directed}")
