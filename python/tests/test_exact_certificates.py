# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""The exact joint view against a reference in exact rational arithmetic (Python's fractions),
independent of netdp's code: every default value is at least the exact leverage, and every value
labelled exact (or the cap in span) equals it (docs/explanation/certificates.md)."""

import random
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest

import netdp

EXACT_KINDS = ("exact", "cap-in-span")


def weight_matrix(g, weights):
    """W as fractions: hamilton 1/max(d_u, d_v), metropolis 1/(1 + max(d_u, d_v)) on the edges, the
    diagonal 1 minus the rest of its row (docs/reference/gossip.md)."""
    n = g.number_of_nodes()
    w = [[Fraction(0)] * n for _ in range(n)]
    for u, v in g.edges():
        d = max(g.degree(u), g.degree(v)) + (1 if weights == "metropolis" else 0)
        w[u][v] = w[v][u] = Fraction(1, d)
    for u in range(n):
        w[u][u] = 1 - sum(w[u][v] for v in range(n) if v != u)
    return w


def view_rows(g, w, observers, rounds):
    """The messages of the paper's convention: e_wᵀ Wᵗ for every neighbour w of the coalition outside
    it, t < T, with the coalition's own columns removed (set to 0)."""
    n = g.number_of_nodes()
    senders = sorted({x for c in observers for x in g.neighbors(c) if x not in observers})
    rows = []
    for s in senders:
        x = [Fraction(int(j == s)) for j in range(n)]
        for _ in range(rounds):
            rows.append([Fraction(0) if j in observers else x[j] for j in range(n)])
            x = [sum(x[i] * w[i][j] for i in range(n) if x[i]) for j in range(n)]
    return rows


def row_echelon(rows):
    """A basis of the row space (reduced row echelon form over the rationals)."""
    rows = [r[:] for r in rows if any(r)]
    basis, pivots = [], []
    for r in rows:
        for b, p in zip(basis, pivots):
            if r[p]:
                f = r[p]
                r = [a - f * c for a, c in zip(r, b)]
        lead = next((j for j, a in enumerate(r) if a), None)
        if lead is None:
            continue
        r = [a / r[lead] for a in r]
        for k, b in enumerate(basis):
            if b[lead]:
                f = b[lead]
                basis[k] = [a - f * c for a, c in zip(b, r)]
        basis.append(r)
        pivots.append(lead)
    return basis


def solve(a, b):
    """x with a x = b (a square, invertible), by Gauss–Jordan over the rationals."""
    m = len(a)
    aug = [a[i][:] + [b[i]] for i in range(m)]
    for col in range(m):
        piv = next(i for i in range(col, m) if aug[i][col])
        aug[col], aug[piv] = aug[piv], aug[col]
        inv = 1 / aug[col][col]
        aug[col] = [x * inv for x in aug[col]]
        for i in range(m):
            if i != col and aug[i][col]:
                f = aug[i][col]
                aug[i] = [x - f * y for x, y in zip(aug[i], aug[col])]
    return [aug[i][m] for i in range(m)]


def exact_leverages(g, observers, rounds, weights="hamilton"):
    """ℓ_u = c_uᵀ (B Bᵀ)⁻¹ c_u for every node u, B a basis of the view's row space (MF-style literal
    formula e_uᵀ A′ᵀ (A′A′ᵀ)⁺ A′ e_u, which does not depend on the basis)."""
    n = g.number_of_nodes()
    basis = row_echelon(view_rows(g, weight_matrix(g, weights), set(observers), rounds))
    if not basis:
        return [Fraction(0)] * n
    gram = [[sum(x * y for x, y in zip(b1, b2)) for b2 in basis] for b1 in basis]
    out = []
    for u in range(n):
        c = [b[u] for b in basis]
        if not any(c):
            out.append(Fraction(0))
            continue
        out.append(sum(x * y for x, y in zip(c, solve(gram, c))))
    return out


def check(g, rounds, weights="hamilton", colluders=None, observer=None):
    """netdp's values and labels against the exact leverages; returns the labels seen."""
    g = nx.convert_node_labels_to_integers(g)
    r = netdp.account(g, rounds=rounds, sigma=1.0, weights=weights, colluders=colluders,
                      observers=observer)
    kinds = set()
    rows = r.rows
    observers_of = {}
    for k in range(rows["epsilon"].size):
        v = int(r.graph.labels[rows["observer"][k]])
        u = int(r.graph.labels[rows["target"][k]])
        coalition = tuple(colluders) if colluders else (v,)
        if coalition not in observers_of:
            observers_of[coalition] = exact_leverages(g, coalition, rounds, weights)
        exact = observers_of[coalition][u]
        reported = rows["mu"][k] ** 2
        kind = rows["certificate"][k]
        kinds.add(kind)
        where = f"{weights} T={rounds} observers {coalition} target {u}: reported {reported!r}, exact {exact}"
        assert reported >= float(exact) * (1 - 1e-12) - 1e-15, "below the exact value: " + where
        if kind in EXACT_KINDS:
            assert abs(reported - float(exact)) <= 1e-12, f"labelled {kind}: " + where
        assert (kind == "cap-in-span") == (exact == 1), f"labelled {kind}: " + where
        lower = rows["mu_lower"][k]
        if not np.isnan(lower):
            assert lower ** 2 <= float(exact) * (1 + 1e-12) + 1e-15, "lower bound above the exact value: " + where
    return kinds


