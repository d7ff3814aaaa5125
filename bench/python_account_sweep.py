#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
"""netdp.Account built once and evaluated at 20 values of σ, against 20 netdp.account calls, on
SNAP's ego network 414 (its largest connected component), in the same run: the wall time of each
and their ratio (docs/reference/performance.md, "Python: an account built once").

Usage (after `make python`):
  PYTHONPATH=build/release/python bench/python_account_sweep.py [EDGES] [METHOD] [ROUNDS]
EDGES defaults to ../shared/datasets/graphs/facebook/414.edges, METHOD to muffliato, ROUNDS to 20.
"""
import os
import sys
import time
import warnings

import numpy as np

import netdp


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "../shared/datasets/graphs/facebook/414.edges"
    method = sys.argv[2] if len(sys.argv) > 2 else "muffliato"
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    if not os.path.exists(path):
        sys.exit(f"{path} is missing: this benchmark needs ../shared/datasets (see its README)")
    warnings.simplefilter("ignore", netdp.NetdpWarning)
    g = netdp.graph(f"edgelist:{path}", lcc=True)
    sigmas = np.geomspace(0.25, 8.0, 20)
    options = {"method": method, "rounds": rounds}
    if method == "random-walk":
        options["rounds"] = rounds * g.num_nodes

    start = time.perf_counter()
    calls = [netdp.account(g, sigma=s, **options).summary["epsilon_max"] for s in sigmas]
    one_call = time.perf_counter() - start

    start = time.perf_counter()
    built = netdp.Account(g, **options)
    swept = [built.evaluate(s).summary["epsilon_max"] for s in sigmas]
    once = time.perf_counter() - start

    if calls != swept:
        sys.exit("the two ways gave different numbers")
    load = open("/proc/loadavg").read().split()[:3]
    print(f"{method}, {g.num_nodes} nodes, T = {options['rounds']}, 20 values of sigma; load average {' '.join(load)}")
    print(f"20 netdp.account calls:           {one_call:8.2f} s")
    print(f"netdp.Account once + 20 evaluate: {once:8.2f} s")
    print(f"ratio:                            {one_call / once:8.1f}x")


if __name__ == "__main__":
    main()
