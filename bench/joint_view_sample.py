#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""Times `netdp account --method muffliato` (the exact joint view) one observer at a time on a random
sample of a graph's nodes, and estimates the whole all-pairs run from it (docs/reference/performance.md).

Each run also pays a one-off (reading the graph, certifying lambda_min(W) for the Chebyshev basis),
measured on the node of smallest degree and taken off each sample; the estimate is
mean * n / threads.

Usage: bench/joint_view_sample.py NETDP_BINARY EDGE_LIST [--rounds 20] [--count 30] [--seed 11]
       [--threads 2]
"""
import argparse
import json
import random
import subprocess
import time

import numpy as np


def run(binary, edges, rounds, observer):
    start = time.time()
    out = subprocess.run([binary, "account", "--graph", "edgelist:" + edges, "--method", "muffliato",
                          "--rounds", str(rounds), "--sigma", "1", "--observer", str(observer), "--json",
                          "--summary-only", "--quiet", "--threads", "1"],
                         capture_output=True, text=True, check=True)
    elapsed = time.time() - start
    return elapsed, json.loads(out.stdout)["summary"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("edges")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    edges = np.loadtxt(args.edges, dtype=int)
    n = edges.max() + 1
    degree = np.bincount(edges.ravel(), minlength=n)
    random.seed(args.seed)
    sample = random.sample(range(n), args.count)
    one_off, _ = run(args.binary, args.edges, args.rounds, int(np.argmin(degree)))
    print(f"one-off (an observer of degree {degree.min()}): {one_off:.2f} s")
    total = 0.0
    for v in sample:
        elapsed, summary = run(args.binary, args.edges, args.rounds, v)
        total += max(elapsed - one_off, 0.0)
        print(f"observer {v}: degree {degree[v]}, {elapsed:.2f} s, mean epsilon {summary['epsilon_mean']:.3f}, "
              f"{summary['capped_pairs']} pairs capped", flush=True)
    mean = total / len(sample)
    print(f"mean per observer without the one-off {mean:.3f} s; estimate for all {n} observers on "
          f"{args.threads} threads: {mean * n / args.threads:.0f} s")


if __name__ == "__main__":
    main()