def test_twins_are_reported_at_their_exact_share_not_at_the_cap():
    # A leaf of a star sees the other leaves only summed: ℓ = 1/(n − 2) each, exactly.
    check(nx.star_graph(5), rounds=6, observer=[1])
    r = netdp.account(nx.star_graph(5), rounds=6, sigma=1.0, observers=[1])
    for k in range(r.rows["epsilon"].size):
        if r.rows["target"][k] >= 2:
            assert r.rows["mu"][k] ** 2 == pytest.approx(1 / 4, abs=1e-9)
            assert r.rows["mu_lower"][k] ** 2 <= 1 / 4 <= r.rows["mu"][k] ** 2
            assert r.rows["certificate"][k] in ("exact", "upper-bound")


@pytest.mark.parametrize("g", [nx.complete_bipartite_graph(3, 4), nx.path_graph(6), nx.star_graph(6),
                               nx.cycle_graph(7), nx.complete_graph(5)], ids=["K34", "path6", "star6", "ring7", "K5"])
@pytest.mark.parametrize("rounds", [1, 3, 8, 20])
def test_structured_graphs_against_the_exact_reference(g, rounds):
    check(g, rounds)


def test_karate_observer_16_solves_for_target_26_exactly():
    # The power basis loses this direction at 1e-19; the exact rank keeps it: μ = 1, exactly the cap.
    g = nx.karate_club_graph()
    r = netdp.account(g, rounds=30, sigma=1.0, observers=[16], targets=[26])
    assert r.rows["mu"][0] == pytest.approx(1.0, abs=1e-12)
    assert r.rows["certificate"][0] == "cap-in-span"


def test_random_graphs_against_the_exact_reference():
    rng = random.Random(20261129)
    seen = set()
    for case in range(120):
        n = rng.randint(4, 10)
        family = case % 4
        if family == 0:
            g = nx.gnp_random_graph(n, rng.uniform(0.25, 0.7), seed=rng.randrange(1 << 30))
        elif family == 1:
            g = nx.random_labeled_tree(n, seed=rng.randrange(1 << 30)) if hasattr(nx, "random_labeled_tree") \
                else nx.random_tree(n, seed=rng.randrange(1 << 30))
        elif family == 2:
            g = nx.complete_bipartite_graph(rng.randint(1, 3), rng.randint(2, 5))
        else:
            g = nx.barabasi_albert_graph(n, 1 + case % 2, seed=rng.randrange(1 << 30))
        if not nx.is_connected(g):
            continue
        g = nx.convert_node_labels_to_integers(g)
        weights = "hamilton" if case % 3 else "metropolis"
        rounds = rng.randint(1, 9)
        colluders = None
        if case % 5 == 0 and g.number_of_nodes() > 4:
            colluders = sorted(rng.sample(range(g.number_of_nodes()), 2))
        seen |= check(g, rounds, weights, colluders=colluders)
    assert {"exact", "cap-in-span"} <= seen


@pytest.mark.parametrize("args", [
    ["--graph", "karate", "--rounds", "30", "--observer", "16", "--target", "26"],
    ["--graph", "ba:n=32,m=1,seed=5", "--weights", "metropolis", "--rounds", "20", "--observer", "1",
     "--target", "28"],
], ids=["karate", "ba32"])
def test_the_command_reports_a_solvable_target_at_the_cap_in_span(cli, args):
    out = cli("account", *args, "--sigma", "1")
    (row,) = out["pairs"]
    assert row["mu"] == pytest.approx(1.0, abs=1e-12)
    assert row["certificate"] == "cap-in-span"
    assert out["summary"]["certificates"]["cap-in-span"] == 1
    assert out["summary"]["certificate_failure_probability"] < 1e-6


def test_the_npy_companion_holds_each_pairs_certificate_code(tmp_path):
    import os
    import subprocess

    binary = os.environ.get("NETDP_BINARY")
    if not binary:
        pytest.fail("NETDP_BINARY must name the netdp binary of this build (ctest sets it)")
    out = tmp_path / "kind.npy"
    subprocess.run([binary, "account", "--graph", "karate", "--rounds", "30", "--sigma", "1", "--observer", "16",
                    "--out", str(out), "--field", "certificate", "--quiet"], check=True)
    codes = np.load(out)
    assert codes.shape == (34, 34)
    assert codes[16, 26] == 2  # cap-in-span, the order of the certificate names
    assert np.isnan(codes[16, 16]) and np.isnan(codes[0, 1])  # no pair: itself, another observer
    assert set(np.unique(codes[16][~np.isnan(codes[16])])) <= {0, 1, 2, 3}


def test_an_effort_limit_gives_counted_caps_never_lower_values():
    full = netdp.account("karate", rounds=20, sigma=1.0)
    limited = netdp.account("karate", rounds=20, sigma=1.0, exact_effort=100)
    assert limited.summary["certificates"]["cap-undetermined"] > 0
    assert full.summary["certificates"]["cap-undetermined"] == 0
    assert np.all(limited.rows["mu"] >= full.rows["mu"] - 1e-15)
    assert set(limited.rows["certificate"]) <= {"exact", "cap-undetermined"}
    assert any("--exact-effort" in w for w in limited.warnings)


def test_a_muffliato_gd_view_given_up_is_a_labelled_cap():
    # Karate, 2 gradient steps of 20 rounds: some views fall below the rounding floor; their pairs
    # are the cap (μ = √2 at σ = 1), labelled a give-up, and the rest are upper bounds.
    r = netdp.account("karate", rounds=20, gradient_steps=2, sigma=1.0)
    kinds = r.rows["certificate"]
    given_up = kinds == "cap-undetermined"
    assert given_up.any() and not given_up.all()
    assert np.allclose(r.rows["mu"][given_up], np.sqrt(2.0))
    assert set(kinds[~given_up]) == {"upper-bound"}
    assert r.summary["certificates"]["cap-undetermined"] == int(given_up.sum())
