#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Claimed vs empirical μ for every ordered (observer, target) pair of a 30-node graph: runs
`netdp audit --json` once per pair and claim (Muffliato's exact joint view, Theorem 1 under
--bound paper, the Koskela–Kulkarni secure-sum view for vector and scalar releases, and the MF
view of DP-D-SGD), and
prints the Markdown table of docs/reference/audit.md; then the same for the random walk's ε claims (the
valid tail count and the paper's expected count T/n), with the token started at the target.

Usage (after `make build`):  bench/audit/audit_table.py [BUILD_DIR] [TRIALS] [all|gaussian|walk]
(default build/release, 20000 trials per input and both tables; Debian's /usr/bin/python3, standard
library only).
"""
import concurrent.futures
import json
import os
import statistics
import subprocess
import sys

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build/release"
TRIALS = sys.argv[2] if len(sys.argv) > 2 else "20000"
PART = sys.argv[3] if len(sys.argv) > 3 else "all"
NETDP = os.path.join(BUILD, "bin", "netdp")
GRAPH = "er:n=30,p=0.15,seed=1,connected=1"
ROUNDS = "5"
N = 30
# Bonferroni over the 870 pairs of a claim: every VIOLATION counted holds with family-wise
# confidence 95 %, so a correct accountant shows none with probability >= 95 %.
CONFIDENCE = 1 - 0.05 / (N * (N - 1))


CLAIMS = (
    ("exact joint view (Muffliato, default)", ["--method", "muffliato"]),
    ("Theorem 1 (Muffliato `--bound paper`)", ["--method", "muffliato", "--bound", "paper"]),
    ("secure-sum, vector releases (linear-system, default)", ["--method", "linear-system"]),
    ("secure-sum, scalar releases (exact sign maximum)", ["--method", "linear-system", "--release-dimension", "1"]),
    ("MF view of DP-D-SGD, PNDP, vector releases", ["--method", "mf"]),
)

WALK_ROUNDS = "10"
WALK_SIGMA = "2"
WALK_CLAIMS = (
    ("random walk, tail count (default)", ["--contributions", "tail"]),
    ("random walk, expected count T/n (the paper's eq. 16)", ["--contributions", "expected"]),
)


def walk_claim(target, claim):
    return ["--method", "random-walk", "--walk-start", str(target)] + claim


def audit(observer, target, claim, rounds=ROUNDS, sigma="1"):
    args = [NETDP, "audit", "--quiet", "--json", "--graph", GRAPH, "--rounds", rounds, "--sigma", sigma,
            "--observer", str(observer), "--target", str(target), "--trials", TRIALS,
            "--confidence", repr(CONFIDENCE),
            "--seed", str(1 + observer * N + target)] + claim
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode not in (0, 3):
        sys.exit(f"{' '.join(args)} failed: {run.stderr.strip()}")
    return json.loads(run.stdout)


def main():
    if not os.access(NETDP, os.X_OK):
        sys.exit(f"{NETDP} is missing: build it first (make build)")
    pairs = [(v, u) for v in range(N) for u in range(N) if u != v]
    if PART not in ("all", "gaussian", "walk"):
        sys.exit(f"the part must be all, gaussian or walk, got {PART}")
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        if PART != "walk":
            gaussian_table(pool, pairs)
        if PART != "gaussian":
            walk_table(pool, pairs)


def gaussian_table(pool, pairs):
    print(f"Graph {GRAPH}, hamilton weights, T = {ROUNDS}, σ = Δ = 1, {TRIALS} trials per input and pair, "
          f"confidence 1 − 0.05/{len(pairs)} per pair (95% family-wise).\n")
    print("| claim | pairs | mean claimed μ | mean empirical μ (lower bound) | mean point estimate | "
          "pairs with claimed μ < lower bound (VIOLATION) | largest lower bound / claimed |")
    print("|---|---|---|---|---|---|---|")
    for name, claim in CLAIMS:
        results = list(pool.map(lambda p: audit(p[0], p[1], claim), pairs))
        claimed = [r["claimed_mu"] for r in results]
        lower = [r["empirical_mu_lower"] for r in results]
        estimate = [r["empirical_mu_estimate"] for r in results]
        violations = sum(r["verdict"] == "VIOLATION" for r in results)
        ratio = max(lo / c for lo, c in zip(lower, claimed) if c > 0)
        print(f"| {name} | {len(results)} | {statistics.mean(claimed):.4f} | {statistics.mean(lower):.4f} | "
              f"{statistics.mean(estimate):.4f} | {violations} | {ratio:.3g} |")


def walk_table(pool, pairs):
    print(f"\nRandom walk: T = {WALK_ROUNDS} steps, σ = {WALK_SIGMA}, δ = 1e-5, the token started at the "
          "target (a start the observer knows), the same trials and confidence.\n")
    print("| claim | pairs | mean claimed ε | mean empirical ε (lower bound) | "
          "pairs with claimed ε < lower bound (VIOLATION) | largest lower bound / claimed |")
    print("|---|---|---|---|---|---|")
    for name, claim in WALK_CLAIMS:
        results = list(pool.map(
            lambda p: audit(p[0], p[1], walk_claim(p[1], claim), WALK_ROUNDS, WALK_SIGMA), pairs))
        claimed = [r["claimed_epsilon"] for r in results]
        lower = [r["empirical_epsilon_lower"] for r in results]
        violations = sum(r["verdict"] == "VIOLATION" for r in results)
        ratio = max(lo / c for lo, c in zip(lower, claimed) if c > 0)
        print(f"| {name} | {len(results)} | {statistics.mean(claimed):.4f} | {statistics.mean(lower):.4f} | "
              f"{violations} | {ratio:.3g} |")


if __name__ == "__main__":
    main()
