#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Calibrate σ so that the mean pairwise ε of Muffliato (the exact joint view, T = 4 rounds)
is 1 at δ = 1e-5 on a networkx small-world graph, then check it with an account at that σ.

    PYTHONPATH=build/release/python /usr/bin/python3 examples/python/calibrate_networkx.py
"""
import networkx as nx

import netdp

g = nx.connected_watts_strogatz_graph(60, 4, 0.2, seed=1)
g = nx.relabel_nodes(g, {v: f"peer-{v}" for v in g})  # labels are kept, whatever they are

found = netdp.calibrate(g, target_epsilon=1.0, method="muffliato", rounds=4, delta=1e-5, on="mean")
print(f"sigma = {found['sigma']:.6g} gives mean pairwise epsilon {found['achieved_epsilon']:.6g} "
      f"({found['evaluations']} evaluations, closed form: {found['closed_form']})")

result = netdp.account(g, "muffliato", rounds=4, sigma=found["sigma"], delta=1e-5)
print(result.by_distance()[["pairs", "epsilon_mean", "epsilon_max"]])
worst = result.to_pandas().sort_values("epsilon", ascending=False).iloc[0]
print(f"worst pair: {worst.observer} learns epsilon {worst.epsilon:.4g} about {worst.target}")
