# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Configurations that once killed the interpreter or were refused, run from Python.

Each was found by a stress test of random accounting configurations: a LAPACK call given too short
a buffer (a one-round Muffliato view at a hub, the MF comparison on 77 nodes or more), and a Rényi
curve refused for a rounding-negative series value (the random walk at T = 1).
"""

import math

import netdp


def test_one_round_at_a_hub_of_twenty_leaves():
    r = netdp.account("star:n=20", rounds=1)
    assert len(r.rows["epsilon"]) == 20 * 19
    assert all(math.isfinite(x) and x >= 0 for x in r.rows["epsilon"])


def test_compare_on_les_miserables_closed_row():
    table = netdp.compare("lesmis", rounds=2, sigma=1.0, weights="closed-row")
    assert table["pairs"].sum() == 77 * 76
    assert (table["mf_max"] <= table.attrs["local_dp"] * (1 + 1e-9)).all()


def test_random_walk_of_one_step_is_accounted():
    r = netdp.account("karate", method="random-walk", rounds=1, sigma=20.0)
    assert len(r.rows["epsilon"]) == 34 * 33
    assert all(math.isfinite(x) and x >= 0 for x in r.rows["epsilon"])
